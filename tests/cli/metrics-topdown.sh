#!/usr/bin/env bash
# Top-down level 1 per function against the simulator's truth: the
# topdown model (a frontend-, a backend-, a speculation- and a
# retiring-bound function on 5 slots per cycle) recorded with Neoverse raw
# codes (CPU_CYCLES r11, STALL_SLOT_FRONTEND r3e, STALL_SLOT_BACKEND r3d,
# OP_SPEC r3b, OP_RETIRED r3a) in one group and in two. `pmprof metrics`
# gives FE% BAD% BE% RET% within 3 percentage points of the truth for every
# function with at least 1% of the slots; the truth is computed here from
# the simulator's per-function counts, not from its metrics.
. "$(dirname "$0")/../lib.sh"

cd "$TMP" || exit 1

# compare NAME RECORDING TRUTH
compare() {
	check "$1" python3 - "$2.json" "$3" <<'PY'
import json, sys
got = {f["symbol"]: f for f in json.load(open(sys.argv[1]))["functions"]}
truth = json.load(open(sys.argv[2]))
total = sum(f["counts"]["slots"] for f in truth["functions"])
bad = []
checked = 0
for f in truth["functions"]:
    c = f["counts"]
    if c["slots"] < 0.01 * total:
        continue
    want = {
        "FE%": 100.0 * c["stall_slot_frontend"] / c["slots"],
        "BE%": 100.0 * c["stall_slot_backend"] / c["slots"],
        "BAD%": 100.0 * (c["op_spec"] - c["op_retired"]) / c["slots"],
        "RET%": 100.0 * c["op_retired"] / c["slots"],
    }
    m = got[f["symbol"]]["metrics"]
    for k, v in want.items():
        checked += 1
        if m.get(k) is None or abs(m[k] - v) > 3:
            bad.append("%s %s: %s, truth %.2f" % (f["symbol"], k, m.get(k), v))
assert checked == 16, checked          # four functions with 1% or more
assert not bad, bad
PY
}

S='-q topdown --iterations 20000 --seed 3'
"$PMPROF" sim $S -o one.data --truth one.truth \
	-e '{cycles/period=1000000,hf-period=300/,r8,r3e,r3d,r3b,r3a}:uS'
"$PMPROF" metrics -i one.data --format json >one.data.json
compare "metrics-topdown: one group within 3 points of the truth" one.data one.truth

# split as the recorder splits a group that does not fit: each half led
# by its own cycles
"$PMPROF" sim $S -o two.data --truth two.truth \
	-e '{cycles/period=1000000,hf-period=300/,r3b,r3a}:uS,{cycles/period=1000000,hf-period=300/,r3e,r3d}:uS'
"$PMPROF" metrics -i two.data --format json >two.data.json
compare "metrics-topdown: two groups within 3 points of the truth" two.data two.truth

# the columns come first, as the tools people use show them, and the
# top-down counters get no columns of their own
"$PMPROF" metrics -i one.data >one.txt
check "metrics-topdown: the table leads with the level 1" \
	sh -c "sed -n '/^Symbol/p' one.txt | grep -Eq '^Symbol +DSO +# +DIS% +FE% +BAD% +BE% +RET% +CPI'"
check "metrics-topdown: no r3e/KI or %r3e columns" sh -c "! grep -q 'r3e' one.txt"

# --slots overrides the recording's slots per cycle
"$PMPROF" metrics -i one.data --slots 5 --format json >slots5.json
check "metrics-topdown: --slots 5 is what PMU_CAPS said" python3 -c '
import json
a = json.load(open("one.data.json"))["functions"]
b = json.load(open("slots5.json"))["functions"]
assert [f["metrics"]["FE%"] for f in a] == [f["metrics"]["FE%"] for f in b]
'
"$PMPROF" metrics -i one.data --slots 10 --format json >slots10.json
check "metrics-topdown: --slots 10 halves FE%" python3 -c '
import json
a = json.load(open("one.data.json"))["functions"][0]["metrics"]["FE%"]
b = json.load(open("slots10.json"))["functions"][0]["metrics"]["FE%"]
assert abs(a - 2 * b) < 1e-9, (a, b)
'
expect "metrics-topdown: --slots 0 refused" 1 "slots" "$PMPROF" metrics -i one.data --slots 0
expect "metrics-topdown: --slots x refused" 1 "slots" "$PMPROF" metrics -i one.data --slots x
