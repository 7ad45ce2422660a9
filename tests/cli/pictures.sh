#!/usr/bin/env bash
# The docs' pictures and examples (scripts/pictures.sh, `make pictures`),
# made here from their seeded simulated recordings into
# $BUILD/test-output/pictures (the screenshots saved with the test
# output), and the three HTML pages behind them (report, metrics, diff)
# checked in headless Chromium: each is one file (no URL, no src or
# href), runs without an error or a console message, draws every frame
# with a width proportional to its weight in the folded stacks (pmprof's
# own, which folded-perf.sh holds equal to perf script's), zooms on a
# click, marks what is typed into the search box, sorts its table, and
# shows in the hover box of a hovered frame its counts (and on the metrics
# page its CPI and IPC, on the diff page its share before and after),
# every number computed here from the folded stacks. The README's and man
# pages' example blocks are the script's outputs, and docs/images holds a
# picture of each page within its size budget.
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/headless.sh"

command -v chromium >/dev/null || { skip pictures "no chromium"; exit 0; }
tool="$TOP/tests/tools/html_check.py"
out="$TOP/$BUILD/test-output/pictures"
if ! BUILD=$BUILD PMPROF=$PMPROF "$TOP/scripts/pictures.sh" "$out" >"$TMP/pictures.log" 2>&1; then
	not_ok "pictures: scripts/pictures.sh failed: $(tail -1 "$TMP/pictures.log")"
	exit 0
fi
ok "pictures: scripts/pictures.sh made them in $BUILD/test-output/pictures"
cd "$out" || exit 1

# the folded stacks each page draws, one weight a file
"$PMPROF" report -i nested.data --format folded >report.folded
"$PMPROF" report -i nested.data --format folded --weight period >report.period.folded
"$PMPROF" metrics -i group.data --format folded >metrics.folded
cyc='cycles/period=1000000,hf-period=300/'
"$PMPROF" metrics -i group.data --format folded --weight "$cyc" >metrics.cycles.folded
"$PMPROF" metrics -i group.data --format folded --weight instructions >metrics.instructions.folded
"$PMPROF" diff --format folded nested.data twice.data >diff.both.folded
awk '{ print $1, $2 }' diff.both.folded >diff.base.folded
awk '{ print $1, $3 }' diff.both.folded >diff.folded

# dom PAGE NAME FRAGMENT: PAGE.html's DOM once its script and FRAGMENT's
# acts ran, in PAGE.NAME.dom; its console messages in PAGE.NAME.log
dom() {
	: >"$1.$2.log"
	headless "$TMP/chromium" "$1.$2.log" --dump-dom \
		"file://$out/$1.html#${3//;/%3B}" >"$1.$2.dom"
}
# quiet PAGE NAME: no console message while PAGE.NAME.dom was made
quiet() {
	! grep -m1 ':CONSOLE' "$1.$2.log"
}

NEST='all;main;run_behaviours;run_one'
FP="$NEST;nest_2;nest_1;fp_divider_stalls"
BM="$NEST;nest_1;branch_mispredicts"
for page in report metrics diff; do
	if grep -Eiq '(src|href)=|https?:' $page.html; then
		not_ok "$page: the page refers to something outside it: $(grep -Eio '(src|href)=.{0,40}|https?:.{0,40}' $page.html | head -1)"
	else
		ok "$page: the page is self-contained (no src, href or URL)"
	fi
	dom $page plain ""
	check "$page: the script ran without error" python3 "$tool" clean $page.plain.dom
	check "$page: no console message" quiet $page plain
	check "$page: every frame drawn, widths proportional to the stacks" \
		python3 "$tool" frames $page.plain.dom $page.folded
	zoom="$NEST;nest_2"
	dom $page click "click=$zoom"
	check "$page: a click on nest_2 zooms: it full width, its callees in proportion" \
		python3 "$tool" frames $page.click.dom $page.folded "$zoom"
	check "$page: the click ran without error or console message" \
		sh -c "python3 '$tool' clean $page.click.dom && ! grep -m1 ':CONSOLE' $page.click.log"
	dom $page type "type=divider"
	check "$page: typing \"divider\" into the search box marks the dividers and weighs them" \
		python3 "$tool" search $page.type.dom divider $page.folded
	dom $page hover "hover=$FP"
	check "$page: the page ran the hover without error" python3 "$tool" clean $page.hover.dom
done
check "report: the hovered frame's box has its samples and period" \
	python3 "$tool" counts report.hover.dom "$FP" samples=report.folded period=report.period.folded
check "metrics: the hovered frame's box has its windows and counts" \
	python3 "$tool" counts metrics.hover.dom "$FP" samples=metrics.folded \
	"$cyc=metrics.cycles.folded" instructions=metrics.instructions.folded
check "metrics: and its CPI" python3 "$tool" ratio metrics.hover.dom "$FP" CPI \
	metrics.cycles.folded metrics.instructions.folded 1
check "metrics: and its IPC" python3 "$tool" ratio metrics.hover.dom "$FP" IPC \
	metrics.instructions.folded metrics.cycles.folded 1
check "diff: the hovered frame's box has its base and new samples" \
	python3 "$tool" counts diff.hover.dom "$FP" base=diff.base.folded new=diff.folded
# a table of each page sorted by a column (clicking its header does the
# same: lib/table/flamegraph.js's sortTable)
dom report sort "sort=0:1:asc"
check "report: the hotspot table sorts by Samples, ascending" \
	python3 "$tool" sorted report.sort.dom 0 1 asc
dom metrics sort "sort=0:4:desc"
check "metrics: the metrics table sorts by CPI, descending" \
	python3 "$tool" sorted metrics.sort.dom 0 4 desc
dom diff sort "sort=0:4:asc"
check "diff: the table sorts by Delta, ascending" \
	python3 "$tool" sorted diff.sort.dom 0 4 asc
dom diff grew "hover=$BM"
check "diff: branch_mispredicts' box has its share before and after" \
	python3 "$tool" share diff.grew.dom "$BM" diff.base.folded diff.folded

# the screenshots: PNGs of the script's window size; docs/images has one
# of each page, all of them together within the budget
size=$(sed -n 's/^SIZE=//p' "$TOP/scripts/pictures.sh")
for page in report metrics diff; do
	got=$(python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read(24)
w, h = struct.unpack(">II", b[16:24])
print("%d,%d" % (w, h) if b[:8] == b"\x89PNG\r\n\x1a\n" else "not a PNG")' $page-html.png)
	check_eq "$page: screenshot $page-html.png, $size" "$size" "$got"
	check "$page: docs/images/$page-html.png is committed" test -s "$TOP/docs/images/$page-html.png"
done
total=$(cat "$TOP"/docs/images/*.png | wc -c)
check "pictures: docs/images' PNGs weigh $total bytes, under 400 KB" test "$total" -lt 409600

# the docs' examples: each ```text block of the README after a line
# "<!-- scripts/pictures.sh: NAME.txt -->", and each .EX block of a man
# page after '.\" scripts/pictures.sh: NAME.txt' (unescaped), is NAME.txt
python3 - "$TOP" "$out" >"$TMP/examples" <<'PY'
import glob, os, re, sys
top, out = sys.argv[1], sys.argv[2]
blocks = []
for m in re.finditer(r'<!-- scripts/pictures.sh: (\S+) -->\n```text\n(.*?)```\n',
                     open(os.path.join(top, 'README.md')).read(), re.S):
    blocks.append(('README.md', m.group(1), m.group(2)))
for page in sorted(glob.glob(os.path.join(top, 'docs', '*.1'))):
    for m in re.finditer(r'^\.\\" scripts/pictures.sh: (\S+)\n\.EX\n(.*?)^\.EE\n',
                         open(page).read(), re.S | re.M):
        text = re.sub(r'^\\&', '', m.group(2), flags=re.M)
        text = text.replace('\\-', '-').replace('\\e', '\\')
        blocks.append(('docs/' + os.path.basename(page), m.group(1), text))
for doc, name, text in blocks:
    made = os.path.join(out, name)
    state = 'skip' if not os.path.exists(made) else \
        'ok' if open(made).read() == text else 'differs'
    print(state, doc, name)
print('blocks', len(blocks), '-')
PY
while read -r state doc name; do
	case $state in
	ok) ok "docs: $doc's $name example is scripts/pictures.sh's" ;;
	differs) not_ok "docs: $doc's $name example differs from scripts/pictures.sh's (make pictures; $BUILD/pictures/$name)" ;;
	skip) skip "docs-$name" "$doc's $name: not made here (no go?)" ;;
	blocks) check "docs: $doc example blocks" test "$doc" -ge 10 ;;
	esac
done <"$TMP/examples"
