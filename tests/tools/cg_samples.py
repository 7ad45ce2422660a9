#!/usr/bin/env python3
"""A perf.data whose samples are a set a test chose, exactly.

    cg_samples.py [--seed N] IN.data ADDRESSES SPEC OUT.data

IN.data is a real `perf record -e cpu-clock -g` recording of
tests/programs/cg-frames (its maps, comms, attributes and features are
kept); ADDRESSES is what that run printed ("NAME ADDRESS" lines). Its
samples are replaced, where its last sample was (and at that sample's
time, pid and tid), by SPEC's: one line per kind of sample,

    COUNT PERIOD FRAME[;FRAME...]

COUNT samples of PERIOD each whose call chain is the frames, the sampled
function first (all the samples written in an order shuffled by N,
default 16) (user space: PERF_CONTEXT_USER, then each address). A
frame is a NAME of ADDRESSES (its address plus 4: inside it), NAME+N, or
a bare 0xADDRESS (outside every map: an unresolved frame). FRAME: (one
frame, a colon after it) is a sample there with no call chain entries
(the context marker only), as the kernel leaves some. Blank lines and
lines starting with '#' are left out.

The samples of the recording that perf and pmprof then read are known:
ties between siblings are exact, remainders are what the test wrote.
"""
import random
import struct
import sys

PERF_CONTEXT_USER = 0xfffffffffffffe00
RECORD_SAMPLE = 9
MISC_USER = 2
# IP | TID | TIME | CALLCHAIN | PERIOD: what perf record -e cpu-clock -g
# writes for one event
SAMPLE_TYPE = 0x1 | 0x2 | 0x4 | 0x20 | 0x100


def die(msg):
    raise SystemExit('cg_samples.py: %s' % msg)


def u64(b, off):
    return struct.unpack_from('<Q', b, off)[0]


def addresses(path):
    out = {}
    for line in open(path):
        parts = line.split()
        if len(parts) == 2:
            out[parts[0]] = int(parts[1], 16)
    return out


def frame_address(word, addrs):
    if word.startswith('0x'):
        return int(word, 16)
    name, _, off = word.partition('+')
    if name not in addrs:
        die('frame %r: not in the addresses' % word)
    return addrs[name] + (int(off, 0) if off else 4)


def spec_samples(path, addrs):
    for n, line in enumerate(open(path), 1):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        try:
            count, period, frames = line.split()
            bare = frames.endswith(':')
            chain = [frame_address(f, addrs) for f in frames.rstrip(':').split(';')]
            yield int(count), int(period), chain, bare
        except ValueError:
            die('%s:%d: not COUNT PERIOD FRAMES: %r' % (path, n, line))


def main(argv):
    seed = 16
    if argv[1:2] == ['--seed']:
        seed = int(argv[2])
        argv = argv[:1] + argv[3:]
    if len(argv) != 5:
        die('usage: cg_samples.py IN.data ADDRESSES SPEC OUT.data')
    b = open(argv[1], 'rb').read()
    if b[:8] != b'PERFILE2':
        die('%s: not a perf.data file' % argv[1])
    attr_size, attrs_off, attrs_len = u64(b, 16), u64(b, 24), u64(b, 32)
    data_off, data_len = u64(b, 40), u64(b, 48)
    if attrs_len != attr_size:
        die('%s: one event wanted, %d there' % (argv[1], attrs_len // attr_size))
    if u64(b, attrs_off + 24) != SAMPLE_TYPE:
        die('%s: sample_type %#x, not -e cpu-clock -g' % (argv[1], u64(b, attrs_off + 24)))
    addrs = addresses(argv[2])
    samples = list(spec_samples(argv[3], addrs))

    records, last = [], None
    pos, end = data_off, data_off + data_len
    while pos < end:
        typ, _, size = struct.unpack_from('<IHH', b, pos)
        if size < 8:
            die('%s: offset %d: a record of %d bytes' % (argv[1], pos, size))
        if typ == RECORD_SAMPLE:
            last = len(records)
            # ip, pid, tid, time: what the made-up samples take
            keep = struct.unpack_from('<QIIQ', b, pos + 8)
            records.append(None)
        else:
            records.append(b[pos:pos + size])
        pos += size
    if last is None:
        die('%s: no samples to take a time and a thread from' % argv[1])
    _, pid, tid, time = keep
    made = []
    for count, period, chain, bare in samples:
        ip, chain = chain[0], [] if bare else chain
        body = struct.pack('<QIIQQQ', ip, pid, tid, time, period, len(chain) + 1)
        body += struct.pack('<%dQ' % (len(chain) + 1), PERF_CONTEXT_USER, *chain)
        rec = struct.pack('<IHH', RECORD_SAMPLE, MISC_USER, 8 + len(body)) + body
        made += [rec] * count
    # in an order of their own, not SPEC's: where two samples come in
    # must not decide where their frames show
    random.Random(seed).shuffle(made)
    records[last] = b''.join(made)
    data = b''.join(r for r in records if r)

    # the features' index follows the data, their sections after it: all
    # move by what the data grew
    delta = len(data) - data_len
    bitmap = int.from_bytes(b[72:104], 'little')
    index = data_off + data_len
    nfeat = bin(bitmap).count('1')
    secs = bytearray(b[index:index + 16 * nfeat])
    for i in range(nfeat):
        off = u64(secs, 16 * i)
        struct.pack_into('<Q', secs, 16 * i, off + delta)
    head = bytearray(b[:data_off])
    struct.pack_into('<Q', head, 48, len(data))
    with open(argv[4], 'wb') as f:
        f.write(bytes(head) + data + bytes(secs) + b[index + 16 * nfeat:])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
