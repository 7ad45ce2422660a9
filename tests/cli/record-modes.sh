#!/usr/bin/env bash
# pmprof record --hf-mode: every mode on the workload with software events.
# perf and pmprof read each file with the same sample counts; burst
# recordings have the burst structure (tests/tools/burst-check.awk): each
# burst is UNTHROTTLE, N+1 samples, THROTTLE of its counter instance, so no
# window spans a stop, and the closing windows' leader deltas are the
# short period within cpu-clock's hrtimer resolution (see TOL below).
. "$(dirname "$0")/../lib.sh"
WORKLOAD="$TOP/$BUILD/bench/workload"
CHECK="$TOP/tests/tools/record-check.sh"
BURST="$TOP/tests/tools/burst-check.awk"

if ! have_perf; then
	skip record-modes "perf cannot record here"
	exit 0
fi
cd "$TMP" || exit 1

P=4000000 S=100000 N=3
SPEC="{cpu-clock/period=$P,hf-period=$S,hf-burst=$N/,task-clock,page-faults}:S"

both_read() {
	local name=$1 f=$2 out
	if out=$("$CHECK" "$PMPROF" "$f" "$TMP/$name.err"); then
		ok "$name: $out"
	else
		not_ok "$name"
		printf '%s\n' "$out" | sed 's/^/# /'
		sed 's/^/# record: /' "$TMP/$name.err" | head -5
	fi
}

# burst_ok NAME FILE: the structure is exact (no bad burst, N windows per
# complete burst); the windows' median is S within 10%: cpu-clock is an
# hrtimer that keeps to its grid, so a late expiry (this VM: tens of us)
# lengthens one window and shortens the next, and the median stays S.
burst_ok() {
	local name=$1 f=$2 line b bad sh w p50
	line=$("$PMPROF" dump -i "$f" | awk -v N=$N -v S=$S -v TOL=$((S / 2)) -f "$BURST")
	read -r _ b _ bad _ sh _ w _ _ _ p50 _ <<<"$line"
	if [ "$bad" = 0 ] && [ "$b" -gt 5 ] && [ "$w" -ge $(( (b - sh) * N )) ] &&
	   [ "$p50" -ge $((S * 9 / 10)) ] && [ "$p50" -le $((S * 11 / 10)) ]; then
		ok "$name: burst structure: $line"
	else
		not_ok "$name: burst structure"
		echo "# $line"
		"$PMPROF" dump -i "$f" | awk -v N=$N -v S=$S -f "$BURST" | grep error | head -5 | sed 's/^/# /'
	fi
}

run() {	# run NAME ARGS...: record into NAME.data
	local name=$1
	shift
	"$PMPROF" record -o "$name.data" "$@" >/dev/null 2>"$TMP/$name.err"
}

# burst, the workload in its cgroup (per CPU)
run burst --hf-mode burst -e "$SPEC" -- "$WORKLOAD" -n 1500
grep -q "hf mode burst, per CPU in the workload's cgroup" burst.err &&
	ok "burst: says which instances (cgroup)" || { not_ok "burst: says which instances"; sed 's/^/# /' burst.err; }
both_read burst burst.data
burst_ok burst burst.data
"$PMPROF" info -i burst.data >burst.txt
if grep -q "name = cpu-clock/period=$P,hf-period=$S,hf-burst=$N/.*sample_period = $P" burst.txt; then
	ok "burst: the file says the total period and the hf terms (metrics.h's rule)"
else not_ok "burst: the file says the total period and the hf terms"; grep '^# event' burst.txt | sed 's/^/# /'; fi
if grep -q 'name = dummy' burst.txt; then ok "burst: a dummy event carries the side band"
else not_ok "burst: a dummy event carries the side band"; fi
if perf report -i burst.data --stdio --sort sym 2>/dev/null | grep -q 'int_divider_stalls\|fp_divider_stalls'; then
	ok "burst: perf report resolves the workload"
else not_ok "burst: perf report resolves the workload"; fi

# burst per thread (no cgroup), system-wide per CPU, and on a running -p
run burst-thread --hf-mode burst --per-thread -e "$SPEC" -- "$WORKLOAD" -n 1500
grep -q "hf mode burst, per thread, without inherit" burst-thread.err &&
	ok "burst --per-thread: says which instances" || not_ok "burst --per-thread: says which instances"
both_read burst-thread burst-thread.data
burst_ok burst-thread burst-thread.data
run burst-cpu --hf-mode burst -a -e "$SPEC" -- "$WORKLOAD" -n 1500
grep -q "hf mode burst, per CPU$" burst-cpu.err &&
	ok "burst -a: says which instances" || not_ok "burst -a: says which instances"
both_read burst-cpu burst-cpu.data
burst_ok burst-cpu burst-cpu.data
"$WORKLOAD" -n 100000 >/dev/null 2>&1 &
wl=$!
wait_for runs_exe "$wl" "$WORKLOAD"
"$PMPROF" record -o burst-pid.data --hf-mode burst -p "$wl" -e "$SPEC" >/dev/null 2>"$TMP/burst-pid.err" &
rec=$!
wait_for handles_signal "$rec" INT
# a second of the workload's CPU time recorded (cpu-clock counts CPU time:
# some 200 bursts, whatever the load)
t0=$(cpu_ticks "$wl")
wait_for used_cpu "$wl" $(( t0 + $(getconf CLK_TCK) ))
kill -INT "$rec"
wait "$rec"
kill "$wl"
wait "$wl" 2>/dev/null
both_read burst-pid burst-pid.data
burst_ok burst-pid burst-pid.data

# burst needs the hf term on a group leader
"$PMPROF" record -o x.data --hf-mode burst -e "{task-clock,cpu-clock/period=$P,hf-period=$S/}:S" -- true >/dev/null 2>x.err
rc=$?
if [ $rc = 1 ] && grep -q "group member with hf-period" x.err; then ok "burst: refuses hf-period on a member, says why"
else not_ok "burst: refuses hf-period on a member (exit $rc)"; sed 's/^/# /' x.err; fi

# fixed: every sample at the short period, no hf terms left in the name
run fixed --hf-mode fixed -e "{cpu-clock/period=$P,hf-period=$S/,task-clock}:S" -- "$WORKLOAD" -n 300
both_read fixed fixed.data
"$PMPROF" info -i fixed.data >fixed.txt
if grep -q "name = cpu-clock/period=$P/,.*sample_period = $S," fixed.txt; then
	ok "fixed: sample_period is the short period, the name has no hf term"
else not_ok "fixed: sample_period is the short period"; grep '^# event' fixed.txt | sed 's/^/# /'; fi

# off: the total period
run off --hf-mode off -e "{cpu-clock/period=$P,hf-period=$S/,task-clock}:S" -- "$WORKLOAD" -n 300
both_read off off.data
if "$PMPROF" info -i off.data | grep -q "name = cpu-clock/period=$P/,.*sample_period = $P,"; then
	ok "off: sample_period is the total period"
else not_ok "off: sample_period is the total period"; fi

# kernel: this kernel has no hf ABI: a clear refusal
"$PMPROF" record -o k.data --hf-mode kernel -e "cpu-clock/period=$P,hf-period=$S/" -- true >/dev/null 2>k.err
rc=$?
if [ $rc = 1 ] && grep -q "E2BIG, it knows 136 bytes" k.err; then ok "kernel: refused on this kernel, says E2BIG and the size"
elif [ $rc = 0 ]; then skip kernel "this kernel takes hf_sample attrs"
else not_ok "kernel: refusal (exit $rc)"; sed 's/^/# /' k.err; fi

# auto: says what it picked (burst here)
run auto -e "{cpu-clock/period=$P,hf-period=$S/,task-clock}:S" -- "$WORKLOAD" -n 300
if grep -q "hf mode: burst (this kernel does not take 144-byte attrs" auto.err; then ok "auto: picks burst and says why"
else not_ok "auto: picks burst"; sed 's/^/# /' auto.err; fi
both_read auto auto.data

# --metrics: says what it chose, records the software group in bursts
run metrics --metrics -- "$WORKLOAD" -n 1500
# without a PMU one line says what it records, what that cannot measure,
# and where to look instead
if [ "$(grep -c '^pmprof record: --metrics' metrics.err)" = 1 ] &&
   grep -q "^pmprof record: --metrics: no hardware PMU here (cycles cannot be opened): recording {cpu-clock/period=10000000,hf-period=100000/,task-clock,page-faults,context-switches}:S, .*CPI, branch, cache and top-down metrics need a PMU (\`pmprof sim\` shows them" metrics.err; then
	ok "--metrics: no PMU here, says so in one line and points to pmprof sim"
elif grep -q "hardware PMU found" metrics.err; then ok "--metrics: picks the hardware group"
else not_ok "--metrics: the choice"; sed 's/^/# /' metrics.err; fi
both_read metrics metrics.data
if "$PMPROF" info -i metrics.data | grep -q 'sample_type = IP|TID|TIME|READ|CALLCHAIN|ID|CPU,.*clockid = 4'; then
	ok "--metrics: callchains, -T, --sample-cpu, CLOCK_MONOTONIC_RAW"
else not_ok "--metrics: callchains, -T, --sample-cpu, CLOCK_MONOTONIC_RAW"; fi
line=$("$PMPROF" dump -i metrics.data | awk -v N=1 -v S=100000 -f "$BURST")
case "$line" in
"bursts "*" bad 0 "*) ok "--metrics: burst structure: $line" ;;
*) not_ok "--metrics: burst structure: $line" ;;
esac

# A lone sampling event (no group, so the spec asked for no sample ID): the
# recorder must still tell its bursts apart and re-arm them.
if "$PMPROF" record -o "$TMP/lone.data" --hf-mode burst \
	-e 'cpu-clock/period=1000000,hf-period=100000/' -- "$WORKLOAD" -n 2000 \
	>/dev/null 2>"$TMP/lone.err"; then
	bursts=$(sed -n 's/.* \([0-9][0-9]*\) bursts of short windows.*/\1/p' "$TMP/lone.err")
	if [ "${bursts:-0}" -ge 20 ]; then
		ok "lone event: $bursts bursts re-armed"
	else
		not_ok "lone event: only ${bursts:-0} bursts (not re-armed?)"
	fi
	both_read lone "$TMP/lone.data"
else
	not_ok "lone event: record failed: $(tail -1 "$TMP/lone.err")"
fi
