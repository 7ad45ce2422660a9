#!/usr/bin/env bash
# pmprof sim from the command line: byte-for-byte determinism, the ELF's
# symbols (by readelf), the truth file, --compare, perf 6.1 reading the
# simulated recordings (attrs up to 128 bytes; it refuses 144-byte hf
# attrs, as expected), and usage and input errors.
. "$(dirname "$0")/../lib.sh"

G='instructions,branch-misses,cache-references,cache-misses}:uS'
sim() { "$PMPROF" sim -q "$@"; }

cd "$TMP" || exit 1
sim arm-benchmark --iterations 2000 -e "{cycles/period=100000,hf-period=300/,$G" -o a.data --seed 9 --truth a.json
mv a.data a1.data
sim arm-benchmark --iterations 2000 -e "{cycles/period=100000,hf-period=300/,$G" -o a.data --seed 9
check_files_eq "sim: same seed, same bytes" a1.data a.data
sim arm-benchmark --iterations 2000 -e "{cycles/period=100000,hf-period=300/,$G" -o b.data --seed 10
if cmp -s a.data b.data; then not_ok "sim: another seed, other bytes"; else ok "sim: another seed, other bytes"; fi

check "sim: the ELF has the seven functions and the driver" sh -c '
	readelf -sW arm-benchmark | awk "\$4 == \"FUNC\" {print \$8}" | sort | tr "\n" " " |
	grep -qx "branch_mispredicts dcache_miss double_to_int fp_divider_stalls int_divider_stalls isb main nest_1 nest_2 nest_3 nops run_behaviours run_one "'
check "sim: the ELF is an aarch64 executable" sh -c 'readelf -h arm-benchmark | grep -q "AArch64"'

check "sim: the truth is JSON with every function" python3 -c '
import json
d = json.load(open("a.json"))
names = sorted(f["symbol"] for f in d["functions"])
assert names == sorted(["fp_divider_stalls", "int_divider_stalls", "isb", "branch_mispredicts", "double_to_int", "nops", "dcache_miss"]), names
for e in d["events"]:
    assert sum(f["counts"][e] for f in d["functions"]) == d["totals"][e], e
assert d["seed"] == 9 and d["sampling"]["samples"] > 0
assert abs(sum(f["metrics"]["%CY"] for f in d["functions"]) - 100) < 1e-6
'

# pmprof metrics reads the file and finds the functions by the ELF.
check "sim: pmprof metrics resolves the functions" sh -c "
	\"$PMPROF\" metrics -i a.data --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
syms = {f[\"symbol\"] for f in d[\"functions\"]}
assert \"fp_divider_stalls\" in syms and \"isb\" in syms, syms
assert d[\"mode\"] == \"discard\"
'"
check "sim: --compare prints measured beside truth" sh -c "
	\"$PMPROF\" sim -q arm-benchmark --iterations 2000 -e '{cycles/period=100000,hf-period=300/,$G' -o c.data --compare --format json |
	python3 -c '
import json, sys
d = json.load(sys.stdin)
f = {x[\"symbol\"]: x for x in d[\"functions\"]}
cpi = f[\"isb\"][\"metrics\"][\"CPI\"]
assert abs(cpi[\"truth\"] - 20.1) < 0.5 and abs(cpi[\"error\"]) < 5, cpi
assert d[\"kept\"] + d[\"discarded\"] == d[\"windows\"]
'"
check "sim: --compare table" sh -c "
	\"$PMPROF\" sim -q arm-benchmark --iterations 500 -e '{cycles/period=100000/,$G' -o t.data --compare | grep -q '^isb '"

# perf 6.1: plain attrs (128 bytes) read without errors.
if command -v perf >/dev/null 2>&1; then
	sim arm-benchmark --iterations 2000 -e "{cycles/period=100000/,$G" -o p.data
	sim resonant --iterations 20000 -e "{cycles/period=30000/,$G" -o r.data
	for f in p.data r.data; do
		check "sim: perf report reads $f" sh -c "perf report -i $f --stdio >$f.report 2>$f.err && ! grep -qi 'error\|fail\|invalid' $f.err && grep -q ' \[\.\] ' $f.report"
		check "sim: perf script reads $f" sh -c "perf script -i $f >$f.script 2>$f.serr && ! grep -qi 'error\|fail\|invalid' $f.serr && test -s $f.script"
	done
	check "sim: perf resolves the simulated functions" sh -c "perf report -i p.data --stdio --no-children --sort sym 2>/dev/null | grep -q 'fp_divider_stalls'"
	# perf 6.1 knows attrs up to 128 bytes and refuses hf's 144.
	if perf report -i a1.data --stdio >/dev/null 2>&1; then
		not_ok "sim: perf 6.1 refuses 144-byte hf attrs"
	else
		ok "sim: perf 6.1 refuses 144-byte hf attrs"
	fi
else
	skip "sim: perf" "perf not installed"
fi

# Errors: usage 1, bad input 2.
"$PMPROF" sim arm-benchmark -o x.data 2>err; check_eq "sim: -e is needed" 1 $?
"$PMPROF" sim -e cycles 2>err; check_eq "sim: a model is needed" 1 $?
"$PMPROF" sim nonesuch.json -e cycles 2>err; check_eq "sim: missing model file" 2 $?
echo '{"functions": [{"name": "f"}]}' >bad.json
"$PMPROF" sim bad.json -e cycles 2>err; check_eq "sim: bad model" 2 $?
check "sim: the bad model's message names the problem" grep -q 'needs "instructions"' err
"$PMPROF" sim arm-benchmark -e 'cycles/period=100,hf-period=200/' -o x.data 2>err; check_eq "sim: hf-period above the period" 1 $?
"$PMPROF" sim arm-benchmark -e '{cycles/period=1000/,ref-cycles}:S' -o x.data 2>err; check_eq "sim: an event the model lacks" 1 $?
check "sim: the message names the event" grep -q 'ref-cycles' err
check_eq "sim: --list" "arm-benchmark resonant topdown" "$("$PMPROF" sim --list | tr '\n' ' ' | sed 's/ $//')"
