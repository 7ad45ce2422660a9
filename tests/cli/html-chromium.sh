#!/usr/bin/env bash
# report --format html in headless Chromium: the page is one file (no
# network), runs without a console message or error, draws every frame of
# the stacks with a width proportional to its samples (the stacks are
# pmprof's folded ones, which folded-perf.sh holds equal to perf
# script's), zooms on a frame (named in the fragment, and clicked: the
# fragment's click act, lib/table/flamegraph.js), marks a search, sorts a
# table, shows CPI, IPC and miss rates of a simulated group recording in a
# frame's hover box, and leaves a screenshot in
# $BUILD/test-output/report-html.png. tests/cli/pictures.sh checks the
# metrics and diff pages as well, on simulated recordings.
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/headless.sh"

have_perf || { skip html-chromium "perf cannot record here"; exit 0; }
command -v chromium >/dev/null || { skip html-chromium "no chromium"; exit 0; }
command -v gcc >/dev/null || { skip html-chromium "no gcc"; exit 0; }
tool="$TOP/tests/tools/html_check.py"
prog="$TMP/report-prog"
shots="$TOP/$BUILD/test-output"
gcc -O2 -g -fno-omit-frame-pointer -fPIE -pie -o "$prog" \
	"$TOP/tests/programs/report-prog.c" -lpthread ||
	{ not_ok "html-chromium: cannot build report-prog"; exit 0; }
cd "$TMP" || exit 1

# browser ARGS... URL: headless Chromium, its log (console messages
# included) in chromium.log
browser() {
	headless "$TMP/chromium" chromium.log "$@"
}

# dom NAME FRAGMENT: the DOM of NAME.html#FRAGMENT once its script ran
dom() {
	browser --dump-dom "file://$TMP/$1.html#$2" >"$1.$3.dom"
}

if perf record -q -o fp.data -e cpu-clock -g -- "$prog" single >/dev/null 2>fp.err; then
	"$PMPROF" report -i fp.data --format html >fp.html 2>fp.pmerr ||
		not_ok "fp: pmprof report --format html failed: $(tail -1 fp.pmerr)"
	"$PMPROF" report -i fp.data --format folded >fp.folded
	if grep -Eiq '(src|href)=|https?:' fp.html; then
		not_ok "fp: the page refers to something outside it: $(grep -Eio '(src|href)=.{0,40}|https?:.{0,40}' fp.html | head -1)"
	else
		ok "fp: the page is self-contained (no src, href or URL)"
	fi
	: >chromium.log
	dom fp "" plain
	check "fp: the page's script ran without error" python3 "$tool" clean fp.plain.dom
	check "fp: every frame drawn, widths proportional to samples" \
		python3 "$tool" frames fp.plain.dom fp.folded
	zoom='all;__libc_start_call_main;spin_alpha'
	dom fp "zoom=${zoom//;/%3B}" zoom
	check "fp: a zoom on spin_alpha draws it full width, its callees in proportion, nothing beside it" \
		python3 "$tool" frames fp.zoom.dom fp.folded "$zoom"
	dom fp "click=${zoom//;/%3B}" click
	check "fp: a click on spin_alpha zooms as much" \
		python3 "$tool" frames fp.click.dom fp.folded "$zoom"
	dom fp "search=spin_" search
	check "fp: a search marks spin_alpha and spin_beta and weighs them" \
		python3 "$tool" search fp.search.dom spin_ fp.folded
	dom fp "sort=0:1:asc" asc
	check "fp: the hotspot table sorts by Samples, ascending" \
		python3 "$tool" sorted fp.asc.dom 0 1 asc
	dom fp "sort=0:4:desc" desc
	check "fp: and by Symbol, descending" python3 "$tool" sorted fp.desc.dom 0 4 desc
	if grep -q ':CONSOLE' chromium.log; then
		not_ok "fp: the page logged to the console: $(grep -m1 ':CONSOLE' chromium.log)"
	else
		ok "fp: no console message"
	fi
	mkdir -p "$shots"
	rm -f "$shots/report-html.png"
	browser --window-size=1280,900 --screenshot="$shots/report-html.png" \
		"file://$TMP/fp.html#search=spin_" >/dev/null
	if [ "$(head -c 8 "$shots/report-html.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
		ok "fp: screenshot in $BUILD/test-output/report-html.png"
	else
		not_ok "fp: no PNG screenshot"
	fi
else
	not_ok "fp: perf record failed: $(tail -1 fp.err)"
fi

# A group recording with cycles and instructions (simulated: this machine
# may have no PMU): a frame's box shows CPI, IPC and miss rates, each the
# ratio of the report's own periods for that (leaf) function.
"$PMPROF" sim -q arm-benchmark --iterations 2000 -o sim.data --seed 3 \
	-e '{cycles/period=100000/,instructions,cache-misses,cache-references}:S' &&
"$PMPROF" report -i sim.data --format html >sim.html &&
"$PMPROF" report -i sim.data --format csv >sim.csv || not_ok "sim: no recording or report"
if [ -s sim.csv ]; then
	leaf='all;main;run_behaviours;run_one;nest_1;fp_divider_stalls'
	dom sim "info=${leaf//;/%3B}" info
	want=$(python3 - <<'PY'
import csv
p = {}
for r in csv.DictReader(open('sim.csv')):
    if r['Symbol'] == '[.] fp_divider_stalls':
        p[r['Event'].split('/')[0]] = int(r['Period'])
print('CPI=%r IPC=%r cache\\ miss\\ rate=%r cache\\ MPKI=%r' % (
    p['cycles'] / p['instructions'], p['instructions'] / p['cycles'],
    100 * p['cache-misses'] / p['cache-references'],
    1000 * p['cache-misses'] / p['instructions']))
PY
)
	eval "set -- $want"
	check "sim: fp_divider_stalls' box shows its CPI, IPC, cache miss rate and MPKI" \
		python3 "$tool" tip sim.info.dom "$leaf" "$@"
	check "sim: the page's script ran without error" python3 "$tool" clean sim.info.dom
fi
