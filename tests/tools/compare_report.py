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

usage: compare_report.py --children PERF_OUTPUT PMPROF_CSV

With --children, the rows of `perf report --children --stdio -q --sort
dso,sym -g none` (Children, Self, DSO, symbol) against `pmprof report
--children --format csv`: the same rows with the same Children and Self
percentages, to the hundredth. perf's made-up row for a cut stack
(perf_names.py) is no row.

PLT stubs: when the rows differ, within one DSO `_init` and every `*@plt`
row are counted as one row, "_init/PLT" (perf_names.py says why). Pooled
percentages are sums of rows each rounded to the hundredth: they agree
to half a hundredth for each row added."""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perf_names import is_perf_cut, plt_pooled  # noqa: E402

ROW = re.compile(r'^\s*(\d+\.\d+)%\s+(\d+)\s+(\d+)\s+(.*?)\s+(\[.\] .*?)\s*$')


def perf_lines(path):
    """The report's lines, but for comments and blank ones."""
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            if line.strip() and not line.startswith('#'):
                yield line


def perf_match(regex, line):
    m = regex.match(line)
    if not m:
        raise SystemExit('cannot parse perf line: %r' % line)
    return m


def perf_rows(path):
    rows = {}
    for line in perf_lines(path):
        m = perf_match(ROW, line)
        key = (m.group(4), m.group(5))
        s, p = rows.get(key, (0, 0))
        rows[key] = (s + int(m.group(2)), p + int(m.group(3)))
    return rows


def perf_rows_comm(path, comm):
    rows = {}
    for line in perf_lines(path):
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


def pool_plt(rows):
    pooled = {}
    for (dso, sym), (s, p) in rows.items():
        key = (dso, plt_pooled(sym))
        ps, pp = pooled.get(key, (0, 0))
        pooled[key] = (ps + s, pp + p)
    return pooled


CHILDREN_ROW = re.compile(r'^\s*(\d+\.\d+)%\s+(\d+\.\d+)%\s+(.*?)\s+(\[.\] .*?)\s*$')


def perf_children(path):
    """{(dso, sym): sorted [(children, self)]} of perf's --children text,
    its cut-stack row left out."""
    rows = {}
    for line in perf_lines(path):
        m = perf_match(CHILDREN_ROW, line)
        if not is_perf_cut(m.group(3), m.group(4)):
            rows.setdefault((m.group(3), m.group(4)), []).append((m.group(1), m.group(2)))
    return {k: sorted(v) for k, v in rows.items()}


def pmprof_children(path):
    rows = {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for r in csv.DictReader(f):
            rows.setdefault((r['Shared Object'], r['Symbol']), []).append(
                ('%.2f' % float(r['Children']), '%.2f' % float(r['Self'])))
    return {k: sorted(v) for k, v in rows.items()}


def pool_children(rows):
    """The PLT rows of each DSO as one: (children, self, rows added)."""
    pooled = {}
    for (dso, sym), v in rows.items():
        key = (dso, plt_pooled(sym))
        if key[1] == sym:
            pooled[key] = v
            continue
        c, s, n = pooled.get(key, (0.0, 0.0, 0))
        pooled[key] = (c + sum(float(x[0]) for x in v),
                       s + sum(float(x[1]) for x in v), n + len(v))
    return pooled


def children_same(w, g):
    """The same rows; pooled ones (tuples) to their rounding: each row
    added was rounded to the hundredth, half a hundredth either way."""
    if not isinstance(w, tuple) or not isinstance(g, tuple):
        return w == g
    slack = 0.005 * (w[2] + g[2]) + 1e-9
    return abs(w[0] - g[0]) <= slack and abs(w[1] - g[1]) <= slack


def compare_children(perf_path, pmprof_path):
    want, got = perf_children(perf_path), pmprof_children(pmprof_path)
    if want != got:
        want, got = pool_children(want), pool_children(got)
    bad = 0
    keys = set(want) | set(got)
    for key in sorted(keys):
        if not children_same(want.get(key), got.get(key)):
            bad += 1
            if bad <= 20:
                print('%s %s: perf (children, self) %s, pmprof %s' %
                      (key[0], key[1], want.get(key), got.get(key)))
    if bad:
        print('%d of %d rows differ' % (bad, len(keys)))
        return 1
    if len(want) < 5:
        print('perf report gave %d rows' % len(want))
        return 1
    return 0


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == '--children':
        return compare_children(args[1], args[2])
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
