#!/usr/bin/env bash
# A fleet's call graphs: report -i A -i B -g merges each row's trees by
# what their nodes print (DSO and function name, an unresolved frame's
# address). A and B are two builds of one program (their functions at
# other addresses, in other directories: one DSO name, two objects),
# recorded with frame-pointer call chains, in other proportions so that
# their trees differ. Checked against A's and B's own JSON trees, merged
# node by node in Python (tests/tools/fleet_graph.py):
#   - -g graph,0 (caller and callee): every node's samples and period
#     are A's plus B's, siblings most period first;
#   - -g folded,0 and flat,0: every chain's, the same;
#   - --children (with -g too): every row's Children period is A's + B's;
#   - -i B -i A gives the same trees, siblings in the same order (a
#     fleet orders siblings of equal period by name);
#   - ties: two recordings of tests/programs/cg-frames whose samples the
#     test chose (tests/tools/cg_samples.py), one run directly and one
#     exec'd by sh (libc met before the program: the recordings' DSO
#     orders differ), so that siblings tie exactly: each recording's
#     trees merged node by node, the order of equal siblings the
#     documented one (DSO name, then function name, the greater first;
#     unresolved frames last, the greater address first) whichever
#     recording comes first.
. "$(dirname "$0")/../lib.sh"

tool="$TOP/tests/tools/fleet_graph.py"
cd "$TMP" || exit 1
command -v gcc >/dev/null || { skip fleet-graph "no gcc"; exit 0; }

cat >prog.c <<'C'
#include <stdlib.h>
volatile unsigned long sink;
#ifdef V2
/* a body before them: this build's functions sit elsewhere */
__attribute__((noinline)) void pad(void) { for (int i = 0; i < 64; i++) sink += i * 3; }
#endif
__attribute__((noinline)) void leaf_a(long n) { for (long i = 0; i < n; i++) sink += i * 7; }
__attribute__((noinline)) void leaf_b(long n) { for (long i = 0; i < n; i++) sink += i ^ 5; }
__attribute__((noinline)) void mid_x(long n) { leaf_a(n); leaf_b(n / 2); }
__attribute__((noinline)) void mid_y(long n) { leaf_b(n); leaf_a(n / 3); }
int main(int argc, char **argv)
{
	long x = atol(argv[1]), y = atol(argv[2]);

#ifdef V2
	pad();
#endif
	for (int r = 0; r < 40; r++) {
		mid_x(x);
		mid_y(y);
	}
	return 0;
}
C
mkdir a b
gcc -O0 -fno-omit-frame-pointer -o a/prog prog.c &&
gcc -O0 -fno-omit-frame-pointer -DV2 -o b/prog prog.c ||
	{ not_ok "fleet-graph: cannot build prog"; exit 0; }
"$PMPROF" record -q -g -e cpu-clock -o A.data -- a/prog 3000000 1000000 >/dev/null 2>A.err &&
"$PMPROF" record -q -g -e cpu-clock -o B.data -- b/prog 1000000 4000000 >/dev/null 2>B.err ||
	{ skip fleet-graph "cannot record -g: $(tail -1 A.err B.err | tr '\n' ' ')"; exit 0; }

for spec in graph,0,caller graph,0,callee; do
	for f in A B; do "$PMPROF" report -i $f.data -g $spec --format json >$f.$spec.json; done
	"$PMPROF" report -i A.data -i B.data -g $spec --format json >AB.$spec.json
	check "fleet-graph: -g $spec over A and B is A's and B's trees merged node by node" \
		python3 "$tool" tree AB.$spec.json A.$spec.json B.$spec.json
done
"$PMPROF" report -i B.data -i A.data -g graph,0,caller --format json >BA.json
check "fleet-graph: -i B -i A has -i A -i B's trees, siblings in one order" \
	python3 "$tool" same AB.graph,0,caller.json BA.json
for spec in folded,0,caller flat,0; do
	for f in A B; do "$PMPROF" report -i $f.data -g $spec --format json >$f.$spec.json; done
	"$PMPROF" report -i A.data -i B.data -g $spec --format json >AB.$spec.json
	check "fleet-graph: -g $spec over A and B is A's and B's chains added up" \
		python3 "$tool" chains AB.$spec.json A.$spec.json B.$spec.json
done
"$PMPROF" report -i B.data -i A.data -g folded,0,caller --format json >BA.folded.json
check "fleet-graph: -i B -i A has -i A -i B's chains, in one order" \
	python3 "$tool" same AB.folded,0,caller.json BA.folded.json

for g in "" "-g graph,0,caller"; do
	for f in A B; do "$PMPROF" report -i $f.data --children $g --format json >$f.ch.json; done
	"$PMPROF" report -i A.data -i B.data --children $g --format json >AB.ch.json
	check "fleet-graph: --children $g over A and B: each row's Children is A's + B's" \
		python3 "$tool" children AB.ch.json A.ch.json B.ch.json
	[ -n "$g" ] && check "fleet-graph: --children $g over A and B: the trees merged node by node" \
		python3 "$tool" tree AB.ch.json A.ch.json B.ch.json
done
"$PMPROF" report -i A.data -i B.data -g caller >AB.txt 2>AB.err
check "fleet-graph: the text tree has leaf_a through mid_x and mid_y" \
	python3 -c "import re,sys; t=open('AB.txt').read().split('[.] leaf_a')[1].split('\\n\\n')[0]; sys.exit(not ('mid_x' in t and 'mid_y' in t))"

# ---- ties: siblings of equal period from recordings of other DSO orders ----
have_perf || { skip fleet-graph-ties "perf cannot record here"; exit 0; }
gcc -O2 -g -fno-omit-frame-pointer -o cg-frames "$TOP/tests/programs/cg-frames.c" ||
	{ not_ok "fleet-graph: cannot build cg-frames"; exit 0; }
perf record -q -e cpu-clock -g -o fa.data ./cg-frames >fa.addr 2>fa.err &&
perf record -q -e cpu-clock -g -o fb.data -- sh -c 'exec ./cg-frames' >fb.addr 2>fb.err ||
	{ not_ok "fleet-graph: perf record failed: $(tail -1 fa.err fb.err | tr '\n' ' ')"; exit 0; }
cat >ta.spec <<'SPEC'
10 1000 f_alpha;f_top;main
5 1000 f_gamma;f_root;main
5 1000 abs;f_root;main
5 1000 0x10;f_root;main
SPEC
cat >tb.spec <<'SPEC'
10 1000 f_beta;f_top;main
5 1000 f_gamma;f_root;main
5 1000 abs;f_root;main
5 1000 0x20;f_root;main
5 1000 f_delta;f_root;main
SPEC
python3 "$TOP/tests/tools/cg_samples.py" fa.data fa.addr ta.spec TA.data &&
python3 "$TOP/tests/tools/cg_samples.py" fb.data fb.addr tb.spec TB.data ||
	{ not_ok "fleet-graph: cannot write the ties' perf.data"; exit 0; }
for spec in graph,0,caller folded,0,caller; do
	for f in TA TB; do "$PMPROF" report -i $f.data --children -g $spec --format json >$f.json; done
	"$PMPROF" report -i TA.data -i TB.data --children -g $spec --format json >TAB.json
	"$PMPROF" report -i TB.data -i TA.data --children -g $spec --format json >TBA.json
	mode=tree; [ "$spec" = graph,0,caller ] || mode=chains
	check "fleet-graph: ties: --children -g $spec is TA's and TB's trees merged" \
		python3 "$tool" $mode TAB.json TA.json TB.json
	check "fleet-graph: ties: --children -g $spec: -i TB -i TA is -i TA -i TB, in order" \
		python3 "$tool" same TAB.json TBA.json
done
"$PMPROF" report -i TB.data -i TA.data --children -g graph,0,caller --format json >TBA.json
check "fleet-graph: ties: f_root's equal callees by DSO name, then name; unresolved last" \
	python3 -c '
import json, sys
rows = json.load(open("TBA.json"))["events"][0]["rows"]
kids = [r for r in rows if r["symbol"] == "f_root"][0]["callgraph"][0]["callgraph"]
got = [k["symbol"] for k in kids]
want = ["abs", "f_gamma", "f_delta", "0x20", "0x10"]
sys.exit(0 if got == want else "f_root: %s, not %s" % (got, want))'
