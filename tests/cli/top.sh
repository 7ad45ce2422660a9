#!/usr/bin/env bash
# pmprof top: on a terminal (tmux: send-keys, capture-pane) on a workload
# that runs until stopped, the hot functions appear within two intervals,
# s sorts by the next column, / filters, q exits 0 with the terminal
# restored (alternate screen left, cursor visible), as SIGINT and the
# workload's end do; --stdio prints tables whose rows are the workload's
# functions, stops on SIGINT (exit 0) and at the workload's end; a
# replayed recording (-i) shows in each interval exactly the samples perf
# script puts there; --metrics with the software group record falls back
# to here (cpu-clock windows with task-clock): its tables, and windows
# that add up to no more than `pmprof metrics` finds in the whole
# recording (equal for one interval). What this VM cannot show: hardware
# counter metrics (CPI, misses: no PMU) and the kernel hf mode (no ABI).
. "$(dirname "$0")/../lib.sh"
WORKLOAD="$TOP/$BUILD/bench/workload"
TOOL="$TOP/tests/tools/top_tables.py"
cd "$TMP" || exit 1

if ! "$PMPROF" record -q -e cpu-clock -o probe.data -- true >/dev/null 2>&1; then
	skip top "pmprof record cannot sample cpu-clock here"
	exit 0
fi
"$WORKLOAD" -l >funcs

# Workloads that run until stopped, told apart from anyone else's by an
# iteration count of this run's own.
LONG=$((1000000000 + $$))
workload_pids() { pgrep -f -- "$WORKLOAD -n $LONG\$"; }
SOCK="$TMP/tmux.sock"
cleanup() {
	[ -S "$SOCK" ] && tmux -S "$SOCK" kill-server 2>/dev/null
	for p in $(workload_pids); do kill "$p" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT

# wait_until SECONDS CMD...: poll CMD every 0.2 s, at most SECONDS.
wait_until() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.2
	done
}
none_left() { ! workload_pids >/dev/null; }
tables_in() { [ "$(grep -c '^# pmprof top' "$1")" -ge "$2" ]; }

# ---- options and errors ----
expect "top: no terminal, no --stdio" 1 "not a terminal" "$PMPROF" top -- true </dev/null
expect "top: -d 0" 1 "-d 0" "$PMPROF" top --stdio -d 0 -- true
expect "top: --metrics with -e" 1 "chooses the events" "$PMPROF" top --stdio --metrics -e cpu-clock -- true
expect "top: an unknown event (record's check)" 1 "unknown event 'nosuch'" "$PMPROF" top --stdio -e nosuch -- true
expect "top: -i without --stdio" 1 "-i replays" "$PMPROF" top -i probe.data
expect "top: -i with a command" 1 "-i replays" "$PMPROF" top --stdio -i probe.data -- true
expect "top: -i of a missing file" 2 "nosuch.data" "$PMPROF" top --stdio -i nosuch.data
head -c 300 probe.data >cut.data
expect "top: -i of a truncated file" 2 "cut.data" "$PMPROF" top --stdio -i cut.data
expect "top: -p of no process" 2 "no such process" "$PMPROF" top --stdio -p 2147483646

# ---- --stdio on a running workload, stopped by SIGINT ----
"$PMPROF" top --stdio -d 0.5 -- "$WORKLOAD" -n $LONG >live.out 2>live.err &
pid=$!
if wait_until 120 tables_in live.out 3; then
	ok "stdio: a table per interval"
else
	not_ok "stdio: fewer than 3 tables in 120 s"
	sed 's/^/# /' live.err | head -5
fi
kill -INT $pid
wait $pid
check_eq "stdio: SIGINT exits 0" 0 $?
check "stdio: the output parses as tables of the workload's functions" \
	python3 "$TOOL" tables live.out funcs
if wait_until 30 none_left; then ok "stdio: SIGINT ends the workload"
else not_ok "stdio: the workload still runs after SIGINT"; fi

# ---- --stdio until the workload's end ----
timeout 300 "$PMPROF" top --stdio -d 0.2 -- "$WORKLOAD" -n 300 >end.out 2>end.err
check_eq "stdio: the workload's end exits 0" 0 $?
check "stdio: its tables parse" python3 "$TOOL" tables end.out
timeout 60 "$PMPROF" top --stdio -d 0.2 -- sh -c 'exit 3' >/dev/null 2>&1
check_eq "stdio: a workload's exit status is top's" 3 $?

# ---- replay: each interval holds exactly perf's samples ----
if have_perf; then
	perf record -q -T -e cpu-clock:u -o rep.data -- "$WORKLOAD" >/dev/null 2>&1
	perf script -F time,ip,sym,dso --ns -i rep.data >rep.script 2>/dev/null
	for d in 0.1 0.25 1; do
		"$PMPROF" top --stdio -i rep.data -d $d >rep.$d.out 2>rep.err
		check "replay -d $d: intervals as perf script's times cut them" \
			python3 "$TOOL" perf rep.$d.out rep.script $d workload
	done
	# two events: each interval a table per event, as perf saw them
	perf record -q -T -e cpu-clock:u -e task-clock:u -o rep2.data -- "$WORKLOAD" >/dev/null 2>&1
	perf script -F time,event,ip,sym,dso --ns -i rep2.data >rep2.script 2>/dev/null
	perf evlist -i rep2.data >rep2.evlist 2>/dev/null
	"$PMPROF" top --stdio -i rep2.data -d 0.25 >rep2.out 2>rep2.err
	check "replay of two events: a table per event and interval, as perf script's times cut them" \
		python3 "$TOOL" perf-events rep2.out rep2.script 0.25 workload rep2.evlist
else
	skip "top replay" "perf cannot record here"
fi

# ---- --metrics: the software group's windows ----
"$PMPROF" top --metrics --stdio -d 1 -- "$WORKLOAD" -n $LONG >mlive.out 2>mlive.err &
pid=$!
wait_until 120 tables_in mlive.out 3
kill -INT $pid
wait $pid
check_eq "metrics: SIGINT exits 0" 0 $?
if python3 "$TOOL" metrics mlive.out --software >mlive.windows 2>&1 &&
   [ "$(grep -cxFf funcs <(awk '{ print $1 }' mlive.windows))" -ge 3 ]; then
	ok "metrics: tables of the workload's functions, from cpu-clock and task-clock windows"
else
	not_ok "metrics: tables"
	sed 's/^/# /' mlive.windows | head -5
	head -5 mlive.out | sed 's/^/# /'
fi

# replayed_windows NAME FILE D SW INST: (SW: --software or "") one interval is `pmprof
# metrics`'s table; intervals of D seconds lose a window only where a cut
# falls inside it (at most one per cut and counter instance: one per CPU
# here, one in the simulator) and gain none.
# (--wide: metrics cuts a long symbol to the terminal, top prints it whole)
replayed_windows() {
	local name=$1 file=$2 d=$3 sw=${4:-} n out
	"$PMPROF" metrics --wide -i "$file" >"$name.whole"
	"$PMPROF" top --metrics --stdio -i "$file" -d 3600 >"$name.one"
	check_eq "$name: one interval is the whole recording's table" \
		"$(sed -n '/^Symbol/,$p' "$name.whole")" "$(sed -n '/^Symbol/,/^$/p' "$name.one" | sed '/^$/d')"
	"$PMPROF" top --metrics --stdio -i "$file" -d "$d" >"$name.cut"
	n=$(grep -c '^# pmprof top' "$name.cut")
	python3 "$TOOL" metrics "$name.one" $sw >"$name.w1"
	if python3 "$TOOL" metrics "$name.cut" $sw >"$name.wn" && [ "$n" -ge 3 ]; then
		if out=$(awk -v cuts=$((n - 1)) -v inst="$5" '
			FNR == NR { whole[$1] = $2; tw += $2; next }
			{ if ($2 > whole[$1]) { print "more windows than the whole: " $0; bad = 1 }; tc += $2 }
			END { if (tw - tc > cuts * inst) { print "lost " tw - tc " windows at " cuts " cuts"; bad = 1 }
			      print tc " of " tw " windows in " cuts + 1 " intervals"; exit bad }' \
			"$name.w1" "$name.wn"); then
			ok "$name: windows of the intervals: $out"
		else
			not_ok "$name: windows of the intervals: $out"
		fi
	else
		not_ok "$name: $n intervals of the recording"
		head -3 "$name.wn" | sed 's/^/# /'
	fi
}
"$PMPROF" record -q --metrics -o m.data -- "$WORKLOAD" >/dev/null 2>&1
replayed_windows "metrics (software group)" m.data 0.2 --software "$(nproc)"
# The hardware columns (CPI, IPC, %CY...) need a PMU: the simulator's
# recording has them, with the hf ABI's windows.
"$PMPROF" sim -q arm-benchmark --iterations 20000 -o sim.data \
	-e '{cycles/period=1000000,hf-period=300/,instructions,branch-misses}:uS' >/dev/null 2>&1
replayed_windows "metrics (simulated PMU)" sim.data 0.01 "" 1

# ---- on a terminal ----
if ! command -v tmux >/dev/null 2>&1; then
	skip "top on a terminal" "no tmux (scripts/deps.sh installs it)"
	exit 0
fi
# tmux SESSION COMMAND: a detached 150x50 terminal running COMMAND, then
# the exit status into SESSION.rc and a shell left for the checks.
start_tmux() {
	tmux -S "$SOCK" -f /dev/null new-session -d -s "$1" -x 150 -y 50 \
		"$2; echo \$? >'$TMP/$1.rc'; exec sleep 600"
}
pane() { tmux -S "$SOCK" capture-pane -p -t "$1"; }
flags() { tmux -S "$SOCK" display -p -t "$1" '#{alternate_on} #{cursor_flag}'; }
shows() { pane "$1" | grep -q -- "$2"; }
has_rc() { [ -s "$TMP/$1.rc" ]; }
# The table's rows (after the column header) and their symbols.
rows() { pane "$1" | awk '/^Overhead/ { on = 1; next } on && NF >= 6'; }
symbols() { rows "$1" | awk '{ $1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print }'; }
sort_key() { pane "$1" | sed -n 's/^sort: \(.*\)  filter:.*/\1/p'; }
sort_is_not() { [ "$(sort_key keys)" != "$1" ]; }

start_tmux keys "'$PMPROF' top -d 1 -- '$WORKLOAD' -n $LONG"
if wait_until 120 shows keys int_divider_stalls && shows keys fp_divider_stalls; then
	interval=$(pane keys | sed -n 's/.*, interval \([0-9]*\) .*/\1/p')
	if [ "$interval" -le 2 ]; then
		ok "tui: the hot functions in interval $interval"
	else
		not_ok "tui: the hot functions only in interval $interval"
	fi
else
	not_ok "tui: no hot function shown in 120 s"
	pane keys | head -10 | sed 's/^/# /'
fi
check_eq "tui: alternate screen on, cursor hidden" "1 0" "$(flags keys)"
before=$(symbols keys)
if rows keys | awk '{ print $1 + 0 }' | sort -c -g -r; then
	ok "tui: rows by Overhead first"
else
	not_ok "tui: rows not by Overhead"; rows keys | sed 's/^/# /'
fi
# s: the next column each time, until Symbol
for i in 1 2 3 4 5 6; do
	was=$(sort_key keys)
	tmux -S "$SOCK" send-keys -t keys s
	wait_until 10 sort_is_not "$was"
	[ "$(sort_key keys)" = Symbol ] && break
done
after=$(symbols keys)
if [ "$(sort_key keys)" = Symbol ] && [ -n "$after" ] &&
   printf '%s\n' "$after" | LC_ALL=C sort -c && [ "$before" != "$after" ]; then
	ok "tui: s sorts by Symbol after $i presses, another order"
else
	not_ok "tui: s: sort '$(sort_key keys)'"
	pane keys | head -12 | sed 's/^/# /'
fi
# /: rows whose symbol holds the text
tmux -S "$SOCK" send-keys -t keys /
tmux -S "$SOCK" send-keys -t keys -l int_div
tmux -S "$SOCK" send-keys -t keys Enter
if wait_until 10 shows keys "filter: int_div " && wait_until 10 shows keys "int_divider_stalls" &&
   [ "$(symbols keys | grep -vc int_div)" = 0 ] && ! shows keys fp_divider_stalls; then
	ok "tui: / int_div leaves only int_divider_stalls"
else
	not_ok "tui: / filter"
	pane keys | head -12 | sed 's/^/# /'
fi
tmux -S "$SOCK" send-keys -t keys q
if wait_until 60 has_rc keys; then
	check_eq "tui: q exits 0" 0 "$(cat keys.rc)"
	check_eq "tui: q restores the terminal (alternate screen left, cursor shown)" "0 1" "$(flags keys)"
else
	not_ok "tui: q: still running after 60 s"
fi
if wait_until 30 none_left; then ok "tui: q ends the workload"
else not_ok "tui: the workload still runs after q"; fi

# E: with two events, the next event's table, then back to the first
start_tmux ev "'$PMPROF' top -d 0.5 -e cpu-clock -e task-clock -- '$WORKLOAD' -n $LONG"
if wait_until 120 shows ev "of cpu-clock, event 1 of 2" && shows ev "E next event"; then
	ok "tui: two events: the first event's table, E in the keys line"
	tmux -S "$SOCK" send-keys -t ev E
	if wait_until 10 shows ev "of task-clock, event 2 of 2"; then ok "tui: E shows the second event"
	else not_ok "tui: E"; pane ev | head -3 | sed 's/^/# /'; fi
	tmux -S "$SOCK" send-keys -t ev E
	if wait_until 10 shows ev "of cpu-clock, event 1 of 2"; then ok "tui: E again: back to the first"
	else not_ok "tui: E again"; pane ev | head -3 | sed 's/^/# /'; fi
else
	not_ok "tui: two events: no 'event 1 of 2' in 120 s"
	pane ev | head -5 | sed 's/^/# /'
fi
tmux -S "$SOCK" send-keys -t ev q
if wait_until 60 has_rc ev; then check_eq "tui: two events: q exits 0" 0 "$(cat ev.rc)"
else not_ok "tui: two events: q: still running after 60 s"; fi
wait_until 30 none_left

# SIGINT to top alone (not its process group)
start_tmux int "'$PMPROF' top -d 1 -- '$WORKLOAD' -n $LONG"
wait_until 120 shows int int_divider_stalls
shell=$(tmux -S "$SOCK" display -p -t int '#{pane_pid}')
toppid=$(pgrep -P "$shell" -x pmprof)
if [ -n "$toppid" ] && kill -INT "$toppid" && wait_until 60 has_rc int; then
	check_eq "tui: SIGINT exits 0" 0 "$(cat int.rc)"
	check_eq "tui: SIGINT restores the terminal" "0 1" "$(flags int)"
else
	not_ok "tui: SIGINT (top's pid '$toppid')"
fi
wait_until 30 none_left || not_ok "tui: the workload still runs after SIGINT"

# the workload's end
start_tmux end "'$PMPROF' top -d 0.5 -- '$WORKLOAD' -n 300"
if wait_until 300 has_rc end; then
	check_eq "tui: the workload's end exits 0" 0 "$(cat end.rc)"
	check_eq "tui: and restores the terminal" "0 1" "$(flags end)"
else
	not_ok "tui: still running 300 s after a short workload"
fi
