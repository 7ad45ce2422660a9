#!/usr/bin/env python3
"""Compare pmprof's decoded samples with perf's own decoding, field by field.

usage: compare_perf_dump.py [--in-order] PERF_D_OUTPUT PMPROF_JSON_LINES

PERF_D_OUTPUT is `perf report -D` text; PMPROF_JSON_LINES is
`pmprof dump --format json`. Samples are matched in stream order (perf's
offsets inside compressed records differ from the file's). For each
sample: pid, tid, ip, period, addr, time and cpu (when perf prints them),
the callchain, the group read values and the user registers. The record
type sequence is compared too. Prints each difference and a summary line;
exits 1 when anything differs or nothing was compared.

With --in-order, the records must also come in the order perf delivers
them (its time order): the sequence of record types and times, and the
samples, are compared as they are, not sorted first.
"""
import json
from collections import Counter
import re
import sys

HEAD = re.compile(
    r'^(?:(?P<cpu>\d+) )?(?:(?P<time>\d+) )?(?:0x)?(?P<off>[0-9a-f]+) \[0x(?P<size>[0-9a-f]+)\]: '
    r'PERF_RECORD_(?P<type>\w+)(?P<rest>.*)$')
SAMPLE = re.compile(
    r'\(IP, 0x(?P<misc>[0-9a-f]+)\): (?P<pid>-?\d+)/(?P<tid>-?\d+): '
    r'0x(?P<ip>[0-9a-f]+) period: (?P<period>\d+) addr: 0x?(?P<addr>[0-9a-f]+)')
CHAIN = re.compile(r'^\.\.\.\.\.\s+\d+: ([0-9a-f]+)')
READ = re.compile(r'^\.\.\.\.\. id ([0-9a-f]+), value ([0-9a-f]+)(?:, lost (\d+))?')
READ1 = re.compile(r'^\.\.\.\. value: (\d+)')
REG = re.compile(r'^\.\.\.\. (\w+)\s+0x([0-9a-f]+)')

# perf's names for the records pmprof also names.
TYPE_ALIASES = {'HEADER_ATTR': 'ATTR', 'HEADER_FEATURE': 'FEATURE',
                'HEADER_TRACING_DATA': 'TRACING_DATA',
                'HEADER_BUILD_ID': 'BUILD_ID'}


def parse_perf(path):
    records, cur, section = [], None, None
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = HEAD.match(line)
            if m:
                t = m.group('type')
                cur = {'type': TYPE_ALIASES.get(t, t)}
                if m.group('time') is not None:
                    cur['time'] = int(m.group('time'))
                    cur['cpu'] = int(m.group('cpu'))
                elif m.group('cpu') is not None:
                    # one number: perf prints time alone without CPU
                    cur['time'] = int(m.group('cpu'))
                if t == 'SAMPLE':
                    s = SAMPLE.search(m.group('rest'))
                    if s:
                        cur.update(pid=int(s.group('pid')), tid=int(s.group('tid')),
                                   ip=int(s.group('ip'), 16),
                                   period=int(s.group('period')),
                                   addr=int(s.group('addr'), 16))
                    cur.update(callchain=[], read=[], regs=[])
                records.append(cur)
                section = None
                continue
            if cur is None or cur['type'] != 'SAMPLE':
                continue
            if line.startswith('... FP chain') or line.startswith('... chain'):
                section = 'chain'
            elif line.startswith('... sample_read'):
                section = 'read'
            elif line.startswith('... user regs'):
                section = 'regs'
            elif line.startswith('... ') and not line.startswith('.... '):
                section = None
            elif section == 'chain' and CHAIN.match(line):
                cur['callchain'].append(int(CHAIN.match(line).group(1), 16))
            elif section == 'read' and READ.match(line):
                m = READ.match(line)
                cur['read'].append((int(m.group(1), 16), int(m.group(2), 16)))
            elif section == 'read' and READ1.match(line):
                cur['read'].append((None, int(READ1.match(line).group(1))))
            elif section == 'regs' and REG.match(line):
                cur['regs'].append(int(REG.match(line).group(2), 16))
    return records


def parse_pmprof(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.strip():
                out.append(json.loads(line))
    return out


def record_time(r):
    """A record's time as perf prints it: a sample's, else its trailer's
    (FORK and EXIT have a time of their own in the body too)."""
    if r['type'] == 'SAMPLE':
        return r.get('time')
    return r.get('sample_id', {}).get('time')


def main():
    args = sys.argv[1:]
    in_order = args[:1] == ['--in-order']
    if in_order:
        args = args[1:]
    perf = parse_perf(args[0])
    mine = parse_pmprof(args[1])
    diffs = 0
    compared = 0

    # perf -D also prints records it synthesizes while reading; compare
    # the kinds both sides list.
    kinds = {'SAMPLE', 'MMAP', 'MMAP2', 'COMM', 'FORK', 'EXIT', 'LOST',
             'THROTTLE', 'UNTHROTTLE', 'LOST_SAMPLES', 'FINISHED_ROUND'}
    # perf prints records in the order it delivers them (time-sorted
    # between rounds), so compare how many of each type there are.
    ptypes = Counter(r['type'] for r in perf if r['type'] in kinds)
    mtypes = Counter(r['type'] for r in mine if r['type'] in kinds)
    if ptypes != mtypes:
        diffs += 1
        print('record counts differ: perf %s, pmprof %s' % (dict(ptypes), dict(mtypes)))
    if in_order:
        pseq = [(r['type'], r.get('time')) for r in perf if r['type'] in kinds]
        mseq = [(r['type'], record_time(r)) for r in mine if r['type'] in kinds]
        for i, (p, m) in enumerate(zip(pseq, mseq)):
            if p[0] != m[0] or (p[1] is not None and p[1] != m[1]):
                diffs += 1
                print('record #%d: perf %s at %s, pmprof %s at %s' % (i, p[0], p[1], m[0], m[1]))
                break

    ps = [r for r in perf if r['type'] == 'SAMPLE']
    ms = [r for r in mine if r['type'] == 'SAMPLE']
    # perf delivers samples time-ordered; the file holds them per ring
    # buffer. Put both in time order (stable, so ties keep file order).
    # In order, the sequence of types and times above holds the order;
    # samples of one timestamp (two CPUs' rings, two threads' files) have
    # no order between them: perf's depends on how it read the files.
    # Sorting changes nothing else in a time-ordered list.
    if ps and all('time' in r for r in ps) and all('time' in r for r in ms):
        key = lambda r: (r['time'], r.get('cpu', 0), r.get('tid', 0), r.get('ip', 0))
        ps.sort(key=key)
        ms.sort(key=key)
    if len(ps) != len(ms):
        diffs += 1
        print('sample count differs: perf %d, pmprof %d' % (len(ps), len(ms)))
    for i, (p, m) in enumerate(zip(ps, ms)):
        for k in ('pid', 'tid', 'ip', 'period', 'addr', 'time', 'cpu'):
            if k not in p:
                continue
            # perf prints the attr's fixed period and addr 0 for samples
            # that do not carry them; pmprof leaves such fields out.
            if k in ('period', 'addr') and k not in m:
                continue
            mv = m.get(k)
            if mv != p[k]:
                diffs += 1
                if diffs < 20:
                    print('sample #%d %s: perf %r, pmprof %r' % (i, k, p[k], mv))
        if p['callchain'] != m.get('callchain', []):
            diffs += 1
            if diffs < 20:
                print('sample #%d callchain: perf %s, pmprof %s' % (i, p['callchain'][:6], m.get('callchain', [])[:6]))
        if p['read']:
            mread = [(v.get('id'), v['value']) for v in m.get('read', [])]
            pread = [(pid, v) if pid is not None else (mread[j][0] if j < len(mread) else None, v)
                     for j, (pid, v) in enumerate(p['read'])]
            if pread != mread:
                diffs += 1
                if diffs < 20:
                    print('sample #%d read: perf %s, pmprof %s' % (i, pread, mread))
        if p['regs'] and p['regs'] != m.get('regs_user', []):
            diffs += 1
            if diffs < 20:
                print('sample #%d regs_user differ' % i)
        compared += 1
    print('%d samples compared, %d differences' % (compared, diffs))
    sys.exit(1 if diffs or not compared else 0)


if __name__ == '__main__':
    main()
