#!/usr/bin/env bash
# record -s and report -T against perf: report-prog's stat mode runs two
# threads that exit (each written once, with counts of its own), recorded
# by perf record -s and by pmprof record -s with three software events.
# Each thread's exit writes a READ record per event and counter instance.
# Which thread and event the kernel names in them is its own business
# (inherit_stat's counts follow the context swaps between equivalent
# tasks, so a row can carry another event's count or the parent's tid):
# what is checked is what both tools see in the same file.
. "$(dirname "$0")/../lib.sh"

have_perf || { skip threads-perf "perf cannot record here"; exit 0; }
command -v gcc >/dev/null || { skip threads-perf "no gcc"; exit 0; }
build_report_prog threads-perf
tool="$TOP/tests/tools/threads_check.py"
ev=cpu-clock,page-faults,context-switches
cd "$TMP" || exit 0

perf_rec perf-s -s -e "$ev" -- ./report-prog stat || exit 0
"$PMPROF" record -q -s -e "$ev" -o pm-s.data -- ./report-prog stat >/dev/null 2>pm-s.err ||
	{ not_ok "threads: pmprof record -s failed: $(tail -1 pm-s.err)"; exit 0; }

# pmprof's attrs are perf's: inherit_stat, read_format with the times
check_eq "threads: record -s writes perf record -s's attrs" \
	"$(perf evlist -v -i perf-s.data 2>/dev/null)" \
	"$(perf evlist -v -i pm-s.data 2>/dev/null)"
check "threads: record -s sets inherit_stat and the times in read_format" \
	grep -q "read_format: TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID|LOST.*inherit_stat: 1" \
	<(perf evlist -v -i pm-s.data 2>/dev/null)

for f in perf-s pm-s; do
	perf script -D -i $f.data >$f.D 2>/dev/null
	"$PMPROF" dump --format json -i $f.data >$f.dump 2>$f.dumperr ||
		{ not_ok "threads: $f: pmprof dump failed: $(tail -1 $f.dumperr)"; continue; }
	# two threads exit holding inherited counters: a READ per event each
	check "threads: $f: READ records of every event, from both threads" python3 -c '
import json, sys
reads = [r for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "READ"]
events = {r["event"] for r in reads}
assert len(reads) >= 6 and events == set(sys.argv[2].split(",")), (len(reads), events)
' $f.dump "$ev"
	check "threads: $f: READ records decode as perf script -D's" \
		python3 "$tool" reads $f.D $f.dump

	perf report -T --stdio -i $f.data >$f.T 2>/dev/null ||
		{ not_ok "threads: $f: perf report -T failed"; continue; }
	"$PMPROF" report -T -i $f.data --format json >$f.json 2>$f.err &&
	"$PMPROF" report --threads -i $f.data >$f.txt 2>>$f.err &&
	"$PMPROF" report -T -i $f.data --format csv >$f.csv 2>>$f.err ||
		{ not_ok "threads: $f: pmprof report -T failed: $(tail -1 $f.err)"; continue; }
	check "threads: $f: report -T (JSON) equals perf report -T" \
		python3 "$tool" table $f.T $f.json
	check "threads: $f: report -T (text) equals perf report -T" \
		python3 "$tool" text $f.T $f.txt
	check "threads: $f: report -T (CSV) has the JSON's rows" \
		python3 "$tool" csv $f.csv $f.json
	check "threads: $f: --top 1 keeps the first thread" python3 -c '
import json, sys
want = [t for t in json.load(open(sys.argv[1]))["events"] if "threads" in t][0]["threads"][:1]
got = [t for t in json.load(sys.stdin)["events"] if "threads" in t][0]["threads"]
assert want and got == want, (want, got)
' $f.json < <("$PMPROF" report -T --top 1 -i $f.data --format json)
	check "threads: $f: HTML has the table" grep -q "Per-thread counts" \
		<("$PMPROF" report -T -i $f.data --format html)
	check_eq "threads: $f: no warning with READ records" "" "$(cat $f.err)"
done

# without READ records: perf prints an empty table; pmprof says why
perf_rec perf-n -e cpu-clock -- ./report-prog stat || exit 0
perf report -T --stdio -i perf-n.data >perf-n.T 2>/dev/null
"$PMPROF" report -T -i perf-n.data --format json >perf-n.json 2>perf-n.err
check_eq "threads: no READ records: exit 0" 0 $?
check "threads: no READ records: both tables empty" \
	python3 "$tool" empty perf-n.T perf-n.json
check "threads: no READ records: said on stderr, with the file and record -s" \
	grep -q "^pmprof: perf-n.data: no READ records.*record -s" perf-n.err
check "threads: no READ records: said in the text table" \
	grep -q "^# no READ records" <("$PMPROF" report -T -i perf-n.data 2>/dev/null)

# a READ record cut short (its values gone, the trailer kept, the bytes
# after it FINISHED_ROUNDs): the standard error with file and offset
off=$(python3 - pm-s.data pm-s.dump <<'EOF'
import json, struct, sys
data = bytearray(open(sys.argv[1], 'rb').read())
rd = next(r for r in map(json.loads, open(sys.argv[2])) if r.get('type') == 'READ')
off, size = rd['offset'], rd['size']
trailer = data[off + size - 24:off + size]	# TID, TIME, ID
short = struct.pack('<IHH', 8, 0, 40) + data[off + 8:off + 16] + trailer
fill = b''.join(struct.pack('<IHH', 68, 0, 8) for _ in range((size - 40) // 8))
data[off:off + size] = short + fill
open('short.data', 'wb').write(data)
print(off)
EOF
)
for cmd in "report -T" dump; do
	$PMPROF $cmd -i short.data >/dev/null 2>short.err
	check_eq "threads: short READ: $cmd exits 2" 2 $?
	check "threads: short READ: $cmd names the file and offset $off" \
		grep -q "^pmprof: short.data: offset $off: READ record of 40 bytes is too short" short.err
done
