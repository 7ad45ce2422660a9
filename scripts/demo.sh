#!/usr/bin/env bash
# `make demo`: record the bundled workload with perf and show what pmprof
# reads from the recording. Runs after `make all`; takes well under a
# minute.
#
# Until `pmprof record`, `report`, `metrics` and `sim` exist, this records
# with perf itself and shows `pmprof info` and `pmprof dump`. Each step is
# a function, so the later ones slot in here.
set -u
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
PMPROF="$PWD/$BUILD/pmprof"
WORKLOAD="$PWD/$BUILD/bench/workload"
DIR=$(mktemp -d /tmp/pmprof-demo.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
DATA="$DIR/perf.data"

title() { printf '\n==== %s\n' "$*"; }
# shown CMD...: print the command, then run it.
shown() { printf '$ %s\n' "$*"; "$@"; }

need() {
	for f in "$PMPROF" "$WORKLOAD"; do
		[ -x "$f" ] && continue
		echo "demo: $f is missing; run make first" >&2
		exit 1
	done
	if ! command -v perf >/dev/null; then
		echo "demo: perf not found; scripts/deps.sh --runtime installs it" >&2
		exit 1
	fi
}

# A hardware PMU counts instructions; without one perf says "not supported"
# (or fails to open the event at all).
have_pmu() {
	local out
	out=$(perf stat -x, -e instructions true 2>&1) || return 1
	case "$out" in *"not supported"*|*"not counted"*) return 1 ;; esac
	return 0
}

detect() {
	title "This machine"
	if have_pmu; then
		PMU=1
		echo "A hardware PMU is present: cycles, instructions and cache events can be sampled."
		echo "(pmprof record --metrics will use it; until then the demo records with perf.)"
	else
		PMU=0
		echo "No hardware PMU here (perf stat -e instructions: not supported)."
		echo "Recording with the software event cpu-clock instead."
	fi
}

record() {
	title "Record the workload ($(basename "$WORKLOAD"): seven behaviours, 3 frames deep)"
	if ! shown perf record -q -e cpu-clock -g -o "$DATA" "$WORKLOAD" --nest 3 -n 6000; then
		echo "demo: perf record failed; as a normal user it needs" >&2
		echo "  sysctl kernel.perf_event_paranoid=1  (or lower)" >&2
		exit 1
	fi
	ls -l "$DATA" | awk '{ print $5 " bytes" }'
}

# What perf itself makes of the recording, for comparison.
perf_view() {
	title "perf's view (perf report, self time)"
	shown perf report -i "$DATA" --stdio --no-children -q -g none \
		-F overhead,sym 2>/dev/null | head -12
}

info() {
	title "pmprof info: header, features, events"
	shown "$PMPROF" info -i "$DATA" 2>&1 | head -60
}

dump() {
	title "pmprof dump: every record decoded (first 40 lines)"
	shown "$PMPROF" dump -i "$DATA" 2>&1 | head -40
}

need
detect
record
perf_view
info
dump
