#!/usr/bin/env bash
# Inputs from the hostile-input campaign (issue 13) that broke `metrics`
# and `sim`, kept in tests/data/regress/: each must give a clear answer or
# a clear error, never a crash or a run without end. Under a sanitizer
# build (BUILD=build-asan) these are the cases ASan and UBSan caught.
. "$(dirname "$0")/../lib.sh"

data="$TOP/tests/data/regress"
hf='{cycles/period=1000000,hf-period=300/,instructions}:uS'
cd "$TMP" || exit 1

# A valid recording with groups and no sample (what `sim resonant
# --iterations 1` writes): the table has the group's metric columns and no
# row, the JSON no function. (The table's order array was sized before
# the metrics existed; sorting copied from a NULL array.)
"$PMPROF" metrics -i "$data/metrics-no-samples.data" >nos.txt 2>nos.err
check_eq "no samples: metrics exits 0" 0 $?
check "no samples: the header has CPI and %I, no row follows" awk '
	/^#/ || NF == 0 { next }
	n++ == 0 { if ($0 !~ / CPI / || $0 !~ / %I/) exit 1; next }
	{ exit 1 }
	END { exit n == 1 ? 0 : 1 }' nos.txt
check "no samples: JSON has no function and both events" python3 -c '
import json, subprocess, sys
d = json.loads(subprocess.check_output([sys.argv[1], "metrics", "--format", "json", "-i", sys.argv[2]]))
ev = d["events"]
assert d["functions"] == [] and len(ev) == 2, d
assert ev[0].startswith("cycles/") and ev[1].startswith("instructions"), ev
assert d["windows"] == 0 and d["kept"] == 0
' "$PMPROF" "$data/metrics-no-samples.data"
"$PMPROF" metrics --format tsv -i "$data/metrics-no-samples.data" >nos.tsv 2>&1
check_eq "no samples: TSV (Arm's order) exits 0" 0 $?

# sim --compare on runs too short for a sample (1 to about 900 iterations
# of resonant): the results were read after the session that held their
# events was deleted. Each prints the truth (the model's CPI: 1.0 and 1.5)
# beside no measurement.
for it in 1 350 700; do
	"$PMPROF" sim -q resonant -e "$hf" -o "c$it.data" --iterations "$it" \
		--compare --format json >"c$it.json" 2>"c$it.err"
	check_eq "sim --compare --iterations $it exits 0" 0 $?
	check "sim --compare --iterations $it: no sample, the truth beside nothing" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["samples"] == 0 and d["windows"] == 0, d
cpi = {f["symbol"]: f["metrics"]["CPI"] for f in d["functions"]}
assert cpi["resonant_head"]["truth"] == 1.0 and cpi["resonant_body"]["truth"] == 1.5, cpi
assert all(c["measured"] is None for c in cpi.values()), cpi
' "c$it.json"
done

# Model numbers out of range: a message naming the field, exit 2, at once.
# 1e30 instructions was undefined behaviour (a double past uint64_t);
# 2^53 + 1 wrote 1.4 GB in 10 s and ran on. ulimit keeps a regression
# from filling the disk.
for m in sim-instructions-1e30 sim-instructions-2p53; do
	(ulimit -f 4096; timeout 60 "$PMPROF" sim -q "$data/$m.json" -e "$hf" -o "$m.data") \
		>/dev/null 2>"$m.err"
	check_eq "$m: refused as bad input" 2 $?
	check "$m: the message names the field and its range" \
		grep -q "$m.json: f.instructions: at most 1e+12" "$m.err"
done

# --max-size bounds the output: a run that would write more stops with an
# error naming the output, and what it left (if anything) is within it.
"$PMPROF" sim -q resonant --iterations 200000 -e 'cycles/period=1000/' \
	--max-size 64K -o big.data >/dev/null 2>big.err
check_eq "--max-size 64K: a longer run stops, exit 2" 2 $?
check "--max-size: the message names the output and the bound" \
	grep -q "^pmprof: big.data: the output would pass --max-size (65536 bytes)" big.err
if [ -e big.data ]; then
	check "--max-size: what was written is within it" test "$(stat -c %s big.data)" -le 65536
fi
"$PMPROF" sim -q resonant --iterations 2000 -e 'cycles/period=1000/' \
	--max-size 1M -o small.data >/dev/null 2>small.err
check_eq "--max-size 1M: a run that fits succeeds" 0 $?
check "--max-size 1M: and its output is whole" "$PMPROF" report -i small.data -q
for bad in 0 12Q K -5; do
	"$PMPROF" sim -q resonant -e 'cycles/period=1000/' --max-size "$bad" \
		-o x.data >/dev/null 2>x.err
	check_eq "--max-size $bad is a usage error" 1 $?
done
