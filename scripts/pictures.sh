#!/usr/bin/env bash
# The README's and man pages' pictures and examples, made the same on
# every machine: seeded simulated recordings (pmprof sim) of
# docs/examples/nested.json (Arm's benchmark behaviours through 1 to 3
# nest frames) and nested-twice.json (branch_mispredicts called twice),
# their HTML pages as headless Chromium draws them, and the text outputs.
#
#   scripts/pictures.sh DIR    everything into DIR (tests/cli/pictures.sh
#                              checks it); `make pictures`: DIR is
#                              build/pictures, its PNGs then copied to
#                              docs/images/
#
# In DIR: nested.data (cycles), group.data (a counter group, hf windows),
# twice.data; report.html, metrics.html, diff.html and their screenshots
# report-html.png (search "divider" typed, a frame hovered),
# metrics-html.png (a frame's CPI and IPC in its hover box),
# diff-html.png (red grew, blue shrank; a frame hovered); the examples
# folded.txt, metrics-folded.txt, pprof-top.txt, script.txt, diff.txt,
# diff-folded.txt (each the command, then what it printed; the README and
# the man pages show them); chromium.log.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/headless.sh"
dir=${1:?usage: scripts/pictures.sh DIR}
PMPROF=${PMPROF:-$top/${BUILD:-build}/pmprof}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
cd "$dir"
rm -rf chromium chromium.log ./*.png

# the window each picture is taken in: wide enough for the tables' first
# columns, tall enough for the flame graph and its hover box
SIZE=960,540
# the frames the pictures point at (the flame graph's paths)
NEST='all;main;run_behaviours;run_one'
FP="$NEST;nest_2;nest_1;fp_divider_stalls"
BM="$NEST;nest_1;branch_mispredicts"

# example NAME CMD...: CMD's output under a "$ CMD" line in NAME.txt, as
# the docs show it (run from DIR; the recordings named as in the docs, and
# DIR/ left out of the paths the recordings hold: the simulator's ELF's)
example() {
	local name=$1
	shift
	{ printf '$ %s\n' "$*"; bash -c "$*" | sed "s|$dir/||g"; } >"$name.txt"
	[ "$(wc -l <"$name.txt")" -gt 1 ] ||
		{ echo "pictures.sh: $*: no output" >&2; exit 1; }
}

m="$top/docs/examples"
"$PMPROF" sim -q "$m/nested.json" -e cycles/period=100000/ --seed 1 -o nested.data
# the same program's name (diff pairs functions by object and symbol), its
# own ELF (the same code, but each recording's file is its own)
mkdir -p twice
"$PMPROF" sim -q "$m/nested-twice.json" -e cycles/period=100000/ --seed 2 -o twice.data \
	--elf twice/nested
"$PMPROF" sim -q "$m/nested.json" --seed 1 -o group.data \
	-e '{cycles/period=1000000,hf-period=300/,instructions,cache-references,cache-misses}:uS'
"$PMPROF" report -i nested.data --format html >report.html
"$PMPROF" metrics -i group.data --format html >metrics.html
"$PMPROF" diff --format html nested.data twice.data >diff.html

# the examples run with pmprof on PATH, as a reader's shell has it
PATH="$(dirname "$PMPROF"):$PATH"
export PATH
example folded "pmprof report -i nested.data --format folded | sort -t' ' -k2,2nr | head -4"
example metrics-folded "pmprof metrics -i group.data --format folded --weight instructions | sort -t' ' -k2,2nr | head -3"
example script "pmprof script -i nested.data | head -7"
example diff "pmprof diff nested.data twice.data | tail -n +8"
example diff-folded "pmprof diff --format folded nested.data twice.data | grep branch_mispredicts"
if command -v go >/dev/null; then
	"$PMPROF" report -i nested.data --format pprof >nested.pb.gz
	HOME="$dir" GOCACHE="$dir/go-cache" GOFLAGS=-mod=mod \
		example pprof-top "go tool pprof -top -nodecount=6 nested.pb.gz 2>/dev/null"
fi

# shot PAGE FRAGMENT: PAGE.html as drawn after FRAGMENT's acts
# (lib/table/flamegraph.js), in PAGE-html.png
shot() {
	local frag=${2//;/%3B}
	headless "$dir/chromium" chromium.log --window-size="$SIZE" \
		--screenshot="$dir/$1-html.png" "file://$dir/$1.html#$frag" >/dev/null
	[ -s "$1-html.png" ] || { echo "pictures.sh: no $1-html.png (chromium.log)" >&2; exit 1; }
}
command -v chromium >/dev/null || { echo "pictures.sh: no chromium" >&2; exit 1; }
shot report "type=divider&hover=$FP"
shot metrics "hover=$FP"
shot diff "hover=$BM"
