#!/usr/bin/env bash
# record-check.sh PMPROF FILE [STDERR_OF_RECORD]: perf report, perf script
# and pmprof dump read FILE without errors and see the same number of
# samples (and the number pmprof record printed, when its stderr is
# given). Prints "N samples" and exits 0, or says what differs and exits 1.
pmprof=$1 f=$2 log=${3:-}
fail() { echo "$*"; exit 1; }
# (a record out of a COMPRESSED one is at OFFSET+zOFFSET)
pm=$("$pmprof" dump -i "$f" 2>"$f.dump.err" | grep -c '^0x[0-9a-f]*\(+z0x[0-9a-f]*\)\? \[0x[0-9a-f]*\] SAMPLE ')
[ -s "$f.dump.err" ] && fail "pmprof dump: $(head -3 "$f.dump.err")"
# perf report refuses a file without samples ("has no samples!"): fine then
if [ "$pm" != 0 ]; then
	perf report -i "$f" --stdio >/dev/null 2>"$f.report.err" || fail "perf report failed: $(head -3 "$f.report.err")"
	grep -qi "error\|fail\|corrupt\|invalid" "$f.report.err" && fail "perf report: $(head -3 "$f.report.err")"
fi
perf script -i "$f" >/dev/null 2>"$f.script.err" || fail "perf script failed: $(head -3 "$f.script.err")"
grep -qi "error\|fail\|corrupt\|invalid" "$f.script.err" && fail "perf script: $(head -3 "$f.script.err")"
pf=$(perf report -i "$f" -D 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE')
[ "$pm" = "$pf" ] || fail "samples: pmprof dump $pm, perf report -D $pf"
if [ -n "$log" ]; then
	said=$(sed -n 's/.*Wrote .* (\([0-9]*\) samples).*/\1/p' "$log" | tail -1)
	[ "$said" = "$pm" ] || fail "samples: pmprof record said ${said:-nothing}, the file has $pm"
fi
echo "$pm samples"
