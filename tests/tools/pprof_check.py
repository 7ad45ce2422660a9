#!/usr/bin/env python3
"""Compare what `go tool pprof` reads from pmprof's pprof output with
pmprof's own report, folded stacks and per-thread tables (each computed
apart, from the same recording).

    pprof_check.py traces PPROF_TRACES FOLDED
        -traces' stacks (summed by function names) equal the folded ones
    pprof_check.py top PPROF_TOP REPORT_CSV [COLUMN [EVENT]]
        -top's flat values per function equal the report's Samples (or
        COLUMN) per symbol (--sort sym), of EVENT's table if given
    pprof_check.py tags PPROF_TAGS KEY REPORT_CSV COLUMN
        -tags' counts per KEY value equal the report's Samples per COLUMN
    pprof_check.py total PPROF_TOP N
        -top's total is N
    pprof_check.py buildids PPROF_RAW PERF_BUILDID_LIST
        every mapping -raw lists has the build id perf buildid-list gives
        its file
    pprof_check.py lines PPROF_RAW BINARY
        every location in BINARY's mappings has the line addr2line gives
        its file address

Frames pprof cannot name ("<unknown>", or "[libc.so.6]" and "[[vdso]]":
the object's base name, for an address it has no function for) and pmprof's address
names are all "[unknown]". Exits 1 with the first differences.
"""
import collections
import csv
import re
import sys

HEX = re.compile(r'^(0x)?[0-9a-f]{16}$')


OBJECT = re.compile(r'^\[.+\]$')


def frame(name):
    name = name.strip()
    return '[unknown]' if name == '<unknown>' or HEX.match(name) else name


def pprof_frame(name):
    """pprof shows a location with a mapping but no function as the
    mapping's base name in brackets: pmprof's [unknown] in that object"""
    name = frame(name)
    return '[unknown]' if OBJECT.match(name) else name


def parse_traces(path):
    stacks = collections.Counter()
    value, frames = None, []

    def flush():
        if value is not None:
            stacks[';'.join(reversed(frames))] += value

    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('-----------+'):
                flush()
                value, frames = None, []
                continue
            m = re.match(r'^\s*(\d+)\s{3}(\S.*)$', line)
            if value is None and m:
                value, frames = int(m.group(1)), [pprof_frame(m.group(2))]
            elif value is not None and re.match(r'^\s{13}\S', line):
                frames.append(pprof_frame(line))
    flush()
    return stacks


def read_folded(path):
    stacks = collections.Counter()
    with open(path) as f:
        for line in f:
            stack, _, n = line.rstrip('\n').rpartition(' ')
            stacks[';'.join(frame(x) for x in stack.split(';'))] += int(n)
    return stacks


def parse_top(path):
    flat, total = collections.Counter(), None
    with open(path) as f:
        for line in f:
            m = re.search(r'of (\d+) total', line)
            if m:
                total = int(m.group(1))
            m = re.match(r'^\s*(\d+)\s+\S+%\s+\S+%\s+\d+\s+\S+%\s+(.+)$', line)
            if m:
                flat[pprof_frame(m.group(2))] += int(m.group(1))
    return flat, total


def report_rows(path, column, value='Samples', event=None):
    rows = collections.Counter()
    with open(path) as f:
        for r in csv.DictReader(f):
            if event and r.get('Event', event) != event:
                continue
            key = r[column]
            if column == 'Symbol':
                key = frame(re.sub(r'^\[.\] ', '', key))
            rows[key] += int(r[value])
    return rows


def parse_tags(path, key):
    counts, inside = collections.Counter(), False
    with open(path) as f:
        for line in f:
            if re.match(r'^\s*%s: Total' % re.escape(key), line):
                inside = True
                continue
            if inside:
                m = re.match(r'^\s*([\d.]+) \(\s*[\d.]+%\): (.*)$', line)
                if not m:
                    break
                counts[m.group(2).strip()] += int(float(m.group(1)))
    return counts


def parse_raw(path):
    maps, locs, part = {}, [], None
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line in ('Locations', 'Mappings'):
                part = line
                continue
            if part == 'Mappings':
                m = re.match(r'^\s*(\d+): 0x([0-9a-f]+)/0x([0-9a-f]+)/0x([0-9a-f]+) (\S+) ?(\S*)', line)
                if m:
                    maps[int(m.group(1))] = (int(m.group(2), 16), int(m.group(3), 16),
                                             int(m.group(4), 16), m.group(5),
                                             m.group(6) if not m.group(6).startswith('[') else '')
            elif part == 'Locations':
                m = re.match(r'^\s*\d+: 0x([0-9a-f]+) M=(\d+) (\S+) (\S*):(\d+)', line)
                if m:
                    locs.append((int(m.group(1), 16), int(m.group(2)), m.group(3),
                                 int(m.group(5))))
    return maps, locs


def check_buildids(raw, listing):
    maps, _ = parse_raw(raw)
    want = {}
    with open(listing) as f:
        for line in f:
            bid, _, name = line.strip().partition(' ')
            want[name] = bid
    bad = [(m[3], m[4], want.get(m[3])) for m in maps.values()
           if m[3] in want and m[4] != want[m[3]]]
    seen = [m for m in maps.values() if m[3] in want]
    if bad or not seen:
        print(f'build ids differ (file, pprof, perf): {bad or "no mapping perf knows"}')
        return 1
    print(f'{len(seen)} mappings with perf\'s build ids')
    return 0


def check_lines(raw, binary):
    import subprocess
    maps, locs = parse_raw(raw)
    mine = [(a - maps[m][0] + maps[m][2], line) for a, m, fn, line in locs
            if m in maps and maps[m][3] == binary]
    if not mine:
        print(f'no location in {binary}')
        return 1
    out = subprocess.run(['addr2line', '-e', binary] + ['%#x' % a for a, _ in mine],
                         capture_output=True, text=True, check=True).stdout.split('\n')
    bad = []
    for (a, line), got in zip(mine, out):
        m = re.search(r':(\d+)', got)
        want = int(m.group(1)) if m else 0
        if want != line:
            bad.append((hex(a), line, want))
    if bad:
        print(f'lines differ (address, pprof, addr2line): {bad[:10]}')
        return 1
    print(f'{len(mine)} locations with addr2line\'s lines')
    return 0


def same(what, a, b):
    a = {k: v for k, v in a.items() if v}
    b = {k: v for k, v in b.items() if v}
    if a == b:
        print(f'{what}: {len(a)} keys, {sum(a.values())} in all, equal')
        return 0
    print(f'{what} differ (pprof, pmprof):')
    for k in sorted(set(a) | set(b)):
        if a.get(k, 0) != b.get(k, 0):
            print(f'  {a.get(k, 0)} {b.get(k, 0)} {k}')
    return 1


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == 'traces':
        return same('stacks', parse_traces(args[0]), read_folded(args[1]))
    if mode == 'top':
        flat, _ = parse_top(args[0])
        value = args[2] if len(args) > 2 else 'Samples'
        event = args[3] if len(args) > 3 else None
        return same('functions', flat, report_rows(args[1], 'Symbol', value, event))
    if mode == 'tags':
        return same(args[1], parse_tags(args[0], args[1]),
                    report_rows(args[2], args[3]))
    if mode == 'total':
        _, total = parse_top(args[0])
        if total == int(args[1]):
            print(f'total {total}')
            return 0
        print(f'total {total}, wanted {args[1]}')
        return 1
    if mode == 'buildids':
        return check_buildids(args[0], args[1])
    if mode == 'lines':
        return check_lines(args[0], args[1])
    sys.exit(f'unknown mode {mode}')


if __name__ == '__main__':
    sys.exit(main())
