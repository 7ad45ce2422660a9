#!/usr/bin/env python3
"""Fold `perf script -F ip,sym` output into stacks and compare them with
pmprof's `--format folded`, independently of pmprof's code.

    fold_perf_script.py [--flat] PERF_SCRIPT_OUTPUT PMPROF_FOLDED

perf script prints each sample's frames (callee first, "ADDR SYMBOL" a
line) and a blank line after it; without call chains (--flat) a line is
a sample. Frames perf cannot name ("[unknown]")
are named by their address in pmprof, so both sides call those
"[unknown]". Where the stacks differ, PLT stubs and _init are one name
(perf_names.py says why; folded frames name no DSO) and perf's made-up
entry of a cut stack is no frame. Exits 1, listing the first
differences, unless every stack has the same count on both sides.
"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perf_names import is_perf_cut_frame, plt_pooled  # noqa: E402

HEX = re.compile(r'^(0x)?[0-9a-f]{16}$')


# the second count, once the first found stacks that differ
POOL = False


def frame_name(name):
    if HEX.match(name):
        return '[unknown]'
    return plt_pooled(name) if POOL else name


def fold_perf(path, flat):
    stacks = collections.Counter()
    frames = []

    def flush():
        if frames:
            stacks[';'.join(reversed(frames))] += 1
            frames.clear()

    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                flush()
                continue
            addr, _, sym = line.partition(' ')
            if is_perf_cut_frame(addr):
                continue
            frames.append(frame_name(sym.strip() or '[unknown]'))
            if flat:
                flush()
    flush()
    return stacks


def read_folded(path):
    stacks = collections.Counter()
    with open(path) as f:
        for n, line in enumerate(f, 1):
            stack, _, count = line.rstrip('\n').rpartition(' ')
            if not stack or not count.isdigit():
                sys.exit(f'{path}:{n}: not a folded line: {line!r}')
            stacks[';'.join(frame_name(x) for x in stack.split(';'))] += int(count)
    return stacks


def main():
    args = sys.argv[1:]
    flat = args[:1] == ['--flat']
    if flat:
        args = args[1:]
    perf = fold_perf(args[0], flat)
    ours = read_folded(args[1])
    if perf != ours:
        global POOL
        POOL = True
        perf = fold_perf(args[0], flat)
        ours = read_folded(args[1])
    if perf == ours:
        print(f'{len(perf)} stacks, {sum(perf.values())} samples equal')
        return 0
    diffs = [(k, perf.get(k, 0), ours.get(k, 0)) for k in sorted(set(perf) | set(ours))
             if perf.get(k, 0) != ours.get(k, 0)]
    print(f'{len(diffs)} stacks differ (perf, pmprof):')
    for k, a, b in diffs[:10]:
        print(f'  {a} {b} {k}')
    return 1


if __name__ == '__main__':
    sys.exit(main())
