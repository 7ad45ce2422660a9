#!/usr/bin/env python3
"""Make a perf.data file look as if another machine had recorded it.

    refeature.py IN OUT [--osrelease S] [--hostname S]
                        [--kernel-build-id HEX | --drop-kernel-build-id]
                        [--drop-feature N]... [--kernel-text ADDR]

Rewrites the feature sections (perf.data's layout: the 104-byte header,
then after the data a {offset, size} index per feature bit, then the
sections) and, with --kernel-text, the pgoff of the kernel's
"[kernel.kallsyms]_text" MMAP (where _text was at record time). Little
endian, non-pipe files only. Written independently of pmprof's writer so
that tests can check pmprof's reader and its kernel-symbol decision with
files pmprof did not make.
"""
import argparse
import struct
import sys

FEAT_BUILD_ID, FEAT_HOSTNAME, FEAT_OSRELEASE = 2, 3, 4
PERF_RECORD_MMAP, PERF_RECORD_MMAP2 = 1, 10
MISC_KERNEL = 1
MISC_BUILD_ID_SIZE = 1 << 15


def perf_string(s):
    """u32 length (padded to 64 bytes), then the NUL-padded string."""
    raw = s.encode() + b"\0"
    n = (len(raw) + 63) // 64 * 64
    return struct.pack("<I", n) + raw.ljust(n, b"\0")


def build_ids(sec, kernel_id, drop_kernel):
    out, p = b"", 0
    while p + 8 <= len(sec):
        typ, misc, size = struct.unpack_from("<IHH", sec, p)
        if size < 36 or p + size > len(sec):
            break
        rec = sec[p:p + size]
        name = rec[36:].split(b"\0")[0]
        if misc & 7 == MISC_KERNEL and name == b"[kernel.kallsyms]":
            if drop_kernel:
                p += size
                continue
            if kernel_id is not None:
                bid = bytes.fromhex(kernel_id)
                rec = (struct.pack("<IHHi", typ, misc | MISC_BUILD_ID_SIZE, size,
                                   struct.unpack_from("<i", rec, 8)[0]) +
                       bid.ljust(20, b"\0") + bytes([len(bid)]) + b"\0" * 3 + rec[36:])
        out += rec
        p += size
    return out


def set_kernel_text(buf, data_off, data_size, addr):
    p, end, n = data_off, data_off + data_size, 0
    while p + 8 <= end:
        typ, misc, size = struct.unpack_from("<IHH", buf, p)
        if size < 8:
            break
        if typ in (PERF_RECORD_MMAP, PERF_RECORD_MMAP2) and misc & 7 == MISC_KERNEL:
            name_at = p + (40 if typ == PERF_RECORD_MMAP else 72)
            if buf[name_at:name_at + 22] == b"[kernel.kallsyms]_text":
                struct.pack_into("<Q", buf, p + 32, addr)
                n += 1
        p += size
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--osrelease")
    ap.add_argument("--hostname")
    ap.add_argument("--kernel-build-id")
    ap.add_argument("--drop-kernel-build-id", action="store_true")
    ap.add_argument("--drop-feature", type=int, action="append", default=[])
    ap.add_argument("--kernel-text", type=lambda s: int(s, 0))
    a = ap.parse_args()

    buf = bytearray(open(a.input, "rb").read())
    if buf[:8] != b"PERFILE2":
        sys.exit("%s: not a little-endian perf.data file" % a.input)
    data_off, data_size = struct.unpack_from("<QQ", buf, 40)
    bits = int.from_bytes(buf[72:104], "little")
    index = data_off + data_size
    secs = {}
    for i in range(256):
        if bits >> i & 1:
            off, size = struct.unpack_from("<QQ", buf, index + 16 * len(secs))
            secs[i] = bytes(buf[off:off + size])
    if a.osrelease is not None:
        secs[FEAT_OSRELEASE] = perf_string(a.osrelease)
    if a.hostname is not None:
        secs[FEAT_HOSTNAME] = perf_string(a.hostname)
    if FEAT_BUILD_ID in secs:
        secs[FEAT_BUILD_ID] = build_ids(secs[FEAT_BUILD_ID], a.kernel_build_id,
                                        a.drop_kernel_build_id)
    for f in a.drop_feature:
        secs.pop(f, None)
    if a.kernel_text is not None and not set_kernel_text(buf, data_off, data_size, a.kernel_text):
        sys.exit("%s: no [kernel.kallsyms]_text MMAP" % a.input)

    head = bytes(buf[:index])
    bits = sum(1 << i for i in secs)
    head = head[:72] + bits.to_bytes(32, "little") + head[104:]
    pos = index + 16 * len(secs)
    idx, body = b"", b""
    for i in sorted(secs):
        idx += struct.pack("<QQ", pos + len(body), len(secs[i]))
        body += secs[i]
    open(a.output, "wb").write(head + idx + body)


if __name__ == "__main__":
    main()
