#!/usr/bin/env bash
# A fleet: several recordings (one per host) added up by report, metrics,
# diff and every format. Checked against each recording computed apart:
#   - metrics -i A -i B: every function's counts, samples and discarded
#     windows, and the windows, are A's plus B's; CPI the summed ratio;
#   - report -i A -i B: Samples and Period per symbol are A's plus B's;
#     a directory of *.data files is the same fleet; a perf directory
#     recording (perf record --threads) stays one recording;
#   - two builds of one program at one path (recorded one after the
#     other, the binary replaced between): each recording's samples are
#     named from its own build (the build-id cache), as perf named them
#     while that build was there;
#   - pprof: the "host" label (each recording's HEADER_HOSTNAME, set with
#     unshare --uts) counts each recording's samples (go tool pprof -tags);
#   - a truncated or missing input among several: its name, exit 2.
. "$(dirname "$0")/../lib.sh"

tool="$TOP/tests/tools/fleet_check.py"
cd "$TMP" || exit 1

# ---- metrics: two simulated recordings of the group, other seeds ----
spec='{cycles/period=1000000,hf-period=300/,instructions,branch-misses}:uS'
"$PMPROF" sim -q arm-benchmark --iterations 3000 -o m1.data -e "$spec" >/dev/null &&
"$PMPROF" sim -q arm-benchmark --iterations 2000 --seed 7 -o m2.data -e "$spec" >/dev/null ||
	{ not_ok "fleet: pmprof sim failed"; exit 0; }
for f in m1 m2; do "$PMPROF" metrics -i $f.data --format json >$f.json; done
"$PMPROF" metrics -i m1.data -i m2.data --format json >m12.json
check "fleet: metrics -i A -i B is A's and B's windows added up" \
	python3 "$tool" metrics m12.json m1.json m2.json
"$PMPROF" report -i m1.data -i m2.data --format csv >m12.csv
for f in m1 m2; do "$PMPROF" report -i $f.data --format csv >$f.csv; done
check "fleet: report -i A -i B of a group recording: each member's rows add up" \
	python3 "$tool" sums m12.csv m1.csv m2.csv
mkdir sims && cp m1.data sims/a.data && cp m2.data sims/b.data
"$PMPROF" metrics -i m1.data -i m2.data --format csv >m12.metrics.csv
"$PMPROF" metrics -i sims --format csv >sims.csv
check_files_eq "fleet: metrics -i DIR (of *.data) is -i each" m12.metrics.csv sims.csv

# ---- hosts: the workload recorded in two UTS namespaces ----
if [ "$(id -u)" != 0 ] || ! unshare --uts true 2>/dev/null; then
	skip fleet-hosts "needs root and unshare --uts to name two hosts"
	exit 0
fi
on_host() {	# on_host NAME CMD...: CMD with the hostname NAME
	local h=$1; shift
	unshare --uts sh -c 'hostname "$0" && exec "$@"' "$h" "$@"
}
for h in hosta hostb; do
	on_host $h "$PMPROF" record -q -e cpu-clock -o $h.data -- \
		"$TOP/$BUILD/bench/workload" -n 400 >/dev/null 2>$h.err ||
		{ not_ok "fleet: record on $h failed: $(tail -1 $h.err)"; exit 0; }
	"$PMPROF" report -i $h.data --format csv >$h.csv
done
"$PMPROF" report -i hosta.data -i hostb.data --format csv >ab.csv
check "fleet: report -i A -i B is A's and B's samples per symbol" \
	python3 "$tool" sums ab.csv hosta.csv hostb.csv
for h in hosta hostb; do
	"$PMPROF" report -i $h.data --time 0%-50% --format csv >$h.half.csv
done
"$PMPROF" report -i hosta.data -i hostb.data --time 0%-50% --format csv >ab.half.csv
check "fleet: --time percentages are of each recording's own times" \
	python3 "$tool" sums ab.half.csv hosta.half.csv hostb.half.csv
mkdir fleet && cp hosta.data fleet/1.data && cp hostb.data fleet/2.data
"$PMPROF" report -i fleet --format csv >dir.csv
check_files_eq "fleet: report -i DIR (of *.data) is -i each" ab.csv dir.csv
"$PMPROF" report -i hosta.data -i hostb.data --format folded >ab.folded
check "fleet: the folded stacks are one line per stack" \
	sh -c '! cut -d" " -f1 ab.folded | sort | uniq -d | grep -q .'
check_eq "fleet: the folded stacks count every sample" \
	"$(python3 "$tool" samples ab.csv)" \
	"$(awk '{ n += $NF } END { print n }' ab.folded)"
"$PMPROF" report -i hosta.data -i hostb.data --format json >ab.json
check "fleet: JSON names the recordings" \
	python3 -c 'import json,sys; assert json.load(open("ab.json"))["inputs"] == ["hosta.data", "hostb.data"]'

if command -v go >/dev/null; then
	export GOCACHE="$TMP/go-cache" GOFLAGS=
	"$PMPROF" report -i hosta.data -i hostb.data --format pprof >ab.pb.gz
	go tool pprof -sample_index=samples -tags ab.pb.gz >ab.tags 2>ab.gerr
	na=$(python3 "$tool" samples hosta.csv)
	nb=$(python3 "$tool" samples hostb.csv)
	check "fleet: pprof's host label counts each recording's samples" \
		python3 "$tool" hosts ab.tags hosta=$na hostb=$nb
	go tool pprof -sample_index=cpu-clock -top -nodefraction=0 -nodecount=100000 \
		ab.pb.gz >ab.top 2>>ab.gerr
	check "fleet: pprof -top -sample_index=cpu-clock is the report's period" \
		python3 "$TOP/tests/tools/pprof_check.py" top ab.top ab.csv Period
else
	skip fleet-pprof "no go (golang-go) for go tool pprof"
fi

# ---- diff: a directory per side ----
mkdir before && cp hosta.data before/ && cp hostb.data before/
"$PMPROF" diff --format csv before hosta.data >diff.csv
check "fleet: diff DIR FILE compares the fleet's sums" \
	python3 -c '
import csv
rows = {r["Symbol"]: r for r in csv.DictReader(open("diff.csv"))}
ab = {}
for r in csv.DictReader(open("ab.csv")):
    ab[r["Symbol"]] = ab.get(r["Symbol"], 0) + float(r["Overhead"])
for s, r in rows.items():
    if s in ab and abs(float(r["Baseline"]) - ab[s]) > 0.011:
        raise SystemExit("%s: baseline %s, fleet %s" % (s, r["Baseline"], ab[s]))
print(len(rows), "functions")'

# ---- bad inputs among several ----
head -c 3000 hostb.data >short.data
expect "fleet: a truncated input among several is named, with its offset" 2 \
	'^pmprof: short\.data: offset [0-9]+: ' "$PMPROF" report -i hosta.data -i short.data
expect "fleet: a missing input among several is named" 2 \
	'^pmprof: gone\.data: ' "$PMPROF" report -i hosta.data -i gone.data
"$PMPROF" report -i hosta.data -i m1.data --format csv >other.csv
check "fleet: recordings of other events: each event's rows from those that record it" \
	python3 "$tool" sums other.csv hosta.csv=cpu-clock m1.csv
mkdir nothing
expect "fleet: a directory without recordings is refused" 2 \
	'^pmprof: nothing: a directory without' "$PMPROF" report -i nothing

# ---- perf's directory format: one recording, in a fleet too ----
if have_perf && perf record -q --threads -e cpu-clock -o probe.dir true >/dev/null 2>&1; then
	on_host hostc perf record -q --threads -e cpu-clock -o pdir -- \
		"$TOP/$BUILD/bench/workload" -n 200 >/dev/null 2>pdir.err
	"$PMPROF" report -i pdir --format csv >pdir.csv
	check_eq "fleet: a perf directory recording is one recording, perf's samples" \
		"$(perf script -i pdir -F ip 2>/dev/null | wc -l)" "$(python3 "$tool" samples pdir.csv)"
	mkdir mixed && cp -r pdir mixed/c.data && cp hosta.data mixed/a.data
	"$PMPROF" report -i mixed --format csv >mixed.csv
	check "fleet: a perf directory named *.data in a fleet is one of its recordings" \
		python3 "$tool" sums mixed.csv hosta.csv pdir.csv
else
	skip fleet-perf-dir "this perf has no record --threads"
fi

# ---- two builds of one program, one path ----
command -v gcc >/dev/null || { skip fleet-builds "no gcc"; exit 0; }
cat >prog.c <<'C'
#include <stdlib.h>
volatile unsigned long sink;
#ifdef V2
/* a body before it: the hot function sits elsewhere in this build */
__attribute__((noinline)) void pad(void) { for (int i = 0; i < 64; i++) sink += i * 3; }
__attribute__((noinline)) void hot_two(long n) { for (long i = 0; i < n; i++) sink += i ^ 5; }
#define HOT hot_two
#else
__attribute__((noinline)) void hot_one(long n) { for (long i = 0; i < n; i++) sink += i * 7; }
#define HOT hot_one
#endif
int main(int argc, char **argv) { HOT(argc > 1 ? atol(argv[1]) : 200000000L); return 0; }
C
gcc -O1 -g -o prog prog.c && cp prog prog.v1 && on_host hosta "$PMPROF" record -q -e cpu-clock -o b1.data -- ./prog >/dev/null 2>b1.err &&
	"$PMPROF" report -i b1.data --sort sym --format csv >b1.csv &&
	gcc -O1 -g -DV2 -o prog prog.c && cp prog prog.v2 && on_host hostb "$PMPROF" record -q -e cpu-clock -o b2.data -- ./prog >/dev/null 2>b2.err &&
	"$PMPROF" report -i b2.data --sort sym --format csv >b2.csv ||
	{ not_ok "fleet: two builds: build or record failed"; exit 0; }
n1=$(python3 -c 'import csv; print(sum(int(r["Samples"]) for r in csv.DictReader(open("b1.csv")) if r["Symbol"] == "[.] hot_one"))')
n2=$(python3 -c 'import csv; print(sum(int(r["Samples"]) for r in csv.DictReader(open("b2.csv")) if r["Symbol"] == "[.] hot_two"))')
[ "$n1" -gt 0 ] && [ "$n2" -gt 0 ] || { not_ok "fleet: two builds: no samples in the hot functions ($n1, $n2)"; exit 0; }
"$PMPROF" report -i b1.data -i b2.data --sort sym --format csv >b12.csv
check "fleet: two builds at one path: each recording's samples named by its own build" \
	python3 "$tool" rows b12.csv hot_one=$n1 hot_two=$n2

# each recording's own --symfs root (the Nth --symfs is the Nth -i's):
# no binary at its path, no build-id cache, each build in its own root
rm -rf prog "$HOME/.debug"
mkdir -p "rootA$TMP" "rootB$TMP"
cp prog.v1 "rootA$TMP/prog" && cp prog.v2 "rootB$TMP/prog"
"$PMPROF" report -i b1.data --symfs rootA -i b2.data --symfs rootB --sort sym \
	--format csv >roots.csv 2>roots.err
check "fleet: --symfs once per -i: each recording's symbols from its own root" \
	python3 "$tool" rows roots.csv hot_one=$n1 hot_two=$n2
"$PMPROF" report -i b1.data --symfs rootB -i b2.data --symfs rootA --sort sym \
	--format csv >swapped.csv 2>swapped.err
check "fleet: --symfs in the other order names them otherwise" \
	sh -c '! python3 "$0" rows swapped.csv hot_one=$1 hot_two=$2 >/dev/null' "$tool" "$n1" "$n2"
expect "fleet: --symfs neither once nor once per -i is refused" 1 \
	'^pmprof: --symfs: given 2 times for 3 -i' \
	"$PMPROF" report -i b1.data -i b2.data -i b1.data --symfs rootA --symfs rootB
