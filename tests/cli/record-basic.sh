#!/usr/bin/env bash
# pmprof record: plain recordings of real workloads with software events,
# read back by perf 6.1 and by pmprof, with the same sample counts.
. "$(dirname "$0")/../lib.sh"
WORKLOAD="$TOP/$BUILD/bench/workload"
CHECK="$TOP/tests/tools/record-check.sh"

if ! have_perf; then
	skip record-basic "perf cannot record here"
	exit 0
fi
[ -x "$WORKLOAD" ] || { skip record-basic "no $WORKLOAD"; exit 0; }
cd "$TMP" || exit 1

# both_read NAME FILE: perf report, perf script and pmprof dump read FILE
# without an error and count the same samples; pmprof's own count (the
# "(N samples)" of its last line, in $TMP/NAME.err) matches too.
both_read() {
	local name=$1 f=$2 out
	if out=$("$CHECK" "$PMPROF" "$f" "$TMP/$name.err"); then
		ok "$name: $out"
	else
		not_ok "$name"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
}

# default output name, perf.data.old kept
"$PMPROF" record -e cpu-clock -- "$WORKLOAD" -n 400 >/dev/null 2>"$TMP/default.err"
check_eq "record: exit status 0, perf.data" "0 yes" "$? $([ -s perf.data ] && echo yes)"
both_read default perf.data
cp perf.data first.data
"$PMPROF" record -q -e cpu-clock -- "$WORKLOAD" -n 100 >/dev/null 2>&1
if cmp -s first.data perf.data.old; then ok "record: an existing perf.data becomes perf.data.old"
else not_ok "record: an existing perf.data becomes perf.data.old"; fi

# the features perf record writes, and what pmprof info says of them
"$PMPROF" info -i first.data >info.txt 2>&1
for f in HOSTNAME OSRELEASE VERSION ARCH NRCPUS CPUDESC CPUID TOTAL_MEM CMDLINE EVENT_DESC SAMPLE_TIME CLOCKID BUILD_ID; do
	if grep -q "^# features.*\b$f(" info.txt; then ok "record: feature $f"
	else not_ok "record: feature $f"; grep '^# features' info.txt | sed 's/^/# /'; fi
done
# build ids: the workload's, as readelf reads it
bid=$(readelf -n "$WORKLOAD" | awk '/Build ID/ { print $3 }')
if grep -q "build id *: $bid $WORKLOAD" info.txt; then ok "record: build id of the workload (readelf: $bid)"
else not_ok "record: build id of the workload"; grep 'build id' info.txt | sed 's/^/# /'; fi
if perf report -i first.data --header-only 2>/dev/null | grep -q "cmdline : .*record -e cpu-clock"; then
	ok "record: perf reads the cmdline"
else not_ok "record: perf reads the cmdline"; fi

# a group with callchains, -T, --sample-cpu, -k, -c
"$PMPROF" record -o grp.data -e '{cpu-clock,task-clock,page-faults}:S' -c 200000 -g -T --sample-cpu \
	-k monotonic_raw -- "$WORKLOAD" -n 400 -d 2 >/dev/null 2>"$TMP/group-g.err"
both_read group-g grp.data
"$PMPROF" info -i grp.data >grp.txt 2>&1
if grep -q 'clockid = 4' grp.txt && grep -q 'use_clockid = 1' grp.txt && grep -q 'sample_type = IP|TID|TIME|READ|CALLCHAIN|ID|CPU' grp.txt; then
	ok "record: -k monotonic_raw, -g, --sample-cpu in the attrs"
else not_ok "record: -k monotonic_raw, -g, --sample-cpu in the attrs"; grep '^# event' grp.txt | sed 's/^/# /'; fi
if perf report -i grp.data --stdio --sort sym 2>/dev/null | grep -q int_divider_stalls; then
	ok "record: perf resolves the workload's symbols"
else not_ok "record: perf resolves the workload's symbols"; fi

# frequency mode (-F), -m as a size, --per-thread
"$PMPROF" record -o f.data -e task-clock -F 2000 -m 1M --per-thread -- "$WORKLOAD" -n 400 >/dev/null 2>"$TMP/freq-per-thread.err"
both_read freq-per-thread f.data

# -a: every CPU, the running processes synthesized from /proc
"$PMPROF" record -o a.data -a -e cpu-clock -c 1000000 -- "$WORKLOAD" -n 400 >/dev/null 2>"$TMP/system-wide.err"
both_read system-wide a.data
ncomm=$("$PMPROF" dump -i a.data | grep -c ' COMM ')
if [ "$ncomm" -gt 10 ] && "$PMPROF" dump -i a.data | grep -q " COMM .*comm=init\| COMM .*pid=1 "; then
	ok "record -a: COMM of running processes ($ncomm)"
else not_ok "record -a: COMM of running processes ($ncomm)"; fi
ncpu=$(nproc)
nids=$(perf report -i a.data --header-only 2>/dev/null | sed -n 's/^# event : name = cpu-clock.*id = { \([0-9, ]*\) }.*/\1/p' | tr ',' '\n' | grep -c .)
check_eq "record -a: one counter per CPU" "$ncpu" "$nids"

# -C, -p and -t on a running process
"$PMPROF" record -o c.data -C 0 -e cpu-clock -c 1000000 -- "$WORKLOAD" -n 200 >/dev/null 2>"$TMP/cpu-list.err"
both_read cpu-list c.data
# (each signal only once the recorder handles it: a signal that comes
# earlier kills it as it would any program)
"$WORKLOAD" -n 100000 >/dev/null 2>&1 &
wl=$!
wait_for runs_exe "$wl" "$WORKLOAD"
"$PMPROF" record -o p.data -p "$wl" -e cpu-clock -c 100000 >/dev/null 2>"$TMP/pid.err" &
rec=$!
wait_for handles_signal "$rec" INT
wait_for recording_has_samples p.data || not_ok "record -p: no sample of the running process"
kill -INT "$rec"
wait "$rec"
check_eq "record -p: SIGINT ends it with status 0" 0 $?
both_read pid p.data
if "$PMPROF" dump -i p.data | grep -q "COMM .*comm=workload" && "$PMPROF" dump -i p.data | grep -q "MMAP2 .*$WORKLOAD"; then
	ok "record -p: COMM and MMAP2 synthesized for the running process"
else not_ok "record -p: COMM and MMAP2 synthesized for the running process"; fi
"$PMPROF" record -o t.data -t "$wl" -e cpu-clock -c 100000 >/dev/null 2>"$TMP/tid.err" &
rec=$!
wait_for handles_signal "$rec" TERM
wait_for recording_has_samples t.data || not_ok "record -t: no sample of the running thread"
kill -TERM "$rec"
wait "$rec"
check_eq "record -t: SIGTERM ends it with status 0" 0 $?
both_read tid t.data
kill "$wl" 2>/dev/null
wait "$wl" 2>/dev/null

# the workload's exit status is pmprof's, as with perf
"$PMPROF" record -q -o x.data -e cpu-clock -- sh -c 'exit 3' >/dev/null 2>&1
check_eq "record: the workload's exit status" 3 $?
"$PMPROF" record -q -o x.data -e cpu-clock -- sh -c 'kill -TERM $$' >/dev/null 2>&1
check_eq "record: a workload killed by a signal: 128 + signal" 143 $?

# A recorder that cannot drain (stopped while the workload runs, see
# tests/tools/stop-recorder.sh), a sample per page fault (some 700: a
# count, not a rate, so the same on any machine under any load) and a
# one-page ring (room for some 40): LOST records, the final line, and
# both tools still read the file.
STOPPED="$TOP/tests/tools/stop-recorder.sh"
"$PMPROF" record -o lost.data -m 1 -g -e page-faults -c 1 -- sh "$STOPPED" "$WORKLOAD" 20 flush >/dev/null 2>lost.err
nlost=$("$PMPROF" dump -i lost.data | grep -c ' LOST ')
said=$(sed -n 's/^pmprof record: lost \([0-9]*\) samples$/\1/p' lost.err)
sum=$("$PMPROF" dump -i lost.data | sed -n 's/.* LOST .*lost=\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
if [ "$nlost" -gt 0 ] && [ "$said" = "$sum" ]; then ok "record -m 1: $nlost LOST records, 'lost $said samples' as they add up"
else not_ok "record -m 1: LOST records ($nlost) and the lost line ('$said' vs $sum)"; fi
both_read lost lost.data
# The default ring buffers (2 MB) hold the same undrained: nothing lost.
"$PMPROF" record -o nolost.data -g -e page-faults -c 1 -- sh "$STOPPED" "$WORKLOAD" 20 >/dev/null 2>nolost.err
nsamples=$("$PMPROF" dump -i nolost.data | grep -c ' SAMPLE ')
check_eq "record: default ring buffers hold ${nsamples} samples undrained, nothing lost" \
	"0 $(sed -n 's/.*Wrote .* (\([0-9]*\) samples).*/\1/p' nolost.err)" \
	"$("$PMPROF" dump -i nolost.data | grep -c ' LOST ') $nsamples"
