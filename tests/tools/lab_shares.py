#!/usr/bin/env python3
"""Each behaviour's share of the instructions: pmprof metrics against the
workload's own count.

usage: lab_shares.py TRUTH METRICS_JSON [TOLERANCE]

TRUTH is `workload --truth` ("truth NAME CALLS INSTRUCTIONS NS" lines: the
instructions each behaviour executed, counted by the workload around every
call); METRICS_JSON is `pmprof metrics --format json` of a recording of the
same run (same iterations and seed: the same instructions). Shares are
taken over the seven behaviours on both sides (the driver loop, libc and
the brackets are not behaviours). Prints one line per behaviour and exits
1 when one differs by more than TOLERANCE percentage points (default 1).
"""
import json
import sys


def main():
    truth_path, json_path = sys.argv[1], sys.argv[2]
    tol = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    truth = {}
    with open(truth_path) as f:
        for line in f:
            p = line.split()
            if len(p) == 5 and p[0] == 'truth':
                if p[3] == '-':
                    sys.exit('lab_shares: the workload counted no instructions (no icount?)')
                truth[p[1]] = int(p[3])
    if len(truth) != 7:
        sys.exit('lab_shares: %s has %d behaviours, not 7' % (truth_path, len(truth)))
    with open(json_path) as f:
        doc = json.load(f)
    event = [e for e in doc['events'] if e.startswith('instructions')]
    if not event:
        sys.exit('lab_shares: no instructions counter in %s' % json_path)
    got = dict.fromkeys(truth, 0)
    for fn in doc['functions']:
        if fn['symbol'] in got:
            got[fn['symbol']] += fn['counts'].get(event[0], 0)
    ttot, gtot = sum(truth.values()), sum(got.values())
    if not gtot:
        sys.exit('lab_shares: no window counted instructions in a behaviour')
    worst = 0.0
    for name in sorted(truth, key=lambda n: -truth[n]):
        t, g = 100.0 * truth[name] / ttot, 100.0 * got[name] / gtot
        worst = max(worst, abs(g - t))
        print('%-20s truth %6.2f%%  pmprof %6.2f%%  diff %+5.2f' % (name, t, g, g - t))
    print('worst %.2f percentage points (tolerance %.2f), %d instructions in windows'
          % (worst, tol, gtot))
    return 0 if worst <= tol else 1


if __name__ == '__main__':
    sys.exit(main())
