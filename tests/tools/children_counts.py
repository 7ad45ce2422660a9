#!/usr/bin/env python3
"""Children and Self per (event, dso, symbol) counted from perf's own call
chains, against `pmprof report --children --format json`.

usage: children_counts.py [--dso NAME] CHAINS SELF PMPROF_JSON [PLAIN_CHAINS]

CHAINS is `perf script -F event,period,ip,sym,dso` (with --inline or
--no-inline): every sample with its call chain as perf resolved it
(unwound, for dwarf recordings). SELF is the same with -G: one line per
sample, its own symbol. perf script prints "(inlined)" where an inlined
function's DSO would be: PLAIN_CHAINS, the --no-inline chains of the same
file, give the DSO of each address. --dso compares that DSO's rows only. A row's Children is the period of the samples
that have it in their chain or as their own symbol, once per sample (what
perf report --children adds up); Self the period and number of samples
that are its own. Unresolved symbols count as one "[unknown]" per DSO.
perf's made-up entry of a cut stack is no frame; where the rows differ,
a DSO's PLT stubs and _init count as one row (perf_names.py says why).
Exit 0 when every row agrees exactly; else print the differences."""
import collections
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perf_names import PLT_POOL, is_perf_cut_frame, plt_pooled  # noqa: E402

FRAME = re.compile(r'^\s+([0-9a-f]+) (.*) \((.*)\)$')
INLINED = re.compile(r'^\s+([0-9a-f]+) (.*) \(inlined\)$')
# "PERIOD EVENT: [IP SYM (DSO)]" (the order perf script prints them in)
HEAD = re.compile(r'^\s*(\d+)\s+(\S+):\s*(.*)$')


def dso_name(path):
    """perf report's Shared Object for a path perf script prints."""
    if path.startswith('['):
        return path
    base = os.path.basename(path)
    m = re.match(r'^perf-(\d+)\.map$', base)
    return '[JIT] tid %s' % m.group(1) if m else base


# the second count, once the first found rows that differ: PLT stubs
# and _init pooled per DSO
POOL = False


def sym_name(sym):
    if sym.startswith('[unknown]'):
        return '[unknown]'
    return plt_pooled(sym) if POOL else sym


def samples(path):
    """(event, period, [(ip, dso, sym)...]) per sample, in file order;
    dso None for an inlined function's entry."""
    cur = None
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line.strip():
                if cur:
                    yield cur
                cur = None
                continue
            m = INLINED.match(line)
            if m and line.startswith('\t') and cur is not None:
                cur[2].append((m.group(1), None, m.group(2) + ' (inlined)'))
                continue
            m = FRAME.match(line)
            if m and is_perf_cut_frame(m.group(1)):
                continue
            if m and line.startswith('\t') and cur is not None:
                cur[2].append((m.group(1), dso_name(m.group(3)),
                               sym_name(m.group(2))))
                continue
            m = HEAD.match(line)
            if not m:
                raise SystemExit('%s: cannot parse %r' % (path, line))
            if cur:
                yield cur
            cur = (m.group(2), int(m.group(1)), [])
            rest = re.match(r'^([0-9a-f]+) (.*) \((.*)\)$', m.group(3).strip())
            if rest:
                cur[2].append((rest.group(1), dso_name(rest.group(3)),
                               sym_name(rest.group(2))))
    if cur:
        yield cur


def expected(chains, selfs, plain):
    children = collections.Counter()
    self_period = collections.Counter()
    self_samples = collections.Counter()
    total = collections.Counter()
    a, b = list(samples(chains)), list(samples(selfs))
    c = list(samples(plain)) if plain else [None] * len(a)
    if len(a) != len(b) or len(a) != len(c):
        raise SystemExit('the perf script runs have %d, %d and %d samples' %
                         (len(a), len(b), len(c)))
    for (ev, period, frames), (ev2, period2, own), p in zip(a, b, c):
        if ev != ev2 or period != period2 or len(own) != 1:
            raise SystemExit('the two perf script runs disagree: %r %r' % (ev, ev2))
        plain_at = {ip: (dso, sym) for ip, dso, sym in p[2]} if p else {}
        keys = set()
        for ip, dso, sym in frames:
            base = None
            if dso is None:
                if ip not in plain_at:
                    raise SystemExit('no DSO for inlined %s at %s' % (sym, ip))
                # perf's inlined function is one per (name, function it
                # sits in): two rows of one name for two places
                dso, base = plain_at[ip]
            keys.add((dso, sym, base))
        own_key = own[0][1:] + (None,)
        total[ev] += period
        self_period[(ev,) + own_key] += period
        self_samples[(ev,) + own_key] += 1
        for key in keys | {own_key}:
            children[(ev,) + key] += period
    return children, self_period, self_samples, total


def pmprof(path):
    """((event, dso, symbol) -> sorted [(children, self, samples)], totals)"""
    out = collections.defaultdict(list)
    total = {}
    with open(path) as f:
        d = json.load(f)
    for ev in d['events']:
        name = ev['event']
        total[name] = ev['event_count']
        for r in ev['rows']:
            sym = r['symbol']
            if re.match(r'^(0x)?[0-9a-f]{16}$', sym):
                sym = '[unknown]'     # an address: no symbol
            sym = sym_name(sym)
            children = round(r['children'] * ev['event_count'] / 100)
            out[(name, r['dso'], sym)].append((children, r['period'], r['samples']))
    merged = {}
    for key, v in out.items():
        if key[2] == '[unknown]':
            v = unknown_row(v)
        elif key[2] == PLT_POOL:
            v = pooled_row(v)
        merged[key] = sorted(v)
    return merged, total


def unknown_row(v):
    """perf script shows every unresolved address as [unknown], where the
    reports have a row per address: their Self adds up, their Children
    (overlapping sets of samples) do not."""
    return [(None, sum(r[1] for r in v), sum(r[2] for r in v))]


def pooled_row(v):
    """A DSO's PLT rows as one: a stub is only ever the sampled address,
    never a caller (it jumps), so the rows' Children are apart and add up."""
    return [tuple(sum(r[i] for r in v) for i in range(3))]


def rows(counts):
    """(event, dso, symbol) -> sorted [(children, self, samples)]: rows of
    one name (an inlined function in several places) compare as a set."""
    out = collections.defaultdict(list)
    for key in counts[0]:
        out[key[:3]].append((counts[0][key], counts[1][key], counts[2][key]))
    return {k: sorted(unknown_row(v) if k[2] == '[unknown]' else v)
            for k, v in out.items()}


def main():
    args = sys.argv[1:]
    only = None
    if args and args[0] == '--dso':
        only, args = args[1], args[2:]
    want = expected(args[0], args[1], args[3] if len(args) > 3 else None)
    got_rows, got_total = pmprof(args[2])
    if rows(want) != got_rows:
        global POOL
        POOL = True
        want = expected(args[0], args[1], args[3] if len(args) > 3 else None)
        got_rows, got_total = pmprof(args[2])
    bad = 0
    if dict(want[3]) != got_total:
        print('event totals: perf %s, pmprof %s' % (dict(want[3]), got_total))
        bad += 1
    want_rows = rows(want)
    keys = set(want_rows) | set(got_rows)
    if only:
        keys = {k for k in keys if k[1] == only}
    for key in sorted(keys):
        w, g = want_rows.get(key), got_rows.get(key)
        if w != g:
            bad += 1
            if bad <= 20:
                print('%s: perf (children, self, samples) %s, pmprof %s' %
                      (' '.join(key), w, g))
    if bad:
        print('%d of %d rows differ' % (bad, len(keys)))
        return 1
    if not keys:
        print('no rows')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
