#!/usr/bin/env python3
"""Compare `perf report --stdio -q -F overhead,sample,period,dso,sym` with
`pmprof report --format csv` of the same file: the same (dso, symbol) rows
with the same sample counts and periods, exactly.

usage: compare_report.py PERF_OUTPUT PMPROF_CSV [--comm COMM]
Exit 0 when equal; otherwise print the differences and exit 1.

With --comm, only the rows of that command count: both reports are then
--sort comm,dso,sym, perf's with -t '|' and -F
overhead,sample,period,comm,dso,sym (perf 6.1's own --comms filter
mixes in rows of other commands).

PLT stubs: perf 6.1 extends an unsized `_init` to the next symbol before
it adds the callee@plt symbols, so the two overlap over .plt and which
one perf names depends on the shape of its symbol tree (an executable's
stubs usually come out as `_init`). pmprof names the stub. Within one
DSO, `_init` and every `*@plt` row are therefore counted as one row,
"_init/PLT"; report-perf's PLT test checks the stub names themselves."""
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


def perf_rows_comm(path, comm):
    rows = {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            if not line.strip() or line.startswith('#'):
                continue
            fields = [x.strip() for x in line.rstrip('\n').split('|', 5)]
            if len(fields) != 6:
                raise SystemExit('cannot parse perf line: %r' % line)
            if fields[3] != comm:
                continue
            key = (fields[4], fields[5])
            s, p = rows.get(key, (0, 0))
            rows[key] = (s + int(fields[1]), p + int(fields[2]))
    return rows


def pmprof_rows(path, comm=None):
    rows = {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for r in csv.DictReader(f):
            if comm is not None and r['Command'] != comm:
                continue
            key = (r['Shared Object'], r['Symbol'])
            s, p = rows.get(key, (0, 0))
            rows[key] = (s + int(r['Samples']), p + int(r['Period']))
    return rows


PLT_POOL = '[.] _init/PLT'


def pool_plt(rows):
    pooled = {}
    for (dso, sym), (s, p) in rows.items():
        if sym == '[.] _init' or sym.endswith('@plt'):
            sym = PLT_POOL
        ps, pp = pooled.get((dso, sym), (0, 0))
        pooled[(dso, sym)] = (ps + s, pp + p)
    return pooled


def main():
    args = sys.argv[1:]
    comm = None
    if len(args) == 4 and args[2] == '--comm':
        comm = args[3]
    elif len(args) != 2:
        raise SystemExit(__doc__)
    want = perf_rows(args[0]) if comm is None else perf_rows_comm(args[0], comm)
    got = pmprof_rows(args[1], comm)
    if want != got:
        want, got = pool_plt(want), pool_plt(got)
    bad = 0
    for key in sorted(set(want) | set(got)):
        w, g = want.get(key), got.get(key)
        if w != g:
            bad += 1
            if bad <= 20:
                print('%s %s: perf %s, pmprof %s' % (key[0], key[1], w, g))
    if bad:
        print('%d of %d rows differ' % (bad, len(set(want) | set(got))))
        return 1
    if not want:
        print('no rows')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
