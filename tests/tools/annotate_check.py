#!/usr/bin/env python3
"""Checks of `pmprof annotate --format json` against other tools' output.

  annotate_check.py sums ANNOTATE.json
      per function: the instruction rows add up to the function's samples,
      period and windows; each source row is the sum of the instructions
      of its line in that function
  annotate_check.py perf ANNOTATE.json PERF_ANNOTATE.txt SYMBOL
      the per-instruction sample counts equal perf annotate --stdio
      --show-nr-samples's (every instruction perf lists)
  annotate_check.py objdump ANNOTATE.json OBJDUMP [SYMBOL]
      each function's instructions (address, text) are exactly the lines
      `OBJDUMP -d -z --no-show-raw-insn -C` prints for its range
  annotate_check.py perf-report ANNOTATE.json PERF_REPORT.txt
      each function's samples equal perf report's for (dso, symbol)
  annotate_check.py metrics ANNOTATE.json METRICS.json
      each function's window sums equal pmprof metrics's counts
  annotate_check.py profileme ANNOTATE.json PROFILEME_PC.json
      the ProfileMe columns of each sampled instruction equal the row of
      `profileme --pc` with its SL1 and PC, and every profileme row in an
      annotated function has its instruction
Exit 0 when it holds, 1 with the differences on stderr.
"""
import json
import re
import subprocess
import sys

errors = []


def fail(msg):
    errors.append(msg)


def insns(fn):
    return [r for r in fn["rows"] if r["address"] is not None]


def addr(r):
    return int(r["address"], 16)


def check_sums(doc):
    if not doc["functions"]:
        fail("no function annotated")
    for fn in doc["functions"]:
        name = "%s %s sl1=%s" % (fn["event"], fn["symbol"], fn["sl1"])
        rows = insns(fn)
        for key in ("samples", "period", "windows", "discarded"):
            got = sum(r.get(key) or 0 for r in rows)
            if key in ("windows", "discarded") and key not in rows[0]:
                continue
            if got != fn[key]:
                fail("%s: instructions' %s add up to %d, the function has %d"
                     % (name, key, got, fn[key]))
        lines = {}
        for r in rows:
            if r["source"]:
                lines.setdefault(r["source"], []).append(r)
        for r in fn["rows"]:
            if r["address"] is not None:
                continue
            members = lines.get(r["source"], [])
            if not members:
                fail("%s: source row %s has no instruction" % (name, r["source"]))
            for key in ("samples", "period", "windows"):
                if key in r and r[key] != sum(m[key] for m in members):
                    fail("%s: line %s %s %d, its instructions %d"
                         % (name, r["source"], key, r[key],
                            sum(m[key] for m in members)))
        sampled = sum(1 for r in rows if r["samples"])
        if not sampled:
            fail("%s: no sampled instruction" % name)


def check_perf(doc, perf_txt, symbol):
    want = {}
    for line in open(perf_txt):
        m = re.match(r"^\s*(\d+)\s+:\s+([0-9a-f]+):\s", line)
        if m:
            want[int(m.group(2), 16)] = int(m.group(1))
    if not want:
        fail("%s: no instruction lines in perf annotate's output" % perf_txt)
    fns = [f for f in doc["functions"] if f["symbol"] == symbol]
    if len(fns) != 1:
        fail("%s: %d functions annotated" % (symbol, len(fns)))
        return
    got = {addr(r): r["samples"] for r in insns(fns[0])}
    if set(got) != set(want):
        fail("%s: addresses differ: only pmprof %s, only perf %s"
             % (symbol, sorted(map(hex, set(got) - set(want))),
                sorted(map(hex, set(want) - set(got)))))
    for a in sorted(set(got) & set(want)):
        if got[a] != want[a]:
            fail("%s+%#x: pmprof %d samples, perf %d" % (symbol, a, got[a], want[a]))


def objdump_lines(tool, path, start, end):
    out = subprocess.run([tool, "-d", "-z", "--no-show-raw-insn", "-C",
                          "--start-address=%#x" % start,
                          "--stop-address=%#x" % end, path],
                         check=True, capture_output=True, text=True).stdout
    res = []
    for line in out.split("\n"):
        m = re.match(r"^ *([0-9a-f]+):\t(.*)$", line)
        if m:
            res.append((int(m.group(1), 16), m.group(2)))
    return res


def check_objdump(doc, tool, symbol):
    seen = 0
    for fn in doc["functions"]:
        if symbol and fn["symbol"] != symbol:
            continue
        if not fn["file"]:
            continue
        seen += 1
        want = objdump_lines(tool, fn["file"], int(fn["start"], 16),
                             int(fn["end"], 16))
        got = [(addr(r), r["code"]) for r in insns(fn)]
        if got != want:
            for i, (g, w) in enumerate(zip(got, want)):
                if g != w:
                    fail("%s: instruction %d: pmprof %r, objdump %r"
                         % (fn["symbol"], i, g, w))
                    break
            else:
                fail("%s: %d instructions, objdump %d"
                     % (fn["symbol"], len(got), len(want)))
    if not seen:
        fail("no function with a file to compare")


def check_perf_report(doc, report_txt):
    want = {}
    for line in open(report_txt):
        m = re.match(r"^\s*(\d+)\s+(\S+)\s+\[.\]\s+(\S+)\s*$", line)
        if m:
            want[(m.group(2), m.group(3))] = int(m.group(1))
    if not want:
        fail("%s: no rows" % report_txt)
    for fn in doc["functions"]:
        key = (fn["dso"], fn["symbol"])
        if want.get(key) != fn["samples"]:
            fail("%s: pmprof %d samples, perf report %s"
                 % (key, fn["samples"], want.get(key)))


def check_metrics(doc, metrics):
    by_fn = {(f["dso"], f["symbol"]): f for f in metrics["functions"]}
    if not any(fn["windows"] for fn in doc["functions"]):
        fail("no window charged to any function")
    for fn in doc["functions"]:
        m = by_fn.get((fn["dso"], fn["symbol"]))
        if not m:	# only opening samples there: no window closes in it
            if fn["windows"] or fn["discarded"]:
                fail("%s: %d windows, not in pmprof metrics"
                     % (fn["symbol"], fn["windows"] + fn["discarded"]))
            continue
        if fn["windows"] + fn["discarded"] != m["samples"]:
            fail("%s: %d windows, metrics %d"
                 % (fn["symbol"], fn["windows"] + fn["discarded"], m["samples"]))
        if fn["discarded"] != m["discarded"]:
            fail("%s: %d discarded, metrics %d"
                 % (fn["symbol"], fn["discarded"], m["discarded"]))
        for counter, total in m["counts"].items():
            got = sum(r[counter] for r in insns(fn))
            if got != total:
                fail("%s: %s %d over the instructions, metrics %d"
                     % (fn["symbol"], counter, got, total))


def pct(n, d):
    return 100.0 * n / d if d else 0.0


def traps_dict(text):
    return {k: int(v) for k, v in (t.split("=") for t in text.split())} if text else {}


def check_profileme(doc, pc):
    tables = {t["sl1"]: t["rows"] for t in pc["tables"]}
    compared = 0
    for fn in doc["functions"]:
        if fn["sl1"] is None:
            continue
        rows = {r["pc"]: r for r in tables.get(fn["sl1"], [])}
        prefix = fn["symbol"] + "+0x"
        mine = set()
        for r in insns(fn):
            if not r["samples"]:
                continue
            key = "0x%016x" % addr(r)
            mine.add(key)
            p = rows.get(key)
            if not p:
                fail("%s sl1 %d: %s not in profileme --pc" % (fn["symbol"], fn["sl1"], key))
                continue
            compared += 1
            want = {
                "samples": p["samples"],
                "killed_pct": pct(p["killed"], p["samples"]),
                "invalid_pct": pct(p["invalid"], p["samples"]),
                "mispredicted_pct": pct(p["mispredicted"], p["samples"]),
                "taken_pct": pct(p["taken"], p["samples"]),
                "stalled_pct": pct(p["stalled"], p["samples"]),
                "pctr1_mean": p["pctr1_mean"],
                "traps": p["traps"],
            }
            got = dict((k, r[k]) for k in want)
            got["traps"] = traps_dict(r["traps"])
            for k in want:
                same = abs(got[k] - want[k]) < 1e-9 if k != "traps" else got[k] == want[k]
                if not same:
                    fail("%s %s sl1 %d: %s pmprof %r, profileme --pc %r"
                         % (fn["symbol"], key, fn["sl1"], k, got[k], want[k]))
        for key, p in rows.items():
            if p["symbol"] and p["symbol"].startswith(prefix) and \
               p["dso"] == fn["dso"] and key not in mine:
                fail("%s sl1 %d: profileme --pc has %s, annotate not"
                     % (fn["symbol"], fn["sl1"], key))
    if not compared:
        fail("no ProfileMe instruction compared")


def main(argv):
    what, doc = argv[1], json.load(open(argv[2]))
    if what == "sums":
        check_sums(doc)
    elif what == "perf":
        check_perf(doc, argv[3], argv[4])
    elif what == "objdump":
        check_objdump(doc, argv[3], argv[4] if len(argv) > 4 else None)
    elif what == "perf-report":
        check_perf_report(doc, argv[3])
    elif what == "metrics":
        check_metrics(doc, json.load(open(argv[3])))
    elif what == "profileme":
        check_profileme(doc, json.load(open(argv[3])))
    else:
        sys.exit("unknown check " + what)
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
