#!/usr/bin/env bash
# Run every test and end with one line: "N passed, N failed, N skipped".
#
# Unit tests are cmocka programs (build/tests/unit/test-*); each case
# counts. CLI tests are tests/cli/*.sh; each prints "ok NAME",
# "not ok NAME" or "skip NAME: why" per check (tests/lib.sh).
#   --unit-only      only the unit tests
#   --cli-only       only the CLI tests
#   --lab            only the lab's tests (tests/lab/*.sh: `make check-lab`)
#   --skip=NAME      not the test NAME (test-reader, inject ...); repeatable
#   UNIT_RUNNER      a command to run each unit test with (qemu-aarch64 ...)
#   PATTERN...       only tests whose file name contains a pattern
set -u
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
export BUILD
export PMPROF="$PWD/$BUILD/pmprof"
export TOP="$PWD"

unit=1 cli=1 cli_dir=tests/cli
patterns=() skips=()
for a in "$@"; do
	case "$a" in
	--unit-only) cli=0 ;;
	--cli-only) unit=0 ;;
	--skip=*) skips+=("${a#--skip=}") ;;
	--lab) unit=0 cli_dir=tests/lab ;;
	*) patterns+=("$a") ;;
	esac
done

selected() {
	local s
	for s in ${skips[@]+"${skips[@]}"}; do
		[ "$1" = "$s" ] && return 1
	done
	[ ${#patterns[@]} -eq 0 ] && return 0
	for p in "${patterns[@]}"; do
		case "$1" in *"$p"*) return 0 ;; esac
	done
	return 1
}

passed=0 failed=0 skipped=0
failures=()
log=$(mktemp -d /tmp/pmprof-tests.XXXXXX)
trap 'rm -rf "$log"' EXIT

if [ $unit = 1 ]; then
	for t in "$BUILD"/tests/unit/test-*; do
		[ -x "$t" ] || continue
		name=$(basename "$t")
		selected "$name" || continue
		out="$log/$name.out"
		timeout 600 ${UNIT_RUNNER:-} "$t" >"$out" 2>&1
		rc=$?
		p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')
		f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')
		s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			f=1	# crashed or timed out before cmocka could count
		fi
		passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
		if [ "$f" -ne 0 ]; then
			failures+=("$name")
			echo "FAIL $name"; sed 's/^/    /' "$out" | tail -40
		else
			echo "ok   $name ($p)"
		fi
	done
fi

if [ $cli = 1 ]; then
	for t in "$cli_dir"/*.sh; do
		[ -f "$t" ] || continue
		name=$(basename "$t" .sh)
		selected "$name" || continue
		out="$log/$name.out"
		timeout "${CLI_TIMEOUT:-900}" bash "$t" >"$out" 2>&1
		rc=$?
		p=$(grep -c '^ok ' "$out")
		f=$(grep -c '^not ok ' "$out")
		s=$(grep -c '^skip ' "$out")
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			echo "not ok $name: script exited $rc" >>"$out"
			f=1
		fi
		passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
		if [ "$f" -ne 0 ]; then
			failures+=("$name")
			echo "FAIL $name"; grep -v '^ok ' "$out" | sed 's/^/    /' | tail -60
		else
			echo "ok   $name ($p$([ "$s" -gt 0 ] && echo ", $s skipped"))"
		fi
	done
fi

[ ${#failures[@]} -gt 0 ] && echo "failed: ${failures[*]}"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
