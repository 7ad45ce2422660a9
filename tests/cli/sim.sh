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
# The error only where the truth puts enough events in the windows: the
# expected count is the truth's rate times the windows' instructions,
# computed here from pmprof metrics' counts of the same file.
"$PMPROF" sim -q arm-benchmark --iterations 4000 -e "{cycles/period=1000000,hf-period=300/,$G" \
	-o e.data --compare --format json >e.json
"$PMPROF" metrics -i e.data --format json >e.metrics.json
check "sim: --compare reports an error only where it can be measured" python3 -c '
import json
d = json.load(open("e.json"))
mf = {f["symbol"]: f for f in json.load(open("e.metrics.json"))["functions"]}
seen_small = seen_big = 0
for f in d["functions"]:
    ins = mf[f["symbol"]]["counts"]["instructions"]
    for k, scale in (("BMKI", 1000.0), ("CMKI", 1000.0), ("CPI", 1.0)):
        m = f["metrics"][k]
        if m["truth"] is None or m["measured"] is None:
            continue
        want = m["truth"] / scale * ins
        assert abs(m["expected_events"] - want) < 1e-6 * max(want, 1), (f["symbol"], k, m, want)
        if want < 20:
            assert m["error"] is None and m["measurable"] is False, (f["symbol"], k, m)
            seen_small += 1
        else:
            assert m["measurable"] is True and m["truth"] != 0 and \
                abs(m["error"] - 100 * (m["measured"] - m["truth"]) / m["truth"]) < 1e-9, (f["symbol"], k, m)
            seen_big += 1
# the dividers BMKI 0.02: no error; branch_mispredicts BMKI 33 and every CPI: one
assert seen_small >= 5 and seen_big >= 8, (seen_small, seen_big)
assert d["functions"][0]["metrics"]["%CY"]["measurable"] is True
'
"$PMPROF" sim -q arm-benchmark --iterations 4000 -e "{cycles/period=1000000,hf-period=300/,$G" \
	-o e.data --compare >e.txt
check "sim: --compare says why some errors are left out" \
	grep -Eq '^# err left out in [0-9]+ cells where the truth puts under 20 events in the function.s windows' e.txt
check "sim: --compare of the topdown model: the level 1 beside the truth, in points" sh -c "
	\"$PMPROF\" sim -q topdown --iterations 3000 -o td.data --compare --format json \
		-e '{cycles/period=1000000,hf-period=300/,r8,r3e,r3d,r3b,r3a}:uS' |
	python3 -c '
import json, sys
d = json.load(sys.stdin)
f = {x[\"symbol\"]: x for x in d[\"functions\"]}[\"backend_bound\"][\"metrics\"]
be = f[\"BE%\"]
assert abs(be[\"truth\"] - 86) < 1 and abs(be[\"difference\"] - (be[\"measured\"] - be[\"truth\"])) < 1e-9 and abs(be[\"difference\"]) < 3, be
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
