#!/usr/bin/env bash
# pmprof record with tracepoints, as perf record 6.1: the file carries
# HEADER_TRACING_DATA (pipe: the TRACING_DATA record), so that perf script
# prints each tracepoint's fields as for perf's own recording of the same
# events; and on a machine where tracefs is not mounted (made here in a
# private mount namespace, the host's mount untouched) record mounts it at
# /sys/kernel/tracing and goes on, or says why it cannot.
. "$(dirname "$0")/../lib.sh"

if ! have_perf; then
	skip record-tracepoints "perf cannot record here"
	exit 0
fi
cd "$TMP" || exit 1
EVENTS=(-e sched:sched_process_exec -e sched:sched_process_fork -e sched:sched_process_exit)
# two children: a fork, an exec and an exit each, then the shell's exit
PROG=(sh -c '/bin/true; /bin/true')
if ! perf record -q "${EVENTS[@]}" -o perf.data -- "${PROG[@]}" >/dev/null 2>perf.err; then
	skip record-tracepoints "perf cannot record sched tracepoints: $(head -1 perf.err)"
	exit 0
fi

# The events and their fields as perf script prints them, pids masked.
fields() {
	perf script -i "$1" -F event,trace 2>"$1.script.err" | sed 's/[0-9][0-9]*/N/g'
}

"$PMPROF" record -q "${EVENTS[@]}" -o pm.data -- "${PROG[@]}" >/dev/null 2>pm.err
check_eq "tracepoints: record exits 0" 0 "$?"
fields perf.data >perf.txt
fields pm.data >pm.txt
check_files_eq "tracepoints: perf script says of pmprof's file what of its own" perf.data.script.err pm.data.script.err
check_eq "tracepoints: perf's recording has 8 events" 8 "$(grep -c . perf.txt)"
check_files_eq "tracepoints: perf script prints pmprof's fields as perf's" perf.txt pm.txt
grep -q 'filename=/bin/true pid=N old_pid=N' pm.txt &&
	ok "tracepoints: the exec's filename decoded" || not_ok "tracepoints: the exec's filename decoded"
n=$(perf report -i pm.data --stdio --sort trace 2>/dev/null | grep -c 'filename=/bin/true')
check_eq "tracepoints: perf report shows the trace output" 2 "$n"
check_eq "tracepoints: pmprof info lists TRACING_DATA" 1 \
	"$("$PMPROF" info -i pm.data | grep -c 'features .*TRACING_DATA(')"

# pipe mode: the TRACING_DATA record before the first event
"$PMPROF" record -q -o - -e sched:sched_process_exec -- /bin/true 2>/dev/null >pipe.data
check_eq "tracepoints: perf script reads pmprof's pipe" "sched:sched_process_exec: filename=/bin/true pid=N old_pid=N" \
	"$(perf script -i - -F event,trace <pipe.data 2>/dev/null | sed 's/[0-9][0-9]*/N/g; s/^ *//')"

# ---- no tracefs mounted ----
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
	skip "tracepoints without tracefs" "needs root and unshare for a private mount namespace"
	exit 0
fi
# In a private mount namespace: unmount every tracefs (and debugfs, whose
# tracing/ is one too), then run "$@" and list tracefs mounts after it.
without_tracefs() {
	unshare -m --propagation private bash -c '
		for m in /sys/kernel/debug/tracing /sys/kernel/tracing /sys/kernel/debug; do
			umount "$m" 2>/dev/null
		done
		if sys_tracefs; then echo "still mounted" >&2; exit 99; fi
		"$@"; rc=$?
		sys_tracefs >"'"$TMP"'/mounts.after"
		exit $rc' bash "$@"
}
# How many tracefs are mounted where perf looks (other mounts, such as
# another test's chroot, are no concern here).
sys_tracefs() {
	awk '$3 == "tracefs" && ($2 == "/sys/kernel/tracing" || $2 == "/sys/kernel/debug/tracing") { n++ }
	     END { print n + 0; exit !n }' /proc/self/mounts
}
export -f sys_tracefs
host_mounts=$(sys_tracefs)
without_tracefs true
if [ $? = 99 ]; then
	skip "tracepoints without tracefs" "tracefs cannot be unmounted in a private mount namespace"
	exit 0
fi
without_tracefs "$PMPROF" record -e sched:sched_process_exec -o fresh.data -- /bin/true >/dev/null 2>fresh.err
check_eq "no tracefs: record mounts it and goes on" "0 1" "$? $(cat mounts.after)"
check_eq "no tracefs: record says so" 1 "$(grep -c 'tracefs was not mounted: mounted it at /sys/kernel/tracing' fresh.err)"
check_eq "no tracefs: the recording has the exec" "sched:sched_process_exec: filename=/bin/true pid=N old_pid=N" \
	"$(perf script -i fresh.data -F event,trace 2>/dev/null | sed 's/[0-9][0-9]*/N/g; s/^ *//')"
# perf goes on too (it mounts tracefs, or takes any tracefs mounted
# elsewhere, such as in another test's chroot)
without_tracefs perf record -q -e sched:sched_process_exec -o perf-fresh.data -- /bin/true >/dev/null 2>&1
check_eq "no tracefs: perf goes on as well" 0 "$?"
check_eq "no tracefs: the host's tracefs is still mounted" "$host_mounts" "$(sys_tracefs)"
if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	chmod 777 "$TMP"
	without_tracefs setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$PMPROF" record -e sched:sched_process_exec -o "$TMP/nobody.data" -- /bin/true >/dev/null 2>nobody.err
	rc=$?
	grep -q "unknown tracepoint 'sched:sched_process_exec': tracefs is not mounted, and mounting it at /sys/kernel/tracing failed: Operation not permitted" nobody.err &&
		[ "$rc" = 1 ] && ok "no tracefs, as nobody: the message says why (exit $rc)" ||
		{ not_ok "no tracefs, as nobody: exit $rc"; sed 's/^/# /' nobody.err | head -3; }
else
	skip "no tracefs, as nobody" "needs user nobody and setpriv"
fi
