#!/usr/bin/env bash
# Every libFuzzer target, briefly (FUZZ_CHECK_SECONDS each, default 5):
# `make check` catches a parser that crashes on the seeds or on what a few
# seconds of fuzzing finds. `make fuzz` runs them for longer.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 1
BUILD="${BUILD:-build}-fuzz" FUZZ_SECONDS="${FUZZ_CHECK_SECONDS:-5}" \
	tests/fuzz/run.sh | grep -v '^[0-9]* passed, '
