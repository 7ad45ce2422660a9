#!/usr/bin/env python3
"""Check `pmprof top --stdio` output (tests/cli/top.sh).

  top_tables.py tables OUT [FUNCS]
      OUT parses as tables: each "# pmprof top: MODE, interval N ..." line
      (N = 1, 2, ... in turn) then a column header and rows; for the hotspot
      profile each row is "P% SAMPLES PERIOD DSO [x] SYMBOL", the Samples
      column adds up to the line's sample count (no --top) and the "in all"
      count to the sum of the intervals'. FUNCS (a file, one name a line):
      the workload's functions, of which at least half must be rows of the
      workload's DSO. Prints "N tables, M rows".
  top_tables.py perf OUT SCRIPT SECONDS DSO
      OUT is the replay (`top -i FILE --stdio -d SECONDS`) of the recording
      that SCRIPT is `perf script -F time,ip,sym,dso --ns` of: interval k
      must hold exactly the samples perf puts at t0 + k*SECONDS <= t <
      t0 + (k+1)*SECONDS (t0 the first sample's time), in all and per
      symbol of the DSO (a file name).
  top_tables.py perf-events OUT SCRIPT SECONDS DSO EVLIST
      as perf, for a recording of several events (SCRIPT with -F
      time,event,ip,sym,dso; EVLIST: perf evlist's output, the
      recording's order, which the first samples need not follow): each
      interval is one table per event, in the recording's order ("event E
      of N" on each line), each holding
      exactly that event's samples of the interval, in all and per symbol;
      the "in all" count is every event's.
  top_tables.py metrics OUT [--software]
      the --metrics tables: a Symbol DSO # DIS% header, rows of whole
      numbers of windows, the shares of two events (--software: the
      software group's cpu-clock and task-clock, else %CY and %I) adding
      up to 100% in each interval (all rows shown); prints the
      per-function window counts summed over the intervals as "SYM N".

perf and pmprof may name a sample in a PLT stub apart: where an
interval's symbols differ, the DSO's stubs and _init count as one
(perf_names.py says why).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perf_names import plt_pooled  # noqa: E402

HEAD = re.compile(r"^# pmprof top: (\w+), interval (\d+) \(([\d.e+-]+) s\): (\d+) samples"
                  r"(?: of (.*?))?(?:, event (\d+) of (\d+))? \((\d+) in all\)$")
HOT_ROW = re.compile(r"^\s*([\d.]+)%\s+(\d+)\s+(\d+)\s+(\S+)\s+\[(.)\] (.+)$")


def fail(msg):
    print("top_tables: " + msg)
    sys.exit(1)


def blocks(path):
    """[(header match, column header line, [row lines])]"""
    out = []
    cur = None
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        m = HEAD.match(line)
        if m:
            cur = [m, None, []]
            out.append(cur)
        elif cur is None:
            fail("a line before the first table: %r" % line)
        elif line == "":
            continue
        elif cur[1] is None:
            cur[1] = line
        else:
            cur[2].append(line)
    return out


def hot_rows(b):
    rows = []
    for line in b[2]:
        m = HOT_ROW.match(line)
        if not m:
            fail("interval %s: not a row: %r" % (b[0].group(2), line))
        rows.append((float(m.group(1)), int(m.group(2)), m.group(4), m.group(6)))
    return rows


def tables(path, funcs_path=None):
    bs = blocks(path)
    if not bs:
        fail("no table")
    total = 0
    nrows = 0
    seen = set()
    for i, b in enumerate(bs):
        m = b[0]
        if int(m.group(2)) != i + 1:
            fail("interval %s where %d was due" % (m.group(2), i + 1))
        n = int(m.group(4))
        total += n
        if int(m.group(8)) != total:
            fail("interval %d: %s in all, the intervals add up to %d" % (i + 1, m.group(8), total))
        if m.group(1) != "hotspots":
            continue
        if n and (b[1] is None or b[1].split() != "Overhead Samples Period Shared Object Symbol".split()):
            fail("interval %d: header %r" % (i + 1, b[1]))
        rows = hot_rows(b)
        nrows += len(rows)
        if sum(r[1] for r in rows) != n:
            fail("interval %d: rows add up to %d samples, the line says %d"
                 % (i + 1, sum(r[1] for r in rows), n))
        if rows and abs(sum(r[0] for r in rows) - 100) > 0.01 * len(rows) + 0.01:
            fail("interval %d: shares add up to %.2f%%" % (i + 1, sum(r[0] for r in rows)))
        seen.update(r[3] for r in rows if r[2] == "workload")
    if funcs_path:
        funcs = [f.strip() for f in open(funcs_path) if f.strip()]
        hit = [f for f in funcs if f in seen]
        if len(hit) * 2 < len(funcs):
            fail("only %s of the workload's functions %s in the tables" % (hit, funcs))
    print("%d tables, %d rows" % (len(bs), nrows))


def plt_pooled_if_differ(*counts):
    """{symbol: samples} dicts of one DSO, as they are if they agree, else
    each with its PLT stubs and _init as one (perf_names.py says why)."""
    if all(c == counts[0] for c in counts):
        return counts
    pooled = []
    for c in counts:
        p = {}
        for sym, n in c.items():
            p[plt_pooled(sym)] = p.get(plt_pooled(sym), 0) + int(n)
        pooled.append(p)
    return pooled


def to_ns(t):
    sec, frac = t.rstrip(":").split(".")
    return int(sec) * 1000000000 + int(frac.ljust(9, "0")[:9])


def perf(path, script, seconds, dso):
    d = int(round(float(seconds) * 1e9))
    want = {}   # interval -> [count, {sym: n}]
    t0 = None
    for line in open(script, encoding="utf-8", errors="replace"):
        f = line.split()
        if len(f) < 4 or not f[0].endswith(":"):
            continue
        t = to_ns(f[0])
        if t0 is None:
            t0 = t
        k = (t - t0) // d
        w = want.setdefault(k, [0, {}])
        w[0] += 1
        if f[-1].strip("()").endswith("/" + dso):
            sym = " ".join(f[2:-1])
            w[1][sym] = w[1].get(sym, 0) + 1
    if t0 is None:
        fail("perf script has no samples")
    bs = blocks(path)
    last = max(want)
    if len(bs) != last + 1:
        fail("%d intervals, perf's samples span %d" % (len(bs), last + 1))
    checked = 0
    for k, b in enumerate(bs):
        n, syms = want.get(k, [0, {}])
        if int(b[0].group(4)) != n:
            fail("interval %d: %s samples, perf has %d" % (k + 1, b[0].group(4), n))
        got = {r[3]: r[1] for r in hot_rows(b) if r[2] == dso}
        got, syms = plt_pooled_if_differ(got, syms)
        if got != syms:
            diff = sorted(set(got.items()) ^ set(syms.items()))
            fail("interval %d: %s's symbols differ from perf's: %s" % (k + 1, dso, diff[:6]))
        checked += len(got)
    print("%d intervals, %d symbol rows as perf has them" % (len(bs), checked))


def perf_events(path, script, seconds, dso, evlist):
    d = int(round(float(seconds) * 1e9))
    want = {}   # (interval, event) -> [count, {sym: n}]
    events = [line.strip() for line in open(evlist) if line.strip()
              and not line.startswith("#")]
    t0 = None
    total = {}  # interval -> samples of every event
    for line in open(script, encoding="utf-8", errors="replace"):
        f = line.split()
        if len(f) < 5 or not f[0].endswith(":") or not f[1].endswith(":"):
            continue
        t, ev = to_ns(f[0]), f[1].rstrip(":")
        if ev not in events:
            fail("perf script shows event %s, which perf evlist does not list" % ev)
        if t0 is None:
            t0 = t
        k = (t - t0) // d
        total[k] = total.get(k, 0) + 1
        w = want.setdefault((k, ev), [0, {}])
        w[0] += 1
        if f[-1].strip("()").endswith("/" + dso):
            sym = " ".join(f[3:-1])
            w[1][sym] = w[1].get(sym, 0) + 1
    if len(events) < 2:
        fail("perf script shows %d events, the check needs two or more" % len(events))
    bs = blocks(path)
    last = max(total)
    if len(bs) != (last + 1) * len(events):
        fail("%d tables, perf's samples span %d intervals of %d events"
             % (len(bs), last + 1, len(events)))
    running = 0
    checked = 0
    for i, b in enumerate(bs):
        k, e = divmod(i, len(events))
        m = b[0]
        if int(m.group(2)) != k + 1 or m.group(6) is None or int(m.group(6)) != e + 1 \
           or int(m.group(7)) != len(events):
            fail("table %d: %r where interval %d, event %d of %d was due"
                 % (i + 1, m.group(0), k + 1, e + 1, len(events)))
        if m.group(5) is None or not m.group(5).startswith(events[e]):
            fail("interval %d: event %s where perf has %s" % (k + 1, m.group(5), events[e]))
        if e == 0:
            running += total.get(k, 0)
        if int(m.group(8)) != running:
            fail("interval %d: %s in all, perf has %d" % (k + 1, m.group(8), running))
        n, syms = want.get((k, events[e]), [0, {}])
        if int(m.group(4)) != n:
            fail("interval %d, %s: %s samples, perf has %d" % (k + 1, events[e], m.group(4), n))
        got = {r[3]: r[1] for r in hot_rows(b) if r[2] == dso}
        got, syms = plt_pooled_if_differ(got, syms)
        if got != syms:
            diff = sorted(set(got.items()) ^ set(syms.items()))
            fail("interval %d, %s: %s's symbols differ from perf's: %s"
                 % (k + 1, events[e], dso, diff[:6]))
        checked += len(got)
    print("%d intervals of %d events, %d symbol rows as perf has them"
          % (last + 1, len(events), checked))


def metrics(path, software):
    bs = blocks(path)
    if not bs:
        fail("no table")
    windows = {}
    for b in bs:
        if b[0].group(1) != "metrics":
            fail("not a metrics table: %r" % b[0].group(0))
        if b[1] is None:
            continue
        cols = b[1].split()
        if cols[:4] != ["Symbol", "DSO", "#", "DIS%"]:
            fail("metrics header %r" % b[1])
        if software:
            if not any(c.startswith("%cpu-clock") for c in cols) or "%task-clock" not in cols:
                fail("no cpu-clock and task-clock shares in %r" % b[1])
            share_cols = [[i for i, c in enumerate(cols) if c.startswith("%cpu-clock")][0],
                          cols.index("%task-clock")]
        else:
            share_cols = [cols.index("%CY"), cols.index("%I")]
        shares = [0.0, 0.0]
        for line in b[2]:
            f = line.split()
            if len(f) != len(cols) or not f[2].isdigit():
                fail("not a metrics row: %r" % line)
            windows[f[0]] = windows.get(f[0], 0) + int(f[2])
            for j, c in enumerate(share_cols):
                # "12.51%?": a share from fewer than 30 windows
                # (metrics' mark), still a share of the interval
                if f[c] != "-":
                    shares[j] += float(f[c].rstrip("?").rstrip("%"))
        for s in shares:
            if s and abs(s - 100) > 0.01 * len(b[2]) + 0.01:
                fail("interval %s: shares add up to %.2f%%" % (b[0].group(2), s))
    for sym in sorted(windows):
        print("%s %d" % (sym, windows[sym]))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "tables":
        tables(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    elif len(sys.argv) == 6 and sys.argv[1] == "perf":
        perf(*sys.argv[2:])
    elif len(sys.argv) == 7 and sys.argv[1] == "perf-events":
        perf_events(*sys.argv[2:])
    elif len(sys.argv) in (3, 4) and sys.argv[1] == "metrics":
        metrics(sys.argv[2], sys.argv[3:] == ["--software"])
    else:
        print(__doc__)
        sys.exit(2)
