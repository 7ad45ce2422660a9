#!/usr/bin/env bash
# `make bench`: pmprof's speed against perf's on the same files.
#
#   bench/run.sh [SECTION...]      sections: reader report outputs dir dwarf
#                                  metrics record lab (bench/lab.sh: the
#                                  arm64 guest) demo
#                                  (default: all, and docs/bench.md is
#                                  rewritten with the results)
#
# Environment:
#   BUILD          build directory (default build)
#   BENCH_DATA     where generated recordings are cached (BUILD/bench-data)
#   BENCH_MB       minimum size of the big recording in MB (default 200)
#   BENCH_PERIOD   cpu-clock sample period in ns for it (default 50000:
#                  shorter periods starve the workload on slow-interrupt VMs)
#   BENCH_REPEAT   runs per command; the best wall time counts (default 3)
#   BENCH_DIR_REPEAT  runs of each command with and without decoder threads,
#                  in turns, in section dir (default 7)
#   BENCH_BUDGET   no further run of a command once its runs took this many
#                  seconds (default 60: perf report -D takes minutes)
#   BENCH_DOC      the markdown report of a full run (default docs/bench.md;
#                  empty: none)
#   METRICS_BENCH_SAMPLES, RECORD_ITER, RECORD_ROUNDS: see bench/metrics.sh,
#                  bench/record.sh
#
# Every timed command gets its wall time and its CPU time (user + sys of
# the command and its children): the machine is a shared 2-CPU VM, so wall
# times depend on the load and CPU times are the steadier figure.
#
# Recordings are made once and reused; delete BENCH_DATA to remake them.
# Each section is a function section_NAME; add one to add a section.
set -u
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
PMPROF="$PWD/$BUILD/pmprof"
WORKLOAD="$PWD/$BUILD/bench/workload"
BENCH_DATA=${BENCH_DATA:-$BUILD/bench-data}
BENCH_MB=${BENCH_MB:-200}
BENCH_PERIOD=${BENCH_PERIOD:-50000}
BENCH_REPEAT=${BENCH_REPEAT:-3}
BENCH_BUDGET=${BENCH_BUDGET:-60}
BENCH_DIR_REPEAT=${BENCH_DIR_REPEAT:-7}
BENCH_DOC=${BENCH_DOC-docs/bench.md}
SECTIONS_ALL="reader report outputs dir dwarf metrics record lab demo"

# shellcheck source=bench/metrics.sh
. bench/metrics.sh
# shellcheck source=bench/record.sh
. bench/record.sh
# shellcheck source=bench/dwarf.sh
. bench/dwarf.sh
# shellcheck source=bench/lab.sh
. bench/lab.sh

log() { printf '%s\n' "$*" >&2; }
die() { log "bench: $*"; exit 1; }

# ---- timing ---------------------------------------------------------------

# timeit CMD...: run CMD BENCH_REPEAT times (output discarded), or fewer
# once BENCH_BUDGET seconds are spent on it; set BEST to the best wall time
# in seconds, CPU to the best CPU time (user + sys, children included) and
# RUNS to the number of runs, or BEST to "" if a run failed (RC holds the
# exit status, ERR the first line of its standard error).
timeit() {
	local i t u sy spent=0 TIMEFORMAT='%R %U %S'
	BEST="" CPU="" RC=0 ERR="" RUNS=0
	for ((i = 0; i < BENCH_REPEAT; i++)); do
		if [ "$i" -gt 0 ] && awk -v s="$spent" -v b="$BENCH_BUDGET" \
			'BEGIN { exit !(s >= b) }'; then
			break
		fi
		{ time "$@" >/dev/null 2>"$TMP/err"; RC=$?; } 2>"$TMP/time"
		if [ "$RC" -ne 0 ]; then
			ERR=$(head -1 "$TMP/err")
			BEST="" CPU=""
			return 1
		fi
		read -r t u sy <"$TMP/time"
		u=$(awk -v a="$u" -v b="$sy" 'BEGIN { printf "%.3f", a + b }')
		spent=$(awk -v s="$spent" -v t="$t" 'BEGIN { print s + t }')
		RUNS=$((RUNS + 1))
		if [ -z "$BEST" ] || awk -v t="$t" -v b="$BEST" 'BEGIN { exit !(t < b) }'; then
			BEST=$t
		fi
		if [ -z "$CPU" ] || awk -v t="$u" -v b="$CPU" 'BEGIN { exit !(t < b) }'; then
			CPU=$u
		fi
	done
}

# ---- table ----------------------------------------------------------------

# table_start TITLE: print a section title and the column header.
table_start() {
	printf '\n== %s\n' "$1"
	printf '%-44s %9s %9s %13s %9s %9s %5s\n' "command" "wall s" "cpu s" "records/s" "MB/s" "MB/cpu-s" "runs"
}

# table_row LABEL SECONDS RECORDS BYTES: one row; SECONDS "" shows why not.
# records/s and MB/s are per second of wall time; MB/cpu-s per CPU second.
table_row() {
	local label=$1 s=$2 records=$3 bytes=$4
	if [ -z "$s" ]; then
		printf '%-44s %9s  %s\n' "$label" "n/a" "${WHY:-failed}"
		return
	fi
	awk -v l="$label" -v s="$s" -v c="$CPU" -v r="$records" -v b="$bytes" -v n="$RUNS" 'BEGIN {
		if (s <= 0) s = 0.001
		if (c <= 0) c = 0.001
		printf "%-44s %9.3f %9.3f %13.0f %9.1f %9.1f %5d\n", l, s, c, r / s, b / s / 1e6, b / c / 1e6, n }'
}

# bench_cmd LABEL RECORDS BYTES CMD...: time CMD, print its row, note its
# command line for the report; the figures stay in BEST and CPU.
bench_cmd() {
	local label=$1 records=$2 bytes=$3
	shift 3
	WHY=""
	if ! timeit "$@"; then
		WHY="exit $RC: ${ERR:-no message}"
	fi
	table_row "$label" "$BEST" "$records" "$bytes"
	note_cmd "$@"
}

# ---- summary --------------------------------------------------------------

# note_cmd CMD...: remember a command line (paths relative to the tree).
note_cmd() {
	local q
	q=$(printf '%q ' "$@")
	q=${q//"$PWD/"/}
	printf '%s\n' "${q% }" >>"$TMP/cmds"
}

# summary GOAL MEASURED VERDICT: one line of the final table.
summary() {
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$TMP/summary"
}

# verdict COND: "met" or "MISSED" from an awk condition.
verdict() { awk "BEGIN { print (($1) ? \"met\" : \"MISSED\") }"; }

# ratio A B: A / B with one decimal, or "?" if either is missing.
ratio() {
	if [ -z "$1" ] || [ -z "$2" ]; then echo "?"; return; fi
	awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) b = 0.001; printf "%.1f", a / b }'
}

# ---- recordings -----------------------------------------------------------

# Count the records of a recording with perf (its own count, not ours).
count_records() {
	perf report -i "$1" --stats 2>/dev/null |
		awk '/^ *TOTAL events:/ { print $3; exit }'
}

# record_until_big FILE ARGS...: `perf record -q -o FILE.tmp ARGS` (ARGS
# ending with a workload that would run for hours), stopped by SIGINT once
# FILE.tmp (a file, or a directory with --threads) holds BENCH_MB MB (perf
# then stops the workload and finishes the recording as usual); dies if it
# stops short. The caller moves FILE.tmp into place.
record_until_big() {
	local f=$1 want=$((BENCH_MB * 1000000)) size=0 pid
	shift
	mkdir -p "$BENCH_DATA"
	# perf would keep an old output as FILE.old: remove it first
	rm -rf "$f" "$f.tmp" "$f.tmp.old"
	# A subshell that becomes perf: $! is perf's pid, and perf installs
	# its own SIGINT handler (a background job starts with SIGINT ignored).
	(exec perf record -q -o "$f.tmp" "$@" >/dev/null 2>"$TMP/rec.err") &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		size=$(du -sb "$f.tmp" 2>/dev/null | cut -f1)
		if [ "${size:-0}" -ge "$want" ]; then
			kill -INT "$pid"
			break
		fi
		sleep 1
	done
	wait "$pid"
	size=$(du -sb "$f.tmp" 2>/dev/null | cut -f1)
	[ "${size:-0}" -ge "$want" ] ||
		die "perf record stopped at ${size:-0} bytes: $(head -3 "$TMP/rec.err")"
}

# record_big OUT META PERF_RECORD_OPTIONS...: a recording of the workload
# of at least BENCH_MB MB in OUT, with META ("records N"), made once and
# kept.
record_big() {
	local out=$1 meta=$2 want=$((BENCH_MB * 1000000)) t0
	shift 2
	if [ -e "$out" ] && [ -f "$meta" ] &&
	   [ "$(du -sb "$out" | cut -f1)" -ge "$want" ]; then
		return 0
	fi
	log "bench: making a recording of >= $BENCH_MB MB in $out (once; cached)"
	rm -f "$meta"
	t0=$(date +%s)
	record_until_big "$out" "$@" -- \
		"$WORKLOAD" --threads 2 --nest 3 -n 1000000000
	records=$(count_records "$out.tmp")
	[ -n "$records" ] || die "perf cannot read back $out.tmp"
	mv "$out.tmp" "$out"
	echo "records $records" >"$meta"
	log "bench: $(( $(du -sb "$out" | cut -f1) / 1000000 )) MB, $records records in $(( $(date +%s) - t0 )) s"
}

# dataset_big: $BENCH_DATA/big.data and big.meta. A sample carries ip,
# tid, time, addr, id, cpu, period, a group read and a frame-pointer
# callchain: the fields most recordings have.
dataset_big() {
	record_big "$BENCH_DATA/big.data" "$BENCH_DATA/big.meta" \
		-e '{cpu-clock,task-clock}:S' -c "$BENCH_PERIOD" -g -T --sample-cpu -d
}

# dataset_dir: the same as a directory recording (perf record --threads:
# DIR/data and a data.N file per CPU), $BENCH_DATA/big.dir and big.dir.meta.
dataset_dir() {
	record_big "$BENCH_DATA/big.dir" "$BENCH_DATA/big.dir.meta" --threads \
		-e '{cpu-clock,task-clock}:S' -c "$BENCH_PERIOD" -g -T --sample-cpu -d
}

meta() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }

# ---- sections -------------------------------------------------------------

# Reader throughput: parse every record, print nothing (no symbols).
section_reader() {
	local f="$BENCH_DATA/big.data" records bytes pm_w pm_c d_w d_c s_w s_c
	dataset_big
	records=$(meta "$BENCH_DATA/big.meta" records)
	bytes=$(stat -c %s "$f")
	table_start "reader: parse every record of $f ($((bytes / 1000000)) MB, $records records; best of up to $BENCH_REPEAT runs)"
	bench_cmd "pmprof dump -q" "$records" "$bytes" "$PMPROF" dump -q -i "$f"
	pm_w=$BEST pm_c=$CPU
	bench_cmd "perf report -D" "$records" "$bytes" perf report -D -i "$f"
	d_w=$BEST d_c=$CPU
	bench_cmd "perf script" "$records" "$bytes" perf script -i "$f"
	s_w=$BEST s_c=$CPU
	echo "goal: pmprof dump -q at >= 1000 MB/s on a mapped file"
	local mbs mbc
	mbs=$(ratio "$bytes" "$(awk -v w="$pm_w" 'BEGIN { print w * 1e6 }')")
	mbc=$(ratio "$bytes" "$(awk -v w="$pm_c" 'BEGIN { print w * 1e6 }')")
	# Both verdicts: on this loaded VM the wall time is mostly waiting
	# for a CPU, the CPU time is what the reader costs.
	summary "reader: pmprof dump -q >= 1000 MB/s ($((bytes / 1000000)) MB file)" \
		"$mbs MB/s wall, $mbc MB/cpu-s; $(ratio "$records" "$pm_w" | cut -d. -f1) records/s" \
		"wall $(verdict "${mbs/\?/0} >= 1000"), CPU $(verdict "${mbc/\?/0} >= 1000")"
	summary "reader: vs perf report -D (informative)" \
		"$(ratio "$d_w" "$pm_w")x wall, $(ratio "$d_c" "$pm_c")x CPU" "-"
	summary "reader: vs perf script (informative)" \
		"$(ratio "$s_w" "$pm_w")x wall, $(ratio "$s_c" "$pm_c")x CPU" "-"
}

# Report: the default profile of each tool on the same big recording, and
# perf without children or call graphs (what pmprof report computes).
section_report() {
	local f="$BENCH_DATA/big.data" records bytes pm_w pm_c a_w a_c b_w b_c c_w c_c r
	dataset_big
	records=$(meta "$BENCH_DATA/big.meta" records)
	bytes=$(stat -c %s "$f")
	table_start "report: a profile of $f ($((bytes / 1000000)) MB, $records records; best of up to $BENCH_REPEAT runs)"
	bench_cmd "pmprof report" "$records" "$bytes" "$PMPROF" report -i "$f"
	pm_w=$BEST pm_c=$CPU
	bench_cmd "pmprof report --children" "$records" "$bytes" "$PMPROF" report --children -i "$f"
	c_w=$BEST c_c=$CPU
	bench_cmd "perf report --stdio" "$records" "$bytes" perf report --stdio -i "$f"
	a_w=$BEST a_c=$CPU
	bench_cmd "perf report --stdio --no-children -g none" "$records" "$bytes" \
		perf report --stdio --no-children -g none -i "$f"
	b_w=$BEST b_c=$CPU
	echo "goal: pmprof report 10x faster than perf report"
	r=$(ratio "$a_c" "$pm_c")
	summary "report: pmprof report 10x faster than perf report --stdio" \
		"${r}x CPU, $(ratio "$a_w" "$pm_w")x wall (pmprof $pm_c cpu-s, perf $a_c cpu-s)" \
		"$(verdict "${r/\?/0} >= 10")"
	r=$(ratio "$b_c" "$pm_c")
	summary "report: ... than perf report --stdio --no-children -g none" \
		"${r}x CPU, $(ratio "$b_w" "$pm_w")x wall (perf $b_c cpu-s)" \
		"$(verdict "${r/\?/0} >= 10")"
	r=$(ratio "$a_c" "$c_c")
	summary "report: pmprof report --children vs perf report --stdio" \
		"${r}x CPU, $(ratio "$a_w" "$c_w")x wall (pmprof $c_c cpu-s)" "-"
}

# Outputs: the pictures of the same profile (call stacks of every sample)
# against the table; each within 2x of the table's CPU time. The verdict
# is on the ratio unrounded (1.96 is met, 2.04 is not, though both print
# as 2.0 with one decimal).
section_outputs() {
	local f="$BENCH_DATA/big.data" records bytes t_c fmt r v
	local -a goals=()
	dataset_big
	records=$(meta "$BENCH_DATA/big.meta" records)
	bytes=$(stat -c %s "$f")
	table_start "outputs: report's formats on $f ($((bytes / 1000000)) MB, $records records; best of up to $BENCH_REPEAT runs)"
	bench_cmd "pmprof report" "$records" "$bytes" "$PMPROF" report -i "$f"
	t_c=$CPU
	for fmt in folded pprof html; do
		bench_cmd "pmprof report --format $fmt" "$records" "$bytes" \
			"$PMPROF" report --format "$fmt" -i "$f"
		if [ -n "$BEST" ] && [ -n "$t_c" ]; then
			r=$(awk -v a="$CPU" -v b="$t_c" 'BEGIN { if (b <= 0) b = 0.001; printf "%.2f", a / b }')
			v=$(verdict "$CPU <= 2 * $t_c")
		else
			r="?" v="MISSED"
		fi
		goals+=("goal: report --format $fmt within 2x of pmprof report's CPU time: $v, ${r}x ($CPU cpu-s, the table $t_c cpu-s)")
		summary "outputs: report --format $fmt within 2x of report's CPU time" \
			"${r}x ($CPU cpu-s, the table $t_c cpu-s)" "$v"
	done
	printf '%s\n' "${goals[@]}"
}

# pair LABEL RECORDS BYTES CMD...: time "env PMPROF_DECODE_THREADS=0 CMD"
# and "env PMPROF_DECODE_THREADS=N CMD" in turns, BENCH_DIR_REPEAT times
# (a shared machine's load changes: each gets the same moments), and print
# both rows; the figures in S_W S_C (none) and T_W T_C (threads).
pair() {
	local label=$1 records=$2 bytes=$3 i sw="" sc="" tw="" tc="" n runs=0
	shift 3
	n=$(nproc)
	for ((i = 0; i < BENCH_DIR_REPEAT; i++)); do
		BENCH_REPEAT=1 timeit env PMPROF_DECODE_THREADS=0 "$@" || break
		sw=$(awk -v a="$BEST" -v b="$sw" 'BEGIN { print (b == "" || a < b) ? a : b }')
		sc=$(awk -v a="$CPU" -v b="$sc" 'BEGIN { print (b == "" || a < b) ? a : b }')
		BENCH_REPEAT=1 timeit env PMPROF_DECODE_THREADS="$n" "$@" || break
		tw=$(awk -v a="$BEST" -v b="$tw" 'BEGIN { print (b == "" || a < b) ? a : b }')
		tc=$(awk -v a="$CPU" -v b="$tc" 'BEGIN { print (b == "" || a < b) ? a : b }')
		runs=$((runs + 1))
	done
	WHY="exit $RC: ${ERR:-no message}"
	RUNS=$runs CPU=$sc table_row "$label, decoding in the caller" "$sw" "$records" "$bytes"
	RUNS=$runs CPU=$tc table_row "$label, $n decoder threads" "$tw" "$records" "$bytes"
	note_cmd env PMPROF_DECODE_THREADS="0|$n" "$@"
	S_W=$sw S_C=$sc T_W=$tw T_C=$tc
}

# Directory recordings: the same commands decoding the data files in the
# caller's thread and in decoder threads, beside pmprof's own choice, perf
# on the directory, and pmprof on it injected into one file.
section_dir() {
	local d="$BENCH_DATA/big.dir" records bytes files n a_w a_c p_w p_c r
	local ds_w ds_c dt_w dt_c
	dataset_dir
	records=$(meta "$d.meta" records)
	bytes=$(du -sb "$d" | cut -f1)
	files=$(find "$d" -name 'data*' -type f | wc -l)
	n=$(nproc)
	[ -f "$BENCH_DATA/big.dir.data" ] && [ "$BENCH_DATA/big.dir.data" -nt "$d.meta" ] ||
		"$PMPROF" inject -i "$d" -o "$BENCH_DATA/big.dir.data" ||
		die "pmprof inject of $d failed"
	table_start "dir: a directory recording $d ($((bytes / 1000000)) MB in $files files, $records records; best of $BENCH_DIR_REPEAT runs taken in turns, load average $(cut -d' ' -f1 /proc/loadavg))"
	pair "pmprof dump -q" "$records" "$bytes" "$PMPROF" dump -q -i "$d"
	ds_w=$S_W ds_c=$S_C dt_w=$T_W dt_c=$T_C
	pair "pmprof report" "$records" "$bytes" "$PMPROF" report -i "$d"
	bench_cmd "pmprof report (its own choice)" "$records" "$bytes" \
		env -u PMPROF_DECODE_THREADS "$PMPROF" report -i "$d"
	a_w=$BEST a_c=$CPU
	bench_cmd "pmprof report of it injected into one file" "$records" "$bytes" \
		"$PMPROF" report -i "$BENCH_DATA/big.dir.data"
	bench_cmd "perf report --stdio --no-children -g none" "$records" "$bytes" \
		perf report --stdio --no-children -g none -i "$d"
	p_w=$BEST p_c=$CPU
	echo "goal: decoder threads make pmprof faster on a directory (wall time), at a CPU cost"
	r=$(ratio "$S_W" "$T_W")
	summary "dir: pmprof report with $n decoder threads vs none (wall)" \
		"${r}x wall ($S_W s -> $T_W s), CPU $S_C -> $T_C cpu-s" \
		"$(verdict "${r/\?/0} > 1")"
	r=$(ratio "$ds_w" "$dt_w")
	summary "dir: pmprof dump -q with $n decoder threads vs none (wall)" \
		"${r}x wall ($ds_w s -> $dt_w s), CPU $ds_c -> $dt_c cpu-s" \
		"$(verdict "${r/\?/0} > 1")"
	summary "dir: pmprof report (own choice) vs perf report -g none (informative)" \
		"$(ratio "$p_w" "$a_w")x wall, $(ratio "$p_c" "$a_c")x CPU" "-"
}

# Metrics: bench/metrics.sh's comparison, its figures into the summary.
section_metrics() {
	local n=${METRICS_BENCH_SAMPLES:-6000000} out="$TMP/metrics.out" pm py sp
	printf '\n== metrics: pmprof metrics vs a perf script -s Python script doing the same window sums (pmprof best of %s runs, the script once)\n' "$BENCH_REPEAT"
	bench_metrics "$n" 2>&1 | tee "$out"
	note_cmd "$PMPROF" metrics --mode none --format json -i metrics-big.data
	note_cmd perf script -s bench/gen/metrics_sums.py -i metrics-big.data
	pm=$(sed -n 's/^metrics: pmprof metrics *\([0-9.]*\) s CPU (\([0-9.]*\) s wall.*/\1 cpu-s, \2 s wall/p' "$out")
	py=$(sed -n 's/^metrics: perf script -s *\([0-9.]*\) s CPU (\([0-9.]*\) s wall).*/\1 cpu-s, \2 s wall/p' "$out")
	sp=$(sed -n 's/^metrics: speedup \([0-9]*\)x.*/\1/p' "$out")
	summary "metrics: pmprof metrics < 1 s CPU ($n samples)" "${pm:-failed}" \
		"$(verdict "${pm%% *} + 0 > 0 && ${pm%% *} + 0 < 1")"
	summary "metrics: >= 50x faster than perf script -s" \
		"${sp:-?}x CPU (script ${py:-failed}); $(grep -q 'same windows' "$out" && echo "same sums" || echo "SUMS DIFFER")" \
		"$(verdict "${sp:-0} + 0 >= 50")"
}

# Record: bench/record.sh's table, its goal line into the summary.
section_record_summary() {
	local out="$TMP/record.out" sl est r
	section_record 2>&1 | tee "$out"
	note_cmd "$PMPROF" record --metrics -o rec.data -- "$WORKLOAD" -n "${RECORD_ITER:-12000}"
	note_cmd "$PMPROF" record --hf-mode 'off|fixed|burst' -e "$(record_spec)" -o rec.data -- "$WORKLOAD" -n "${RECORD_ITER:-12000}"
	# "goal: burst (--metrics) slowdown X% measured, Y% estimated (...); fixed/burst bytes Zx (...)"
	read -r sl est r < <(sed -n 's/^goal: burst (--metrics) slowdown \([-0-9.]*\)% measured, \([-0-9.]*\)% estimated.*bytes \([0-9.]*\)x.*/\1 \2 \3/p' "$out")
	summary "record: burst --metrics slowdown < 2%" \
		"${sl:-?}% measured (CPU), ${est:-?}% estimated" \
		"$(verdict "${sl:-99} + 0 < 2 && ${est:-99} + 0 < 2")"
	summary "record: fixed writes >= 25x more than burst --metrics" "${r:-?}x" \
		"$(verdict "${r:-0} + 0 >= 25")"
}

# Demo: `make demo` in a clean clone, build included (README: "a few
# seconds" for the demo, two minutes with the build). A time, so here and
# not in tests/cli/demo.sh, which checks what the demo shows.
section_demo() {
	local clone="$TMP/demo-clone" t0 total demo
	printf '\n== demo: make demo in a clean clone (build included), once\n'
	if ! git clone -q "$PWD" "$clone" 2>/dev/null; then
		summary "demo: make demo < 120 s, the demo part < 60 s" "no git clone" "MISSED"
		return
	fi
	t0=$(date +%s)
	make -C "$clone" -j2 demo >"$TMP/demo.out" 2>&1
	total=$(( $(date +%s) - t0 ))
	demo=$(sed -n 's/^==== Done in \([0-9]*\) s.*/\1/p' "$TMP/demo.out")
	printf 'make demo: %d s in all, the demo part %s s\n' "$total" "${demo:-?}"
	note_cmd make demo
	summary "demo: make demo < 120 s, the demo part < 60 s" \
		"${total} s, demo ${demo:-failed} s" \
		"$(verdict "$total < 120 && ${demo:-999} + 0 < 60")"
	rm -rf "$clone"
}

# ---- report ---------------------------------------------------------------

print_summary() {
	printf '\n== summary\n'
	awk -F '\t' '{ printf "%-60s %-22s %s\n", $1, $3, $2 }' "$TMP/summary"
}

# write_doc FILE: the markdown report of this run.
write_doc() {
	local doc=$1
	{
		echo "# pmprof benchmarks"
		echo
		echo "Generated by \`make bench\` (bench/run.sh) on $(date -u '+%Y-%m-%d %H:%M UTC'); do not edit by hand."
		echo
		echo "## Machine"
		echo
		echo "- CPUs: $(nproc) ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo))"
		echo "- kernel: $(uname -sr), $(uname -m)"
		echo "- $(perf --version), $("$PMPROF" --version 2>/dev/null | head -1)"
		echo "- load average at the end of the run: $(cut -d' ' -f1-3 /proc/loadavg)"
		echo "- total time of the run: $(( $(date +%s) - START )) s"
		echo
		echo "Wall times depend on the load of this shared VM; CPU time (user + sys,"
		echo "children included) is the steadier figure. Timed commands run up to"
		echo "BENCH_REPEAT=$BENCH_REPEAT times (fewer once one command has used ${BENCH_BUDGET} s)"
		echo "with output to /dev/null; the best wall and the best CPU time count."
		echo
		echo "## Summary"
		echo
		echo "| goal | verdict | measured |"
		echo "|---|---|---|"
		awk -F '\t' '{ printf "| %s | %s | %s |\n", $1, $3, $2 }' "$TMP/summary"
		echo
		echo "## Command lines"
		echo
		echo '```'
		cat "$TMP/cmds"
		echo '```'
		echo
		echo "## Full output"
		echo
		echo '```'
		sed "s|$PWD/||g" "$TMP/out"
		echo '```'
	} >"$doc.tmp" && mv "$doc.tmp" "$doc"
	log "bench: wrote $doc"
}

# ---- main -----------------------------------------------------------------

[ -x "$WORKLOAD" ] || die "$WORKLOAD missing: run make first"
command -v perf >/dev/null || die "perf not found (scripts/deps.sh installs it)"
TMP=$(mktemp -d /tmp/pmprof-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
: >"$TMP/summary"
: >"$TMP/cmds"
START=$(date +%s)

sections=("$@")
full=0
if [ ${#sections[@]} -eq 0 ]; then
	read -r -a sections <<<"$SECTIONS_ALL"
	full=1
fi
for s in "${sections[@]}"; do
	declare -F "section_$s" >/dev/null || die "no section '$s' (have: $SECTIONS_ALL)"
done
# Everything printed goes to the report too (the sections run in this
# shell: their figures are needed for the summary).
exec 3>&1
exec > >(tee "$TMP/out")
tee_pid=$!
echo "pmprof bench: $(uname -m), $(nproc) CPUs ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)), $(uname -r), $(perf --version)"
for s in "${sections[@]}"; do
	if [ "$s" = record ]; then
		section_record_summary
	else
		"section_$s"
	fi
done
print_summary
echo "total: $(( $(date +%s) - START )) s"
exec 1>&3 3>&-
wait "$tee_pid" # tee has written everything
[ "$full" = 1 ] && [ -n "$BENCH_DOC" ] && write_doc "$BENCH_DOC"
exit 0
