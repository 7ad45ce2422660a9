#!/usr/bin/env bash
# DWARF call chains against perf. Real programs are recorded here with
# `perf record --call-graph dwarf` and `pmprof record --call-graph dwarf`:
# a C program with a known call structure (one thread, three threads), a
# C++ one, python3, a shell forking and execing. Every sample unwinds to
# the same frames on cached frame rules as step by step through libdwfl. `pmprof report --children` must give the rows of
# `perf report --children --no-inline --stdio`, row for row (Children and
# Self to the hundredth of a percent), and the exact Children and Self
# period of every symbol that perf's own call chains (perf script) add up
# to. With --inline, the program's own rows against perf's --inline
# chains. The -g caller and callee trees are perf's (cg_tree.py), in text
# and JSON, with --inline too (perf's artifacts there normalized). With
# perf's default 8 kB stack dump (python3's are cut), perf's
# libunwind never reads a dump's last word: perf's reports are compared
# on a copy with a padding word after each dump, on which perf's chains
# are pmprof's on the original, and where perf's chains on the original
# are shorter the cause is shown to be that word. Frame-pointer
# recordings keep giving perf's numbers; a recording without call chains
# says so.
. "$(dirname "$0")/../lib.sh"

have_perf || { skip unwind-perf "perf cannot record here"; exit 0; }
for t in gcc g++; do
	command -v $t >/dev/null || { skip unwind-perf "no $t (scripts/deps.sh installs build-essential)"; exit 0; }
done
counts="$TOP/tests/tools/children_counts.py"
prog="$TMP/report-prog"
# -fno-plt: no PLT stubs of the programs' own, whose samples perf names
# _init or callee@plt by the shape of its symbol tree (perf_names.py):
# the trees compared below cannot pool the two names
gcc -O2 -g -fPIE -pie -fno-plt -o "$prog" "$TOP/tests/programs/report-prog.c" -lpthread &&
	gcc -O2 -g -fno-omit-frame-pointer -fno-plt -o "$TMP/report-prog-fp" \
		"$TOP/tests/programs/report-prog.c" -lpthread &&
	g++ -O2 -g -fno-plt -o "$TMP/unwind-cxx" "$TOP/tests/programs/unwind-cxx.cc" ||
	{ not_ok "unwind-perf: cannot build the test programs"; exit 0; }

rec() {	# rec NAME RECORDER ARGS...: RECORDER perf or pmprof
	local name=$1 tool=$2
	shift 2
	if [ "$tool" = perf ]; then
		# (perf dies of its workload's SIGKILL: no "Killed" from bash)
		( perf record -q -e cpu-clock -o "$TMP/$name.data" "$@" >/dev/null 2>"$TMP/$name.err"
		  rc=$?; exit $rc ) 2>/dev/null
	else
		"$PMPROF" record -e cpu-clock -o "$TMP/$name.data" "$@" >/dev/null 2>"$TMP/$name.err"
	fi || {
		[ $? = 137 ] && [ -s "$TMP/$name.data" ] && return 0	# SIGKILL
		not_ok "$name: $tool record failed: $(tail -1 "$TMP/$name.err")"
		return 1
	}
}

# rows NAME: pmprof report --children rows equal perf's (lib.sh)
rows() { children_as_perf "$1" "$TMP/$1.data" --no-inline; }

# counts NAME [DSO]: exact Children and Self against perf script's chains;
# with DSO also --inline, that DSO's rows.
counts() {
	local d="$TMP/$1.data"
	perf script -i "$d" -F event,period,ip,sym,dso --no-inline >"$TMP/$1.plain" 2>/dev/null &&
		perf script -i "$d" -F event,period,ip,sym,dso --no-inline -G >"$TMP/$1.self" 2>/dev/null ||
		{ not_ok "$1: perf script failed"; return; }
	"$PMPROF" report -i "$d" --children --format json >"$TMP/$1.json" 2>/dev/null
	check "$1: Children and Self equal perf's chains" \
		python3 "$counts" "$TMP/$1.plain" "$TMP/$1.self" "$TMP/$1.json"
	[ $# -gt 1 ] || return
	perf script -i "$d" -F event,period,ip,sym,dso --inline >"$TMP/$1.inl" 2>/dev/null ||
		{ not_ok "$1: perf script --inline failed"; return; }
	"$PMPROF" report -i "$d" --children --inline --format json >"$TMP/$1.ijson" 2>/dev/null
	check "$1: --inline: $2's Children and Self equal perf's --inline chains" \
		python3 "$counts" --dso "$2" "$TMP/$1.inl" "$TMP/$1.self" "$TMP/$1.ijson" "$TMP/$1.plain"
	if grep -q '"symbol": *"[a-z_]* (inlined)"' "$TMP/$1.ijson"; then
		ok "$1: --inline shows inlined functions"
	else
		not_ok "$1: --inline shows no inlined function"
	fi
}

# ucheck NAME: every sample unwound on cached frame rules and step by step
# through libdwfl gives the same frames (--unwind-check compares them),
# and most samples are unwound on cached rules.
ucheck() {
	local line n checked differ
	"$PMPROF" report -i "$TMP/$1.data" --children --unwind-check \
		>/dev/null 2>"$TMP/$1.ucheck"
	line=$(grep '^pmprof: unwind check: [0-9]' "$TMP/$1.ucheck")
	read -r n checked differ <<<"$(sed -E 's/^pmprof: unwind check: ([0-9]+) samples, ([0-9]+) unwound both ways, ([0-9]+) differ.*/\1 \2 \3/' <<<"$line")"
	if [ -z "$line" ] || [ "${n:-0}" -lt 20 ]; then
		not_ok "$1: --unwind-check: $(head -2 "$TMP/$1.ucheck")"
	elif [ "$differ" = 0 ] && [ $((checked * 2)) -ge "$n" ]; then
		ok "$1: cached frame rules give libdwfl's frames ($checked of $n samples both ways)"
	else
		not_ok "$1: cached rules against libdwfl: $(cat "$TMP/$1.ucheck")"
	fi
}

# trees NAME [LIMIT]: the call-graph trees of -g caller and callee, with
# and without --children, are perf's (the same paths with the same
# shares, tests/tools/cg_tree.py), in text and in JSON's nested nodes;
# branches under LIMIT percent (default 0.5) left out. (Where perf ends a
# stack at its made-up -1, that entry begins a caller-order branch of its
# own beside the one it would be part of: cg_tree.py adds the two
# branches' shares, and branches perf leaves out for being small may not
# be small once added: such recordings are compared at LIMIT 0.)
trees() {
	local d="$TMP/$1.data" cg="$TOP/tests/tools/cg_tree.py" g ch t lim=${2:-0.5}
	for g in caller callee; do
		for ch in --children --no-children; do
			t="$TMP/$1.tree$g$ch"
			perf report -i "$d" --stdio --no-inline --sort dso,sym $ch \
				-g "graph,$lim,$g" >"$t.perf" 2>/dev/null &&
				"$PMPROF" report -i "$d" $ch -g "graph,$lim,$g" >"$t.pmprof" 2>/dev/null &&
				"$PMPROF" report -i "$d" $ch -g "graph,$lim,$g" --format json \
					>"$t.json" 2>/dev/null ||
				{ not_ok "$1: -g $g $ch: a report failed"; continue; }
			check "$1: -g $g $ch: the trees are perf's" \
				python3 "$cg" "$t.perf" "$t.pmprof"
			check "$1: -g $g $ch: JSON's nested nodes are perf's trees" \
				python3 "$cg" --json "$t.perf" "$t.json"
		done
	done
}

# padded NAME: perf 6.1's libunwind never reads a stack dump's last word
# (it takes an address for outside the dump when the word there ends at
# the dump's end, not past it): where a return address sits there,
# perf's chain stops (at its made-up -1 entry) a frame before pmprof's.
# NAME-pad.data is NAME.data with a word of zeros after every sample's
# dump (tests/tools/stack_dumps.py pad): perf then reads every byte the
# sample carried, and its chains on the copy are pmprof's on NAME.data,
# sample for sample. The padding is nothing to pmprof: its chains and
# trees on the copy are the original's. On NAME.data itself, every chain
# of perf's shorter than pmprof's is that off-by-one (stack_dumps.py
# cut: a frame shorter, at the return address in the dump's last word).
padded() {
	local d="$TMP/$1.data" p="$TMP/$1-pad.data" f=tid,time,ip,sym,dso line
	python3 "$TOP/tests/tools/stack_dumps.py" pad "$d" "$p" ||
		{ not_ok "$1: cannot pad the stack dumps"; return 1; }
	perf script -i "$d" -F $f --no-inline >"$TMP/$1.chains.perf" 2>/dev/null &&
		perf script -i "$p" -F $f --no-inline 2>/dev/null |
		grep -v '^[[:space:]]*ffffffffffffffff \[unknown\] (\[unknown\])$' >"$TMP/$1-pad.chains.perf" &&
		"$PMPROF" script -i "$d" -F $f >"$TMP/$1.chains.pmprof" 2>/dev/null &&
		"$PMPROF" script -i "$p" -F $f >"$TMP/$1-pad.chains.pmprof" 2>/dev/null ||
		{ not_ok "$1: a script of the padded copy failed"; return 1; }
	check_files_eq "$1: perf's chains on the padded copy are pmprof's on the original" \
		"$TMP/$1-pad.chains.perf" "$TMP/$1.chains.pmprof"
	check_files_eq "$1: pmprof's chains on the padded copy are the original's" \
		"$TMP/$1.chains.pmprof" "$TMP/$1-pad.chains.pmprof"
	"$PMPROF" report -i "$d" --children -g caller >"$TMP/$1.gtree" 2>&1
	"$PMPROF" report -i "$p" --children -g caller >"$TMP/$1-pad.gtree" 2>&1
	check_files_eq "$1: pmprof's -g caller report on the padded copy is the original's" \
		"$TMP/$1.gtree" "$TMP/$1-pad.gtree"
	if line=$(python3 "$TOP/tests/tools/stack_dumps.py" cut "$d" \
		"$TMP/$1.chains.perf" "$TMP/$1.chains.pmprof" 2>&1); then
		ok "$1: perf's shorter chains are its off-by-one: $line"
	else
		not_ok "$1: perf's shorter chains"
		printf '%s\n' "$line" | head -20 | sed 's/^/# /'
	fi
}

# inline_trees NAME: the same with --inline on both sides, perf's
# artifacts there normalized as docs/pmprof-report.1 tells them
# (tests/tools/perf_inline.py): perf's addr2line is asked each question
# twice (tests/tools/addr2line_twice.py: binutils' first answer in a
# function can name an inlined function after its host), names at one
# address in a symbol table are one (ALIASES: the DSOs' tables), rows perf
# splits are one.
inline_trees() {
	local d="$TMP/$1.data" cg="$TOP/tests/tools/cg_tree.py" g ch t id path f
	local al="$TMP/$1.aliases" a2l="$TMP/a2l"
	mkdir -p "$a2l" && ln -sf "$TOP/tests/tools/addr2line_twice.py" "$a2l/addr2line"
	perf buildid-list -i "$d" 2>/dev/null | while read -r id path; do
		f=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
		[ -f "$f" ] || f=$HOME/.debug/.build-id/${id:0:2}/${id:2}/debug
		[ -f "$f" ] || f=$path
		nm --defined-only "$f" 2>/dev/null | awk -v f="$f" 'NF == 3 { print f, $1, $3 }'
	done >"$al"
	for g in caller callee; do
		for ch in --children --no-children; do
			t="$TMP/$1.itree$g$ch"
			PATH="$a2l:$PATH" perf report -i "$d" --stdio --inline --sort dso,sym $ch \
				-g "graph,0.5,$g" >"$t.perf" 2>/dev/null &&
				"$PMPROF" report -i "$d" --inline $ch -g "graph,0.5,$g" >"$t.pmprof" 2>/dev/null &&
				"$PMPROF" report -i "$d" --inline $ch -g "graph,0.5,$g" --format json \
					>"$t.json" 2>/dev/null ||
				{ not_ok "$1: --inline -g $g $ch: a report failed"; continue; }
			check "$1: --inline -g $g $ch: the trees are perf's" \
				python3 "$cg" --perf-inline "$al" $g 0.5 "$t.perf" "$t.pmprof"
			check "$1: --inline -g $g $ch: JSON's nested nodes are perf's trees" \
				python3 "$cg" --perf-inline "$al" $g 0.5 --json "$t.perf" "$t.json"
		done
	done
}

# callers NAME SYMBOL: SYMBOL is a caller of (nearly) every sample.
callers() {
	if "$PMPROF" report -i "$TMP/$1.data" --children --format csv |
		awk -F, -v s="[.] $2" '$NF == s && $1 >= 90 { f = 1 } END { exit !f }'; then
		ok "$1: $2 is a caller of nearly every sample"
	else
		not_ok "$1: no --children row for $2 near 100%"
	fi
}

if rec single perf --call-graph dwarf -- "$prog" single; then
	callers single main
	ucheck single
	rows single
	trees single
	inline_trees single
	counts single report-prog
	padded single
fi
rec threads perf --call-graph dwarf -- "$prog" threads && {
	ucheck threads
	rows threads
	trees threads
	inline_trees threads
	counts threads
	padded threads
	# the threads' own callers, unwound on the threads' stacks
	"$PMPROF" report -i "$TMP/threads.data" --children --format csv --sort sym >"$TMP/threads.csv"
	if grep -q ',\[\.\] start_thread$' "$TMP/threads.csv" &&
	   grep -q ',\[\.\] thread_fn$' "$TMP/threads.csv"; then
		ok "threads: start_thread and thread_fn are callers"
	else
		not_ok "threads: no start_thread or thread_fn row"
	fi
}
rec cxx perf --call-graph dwarf -- "$TMP/unwind-cxx" 15 && {
	callers cxx 'shapes::total<shapes::Shape>'
	ucheck cxx
	rows cxx
	trees cxx
	inline_trees cxx
	counts cxx
}
# python3 itself, not a wrapper script: its interpreter stacks are deeper
# than the default 8 kB dump. It ends by SIGKILL, for the reason
# report-prog ends by _exit (perf record then exits 137 too).
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
pyprog='
import json, os, signal
def fib(n): return n if n < 2 else fib(n - 1) + fib(n - 2)
s = 0
for i in range(25): s += fib(17) + len(json.dumps(list(range(3000))))
os.kill(os.getpid(), signal.SIGKILL)'
# Its stacks dumped whole: no stack is cut, perf's chains are pmprof's.
rec python-whole perf --call-graph dwarf,65528 -- "$py" -c "$pyprog" && {
	ucheck python-whole
	rows python-whole
	trees python-whole
	counts python-whole
}
# The default dump, by perf and by pmprof record: cut stacks, and on
# them perf's off-by-one (padded above): the padded copy's reports are
# perf's.
for r in perf pmprof; do
	name=python-$r
	[ $r = perf ] || name=pm-python
	rec $name $r --call-graph dwarf -- "$py" -c "$pyprog" && {
		ucheck $name
		padded $name
		rows $name-pad
		trees $name-pad 0
		counts $name-pad
	}
done
rec pm-single pmprof --call-graph dwarf -- "$prog" single && {
	callers pm-single main
	ucheck pm-single
	rows pm-single
	trees pm-single
	counts pm-single
}
rec pm-threads pmprof --call-graph dwarf -- "$prog" threads && {
	ucheck pm-threads
	rows pm-threads
	trees pm-threads
	counts pm-threads
}
# Processes forked and exec'd: samples at ld.so's entry point (no CFI, no
# frame pointer: the chain ends in an error, on cached rules too), in PLT
# stubs (CFA expressions: libdwfl's), in many address spaces.
rec forks perf --call-graph dwarf -- sh -c \
	'i=0; while [ $i -lt 300 ]; do echo $i | tr 0-9 a-j >/dev/null; i=$((i + 1)); done' &&
	ucheck forks

# Frame pointers: the kernel's call chains, as before.
rec fp perf -g -- "$TMP/report-prog-fp" single && {
	rows fp
	trees fp
	counts fp
}

# No call chains: --children says so and shows the self profile.
rec flat perf -- "$prog" single && {
	"$PMPROF" report -i "$TMP/flat.data" --children --format csv \
		>"$TMP/flat.csv" 2>"$TMP/flat.err"
	rc=$?
	check_eq "flat: --children without call chains exits 0" 0 "$rc"
	if grep -q "flat.data: no call chains in this recording" "$TMP/flat.err" &&
	   head -1 "$TMP/flat.csv" | grep -q '^Overhead,'; then
		ok "flat: --children says there are no call chains"
	else
		not_ok "flat: --children without call chains: $(cat "$TMP/flat.err")"
	fi
}
# A pipe names its events as it goes: the same from standard input.
perf record -q -e cpu-clock -o - -- "$prog" single >"$TMP/flat.pipe" 2>/dev/null &&
	"$PMPROF" report -i - --children <"$TMP/flat.pipe" >"$TMP/flat-pipe.out" 2>"$TMP/flat-pipe.err"
if grep -q "(standard input): no call chains" "$TMP/flat-pipe.err" &&
   grep -q "Overhead" "$TMP/flat-pipe.out"; then
	ok "flat: ... on standard input too"
else
	not_ok "flat: pipe: $(cat "$TMP/flat-pipe.err")"
fi

# A JIT map: "[JIT] tid PID" and its symbols, as perf shows them. The JIT
# names its code in /tmp/perf-PID.map, a name other runs' perf and pmprof
# would look at for a process of that pid: it runs, and both tools read,
# in a mount namespace with a /tmp of its own.
if [ "$(uname -m)" != x86_64 ]; then
	skip "unwind-perf jit" "the JIT's machine code is x86-64's"
elif ! unshare -m true 2>/dev/null; then
	skip "unwind-perf jit" "needs unshare -m (root) for a /tmp of its own"
elif gcc -O2 -o "$TMP/jit-prog" "$TOP/tests/programs/jit-prog.c"; then
	# relative paths: the directory stays reachable below the new /tmp;
	# so does a copy of pmprof there (the tree may be under /tmp too: a
	# fresh clone in a mktemp -d)
	cp "$PMPROF" "$TMP/pmprof-jit"
	(cd "$TMP" && unshare -m sh -c '
		mount -t tmpfs pmprof-jit /tmp || exit 1
		perf record -q -e cpu-clock -o jit.data ./jit-prog >/dev/null 2>jit.err || exit 1
		perf script -i jit.data -F pid 2>/dev/null | head -1 | tr -d " " >jit.pid
		perf report -i jit.data --stdio -q --sort dso,sym \
			-F overhead,sample,period,dso,sym --percent-limit 0 >jit.perf 2>/dev/null
		./pmprof-jit report -i jit.data --format csv >jit.csv')
	jitpid=$(cat "$TMP/jit.pid" 2>/dev/null)
	if [ -s "$TMP/jit.csv" ] && [ -n "$jitpid" ]; then
		check "jit: rows equal perf report" \
			python3 "$TOP/tests/tools/compare_report.py" "$TMP/jit.perf" "$TMP/jit.csv"
		if grep -q "^[^,]*,[^,]*,[^,]*,\[JIT\] tid $jitpid,\[\.\] jitted_loop$" "$TMP/jit.csv"; then
			ok "jit: [JIT] tid $jitpid [.] jitted_loop"
		else
			not_ok "jit: no [JIT] tid $jitpid row"
		fi
	else
		not_ok "jit: recording or reports failed: $(cat "$TMP/jit.err" 2>/dev/null)"
	fi
else
	not_ok "jit: cannot build jit-prog"
fi

# The idle task's kernel stack goes back to start_kernel, in the init
# text past the kernel map: perf finds it, so must pmprof (kernel rows).
if [ "$(id -u)" = 0 ] && [ "$(sed -n 1p /proc/kallsyms | cut -c1-16)" != 0000000000000000 ] &&
   rec idle perf -a -g -C 0 -- sleep 1; then
	perf report -i "$TMP/idle.data" --stdio -q --children --no-inline --sort dso,sym -g none \
		--percent-limit 0 2>/dev/null | sed -E 's/^ +//; s/ +$//; s/ {2,}/|/g' |
		grep '|\[kernel.kallsyms\]|' | sort >"$TMP/idle.perf"
	if grep -q '\[k\] start_kernel$' "$TMP/idle.perf"; then
		"$PMPROF" report -i "$TMP/idle.data" --children --format csv | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    if r["Shared Object"] == "[kernel.kallsyms]":
        print("%.2f%%|%.2f%%|%s|%s" % (float(r["Children"]), float(r["Self"]),
                                       r["Shared Object"], r["Symbol"]))' |
			sort >"$TMP/idle.pmprof"
		check_files_eq "idle: kernel --children rows (start_kernel) equal perf's" \
			"$TMP/idle.perf" "$TMP/idle.pmprof"
	else
		skip "unwind-perf idle" "CPU 0 was never sampled idle (perf shows no start_kernel)"
	fi
else
	skip "unwind-perf idle" "needs root and readable kallsyms"
fi
