#!/usr/bin/env python3
"""Compare the attrs `perf ... -vv` printed with `pmprof ... --dry-run
--format json`: every field evspec-check.py compares, less --ignore.

Usage: attrs-vs-perf.py PERF_OUTPUT PMPROF_JSON [--ignore FIELD,...] [--only N]
perf stops at the first event that fails to open: the attrs it printed
are compared with pmprof's first ones; --only N compares pmprof's event N
with perf's first. Exit 0 when equal, 1 with the differences.
"""
import importlib.util
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("evspec_check", os.path.join(here, "evspec-check.py"))
ec = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ec)


def main():
    perf_out, mine_path = sys.argv[1], sys.argv[2]
    ignore, only = set(), None
    args = sys.argv[3:]
    while args:
        if args[0] == "--ignore":
            ignore = set(args[1].split(","))
        elif args[0] == "--only":
            only = int(args[1])
        args = args[2:]
    perf = ec.parse_perf(open(perf_out, errors="replace").read())
    mine = json.load(open(mine_path))
    if not perf:
        print("perf printed no attr")
        return 1
    if only is not None:
        mine = [mine[only]]
    bad = []
    for i, m in enumerate(mine[:len(perf)]):
        for f in ec.FIELDS:
            if f in ignore:
                continue
            if perf[i].get(f, 0) != m.get(f, 0):
                bad.append("event %d %s: perf %s, pmprof %s" % (i, f, perf[i].get(f, 0), m.get(f, 0)))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
