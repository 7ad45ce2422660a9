#!/bin/sh
# stop-recorder.sh WORKLOAD N [flush]: run as the workload of `pmprof
# record` (`pmprof record ... -- sh stop-recorder.sh WORKLOAD N`). Stops
# the recorder (its parent), runs WORKLOAD -n N while it cannot drain its
# rings, then lets it go on. So a test knows, whatever the machine's speed
# or load, that every record of those N iterations sat in the ring at once:
# a small ring must overflow, one large enough must hold them all.
#
# With "flush", the workload then goes on in short runs until the recorder
# has slept again (its voluntary context switches grow: it drained the
# rings and waits in poll), three times over, and then once more, because the kernel writes
# its LOST record in front of the first record that finds room after a
# drain: without that record no tool could know what was lost.
wl=$1 n=$2 flush=${3:-} p=$PPID
field() {
	while read -r k v; do
		[ "$k" = "$1:" ] && { echo "$v"; return; }
	done <"/proc/$p/status"
}
kill -STOP "$p" || exit 1
until [ "$(field State)" = "T (stopped)" ]; do sleep 0.01; done
"$wl" -n "$n" >/dev/null || exit 1
before=$(field voluntary_ctxt_switches)
kill -CONT "$p" || exit 1
[ "$flush" = flush ] || exit 0
# Three rounds: a voluntary switch can also be a short block (a write,
# a lock) before the drain; by the third sleep the recorder has been
# through its poll, after a drain, at least once.
for round in 1 2 3; do
	while [ "$(field voluntary_ctxt_switches)" = "$before" ]; do "$wl" -n 1 >/dev/null; done
	before=$(field voluntary_ctxt_switches)
	"$wl" -n 1 >/dev/null
done
