#!/usr/bin/env bash
# pmprof script against perf script: the same perf recordings (cpu-clock
# with -g, DWARF call chains, two events without chains, a system-wide
# one with CPUs, one with chains of a process older than the recording,
# a pipe) print the same text line for line, with the
# default fields and with -F lists and +/- changes; bad -F gives usage
# errors, a bad file an input error.
. "$(dirname "$0")/../lib.sh"

have_perf || { skip script-perf "perf cannot record here"; exit 0; }
command -v gcc >/dev/null || { skip script-perf "no gcc"; exit 0; }
prog="$TMP/report-prog"
build_report_prog script-perf
cd "$TMP" || exit 1

rec() { perf_rec "$@"; }

# same NAME [script options]: pmprof script prints what perf script does
same() {
	local name=$1; shift
	perf script -i "$name.data" "$@" >"$name.perf" 2>/dev/null ||
		{ not_ok "$name $*: perf script failed"; return; }
	"$PMPROF" script -i "$name.data" "$@" >"$name.pm" 2>"$name.pmerr" ||
		{ not_ok "$name $*: pmprof script failed: $(tail -1 "$name.pmerr")"; return; }
	if [ ! -s "$name.perf" ]; then
		not_ok "$name $*: perf script printed nothing"
	else
		check_files_eq "$name ${*:-(default fields)}: $(wc -l <"$name.perf") lines equal perf script's" \
			"$name.perf" "$name.pm"
	fi
}

fields='comm,pid,tid,time,event,ip,sym,dso
comm,tid
comm,pid
ip,sym,symoff,dso
+pid
-period
comm,tid,time,ip
tid,time,period,event,ip,sym
event,ip,sym,symoff'

rec fp -e cpu-clock -g -- "$prog" single && {
	same fp
	while read -r f; do same fp -F "$f"; done <<<"$fields"
}
# perf script expands inlined functions by default, pmprof with --inline
rec dwarf -e cpu-clock --call-graph dwarf -- "$prog" single && same dwarf --no-inline
rec flat -e cpu-clock -e page-faults -- "$prog" single && {
	same flat
	while read -r f; do same flat -F "$f"; done <<<"$fields"
}
# system-wide, for the cpu field: only report-prog's samples count (what
# else ran on the machine is none of this test's business)
same_own() {	# same_own NAME [script options]: same, report-prog's lines
	local name=$1; shift
	perf script -i "$name.data" "$@" 2>/dev/null | awk '$1 == "report-prog"' >"$name.perf"
	"$PMPROF" script -i "$name.data" "$@" 2>"$name.pmerr" |
		awk '$1 == "report-prog"' >"$name.pm"
	if [ ! -s "$name.perf" ]; then
		not_ok "$name $*: no report-prog sample in perf script's output"
	else
		check_files_eq "$name ${*:-(default fields)}: report-prog's $(wc -l <"$name.perf") lines equal perf script's" \
			"$name.perf" "$name.pm"
	fi
}
if [ "$(id -u)" = 0 ]; then
	rec syswide -a -e cpu-clock -- "$prog" single && {
		same_own syswide
		same_own syswide -F comm,pid,cpu,ip,dso
		same_own syswide -F -sym,-symoff,-dso
	}
fi
# system-wide with call chains, of a process that was running before the
# recording (perf synthesizes its FORK, marked as one that exec'ed: its
# maps are not its parent's): the workload's samples, chains and all
if [ "$(id -u)" = 0 ]; then
	WORKLOAD="$TOP/$BUILD/bench/workload"
	sh -c "exec '$WORKLOAD' -n 100000000 --until '$TMP/stop-early'" >/dev/null 2>&1 &
	early=$!
	# it runs the workload before the recording starts, exec'd (a sleep
	# guessed at it; a loaded machine may not have run the exec by then)
	wait_for runs_exe "$early" "$WORKLOAD" ||
		not_ok "early: the workload never ran"
	rec early -a -g -e cpu-clock -- sleep 0.5
	touch "$TMP/stop-early"
	wait "$early"
	perf script -i early.data 2>/dev/null | awk -v RS= -v ORS='\n\n' '$1 == "workload"' >early.perf
	"$PMPROF" script -i early.data 2>early.pmerr | awk -v RS= -v ORS='\n\n' '$1 == "workload"' >early.pm
	if [ ! -s early.perf ]; then
		not_ok "early: no sample of the workload in perf script's output"
	else
		check_files_eq "early: a process from before the recording: its $(grep -c . early.perf) lines with chains equal perf script's" \
			early.perf early.pm
	fi
fi
# a pipe: the events come as records, before their samples
if perf record -q -o - -e cpu-clock -g -- "$prog" single >pipe.data 2>pipe.err; then
	perf script -i pipe.data >pipe.perf 2>/dev/null
	"$PMPROF" script -i - <pipe.data >pipe.pm 2>pipe.pmerr
	check_files_eq "pipe: standard input prints as perf script does" pipe.perf pipe.pm
else
	not_ok "pipe: perf record -o - failed: $(tail -1 pipe.err)"
fi

if [ -e fp.data ]; then
	expect "-F with an unknown field" 1 "-F: 'brstack' is no field pmprof script prints" \
		"$PMPROF" script -i fp.data -F comm,brstack
	expect "-F symoff without sym" 1 "-F: symoff needs sym" \
		"$PMPROF" script -i fp.data -F -sym
	expect "-F sym without ip" 1 "-F: sym, symoff and dso need ip" \
		"$PMPROF" script -i fp.data -F comm,sym
	expect "-F mixing lists and changes" 1 "-F: 'tid': with \+/- changes" \
		"$PMPROF" script -i fp.data -F +pid,tid
	expect "-F cpu of samples without it" 1 \
		"-F: samples of 'cpu-clock' do not record what cpu prints" \
		"$PMPROF" script -i fp.data -F comm,cpu,ip
	head -c 3000 fp.data >cut.data
	expect "a cut recording" 2 "cut.data: " "$PMPROF" script -i cut.data
	expect "no such file" 2 "nosuch.data: " "$PMPROF" script -i nosuch.data
fi
