#!/usr/bin/env bash
# report --format pprof read by `go tool pprof` (golang-go): -top agrees
# with pmprof report per function for every sample index (samples and each
# event), -traces with the folded stacks, -tags with the report by thread,
# process and CPU, -raw's mappings carry perf's build ids and its
# locations addr2line's lines.
. "$(dirname "$0")/../lib.sh"

have_perf || { skip pprof-go "perf cannot record here"; exit 0; }
command -v go >/dev/null || { skip pprof-go "no go (golang-go) for go tool pprof"; exit 0; }
command -v gcc >/dev/null || { skip pprof-go "no gcc"; exit 0; }
tool="$TOP/tests/tools/pprof_check.py"
prog="$TMP/report-prog"
gcc -O2 -g -fno-omit-frame-pointer -fPIE -pie -o "$prog" \
	"$TOP/tests/programs/report-prog.c" -lpthread ||
	{ not_ok "pprof-go: cannot build report-prog"; exit 0; }
cd "$TMP" || exit 1
# go keeps its caches under HOME
export HOME="$TMP" GOCACHE="$TMP/go-cache" GOFLAGS=

rec() { perf_rec "$@"; }

pprof() {	# pprof NAME ARGS...: go tool pprof on NAME's profile
	local name=$1; shift
	go tool pprof "$@" "$name.pb.gz" 2>"$name.gerr"
}

# profile NAME: write NAME.pb.gz, and the report tables to compare with
profile() {
	"$PMPROF" report -i "$1.data" --format pprof >"$1.pb.gz" 2>"$1.pmerr" ||
		{ not_ok "$1: pmprof report --format pprof failed: $(tail -1 "$1.pmerr")"; return 1; }
	check "$1: the output is gzip" gzip -t "$1.pb.gz"
}

# top NAME INDEX COLUMN [EVENT]: -top with that sample index equals the
# report's COLUMN per symbol (of EVENT's table)
top() {
	local name=$1 index=$2 col=$3
	pprof "$name" -sample_index="$index" -top -nodefraction=0 -nodecount=1000000 \
		>"$name.$index.top"
	"$PMPROF" report -i "$name.data" --sort sym --format csv >"$name.$index.csv"
	check "$name: pprof -top -sample_index=$index equals the report's $col per function" \
		python3 "$tool" top "$name.$index.top" "$name.$index.csv" "$col" ${4:+"$4"}
}

rec threads -e cpu-clock -g -- "$prog" threads && profile threads && {
	top threads samples Samples
	top threads cpu-clock Period
	pprof threads -sample_index=samples -traces >threads.traces
	"$PMPROF" report -i threads.data --format folded >threads.folded
	check "threads: pprof -traces equals the folded stacks" \
		python3 "$tool" traces threads.traces threads.folded
	pprof threads -sample_index=samples -tags >threads.tags
	"$PMPROF" report -i threads.data --sort tid --format csv >threads.tid.csv
	"$PMPROF" report -i threads.data --sort pid --format csv >threads.pid.csv
	check "threads: the thread labels count the report's samples per tid" \
		python3 "$tool" tags threads.tags thread threads.tid.csv Tid
	check "threads: the process labels count the report's samples per pid" \
		python3 "$tool" tags threads.tags process threads.pid.csv Pid
	pprof threads -raw >threads.raw
	perf buildid-list -i threads.data >threads.bid 2>/dev/null
	check "threads: mappings carry perf's build ids" \
		python3 "$tool" buildids threads.raw threads.bid
	check "threads: report-prog's locations have addr2line's lines" \
		python3 "$tool" lines threads.raw "$prog"
}

rec two -e cpu-clock -e page-faults -- "$prog" single && profile two && {
	top two samples Samples
	# one table per event: each index against its own event's rows
	top two cpu-clock Period cpu-clock
	top two page-faults Period page-faults
	for ev in cpu-clock page-faults; do
		pprof two -sample_index="$ev" -top >"two.$ev.total"
		want=$("$PMPROF" report -i two.data --format json | python3 -c '
import json, sys
print([e["event_count"] for e in json.load(sys.stdin)["events"] if e["event"] == sys.argv[1]][0])' "$ev")
		check "two: -sample_index=$ev totals its event count ($want)" \
			python3 "$tool" total "two.$ev.total" "$want"
	done
}

if [ "$(id -u)" = 0 ]; then
	rec syswide -a -e cpu-clock -- "$prog" single && profile syswide && {
		pprof syswide -sample_index=samples -tags >syswide.tags
		"$PMPROF" report -i syswide.data --sort cpu --format csv >syswide.cpu.csv
		check "syswide: the cpu labels count the report's samples per CPU" \
			python3 "$tool" tags syswide.tags cpu syswide.cpu.csv CPU
	}
fi

if [ -e threads.data ]; then
	expect "pprof from a command without a profile" 1 \
		"--format pprof: this command keeps no profile" \
		"$PMPROF" mem -i threads.data --format pprof
fi
