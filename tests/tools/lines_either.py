#!/usr/bin/env python3
"""lines_either.py GOT BEFORE AFTER: GOT has as many lines as BEFORE and
AFTER, and each of its lines equals the same line of BEFORE or of AFTER.

For output that names other programs' files (perf script of a
system-wide recording): a tool reads those files when it runs, and
between BEFORE and AFTER (the same command run before and after GOT's)
another build may relink its binary or a test remove its program. A line
BEFORE and AFTER agree on must be GOT's exactly. Exit 0 and print how many
lines were in flux, or print the first differences and exit 1."""
import sys


def lines(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read().splitlines()


def main():
    got, before, after = (lines(p) for p in sys.argv[1:4])
    if not (len(got) == len(before) == len(after)):
        print('line counts: %d, before %d, after %d' % (len(got), len(before), len(after)))
        return 1
    bad = flux = 0
    for i, (g, b, a) in enumerate(zip(got, before, after)):
        if b != a:
            flux += 1
        if g != b and g != a:
            bad += 1
            if bad <= 10:
                print('line %d: %r\n   before %r%s' % (
                    i + 1, g, b, '' if a == b else '\n   after  %r' % a))
    if bad:
        print('%d of %d lines differ' % (bad, len(got)))
        return 1
    if flux:
        print('%d of %d lines in flux' % (flux, len(got)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
