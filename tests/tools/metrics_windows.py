#!/usr/bin/env python3
"""Window sums of a group recording, computed from perf's own output.

usage: metrics_windows.py [--per-task] [--by-dso|--totals] REPORT_D SCRIPT PMPROF_JSON

REPORT_D is `perf report -D` (per-sample group values, in file order),
SCRIPT is `perf script -F tid,time,ip,sym,dso --ns` (the symbol of each
sample), PMPROF_JSON is `pmprof metrics --mode none --format json`. For a
fixed-period recording (no short windows) with mode none, a window is the
difference of the group values between consecutive samples with the same
leader id (perf 6.1 records sample-read groups without inherit, so one id
is one counter instance); the first sample of each id opens. With
--per-task (groups recorded with inherit, as perf 6.12 and pmprof do: a
child's counters report the parent's id) the instance is the leader id
and the sample's tid. Sums are
charged to the closing sample's (dso basename, symbol), or with --by-dso
to its DSO alone (system-wide recordings hit symbols whose names perf and
pmprof spell differently: demangled arguments, aliases), or with --totals
only the windows, opening samples and sums over every window. Exit 0 when
pmprof's windows, opening count and per-function sums all agree.
"""
import collections
import os
import re
import sys

SAMPLE = re.compile(r'^(?:\d+ )?(\d+) 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE\([^)]*\): '
                    r'(-?\d+)/(-?\d+): (0x[0-9a-f]+)')
VALUE = re.compile(r'^\.\.\.\.\. id ([0-9a-f]+), value ([0-9a-f]+)')
STOP = re.compile(r'PERF_RECORD_(UNTHROTTLE|LOST_SAMPLES|LOST)\b')
STOP_ID = re.compile(r'\bid[: ]+(\d+)')


def samples(path):
    """(time, tid, [(id, value)...]) for each sample, in file order, and
    ('stop', id) for each UNTHROTTLE, LOST and LOST_SAMPLES: the next
    sample of that id opens a window instead of closing one."""
    out, cur = [], None
    with open(path, errors='replace') as f:
        for line in f:
            m = SAMPLE.match(line)
            if m:
                cur = (int(m.group(1)), int(m.group(3)), [])
                out.append(cur)
                continue
            if STOP.search(line):
                m = STOP_ID.search(line[STOP.search(line).end():])
                if not m:
                    sys.exit('a stop without an id: ' + line.strip())
                out.append(('stop', int(m.group(1))))
                cur = None
                continue
            m = VALUE.match(line)
            if m and cur is not None:
                cur[2].append((int(m.group(1), 16), int(m.group(2), 16)))
    return out


def symbols(path):
    """(tid, time in ns) -> (dso basename, symbol)."""
    syms = {}
    pat = re.compile(r'^\s*(\d+)\s+(\d+)\.(\d{9}):\s+([0-9a-f]+)\s+(.*?) \((.*)\)$')
    with open(path, errors='replace') as f:
        for line in f:
            m = pat.match(line.rstrip('\n'))
            if not m:
                continue
            t = int(m.group(2)) * 1000000000 + int(m.group(3))
            sym = m.group(5).strip()
            sym = re.sub(r'\+0x[0-9a-f]+$', '', sym)
            dso = anon(os.path.basename(m.group(6)))
            syms[(int(m.group(1)), t)] = (dso, sym)
    return syms


def anon(dso):
    """Anonymous executable memory: perf script names the mapping
    (//anon, /memfd:... (deleted)), pmprof the JIT map it looks for
    (perf-PID.map, shown as "[JIT] tid PID"). One bucket for both."""
    if re.match(r'^(perf-\d+\.map|\[JIT\] tid \d+)$', dso) or 'memfd:' in dso or \
            dso.endswith('(deleted)') or dso in ('//anon', 'anon'):
        return '[anon]'
    return dso


def main():
    import json
    args = sys.argv[1:]
    per_task = args[0] == '--per-task'
    if per_task:
        args = args[1:]
    by_dso = args[0] == '--by-dso'
    totals = args[0] == '--totals'
    if by_dso or totals:
        args = args[1:]
    smp = samples(args[0])
    syms = symbols(args[1])
    with open(args[2]) as f:
        doc = json.load(f)
    # Kernel symbols: perf and pmprof pick different names among aliases
    # at one address (__x64_sys_getpid, __ia32_sys_getpid): compare the
    # kernel as one DSO.
    def fold(dso):
        return by_dso or dso == '[kernel.kallsyms]'
    merged = collections.OrderedDict()
    for fn in doc['functions']:
        # Basenames: two files of one name (two builds, two anonymous
        # maps) add up, as perf's basenames do on the other side.
        d = anon(fn['dso'])
        key = (d, '') if fold(d) else (d, fn['symbol'])
        m = merged.setdefault(key, {'dso': key[0], 'symbol': key[1], 'samples': 0,
                                    'counts': collections.Counter()})
        m['samples'] += fn['samples']
        m['counts'].update(fn['counts'])
    doc['functions'] = list(merged.values())
    prev = {}
    windows = opening = 0
    sums = collections.defaultdict(lambda: collections.Counter())
    nsamples = collections.Counter()
    for item in smp:
        if item[0] == 'stop':
            for k in [k for k in prev if k[0] == item[1]]:
                del prev[k]
            continue
        t, tid, vals = item
        if not vals:
            continue
        key = (vals[0][0], tid if per_task else None)
        if key not in prev:
            opening += 1
        else:
            where = syms.get((tid, t), ('?', '?'))
            if where[1] == '[unknown]' or where[1] == '':
                where = (where[0], '[unknown]')
            if fold(where[0]):
                where = (where[0], '')
            before = prev[key]
            windows += 1
            nsamples[where] += 1
            for pos, (i, v) in enumerate(vals):
                d = v - before.get(i, v) if v >= before.get(i, v) else 0
                sums[where][pos] += d
        prev[key] = {i: v for i, v in vals}
    bad = 0
    if doc['windows'] != windows or doc['opening'] != opening:
        print('windows/opening: pmprof %d/%d, perf %d/%d' %
              (doc['windows'], doc['opening'], windows, opening))
        bad += 1
    names = doc['events']
    mine = {}
    for fn in doc['functions']:
        mine[(fn['dso'], fn['symbol'])] = fn
    for where, n in ([] if totals else nsamples.items()):
        fn = mine.get(where)
        if fn is None:
            print('missing in pmprof: %s %s (%d samples)' % (where + (n,)))
            bad += 1
            continue
        got = [fn['counts'][e] for e in names]
        want = [sums[where][p] for p in range(len(names))]
        if fn['samples'] != n or got != want:
            print('%s %s: pmprof %d %s, perf %d %s' % (where + (fn['samples'], got, n, want)))
            bad += 1
    if not totals and len(mine) != len(nsamples):
        print('functions: pmprof %d, perf %d' % (len(mine), len(nsamples)))
        bad += 1
    # Totals, whatever the symbols: the sums over every window.
    for p, e in enumerate(names):
        tot = sum(s[p] for s in sums.values())
        mt = sum(fn['counts'][e] for fn in doc['functions'])
        if tot != mt:
            print('total %s: pmprof %d, perf %d' % (e, mt, tot))
            bad += 1
    print('%d windows, %d opening, %d functions, %d mismatches' %
          (windows, opening, len(nsamples), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
