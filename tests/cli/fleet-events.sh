#!/usr/bin/env bash
# A fleet whose recordings record other events, or the same in another
# order: the events match by name. Checked against each recording's own
# report, added up here:
#   - report -i A -i B, A with (cpu-clock, page-faults) and B with
#     (page-faults, cpu-clock): each event's Samples and Period per
#     (shared object, symbol) are A's plus B's;
#   - report -i A -i C, C with cpu-clock alone: cpu-clock is A's plus C's,
#     page-faults A's alone, and the notes say that C lacks it;
#   - metrics over groups of the same members in another order: each
#     member's counts per function add up; an event the first recording
#     lacks, or a group of other members, is refused naming the file and
#     the event (exit 2).
. "$(dirname "$0")/../lib.sh"

tool="$TOP/tests/tools/fleet_check.py"
workload="$TOP/$BUILD/bench/workload"
cd "$TMP" || exit 1

rec() {	# rec OUT EVENTS...: the workload recorded with each -e
	local out=$1; shift
	"$PMPROF" record -q "$@" -o "$out" -- "$workload" -n 200 >/dev/null 2>"$out.err" ||
		{ not_ok "fleet-events: record $out failed: $(tail -1 "$out.err")"; exit 0; }
}

# ---- report: hotspot tables per event, by name ----
rec A.data -e cpu-clock,page-faults
rec B.data -e page-faults,cpu-clock
rec C.data -e cpu-clock
for f in A B C; do "$PMPROF" report -i $f.data --format csv >$f.csv; done
check "fleet-events: the recordings record their events in their own order" \
	sh -c 'grep -q "^cpu-clock," A.csv && grep -q "^page-faults," B.csv &&
	       [ "$(sed -n 2p A.csv | cut -d, -f1)" = cpu-clock ] &&
	       [ "$(sed -n 2p B.csv | cut -d, -f1)" = page-faults ]'
"$PMPROF" report -i A.data -i B.data --format csv >AB.csv
check "fleet-events: events in another order add up by name, per symbol" \
	python3 "$tool" sums AB.csv A.csv B.csv
"$PMPROF" report -i B.data -i A.data --format csv >BA.csv
check "fleet-events: the other order of the inputs, the same sums" \
	python3 "$tool" sums BA.csv A.csv B.csv
"$PMPROF" report -i A.data -i C.data --format csv >AC.csv 2>AC.err
check "fleet-events: an event one recording lacks is the others' alone" \
	python3 "$tool" sums AC.csv A.csv C.csv=cpu-clock
"$PMPROF" report -i A.data -i C.data >AC.txt 2>&1
check "fleet-events: the notes say which recording lacks the event" \
	grep -q '^event page-faults: not recorded in C\.data ' AC.txt
check "fleet-events: and of no event they all record" \
	sh -c '! grep -q "^event cpu-clock: not recorded" AC.txt'
"$PMPROF" report -i C.data -i A.data --format csv >CA.csv
check "fleet-events: an event the first recording lacks is counted too" \
	python3 "$tool" sums CA.csv A.csv C.csv=cpu-clock
"$PMPROF" report -i C.data -i A.data >CA.txt 2>&1
check "fleet-events: and noted as the first's lack" \
	grep -q '^event page-faults: not recorded in C\.data ' CA.txt

# ---- metrics: a group's members by name ----
rec g1.data -e '{cpu-clock,page-faults,minor-faults}:S'
rec g2.data -e '{cpu-clock,minor-faults,page-faults}:S'
rec g3.data -e '{cpu-clock,page-faults,minor-faults}:S' -e task-clock
rec g4.data -e '{cpu-clock,page-faults}:S'
for f in g1 g2 g3; do "$PMPROF" metrics -i $f.data --format json >$f.json; done
"$PMPROF" metrics -i g1.data -i g2.data --format json >g12.json
check "fleet-events: metrics over a group's members in another order: each adds up" \
	python3 "$tool" metrics g12.json g1.json g2.json
"$PMPROF" metrics -i g3.data -i g1.data --format json >g31.json
check "fleet-events: metrics with an event only in the first: the sums of both" \
	python3 "$tool" metrics g31.json g3.json g1.json
"$PMPROF" metrics -i g3.data -i g1.data >g31.txt 2>&1
check "fleet-events: metrics notes the event a recording lacks" \
	grep -q '^event task-clock: not recorded in g1\.data ' g31.txt
expect "fleet-events: metrics refuses an event the first recording lacks" 2 \
	'^pmprof: g3\.data: records task-clock, which the first recording does not' \
	"$PMPROF" metrics -i g1.data -i g3.data
expect "fleet-events: metrics refuses a group of other members" 2 \
	'^pmprof: g4\.data: records cpu-clock in a group of other members' \
	"$PMPROF" metrics -i g1.data -i g4.data
# report --group: a column per member, by position
expect "fleet-events: report --group refuses a group of the same leader in another order" 2 \
	'^pmprof: g2\.data: --group: its group of cpu-clock is {cpu-clock,minor-faults,page-faults}, g1\.data.s {cpu-clock,page-faults,minor-faults}' \
	"$PMPROF" report --group -i g1.data -i g2.data
"$PMPROF" report --group -i g1.data -i g3.data --format csv >g13.csv 2>g13.err
check "fleet-events: report --group over groups of the same members: exit 0" \
	test -s g13.csv
