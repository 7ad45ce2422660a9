#!/usr/bin/env python3
"""The user stack dumps of a --call-graph dwarf recording, read and padded.

    stack_dumps.py pad IN.data OUT.data
    stack_dumps.py cut IN.data PERF_SCRIPT PMPROF_SCRIPT

pad: OUT is IN with one 8-byte word of zeros appended to every sample's
user stack dump (its size and dyn_size, and the record's size, 8 more).
perf 6.1's libunwind reader takes an address for outside the dump when
the word there ends at the dump's end or past it: it never reads the
dump's last word. In the padded copy that word is the padding, so perf
sees every byte the sample carried.

cut: the samples whose call chain perf (PERF_SCRIPT, `perf script -F
tid,time,ip,sym,dso` of IN) ends earlier than pmprof (PMPROF_SCRIPT, the
same from `pmprof script`), perf's made-up entry at -1 (where perf
could not unwind to the stack's end) left out. Each must be that
off-by-one: perf's chain is pmprof's first frames, and the first frame
perf lacks is the return address in the dump's last word (its address in
its file and the file, by the recording's maps, are the frame's).
Prints the samples, how many perf ends at -1, how many it ends before
pmprof and how many of those at the last word; exit 1 (with the
samples) if any shorter chain is not.

Only what perf record --call-graph dwarf and pmprof record write: one
sample layout for all events, no PERF_SAMPLE_READ or BRANCH_STACK, a
perf.data file (not a pipe), uncompressed records.
"""
import collections
import os
import re
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perf_names import PERF_CUT  # noqa: E402

RECORD_MMAP, RECORD_SAMPLE, RECORD_MMAP2 = 1, 9, 10
RECORD_COMPRESSED = 81
# sample_type bits, in the order the fields follow one another
IDENTIFIER, IP, TID, TIME, ADDR, READ, CALLCHAIN, ID, CPU, PERIOD = \
    1 << 16, 1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 4, 1 << 5, 1 << 6, 1 << 7, 1 << 8
STREAM_ID, RAW, BRANCH_STACK, REGS_USER, STACK_USER = \
    1 << 9, 1 << 10, 1 << 11, 1 << 12, 1 << 13
PAD = 8


def die(msg):
    raise SystemExit('stack_dumps.py: %s' % msg)


def u64(b, off):
    return struct.unpack_from('<Q', b, off)[0]


class Recording:
    def __init__(self, path):
        self.path = path
        b = self.b = open(path, 'rb').read()
        if b[:8] != b'PERFILE2':
            die('%s: not a perf.data file' % path)
        attr_size, attrs_off, attrs_len = u64(b, 16), u64(b, 24), u64(b, 32)
        self.data_off, self.data_len = u64(b, 40), u64(b, 48)
        layouts = set()
        for a in range(attrs_off, attrs_off + attrs_len, attr_size):
            layouts.add((u64(b, a + 24), u64(b, a + 80)))
        if len(layouts) != 1:
            die('%s: events with different sample layouts' % path)
        self.sample_type, regs_mask = layouts.pop()
        if self.sample_type & (READ | BRANCH_STACK):
            die('%s: samples with READ or BRANCH_STACK' % path)
        if not self.sample_type & STACK_USER:
            die('%s: no user stack dumps (not --call-graph dwarf)' % path)
        self.nregs = bin(regs_mask).count('1')

    def records(self):
        """(offset, type, size) of every record of the data section."""
        pos, end = self.data_off, self.data_off + self.data_len
        while pos < end:
            typ, _, size = struct.unpack_from('<IHH', self.b, pos)
            if size < 8 or pos + size > end:
                die('%s: offset %d: a record of %d bytes' % (self.path, pos, size))
            if typ == RECORD_COMPRESSED:
                die('%s: offset %d: compressed records' % (self.path, pos))
            yield pos, typ, size
            pos += size

    def sample(self, pos):
        """A sample's pid, tid, time (ns) and the offset of its stack
        dump's size field."""
        b, st, off = self.b, self.sample_type, pos + 8
        pid = tid = time = None
        for bit in (IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD):
            if st & bit:
                if bit == TID:
                    pid, tid = struct.unpack_from('<ii', b, off)
                elif bit == TIME:
                    time = u64(b, off)
                off += 8
        if st & CALLCHAIN:
            off += 8 + 8 * u64(b, off)
        if st & RAW:
            off += 4 + struct.unpack_from('<I', b, off)[0]
        if st & REGS_USER:
            off += 8 + (8 * self.nregs if u64(b, off) else 0)
        return pid, tid, time, off


def pad(src, dst):
    rec = Recording(src)
    b, out = rec.b, []
    for pos, typ, size in rec.records():
        r = b[pos:pos + size]
        if typ == RECORD_SAMPLE:
            stack = rec.sample(pos)[3] - pos
            dump = u64(r, stack)
            # a dump the kernel copied nothing into (dyn_size 0: the
            # stack page was not there) stays empty: a word there would
            # be a stack the sample never had
            if dump and u64(r, stack + 8 + dump):
                if size + PAD > 0xffff:
                    die('%s: offset %d: no room for %d bytes more' % (src, pos, PAD))
                # the padding goes where the dump's words end (dyn_size),
                # before the bytes past them (none, where the stack
                # filled the dump)
                body = stack + 8
                dyn = u64(r, body + dump)
                r = bytearray(r[:stack] + struct.pack('<Q', dump + PAD) +
                              r[body:body + dyn] + bytes(PAD) + r[body + dyn:body + dump] +
                              struct.pack('<Q', dyn + PAD) + r[body + dump + 8:])
                struct.pack_into('<H', r, 6, size + PAD)
                r = bytes(r)
        out.append(r)
    data = b''.join(out)
    # the features' index follows the data, their sections after it: all
    # move by what the data grew
    delta = len(data) - rec.data_len
    index = rec.data_off + rec.data_len
    nfeat = bin(int.from_bytes(b[72:104], 'little')).count('1')
    secs = bytearray(b[index:index + 16 * nfeat])
    for i in range(nfeat):
        struct.pack_into('<Q', secs, 16 * i, u64(secs, 16 * i) + delta)
    head = bytearray(b[:rec.data_off])
    struct.pack_into('<Q', head, 48, len(data))
    with open(dst, 'wb') as f:
        f.write(bytes(head) + data + bytes(secs) + b[index + 16 * nfeat:])


HEAD = re.compile(r'^\s*(\d+)\s+(\d+)\.(\d+):\s*$')
FRAME = re.compile(r'^\s+([0-9a-f]+) (.*) \((.*)\)$')


def chains(path):
    """{(tid, time in us): [[(address, dso)...]...]} of a script's text,
    and how many chains end in perf's made-up entry."""
    out, cur, ncut = collections.defaultdict(list), None, 0
    for line in open(path, encoding='utf-8', errors='replace'):
        m = HEAD.match(line)
        if m:
            cur = []
            out[(int(m.group(1)), int(m.group(2)) * 1000000 + int(m.group(3)))].append(cur)
            continue
        m = FRAME.match(line)
        if m and cur is not None:
            if m.group(1) == PERF_CUT:
                ncut += 1
            else:
                cur.append((int(m.group(1), 16), m.group(3)))
    return out, ncut


def last_words(rec):
    """(tid, time in us) -> [(file address, file) of the dump's last word,
    by the maps of its process at the time]; file None where no map
    holds it."""
    b, maps, out = rec.b, collections.defaultdict(list), collections.defaultdict(list)
    for pos, typ, size in rec.records():
        if typ in (RECORD_MMAP, RECORD_MMAP2):
            pid, _, start, length, pgoff = struct.unpack_from('<IIQQQ', b, pos + 8)
            name = b[pos + (72 if typ == RECORD_MMAP2 else 40):pos + size]
            maps[pid].append((start, length, pgoff, name.split(b'\0')[0].decode()))
        elif typ == RECORD_SAMPLE:
            pid, tid, time, stack = rec.sample(pos)
            dump = u64(b, stack)
            if not dump:
                continue
            dyn = u64(b, stack + 8 + dump)
            key = (tid, time // 1000)
            if dyn < 8:
                out[key].append(None)
                continue
            word = u64(b, stack + 8 + dyn - 8)
            where = (word, None)
            # the latest map holding it: a later mmap covers an earlier
            for start, length, pgoff, name in reversed(maps[pid]):
                if start <= word < start + length:
                    where = (word - start + pgoff, name)
                    break
            out[key].append(where)
    return out


def cut(data, perf_path, pmprof_path):
    words = last_words(Recording(data))
    (perf, ncut), (pm, _) = chains(perf_path), chains(pmprof_path)
    if sorted(perf) != sorted(pm) or any(len(perf[k]) != len(pm[k]) for k in perf):
        die('%s and %s: not the same samples' % (perf_path, pmprof_path))
    n = nshort = nlast = 0
    bad = []
    for key in sorted(perf):
        for p, q in zip(perf[key], pm[key]):
            n += 1
            if len(p) >= len(q):
                continue
            nshort += 1
            # a caller's frame: its return address less one (in the
            # call), as both print it
            nxt = (q[len(p)][0] + 1, q[len(p)][1])
            # where two samples share a thread and microsecond, either's
            # last word may be this one's
            if q[:-1] == p and nxt in words.get(key, []):
                nlast += 1
            else:
                bad.append('%d %d.%06d: perf %d frames, pmprof %d, next %#x (%s), '
                           'last words %s' % (key[0], key[1] // 1000000,
                                              key[1] % 1000000, len(p), len(q),
                                              nxt[0] - 1, nxt[1], words.get(key)))
    print("%d samples, %d cut (perf's -1 entry), %d that perf ends earlier "
          "than pmprof, %d of them a frame earlier, at the return address in "
          "the dump's last word" % (n, ncut, nshort, nlast))
    for line in bad:
        print(line)
    return 1 if bad else 0


def main(argv):
    if len(argv) == 4 and argv[1] == 'pad':
        pad(argv[2], argv[3])
        return 0
    if len(argv) == 5 and argv[1] == 'cut':
        return cut(argv[2], argv[3], argv[4])
    die('usage: stack_dumps.py pad IN.data OUT.data | cut IN.data PERF_SCRIPT PMPROF_SCRIPT')


if __name__ == '__main__':
    sys.exit(main(sys.argv))
