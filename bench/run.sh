#!/usr/bin/env bash
# `make bench`: pmprof's speed against perf's on the same files.
#
#   bench/run.sh [SECTION...]      sections: reader (default: all)
#
# Environment:
#   BUILD          build directory (default build)
#   BENCH_DATA     where generated recordings are cached (BUILD/bench-data)
#   BENCH_MB       minimum size of the big recording in MB (default 200)
#   BENCH_PERIOD   cpu-clock sample period in ns for it (default 50000:
#                  shorter periods starve the workload on slow-interrupt VMs)
#   BENCH_REPEAT   runs per command; the best wall time counts (default 3)
#   BENCH_BUDGET   no further run of a command once its runs took this many
#                  seconds (default 120: perf report -D takes minutes)
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
BENCH_BUDGET=${BENCH_BUDGET:-120}
SECTIONS_ALL="reader"

log() { printf '%s\n' "$*" >&2; }
die() { log "bench: $*"; exit 1; }

# ---- timing ---------------------------------------------------------------

# timeit CMD...: run CMD BENCH_REPEAT times (output discarded), or fewer
# once BENCH_BUDGET seconds are spent on it; set BEST to the best wall time
# in seconds and RUNS to the number of runs, or BEST to "" if a run failed
# (RC holds the exit status, ERR the first line of its standard error).
timeit() {
	local i t0 t1 t spent=0
	BEST="" RC=0 ERR="" RUNS=0
	for ((i = 0; i < BENCH_REPEAT; i++)); do
		if [ "$i" -gt 0 ] && awk -v s="$spent" -v b="$BENCH_BUDGET" \
			'BEGIN { exit !(s >= b) }'; then
			break
		fi
		t0=$(date +%s.%N)
		"$@" >/dev/null 2>"$TMP/err"
		RC=$?
		t1=$(date +%s.%N)
		if [ "$RC" -ne 0 ]; then
			ERR=$(head -1 "$TMP/err")
			BEST=""
			return 1
		fi
		t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
		spent=$(awk -v s="$spent" -v t="$t" 'BEGIN { print s + t }')
		RUNS=$((RUNS + 1))
		if [ -z "$BEST" ] || awk -v t="$t" -v b="$BEST" 'BEGIN { exit !(t < b) }'; then
			BEST=$t
		fi
	done
}

# ---- table ----------------------------------------------------------------

# table_start TITLE: print a section title and the column header.
table_start() {
	printf '\n== %s\n' "$1"
	printf '%-34s %10s %14s %10s %5s\n' "command" "seconds" "records/s" "MB/s" "runs"
}

# table_row LABEL SECONDS RECORDS BYTES: one row; SECONDS "" shows why not.
table_row() {
	local label=$1 s=$2 records=$3 bytes=$4
	if [ -z "$s" ]; then
		printf '%-34s %10s  %s\n' "$label" "n/a" "${WHY:-failed}"
		return
	fi
	awk -v l="$label" -v s="$s" -v r="$records" -v b="$bytes" -v n="$RUNS" 'BEGIN {
		if (s <= 0) s = 0.001
		printf "%-34s %10.3f %14.0f %10.1f %5d\n", l, s, r / s, b / s / 1e6, n }'
}

# bench_cmd LABEL RECORDS BYTES CMD...: time CMD and print its row.
bench_cmd() {
	local label=$1 records=$2 bytes=$3
	shift 3
	WHY=""
	if ! timeit "$@"; then
		WHY="exit $RC: ${ERR:-no message}"
	fi
	table_row "$label" "$BEST" "$records" "$bytes"
}

# ---- recordings -----------------------------------------------------------

# Count the records of a recording with perf (its own count, not ours).
count_records() {
	perf report -i "$1" --stats 2>/dev/null |
		awk '/^ *TOTAL events:/ { print $3; exit }'
}

# dataset_big: a recording of at least BENCH_MB MB in $BENCH_DATA/big.data,
# with $BENCH_DATA/big.meta ("records N"). perf records a workload that
# would run for hours and gets SIGINT once the file is big enough (it then
# stops the workload and finishes the file as usual). A sample carries ip,
# tid, time, addr, id, cpu, period, a group read and a frame-pointer
# callchain: the fields most recordings have.
dataset_big() {
	local f="$BENCH_DATA/big.data" want=$((BENCH_MB * 1000000))
	local size=0 t0 pid
	if [ -f "$f" ] && [ -f "$BENCH_DATA/big.meta" ] &&
	   [ "$(stat -c %s "$f")" -ge "$want" ]; then
		return 0
	fi
	mkdir -p "$BENCH_DATA"
	log "bench: making a recording of >= $BENCH_MB MB in $f (once; cached)"
	# perf would keep an old output as FILE.old: remove it first
	rm -f "$f" "$f.tmp" "$f.tmp.old" "$BENCH_DATA/big.meta"
	t0=$(date +%s)
	# A subshell that becomes perf: $! is perf's pid, and perf installs
	# its own SIGINT handler (a background job starts with SIGINT ignored).
	(exec perf record -q -e '{cpu-clock,task-clock}:S' -c "$BENCH_PERIOD" \
		-g -T --sample-cpu -d -o "$f.tmp" -- \
		"$WORKLOAD" --threads 2 --nest 3 -n 1000000000 \
		>/dev/null 2>"$TMP/rec.err") &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		size=$(stat -c %s "$f.tmp" 2>/dev/null || echo 0)
		if [ "$size" -ge "$want" ]; then
			kill -INT "$pid"
			break
		fi
		sleep 1
	done
	wait "$pid"
	size=$(stat -c %s "$f.tmp" 2>/dev/null || echo 0)
	[ "$size" -ge "$want" ] ||
		die "perf record stopped at $size bytes: $(head -3 "$TMP/rec.err")"
	records=$(count_records "$f.tmp")
	[ -n "$records" ] || die "perf cannot read back $f.tmp"
	mv "$f.tmp" "$f"
	echo "records $records" >"$BENCH_DATA/big.meta"
	log "bench: $((size / 1000000)) MB, $records records in $(( $(date +%s) - t0 )) s"
}

meta() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }

# ---- sections -------------------------------------------------------------

# Reader throughput: parse every record, print nothing (no symbols).
section_reader() {
	local f="$BENCH_DATA/big.data" records bytes
	dataset_big
	records=$(meta "$BENCH_DATA/big.meta" records)
	bytes=$(stat -c %s "$f")
	table_start "reader: parse every record of $f ($((bytes / 1000000)) MB, $records records; best of up to $BENCH_REPEAT runs)"
	bench_cmd "pmprof dump -q" "$records" "$bytes" "$PMPROF" dump -q -i "$f"
	bench_cmd "perf report -D" "$records" "$bytes" perf report -D -i "$f"
	bench_cmd "perf script" "$records" "$bytes" perf script -i "$f"
	echo "goal: pmprof dump -q at >= 1000 MB/s on a mapped file"
}

# ---- main -----------------------------------------------------------------

[ -x "$WORKLOAD" ] || die "$WORKLOAD missing: run make first"
command -v perf >/dev/null || die "perf not found (scripts/deps.sh installs it)"
TMP=$(mktemp -d /tmp/pmprof-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

sections=("$@")
[ ${#sections[@]} -gt 0 ] || read -r -a sections <<<"$SECTIONS_ALL"
echo "pmprof bench: $(uname -m), $(nproc) CPUs, $(perf --version)"
for s in "${sections[@]}"; do
	declare -F "section_$s" >/dev/null || die "no section '$s' (have: $SECTIONS_ALL)"
	"section_$s"
done
