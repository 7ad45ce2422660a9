#!/usr/bin/env python3
"""Write the hostile perf.data files of tests/data/hostile/ (issue 13,
item 18: no length read from a file may size an allocation or an output
beyond what the file holds or the format allows). Each is a real perf 6.1
recording of tests/data/ with a few bytes changed:

  attrs-offset0.data     group-fp.data with the header's attrs offset 0:
                         the attrs overlap the header and the first attr's
                         size field is the magic's "ILE2", 843,402,313
  attr-size-256m.data    group-fp.data, the first attr's size 0x10000000
  attr-slot-huge.data    group-fp.data, header attr_size 0x10000010 (and
                         the attrs section that big, so the count fits)
  ids-overlap.data       group-fp.data, every event's id section over the
                         whole file after the header (the same bytes read
                         as ids for each event)
  event-desc-attr.data   group-fp.data, the first EVENT_DESC attr's size
                         0x10000000
  pipe-attr-8k.data      pipe.data with its HEADER_ATTR grown to carry an
                         attr whose size says 8192 (more than a page)
  pipe-tracing-4g.data   pipe.data cut after its header records, then a
                         HEADER_TRACING_DATA record whose payload says
                         0xfffffff8 bytes and a few bytes of it

usage: make-hostile-data.py TESTS_DATA_DIR OUT_DIR
"""
import os
import struct
import sys

src, out = sys.argv[1], sys.argv[2]


def load(name):
    with open(os.path.join(src, name), 'rb') as f:
        return bytearray(f.read())


def save(name, b):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(bytes(b))


def u64(b, off):
    return struct.unpack_from('<Q', b, off)[0]


g = load('group-fp.data')
attr_size, attrs_off, attrs_len = u64(g, 16), u64(g, 24), u64(g, 32)
nattrs = attrs_len // attr_size

b = bytearray(g)
struct.pack_into('<Q', b, 24, 0)
save('attrs-offset0.data', b)

b = bytearray(g)
struct.pack_into('<I', b, attrs_off + 4, 0x10000000)
save('attr-size-256m.data', b)

b = bytearray(g)
struct.pack_into('<QQ', b, 16, 0x10000010, 0)
struct.pack_into('<Q', b, 32, 0x10000010)
save('attr-slot-huge.data', b)

b = bytearray(g)
for i in range(nattrs):
    ids = attrs_off + i * attr_size + attr_size - 16
    struct.pack_into('<QQ', b, ids, 104, (len(b) - 104) // 8 * 8)
save('ids-overlap.data', b)

# EVENT_DESC is feature 12: find its section through the feature index.
b = bytearray(g)
bitmap = u64(b, 72)
idx = u64(b, 40) + u64(b, 48)
for feat in range(1, 12):
    if bitmap >> feat & 1:
        idx += 16
assert bitmap >> 12 & 1
desc = u64(b, idx)
# u32 nr, u32 attr_size, then the first attr: its size field at +4
struct.pack_into('<I', b, desc + 8 + 4, 0x10000000)
save('event-desc-attr.data', b)

p = load('pipe.data')
# The first record is HEADER_ATTR (type 64) right after the 16-byte header.
typ, misc, size = struct.unpack_from('<IHH', p, 16)
assert typ == 64
body = p[24:16 + size]
asize = struct.unpack_from('<I', body, 4)[0]
ids = body[asize:]
attr = bytearray(body[:asize]) + bytes(8192 + 8 - asize)
struct.pack_into('<I', attr, 4, 8192)
rec = struct.pack('<IHH', 64, misc, 8 + len(attr) + len(ids)) + attr + ids
save('pipe-attr-8k.data', p[:16] + rec + p[16 + size:])

# Up to the first record that is not a header record (type < 64).
pos = 16
while True:
    typ, misc, size = struct.unpack_from('<IHH', p, pos)
    if typ < 64 or typ == 82:
        break
    pos += size
tracing = struct.pack('<IHHI', 66, 0, 16, 0xfffffff8) + bytes(4) + bytes(64)
save('pipe-tracing-4g.data', p[:pos] + tracing)
