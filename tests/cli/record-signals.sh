#!/usr/bin/env bash
# pmprof record interrupted: SIGINT at random times (and SIGTERM) stops the
# workload and leaves a complete file that perf and pmprof both read, with
# the same sample counts, in plain, fixed and burst modes, and the
# workload is gone.
. "$(dirname "$0")/../lib.sh"
WORKLOAD="$TOP/$BUILD/bench/workload"
CHECK="$TOP/tests/tools/record-check.sh"

if ! have_perf; then
	skip record-signals "perf cannot record here"
	exit 0
fi
cd "$TMP" || exit 1
modes=(off fixed burst)
RANDOM=$$
for i in $(seq 1 10); do
	mode=${modes[$((i % 3))]}
	sig=INT
	[ "$i" = 5 ] && sig=TERM
	# 50 ms to 800 ms into a run that would take seconds
	delay=$(awk -v r=$RANDOM 'BEGIN { printf "%.3f", 0.05 + (r % 750) / 1000 }')
	"$PMPROF" record -o "i$i.data" --hf-mode $mode -g \
		-e '{cpu-clock/period=1000000,hf-period=50000/,task-clock}:S' -- \
		"$WORKLOAD" -n 1000000 >/dev/null 2>"i$i.err" &
	rec=$!
	# The delay counts from when the recorder handles the signal (before,
	# the signal kills it as it would any program) and its workload runs.
	out= wl=
	if ! wait_for handles_signal $rec $sig ||
	   ! wait_for child_runs $rec "$WORKLOAD" >/dev/null; then
		not_ok "SIG$sig ($mode): the recorder never handled it or never ran the workload"
		pkill -KILL -P $rec; kill -KILL $rec
		wait $rec
		continue
	fi
	wl=$(child_runs $rec "$WORKLOAD")
	sleep "$delay"
	kill -$sig $rec
	wait $rec
	rc=$?
	left=0
	if [ -n "$wl" ] && runs_exe "$wl" "$WORKLOAD"; then
		left=1
		kill "$wl"
	fi
	if [ $rc = 0 ] && [ -n "$wl" ] && [ "$left" = 0 ] &&
	   out=$("$CHECK" "$PMPROF" "i$i.data" "i$i.err" 2>&1); then
		ok "SIG$sig after ${delay}s ($mode): $out"
	else
		not_ok "SIG$sig after ${delay}s ($mode): exit $rc, workload ${wl:-not found}${left/1/ left running}"
		printf '%s\n' "$out" | sed 's/^/# /'
		sed 's/^/# record: /' "i$i.err" | head -5
	fi
done

