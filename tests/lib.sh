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

# perf_rows DATA OUT [OPTIONS...]: perf report's rows of DATA, --sort
# dso,sym, as compare_report.py reads them, into OUT
perf_rows() {
	local data=$1 out=$2
	shift 2
	perf report -i "$data" --stdio -q --sort dso,sym -F overhead,sample,period,dso,sym \
		--percent-limit 0 -g none --no-children "$@" >"$out" 2>/dev/null
}

# rows_as_perf NAME DATA [OPTIONS...]: pmprof report's rows of DATA are
# perf report's, --sort dso,sym: samples and period of each DSO and
# symbol, exactly (tests/tools/compare_report.py; a DSO's PLT stubs and
# _init one row where the two name them apart). OPTIONS go to both
# reports; their outputs stay in $TMP/NAME.perf and $TMP/NAME.csv.
rows_as_perf() {
	local name=$1 data=$2
	shift 2
	perf_rows "$data" "$TMP/$name.perf" "$@" ||
		{ not_ok "$name: perf report failed"; return 1; }
	"$PMPROF" report -i "$data" --format csv "$@" >"$TMP/$name.csv" 2>"$TMP/$name.pmerr" ||
		{ not_ok "$name: pmprof report failed: $(tail -1 "$TMP/$name.pmerr")"; return 1; }
	check "$name: rows equal perf report" \
		python3 "$TOP/tests/tools/compare_report.py" "$TMP/$name.perf" "$TMP/$name.csv"
}

# children_as_perf NAME DATA [PERF OPTIONS...]: pmprof report --children's
# rows of DATA are perf report --children's, --sort dso,sym: Children and
# Self to the hundredth of a percent (compare_report.py --children: perf's
# made-up row of a cut stack is none; PLT stubs as rows_as_perf). The
# outputs stay in $TMP/NAME.children.perf and $TMP/NAME.children.csv.
children_as_perf() {
	local name=$1 data=$2 out="$TMP/$1.children"
	shift 2
	perf report -i "$data" --stdio -q --children --sort dso,sym -g none \
		--percent-limit 0 "$@" >"$out.perf" 2>/dev/null ||
		{ not_ok "$name: perf report --children failed"; return 1; }
	"$PMPROF" report -i "$data" --children --format csv >"$out.csv" 2>"$out.pmerr" ||
		{ not_ok "$name: pmprof report --children failed: $(tail -1 "$out.pmerr")"; return 1; }
	check "$name: --children rows equal perf report --children" \
		python3 "$TOP/tests/tools/compare_report.py" --children "$out.perf" "$out.csv"
}

# wait_for CMD...: run CMD every 20 ms until it succeeds; 1 if it still
# fails after WAIT_MAX seconds (default 120: a guard against a hang, not a
# time anything is expected to take). For a condition a test created and
# must see happen (a handler installed, a process exec'd), never a sleep.
wait_for() {
	local end=$(( $(date +%s) + ${WAIT_MAX:-120} )) rc
	until "$@"; do
		rc=$?
		# a missing command is no condition to wait for
		[ "$rc" != 127 ] && [ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.02
	done
}

# handles_signal PID SIG: PID has a handler installed for SIG (its SigCgt).
handles_signal() {
	local num mask
	num=$(kill -l "$2") || return 1
	mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
	[ -n "$mask" ] && (( (16#$mask >> (num - 1)) & 1 ))
}

# runs_exe PID FILE: PID has exec'd FILE.
runs_exe() {
	[ "$(readlink "/proc/$1/exe" 2>/dev/null)" = "$(readlink -f "$2")" ]
}

# cpu_ticks PID: the CPU time PID has used (user + system, clock ticks).
cpu_ticks() {
	local stat
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	stat=${stat##*) }	# after "(comm) ", which may hold spaces
	set -- $stat
	echo $(( ${12} + ${13} ))
}

# used_cpu PID TICKS: PID has used at least TICKS clock ticks of CPU time.
# Wait for it with wait_for: so much work done, however loaded the machine.
used_cpu() {
	local t
	t=$(cpu_ticks "$1") && [ "$t" -ge "$2" ]
}

# recording_has_samples FILE: the recording pmprof record is making into
# FILE (FILE.PID.partial until it ends) already holds a sample
recording_has_samples() {
	local f
	for f in "$1".*.partial; do
		[ -e "$f" ] && "$PMPROF" dump -i "$f" 2>/dev/null | grep -q '^0x[0-9a-f]*\(+z0x[0-9a-f]*\)\? \[0x[0-9a-f]*\] SAMPLE ' &&
			return 0
	done
	return 1
}

# child_runs PID FILE: a child of PID has exec'd FILE; prints its pid.
child_runs() {
	local c
	for c in $(pgrep -P "$1"); do
		runs_exe "$c" "$2" && { echo "$c"; return 0; }
	done
	return 1
}

# build_report_prog TEST: tests/programs/report-prog.c as $TMP/report-prog
# (frame pointers, PIE); a failure is TEST's not_ok and ends the test.
# (-fno-plt: it calls libc through the GOT, so no sample falls in a PLT
# stub of its own, which perf 6.1 names _init or callee@plt by the shape
# of its symbol tree: tests/tools/perf_names.py)
build_report_prog() {
	gcc -O2 -g -fno-omit-frame-pointer -fno-plt -fPIE -pie -o "$TMP/report-prog" \
		"$TOP/tests/programs/report-prog.c" -lpthread ||
		{ not_ok "$1: cannot build report-prog"; exit 0; }
}

# perf_rec NAME perf-record-args...: perf record into NAME.data (here),
# its messages in NAME.err; a failure is NAME's not_ok.
perf_rec() {
	local name=$1; shift
	perf record -q -o "$name.data" "$@" >/dev/null 2>"$name.err" ||
		{ not_ok "$name: perf record failed: $(tail -1 "$name.err")"; return 1; }
}
