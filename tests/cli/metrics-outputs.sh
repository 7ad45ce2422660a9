#!/usr/bin/env bash
# metrics --format folded, pprof and html: the kept windows' call stacks.
# On a simulated group recording (deterministic, no PMU needed): per
# function, the folded stacks ending in it add up to the metrics report's
# kept windows and each event's counts (both modes), go tool pprof's -top
# to the same counts per sample index, and the HTML page's hover box shows
# the report's CPI.
. "$(dirname "$0")/../lib.sh"

tool="$TOP/tests/tools/pprof_check.py"
cd "$TMP" || exit 1
"$PMPROF" sim -q arm-benchmark --iterations 2000 --seed 9 -o sim.data \
	-e '{cycles/period=100000,hf-period=300/,instructions,branch-misses,cache-references,cache-misses}:uS' ||
	{ not_ok "metrics-outputs: pmprof sim failed"; exit 0; }

# leaf_sums MODE WEIGHT: "function sum" of the folded stacks by leaf frame
leaf_sums() {
	"$PMPROF" metrics -i sim.data --mode "$1" --format folded --weight "$2" |
		awk '{ n = split($1, f, ";"); s[f[n]] += $NF } END { for (k in s) print k, s[k] }' |
		sort
}

# report_sums MODE KEY: "function sum" from the metrics JSON (KEY: kept, or
# an event's count)
report_sums() {
	"$PMPROF" metrics -i sim.data --mode "$1" --format json | python3 -c '
import json, sys
key = sys.argv[1]
for f in json.load(sys.stdin)["functions"]:
    v = f["samples"] - f["discarded"] if key == "kept" else f["counts"][key]
    if v:
        print(f["symbol"], v)' "$2" | sort
}

for mode in discard none; do
	check_eq "$mode: folded samples per function are the kept windows" \
		"$(report_sums "$mode" kept)" "$(leaf_sums "$mode" samples)"
	for ev in 'cycles/period=100000,hf-period=300/' instructions cache-references; do
		check_eq "$mode: folded --weight $ev per function is its count" \
			"$(report_sums "$mode" "$ev")" "$(leaf_sums "$mode" "$ev")"
	done
done

if command -v go >/dev/null; then
	export HOME="$TMP" GOCACHE="$TMP/go-cache"
	"$PMPROF" metrics -i sim.data --format pprof >sim.pb.gz
	for ev in samples instructions; do
		go tool pprof -sample_index="$ev" -top -nodefraction=0 -nodecount=1000000 \
			sim.pb.gz >"sim.$ev.top" 2>/dev/null
		key=$ev; [ "$ev" = samples ] && key=kept
		report_sums discard "$key" | awk 'BEGIN { print "Samples,Symbol" } { print $2 ",[.] " $1 }' >"sim.$ev.csv"
		check "pprof -sample_index=$ev per function equals the metrics report" \
			python3 "$tool" top "sim.$ev.top" "sim.$ev.csv"
	done
else
	skip metrics-outputs-pprof "no go (golang-go) for go tool pprof"
fi

if command -v chromium >/dev/null; then
	"$PMPROF" metrics -i sim.data --format html >sim.html
	leaf='all;main;run_behaviours;run_one;nest_1;fp_divider_stalls'
	. "$TOP/scripts/headless.sh"
	headless "$TMP/chromium" /dev/null \
		--dump-dom "file://$TMP/sim.html#info=${leaf//;/%3B}" >sim.dom
	cpi=$("$PMPROF" metrics -i sim.data --format json | python3 -c '
import json, sys
print([f["metrics"]["CPI"] for f in json.load(sys.stdin)["functions"] if f["symbol"] == "fp_divider_stalls"][0])')
	check "html: fp_divider_stalls' box shows the report's CPI ($cpi)" \
		python3 "$TOP/tests/tools/html_check.py" tip sim.dom "$leaf" "CPI=$cpi"
else
	skip metrics-outputs-html "no chromium"
fi
