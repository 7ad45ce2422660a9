#!/usr/bin/env python3
"""Checks of report -T and READ records against perf (tests/cli/threads-perf.sh).

  threads_check.py table PERF_T.txt PMPROF.json
      perf report -T --stdio's per-thread table (the "#  PID  TID EVENT..."
      header, then one row of numbers per thread, the report's last lines)
      equals the "threads" table of pmprof report -T --format json: the
      same threads in the same order, the same events, the same values.
  threads_check.py text PERF_T.txt PMPROF.txt
      the same, pmprof's text output parsed as perf's is.
  threads_check.py csv PMPROF.csv PMPROF.json
      the threads rows of pmprof report -T --format csv (those with a PID)
      are the JSON table's.
  threads_check.py empty PERF_T.txt PMPROF.json
      both tables are there and have no rows (a recording without READ).
  threads_check.py reads PERF_D.txt PMPROF_DUMP.json
      every READ record as perf script -D decodes it (offset, pid, tid,
      event, value, time enabled and running, id) is pmprof dump's READ
      record at that offset with the same fields, and there is no other.
"""
import json
import re
import sys


def perf_table(path):
    """(events, [(pid, tid, {event: value})]) of the last "# PID TID" table."""
    lines = open(path).read().splitlines()
    start = None
    for i, line in enumerate(lines):
        words = line.lstrip('#').split()
        if line.startswith('#') and words[:2] == ['PID', 'TID']:
            start = i
    if start is None:
        sys.exit('%s: no "# PID TID" header' % path)
    events = lines[start].lstrip('#').split()[2:]
    rows = []
    for line in lines[start + 1:]:
        if line.startswith('#') or not line.strip():
            continue
        cells = line.split()
        if len(cells) != 2 + len(events) or not all(c.isdigit() for c in cells):
            sys.exit('%s: not a row of the table: %r' % (path, line))
        nums = [int(c) for c in cells]
        rows.append((nums[0], nums[1], dict(zip(events, nums[2:]))))
    return events, rows


def pmprof_json_table(path):
    doc = json.load(open(path))
    tables = [t for t in doc.get('events', []) if 'threads' in t]
    if len(tables) != 1:
        sys.exit('%s: %d "threads" tables' % (path, len(tables)))
    rows = [(r['pid'], r['tid'], r['counts']) for r in tables[0]['threads']]
    events = list(rows[0][2]) if rows else []
    return events, rows


def pmprof_csv_table(path, events):
    import csv
    rows = list(csv.reader(open(path)))
    head = rows[0]
    pid, tid = head.index('PID'), head.index('TID')
    out = []
    for r in rows[1:]:
        if r[pid]:
            counts = {e: int(r[head.index(e)]) for e in events}
            out.append((int(r[pid]), int(r[tid]), counts))
    return events, out


def same(a, b, what):
    if a != b:
        sys.exit('%s differ:\n  perf   %r\n  pmprof %r' % (what, a, b))


def check_tables(perf, pm):
    same(perf[0], pm[0], 'event columns')
    same(perf[1], pm[1], 'threads')
    if not perf[1]:
        sys.exit('no threads in the table: nothing compared')
    print('%d threads, %d events: equal' % (len(perf[1]), len(perf[0])))


READ_RE = re.compile(r'^\d+ (0x[0-9a-f]+) \[0x[0-9a-f]+\]: PERF_RECORD_READ: '
                     r'(\d+) (\d+) (\S+) (\d+)$')
FIELD_RE = re.compile(r'^\.\.\. (time enabled|time running|id)\s+: (\d+)$')
KEYS = {'time enabled': 'time_enabled', 'time running': 'time_running', 'id': 'id'}


def perf_reads(path):
    reads, cur = {}, None
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        m = READ_RE.match(line)
        if m:
            off = int(m.group(1), 16)
            cur = reads[off] = {'pid': int(m.group(2)), 'tid': int(m.group(3)),
                                'event': m.group(4), 'value': int(m.group(5))}
            continue
        m = FIELD_RE.match(line)
        if m and cur is not None:
            cur[KEYS[m.group(1)]] = int(m.group(2))
        elif not line.startswith('...'):
            cur = None
    return reads


def pmprof_reads(path):
    reads = {}
    for line in open(path):
        rec = json.loads(line)
        if rec.get('type') == 'READ':
            reads[rec['offset']] = rec
    return reads


def check_reads(perf_path, pm_path):
    perf, pm = perf_reads(perf_path), pmprof_reads(pm_path)
    if not perf:
        sys.exit('%s: no READ records' % perf_path)
    same(sorted(perf), sorted(pm), 'READ record offsets')
    for off, want in perf.items():
        got = {k: pm[off].get(k) for k in want}
        same(want, got, 'READ at offset %#x' % off)
    print('%d READ records: equal' % len(perf))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    mode, a, b = sys.argv[1:]
    if mode == 'table':
        check_tables(perf_table(a), pmprof_json_table(b))
    elif mode == 'text':
        check_tables(perf_table(a), perf_table(b))
    elif mode == 'csv':
        pm = pmprof_json_table(b)
        check_tables(pm, pmprof_csv_table(a, pm[0]))
    elif mode == 'empty':
        perf, pm = perf_table(a), pmprof_json_table(b)
        same(perf[1], [], 'perf\'s table rows')
        same(pm[1], [], 'pmprof\'s table rows')
        print('both tables empty')
    elif mode == 'reads':
        check_reads(a, b)
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
