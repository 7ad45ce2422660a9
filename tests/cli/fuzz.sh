#!/usr/bin/env bash
# Every libFuzzer target, briefly: FUZZ_CHECK_RUNS inputs (default 20000)
# from seed 1, starting from the seed corpus alone rather than from what
# earlier runs found, so a run costs the same every time (a few seconds).
# `make fuzz` runs them longer, exploring.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
# Its own build directory: `make fuzz` (build-fuzz) may be running.
BUILD="${BUILD:-build}-fuzzcheck" FUZZ_RUNS="${FUZZ_CHECK_RUNS:-20000}" \
	FUZZ_SEED=1 FUZZ_FRESH=1 FUZZ_SECONDS="${FUZZ_CHECK_SECONDS:-120}" \
	tests/fuzz/run.sh | grep -v '^[0-9]* passed, '
