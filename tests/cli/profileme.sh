#!/usr/bin/env bash
# pmprof profileme and pmprof mem on fixture recordings written by
# test-profileme-fixtures --write (the fixture kit): JSON compared with
# the documents worked out by hand in that test, the text and CSV shapes,
# the 21%/0% branch observation, errors, and the symbols perf 6.1 resolves
# in the same recordings.
. "$(dirname "$0")/../lib.sh"

GEN="$TOP/$BUILD/tests/unit/test-profileme-fixtures"
SAME="$TOP/tests/tools/json_same.py"
FX="$TMP/fx"

if [ ! -x "$GEN" ]; then
	skip profileme "no $GEN (make tests)"
	exit 0
fi
"$GEN" --write "$FX" >/dev/null 2>&1
check "profileme: fixtures written" test -s "$FX/rules-le.data" -a -s "$FX/rules-be.data"

pm() { "$PMPROF" profileme "$@"; }
rules_opts() { echo "--symfs $FX/symfs-alpha --kallsyms $FX/kallsyms"; }

# ---- JSON against the hand-computed documents, both byte orders ---------
for order in le be; do
	pm -i "$FX/rules-$order.data" $(rules_opts) --format json >"$TMP/sym-$order.json"
	check "profileme: symbol view JSON ($order)" \
		python3 "$SAME" "$TMP/sym-$order.json" "$FX/expect-symbol.json"
	pm -i "$FX/rules-$order.data" $(rules_opts) --pc --format json >"$TMP/pc-$order.json"
	check "profileme: pc view JSON ($order)" \
		python3 "$SAME" "$TMP/pc-$order.json" "$FX/expect-pc.json"
done
check_files_eq "profileme: both byte orders give the same JSON" \
	"$TMP/pc-le.json" "$TMP/pc-be.json"

# ---- text and CSV shapes -------------------------------------------------
pm -i "$FX/rules-le.data" $(rules_opts) >"$TMP/text"
check_eq "profileme: first line" "17 ProfileMe samples, 4 without ProfileMe data" \
	"$(head -1 "$TMP/text")"
check_eq "profileme: one table per SL1 value" \
	"pctr1 counts cycles:|pctr1 counts retire delay:|pctr1 counts bcache misses:|pctr1 counts mbox replays:" \
	"$(grep '^pctr1 counts' "$TMP/text" | paste -sd'|')"
# main: 8 samples, killed 2/8, invalid 2/8, mispr 1/8, taken 2/8, stall 1/8, mean 25
check "profileme: text row of main" grep -Eq \
	'^ +8 +25\.0% +25\.0% +12\.5% +25\.0% +12\.5% +25\.0 +prog +main +other=2 ' "$TMP/text"
pm -i "$FX/rules-le.data" $(rules_opts) --format csv >"$TMP/csv"
check_eq "profileme: CSV has an sl1 column and 6 rows (3+1+1+1)" "sl1 7" \
	"$(head -1 "$TMP/csv" | cut -d, -f1) $(wc -l <"$TMP/csv")"
pm -i "$FX/rules-le.data" $(rules_opts) --pc --top 1 --format json >"$TMP/top.json"
check_eq "profileme: --top 1 keeps one row per table" "1 1 1 1" \
	"$(python3 -c 'import json,sys; print(*[len(t["rows"]) for t in json.load(open(sys.argv[1]))["tables"]])' "$TMP/top.json")"
pm -i "$FX/rules-le.data" $(rules_opts) --pc --sort pc --format json >"$TMP/sorted.json"
check_eq "profileme: --sort pc: PCs ascending, PAL entries last" \
	"0x0000000120001010 0x0000000120001014 0x0000000120001018 0x000000012000101c 0x0000000120001020 0x0000000120001024 0x0000000120001104 0xfffffc0000310040 PAL+0x2c1 PAL+0x481 PAL+0x581 PAL+0x681" \
	"$(python3 -c 'import json,sys; print(*[r["pc"] for r in json.load(open(sys.argv[1]))["tables"][0]["rows"]])' "$TMP/sorted.json")"

# ---- errors ---------------------------------------------------------------
pm -i "$FX/rules-le.data" --sort nosuch >/dev/null 2>&1
check_eq "profileme: unknown --sort is a usage error" 1 $?
pm -i "$TMP/missing.data" >/dev/null 2>&1
check_eq "profileme: missing file is an input error" 2 $?
"$PMPROF" mem -i "$FX/rules-le.data" --sort nosuch >/dev/null 2>&1
check_eq "mem: unknown --sort is a usage error" 1 $?
if [ -s "$TOP/tests/data/pipe.data" ]; then
	out=$(pm -i "$TOP/tests/data/pipe.data" 2>"$TMP/err" | head -1)
	check_eq "profileme: an x86 recording has no ProfileMe samples" \
		"0 ProfileMe samples, 875 without ProfileMe data" "$out"
	check "profileme: and says why" grep -q "not an Alpha recording" "$TMP/err"
fi

# ---- pmprof mem -------------------------------------------------------------
for f in mem-alpha-le:symfs-prog mem-alpha-be:symfs-prog mem-x86:symfs-x86; do
	data=${f%%:*} symfs=${f#*:}
	if [ ! -s "$FX/$data.data" ]; then
		skip "mem: $data" "no compiler for it (gcc-12-alpha-linux-gnu)"
		continue
	fi
	"$PMPROF" mem -i "$FX/$data.data" --symfs "$FX/$symfs" --format json >"$TMP/$data.json"
	check "mem: JSON ($data)" python3 "$SAME" "$TMP/$data.json" "$FX/expect-mem.json"
done
if [ -s "$FX/mem-alpha-le.data" ]; then
	"$PMPROF" mem -i "$FX/mem-alpha-le.data" --symfs "$FX/symfs-prog" --sort tlb >"$TMP/memtext"
	check_eq "mem: text first line" "8 samples with a data source, 2 whose data source is N/A (no field known), 1 without" \
		"$(head -1 "$TMP/memtext")"
	check_eq "mem: --sort tlb puts hits first, then the miss, then N/A" "hit hit hit miss N/A" \
		"$(awk 'NR > 3 { print $4 }' "$TMP/memtext" | paste -sd' ')"
fi

# ---- the published observation: 21% mispredicted, 0% sorted ---------------
for kind in random sorted; do
	if [ ! -s "$FX/branch-$kind.data" ]; then
		skip "profileme: branch on $kind data" "no Alpha cross compiler"
		continue
	fi
	read -r pc n mis taken <"$FX/branch-$kind.expect"
	pm -i "$FX/branch-$kind.data" --symfs "$FX/symfs-prog" --pc --format json >"$TMP/br.json"
	check_eq "profileme: branch on $kind data: samples mispredicted taken srcline" \
		"$pc $n $mis $taken prog.c:14" \
		"$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["tables"][0]["rows"][0]; print(r["pc"], r["samples"], r["mispredicted"], r["taken"], r["srcline"])' "$TMP/br.json")"
	want=$([ $kind = random ] && echo 21.2 || echo 0.0)
	check_eq "profileme: branch on $kind data: mispr% in the table" "$want" \
		"$(pm -i "$FX/branch-$kind.data" --symfs "$FX/symfs-prog" --pc | awk '/count\+/ { sub("%", "", $4); print $4 }')"
done

# ---- perf 6.1 resolves the same symbols -------------------------------------
if ! command -v perf >/dev/null 2>&1; then
	skip "profileme: perf comparison" "perf not installed"
elif [ ! -s "$FX/branch-random.data" ]; then
	skip "profileme: perf comparison" "no Alpha cross compiler"
else
	# Instruction view: perf's sym+off and srcline of the branch.
	perf script -i "$FX/branch-random.data" --symfs "$FX/symfs-prog" \
		-F ip,sym,symoff,srcline 2>/dev/null | head -2 | paste -sd' ' |
		python3 -c 'import sys; ip, sym, src = sys.stdin.read().split()[:3]; print("0x%016x %s %s" % (int(ip, 16), sym, src))' >"$TMP/perf-br"
	pm -i "$FX/branch-random.data" --symfs "$FX/symfs-prog" --pc --format json >"$TMP/br.json"
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["tables"][0]["rows"][0]; print(r["pc"], r["symbol"], r["srcline"])' \
		"$TMP/br.json" >"$TMP/pm-br"
	check_files_eq "profileme: pc, sym+off and srcline equal perf script's" \
		"$TMP/perf-br" "$TMP/pm-br"
	# Symbol view on the memory recordings (both orders): samples per
	# symbol of the data-source event, perf's and pmprof's.
	for order in le be; do
		# a data source that perf prints all N/A (or No) is no data
		# source: pmprof counts it apart ("na"), not in the rows
		perf script -i "$FX/mem-alpha-$order.data" --symfs "$FX/symfs-prog" \
			-F raw:ip,sym,data_src -F sw:ip 2>/dev/null | grep '|OP ' |
			grep -Ev '[|]OP (N/A|No)[|]LVL N/A[|]SNP N/A[|]TLB N/A[|]LCK (N/A|No)[|]BLK  N/A ' |
			awk '{ print $NF }' | sort | uniq -c | awk '{ print $2, $1 }' >"$TMP/perf-mem"
		"$PMPROF" mem -i "$FX/mem-alpha-$order.data" --symfs "$FX/symfs-prog" --format json |
			python3 -c 'import json,sys,collections
c=collections.Counter()
for r in json.load(sys.stdin)["rows"]: c[r["symbol"]]+=r["samples"]
for k in sorted(c): print(k, c[k])' >"$TMP/pm-mem"
		check_files_eq "mem: samples per symbol equal perf script's ($order)" \
			"$TMP/perf-mem" "$TMP/pm-mem"
	done
fi

# ---- man pages ------------------------------------------------------------
for m in profileme mem; do
	if command -v man >/dev/null 2>&1; then
		check_eq "pmprof-$m(1) renders with its example" 1 \
			"$(MANWIDTH=120 man -l "$TOP/docs/pmprof-$m.1" 2>/dev/null | grep -c '^EXAMPLES')"
	else
		skip "pmprof-$m(1)" "man not installed"
	fi
done
