#!/usr/bin/env bash
# report --format folded: the stacks equal those folded from `perf script`
# on the same perf recordings (frame-pointer chains, DWARF unwinding, no
# chains), and the counts add up to the report's own totals for every
# --weight (samples, period, each event).
. "$(dirname "$0")/../lib.sh"

have_perf || { skip folded-perf "perf cannot record here"; exit 0; }
command -v gcc >/dev/null || { skip folded-perf "no gcc"; exit 0; }
fold="$TOP/tests/tools/fold_perf_script.py"
prog="$TMP/report-prog"
build_report_prog folded-perf
cd "$TMP" || exit 1

rec() { perf_rec "$@"; }

# same_as_perf NAME [--flat]: pmprof's stacks are perf script's, folded
same_as_perf() {
	perf script -i "$1.data" -F ip,sym --no-inline >"$1.perf" 2>/dev/null ||
		{ not_ok "$1: perf script failed"; return; }
	"$PMPROF" report -i "$1.data" --format folded >"$1.folded" 2>"$1.pmerr" ||
		{ not_ok "$1: pmprof report --format folded failed: $(tail -1 "$1.pmerr")"; return; }
	check "$1: folded stacks equal perf script's" \
		python3 "$fold" ${2:+"$2"} "$1.perf" "$1.folded"
}

# weight_sum NAME WEIGHT: the folded counts added up
weight_sum() {
	"$PMPROF" report -i "$1.data" --format folded --weight "$2" |
		awk '{ s += $NF } END { printf "%d\n", s }'
}

# totals NAME: "samples period EVENT=count ..." from the report's JSON
totals() {
	"$PMPROF" report -i "$1.data" --format json | python3 -c '
import json, sys
ev = json.load(sys.stdin)["events"]
print(sum(e["samples"] for e in ev), sum(e["event_count"] for e in ev),
      *("%s=%d" % (e["event"], e["event_count"]) for e in ev))'
}

# adds_up NAME: every weight's sum is the report's figure
adds_up() {
	local t samples period kv
	t=$(totals "$1") || { not_ok "$1: no JSON report"; return; }
	read -r samples period kv <<<"$t"
	check_eq "$1: --weight samples adds up to the report's samples" \
		"$samples" "$(weight_sum "$1" samples)"
	check_eq "$1: the default weight is samples" \
		"$samples" "$("$PMPROF" report -i "$1.data" --format folded |
			awk '{ s += $NF } END { printf "%d\n", s }')"
	check_eq "$1: --weight period adds up to the event counts" \
		"$period" "$(weight_sum "$1" period)"
	for kv in ${t#* * }; do
		check_eq "$1: --weight ${kv%=*} adds up to its event count" \
			"${kv#*=}" "$(weight_sum "$1" "${kv%=*}")"
	done
}

rec fp -e cpu-clock -g -- "$prog" single && {
	same_as_perf fp
	adds_up fp
	# the workload's own chain, outermost first
	if grep -q '^__libc_start_call_main;spin_alpha [0-9]' fp.folded; then
		ok "fp: spin_alpha under __libc_start_call_main"
	else
		not_ok "fp: no __libc_start_call_main;spin_alpha stack"
	fi
}
rec dwarf -e cpu-clock --call-graph dwarf -- "$prog" single &&
	same_as_perf dwarf
rec flat -e cpu-clock -e page-faults -- "$prog" single && {
	same_as_perf flat --flat
	adds_up flat
}
rec group -e '{cpu-clock,page-faults}:S' -g -- "$prog" single && {
	adds_up group
	# one table per group: its members' columns add up too
	"$PMPROF" report -i group.data --group --format csv >group.csv
	check_eq "group: --group gives the same folded stacks" \
		"$("$PMPROF" report -i group.data --format folded --weight page-faults | md5sum)" \
		"$("$PMPROF" report -i group.data --group --format folded --weight page-faults | md5sum)"
}

# --top and --percent-limit trim the tables, never the stacks
if [ -e fp.data ]; then
	check_eq "fp: --top leaves the stacks whole" \
		"$(md5sum <fp.folded)" \
		"$("$PMPROF" report -i fp.data --format folded --top 1 | md5sum)"
	expect "--weight of an event not recorded" 1 \
		"--weight: no event 'branch-misses' in this recording \(it has samples, period, cpu-clock\)" \
		"$PMPROF" report -i fp.data --format folded --weight branch-misses
	expect "--weight without a stack format" 1 "--weight: only for a stack format" \
		"$PMPROF" report -i fp.data --weight samples
	expect "folded from a command without stacks" 1 \
		"--format folded: this command keeps no call stacks" \
		"$PMPROF" mem -i fp.data --format folded
fi
