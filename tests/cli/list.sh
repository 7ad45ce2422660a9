#!/usr/bin/env bash
# pmprof list: every event it lists opens here: `record --dry-run`
# accepts each, a short real recording of each software event works;
# the legacy events it keeps are exactly those perf stat can count here;
# tracepoints match tracefs; the fixture PMU's formats and events; the
# --metrics group is the one record --metrics picks.
. "$(dirname "$0")/../lib.sh"
WORKLOAD="$TOP/$BUILD/bench/workload"
ALPHA="$TOP/tests/data/sysfs-alpha"
cd "$TMP" || exit 1
command -v python3 >/dev/null 2>&1 || { skip list "python3 not installed"; exit 0; }

"$PMPROF" list --json >list.json 2>list.err
check_eq "list --json exits 0" 0 $?
names() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("\n".join(e["name"] for e in d["events"] if e["kind"] in sys.argv[2].split(",")))' "$@"; }

# record --dry-run takes every listed event, kind by kind, in one run
for kind in hardware software cache tracepoint pmu; do
	names list.json $kind >"$kind.txt"
	n=$(grep -c . "$kind.txt")
	[ "$n" = 0 ] && { ok "list: no $kind events here (none opens)"; continue; }
	args=()
	while IFS= read -r e; do args+=(-e "$e"); done <"$kind.txt"
	got=$("$PMPROF" record "${args[@]}" --dry-run --format json 2>dry.err |
		python3 -c 'import json,sys; print(len(json.load(sys.stdin)))' 2>/dev/null)
	check_eq "list: record --dry-run accepts all $n $kind events" "$n" "$got"
	[ "$got" = "$n" ] || head -3 dry.err | sed 's/^/# /'
done

# the legacy events listed are those that count here, as perf stat says
if command -v perf >/dev/null 2>&1; then
	for e in cycles instructions branch-misses cache-misses cpu-clock task-clock page-faults \
		 context-switches alignment-faults L1-dcache-loads dTLB-load-misses; do
		if perf stat -x, -e "$e" -- true 2>&1 | grep -q '<not supported>'; then want=no; else want=yes; fi
		if grep -qx -- "$e" hardware.txt software.txt cache.txt 2>/dev/null ||
		   python3 -c 'import json,sys; d=json.load(open("list.json")); sys.exit(0 if any(sys.argv[1] in e["aliases"] for e in d["events"]) else 1)' "$e"; then
			have=yes
		else
			have=no
		fi
		check_eq "list: $e listed iff perf stat counts it here ($want)" "$want" "$have"
	done
fi

# a short real recording of every software event
if [ -x "$WORKLOAD" ] && have_perf; then
	while IFS= read -r e; do
		"$PMPROF" record -q -N -e "$e" -c 1000 -o sw.data -- "$WORKLOAD" -n 20 >/dev/null 2>sw.err
		rc=$?
		if [ "$rc" = 0 ] && "$PMPROF" dump -i sw.data >/dev/null 2>&1 &&
		   perf report -i sw.data --stdio >/dev/null 2>&1; then
			ok "list: a recording of $e works"
		else
			not_ok "list: a recording of $e works (exit $rc)"
			head -3 sw.err | sed 's/^/# /'
		fi
	done <software.txt
fi

# tracepoints: the tracefs directories with an id, counted apart
tfs=""
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -d "$d/events/sched" ] && { tfs=$d; break; }
done
if [ -n "$tfs" ]; then
	want=$(ls -d "$tfs"/events/sched/*/id 2>/dev/null | wc -l)
	got=$("$PMPROF" list 'sched:*' --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(1 for e in d["events"] if e["kind"] == "tracepoint" and e["name"].startswith("sched:")))')
	check_eq "list 'sched:*': every sched tracepoint of tracefs" "$want" "$got"
	other=$("$PMPROF" list 'sched:*' --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(1 for e in d["events"] if not e["name"].startswith("sched:")))')
	check_eq "list 'sched:*': nothing else" 0 "$other"
else
	skip "list: tracepoints" "no tracefs mounted"
fi
got=$("$PMPROF" list sw --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sorted(set(e["kind"] for e in d["events"])))')
check_eq "list sw: software events only" "['software']" "$got"

# the fixture PMU: formats and events as the files say, and each opens
# in a dry run against the same tree
"$PMPROF" list --sysfs "$ALPHA" --json >alpha.json
got=$(python3 -c 'import json; d=json.load(open("alpha.json")); p=[p for p in d["pmus"] if p["name"]=="cpu"][0]; print(p["type"], p["core"], p["formats"]["profileme"], p["formats"]["event"])')
check_eq "list --sysfs: the cpu PMU's type and formats" "4 True config:32 config:0-7" "$got"
got=$(python3 -c 'import json; d=json.load(open("alpha.json")); print([e["terms"] for e in d["events"] if e["name"]=="cpu/pm_retired/"])')
check_eq "list --sysfs: the PMU's events/ alias" "['event=0x1,profileme']" "$got"
names alpha.json hardware,software,cache,tracepoint,pmu >alpha.txt
args=()
while IFS= read -r e; do args+=(-e "$e"); done <alpha.txt
n=$(grep -c . alpha.txt)
got=$("$PMPROF" record --sysfs "$ALPHA" "${args[@]}" --dry-run --format json 2>/dev/null |
	python3 -c 'import json,sys; print(len(json.load(sys.stdin)))' 2>/dev/null)
check_eq "list --sysfs: record --sysfs --dry-run accepts all $n events" "$n" "$got"

# the --metrics group: what record --metrics says it records
# (with a PMU the group has a line of its own; without one it is in the line
# that says so)
want=$("$PMPROF" record --metrics --dry-run 2>&1 >/dev/null |
	sed -n 's/^pmprof record: --metrics: \({.*\)$/\1/p; s/^pmprof record: --metrics: no hardware PMU.* recording \({.*}:S\), .*/\1/p' | head -1)
got=$(python3 -c 'import json; print(json.load(open("list.json"))["metrics"]["spec"])')
check_eq "list: the group record --metrics records" "$want" "$got"
if "$PMPROF" list | grep -q -- "record --metrics would record here"; then ok "list: the text says the --metrics group"
else not_ok "list: the text says the --metrics group"; fi
expect "list: two patterns are a usage error" 1 "one PATTERN" "$PMPROF" list a b
