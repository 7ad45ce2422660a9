#!/usr/bin/env python3
"""Compare `perf report --stdio -q -F overhead,sample,period,dso,sym` with
`pmprof report --format csv` of the same file: the same (dso, symbol) rows
with the same sample counts and periods, exactly.

usage: compare_report.py PERF_OUTPUT PMPROF_CSV [PERF_OUTPUT_AFTER]
Exit 0 when equal; otherwise print the differences and exit 1.

With PERF_OUTPUT_AFTER (perf report run again after pmprof), a row may
equal either perf run: for a system-wide recording, files of other
programs change and vanish while the tools read them (another build
relinks its binary, a test removes its program), so a row whose perf
runs disagree was in flux and pmprof may have seen either state. A row
both perf runs agree on must be exactly pmprof's. Prints how many rows
were in flux."""
import csv
import re
import sys

ROW = re.compile(r'^\s*(\d+\.\d+)%\s+(\d+)\s+(\d+)\s+(.*?)\s+(\[.\] .*?)\s*$')


def perf_rows(path):
    rows = {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            if not line.strip() or line.startswith('#'):
                continue
            m = ROW.match(line)
            if not m:
                raise SystemExit('cannot parse perf line: %r' % line)
            key = (m.group(4), m.group(5))
            s, p = rows.get(key, (0, 0))
            rows[key] = (s + int(m.group(2)), p + int(m.group(3)))
    return rows


def pmprof_rows(path):
    rows = {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for r in csv.DictReader(f):
            key = (r['Shared Object'], r['Symbol'])
            s, p = rows.get(key, (0, 0))
            rows[key] = (s + int(r['Samples']), p + int(r['Period']))
    return rows


def main():
    want, got = perf_rows(sys.argv[1]), pmprof_rows(sys.argv[2])
    after = perf_rows(sys.argv[3]) if len(sys.argv) > 3 else want
    keys = set(want) | set(after) | set(got)
    bad = flux = 0
    for key in sorted(keys):
        w, a, g = want.get(key), after.get(key), got.get(key)
        if w != a:
            flux += 1
        if g != w and g != a:
            bad += 1
            if bad <= 20:
                print('%s %s: perf %s%s, pmprof %s' % (
                    key[0], key[1], w, '' if w == a else ' then %s' % (a,), g))
    if bad:
        print('%d of %d rows differ' % (bad, len(keys)))
        return 1
    if not want:
        print('no rows')
        return 1
    if flux:
        print('%d of %d rows in flux between the perf runs' % (flux, len(keys)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
