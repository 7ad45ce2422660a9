#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
A fleet's call-graph trees (report -i A -i B -g ... --format json) against
each recording's own, merged here node by node:

  fleet_graph.py tree MERGED A B     every row's Samples and Period, and
                                     every node's (by its path of
                                     (dso, name) from the row) samples
                                     and period, are A's plus B's; the
                                     siblings go most period first
  fleet_graph.py chains MERGED A B   -g folded/flat: the same, a node
                                     being one chain; most period first
  fleet_graph.py children MERGED A B --children: each row's Children
                                     (its period, from the share of the
                                     event's count) is A's plus B's
  fleet_graph.py same X Y            the same events, rows and trees,
                                     "inputs" and "kernel_symbols" (the
                                     first recording's) aside (X: -i A
                                     -i B, Y: -i B -i A)
"""
import collections
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def rows(d):
    out = {}
    for ev in d['events']:
        for r in ev['rows']:
            key = (ev['event'], r['dso'], r['symbol'])
            if key in out:
                raise SystemExit('%s: two rows' % (key,))
            out[key] = r
    return out


def paths(nodes, prefix, out):
    """Sum samples and period per path of (dso, name) below a row."""
    for n in nodes or []:
        key = prefix + ((n.get('dso'), n['symbol']),)
        out[key + ('samples',)] += n['samples']
        out[key + ('period',)] += n['period']
        paths(n.get('callgraph'), key, out)
    return out


def ordered(nodes, where):
    """Siblings most period first (the fleet's order)."""
    periods = [n['period'] for n in nodes or []]
    if periods != sorted(periods, reverse=True):
        raise SystemExit('%s: siblings not most period first: %s' % (where, periods))
    for n in nodes or []:
        ordered(n.get('callgraph'), where + (n['symbol'],))


def counts(d, deep):
    out = collections.Counter()
    for key, r in rows(d).items():
        out[key + ('samples',)] += r['samples']
        out[key + ('period',)] += r['period']
        if deep:
            paths(r.get('callgraph'), key, out)
        else:
            for n in r.get('callgraph') or []:
                out[key + (n['symbol'], 'samples')] += n['samples']
                out[key + (n['symbol'], 'period')] += n['period']
    return out


def compare(what, got, want):
    bad = [(k, got.get(k, 0), want.get(k, 0))
           for k in sorted(set(got) | set(want), key=repr)
           if got.get(k, 0) != want.get(k, 0)]
    for k, g, w in bad[:10]:
        print('%s: %r: fleet %d, A+B %d' % (what, k, g, w))
    if bad:
        raise SystemExit('%s: %d differ' % (what, len(bad)))
    nodes = sum(1 for k in got if k[-1] == 'samples')
    print('%s: %d rows and nodes, A+B' % (what, nodes))


def tree(merged, a, b, deep=True):
    m = load(merged)
    want = counts(load(a), deep)
    want.update(counts(load(b), deep))
    if not any(r.get('callgraph') for r in rows(m).values()):
        raise SystemExit('%s: no call graph' % merged)
    for key, r in rows(m).items():
        ordered(r.get('callgraph'), key)
    compare('tree' if deep else 'chains', counts(m, deep), want)


def children(merged, a, b):
    def acc(d):
        out = collections.Counter()
        for ev in d['events']:
            for r in ev['rows']:
                key = (ev['event'], r['dso'], r['symbol'])
                out[key] += round(r['children'] * ev['event_count'] / 100)
        return out
    want = acc(load(a))
    want.update(acc(load(b)))
    compare('children', acc(load(merged)), want)


def same(x, y):
    dx, dy = load(x), load(y)
    for d in (dx, dy):
        d.pop('inputs', None)
        # the first recording's (whether it has kernel samples)
        d.pop('kernel_symbols', None)
    for d in (dx, dy):
        for ev in d['events']:
            ev['rows'] = sorted(ev['rows'], key=lambda r: (r['dso'], r['symbol']))
    if dx != dy:
        raise SystemExit('%s and %s differ' % (x, y))
    print('same trees, siblings in the same order')


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == 'tree':
        tree(*args)
    elif mode == 'chains':
        tree(*args, deep=False)
    elif mode == 'children':
        children(*args)
    elif mode == 'same':
        same(*args)
    else:
        raise SystemExit('unknown mode ' + mode)


if __name__ == '__main__':
    main()
