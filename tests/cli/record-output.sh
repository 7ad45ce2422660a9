#!/usr/bin/env bash
# Where pmprof record's data goes (issue 13, items 2, 3, 4, 22, 23): the
# workload's output kept out of a -o - stream, files 0600 renamed into
# place only when complete, a full disk (a tmpfs of 64 KB) reported with
# what reached it, kill -9 of the recorder leaving a readable partial file
# that the next run points out, no workload outliving its recorder, stale
# burst cgroups removed, and no leak on option errors.
. "$(dirname "$0")/../lib.sh"
WORKLOAD="$TOP/$BUILD/bench/workload"
cd "$TMP" || exit 1
umask 022

if ! "$PMPROF" record -q -e cpu-clock -o probe.data -- true 2>probe.err; then
	skip record-output "pmprof record cannot open cpu-clock here: $(head -1 probe.err)"
	exit 0
fi
[ -x "$WORKLOAD" ] || { skip record-output "no $WORKLOAD"; exit 0; }

# A workload that runs until it is killed, named uniquely for this run.
FOREVER=$((900000000 + $$))
running() { pgrep -f "workload -n $FOREVER\$" 2>/dev/null; }
# Kill what this script started if a check failed and left it running.
cleanup_workloads() {
	local p
	for p in $(running); do kill -9 "$p" 2>/dev/null; done
}

samples_in() { "$PMPROF" dump -i "$1" 2>/dev/null | grep -c '^0x[0-9a-f]* \[0x[0-9a-f]*\] SAMPLE '; }

# gone PID: the process has exited (gone, or a zombie nobody reaped yet),
# waiting up to 60 s for the kernel to deliver the signal.
gone() {
	local i
	for i in $(seq 1 300); do
		[ -e "/proc/$1" ] || return 0
		grep -q '^[0-9]* (.*) [ZX] ' "/proc/$1/stat" 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}

# wait_samples FILE: until FILE reads with at least one sample (120 s).
wait_samples() {
	local i
	for i in $(seq 1 600); do
		[ -s "$1" ] && [ "$(samples_in "$1")" -gt 0 ] && return 0
		sleep 0.2
	done
	return 1
}

# ---- 2: -o - with a workload that prints ----
"$PMPROF" record -q -e cpu-clock -o - -- sh -c "echo workload-says-hello; seq 1 20000; exec $WORKLOAD -n 400" \
	2>pipe.err | "$PMPROF" report -i - --format csv >pipe.csv 2>report.err
st="${PIPESTATUS[*]}"
if [ "$st" = "0 0" ] && grep -q int_divider_stalls pipe.csv; then
	ok "record -o - | report -i -: a workload that prints does not break the stream"
else
	not_ok "record -o - | report -i -: exits $st"
	sed 's/^/# /' report.err | head -3
fi
grep -q '^workload-says-hello$' pipe.err && grep -q '^20000$' pipe.err &&
	ok "record -o -: the workload's stdout went to stderr" ||
	not_ok "record -o -: the workload's stdout went to stderr"
if have_perf; then
	perf record -q -e cpu-clock -o - -- sh -c 'echo workload-says-hello' 2>perf-pipe.err >/dev/null
	grep -q '^workload-says-hello$' perf-pipe.err &&
		ok "... as perf record -o - does" || not_ok "... as perf record -o - does"
else
	skip "perf -o -" "perf cannot record here"
fi

# ---- 3: modes, .old, symlinks ----
"$PMPROF" record -q -e cpu-clock -o m.data -- "$WORKLOAD" -n 100
check_eq "a new recording is 0600 under umask 022" 600 "$(stat -c %a m.data)"
chmod 644 m.data
cp m.data m.copy
"$PMPROF" record -q -e cpu-clock -o m.data -- "$WORKLOAD" -n 100
check_eq "a recording over an old one: new file 0600, the old one kept as .old (644)" \
	"600 644" "$(stat -c %a m.data) $(stat -c %a m.data.old)"
cmp -s m.data.old m.copy && ok "... .old holds the old recording" || not_ok "... .old holds the old recording"
"$PMPROF" record -q -e cpu-clock -o real.data -- true
ln -s real.data link.data
"$PMPROF" record -q -e cpu-clock -o link.data -- "$WORKLOAD" -n 100
if [ -L link.data ] && [ -f real.data.old ] && [ ! -e link.data.old ] &&
   [ "$(samples_in real.data)" -gt 0 ]; then
	ok "-o a symlink: its target is replaced (target.old kept), the link stays"
else
	not_ok "-o a symlink: its target is replaced (target.old kept), the link stays"
fi

# ---- 22: kill -9 of the recorder ----
"$PMPROF" record -e cpu-clock -o k.data -- "$WORKLOAD" -n $FOREVER 2>k.err &
rec=$!
if wait_samples "k.data.$rec.partial"; then
	ok "while recording, k.data.$rec.partial reads with samples"
else
	not_ok "while recording, k.data.$rec.partial reads with samples"
fi
wl=$(pgrep -P $rec | head -1)
kill -9 $rec
wait $rec 2>/dev/null
if [ -n "$wl" ] && gone "$wl"; then
	ok "kill -9 of record: the workload does not outlive it"
else
	not_ok "kill -9 of record: the workload does not outlive it (pid ${wl:-none})"
fi
cleanup_workloads
[ ! -e k.data ] && ok "kill -9: no file under the final name" || not_ok "kill -9: no file under the final name"
n=$(samples_in "k.data.$rec.partial")
if [ "$n" -gt 0 ] && "$PMPROF" report -i "k.data.$rec.partial" >k.report 2>&1 &&
   grep -q "^# Samples: $n " k.report; then
	ok "kill -9: pmprof report reads the partial file to its last record ($n samples)"
else
	not_ok "kill -9: pmprof report reads the partial file ($n samples)"
	sed 's/^/# /' k.report | head -3
fi
if "$PMPROF" inject -i "k.data.$rec.partial" -o fixed.data 2>inject.err; then
	ok "kill -9: pmprof inject completes the partial file"
	if have_perf; then
		pf=$(perf report -i fixed.data -D 2>/dev/null | grep -c PERF_RECORD_SAMPLE)
		check_eq "... which perf reads: the same samples" "$n" "$pf"
	fi
else
	not_ok "kill -9: pmprof inject completes the partial file"
	sed 's/^/# /' inject.err | head -3
fi
"$PMPROF" record -e cpu-clock -o k.data -- true 2>next.err
grep -q "k.data.$rec.partial: left by recorder $rec, which did not finish" next.err &&
	ok "the next record to k.data points out the partial file" ||
	{ not_ok "the next record to k.data points out the partial file"; sed 's/^/# /' next.err | head -3; }

# ---- 22: the burst cgroup of a killed recorder ----
cg=
for d in /sys/fs/cgroup/unified /sys/fs/cgroup; do
	[ "$(stat -f -c %T "$d" 2>/dev/null)" = cgroup2fs ] && { cg=$d; break; }
done
if [ "$(id -u)" != 0 ] || [ -z "$cg" ]; then
	skip "stale cgroup" "burst cgroups need root and a cgroup2 mount"
else
	"$PMPROF" record --hf-mode burst -e '{cpu-clock/period=1000000,hf-period=50000/,task-clock}:S' \
		-o b.data -- "$WORKLOAD" -n $FOREVER 2>b.err &
	rec=$!
	wait_samples "b.data.$rec.partial"
	wl=$(pgrep -P $rec | head -1)
	kill -9 $rec
	wait $rec 2>/dev/null
	[ -n "$wl" ] && gone "$wl"
	cleanup_workloads
	# Any pmprof record run as root removes it, so another test running
	# beside this one may get there first: check only that it is gone
	# after this script's next run (lib/record's unit test checks which
	# one is removed and what is said).
	if grep -q "in the workload's cgroup" b.err; then
		"$PMPROF" record -e cpu-clock -o z.data -- true 2>z.err
		if [ ! -e "$cg/pmprof-record-$rec" ]; then
			ok "the next record run removes the cgroup a killed recorder left"
		else
			not_ok "the next record run removes the cgroup a killed recorder left"
			sed 's/^/# /' z.err | head -3
			rmdir "$cg/pmprof-record-$rec" 2>/dev/null
		fi
	else
		not_ok "burst mode recorded in no cgroup of its own"
		sed 's/^/# /' b.err | head -3
	fi
fi

# ---- 23: no leak on option errors ----
if command -v valgrind >/dev/null 2>&1; then
	for args in "--plan -1 -e cpu-clock -- true" "--metrics -e cpu-clock -- true" \
		    "-e cpu-clock --no-such-option -- true" "-e cpu-clock -k sundial -- true" \
		    "-e bogus-event -- true" "-e cpu-clock -C 0-x -- true" "-F abc -e cpu-clock -- true"; do
		# shellcheck disable=SC2086
		valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 \
			"$PMPROF" record -o leak.data $args >/dev/null 2>leak.err
		rc=$?
		if [ $rc = 1 ]; then ok "record $args: exit 1, nothing leaked"
		else not_ok "record $args: exit $rc (99: valgrind found a leak)"; grep 'definitely' leak.err | head -2 | sed 's/^/# /'; fi
	done
else
	skip "leaks" "valgrind is not installed (scripts/deps.sh)"
fi

# ---- 4, 23: a full disk ----
tiny_tmpfs "$TMP/full" cleanup_workloads || exit 0
echo "old bytes" > full/r.data
cp full/r.data r.copy
# A workload that never ends: only the full disk can stop this recording.
timeout 600 "$PMPROF" record -e cpu-clock -o full/r.data -- "$WORKLOAD" -n $FOREVER >/dev/null 2>full.err
rc=$?
if [ $rc = 2 ] && grep -q '^pmprof: full/r.data: write failed: No space left on device$' full.err; then
	ok "record to a full disk: exit 2, the file named"
else
	not_ok "record to a full disk: exit $rc"
	sed 's/^/# /' full.err | head -5
fi
if [ -z "$(running)" ]; then ok "... the workload is not left running"
else not_ok "... the workload is not left running"; cleanup_workloads; fi
cmp -s full/r.data r.copy && [ ! -e full/r.data.old ] &&
	ok "... the old full/r.data is unchanged (no .old made)" ||
	not_ok "... the old full/r.data is unchanged (no .old made)"
line=$(grep '^\[ pmprof record: full/r.data not written: ' full.err)
partial=$(printf '%s\n' "$line" | sed -n 's/.* kept in \(.*\) \]$/\1/p')
said_mb=$(printf '%s\n' "$line" | sed -n 's/.*not written: \([0-9.]*\) MB.*/\1/p')
said_n=$(printf '%s\n' "$line" | sed -n 's/.* MB (\([0-9]*\) samples).*/\1/p')
if [ -n "$partial" ] && [ -f "$partial" ]; then
	mb=$(awk -v b="$(stat -c %s "$partial")" 'BEGIN { printf "%.3f", b / 1e6 }')
	n=$(samples_in "$partial")
	check_eq "... the summary says what reached the disk (MB, samples of $partial)" \
		"$mb $n" "$said_mb $said_n"
	[ "$n" -gt 0 ] && ok "... and the partial file reads ($n samples)" ||
		not_ok "... and the partial file reads"
else
	not_ok "... the summary names the partial file kept: '${line}'"
fi
