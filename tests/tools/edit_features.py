#!/usr/bin/env python3
"""Copy a perf.data with its header features changed, to make the files
older tools, lossy captures or a broken writer would have left:

  edit_features.py drop FEATURE IN OUT
      without FEATURE (a name, GROUP_DESC, or perf's bit number)
  edit_features.py group-size LEADER N IN OUT
      GROUP_DESC's group led by event LEADER given N members (a file)

A file: clear the feature's bit in the header and take its entry out of
the feature index that follows the data section (the sections themselves
stay where they are: the index entries carry their offsets). A pipe: drop
the HEADER_FEATURE record (type 80) that carries the feature. Little
endian only (what perf writes here). Written from the file layout that
perf's documentation gives, independently of pmprof's reader.
"""
import struct
import sys

HEADER_FEATURE = 80
# perf's feature bits (tools/perf/util/header.h), the ones tests drop.
FEATURES = {"EVENT_DESC": 12, "GROUP_DESC": 17, "SAMPLE_TIME": 21}


def drop_file(data, bit):
    # perf_file_header: magic, size, attr_size, attrs{off,size},
    # data{off,size}, event_types{off,size}, adds_features[4] (u64 each).
    size = struct.unpack_from("<Q", data, 8)[0]
    data_off, data_size = struct.unpack_from("<QQ", data, 40)
    feat_at = 72
    if size < 104:
        sys.exit("header without a feature bitmap")
    bitmap = list(struct.unpack_from("<4Q", data, feat_at))
    word, shift = divmod(bit, 64)
    if not (bitmap[word] >> shift) & 1:
        sys.exit("feature %d is not in the file" % bit)
    # The index has one {offset, size} per set bit, in bit order.
    index_at = data_off + data_size
    rank = sum(bin(w).count("1") for w in bitmap[:word]) + \
        bin(bitmap[word] & ((1 << shift) - 1)).count("1")
    total = sum(bin(w).count("1") for w in bitmap)
    out = bytearray(data)
    bitmap[word] &= ~(1 << shift)
    struct.pack_into("<4Q", out, feat_at, *bitmap)
    entries = [data[index_at + 16 * i:index_at + 16 * (i + 1)] for i in range(total)]
    del entries[rank]
    entries.append(b"\0" * 16)	# the index shrinks; pad where it was
    out[index_at:index_at + 16 * total] = b"".join(entries)
    return bytes(out)


def drop_pipe(data, bit):
    out = bytearray(data[:16])		# magic, header size 16
    pos = 16
    dropped = 0
    while pos + 8 <= len(data):
        rtype, _misc, rsize = struct.unpack_from("<IHH", data, pos)
        if rsize < 8:
            sys.exit("bad record size %d at %d" % (rsize, pos))
        rec = data[pos:pos + rsize]
        if rtype == HEADER_FEATURE and struct.unpack_from("<Q", rec, 8)[0] == bit:
            dropped += 1
        else:
            out += rec
        pos += rsize
    if not dropped:
        sys.exit("feature %d is not in the pipe" % bit)
    return bytes(out)


def feature_section(data, bit):
    """(offset, size) of a file's feature section."""
    data_off, data_size = struct.unpack_from("<QQ", data, 40)
    bitmap = struct.unpack_from("<4Q", data, 72)
    word, shift = divmod(bit, 64)
    if not (bitmap[word] >> shift) & 1:
        sys.exit("feature %d is not in the file" % bit)
    rank = sum(bin(w).count("1") for w in bitmap[:word]) + \
        bin(bitmap[word] & ((1 << shift) - 1)).count("1")
    return struct.unpack_from("<QQ", data, data_off + data_size + 16 * rank)


def group_size(data, leader, nr):
    """GROUP_DESC: u32 nr_groups, then per group a perf string (u32 len,
    len bytes) and u32 leader_idx, u32 nr_members."""
    off, _size = feature_section(data, FEATURES["GROUP_DESC"])
    out = bytearray(data)
    ngroups = struct.unpack_from("<I", data, off)[0]
    pos = off + 4
    for _ in range(ngroups):
        slen = struct.unpack_from("<I", data, pos)[0]
        pos += 4 + slen
        lead = struct.unpack_from("<I", data, pos)[0]
        if lead == leader:
            struct.pack_into("<I", out, pos + 4, nr)
            return bytes(out)
        pos += 8
    sys.exit("no group led by event %d" % leader)


def main():
    args = sys.argv[1:]
    with open(args[-2], "rb") as f:
        data = f.read()
    if data[:8] != b"PERFILE2":
        sys.exit("not a little-endian perf.data")
    pipe = struct.unpack_from("<Q", data, 8)[0] == 16
    if args[0] == "drop":
        bit = FEATURES[args[1]] if args[1] in FEATURES else int(args[1])
        out = drop_pipe(data, bit) if pipe else drop_file(data, bit)
    elif args[0] == "group-size" and not pipe:
        out = group_size(data, int(args[1]), int(args[2]))
    else:
        sys.exit(__doc__)
    with open(args[-1], "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
