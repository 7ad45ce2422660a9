#!/usr/bin/env bash
# report's call-graph view, filters and perf's options against perf 6.1
# on recordings made here (cpu-clock): a C program with a known call
# structure built with frame pointers (perf record -g), three threads on
# two CPUs, a process that forks and execs a child of another name, and
# the threads unwound from --call-graph dwarf. The trees of -g graph,
# fractal, caller and callee, -G and --max-stack are perf's line for line
# (the same paths with the same shares, siblings in perf's order, the
# same remainder lines, pipes and separators: tests/tools/cg_tree.py
# --text), flat and folded give perf's chains in perf's order, JSON nests
# perf's trees in order; each filter (-C, --time
# ranges and percent slices, --pid, --tid, --comm, --dsos, --symbols,
# -U, --percentage relative) gives the rows perf gives with it.
. "$(dirname "$0")/../lib.sh"
# expect writes out.txt and err.txt where it runs: here, not in the tree
cd "$TMP" || exit 1

have_perf || { skip callgraph-perf "perf cannot record here"; exit 0; }
command -v gcc >/dev/null ||
	{ skip callgraph-perf "no gcc (scripts/deps.sh installs build-essential)"; exit 0; }
cg="$TOP/tests/tools/cg_tree.py"
fp="$TMP/cg-prog"
# -fno-plt: the programs call libc through the GOT, with no PLT stubs of
# their own. perf 6.1 names a sample in an executable's stub _init or
# callee@plt by the shape of its symbol tree (tests/tools/perf_names.py)
# and pmprof names the stub: a tree compared line for line cannot pool
# the two, and whether the timer hits a stub is no test's to choose.
gcc -O2 -g -fno-omit-frame-pointer -fno-plt -o "$fp" "$TOP/tests/programs/report-prog.c" -lpthread &&
	cp "$fp" "$TMP/cg-child" ||
	{ not_ok "callgraph-perf: cannot build the test program"; exit 0; }

rec() {	# rec NAME ARGS...: perf record -e cpu-clock ARGS into NAME.data
	local name=$1
	shift
	( perf record -q -e cpu-clock -o "$TMP/$name.data" "$@" >/dev/null 2>"$TMP/$name.err"
	  rc=$?; exit $rc ) 2>/dev/null ||
		[ $? = 137 ] && [ -s "$TMP/$name.data" ] ||
		{ not_ok "$name: perf record failed: $(tail -1 "$TMP/$name.err")"; return 1; }
}

# tree NAME CHECK OPTS...: pmprof report OPTS's trees (text and JSON) are
# perf report --stdio OPTS's.
tree() {
	local name=$1 what=$2 t="$TMP/$1.$RANDOM" v=percent
	shift 2
	case " $* " in
	*,count\ *|*,count,*) v=count ;;
	*,period\ *|*,period,*) v=period ;;
	esac
	perf report -i "$TMP/$name.data" --stdio --no-inline --sort dso,sym "$@" \
		>"$t.perf" 2>/dev/null &&
		"$PMPROF" report -i "$TMP/$name.data" "$@" >"$t.pmprof" 2>"$t.err" &&
		"$PMPROF" report -i "$TMP/$name.data" "$@" --format json >"$t.json" 2>/dev/null ||
		{ not_ok "$name: $what: a report failed: $(head -1 "$t.err")"; return; }
	check "$name: $what: perf's trees, line for line" \
		python3 "$cg" --text "$t.perf" "$t.pmprof"
	check "$name: $what: perf's trees in JSON's nested nodes, in order" \
		python3 "$cg" --ordered --value "$v" --json "$t.perf" "$t.json"
}

# chains NAME CHECK OPTS...: flat or folded, perf's chains under each row.
chains() {
	local name=$1 what=$2 t="$TMP/$1.$RANDOM"
	shift 2
	perf report -i "$TMP/$name.data" --stdio --no-inline --sort dso,sym "$@" \
		>"$t.perf" 2>/dev/null &&
		"$PMPROF" report -i "$TMP/$name.data" "$@" >"$t.pmprof" 2>/dev/null ||
		{ not_ok "$name: $what: a report failed"; return; }
	check "$name: $what: perf's chains, in order" \
		python3 "$cg" --ordered --chains "$t.perf" "$t.pmprof"
}

# rows NAME CHECK OPTS...: the rows (overhead, DSO, symbol) of perf report
# OPTS, at least MIN of them (default 1).
rows() {
	local name=$1 what=$2 t="$TMP/$1.$RANDOM" min=${MIN:-1}
	shift 2
	perf report -i "$TMP/$name.data" --stdio -q --no-inline --sort dso,sym -g none \
		--no-children --percent-limit 0 "$@" 2>/dev/null |
		sed -E 's/^ +//; s/ +$//; s/ {2,}/|/g' | grep . | sort >"$t.perf"
	"$PMPROF" report -i "$TMP/$name.data" "$@" --format csv 2>"$t.err" |
		python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    print("%.2f%%|%s|%s" % (float(r["Overhead"]), r["Shared Object"], r["Symbol"]))' |
		sort >"$t.pmprof"
	if [ "$(wc -l <"$t.perf")" -lt "$min" ]; then
		not_ok "$name: $what: perf report gave fewer than $min rows"
		return
	fi
	check_files_eq "$name: $what: perf's rows" "$t.perf" "$t.pmprof"
}

if rec fp -g -- "$fp" single; then
	for g in graph,0.5,callee graph,0.5,caller graph,0,caller fractal,0.5,callee \
		 fractal,0,caller fractal,5,callee graph,3,caller; do
		tree fp "-g $g" --no-children -g "$g"
		tree fp "-g $g --children" --children -g "$g"
	done
	tree fp "-G" --no-children -G
	# --sort sym first: perf leaves the row's own frame out of the chain
	# under it (a row's graph lines, each row named by its symbol)
	for g in graph,5,callee graph,5,caller; do
		t="$TMP/symfirst.$g"
		perf report -i "$TMP/fp.data" --stdio -q --no-inline --no-children \
			--percent-limit 0 -s sym,dso -g "$g" 2>/dev/null |
			sed -E 's/ +$//; s/^ +[0-9.]+% +(\[.\] [^ ]+).*/\1/' | grep . >"$t.perf"
		"$PMPROF" report -i "$TMP/fp.data" -q --no-children -s sym,dso -g "$g" |
			sed -E 's/ +$//; s/^ *[0-9.]+% +[0-9]+ +[0-9]+ +(\[.\] [^ ]+).*/\1/' |
			grep . >"$t.pmprof"
		check_files_eq "fp: -s sym,dso -g $g: perf's graphs (no own frame)" \
			"$t.perf" "$t.pmprof"
	done
	tree fp "--max-stack 2 --children" --children -g caller --max-stack 2
	for g in flat folded flat,0 folded,1; do
		chains fp "-g $g" --no-children -g "$g"
		chains fp "-g $g --children" --children -g "$g"
	done
	# the value a branch shows: the period or the sample count
	for v in period count; do
		chains fp "-g folded,$v" --no-children -g "folded,0.5,$v"
	done
	# -F: the columns perf's names select, in -F's order, the keys of
	# --sort it lacks after them; the rows in perf's order (--sort's keys
	# first, then -F's fields, no overhead first unless -F puts it there)
	for F in overhead,sample,dso,sym overhead,period,dso,sym overhead,sym overhead,dso \
		 sym,overhead dso,overhead,sym sample,overhead,dso period,sym,sample \
		 "overhead,sym -s dso" "overhead,sample -s sym" "period,sym,sample -s dso" \
		 "overhead,sample,period -s sym,dso"; do
		t="$TMP/fields.${F// /_}"
		# shellcheck disable=SC2086 # F is -F's list and a --sort
		perf report -i "$TMP/fp.data" --stdio -q --no-children -g none --percent-limit 0 \
			-F $F 2>/dev/null | sed -E 's/^ +//; s/ +$//; s/ {2,}/|/g' | grep . >"$t.perf"
		# shellcheck disable=SC2086
		"$PMPROF" report -i "$TMP/fp.data" -q -F $F |
			sed -E 's/^ +//; s/ +$//; s/ {2,}/|/g' >"$t.pmprof"
		check_files_eq "fp: -F $F: perf's columns and rows, in perf's order" \
			"$t.perf" "$t.pmprof"
	done
	# -t: perf's layout byte for byte from the column header on (padded
	# to perf's widths, a number a blank and then to the left); of the
	# comment lines above it, those both print (perf's header hint, its
	# rounded "1K" samples and its closing tip are perf's own)
	for F in overhead,sample,period,dso,sym sym,overhead,period,sample \
		 "overhead,sym -s dso" "overhead_children,overhead,sample,dso,sym"; do
		t="$TMP/sep.${F// /_}" ch=--no-children
		case $F in overhead_children*) ch=--children ;; esac
		# shellcheck disable=SC2086
		perf report -i "$TMP/fp.data" --stdio -g none --percent-limit 0 -t '|' $ch \
			-F $F 2>/dev/null >"$t.perf.all"
		# shellcheck disable=SC2086
		"$PMPROF" report -i "$TMP/fp.data" -t '|' -F $F >"$t.pmprof.all"
		sed -n '/^# [A-Z][a-z]*\( [A-Z][a-z]*\)*  *|/,/^$/p' "$t.perf.all" | grep . >"$t.perf"
		sed -n '/^# [A-Z][a-z]*\( [A-Z][a-z]*\)*  *|/,$p' "$t.pmprof.all" >"$t.pmprof"
		check_files_eq "fp: -t '|' -F $F: perf's bytes" "$t.perf" "$t.pmprof"
		grep -E '^# (Total Lost Samples|Event count)' "$t.perf.all" >"$t.perf.c"
		grep -E '^# (Total Lost Samples|Event count)' "$t.pmprof.all" >"$t.pmprof.c"
		check_files_eq "fp: -t '|' -F $F: perf's comment lines" "$t.perf.c" "$t.pmprof.c"
	done
	rows fp "--dsos libc.so.6,cg-prog" --dsos libc.so.6,cg-prog
	rows fp "--symbols spin_alpha,cmp" --symbols spin_alpha,cmp
	rows fp "--symbols ... --percentage relative" --symbols spin_alpha,cmp --percentage relative
	rows fp "-U" -U
	MIN=2 rows fp "--time 0%-50%" --time 0%-50%
	MIN=1 rows fp "--time 10%/3" --time 10%/3
	MIN=2 rows fp "--time 25%" --time 25%
	MIN=2 rows fp "--time 0%-20%,60%-80%" --time 0%-20%,60%-80%
	# seconds: from 0.1 s after the first sample to 0.3 s after
	t0=$(perf script -i "$TMP/fp.data" -F time 2>/dev/null | head -1 | tr -d ' :')
	if [ -n "$t0" ]; then
		span=$(awk -v t="$t0" 'BEGIN { printf "%.6f,%.6f", t + 0.1, t + 0.3 }')
		MIN=1 rows fp "--time $span" --time "$span"
		span=$(awk -v t="$t0" 'BEGIN { printf "%.6f,", t + 0.2 }')
		MIN=1 rows fp "--time $span" --time "$span"
	else
		not_ok "fp: perf script gave no sample time"
	fi
fi

if rec threads -g --sample-cpu -- "$fp" threads; then
	tree threads "-g caller --children" --children -g caller
	tid=$(perf script -i "$TMP/threads.data" -F tid 2>/dev/null | sort | uniq -c |
		sort -rn | awk 'NR == 2 { print $2 }')
	pid=$(perf script -i "$TMP/threads.data" -F pid 2>/dev/null | head -1 | tr -d ' ')
	rows threads "--tid $tid" --tid "$tid"
	rows threads "--tid --percentage relative" --tid "$tid" --percentage relative
	rows threads "--pid $pid" --pid "$pid"
	MIN=0 rows threads "--pid 1 (none of its)" --pid 1 --percentage relative
	# the CPUs the threads ran on are the scheduler's choice: the busiest
	# one must give rows, any other may give none (and must give perf's)
	cpus=$(perf script -i "$TMP/threads.data" -F cpu 2>/dev/null | tr -d '[] ' |
		sort | uniq -c | sort -rn | awk '{ print $2 + 0 }')
	busy=$(echo "$cpus" | sed -n 1p)
	other=$(( ${busy:-0} == 0 ? 1 : 0 ))
	rows threads "-C $busy (the busiest)" -C "${busy:-0}"
	MIN=0 rows threads "-C $other --percentage relative" -C "$other" --percentage relative
fi

if rec forks -g -- "$fp" forkexec "$TMP/cg-child"; then
	# (perf counts a few kernel samples around the child's exec under
	# the other command with --comm than with --sort comm: the rows of
	# 1% and more)
	rows forks "--comm cg-child" --comm cg-child --percent-limit 1
	rows forks "--comm cg-prog" --comm cg-prog --percent-limit 1
	rows forks "--comm cg-child --dsos cg-child,libc.so.6" --comm cg-child \
		--dsos cg-child,libc.so.6
	rows forks "--dsos cg-child,libc.so.6 --percentage relative" \
		--dsos cg-child,libc.so.6 --percentage relative
fi

if rec dwarf --call-graph dwarf -- "$fp" threads; then
	tree dwarf "-g caller --children" --children -g caller
	tree dwarf "-g fractal --no-children" --no-children -g fractal
	# perf cuts the recorded (kernel) entries and the unwound ones each
	# to --max-stack, the unwound to their innermost
	tree dwarf "--max-stack 3 -g caller --children" --children -g caller --max-stack 3
	tree dwarf "--max-stack 2 -g fractal --no-children" --no-children -g fractal,0 --max-stack 2
	chains dwarf "-g folded --children" --children -g folded
fi

# A C++ program (templates, virtual calls, inlined steps), with frame
# pointers and unwound from --call-graph dwarf: the trees of each mode.
if command -v g++ >/dev/null &&
   g++ -O2 -g -fno-omit-frame-pointer -fno-plt -o "$TMP/cg-cxx" "$TOP/tests/programs/unwind-cxx.cc"; then
	for how in fp dwarf; do
		case $how in
		fp) rec cxx-$how -g -- "$TMP/cg-cxx" 15 || continue ;;
		*) rec cxx-$how --call-graph dwarf -- "$TMP/cg-cxx" 15 || continue ;;
		esac
		for g in graph,0.5,caller fractal,0.5,callee fractal,0,caller,count graph,0,callee,3; do
			tree cxx-$how "-g $g --children" --children -g "$g"
			tree cxx-$how "-g $g --no-children" --no-children -g "$g"
		done
		chains cxx-$how "-g folded,0,caller --children" --children -g folded,0,caller
	done
else
	skip "callgraph-perf: C++" "no g++"
fi

# metrics behind the sample filters: the CPUs' samples add up to all of
# them, a process not recorded has none, --time slices are a part; and
# profileme and mem take the same options.
if rec grp '-e' '{cpu-clock,page-faults}:S' --sample-cpu -- "$fp" single; then
	msamples() {	# msamples ARGS...: metrics' samples (windows and openings)
		"$PMPROF" metrics -i "$TMP/grp.data" --format json "$@" 2>>"$TMP/grp.err" |
			python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["samples"] + d["opening"])'
	}
	all=$(msamples)
	c0=$(msamples -C 0)
	c1=$(msamples -C 1)
	rest=$(msamples -C 2-1023)
	none=$(msamples --pid 1)
	half=$(msamples --time 0%-50%)
	if [ -n "$all" ] && [ "$all" -gt 0 ] && [ $((c0 + c1 + rest)) = "$all" ]; then
		ok "grp: metrics -C: the CPUs' samples add up to all $all"
	else
		not_ok "grp: metrics -C: $c0 + $c1 + $rest of $all: $(head -1 "$TMP/grp.err")"
	fi
	check_eq "grp: metrics --pid 1: no samples" 0 "$none"
	if [ -n "$half" ] && [ "$half" -lt "$all" ] && [ "$half" -gt 0 ]; then
		ok "grp: metrics --time 0%-50%: $half of the $all samples"
	else
		not_ok "grp: metrics --time 0%-50%: $half of $all"
	fi
	for cmd in profileme mem; do
		expect "$cmd --cpu x: a usage error" 1 "--cpu 'x'" "$PMPROF" $cmd -i "$TMP/grp.data" -C x
	done
	expect "metrics --time 5,2: a usage error" 1 "--time" "$PMPROF" metrics -i "$TMP/grp.data" --time 5,2
fi

# -g on a recording without call chains says so; bad words are usage errors.
if rec plain -- "$fp" single; then
	"$PMPROF" report -i "$TMP/plain.data" -g >"$TMP/plain.out" 2>"$TMP/plain.err"
	rc=$?
	if [ $rc = 0 ] && grep -q "plain.data: no call chains in this recording.*-g ignored" "$TMP/plain.err" &&
	   ! grep -q -- '---' "$TMP/plain.out"; then
		ok "plain: -g without call chains says so"
	else
		not_ok "plain: -g without call chains: rc $rc: $(cat "$TMP/plain.err")"
	fi
fi
# each names the option and the bad word
while IFS='|' read -r pat args; do
	# shellcheck disable=SC2086
	expect "report $args: a usage error" 1 "$pat" "$PMPROF" report -i "$TMP/fp.data" $args
done <<'LIST'
--call-graph: unknown call-graph word 'bogus'|-g bogus
--call-graph: call-graph threshold '101' is over 100|-g graph,101
--call-graph: call-graph key 'address' is not supported|-g graph,address
--percentage: 'most': relative or absolute|--percentage most
--time '10%/x'|--time 10%/x
--cpu .x.: CPUs are numbers|-C x
--pid|--pid 1x
--max-stack: takes 1 to 1000|--max-stack 0
--fields: unknown field 'bogus'|-F overhead,bogus
LIST
