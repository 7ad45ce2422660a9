#!/usr/bin/env bash
# Build every tests/fuzz/fuzz-*.c as a libFuzzer target and run each for
# FUZZ_SECONDS. Prints one "ok NAME ..." / "not ok NAME ..." line per
# target (the tests/lib.sh format) and ends with "N passed, N failed".
#
#   tests/fuzz/run.sh [--build-only] [NAME...]
#
# Environment:
#   BUILD          build directory (default build-fuzz)
#   FUZZ_SECONDS   seconds per target (default 300)
#   FUZZ_CC        compiler (default clang)
#   FUZZ_TIMEOUT   seconds one input may take before it counts as a hang (10)
#   FUZZ_FLAGS     extra libFuzzer flags
#   FUZZ_RUNS      stop each target after this many inputs (and at
#                  FUZZ_SECONDS at the latest)
#   FUZZ_SEED      libFuzzer's random seed (default: a new one each run)
#   FUZZ_FRESH=1   start from the seeds alone, in a temporary work corpus
#   FUZZ_TOTAL     the long mode (`make fuzz-long`): this many seconds in
#                  all, shared equally by the targets, which run one after
#                  the other; each keeps going after a crash (libFuzzer's
#                  fork mode) so that one finding does not end the hour,
#                  and fails if it wrote any crash, leak, timeout or OOM
#                  input
#
# `make check` runs FUZZ_RUNS=N FUZZ_SEED=1 FUZZ_FRESH=1: a bounded run from
# the seeds, not an ever-growing corpus (libFuzzer is still not quite
# deterministic: which inputs it tries varies a little). `make fuzz`
# explores.
#
# Seeds are read from tests/fuzz/corpus/NAME/ (kept in git, read only), a
# libFuzzer dictionary from tests/fuzz/NAME.dict when there is one; new
# inputs go to $BUILD/fuzz-corpus/NAME/ and crashes to
# $BUILD/fuzz-artifacts/NAME/. Reproduce a crash with
#   $BUILD/tests/fuzz/NAME $BUILD/fuzz-artifacts/NAME/crash-...
set -u
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build-fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-300}
FUZZ_CC=${FUZZ_CC:-clang}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}
FUZZ_FLAGS=${FUZZ_FLAGS:-}
FUZZ_RUNS=${FUZZ_RUNS:-}
FUZZ_SEED=${FUZZ_SEED:-}
FUZZ_FRESH=${FUZZ_FRESH:-0}
FUZZ_TOTAL=${FUZZ_TOTAL:-}
SAN=fuzzer-no-link,address,undefined

build_only=0
names=()
for a in "$@"; do
	case "$a" in
	--build-only) build_only=1 ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) names+=("${a%.c}") ;;
	esac
done

targets=()
for src in tests/fuzz/fuzz-*.c; do
	[ -f "$src" ] || continue
	name=$(basename "$src" .c)
	if [ ${#names[@]} -gt 0 ]; then
		case " ${names[*]} " in *" $name "*) ;; *) continue ;; esac
	fi
	targets+=("$name")
done

passed=0 failed=0 skipped=0
summary() {
	if [ "$skipped" -gt 0 ]; then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	[ "$failed" -eq 0 ]
}

if [ ${#targets[@]} -eq 0 ]; then
	echo "skip fuzz: no tests/fuzz/fuzz-*.c target${names:+ named ${names[*]}}"
	skipped=1
	summary; exit
fi
if ! command -v "$FUZZ_CC" >/dev/null; then
	echo "skip fuzz: $FUZZ_CC not found (scripts/deps.sh installs it)"
	skipped=1
	summary; exit
fi

keep_going=()
if [ -n "$FUZZ_TOTAL" ]; then
	FUZZ_SECONDS=$(( FUZZ_TOTAL / ${#targets[@]} ))
	[ "$FUZZ_SECONDS" -gt 0 ] || FUZZ_SECONDS=1
	keep_going=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi

# A clean make: flags from an outer make (CC=gcc, -j jobserver) must not
# leak into this build.
unset MAKEFLAGS MFLAGS MAKELEVEL
mkdir -p "$BUILD"
blog="$BUILD/fuzz-build.log"
bins=()
for t in "${targets[@]}"; do bins+=("$BUILD/tests/fuzz/$t"); done
# All at once in parallel; a target that fails is built again alone
# below, for its own error message, and the others still run.
make -j"$(nproc)" BUILD="$BUILD" CC="$FUZZ_CC" SAN="$SAN" "${bins[@]}" \
	>"$blog" 2>&1 || true

for t in "${targets[@]}"; do
	bin="$BUILD/tests/fuzz/$t"
	if ! make BUILD="$BUILD" CC="$FUZZ_CC" SAN="$SAN" "$bin" >"$blog.$t" 2>&1; then
		echo "not ok $t: does not build"
		grep -v '^ar \|^clang ' "$blog.$t" | tail -20 | sed 's/^/# /'
		failed=$((failed + 1))
		continue
	fi
	if [ "$build_only" = 1 ]; then
		echo "ok $t: built $bin"
		passed=$((passed + 1))
		continue
	fi
	seeds="tests/fuzz/corpus/$t" work="$BUILD/fuzz-corpus/$t"
	art="$BUILD/fuzz-artifacts/$t"
	if [ "$FUZZ_FRESH" = 1 ]; then
		work="$BUILD/fuzz-fresh/$t"
		rm -rf "$work"
	fi
	mkdir -p "$work" "$art"
	[ -d "$seeds" ] || seeds=
	dict=tests/fuzz/$t.dict
	[ -f "$dict" ] || dict=
	mkdir -p "$BUILD/fuzz-logs"; log="$BUILD/fuzz-logs/$t.log"
	before=$(find "$art" -type f | sort)
	start=$(date +%s)
	# shellcheck disable=SC2086 # FUZZ_FLAGS is a list of flags
	"$bin" -max_total_time="$FUZZ_SECONDS" -timeout="$FUZZ_TIMEOUT" \
		-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$art/" \
		${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} ${FUZZ_SEED:+-seed="$FUZZ_SEED"} \
		${dict:+-dict="$dict"} "${keep_going[@]}" $FUZZ_FLAGS \
		"$work" ${seeds:+"$seeds"} >"$log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	# Fork mode prints no final stats: its last "#RUNS:" progress line.
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	[ -n "$runs" ] || runs=$(sed -n 's/^#\([0-9]*\):* .*/\1/p' "$log" | tail -1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	found=$(comm -13 <(printf '%s\n' "$before") <(find "$art" -type f | sort) |
		sed '/^$/d')
	if [ -n "$found" ]; then
		echo "not ok $t: $(printf '%s\n' "$found" | wc -l) new input(s) in ${secs}s; log $log"
		printf '%s\n' "$found" | head -10 | sed 's/^/# /'
		# The distinct reports, most frequent first.
		grep -E 'ERROR|SUMMARY|runtime error' "$log" | sed 's/^==[0-9]*== *//' |
			sort | uniq -c | sort -rn | head -20 | sed 's/^/# /'
		failed=$((failed + 1))
	elif [ "$rc" -eq 0 ]; then
		echo "ok $t: ${runs:-?} runs in ${secs}s, coverage ${cov:-?}"
		passed=$((passed + 1))
	else
		echo "not ok $t: libFuzzer exited $rc after ${secs}s; log $log"
		grep -E 'ERROR|SUMMARY|artifact|Test unit written|runtime error' "$log" |
			head -20 | sed 's/^/# /'
		failed=$((failed + 1))
	fi
done
summary
