#!/usr/bin/env python3
"""Check pmprof diff against numbers computed apart.

    diff_check.py z DIFF.json BASE.samples NEW.samples
        each function's z is the two-proportion z (pooled) of its samples
        in BASE and NEW ("count dso symbol" lines, perf report -n's), to
        0.01, and Significant is |z| > the JSON's confidence quantile
    diff_check.py perf DIFF.json PERFDIFF.txt
        Baseline and Delta of every symbol perf diff shows with both are
        pmprof's, to perf's rounding (0.01 points)
    diff_check.py sig DIFF.json NAME yes|no...
        NAME's Significant is as given (NAME=yes|no pairs)
    diff_check.py folded DIFF.folded BASE_TOTAL NEW_TOTAL
        the "stack base new" lines add up to each side's samples
    diff_check.py metrics DIFF.json BASE.json NEW.json
        for every function of both metrics --ci reports and every metric:
        METRIC is NEW's, its delta NEW's - BASE's, its sig whether the two
        95% intervals are apart
    diff_check.py colours DOM NAME grew|shrank
        the frames named NAME are marked so and drawn red (grew) or blue
        (shrank); the page ran without error
"""
import json
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perf_names import is_plt  # noqa: E402


def fail(msg):
    print(msg)
    sys.exit(1)


def rows(path):
    d = json.load(open(path))
    return d, {(r['dso'], r['symbol']): r for r in d['functions']}


def samples(path):
    out = {}
    for line in open(path):
        f = line.split(None, 2)
        if len(f) == 3 and f[0].isdigit():
            out[(f[1], f[2].strip())] = int(f[0])
    return out


def zcrit(conf):
    lo, hi = 0.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if math.erfc(mid / math.sqrt(2)) > 1 - conf else (lo, mid)
    return lo


def plt_apart(b, n, r):
    """The perf report rows that are PLT stubs or _init named otherwise
    than in pmprof's diff (perf_names.py says why), once each DSO's
    stubs hold the same samples on both sides: no z to compare for them."""
    apart = {k for k in set(b) | set(n) if k not in r and is_plt(k[1])}
    for dso in {k[0] for k in apart}:
        perf = [sum(c.get(k, 0) for k in c if k[0] == dso and is_plt(k[1]))
                for c in (b, n)]
        mine = [sum(v['samples'] - v['samples_delta'] for k, v in r.items()
                    if k[0] == dso and is_plt(k[1])),
                sum(v['samples'] for k, v in r.items() if k[0] == dso and is_plt(k[1]))]
        if perf != mine:
            fail('%s: PLT stubs and _init: perf report\'s samples %s, the diff\'s %s'
                 % (dso, perf, mine))
    return apart


def check_z(diff, bpath, npath):
    d, r = rows(diff)
    b, n = samples(bpath), samples(npath)
    nb, nn = sum(b.values()), sum(n.values())
    zc = zcrit(d['confidence'])
    apart = plt_apart(b, n, r)
    for k in set(b) | set(n):
        if k in apart:
            continue
        if k not in r:
            fail('%s %s: not in the diff' % k)
        xb, xn = b.get(k, 0), n.get(k, 0)
        p = (xb + xn) / (nb + nn)
        z = (xn / nn - xb / nb) / math.sqrt(p * (1 - p) * (1 / nb + 1 / nn))
        if abs(z - r[k]['z']) > 0.01:
            fail('%s %s: z %.3f, expected %.3f' % (k + (r[k]['z'], z)))
        if r[k]['significant'] != (abs(z) > zc):
            fail('%s %s: significant %s with z %.3f' % (k + (r[k]['significant'], z)))


def check_perf(diff, perf):
    _, r = rows(diff)
    by_sym = {}
    for k, v in r.items():
        by_sym.setdefault(k[1], []).append(v)
    seen = 0
    for line in open(perf):
        m = re.match(r'\s+([0-9.]+)%\s+([-+][0-9.]+)%\s+(\S+)\s+\[.\]\s+(.*\S)', line)
        if not m:
            continue
        base, delta, dso, sym = float(m[1]), float(m[2]), m[3], m[4]
        mine = r.get((dso, sym))
        if not mine and is_plt(sym):
            continue    # named apart: its samples are check_z's
        if not mine:
            fail('%s %s: in perf diff, not in pmprof diff' % (dso, sym))
        if abs(mine['baseline'] - base) > 0.0051 or abs(mine['delta'] - delta) > 0.0051:
            fail('%s: Baseline %.4f Delta %.4f, perf diff %.2f %+.2f' %
                 (sym, mine['baseline'], mine['delta'], base, delta))
        seen += 1
    if seen < 7:
        fail('only %d symbols compared with perf diff' % seen)


def check_sig(diff, pairs):
    _, r = rows(diff)
    by_sym = {k[1]: v for k, v in r.items()}
    for p in pairs:
        name, want = p.split('=')
        if name not in by_sym:
            fail(name + ': not in the diff')
        got = by_sym[name]['significant']
        if got != (want == 'yes'):
            fail('%s: significant %s (z %.2f), expected %s' % (name, got, by_sym[name]['z'], want))


def check_folded(path, nb, nn):
    sb = sn = 0
    for line in open(path):
        f = line.rsplit(' ', 2)
        sb, sn = sb + int(f[1]), sn + int(f[2])
    if (sb, sn) != (int(nb), int(nn)):
        fail('folded adds up to %d and %d, the recordings have %s and %s' % (sb, sn, nb, nn))


def check_colours(dom, name, change):
    text = open(dom).read()
    if 'data-ready="yes"' not in text:
        fail('the page did not run to its end')
    if re.search(r'<pre id="pm-errors">[^<]', text):
        fail('the page caught an error')
    red = change == 'grew'
    tags = [t for t in re.findall(r'<div class="pm-frame[^>]*>', text)
            if 'data-name="%s"' % name in t]
    if not tags:
        fail(name + ': no frame')
    for m in tags:
        if 'data-change="%s"' % change not in m:
            fail('%s: not marked %s: %s' % (name, change, m))
        rgb = re.search(r'rgb\((\d+), (\d+), (\d+)\)', m)
        if not rgb:
            fail(name + ': no colour: ' + m)
        r, _, b = map(int, rgb.groups())
        if (r > b) != red:
            fail('%s: colour %s, expected %s' % (name, rgb[0], 'red' if red else 'blue'))


def check_metrics(diff, bpath, npath):
    _, r = rows(diff)
    side = [{(f['dso'], f['symbol']): f for f in json.load(open(p))['functions']}
            for p in (bpath, npath)]
    seen = 0
    for k in set(side[0]) & set(side[1]):
        b, n, d = side[0][k], side[1][k], r[k]
        for m, vn in n['metrics'].items():
            vb = b['metrics'][m]
            (bl, bh), (nl, nh) = b['ci95'][m], n['ci95'][m]
            want = (vn, vn - vb, nh < bl or nl > bh)
            got = (d['metrics_' + m], d['metrics_%s_delta' % m], d['metrics_%s_sig' % m])
            if abs(got[0] - want[0]) > 1e-9 or abs(got[1] - want[1]) > 1e-9 or got[2] != want[2]:
                fail('%s %s: %s %s, expected %s' % (k[1], m, m, got, want))
            seen += 1
    if seen < 10:
        fail('only %d metrics compared' % seen)


mode, args = sys.argv[1], sys.argv[2:]
{'z': lambda: check_z(*args), 'perf': lambda: check_perf(*args),
 'metrics': lambda: check_metrics(*args), 'sig': lambda: check_sig(args[0], args[1:]),
 'folded': lambda: check_folded(*args), 'colours': lambda: check_colours(*args)}[mode]()
