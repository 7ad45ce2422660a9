#!/usr/bin/env python3
"""Checks of a fleet's report (several recordings added up) against each
recording's own, computed here from their CSV and JSON outputs.

  sums MERGED.csv A.csv [B.csv ...]   per (Event, Shared Object, Symbol):
                                       Samples and Period of MERGED are the
                                       sums of the others' (C.csv=EVENT: a
                                       one-event report, no Event column)
  metrics MERGED.json A.json B.json   per function: samples, discarded and
                                       each event's count add up; the
                                       windows too; CPI is the summed
                                       cycles over the summed instructions
                                       (a group led by cycles, instructions)
  hosts TAGS HOST=N ...               go tool pprof -tags: the host label
                                       counts N for each HOST
  rows CSV SYMBOL=N ...               the report's Samples of each symbol
  samples CSV                         prints the report's samples in all
"""
import collections
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pprof_check  # noqa: E402


def rows(path):
    out = collections.Counter()
    path, _, event = path.partition('=')
    with open(path) as f:
        for r in csv.DictReader(f):
            key = (r.get('Event', event), r['Shared Object'], r['Symbol'])
            out[key + ('Samples',)] += int(r['Samples'])
            out[key + ('Period',)] += int(r['Period'])
    return out


def sums(merged, parts):
    want = collections.Counter()
    for p in parts:
        want.update(rows(p))
    return pprof_check.same('rows (merged, sums)', rows(merged), want)


def metrics(merged, a, b):
    m, x, y = (json.load(open(p)) for p in (merged, a, b))
    bad = 0
    for key in ('windows', 'kept', 'discarded', 'samples', 'opening'):
        if m[key] != x[key] + y[key]:
            print(f'{key}: {m[key]}, wanted {x[key]} + {y[key]}')
            bad = 1

    def funcs(d):
        return {(f['dso'], f['symbol']): f for f in d['functions']}

    fm, fx, fy = funcs(m), funcs(x), funcs(y)
    if set(fm) != set(fx) | set(fy):
        print('functions differ:', sorted(set(fm) ^ (set(fx) | set(fy))))
        bad = 1
    cyc, ins = (m['events'] + ['', ''])[:2]
    cpi = cyc.startswith('cycles') and ins.startswith('instructions')
    for k, f in fm.items():
        parts = [p[k] for p in (fx, fy) if k in p]
        for field in ('samples', 'discarded'):
            if f[field] != sum(p[field] for p in parts):
                print(f'{k} {field}: {f[field]}, wanted {[p[field] for p in parts]}')
                bad = 1
        for ev, v in f['counts'].items():
            want = sum(p['counts'].get(ev, 0) for p in parts)
            if v != want:
                print(f'{k} {ev}: {v}, wanted {want}')
                bad = 1
        if not cpi:	# a group of other events: no CPI to check
            continue
        c = sum(p['counts'][cyc] for p in parts)
        i = sum(p['counts'][ins] for p in parts)
        if i and abs(f['metrics']['CPI'] - c / i) > 1e-9 * (c / i):
            print(f'{k} CPI {f["metrics"]["CPI"]}, wanted {c / i}')
            bad = 1
    if not bad:
        print(f'{len(fm)} functions, {m["kept"]} windows: the sums of both')
    return bad


def pairs(args):
    return {k: int(v) for k, v in (a.rsplit('=', 1) for a in args)}


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == 'sums':
        return sums(args[0], args[1:])
    if mode == 'metrics':
        return metrics(*args)
    if mode == 'hosts':
        return pprof_check.same('hosts', pprof_check.parse_tags(args[0], 'host'),
                                pairs(args[1:]))
    if mode == 'samples':
        with open(args[0]) as f:
            print(sum(int(r['Samples']) for r in csv.DictReader(f)))
        return 0
    if mode == 'rows':
        got = pprof_check.report_rows(args[0], 'Symbol')
        want = pairs(args[1:])
        return pprof_check.same('symbols', {k: got.get(k, 0) for k in want}, want)
    sys.exit(f'unknown mode {mode}')


if __name__ == '__main__':
    sys.exit(main())
