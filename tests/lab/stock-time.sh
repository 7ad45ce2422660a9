#!/usr/bin/env bash
# The lab without -icount: QEMU's cycles follow time and `instructions`
# does not exist. A cycles recording of the workload must rank the
# behaviours as the workload's own timing does (workload --truth: the
# clock read around every call). Both come from the same run, the
# recorded one: guest time here is the host's, so a separate run would
# see another share of the host's load (and a behaviour's time with it);
# in one run the clock and the cycles counter see the same. Only pairs
# whose times differ by more than 25% are held to an order.
#   - record --metrics without icount: the group is cycles alone, and it
#     says instructions were left out and why.
. "$(dirname "$0")/guest.bash"
lab_ready stock-time

N=3000
guest stock-time --smp 2 -- "
cd /tmp
pmprof record -e cycles:u -c 200000 -o c.data -- workload -n $N --truth >\$LAB_OUT/truth.txt 2>\$LAB_OUT/record.err
echo \$? >\$LAB_OUT/record.rc
pmprof report --format json -i c.data >\$LAB_OUT/report.json 2>\$LAB_OUT/report.err
pmprof record --metrics -o m.data -- workload -n 200 >/dev/null 2>\$LAB_OUT/metrics.err
"
O="$TMP/stock-time"

if [ "$(cat "$O/record.rc" 2>/dev/null)" = 0 ]; then
	ok "stock-time: cycles records without icount"
else
	not_ok "stock-time: cycles records without icount: exit $(cat "$O/record.rc" 2>/dev/null); $(why "$O/record.err")"
	show "$O/record.err"
fi
cmp=$(python3 - "$O/truth.txt" "$O/report.json" <<'EOF'
import json, sys
ns = {}
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) == 5 and p[0] == 'truth':
        ns[p[1]] = int(p[4])
doc = json.load(open(sys.argv[2]))
rows = [r for e in doc.get('events', []) for r in e.get('rows', [])]
samples = dict.fromkeys(ns, 0)
for r in rows:
    if r.get('symbol') in samples:
        samples[r['symbol']] += int(r.get('samples', 0))
names = sorted(ns, key=lambda n: -ns[n])
pairs = bad = 0
for i, a in enumerate(names):
    for b in names[i + 1:]:
        if ns[a] > 1.25 * ns[b]:
            pairs += 1
            if samples[a] <= samples[b]:
                bad += 1
                print('out of order: %s (%d ns, %d samples) and %s (%d ns, %d samples)'
                      % (a, ns[a], samples[a], b, ns[b], samples[b]))
print('pairs %d out_of_order %d total_samples %d' % (pairs, bad, sum(samples.values())))
for n in names:
    print('  %-20s %12d ns %7d samples' % (n, ns[n], samples[n]))
EOF
)
summary=$(grep '^pairs' <<<"$cmp")
read -r _ pairs _ bad _ total <<<"$summary"
if [ "${bad:-x}" = 0 ] && [ "${pairs:-0}" -ge 10 ] && [ "${total:-0}" -gt 500 ]; then
	ok "stock-time: the profile ranks the behaviours as their own timing does ($summary)"
	sed 's/^/# /' <<<"$cmp"
else
	not_ok "stock-time: the profile ranks the behaviours as their own timing does: ${summary:-no comparison}; $(grep -m1 '^out of order' <<<"$cmp" || why "$O/truth.txt" "$O/report.err")"
	sed 's/^/# /' <<<"$cmp"
	show "$O/report.err"
fi
if grep -q -- '--metrics: {cycles/period=8000000,hf-period=300,hf-burst=8/}:uS' "$O/metrics.err" &&
   grep -q 'left out instructions, branch-instructions, branch-misses, cache-references, cache-misses: this PMU does not count them' "$O/metrics.err"; then
	ok "stock-time: --metrics without icount: cycles alone, says instructions and the rest are missing"
else
	not_ok "stock-time: --metrics without icount says what it left out: $(grep -m1 -- '--metrics' "$O/metrics.err" 2>/dev/null || why "$O/metrics.err")"
	show "$O/metrics.err"
fi
