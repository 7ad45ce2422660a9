#!/usr/bin/env bash
# The lab's PMU (QEMU's armv8 PMU, Debian's kernel, -icount so that
# instructions counts) and record --metrics:
#   - --metrics topdown names exactly the events this PMU's sysfs events/
#     lacks (the guest lists them; the expected names are computed here)
#     and falls back as documented: Arm's cycle accounting when
#     stall_frontend and stall_backend are there, else the default group;
#     the recording it makes is analysed;
#   - -F 4000 --metrics (frequency mode, perf's default) records windows:
#     the leader samples at 4000 Hz with hf-period 300, and pmprof metrics
#     keeps windows of it.
. "$(dirname "$0")/guest.bash"
lab_ready topdown

guest topdown --icount --smp 1 --timeout 1800 -- "
cd /tmp
for d in /sys/bus/event_source/devices/armv8*; do ls \$d/events; done >\$LAB_OUT/events.txt 2>&1
pmprof record --metrics topdown -o t.data -- workload -n 300 >/dev/null 2>\$LAB_OUT/topdown.err
echo \$? >\$LAB_OUT/topdown.rc
pmprof metrics -i t.data >\$LAB_OUT/topdown.txt 2>&1
echo \$? >>\$LAB_OUT/topdown.rc
pmprof record -F 4000 --metrics -o f.data -- workload -n 3000 >/dev/null 2>\$LAB_OUT/freq.err
echo \$? >\$LAB_OUT/freq.rc
pmprof metrics --format json -i f.data >\$LAB_OUT/freq.json 2>&1
pmprof info -i f.data >\$LAB_OUT/freq.info 2>&1
"
O="$TMP/topdown"

# what the guest's PMU lacks, by the documented lists
out=$(python3 - "$O/events.txt" "$O/topdown.err" <<'EOF'
import sys
have = set(open(sys.argv[1]).read().split())
msg = open(sys.argv[2]).read()
slot = ["stall_slot_frontend", "stall_slot_backend", "op_spec", "op_retired"]
cyc = ["stall_frontend", "stall_backend"]
lack = [e for e in slot if e not in have]
if not lack:
    want = "Arm's level 1 on"
elif all(e in have for e in cyc):
    want = "lacks %s: Arm's cycle accounting instead" % ", ".join(lack)
else:
    want = "lacks %s: the default group instead" % ", ".join(lack + [e for e in cyc if e not in have])
print(want)
sys.exit(0 if want in msg else 1)
EOF
)
if [ $? = 0 ]; then
	ok "topdown: --metrics topdown says what this PMU lacks and falls back: $out"
else
	not_ok "topdown: --metrics topdown says what this PMU lacks and falls back (wanted: $out)"
	show "$O/events.txt" "$O/topdown.err"
fi
if [ "$(tr '\n' ' ' <"$O/topdown.rc" 2>/dev/null)" = "0 0 " ] && grep -q '^# windows used [1-9]' "$O/topdown.txt"; then
	ok "topdown: the fallback's recording has windows pmprof metrics reads"
else
	not_ok "topdown: the fallback's recording is analysed"
	show "$O/topdown.rc" "$O/topdown.txt"
fi

if [ "$(cat "$O/freq.rc" 2>/dev/null)" = 0 ] &&
   grep -q -- '--metrics: {cycles/freq=4000,hf-period=300/' "$O/freq.err" &&
   grep -q 'sample_freq = 4000.*freq = 1\|freq = 1.*sample_freq = 4000' "$O/freq.info" &&
   python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["short_windows"] and d["kept"] > 100, d
' "$O/freq.json"; then
	ok "topdown: -F 4000 --metrics records windows: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["kept"], "kept of", d["windows"])' "$O/freq.json")"
else
	not_ok "topdown: -F 4000 --metrics records windows"
	show "$O/freq.err" "$O/freq.json"
fi
