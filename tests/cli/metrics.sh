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
		"'$PMPROF' metrics -i '$f' | grep -q '^# windows used [0-9]*, discarded 0, opening samples [0-9]*, throttles 0 (the kernel.s), burst stops 0, lost 0 (0 samples)'"
	check "task: --match callchain runs" "$PMPROF" metrics --mode discard --match callchain -i "$f"

	# Without GROUP_DESC (older or other tools' files, captures that lost
	# it): the groups come from the leader's read ids, so the windows
	# still equal perf's and the table is the one with GROUP_DESC.
	edit="$TOP/tests/tools/edit_features.py"
	python3 "$edit" drop GROUP_DESC "$f" "$TMP/nogd.data"
	check "no GROUP_DESC: perf reads the file and finds the feature missing" sh -c \
		"perf report --header-only -i '$TMP/nogd.data' 2>/dev/null | grep -q '^# missing features:.* GROUP_DESC'"
	against nogd
	"$PMPROF" metrics -i "$f" >"$TMP/gd.txt"
	"$PMPROF" metrics -i "$TMP/nogd.data" >"$TMP/nogd.txt"
	check_files_eq "no GROUP_DESC: the same table" "$TMP/gd.txt" "$TMP/nogd.txt"
	"$PMPROF" metrics --ci --format json -i "$f" >"$TMP/gd.json"
	"$PMPROF" metrics --ci --format json -i "$TMP/nogd.data" >"$TMP/nogd.json"
	check_files_eq "no GROUP_DESC: the same JSON, intervals too" "$TMP/gd.json" "$TMP/nogd.json"
	if perf inject -i "$f" -o - >"$TMP/task.pipe" 2>/dev/null; then
		python3 "$edit" drop GROUP_DESC "$TMP/task.pipe" "$TMP/nogd.pipe"
		"$PMPROF" metrics -i - <"$TMP/nogd.pipe" >"$TMP/nogd-pipe.txt"
		check_files_eq "no GROUP_DESC in a pipe: the same table" "$TMP/gd.txt" "$TMP/nogd-pipe.txt"
	else
		not_ok "perf inject -o - failed"
	fi
	# A GROUP_DESC that disagrees with the reads (cpu-clock's group given
	# two members where its reads carry three) is an input error at the
	# first SAMPLE that shows it, not a guess.
	python3 "$edit" group-size 0 2 "$f" "$TMP/gd2.data"
	"$PMPROF" metrics -i "$TMP/gd2.data" >/dev/null 2>"$TMP/gd2.err"
	check_eq "GROUP_DESC against the reads: exit 2" 2 $?
	check "GROUP_DESC against the reads: the message names the event" grep -q \
		"^pmprof: $TMP/gd2.data: offset [0-9]*: metrics: a sample of 'cpu-clock' reads its group, and names 'page-faults' (id [0-9]*), which GROUP_DESC does not put in its group" \
		"$TMP/gd2.err"
	off=$(sed -n 's/.*: offset \([0-9]*\): .*/\1/p' "$TMP/gd2.err")
	check "GROUP_DESC against the reads: the offset is perf's first SAMPLE" sh -c \
		"perf report -D -i '$TMP/gd2.data' 2>/dev/null | grep -m1 'PERF_RECORD_SAMPLE' | grep -q ' $(printf '0x%x' "${off:-0}") \['"
fi

# A workload run through a shell. perf 6.1 clears inherit for sample-read
# groups, so its recording holds only the shell's own samples (its
# windows still equal perf's); pmprof record keeps inherit where the
# kernel takes it with PERF_SAMPLE_READ (Linux 6.12, as perf 6.12 does),
# so the child's windows are there: per task (the child reports the
# parent's ids), equal to perf's values keyed by id and tid.
wl="$TOP/$BUILD/bench/workload"
if rec shell -e '{cpu-clock,task-clock}:S' -- sh -c "$wl -n 400 -o int_divider_stalls"; then
	against shell
fi
inherit_read=$(python3 - <<'PY'
import ctypes, os, struct
# perf_event_attr (128 bytes): cpu-clock, period 1e6, IP|TID|READ,
# read_format GROUP, disabled, inherit; pid 0, cpu -1.
attr = bytearray(128)
struct.pack_into('<IIQQQQQ', attr, 0, 1, 128, 0, 1000000, 0x1 | 0x2 | 0x10, 0x8, 0x3)
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(bytes(attr), 128)
fd = libc.syscall(298, buf, 0, -1, -1, 0)
print(1 if fd >= 0 else 0)
PY
)
if [ "$(uname -m)" != x86_64 ] || [ "$inherit_read" != 1 ]; then
	skip "metrics through a shell" "the kernel refuses inherit with PERF_SAMPLE_READ (before Linux 6.12)"
else
	for mode in fixed off; do
		n=sh-$mode
		$pin "$PMPROF" record -q --metrics --hf-mode $mode -o "$TMP/$n.data" -- \
			sh -c "$wl -n 3000 -o int_divider_stalls" >/dev/null 2>"$TMP/$n.err" ||
			{ not_ok "$n: pmprof record failed: $(tail -1 "$TMP/$n.err")"; continue; }
		check "$n: the groups inherit" sh -c \
			"perf evlist -v -i '$TMP/$n.data' 2>/dev/null | grep '^cpu-clock' | grep -q 'inherit: 1'"
		perf report -D -i "$TMP/$n.data" >"$TMP/$n.D" 2>/dev/null
		perf script -G -F tid,time,ip,sym,dso --ns -i "$TMP/$n.data" >"$TMP/$n.script" 2>/dev/null
		"$PMPROF" metrics --mode none --format json -i "$TMP/$n.data" >"$TMP/$n.json" ||
			{ not_ok "$n: pmprof metrics failed"; continue; }
		check "$n: window sums per task equal perf's per-sample values" \
			python3 "$tool" --per-task "$TMP/$n.D" "$TMP/$n.script" "$TMP/$n.json"
		check "$n: the child's function has windows" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert any(f["symbol"] == "int_divider_stalls" and f["dso"].endswith("workload") and f["samples"] > 0
           for f in d["functions"]), [(f["symbol"], f["samples"]) for f in d["functions"]]
' "$TMP/$n.json"
	done
fi

# No event reads its group (a plain `perf record`): nothing to measure;
# say so and how to record it.
if rec plain -e cpu-clock -- sh -c "$loop"; then
	"$PMPROF" metrics -i "$TMP/plain.data" >"$TMP/plain.out" 2>"$TMP/plain.err"
	check_eq "no group reads: exit 2" 2 $?
	check "no group reads: the message says what is missing and how to record it" sh -c \
		"grep -q 'PERF_SAMPLE_READ' '$TMP/plain.err' && grep -q 'pmprof record --metrics' '$TMP/plain.err' && grep -q \"{cycles,instructions}:S\" '$TMP/plain.err'"
	check_eq "no group reads: no table on stdout" "" "$(cat "$TMP/plain.out")"
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
