# Shared helpers for tests/cli/*.sh: source it, then call `ok`, `not_ok`,
# `check NAME CMD...`, `skip NAME WHY`. Each prints one line that
# tests/run.sh counts.
set -u
: "${TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${BUILD:=build}"
: "${PMPROF:=$TOP/$BUILD/pmprof}"
TMP=$(mktemp -d /tmp/pmprof-cli.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
# record (pmprof's and perf's) fills the build-id cache in $HOME/.debug:
# a home of the test's own, never the machine's
mkdir -p "$TMP/home"
export HOME="$TMP/home"

ok() { echo "ok $*"; }
not_ok() { echo "not ok $*"; }
skip() { local n=$1; shift; echo "skip $n: $*"; }

# check NAME CMD...: ok if CMD exits 0; shows its output otherwise.
check() {
	local name=$1; shift
	local out
	if out=$("$@" 2>&1); then
		ok "$name"
	else
		not_ok "$name"
		printf '%s\n' "$out" | tail -20 | sed 's/^/# /'
	fi
}

# tiny_tmpfs DIR [CLEANUP]: a full disk a test makes itself: a 64 KB tmpfs
# mounted at DIR (made here) and unmounted at exit, after CLEANUP (a
# command) runs. Without root, or where it cannot mount, prints a skip
# line and fails.
tiny_tmpfs() {
	if [ "$(id -u)" != 0 ]; then
		skip "full disk" "needs root to mount a tmpfs"
		return 1
	fi
	mkdir -p "$1"
	if ! mount -t tmpfs -o size=64k pmprof-test "$1" 2>/dev/null; then
		skip "full disk" "cannot mount a tmpfs here"
		return 1
	fi
	TINY_TMPFS=$1 TINY_TMPFS_CLEANUP=${2:-:}
	trap 'eval "$TINY_TMPFS_CLEANUP"; umount "$TINY_TMPFS" 2>/dev/null; rm -rf "$TMP"' EXIT
}

# check_eq NAME EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "#  expected: $2"
		echo "#  actual:   $3"
	fi
}

# check_files_eq NAME EXPECTED_FILE ACTUAL_FILE: ok if identical.
check_files_eq() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1"
		diff -u "$2" "$3" | head -30 | sed 's/^/# /'
	fi
}

# expect NAME STATUS PATTERN CMD...: CMD exits STATUS and its stderr
# matches PATTERN (grep -E); run in the current directory (out.txt, err.txt).
expect() {
	local name=$1 want=$2 pat=$3 rc
	shift 3
	"$@" >out.txt 2>err.txt
	rc=$?
	if [ "$rc" = "$want" ] && grep -Eq -- "$pat" err.txt; then
		ok "$name (exit $rc)"
	else
		not_ok "$name: exit $rc, wanted $want"
		sed 's/^/# /' err.txt | head -5
	fi
}

# Can this machine record with perf? (perf installed, paranoid allows it.)
have_perf() {
	command -v perf >/dev/null 2>&1 &&
		perf record -q -e cpu-clock -o "$TMP/.probe.data" true >/dev/null 2>&1
}
