#!/usr/bin/env bash
# pmprof metrics on real recordings: the window sums (per function for a
# workload, per DSO system-wide) equal those computed independently from
# `perf report -D`'s per-sample group values and `perf script`'s symbols
# (tests/tools/metrics_windows.py); then the command's options and errors.
. "$(dirname "$0")/../lib.sh"

have_perf || { skip metrics "perf cannot record here"; exit 0; }
tool="$TOP/tests/tools/metrics_windows.py"
# No exec or dlopen while sampling, and (below) one CPU: pmprof's session
# applies records in file order, perf script in time order, and a map
# written to another CPU's buffer than the samples after it would be
# resolved differently (for the session to fix with time ordering).
loop='i=0; while [ $i -lt 80000 ]; do i=$((i+1)); done'

rec() {	# rec NAME perf-record-args...
	local name=$1; shift
	$pin perf record -q -o "$TMP/$name.data" "$@" >/dev/null 2>"$TMP/$name.err" ||
		{ not_ok "$name: perf record failed: $(tail -1 "$TMP/$name.err")"; return 1; }
}

# against NAME [--by-dso]: pmprof's windows equal the ones from perf.
against() {
	local name=$1; shift
	perf report -D -i "$TMP/$name.data" >"$TMP/$name.D" 2>/dev/null
	perf script -F tid,time,ip,sym,dso --ns -i "$TMP/$name.data" \
		>"$TMP/$name.script" 2>/dev/null
	"$PMPROF" metrics --mode none --format json -i "$TMP/$name.data" >"$TMP/$name.json" ||
		{ not_ok "$name: pmprof metrics failed"; return; }
	check "$name: window sums equal perf's per-sample values" \
		python3 "$tool" "$@" "$TMP/$name.D" "$TMP/$name.script" "$TMP/$name.json"
}

# One CPU (perf and its workload): one ring buffer, so file order is time
# order for the maps too.
pin=
command -v taskset >/dev/null 2>&1 && pin="taskset -c 0"
if rec task -e '{cpu-clock,task-clock,page-faults}:S' -- sh -c "$loop"; then
	against task
	f="$TMP/task.data"
	# A fixed-period recording: mode none by default, every window used.
	check_eq "task: default mode is none" none \
		"$("$PMPROF" metrics --format json -i "$f" | python3 -c 'import json,sys; print(json.load(sys.stdin)["mode"])')"
	# discard: the same windows, some discarded, none lost.
	check "task: --mode discard keeps the windows and counts the discarded" python3 -c '
import json, subprocess, sys
pm, f = sys.argv[1], sys.argv[2]
a = json.loads(subprocess.check_output([pm, "metrics", "--format", "json", "-i", f]))
b = json.loads(subprocess.check_output([pm, "metrics", "--mode", "discard", "--format", "json", "-i", f]))
assert b["mode"] == "discard" and a["windows"] == b["windows"], (a["windows"], b["windows"])
assert b["discarded"] == sum(x["discarded"] for x in b["functions"])
assert b["samples"] == sum(x["samples"] for x in b["functions"]) == b["windows"]
assert b["kept"] + b["discarded"] == b["windows"]
assert a["discarded"] == 0 and b["discarded"] > 0
' "$PMPROF" "$f"
	check_eq "task: --top 3" 3 "$("$PMPROF" metrics --top 3 --format json -i "$f" |
		python3 -c 'import json,sys; print(len(json.load(sys.stdin)["functions"]))')"
	check "task: --ci gives ci95 pairs" python3 -c '
import json, subprocess, sys
d = json.loads(subprocess.check_output([sys.argv[1], "metrics", "--ci", "--format", "json", "-i", sys.argv[2]]))
f = d["functions"][0]
ci = f["ci95"]["%cpu-clock"]
v = f["metrics"]["%cpu-clock"]
assert ci[0] <= v <= ci[1], (ci, v)
' "$PMPROF" "$f"
	check_eq "task: TSV keeps Arm's order (Symbol, #, ...)" "Symbol	#	DIS%" \
		"$("$PMPROF" metrics --format tsv -i "$f" | head -1 | cut -f1-3)"
	check "task: table has the summary line" sh -c \
		"'$PMPROF' metrics -i '$f' | grep -q '^# windows used [0-9]*, discarded 0, opening samples [0-9]*, throttles 0, lost 0'"
	check "task: --match callchain runs" "$PMPROF" metrics --mode discard --match callchain -i "$f"
fi

pin=
if rec cpu -a -e '{cpu-clock,task-clock}:S' -- sh -c "$loop"; then
	# System-wide, other processes exec and map while we sample (see
	# above): windows, opening samples and total sums only.
	against cpu --totals
fi

"$PMPROF" metrics --mode sometimes -i /dev/null >/dev/null 2>&1
check_eq "bad --mode is a usage error" 1 $?
"$PMPROF" metrics --match caller -i /dev/null >/dev/null 2>&1
check_eq "bad --match is a usage error" 1 $?
"$PMPROF" metrics -i "$TMP/none.data" >/dev/null 2>&1
check_eq "missing input is an input error" 2 $?
head -c 300 "$TMP/task.data" >"$TMP/cut.data" 2>/dev/null
"$PMPROF" metrics -i "$TMP/cut.data" >/dev/null 2>"$TMP/cut.err"
check_eq "cut recording is an input error" 2 $?
