#!/usr/bin/env bash
# Compare what two pmprof binaries print: every command, every format, on
# the test recordings (tests/data), recordings made here the way the tests
# make them (perf record and pmprof record on the test programs), the
# simulator's outputs and the Alpha fixtures (test-profileme-fixtures
# --write), plus bad input and bad options.
#
#   scripts/compare-outputs.sh [-k] [-r] [-w DIR] [-g FIXTURE_GEN] [-W WORKLOAD] OLD NEW
#
#   OLD, NEW   the two pmprof binaries (e.g. a build of main and build/pmprof)
#   -w DIR     work directory (default: a new mktemp -d; removed unless -k)
#   -k         keep the work directory (inputs in DIR/in, outputs in
#              DIR/old and DIR/new, one CASE.out/.err/.rc per case)
#   -r         reuse the inputs of an earlier run in DIR (-w), and OLD's
#              outputs when OLD is the same binary as then (quicker)
#   -g FILE    the fixture generator (default: NEW's
#              ../tests/unit/test-profileme-fixtures if it exists)
#   -W FILE    the workload program (default: NEW's ../bench/workload)
#
# The inputs are made once (with OLD and perf) and both binaries read the
# same files at the same paths; commands that write files (sim, inject,
# record --dry-run) run in the same scratch directory for both, and what
# they write is compared too. Every case compares standard output,
# standard error and the exit status. Prints each differing case with the
# first lines of its diff, then "N cases: N identical, N differ"; exits 1
# when any differ.
set -u
keep=0 reuse=0 work="" gen="" workload=""
while getopts "krw:g:W:" o; do
	case $o in
	k) keep=1 ;;
	r) reuse=1 ;;
	w) work=$OPTARG ;;
	g) gen=$OPTARG ;;
	W) workload=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -ne 2 ]; then
	sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
fi
OLD=$(realpath "$1") NEW=$(realpath "$2")
TOP=$(cd "$(dirname "$0")/.." && pwd)
for b in "$OLD" "$NEW"; do
	[ -x "$b" ] || { echo "compare-outputs: $b is not a program" >&2; exit 2; }
done
newbuild=$(dirname "$NEW")
[ -n "$gen" ] || gen="$newbuild/tests/unit/test-profileme-fixtures"
[ -n "$workload" ] || workload="$newbuild/bench/workload"
if [ -z "$work" ]; then
	work=$(mktemp -d /tmp/pmprof-compare.XXXXXX)
	[ "$keep" = 1 ] || trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
work=$(realpath "$work")
IN="$work/in"
log() { printf 'compare-outputs: %s\n' "$*" >&2; }

# ---- inputs -----------------------------------------------------------------

# Every reading case is "INPUT|EXTRA OPTIONS": the input's path relative to
# $IN and the options its symbols need.
INPUTS=()
add_input() { [ -s "$IN/$1" ] && INPUTS+=("$1|${2:-}"); }

make_inputs() {
	rm -rf "$IN"
	mkdir -p "$IN/bin" "$IN/rec"
	cp "$TOP"/tests/data/*.data "$IN/"
	for f in "$TOP"/tests/data/*.data; do add_input "$(basename "$f")"; done

	# Alpha (and x86) fixtures with their symfs trees and kallsyms.
	if [ -x "$gen" ] && "$gen" --write "$IN/fx" >/dev/null 2>&1; then
		local fx="$IN/fx" f
		for f in "$fx"/*.data; do
			case $(basename "$f") in
			rules-*) add_input "fx/$(basename "$f")" "--symfs $fx/symfs-alpha --kallsyms $fx/kallsyms" ;;
			*x86*) add_input "fx/$(basename "$f")" "--symfs $fx/symfs-x86" ;;
			*) add_input "fx/$(basename "$f")" "--symfs $fx/symfs-prog" ;;
			esac
		done
	else
		log "no fixture generator ($gen): Alpha fixtures left out"
	fi

	# The simulator's recordings (deterministic: the same bytes each time).
	(cd "$IN/rec" &&
	 "$OLD" sim arm-benchmark -q -e '{cycles/period=1000000,hf-period=300/,instructions,branch-misses,cache-misses,cache-references}:uS' \
		-o sim-arm.data --truth sim-arm.truth --iterations 40 &&
	 "$OLD" sim resonant -q -e '{cycles/period=200000/,instructions}:uS' -o sim-res.data --iterations 20 &&
	 "$OLD" sim resonant -q -e '{cycles/period=500000,hf-period=2000/,instructions}:uS' -o sim-res-hf.data --iterations 20) \
		>/dev/null 2>"$work/sim.err" || log "sim inputs: $(head -1 "$work/sim.err")"
	for f in sim-arm sim-res sim-res-hf; do add_input "rec/$f.data"; done

	# Recordings as the tests make them: perf and pmprof on the test programs.
	if command -v gcc >/dev/null 2>&1; then
		gcc -O2 -g -fno-omit-frame-pointer -fPIE -pie -o "$IN/bin/report-prog" \
			"$TOP/tests/programs/report-prog.c" -lpthread
	fi
	[ -x "$workload" ] && cp "$workload" "$IN/bin/workload"
	local prog="$IN/bin/report-prog" wl="$IN/bin/workload"
	if command -v perf >/dev/null 2>&1 &&
	   perf record -q -e cpu-clock -o "$work/probe.data" true >/dev/null 2>&1; then
		local P="perf record -q"
		if [ -x "$prog" ]; then
			$P -e cpu-clock -g -o "$IN/rec/p-single.data" -- "$prog" single
			$P -e cpu-clock -o "$IN/rec/p-threads.data" -- "$prog" threads
			$P -e cpu-clock -e task-clock -o "$IN/rec/p-two.data" -- "$prog" single
			$P -e cpu-clock --call-graph dwarf,4096 -o "$IN/rec/p-dwarf.data" -- "$prog" single
			$P -e cpu-clock -d -T --sample-cpu -o "$IN/rec/p-addr.data" -- "$prog" threads
			$P -e cpu-clock -o - -- "$prog" single >"$IN/rec/p-pipe.data"
		fi
		if [ -x "$wl" ]; then
			$P -e '{cpu-clock,task-clock,page-faults}:S' -g -T --sample-cpu \
				-o "$IN/rec/p-group.data" -- "$wl" --threads 2 -n 3000
			$P -e '{cpu-clock,task-clock}' -o "$IN/rec/p-groupnoS.data" -- "$wl" -n 2000
			$P -a -e cpu-clock -c 200000 -o "$IN/rec/p-system.data" -- "$wl" -n 2000
		fi
	else
		log "perf cannot record here: perf recordings left out"
	fi >/dev/null 2>"$work/perf.err"
	if [ -x "$wl" ]; then
		(cd "$IN/rec" &&
		 "$OLD" record -q --metrics -o m-metrics.data -- "$wl" -n 3000
		 "$OLD" record -q --hf-mode burst -e '{cpu-clock/period=4000000,hf-period=100000,hf-burst=3/,task-clock,page-faults}:S' \
			-o m-burst.data -- "$wl" -n 3000
		 "$OLD" record -q --hf-mode fixed -e '{cpu-clock/period=2000000,hf-period=200000/,task-clock}:S' \
			-o m-fixed.data -- "$wl" -n 2000
		 "$OLD" record -q -e cpu-clock -g -o m-plain.data -- "$wl" -n 2000
		 "$OLD" record -q -e cpu-clock -o - -- "$wl" -n 1000 >m-pipe.data) \
			>/dev/null 2>"$work/record.err"
	fi
	for f in p-single p-threads p-two p-dwarf p-addr p-pipe p-group p-groupnoS \
		 p-system m-metrics m-burst m-fixed m-plain m-pipe; do
		add_input "rec/$f.data"
	done

	# Other byte order and pipe streams, by inject.
	local src
	for src in rec/p-group.data rec/sim-arm.data group-fp.data; do
		[ -s "$IN/$src" ] || continue
		local b=${src//\//-}
		"$OLD" inject -i "$IN/$src" -o "$IN/rec/be-$b" --byte-order big 2>/dev/null &&
			add_input "rec/be-$b"
		"$OLD" inject -i "$IN/$src" -o - --pipe >"$IN/rec/pipe-$b" 2>/dev/null &&
			add_input "rec/pipe-$b"
	done

	# Bad input: cut short, garbage, empty.
	if [ -s "$IN/group-fp.data" ]; then
		head -c 2000 "$IN/group-fp.data" >"$IN/bad-short.data"
		head -c 104 "$IN/group-fp.data" >"$IN/bad-header.data"
		add_input bad-short.data; add_input bad-header.data
	fi
	printf 'this is not a perf.data file, but long enough to be read as one....................................................\n' >"$IN/bad-garbage.data"
	add_input bad-garbage.data
	: >"$IN/bad-empty.data"
	INPUTS+=("bad-empty.data|" "missing.data|")
}

# ---- cases ------------------------------------------------------------------

# run_case NAME CMD...: standard output, error and status into $OUT/NAME.*
run_case() {
	local name=$1; shift
	"$@" >"$OUT/$name.out" 2>"$OUT/$name.err" </dev/null
	echo $? >"$OUT/$name.rc"
}

# Variants of each reading command, "LABEL|OPTIONS".
REPORT_V=("text|" "csv|--format csv" "tsv|--format tsv" "json|--format json" "quiet|-q"
	"children|--children" "children-json|--children --format json"
	"children-csv|--children --format csv"
	"sort-comm|--sort comm,pid,tid" "sort-sym-csv|--sort sym --format csv"
	"sort-pc-json|--sort dso,sym,cpu,pc --format json" "sort-comm-json|--sort comm --format json"
	"group|--group" "group-csv|--group --format csv" "group-json|--group --format json"
	"top|--top 3" "limit|--percent-limit 5" "limit-json|--percent-limit 2 --top 4 --format json")
METRICS_V=("text|" "csv|--format csv" "tsv|--format tsv" "json|--format json"
	"none|--mode none" "discard-json|--mode discard --format json" "ci|--ci"
	"ci-json|--ci --format json" "ci-tsv|--ci --format tsv" "callchain|--match callchain"
	"top|--top 2" "top-json|--top 2 --format json")
PROFILEME_V=("text|" "csv|--format csv" "tsv|--format tsv" "json|--format json"
	"pc|--pc" "pc-json|--pc --format json" "pc-csv|--pc --format csv"
	"killed|--sort killed" "pc-sort-json|--pc --sort pc --format json" "top|--top 1"
	"sym-sort|--sort symbol --format csv")
MEM_V=("text|" "csv|--format csv" "tsv|--format tsv" "json|--format json"
	"tlb|--sort tlb" "data-json|--sort data --format json" "top|--top 2"
	"level-csv|--sort level --format csv" "op|--sort op")
INFO_V=("text|" "json|--format json")
DUMP_V=("text|" "json|--format json" "stats|--stats" "hex|--hex" "quiet|-q")
ANNOTATE_V=("text|--top 2" "json|--top 2 --format json" "csv|--top 2 --format csv"
	"tsv|--top 1 --format tsv" "nosrc|--top 1 --no-source" "all-json|--format json"
	"all-csv|--no-source --format csv" "html|--top 1 --format html"
	"folded|--top 1 --format folded" "pprof|--top 1 --format pprof"
	"main|main --format json")

run_reading() {
	local entry input extra v label opts cmd tag
	for entry in "${INPUTS[@]}"; do
		input=${entry%%|*} extra=${entry#*|}
		tag=${input//\//-}
		for cmd in report metrics profileme mem info dump annotate; do
			local -n variants="${cmd^^}_V"
			for v in "${variants[@]}"; do
				label=${v%%|*} opts=${v#*|}
				case $cmd in info|dump) e="" ;; *) e=$extra ;; esac
				# shellcheck disable=SC2086
				run_case "$cmd-$tag-$label" "$BIN" $cmd -i "$IN/$input" $opts $e
			done
		done
	done
	# Standard input, as a pipe.
	if [ -s "$IN/pipe.data" ]; then
		for cmd in report dump info metrics; do
			"$BIN" $cmd -i - <"$IN/pipe.data" >"$OUT/stdin-$cmd.out" 2>"$OUT/stdin-$cmd.err"
			echo $? >"$OUT/stdin-$cmd.rc"
		done
	fi
}

run_usage() {
	local f="$IN/group-fp.data"
	run_case usage-report-sort "$BIN" report -i "$f" --sort nosuch
	run_case usage-report-sort-twice "$BIN" report -i "$f" --sort dso,dso
	run_case usage-report-arg "$BIN" report -i "$f" extra
	run_case usage-report-format "$BIN" report -i "$f" --format xml
	run_case usage-report-limit "$BIN" report -i "$f" --percent-limit 200
	run_case usage-report-top "$BIN" report -i "$f" --top -1
	run_case usage-report-opt "$BIN" report -i "$f" --nosuch
	run_case usage-report-help "$BIN" report -h
	run_case usage-metrics-mode "$BIN" metrics -i "$f" --mode sometimes
	run_case usage-metrics-match "$BIN" metrics -i "$f" --match what
	run_case usage-metrics-arg "$BIN" metrics -i "$f" extra
	run_case usage-profileme-sort "$BIN" profileme -i "$f" --sort nosuch
	run_case usage-profileme-sortpc "$BIN" profileme -i "$f" --sort pc
	run_case usage-mem-sort "$BIN" mem -i "$f" --sort nosuch
	run_case usage-info-format "$BIN" info -i "$f" --format csv
	run_case usage-dump-format "$BIN" dump -i "$f" --format tsv
	run_case usage-annotate-two "$BIN" annotate -i "$f" a b
	run_case usage-annotate-mode "$BIN" annotate -i "$f" --mode sometimes
	run_case usage-inject-order "$BIN" inject -i "$f" -o "$SCRATCH/x.data" --byte-order middle
	run_case usage-sim-model "$BIN" sim
	run_case usage-sim-noevent "$BIN" sim resonant
	run_case usage-sim-list "$BIN" sim --list
	run_case usage-nocommand "$BIN" nosuch
	run_case usage-none "$BIN"
	run_case usage-version "$BIN" --version
	run_case usage-help "$BIN" --help
	local c
	for c in record report metrics profileme mem sim info dump inject list annotate; do
		run_case "help-$c" "$BIN" $c --help
	done
	# list: fixture PMU trees (the same on any machine) and this one's
	local d
	for d in sysfs-alpha sysfs-amd sysfs-arm sysfs-hybrid sysfs-intel; do
		[ -d "$TOP/tests/data/$d" ] || continue
		run_case "list-$d-text" "$BIN" list --sysfs "$TOP/tests/data/$d"
		run_case "list-$d-json" "$BIN" list --sysfs "$TOP/tests/data/$d" --format json
		run_case "memrecord-$d-dry" "$BIN" mem record --sysfs "$TOP/tests/data/$d" --dry-run
	done
	run_case list-sw "$BIN" list sw
	run_case list-sw-json "$BIN" list sw --json
	run_case usage-list-two "$BIN" list a b
	run_case usage-list-format "$BIN" list --format csv
	run_case usage-memrecord-e "$BIN" mem record -e cycles --dry-run
}

# Commands that write files: run in $SCRATCH, then keep what they wrote.
keep_files() {	# keep_files NAME: move every file of $SCRATCH to $OUT/NAME.files/
	mkdir -p "$OUT/$1.files"
	find "$SCRATCH" -maxdepth 1 -type f -exec mv {} "$OUT/$1.files/" \;
}

run_writers() {
	local spec i=0 line kind rest
	cd "$SCRATCH" || return
	for spec in \
		'{cycles/period=1000000,hf-period=300/,instructions,branch-misses,cache-misses,cache-references}:uS' \
		'{cycles/period=200000/,instructions}:uS'; do
		i=$((i + 1))
		run_case "sim-$i-write" "$BIN" sim arm-benchmark -e "$spec" -o s.data --truth s.truth --iterations 30
		keep_files "sim-$i-write"
		for f in "table|" "csv|--format csv" "tsv|--format tsv" "json|--format json" \
			 "none|--mode none" "discard-json|--mode discard --format json"; do
			run_case "sim-$i-compare-${f%%|*}" "$BIN" sim resonant -q -e "$spec" -o s.data --iterations 20 \
				--compare ${f#*|}
			keep_files "sim-$i-compare-${f%%|*}"
		done
	done
	run_case sim-truth-stdout "$BIN" sim resonant -q -e '{cycles/period=300000/,instructions}:uS' -o s.data --truth - --iterations 5
	keep_files sim-truth-stdout
	local src
	for src in group-fp.data pipe.data compressed.data rec/p-group.data rec/m-burst.data fx/rules-be.data; do
		[ -s "$IN/$src" ] || continue
		local t=${src//\//-}
		run_case "inject-$t-file" "$BIN" inject -i "$IN/$src" -o out.data
		keep_files "inject-$t-file"
		run_case "inject-$t-big" "$BIN" inject -i "$IN/$src" -o out.data --byte-order big
		keep_files "inject-$t-big"
		run_case "inject-$t-pipe" "$BIN" inject -i "$IN/$src" -o - --pipe
		keep_files "inject-$t-pipe"
	done
	run_case inject-missing "$BIN" inject -i "$IN/missing.data" -o out.data
	keep_files inject-missing
	# record --dry-run on every string of the event corpus, both formats.
	while IFS=$'\t' read -r kind spec rest; do
		case $kind in ''|'#'*) continue ;; esac
		i=$((i + 1))
		local sysfs=""
		case $kind in sysfs*) sysfs="--sysfs $TOP/tests/data/sysfs-alpha" ;; esac
		# shellcheck disable=SC2086
		run_case "dry-$i-text" "$BIN" record --dry-run --plan 3 $sysfs -e "$spec"
		# shellcheck disable=SC2086
		run_case "dry-$i-json" "$BIN" record --dry-run --plan 3 $sysfs -e "$spec" --format json
	done <"$TOP/tests/data/evspec-corpus.txt"
	run_case dry-metrics "$BIN" record --dry-run --metrics
	run_case dry-default "$BIN" record --dry-run -c 1000 -g -T
	run_case dry-two "$BIN" record --dry-run -e cycles -e instructions -F 999 --format json
	run_case record-notarget "$BIN" record -e cpu-clock
	run_case record-cF "$BIN" record -c 10 -F 10 -- true
	cd "$work" || return
}

run_all() {	# run_all BIN OUTDIR
	BIN=$1 OUT=$2
	SCRATCH="$work/scratch"
	rm -rf "$OUT" "$SCRATCH"
	mkdir -p "$OUT" "$SCRATCH"
	run_reading
	run_usage
	run_writers
	rm -rf "$SCRATCH"
}

if [ "$reuse" = 1 ] && [ -f "$work/inputs" ]; then
	mapfile -t INPUTS <"$work/inputs"
else
	log "making the inputs in $IN"
	make_inputs
	printf '%s\n' "${INPUTS[@]}" >"$work/inputs"
fi
old_sum=$(sha1sum <"$OLD" | cut -d' ' -f1)
if [ "$reuse" = 1 ] && [ -d "$work/old" ] && [ "$(cat "$work/old.sum" 2>/dev/null)" = "$old_sum" ]; then
	log "${#INPUTS[@]} inputs; $OLD's outputs as before"
else
	log "${#INPUTS[@]} inputs; running $OLD"
	run_all "$OLD" "$work/old"
	echo "$old_sum" >"$work/old.sum"
fi
log "running $NEW"
run_all "$NEW" "$work/new"

# ---- comparison -------------------------------------------------------------
total=0 same=0 differ=0
while IFS= read -r f; do
	total=$((total + 1))
	if cmp -s "$work/old/$f" "$work/new/$f"; then
		same=$((same + 1))
	else
		differ=$((differ + 1))
		echo "DIFF $f"
		if [ -f "$work/old/$f" ] && [ -f "$work/new/$f" ]; then
			diff "$work/old/$f" "$work/new/$f" 2>/dev/null | head -6 | sed 's/^/    /'
		else
			echo "    only in $( [ -f "$work/old/$f" ] && echo old || echo new)"
		fi
	fi
done < <( (cd "$work/old" && find . -type f; cd "$work/new" && find . -type f) |
	sed 's|^\./||' | sort -u)
echo "$total outputs: $same identical, $differ differ"
[ "$keep" = 1 ] && echo "outputs kept in $work (old/, new/)"
[ "$differ" -eq 0 ]
