#!/usr/bin/env bash
# Tables that fit: every table of `pmprof metrics` (with and without --ci)
# and `pmprof sim --compare` on the test recordings is at most 120
# characters wide by default (COLUMNS unset, stdout not a terminal),
# measured here in characters; a 460-character C++ name is cut with an
# ellipsis, --wide shows it whole; --columns, --sort, --percent-limit,
# --min-windows; metrics from fewer than 30 windows marked '?'.
. "$(dirname "$0")/../lib.sh"

cd "$TMP" || exit 1
unset COLUMNS
G='instructions,branch-misses,cache-references,cache-misses}:uS'
TD='{cycles/period=1000000,hf-period=300/,r11,r3e,r3d,r3b,r3a}:uS'
sim() { "$PMPROF" sim -q "$@"; }

# widest FILE: the widest line that is not a "#" comment, in characters
widest() {
	python3 -c '
import sys
print(max([len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8") if not l.startswith("#")] or [0]))' "$1"
}

# fits NAME FILE [WIDTH]
fits() {
	local w
	w=$(widest "$2")
	if [ "$w" -le "${3:-120}" ] && [ "$w" -gt 40 ]; then
		ok "$1 ($w characters)"
	else
		not_ok "$1: $w characters"
		sed 's/^/# /' "$2" | head -12
	fi
}

# A model with a long demangled C++ name, as the issue's test had.
long='std::_Hashtable<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const, std::vector<unsigned long, std::allocator<unsigned long> > >, std::allocator<std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const, std::vector<unsigned long, std::allocator<unsigned long> > > > >::_M_find_before_node(unsigned long, x const&, y) const'
python3 - "$TOP/models/arm-benchmark.json" "$long" >long.json <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["name"] = "long-names"
m["functions"][0]["name"] = sys.argv[2]
json.dump(m, sys.stdout)
PY
check "the long name is ${#long} characters" test "${#long}" -ge 460

sim arm-benchmark --iterations 20000 -e "{cycles/period=1000000,hf-period=300/,$G" -o arm.data
sim resonant --iterations 2000 -e "{cycles/period=1000000,hf-period=300/,$G" -o res.data
sim topdown --iterations 3000 -e "$TD" -o td.data
sim topdown --iterations 3000 -o td2.data \
	-e '{cycles/period=1000000,hf-period=300/,r3e,r3d}:uS,{cycles/period=1000000,hf-period=300/,r3b,r3a}:uS'
sim long.json --iterations 2000 -e "{cycles/period=1000000,hf-period=300/,$G" -o long.data
recs="arm res td td2 long"
if cp "$TOP/tests/data/group-fp.data" . 2>/dev/null; then recs="$recs group-fp"; fi
for r in $recs; do
	"$PMPROF" metrics -i $r.data >$r.txt 2>$r.err
	fits "metrics -i $r.data fits 120 columns" $r.txt
	"$PMPROF" metrics -i $r.data --ci >$r.ci.txt 2>&1
	fits "metrics -i $r.data --ci fits 120 columns" $r.ci.txt
done
for m in arm-benchmark resonant topdown long.json; do
	spec="{cycles/period=1000000,hf-period=300/,$G"
	[ $m = topdown ] && spec=$TD
	sim $m --iterations 2000 -e "$spec" -o cmp.data --compare >cmp-${m%.json}.txt 2>&1
	fits "sim $m --compare fits 120 columns" cmp-${m%.json}.txt
done

check "metrics: the long name cut with an ellipsis" grep -q '^std::_Hashtable<.*…  ' long.txt
check "metrics: the columns left out are named" \
	grep -Eq '^# [0-9]+ columns? left out to fit 120 characters \(--wide shows them, --columns chooses\): ' long.ci.txt
"$PMPROF" metrics -i long.data --ci --wide >wide.txt
check "metrics --wide: the whole name, every column" sh -c "
	grep -qF '$long' wide.txt && ! grep -q 'left out' wide.txt && grep -q '±%L1DM' wide.txt"
COLUMNS=80 "$PMPROF" metrics -i arm.data >80.txt
fits "metrics with COLUMNS=80 fits 80" 80.txt 80
check "metrics --format csv: whole, never cut" sh -c "
	\"$PMPROF\" metrics -i long.data --format csv | grep -qF '\"$long\"'"

# --columns: the metrics asked for (and their intervals), any case
"$PMPROF" metrics -i arm.data --ci --columns cpi,%CY >cols.txt
check "metrics --columns cpi,%CY: Symbol DSO # DIS% CPI ±CPI %CY ±%CY" \
	grep -Eq '^Symbol +DSO +# +DIS% +CPI +±CPI +%CY +±%CY$' cols.txt
expect "metrics --columns with an unknown column" 1 \
	"--columns: no column 'XYZ' here; the columns are: Symbol, DSO, #, DIS%, CPI, IPC, " \
	"$PMPROF" metrics -i arm.data --columns CPI,XYZ
check "sim --compare --columns CPI: with its truth and error" sh -c "
	\"$PMPROF\" sim -q arm-benchmark --iterations 500 -e '{cycles/period=1000000,hf-period=300/,$G' \
		-o c2.data --compare --columns CPI | grep -Eq '^Symbol +# +DIS% +CPI +true CPI +err$'"

# --sort METRIC: greatest first
"$PMPROF" metrics -i arm.data --sort cpi --format json >sort.json
check "metrics --sort cpi: by CPI, greatest first" python3 -c '
import json, sys
f = json.load(open("sort.json"))["functions"]
v = [x["metrics"]["CPI"] for x in f if x["metrics"]["CPI"] is not None]
assert len(v) == 7 and v == sorted(v, reverse=True) and f[0]["symbol"] == "isb", v'
check "metrics --sort: the table in the same order" sh -c "
	\"$PMPROF\" metrics -i arm.data --sort CPI | grep -v '^#' | sed -n 2p | grep -q '^isb '"
expect "metrics --sort with a metric the recording lacks" 1 \
	"pmprof: --sort: no metric 'FE%' in this recording; it has #, CPI, IPC, " \
	"$PMPROF" metrics -i arm.data --sort FE%

# the significance filter, and the marks
check "metrics: dcache_miss (under 30 windows) marked ?" sh -c "
	grep -Eq '^dcache_miss .* [0-9.]+\? ' arm.txt && grep -q '^# ?: from fewer than 30 windows, a rough value' arm.txt &&
	! grep -E '^(isb|fp_divider_stalls) ' arm.txt | grep -q '?'"
check "metrics --top 3: no row marked, so no note of the marks" sh -c "
	\"$PMPROF\" metrics -i arm.data --top 3 >top3.txt && test \$(grep -vc '^#' top3.txt) = 4 && ! grep -q '?' top3.txt"
check "metrics --format json: few_windows names them" python3 -c '
import json, subprocess, sys
d = json.loads(subprocess.run([sys.argv[1], "metrics", "-i", "arm.data", "--format", "json"],
                              capture_output=True, check=True).stdout)
f = {x["symbol"]: x for x in d["functions"]}
assert "CPI" in f["dcache_miss"]["few_windows"] and f["dcache_miss"]["few_windows"]["CPI"] is True and f["isb"]["few_windows"] == {}, f["dcache_miss"]' "$PMPROF"
"$PMPROF" metrics -i arm.data --min-windows 30 >minw.txt
check "metrics --min-windows 30: dcache_miss left out, said so" sh -c "
	! grep -q '^dcache_miss ' minw.txt && grep -q '^isb ' minw.txt &&
	grep -q '^# 1 function with fewer windows or samples than asked (--min-windows, --percent-limit) left out' minw.txt"
"$PMPROF" metrics -i arm.data --percent-limit 5 --format json >pl.json
check "metrics --percent-limit 5: only functions with 5% of the samples" python3 -c '
import json
d = json.load(open("pl.json"))
f = d["functions"]
assert {x["symbol"] for x in f} == {"fp_divider_stalls", "int_divider_stalls", "isb", "branch_mispredicts"}, [x["symbol"] for x in f]'
