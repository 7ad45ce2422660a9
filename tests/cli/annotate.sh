#!/usr/bin/env bash
# pmprof annotate: on an x86-64 program recorded here with perf, the
# per-instruction samples equal perf annotate's and add up to perf
# report's per symbol, the disassembly is objdump's for the range, the
# window counts of a group recording add up to pmprof metrics's; on the
# Alpha ProfileMe fixtures (test-profileme-fixtures --write) the
# ProfileMe columns equal profileme --pc's for the same addresses, both
# byte orders; then the formats and the errors.
. "$(dirname "$0")/../lib.sh"

CHECK="python3 $TOP/tests/tools/annotate_check.py"
GEN="$TOP/$BUILD/tests/unit/test-profileme-fixtures"
an() { "$PMPROF" annotate "$@"; }

# ---- x86-64, recorded here -------------------------------------------------
x86() {
	local prog="$TMP/report-prog" d="$TMP/x86.data" g="$TMP/grp.data" sym
	local src="$TMP/src/report-prog.c"
	mkdir -p "$TMP/src" && cp "$TOP/tests/programs/report-prog.c" "$src"
	gcc -O1 -g -fno-omit-frame-pointer -o "$prog" "$src" -lpthread ||
		{ not_ok "annotate: cannot build report-prog"; return; }
	perf record -q -e cpu-clock -F 2000 -o "$d" "$prog" single \
		>/dev/null 2>"$TMP/rec.err" ||
		{ not_ok "annotate: perf record failed: $(tail -1 "$TMP/rec.err")"; return; }
	an -i "$d" --format json >"$TMP/all.json" 2>"$TMP/all.err"
	check_eq "annotate: exit 0 on a perf recording" 0 $?
	check "annotate: instructions add up to their functions, lines to their instructions" \
		$CHECK sums "$TMP/all.json"
	perf report -i "$d" --stdio -q --sort dso,sym -F sample,dso,sym -g none \
		--percent-limit 0 >"$TMP/report.txt" 2>/dev/null
	check "annotate: each function's samples are perf report's" \
		$CHECK perf-report "$TMP/all.json" "$TMP/report.txt"
	check "annotate: the disassembly is objdump -d's for each range" \
		$CHECK objdump "$TMP/all.json" objdump
	for sym in spin_alpha spin_beta; do
		an -i "$d" "$sym" --format json >"$TMP/$sym.json"
		perf annotate -i "$d" --stdio --show-nr-samples -s "$sym" \
			>"$TMP/$sym.perf" 2>/dev/null
		check "annotate: $sym: per-instruction samples equal perf annotate's" \
			$CHECK perf "$TMP/$sym.json" "$TMP/$sym.perf" "$sym"
	done
	check_eq "annotate: SYMBOL annotates that function only" "spin_beta" \
		"$(python3 -c 'import json,sys; print(*{f["symbol"] for f in json.load(open(sys.argv[1]))["functions"]})' "$TMP/spin_beta.json")"
	# Source lines: spin_beta's loop body, with its instructions' samples.
	check "annotate: a source row of report-prog.c with the loop's text" python3 -c '
import json, sys
fn = json.load(open(sys.argv[1]))["functions"][0]
src = [r for r in fn["rows"] if r["address"] is None and r["code"] and "x ^= x << 13" in r["code"]]
assert src and src[0]["source"].startswith("report-prog.c:"), src
line = src[0]["source"]
mine = [r for r in fn["rows"] if r["address"] and r["source"] == line]
assert len(mine) > 3 and src[0]["samples"] == sum(r["samples"] for r in mine) > 0, (src, mine)
' "$TMP/spin_beta.json"
	an -i "$d" spin_beta --no-source --format json >"$TMP/nosrc.json"
	check_eq "annotate: --no-source has no source rows" 0 \
		"$(python3 -c 'import json,sys; print(sum(1 for f in json.load(open(sys.argv[1]))["functions"] for r in f["rows"] if r["address"] is None))' "$TMP/nosrc.json")"
	check_eq "annotate: -d DSO: only that DSO's functions" "report-prog" \
		"$(an -i "$d" -d report-prog --format json | python3 -c 'import json,sys; print(*sorted({f["dso"] for f in json.load(sys.stdin)["functions"]}))')"
	check_eq "annotate: -d DSO and SYMBOL together" "" \
		"$(an -i "$d" -d libc.so.6 spin_beta --format json 2>/dev/null | python3 -c 'import json,sys; print(*[f["symbol"] for f in json.load(sys.stdin)["functions"]])')"
	check_eq "annotate: --top 2 annotates two functions" 2 \
		"$(an -i "$d" --top 2 --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["functions"]))')"

	# Text: perf's header line, then the rows.
	an -i "$d" spin_beta >"$TMP/text"
	check "annotate: text header names the function and its samples" grep -Eq \
		'^# Percent \| Source code & Disassembly of spin_beta \(report-prog\) for cpu-clock \([0-9]+ samples' "$TMP/text"
	check "annotate: text rows carry the instructions" grep -q 'shl *\$0xd,%rdx' "$TMP/text"
	an -i "$d" spin_beta --format csv >"$TMP/csv"
	check_eq "annotate: CSV header" "Event,DSO,Symbol,SL1,Percent,Samples,Period,Address,Source,Code" \
		"$(head -1 "$TMP/csv")"
	check_eq "annotate: CSV has a line per row" \
		"$(python3 -c 'import json,sys; print(sum(len(f["rows"]) for f in json.load(open(sys.argv[1]))["functions"]))' "$TMP/spin_beta.json")" \
		"$(($(python3 -c 'import csv,sys; print(sum(1 for _ in csv.reader(open(sys.argv[1]))))' "$TMP/csv") - 1))"
	an -i "$d" spin_beta --format tsv | head -1 | grep -q $'^Event\tDSO'
	check_eq "annotate: TSV header" 0 $?

	# A metrics recording: the window counts over the instructions.
	perf record -q -e '{cpu-clock,task-clock,page-faults}:S' -o "$g" "$prog" single \
		>/dev/null 2>"$TMP/rec.err" ||
		{ not_ok "annotate: group record failed: $(tail -1 "$TMP/rec.err")"; return; }
	an -i "$g" --format json >"$TMP/grp.json"
	"$PMPROF" metrics -i "$g" --format json >"$TMP/metrics.json"
	check "annotate: window counts add up to pmprof metrics's per function" \
		$CHECK metrics "$TMP/grp.json" "$TMP/metrics.json"
	check "annotate: group recording: instructions add up" $CHECK sums "$TMP/grp.json"
	an -i "$g" --mode discard --format json >"$TMP/grp-d.json"
	"$PMPROF" metrics --mode discard -i "$g" --format json >"$TMP/metrics-d.json"
	check "annotate: --mode discard discards what metrics --mode discard does" \
		$CHECK metrics "$TMP/grp-d.json" "$TMP/metrics-d.json"
	check_eq "annotate: the skid caveat, once" 1 \
		"$(an -i "$g" | grep -c 'with skid')"
	check_eq "annotate: no caveat without windows" 0 \
		"$(an -i "$d" | grep -c 'with skid')"

	# The source file DWARF names is a FIFO now: not read (no hang), the
	# lines still named.
	rm -f "$src" && mkfifo "$src"
	timeout 60 "$PMPROF" annotate -i "$d" spin_beta --format json >"$TMP/fifo.json"
	check_eq "annotate: a FIFO as source file: no hang, exit 0" 0 $?
	check "annotate: ... source rows without text" python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["functions"][0]["rows"]
src = [r for r in rows if r["address"] is None]
assert src and all(r["code"] is None and r["source"] for r in src), src
' "$TMP/fifo.json"
}
if have_perf && command -v gcc >/dev/null; then
	x86
else
	skip annotate-x86 "perf cannot record here, or no gcc"
fi

# ---- the Alpha ProfileMe fixtures -------------------------------------------
alpha() {
	local FX="$TMP/fx" order
	"$GEN" --write "$FX" >/dev/null 2>&1
	for order in le be; do
		local o="--symfs $FX/symfs-alpha --kallsyms $FX/kallsyms"
		an -i "$FX/rules-$order.data" $o --format json >"$TMP/pm-$order.json"
		"$PMPROF" profileme -i "$FX/rules-$order.data" $o --pc --format json \
			>"$TMP/pc-$order.json"
		check "annotate: ProfileMe columns equal profileme --pc's ($order)" \
			$CHECK profileme "$TMP/pm-$order.json" "$TMP/pc-$order.json"
		check "annotate: ProfileMe instructions add up ($order)" \
			$CHECK sums "$TMP/pm-$order.json"
	done
	check_files_eq "annotate: both byte orders give the same JSON" \
		"$TMP/pm-le.json" "$TMP/pm-be.json"
	check "annotate: the Alpha disassembly is objdump's (multiarch)" \
		$CHECK objdump "$TMP/pm-le.json" objdump
	if command -v alpha-linux-gnu-objdump >/dev/null; then
		check "annotate: the Alpha disassembly is alpha-linux-gnu-objdump's" \
			$CHECK objdump "$TMP/pm-le.json" alpha-linux-gnu-objdump
	fi
	# One table per SL1 value; PAL samples counted apart; the kernel
	# function has no file: a note, and its sampled address still shown.
	check_eq "annotate: main has a table per SL1 value seen (0 1 2) and one without ProfileMe" \
		"-1 0 1 2" \
		"$(python3 -c 'import json,sys; print(*sorted(-1 if f["sl1"] is None else f["sl1"] for f in json.load(open(sys.argv[1]))["functions"] if f["symbol"] == "main" and f["event"].startswith("cpu/")))' "$TMP/pm-le.json")"
	check_eq "annotate: 4 PAL samples" 4 \
		"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pal"])' "$TMP/pm-le.json")"
	check "annotate: no object file for the kernel: said, and its address kept" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert any("no object file for [kernel.kallsyms]" in n for n in d["notes"]), d["notes"]
f = [f for f in d["functions"] if f["symbol"] == "do_page_fault"][0]
assert [(r["address"], r["samples"], r["code"]) for r in f["rows"]] == [("0xfffffc0000310040", 1, None)], f["rows"]
' "$TMP/pm-le.json"

	# The compiled Alpha program: the branch, its source line and the 21%.
	if [ -s "$FX/branch-random.data" ]; then
		read -r pc n mis tak <"$FX/branch-random.expect"
		an -i "$FX/branch-random.data" --symfs "$FX/symfs-prog" count --format json \
			>"$TMP/br.json"
		"$PMPROF" profileme -i "$FX/branch-random.data" --symfs "$FX/symfs-prog" \
			--pc --format json >"$TMP/br-pc.json"
		check "annotate: branch fixture equals profileme --pc" \
			$CHECK profileme "$TMP/br.json" "$TMP/br-pc.json"
		check "annotate: the branch's row and its line (prog.c:14)" python3 -c '
import json, sys
pc, n, mis = int(sys.argv[2], 16), int(sys.argv[3]), int(sys.argv[4])
fn = json.load(open(sys.argv[1]))["functions"][0]
row = [r for r in fn["rows"] if r["address"] and int(r["address"], 16) == pc][0]
assert row["samples"] == n and abs(row["mispredicted_pct"] - 100.0 * mis / n) < 1e-9, row
assert row["source"] == "prog.c:14" and row["code"].startswith(("beq", "bne")), row
line = [r for r in fn["rows"] if r["address"] is None and r["source"] == "prog.c:14"][0]
assert line["samples"] == n and "d[i] < 47" in line["code"], line
' "$TMP/br.json" "$pc" "$n" "$mis"
		check "annotate: compiled Alpha program: disassembly is objdump's" \
			$CHECK objdump "$TMP/br.json" objdump
	else
		skip annotate-alpha-prog "no Alpha compiler (gcc-12-alpha-linux-gnu)"
	fi

	# No objdump: the sampled addresses stay, with their counts, and a note.
	an -i "$FX/rules-le.data" --symfs "$FX/symfs-alpha" --objdump /nonexistent/objdump \
		main --format json >"$TMP/noobj.json" 2>"$TMP/noobj.err"
	check_eq "annotate: a missing objdump is no failure" 0 $?
	check "annotate: ... said in a note, sampled rows kept" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert any("cannot run /nonexistent/objdump" in n for n in d["notes"]), d["notes"]
f = [f for f in d["functions"] if f["sl1"] == 0][0]
assert sum(r["samples"] for r in f["rows"]) == f["samples"] == 8, f
assert all(r["code"] is None for r in f["rows"])
' "$TMP/noobj.json"
}
if [ -x "$GEN" ]; then
	alpha
else
	skip annotate-alpha "no $GEN (make tests)"
fi

# ---- errors ------------------------------------------------------------------
an -i "$TMP/missing.data" >/dev/null 2>"$TMP/err"
check_eq "annotate: a missing file is an input error" 2 $?
check "annotate: ... naming the file" grep -q "missing.data" "$TMP/err"
an --nosuch >/dev/null 2>&1
check_eq "annotate: an unknown option is a usage error" 1 $?
an a b >/dev/null 2>"$TMP/err"
check_eq "annotate: two symbols are a usage error" 1 $?
an --mode sometimes >/dev/null 2>"$TMP/err"
check_eq "annotate: a bad --mode is a usage error" 1 $?
check "annotate: ... naming it" grep -q -- "--mode" "$TMP/err"
head -c 300 "$TOP/tests/data/pipe.data" >"$TMP/trunc.data"
an -i "$TMP/trunc.data" >/dev/null 2>"$TMP/err"
check_eq "annotate: a truncated file is an input error" 2 $?
if [ -s "$TMP/fx/rules-le.data" ]; then
	an -i "$TMP/fx/rules-le.data" --symfs "$TMP/fx/symfs-alpha" nosuch >"$TMP/out" 2>"$TMP/err"
	check_eq "annotate: an unknown symbol exits 0" 0 $?
	check "annotate: ... and says it has no samples" grep -q "no samples in a function named 'nosuch'" "$TMP/err"
fi
