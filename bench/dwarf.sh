#!/usr/bin/env bash
# The dwarf benchmark: reports of BENCH_MB-MB `perf record --call-graph
# dwarf` recordings, pmprof against `perf report --children` on the same
# file in the same run. Goal: pmprof report --children at least 10x
# faster (CPU time). Two recordings: the bundled workload (two threads,
# one process: perf's unwinder keeps its caches all along) and a shell
# loop that forks and execs a process per iteration (what a build or a
# script looks like to a profiler: many address spaces, the same files).
# The unwinding cost per sample is pmprof report --children's CPU time
# less pmprof report's (no call chains) over the samples.
# On the workload's file the goal is out of reach of any unwinder: on this
# VM, faulting 256 MB of page cache in and tearing it down costs ~0.05
# CPU-s (read() into a reused buffer 0.04 s), against perf's 0.4-0.55 s
# for the whole report; its "floor" line (no call chains) shows that part.
#
# bench/run.sh sources this file and calls section_dwarf with its timing
# helpers (timeit, bench_cmd, table_start, summary, ratio, verdict).

# dataset_dwarf NAME CMD...: a recording of >= BENCH_MB MB in
# $BENCH_DATA/NAME.data with NAME.meta ("records N", "samples N"),
# made once by perf record --call-graph dwarf of CMD (bench/run.sh's
# record_until_big).
dataset_dwarf() {
	local name=$1 f="$BENCH_DATA/$1.data" t0 records samples
	shift
	if [ -f "$f" ] && [ -f "$BENCH_DATA/$name.meta" ] &&
	   [ "$(stat -c %s "$f")" -ge $((BENCH_MB * 1000000)) ]; then
		return 0
	fi
	log "bench: making a --call-graph dwarf recording of >= $BENCH_MB MB in $f (once; cached)"
	rm -f "$BENCH_DATA/$name.meta"
	t0=$(date +%s)
	record_until_big "$f" -e cpu-clock -c "$BENCH_PERIOD" --call-graph dwarf -- "$@"
	records=$(count_records "$f.tmp")
	samples=$(perf report -i "$f.tmp" --stats 2>/dev/null |
		awk '/^ *SAMPLE events:/ { print $3; exit }')
	[ -n "$records" ] && [ -n "$samples" ] || die "perf cannot read back $f.tmp"
	mv "$f.tmp" "$f"
	printf 'records %s\nsamples %s\n' "$records" "$samples" >"$BENCH_DATA/$name.meta"
	log "bench: $(( $(stat -c %s "$f") / 1000000 )) MB, $samples samples in $(( $(date +%s) - t0 )) s"
}

# dwarf_report NAME LABEL: time both tools on one recording, summarise.
dwarf_report() {
	local name=$1 label=$2 f="$BENCH_DATA/$1.data" records samples bytes
	local ch_w ch_c pl_c perf_w perf_c flat_w flat_c r per
	records=$(meta "$BENCH_DATA/$name.meta" records)
	samples=$(meta "$BENCH_DATA/$name.meta" samples)
	bytes=$(stat -c %s "$f")
	table_start "dwarf: $label, $f ($((bytes / 1000000)) MB, $samples samples; best of up to $BENCH_REPEAT runs)"
	bench_cmd "pmprof report --children" "$records" "$bytes" \
		"$PMPROF" report --children -i "$f"
	ch_w=$BEST ch_c=$CPU
	bench_cmd "pmprof report (no call chains)" "$records" "$bytes" \
		"$PMPROF" report -i "$f"
	pl_c=$CPU
	bench_cmd "perf report --children --stdio" "$records" "$bytes" \
		perf report --children --stdio -i "$f"
	perf_w=$BEST perf_c=$CPU
	bench_cmd "perf report --children --stdio --no-inline -g none" "$records" "$bytes" \
		perf report --children --stdio --no-inline -g none -i "$f"
	flat_w=$BEST flat_c=$CPU
	per=$(awk -v a="$ch_c" -v b="$pl_c" -v n="$samples" \
		'BEGIN { if (a == "" || b == "" || n <= 0) print "?"; else printf "%.2f", (a - b) * 1e6 / n }')
	echo "unwinding: $per µs of CPU per sample (pmprof report --children less pmprof report, over $samples samples)"
	r=$(ratio "$perf_c" "$ch_c")
	echo "goal: pmprof report --children >= 10x faster than perf report --children: $(verdict "${r/\?/0} >= 10") (${r}x CPU: pmprof $ch_c cpu-s, perf $perf_c cpu-s)"
	summary "dwarf ($label): pmprof report --children 10x faster than perf report --children" \
		"${r}x CPU, $(ratio "$perf_w" "$ch_w")x wall (pmprof $ch_c cpu-s, perf $perf_c cpu-s)" \
		"$(verdict "${r/\?/0} >= 10")"
	summary "dwarf ($label): ... than perf report --children --no-inline -g none" \
		"$(ratio "$flat_c" "$ch_c")x CPU, $(ratio "$flat_w" "$ch_w")x wall (perf $flat_c cpu-s)" "-"
	summary "dwarf ($label): unwinding cost per sample (informative)" "$per µs CPU" "-"
	# what no unwinding speed-up removes: reading the file, the symbols
	summary "dwarf ($label): the floor, pmprof report without call chains (informative)" \
		"$pl_c cpu-s: at most $(ratio "$perf_c" "$pl_c")x" "-"
}

section_dwarf() {
	dataset_dwarf dwarf "$WORKLOAD" --threads 2 --nest 3 -n 1000000000
	dwarf_report dwarf "the workload, 2 threads"
	# A subshell (fork) and an exec'd tr per iteration.
	dataset_dwarf dwarf-sh bash -c 'while :; do x=$(echo "$RANDOM" | tr 0-9 a-j); done'
	dwarf_report dwarf-sh "a shell loop forking and execing"
}
