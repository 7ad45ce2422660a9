#!/usr/bin/env bash
# bench/workload: every mode runs and exits 0, bad arguments exit 1, the
# function names the profiles rely on are in its symbol table, and (with
# perf) threads, fork+exec and nesting show up in a real recording.
. "$(dirname "$0")/../lib.sh"
W="$TOP/$BUILD/bench/workload"
if [ ! -x "$W" ]; then
	not_ok "workload: $W not built"
	exit 0
fi

behaviours="branch_mispredicts int_divider_stalls double_to_int
fp_divider_stalls isb dcache_miss nops"
others="profileme_branch_random profileme_branch_sorted nest_1 nest_2 nest_3"

# Symbols: global text symbols with exactly these names (nm, not our code).
nm "$W" >"$TMP/nm" 2>&1
for f in $behaviours $others; do
	if awk -v f="$f" '$2 == "T" && $3 == f { found = 1 } END { exit !found }' \
		"$TMP/nm"; then
		ok "workload-symbol-$f"
	else
		not_ok "workload-symbol-$f"
	fi
done
check_eq workload-list "$(echo $behaviours)" "$(echo $("$W" --list))"

# Modes, briefly.
for f in $behaviours; do
	check "workload-only-$f" "$W" --only "$f" -n 20
done
check workload-shuffled "$W" -n 20
check workload-seeded "$W" --seed 7 -n 20
check workload-fixed "$W" --fixed -n 20
check workload-nest2 "$W" --nest 2 -n 20
check workload-nest3 "$W" -d 3 -n 20
check workload-positional "$W" -n 20 0 3
check workload-threads "$W" --threads 3 -n 20
check workload-profileme "$W" --profileme --rounds 5
check workload-help "$W" --help

# --fork: the child is a second process, each prints its own line.
out=$("$W" --fork -v -n 20 2>&1)
rc=$?
pids=$(printf '%s\n' "$out" | sed -n 's/^workload: pid \([0-9]*\),.*/\1/p' | sort -u | wc -l)
check_eq workload-fork "0 2" "$rc $pids"

# --until PATH: a run of a billion iterations (days) stops once PATH
# exists, with status 0, in each thread; the timeout only guards a hang.
touch "$TMP/stop"
check workload-until timeout 120 "$W" -n 1000000000 --threads 2 -u "$TMP/stop"
"$W" -n 1000000000 -u "$TMP/go-on" >/dev/null 2>&1 &
wl=$!
wait_for used_cpu "$wl" 5 || not_ok "workload-until: runs on while PATH does not exist"
touch "$TMP/go-on"
wait "$wl"
check_eq "workload-until: stops when PATH appears" 0 $?

# Bad arguments: exit 1 and say why.
for bad in "--only bogus" "--nest 4" "--nest 0" "-n x" "--threads 0" "1 2 3"; do
	# shellcheck disable=SC2086 # split on purpose
	"$W" $bad >"$TMP/bad.out" 2>&1
	rc=$?
	if [ "$rc" = 1 ] && grep -q "workload: bad" "$TMP/bad.out"; then
		ok "workload-rejects '$bad'"
	else
		not_ok "workload-rejects '$bad' (exit $rc)"
		sed 's/^/# /' "$TMP/bad.out"
	fi
done

if ! have_perf; then
	skip workload-perf "perf cannot record here"
	exit 0
fi

# Threads: samples from 3 distinct tids of one pid.
perf record -q -e cpu-clock -c 200000 -o "$TMP/t.data" \
	"$W" --threads 3 -n 300 >/dev/null 2>&1
n=$(perf script -i "$TMP/t.data" -F pid,tid,comm 2>/dev/null |
	awk '$1 == "workload" { print $2 }' | sort -u | wc -l)
check_eq workload-perf-threads 3 "$n"

# Fork+exec: samples in two processes, both named workload (each does
# its 200 iterations of CPU time, so each has samples on any machine; and
# the exec'd child is not "exe", as exec'ing /proc/self/exe would name it).
perf record -q -e cpu-clock -c 200000 -o "$TMP/f.data" \
	"$W" --fork -n 200 >/dev/null 2>&1
n=$(perf script -i "$TMP/f.data" -F comm,pid 2>/dev/null |
	awk '$1 == "workload" { print $2 }' | sort -u | wc -l)
check_eq workload-perf-fork 2 "$n"
# The child's exec names it workload (not "exe", as an exec of
# /proc/self/exe would): both exec COMM records say so.
n=$(perf script --show-task-events -i "$TMP/f.data" 2>/dev/null |
	grep -c 'PERF_RECORD_COMM exec: workload:')
check_eq workload-perf-fork-comm 2 "$n"

# Nesting 3: some frame-pointer chain has isb <- nest_1 <- nest_2 <- nest_3.
perf record -q -g -e cpu-clock -c 100000 -o "$TMP/n.data" \
	"$W" --only isb --nest 3 -n 2000 >/dev/null 2>&1
if perf script -i "$TMP/n.data" -F ip,sym 2>/dev/null |
	awk '{ print $2 }' | tr '\n' ' ' |
	grep -q 'isb nest_1 nest_2 nest_3 run_one'; then
	ok workload-perf-nest3
else
	not_ok workload-perf-nest3
	perf script -i "$TMP/n.data" -F ip,sym 2>/dev/null | head -20 | sed 's/^/# /'
fi
