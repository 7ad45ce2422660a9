#!/usr/bin/env bash
# pmprof record --hf-mode burst honours the long period: the leader
# itself counts it, so bursts come once per period P of the leader's
# count, whatever an overflow costs in time. With page-faults leading
# (tests/programs/faulter: faults counted one by one, each overflow
# exactly at its period) everything is exact, per CPU in the workload's
# cgroup and per thread (tests/tools/burst-check.awk, from the recorded
# read values):
#   - every cycle, from the end of a burst to the end of the next, is
#     exactly P faults (the first from 0, where counting starts);
#   - every window is exactly S faults;
#   - the bursts are as many as the count asks: floor(count / P) for
#     each counter instance, its count being its last sample's value.
# With hf-rand=R each cycle is within 2^R/2 of P, and they differ. A
# cpu-clock leader in frequency mode (-F style, freq=F) counts 1/F s of
# its own nanoseconds a cycle: no cycle is shorter (an hrtimer is never
# early).
. "$(dirname "$0")/../lib.sh"
BURST="$TOP/tests/tools/burst-check.awk"
WORKLOAD="$TOP/$BUILD/bench/workload"

if ! have_perf; then
	skip record-bursts "perf cannot record here"
	exit 0
fi
command -v gcc >/dev/null || { skip record-bursts "no gcc"; exit 0; }
cd "$TMP" || exit 1
gcc -O2 -o faulter "$TOP/tests/programs/faulter.c" ||
	{ not_ok "record-bursts: cannot build tests/programs/faulter.c"; exit 0; }

P=1000 S=10 N=3
SPEC="{page-faults/period=$P,hf-period=$S,hf-burst=$N/,task-clock}:S"

# counted NAME FILE [CTOL]: the structure, windows, cycles (within CTOL of
# P) and, without CTOL, the bursts against the count
counted() {
	local name=$1 f=$2 ctol=${3:-0} line
	local b bad sh w mn mx within cyc cmin cmax cwithin count expected
	line=$("$PMPROF" dump -i "$f" | awk -v N=$N -v S=$S -v TOL=0 -v P=$P -v CTOL="$ctol" -f "$BURST")
	read -r _ b _ bad _ sh _ w _ mn _ _ _ _ _ mx _ within _ cyc _ cmin _ cmax _ cwithin \
		_ count _ expected <<<"$line"
	if [ "${bad:-x}" = 0 ] && [ "$b" -ge 20 ] && [ "$w" -ge $(( (b - sh) * N )) ] &&
	   [ "$mn" = $S ] && [ "$mx" = $S ] && [ "$within" = "$w" ]; then
		ok "$name: $b bursts, every one of $w windows exactly $S faults"
	else
		not_ok "$name: burst structure and windows: $line"
		"$PMPROF" dump -i "$f" | awk -v N=$N -v S=$S -f "$BURST" | grep error | head -5 | sed 's/^/# /'
	fi
	if [ "${cyc:-0}" -gt 0 ] && [ "$cyc" = $((b - sh)) ] && [ "$cwithin" = "$cyc" ]; then
		ok "$name: every one of $cyc cycles is $P faults$( [ "$ctol" = 0 ] && echo ", exactly" || echo " within $ctol") ($cmin-$cmax)"
	else
		not_ok "$name: cycles of $P faults: $line"
	fi
	# (with jitter the cycles only average P: their sum drifts)
	[ "$ctol" = 0 ] || return 0
	if [ -n "${expected:-}" ] && [ "$expected" = $((b - sh)) ]; then
		ok "$name: $((b - sh)) complete bursts for $count faults counted: one per $P"
	else
		not_ok "$name: bursts against the count: $line"
	fi
}

run() {	# run NAME ARGS...: record the faulter into NAME.data
	local name=$1
	shift
	"$PMPROF" record -o "$name.data" --hf-mode burst "$@" -- ./faulter 200 1024 \
		>/dev/null 2>"$name.err" || { not_ok "$name: record failed"; sed 's/^/# /' "$name.err"; }
}

if [ "$(id -u)" = 0 ]; then
	run cgroup -e "$SPEC"
	if grep -q "hf mode burst, per CPU in the workload's cgroup" cgroup.err; then
		counted "burst, per CPU in a cgroup" cgroup.data
	else
		not_ok "burst: per CPU in the workload's cgroup"
		sed 's/^/# /' cgroup.err
	fi
else
	skip "burst in a cgroup" "needs root"
fi
run thread --per-thread -e "$SPEC"
counted "burst, per thread" thread.data
run rand --per-thread -e "{page-faults/period=$P,hf-period=$S,hf-burst=$N,hf-rand=5/,task-clock}:S"
counted "burst, hf-rand=5" rand.data 16
read -r cmin cmax < <("$PMPROF" dump -i rand.data |
	awk -v N=$N -v S=$S -v P=$P -f "$BURST" | sed -n 's/.* cmin \([0-9]*\) cmax \([0-9]*\) .*/\1 \2/p')
if [ -n "${cmin:-}" ] && [ "$cmin" -lt "$cmax" ]; then
	ok "burst, hf-rand=5: the cycles vary ($cmin-$cmax)"
else
	not_ok "burst, hf-rand=5: the cycles do not vary (${cmin:-?}-${cmax:-?})"
fi

# frequency mode: 500 cycles a second of cpu-clock's own time
F=500 FS=100000
"$PMPROF" record -o freq.data --hf-mode burst --per-thread \
	-e "{cpu-clock/freq=$F,hf-period=$FS/,task-clock}:S" -- "$WORKLOAD" -n 1500 >/dev/null 2>freq.err
line=$("$PMPROF" dump -i freq.data | awk -v N=1 -v S=$FS -v P=$((1000000000 / F)) -f "$BURST")
read -r _ b _ bad _ sh _ _ _ _ _ _ _ _ _ _ _ _ _ cyc _ cmin _ <<<"$line"
if [ "${bad:-x}" = 0 ] && [ "${cyc:-0}" -ge 5 ] && [ "$cmin" -ge $((1000000000 / F)) ]; then
	ok "burst, freq=$F: $cyc cycles, none under $((1000000000 / F)) ns of cpu-clock ($line)"
else
	not_ok "burst, freq=$F: cycles of 1/F s: $line"
	sed 's/^/# /' freq.err
fi
