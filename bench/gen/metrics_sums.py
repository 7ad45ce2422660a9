# perf script -s metrics_sums.py: the window sums of `pmprof metrics --mode none`
# the way the seed's Python post-processing does them, for the benchmark.
# One group sampled by its leader: perf calls us once per group member
# with the same values, so only the leader's calls count. Windows per counter instance (leader id, tid),
# charged to the closing sample's (dso, symbol). Prints one JSON line.
import collections
import json
import os

prev = {}
leader = None
sums = collections.defaultdict(lambda: [0, 0, 0])   # samples, counts...
windows = 0
opening = 0


def process_event(param_dict):
    global windows, opening, leader
    s = param_dict["sample"]
    vals = s.get("values")
    if not vals:
        return
    # Only the call for the sampling event: perf repeats the sample for
    # each member, the leader first.
    if leader is None:
        leader = param_dict["ev_name"]
    if param_dict["ev_name"] != leader:
        return
    key = (vals[0][0], s["tid"])
    cur = [v[1] for v in vals]
    p = prev.get(key)
    prev[key] = cur
    if p is None:
        opening += 1
        return
    windows += 1
    where = (os.path.basename(param_dict.get("dso", "[unknown]")),
             param_dict.get("symbol", "[unknown]"))
    row = sums[where]
    while len(row) < 1 + len(cur):
        row.append(0)
    row[0] += 1
    for i, (a, b) in enumerate(zip(cur, p)):
        if a > b:
            row[1 + i] += a - b


def trace_end():
    print(json.dumps({"windows": windows, "opening": opening,
                      "functions": [[d, sym] + row for (d, sym), row in sums.items()]}))
