#!/usr/bin/env bash
# pmprof record --metrics [default|topdown]: the groups chosen from a PMU's
# sysfs tree (tests/data/sysfs-*: Neoverse N2 with the slot events and
# caps/slots, Neoverse N1 without them, Ice Lake's slots and topdown-*,
# AMD Zen 4 with its CPUID, an Arm PMU with Arm's strobe_period format),
# what each says it left out and which fallback it took; the attrs as the
# kernel gets them (--dry-run --format json, read here with the event
# codes written out again from the vendors' tables); -F and -c with
# --metrics; --hf-mode strobe; and, on this machine, a recording made with
# -F that has windows, the summary naming the recorder's burst stops apart
# from the kernel's throttling, and PMU_CAPS as perf reads it.
. "$(dirname "$0")/../lib.sh"

D="$TOP/tests/data"
cd "$TMP" || exit 1

dry() {	# NAME SYSFS ARGS...: dry.json and dry.err
	local name=$1 tree=$2
	shift 2
	"$PMPROF" record --sysfs "$D/$tree" --dry-run --format json "$@" >"$name.json" 2>"$name.err"
}

# check_py NAME FILE PYTHON: PYTHON sees the events as `ev`, the message as `msg`
check_py() {
	check "$1" python3 -c "
import json, sys
ev = json.load(open('$2.json'))
msg = open('$2.err').read()
$3
"
}

# ---- Neoverse N2: Arm's level 1, one group of six counters and cycles
dry n2 sysfs-neoverse-n2 --metrics topdown
check_py "record-metrics: N2 topdown records the slot events" n2 '
# Arm ARM event numbers: CPU_CYCLES is generic cycles here
codes = [(e["type"], e.get("config", 0)) for e in ev]
assert codes == [(0, 0), (0, 1), (8, 0x3e), (8, 0x3d), (8, 0x3b), (8, 0x3a)], codes
assert all(e["group_leader"] == 0 for e in ev)
assert ev[0]["sample_period"] == 1000000 and ev[0].get("hf_sample_period") == 300
assert "READ" in ev[0]["sample_type_names"] and "TOTAL_TIME_RUNNING" in ev[0]["read_format_names"]
assert all(e.get("exclude_kernel") for e in ev)
assert "Arm\x27s level 1 on armv8_pmuv3_0, 5 slots per cycle (caps/slots), 1 group" in msg, msg
'
# the space form and the = form are one option
"$PMPROF" record --sysfs "$D/sysfs-neoverse-n2" --dry-run --format json --metrics=topdown >eq.json 2>/dev/null
check_files_eq "record-metrics: --metrics=topdown is --metrics topdown" n2.json eq.json

# ---- Neoverse N1: no slot events: Arm's cycle accounting, said so
dry n1 sysfs-neoverse-n1 --metrics topdown
check_py "record-metrics: N1 falls back to the cycle accounting" n1 '
assert [(e["type"], e.get("config", 0)) for e in ev] == [(0, 0), (0, 1), (8, 0x23), (8, 0x24)]
assert "armv8_pmuv3_0 lacks stall_slot_frontend, stall_slot_backend, op_spec, op_retired: Arm\x27s cycle accounting instead" in msg, msg
'

# ---- a PMU with neither: the default group, and every missing event named
dry bare sysfs-arm-strobe --metrics topdown
check_py "record-metrics: without stall events, the default group, the lack named" bare '
assert [e["name"] for e in ev] == ["cycles/period=1000000,hf-period=300/", "instructions",
    "branch-instructions", "branch-misses", "cache-references", "cache-misses"], [e["name"] for e in ev]
assert "lacks stall_slot_frontend, stall_slot_backend, op_spec, op_retired, stall_frontend, stall_backend: the default group instead" in msg, msg
'

# ---- Ice Lake: slots leads and only counts, the cycles after it samples
dry icl sysfs-icelake --metrics topdown
check_py "record-metrics: Ice Lake records slots and the topdown events" icl '
# Linux cpu/events/: slots event=0x00,umask=0x4, topdown-* umask 0x80-0x83
assert [(e["type"], e.get("config", 0)) for e in ev] == \
    [(4, 0x400), (0, 0), (0, 1), (4, 0x8000), (4, 0x8100), (4, 0x8200), (4, 0x8300)]
assert ev[0].get("sample_period", 0) == 0 and not ev[0].get("freq")
assert ev[1]["sample_period"] == 1000000 and ev[1]["hf_sample_period"] == 300
assert all(e.get("sample_period", 0) == 0 for e in ev[2:])
assert all("READ" in e["sample_type_names"] for e in ev)
assert "GROUP" in ev[0]["read_format_names"]
assert "Intel\x27s level 1" in msg and "hf mode: fixed" not in msg, msg
'
check "record-metrics: Ice Lake's group: bursts cannot arm its sampler, said so" \
	grep -q "which bursts cannot arm" icl.err

# ---- AMD Zen 4: seven events in groups of six counters
PERF_CPUID=AuthenticAMD-25-11-1 dry zen4 sysfs-zen4 --metrics topdown
check_py "record-metrics: Zen 4 in two groups of at most six" zen4 '
# PPR 19h: event[11:0] in config 0-7 and 32-35, umask 8-15
want = [(0, 0), (0, 1), (4, 0x07aa), (4, 0x00c1), (4, 0x1000001a0), (4, 0x100001ea0),
        (0, 0), (4, 0x1000060a0)]
assert [(e["type"], e.get("config", 0)) for e in ev] == want, [(e["type"], hex(e.get("config", 0))) for e in ev]
leaders = [e["group_leader"] for e in ev]
assert leaders == [0] * 6 + [6, 6], leaders
assert ev[6]["sample_period"] == 1000000 and ev[6]["hf_sample_period"] == 300
assert "Zen 4, 6 dispatch slots per cycle), 2 groups" in msg, msg
'
PERF_CPUID=AuthenticAMD-25-21-0 dry zen3 sysfs-zen4 --metrics topdown
check "record-metrics: Zen 3 (19h model 21h) has no dispatch-slot events: the default group" \
	grep -q "is no Zen 4 or later: no dispatch-slot events, the default group instead" zen3.err

# ---- -F and -c: the long period from them, the windows as they were
dry f4000 sysfs-neoverse-n2 -F 4000 --metrics topdown
check_py "record-metrics: -F 4000 samples at 4000 Hz with 300-cycle windows" f4000 '
assert ev[0]["freq"] == 1 and ev[0]["sample_freq"] == 4000 and ev[0]["hf_sample_period"] == 300
'
dry c2m sysfs-neoverse-n2 -c 2000000 --metrics
check_py "record-metrics: -c 2000000 is the long period" c2m '
assert not ev[0].get("freq") and ev[0]["sample_period"] == 2000000 and ev[0]["hf_sample_period"] == 300
'
expect "record-metrics: -c below two windows refused" 1 "at least 2 short windows" \
	"$PMPROF" record --dry-run -c 500 --metrics
expect "record-metrics: -F whose period cannot hold the windows refused" 1 "at most -F 5000" \
	"$PMPROF" record --dry-run -F 8000 --metrics
expect "record-metrics: an unknown group" 1 "the groups are default and topdown" \
	"$PMPROF" record --dry-run --metrics=cpi

# ---- --hf-mode strobe (Arm's strobe_period, config2:0-31)
dry strobe sysfs-arm-strobe --hf-mode auto -e '{cycles/period=1000000,hf-period=300/,instructions}:uS'
check_py "record-metrics: auto picks strobe and builds config2 from the format" strobe '
e = ev[0]
assert e["hf_mode"] == "strobe"
assert e["config2"] == 300 and e["sample_period"] == 999700, e
assert e["hf_sample_period"] == 0 and e["size"] == 128
assert ev[1]["config2"] == 0
'
"$PMPROF" record --sysfs "$D/sysfs-arm-strobe" --dry-run --plan 4 \
	-e '{cycles/period=1000000,hf-period=300/,instructions}:uS' >strobe.txt 2>&1
check "record-metrics: the text says strobe and why, and alternates" sh -c \
	"grep -q '^hf mode: strobe (armv8_pmuv3_0.s format/strobe_period' strobe.txt &&
	 grep -q 'plan: 999700 opening, 300 short, 999700 long, 300 short' strobe.txt"
expect "record-metrics: strobe refuses hf-rand" 1 "alternates two fixed periods" \
	"$PMPROF" record --sysfs "$D/sysfs-arm-strobe" --dry-run --hf-mode strobe \
	-e 'cycles/period=1000000,hf-period=300,hf-rand=3/'
expect "record-metrics: strobe needs the short period under half" 1 "below half the period" \
	"$PMPROF" record --sysfs "$D/sysfs-arm-strobe" --dry-run --hf-mode strobe \
	-e 'cycles/period=1000,hf-period=600/'
expect "record-metrics: strobe needs a strobing PMU" 1 "no PMU here has a strobe_period" \
	"$PMPROF" record --dry-run --hf-mode strobe -e 'cycles/period=1000000,hf-period=300/'
dry nostrobe sysfs-arm-strobe -e 'cycles/period=1000000,hf-period=300,hf-burst=4/'
check_py "record-metrics: with hf-burst auto does not strobe" nostrobe '
assert ev[0]["hf_mode"] == "burst" and ev[0]["config2"] == 0
'

# ---- recording here: -F with --metrics has windows; the summary counts
# the recorder's burst stops apart from the kernel's throttling
W="$TOP/$BUILD/bench/workload"
"$PMPROF" record -F 200 --metrics -o f.data -- "$W" -n 1500 >/dev/null 2>f.err
"$PMPROF" metrics -i f.data --format json >f.json
check "record-metrics: -F 200 --metrics records windows" python3 -c '
import json
d = json.load(open("f.json"))
assert d["kept"] + d["discarded"] > 0, d
assert d["burst_stops"] > 0 and d["throttles"] == 0, d
g = d["groups"][0]
assert g["events"] == 4 and g["enabled_ns"] > 0 and g["running_ns"] == g["enabled_ns"], g
'
"$PMPROF" metrics -i f.data >f.txt
check "record-metrics: the summary names burst stops and the kernel's throttles" \
	grep -Eq '^# .*throttles 0 \(the kernel.s\), burst stops [1-9][0-9]*, lost 0 \(0 samples\)' f.txt
check "record-metrics: software events only: said, with where to look" \
	grep -q '^# software events only (no hardware PMU where this was recorded).*pmprof sim' f.txt
check "record-metrics: the groups' counting time" grep -q '^# the group counted all of its enabled time' f.txt
# a counter's own columns go by its event without the sampling terms
# (the counts keep the whole name); two that would read alike keep theirs
"$PMPROF" metrics -i f.data --ci >f.ci.txt
check "record-metrics: software --ci: %cpu-clock and ±%task-clock columns, in 120" python3 -c '
import json, sys
d = json.load(open("f.json"))
f = d["functions"][0]
assert d["events"][0].startswith("cpu-clock/freq=200,"), d["events"]
assert "%cpu-clock" in f["metrics"] and "%task-clock" in f["metrics"], f["metrics"]
assert d["events"][0] in f["counts"], f["counts"]
head = [l for l in open("f.ci.txt") if l.startswith("Symbol")][0].split()
assert "%cpu-clock" in head and "\u00b1%task-clock" in head, head
assert max(len(l.rstrip("\n")) for l in open("f.ci.txt") if not l.startswith("#")) <= 120
'
"$PMPROF" sim -q arm-benchmark --iterations 2000 -o two.data \
	-e '{cycles/period=1000000,hf-period=300/,instructions}:uS,{cycles/period=2000000,hf-period=300/,instructions}:uS'
"$PMPROF" metrics -i two.data --format json >two.json
check "record-metrics: two cycles of other periods keep their whole names" python3 -c '
import json
m = json.load(open("two.json"))["functions"][0]["metrics"]
assert "%cycles/period=2000000,hf-period=300/" in m and "%cycles" not in m, sorted(m)
'
# the records' headers, at the offsets pmprof dump gives: misc bit 13
"$PMPROF" dump -i f.data | awk '$3 ~ /THROTTLE/ { print $1 }' >f.stops
check "record-metrics: the recorder's THROTTLE and UNTHROTTLE records are marked" python3 -c '
import struct
offs = [int(l, 16) for l in open("f.stops")]
data = open("f.data", "rb").read()
assert len(offs) > 2
for o in offs:
    typ, misc, size = struct.unpack_from("<IHH", data, o)
    assert typ in (5, 6) and misc == 1 << 13, (hex(o), typ, hex(misc))
'


# PMU_CAPS from the PMU tree, as perf reads it
"$PMPROF" record -q --sysfs "$D/sysfs-neoverse-n2" -e cpu-clock -o caps.data -- true
if command -v perf >/dev/null 2>&1; then
	check "record-metrics: perf reads the recording's PMU capabilities" sh -c \
		"perf report --header-only -i caps.data 2>/dev/null | grep -qx '# armv8_pmuv3_0 pmu capabilities: bus_slots=0x00000000, bus_width=0x00000040, slots=0x00000005'"
else
	skip "record-metrics: perf reads PMU_CAPS" "no perf"
fi
