#!/usr/bin/env bash
# report -g's trees against perf 6.1's, line for line, on recordings
# whose samples the test chose: a perf record -g of tests/programs/
# cg-frames (its maps, its process) with its samples replaced by a known
# set (tests/tools/cg_samples.py, written in a shuffled order), so that
# siblings tie exactly and remainders are what the set leaves:
#   ties       equal siblings under one caller: three of the program's,
#              two of libc's and two addresses in no map (perf's order:
#              its key, the greater first, DSOs in the order they were
#              met); equal callers in callee order
#   rest       a row's own part beside its callers (fractal's "[...]" at
#              the top), a frame with samples of its own and callers,
#              siblings small enough to be pruned (fractal's remainder
#              below), periods unequal so that period and count order
#              differ, samples without call chain entries (the row's
#              tree less than the row)
# For each mode, order, value, print limit, --percent-limit, --max-stack
# and -G, with and without --children: the trees' lines are perf's
# (pipes, separators, remainder lines: tests/tools/cg_tree.py --text),
# the same trees in order in JSON's nested nodes ("remainder" on the
# "[...]" nodes), and flat and folded give perf's chains in perf's
# order. Another shuffle of the same samples gives pmprof the same text.
. "$(dirname "$0")/../lib.sh"
cd "$TMP" || exit 1

have_perf || { skip callgraph-ties "perf cannot record here"; exit 0; }
command -v gcc >/dev/null ||
	{ skip callgraph-ties "no gcc (scripts/deps.sh installs build-essential)"; exit 0; }
cg="$TOP/tests/tools/cg_tree.py"
make_data="$TOP/tests/tools/cg_samples.py"
gcc -O2 -g -fno-omit-frame-pointer -o "$TMP/cg-frames" "$TOP/tests/programs/cg-frames.c" ||
	{ not_ok "callgraph-ties: cannot build cg-frames"; exit 0; }
if ! perf record -q -e cpu-clock -g -o "$TMP/frames.data" "$TMP/cg-frames" \
	>"$TMP/addresses" 2>"$TMP/record.err" || ! [ -s "$TMP/addresses" ]; then
	not_ok "callgraph-ties: perf record failed: $(tail -1 "$TMP/record.err")"
	exit 0
fi

cat >"$TMP/ties.spec" <<'EOF'
# f_top calls three of the program's functions, as much each
10 1000 f_alpha;f_top;main
10 1000 f_beta;f_top;main
10 1000 f_zeta;f_top;main
# f_root two of its own, two of libc's, two addresses in no map, as much
5 1000 f_gamma;f_root;main
5 1000 f_delta;f_root;main
5 1000 abs;f_root;main
5 1000 labs;f_root;main
5 1000 0x10;f_root;main
5 1000 0x20;f_root;main
# f_eta called as much by f_top and by f_root: f_top and f_root tie
4 1000 f_eta;f_top;main
4 1000 f_eta;f_root;main
EOF
cat >"$TMP/rest.spec" <<'EOF'
# f_alpha: on its own, and under callers of which two are small
20 1000 f_alpha
50 1000 f_alpha;f_top;main
30 1000 f_alpha;f_root;main
2 1000 f_alpha;f_gamma;main
1 1000 f_alpha;f_delta;main
# f_beta: f_top has samples of its own, callers, and a small one
12 1000 f_beta;f_top
10 1000 f_beta;f_top;main
4 3000 f_beta;f_top;f_root;main
1 1000 f_beta;f_top;f_zeta;main
# f_eta: fewer samples but more period by f_root
9 1000 f_eta;f_delta;f_top;main
3 4000 f_eta;f_delta;f_root;main
1 500 f_eta;f_delta;f_gamma;main
# f_gamma: some samples with no call chain entries (its tree holds less
# than the row: shares shown from the top, the rest "[...]")
6 1000 f_gamma:
10 1000 f_gamma;f_top;main
4 1000 f_gamma;f_root;main
EOF

for spec in ties rest; do
	python3 "$make_data" "$TMP/frames.data" "$TMP/addresses" "$TMP/$spec.spec" \
		"$TMP/$spec.data" &&
		python3 "$make_data" --seed 3 "$TMP/frames.data" "$TMP/addresses" \
			"$TMP/$spec.spec" "$TMP/$spec-again.data" ||
		not_ok "$spec: cannot write its perf.data"
done

# The ties are there: in main's tree (and f_top's, f_root's) perf shows
# f_top's three callees with one share (10 of 68 samples), f_root's six
# with another (5 of 68), f_top and f_root with one (34 of 68).
perf report -i "$TMP/ties.data" --stdio --no-inline --sort dso,sym --children \
	-g graph,0,caller >"$TMP/ties.check" 2>/dev/null
check_eq "ties: perf shows f_top's three equal callees" 6 \
	"$(grep -cE -- '--14\.71%--f_(alpha|beta|zeta)$' "$TMP/ties.check")"
check_eq "ties: perf shows f_root's six equal callees" 12 \
	"$(grep -cE -- '--7\.35%--(f_gamma|f_delta|abs|labs|0x10|0x20)$' "$TMP/ties.check")"
check_eq "ties: perf shows f_top and f_root equal under main" 2 \
	"$(grep -cE -- '--50\.00%--f_(top|root)$' "$TMP/ties.check")"

value_of() {	# the -g value word in OPTS: percent, period or count
	case " $* " in
	*,count\ *|*,count,*) echo count ;;
	*,period\ *|*,period,*) echo period ;;
	*) echo percent ;;
	esac
}

# same SPEC CHECK OPTS...: pmprof report OPTS is perf report OPTS.
same() {
	local spec=$1 what=$2 t="$TMP/$1.$RANDOM" d="$TMP/$1.data" v
	shift 2
	v=$(value_of "$@")
	perf report -i "$d" --stdio --no-inline --sort dso,sym "$@" >"$t.perf" 2>/dev/null &&
		"$PMPROF" report -i "$d" "$@" >"$t.pmprof" 2>"$t.err" &&
		"$PMPROF" report -i "$TMP/$spec-again.data" "$@" >"$t.again" 2>/dev/null ||
		{ not_ok "$spec: $what: a report failed: $(head -1 "$t.err")"; return; }
	case " $* " in
	*" -g flat"*|*" -g folded"*)
		check "$spec: $what: perf's chains, in order" \
			python3 "$cg" --ordered --chains "$t.perf" "$t.pmprof"
		;;
	*)
		check "$spec: $what: perf's lines" python3 "$cg" --text "$t.perf" "$t.pmprof"
		"$PMPROF" report -i "$d" "$@" --format json >"$t.json" 2>/dev/null
		check "$spec: $what: JSON's nested nodes are perf's trees, in order" \
			python3 "$cg" --ordered --value "$v" --json "$t.perf" "$t.json"
		;;
	esac
	check_files_eq "$spec: $what: the same whatever order the samples came in" \
		"$t.pmprof" "$t.again"
}

for spec in ties rest; do
	for g in graph,0 graph,0.5,caller graph,10 fractal,0 fractal,0,caller fractal,5 \
		 fractal,5,caller fractal,0,count fractal,5,caller,count fractal,5,period \
		 fractal,0,caller,2 fractal,0,callee,1,count graph,0,caller,2 graph,0,callee,1 \
		 flat,0 flat,0,caller folded,0 folded,0,caller,count flat,10; do
		for ch in --children --no-children; do
			same "$spec" "-g $g $ch" $ch -g "$g"
		done
	done
	same "$spec" "-G --children" --children -G
	same "$spec" "-G -g fractal --children" --children -G -g fractal
	same "$spec" "--max-stack 2 -g caller --children" --children -g caller --max-stack 2
	same "$spec" "--max-stack 2 -g fractal --no-children" --no-children -g fractal --max-stack 2
	# --percent-limit is the trees' threshold too, unless -g's comes after
	same "$spec" "--percent-limit 10 -g graph --children" --children --percent-limit 10 -g graph
	same "$spec" "-g fractal,1 --percent-limit 30 --children" --children -g fractal,1 \
		--percent-limit 30
	same "$spec" "--percent-limit 30 -g fractal,1 --children" --children --percent-limit 30 \
		-g fractal,1
	same "$spec" "--percent-limit 10 -g folded --children" --children --percent-limit 10 -g folded
done
