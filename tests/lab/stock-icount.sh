#!/usr/bin/env bash
# The lab, Debian's arm64 kernel (no hf_sample), QEMU's -icount: cycles
# count instructions exactly and samples land without skid, so what
# pmprof measures can be held to the workload's own count.
#   - record --hf-mode auto with a cycles-led group picks burst and says
#     why (the kernel refuses the 144-byte attr: E2BIG);
#   - every short window is exactly the short period (300), the burst
#     structure holds (tests/tools/burst-check.awk: UNTHROTTLE, N+1
#     samples, THROTTLE per burst);
#   - pmprof metrics gives each behaviour's share of the instructions
#     within 1 percentage point of the truth the workload counts itself
#     (workload --truth: a user-only instructions counter around every
#     call, same iterations, same instructions);
#   - record --metrics picks the hardware group with the events this PMU
#     has, says which it left out and why; pmprof metrics prints CPI and
#     IPC per function (exactly 1.00: cycles = instructions here); the
#     guest's perf reads that file and counts the same samples.
# One vCPU: with -icount QEMU runs vCPUs in turn, and a timer of a
# sleeping vCPU waits for the busy one's time slice (measured: a 100 us
# sleep beside a busy vCPU takes 10 ms), which would starve burst
# re-arming; on one vCPU the recorder preempts the workload on time.
. "$(dirname "$0")/guest.bash"
lab_ready stock-icount

N=40000 P=10000 S=300 B=2
SPEC="{cycles/period=$P,hf-period=$S,hf-burst=$B/,instructions}:uS"
# The truth from a short run: every behaviour runs once per iteration and
# its instructions per call do not vary (measured: the same to 1 in 10^5
# at 3000 and 20000 iterations), so the shares do not depend on N.
guest stock-icount --icount --smp 1 --timeout 2400 -- "
cd /tmp
workload -n 500 --truth >\$LAB_OUT/truth.txt
pmprof record --hf-mode auto -e '$SPEC' -o \$LAB_OUT/b.data -- workload -n $N >/dev/null 2>\$LAB_OUT/burst.err
echo \$? >\$LAB_OUT/burst.rc
pmprof metrics --mode none --format json -i \$LAB_OUT/b.data >\$LAB_OUT/burst.json
pmprof record --hf-mode auto -e '{cycles/period=$P,hf-period=$S/,instructions}:uS' -o a.data -- workload -n 100 >/dev/null 2>\$LAB_OUT/auto.err
echo \$? >\$LAB_OUT/auto.rc
pmprof record --metrics -o m.data -- workload -n 2000 >/dev/null 2>\$LAB_OUT/metrics.err
echo \$? >\$LAB_OUT/metrics.rc
pmprof metrics -i m.data >\$LAB_OUT/metrics.txt 2>&1
sh /lab/add/tools/record-check.sh pmprof m.data \$LAB_OUT/metrics.err >\$LAB_OUT/perf.check 2>&1
"
O="$TMP/stock-icount"
# the burst file is big: its structure is checked here, by the host's pmprof
"$PMPROF" dump -i "$O/b.data" 2>"$TMP/dump.err" |
	awk -v N=$B -v S=$S -v TOL=0 -f "$TOP/tests/tools/burst-check.awk" >"$O/burst.check"

if [ "$(cat "$O/auto.rc" 2>/dev/null)" = 0 ] &&
   grep -q "hf mode: burst (this kernel does not take 144-byte attrs with hf_sample (perf_event_open: E2BIG" "$O/auto.err"; then
	ok "stock-icount: --hf-mode auto picks burst and says why: $(grep -o 'E2BIG[^)]*' "$O/auto.err" | head -1)"
else
	not_ok "stock-icount: --hf-mode auto picks burst and says why"
	show "$O/auto.err" "$TMP/stock-icount.err"
fi
if [ "$(cat "$O/burst.rc" 2>/dev/null)" = 0 ] &&
   grep -q "hf mode: burst (.*hf-burst and hf-jitter have no kernel ABI)" "$O/burst.err"; then
	ok "stock-icount: with hf-burst=$B, auto picks burst: the kernel ABI has no bursts"
else
	not_ok "stock-icount: with hf-burst=$B, auto picks burst"
	show "$O/burst.err"
fi

# "bursts B bad K short_bursts C windows W min A p50 M p95 Q max X within T"
read -r _ b _ bad _ sh _ w _ mn _ _ _ _ _ mx _ within <"$O/burst.check" 2>/dev/null
if [ -n "${b:-}" ] && [ "$bad" = 0 ] && [ "$b" -gt 1000 ] && [ "$w" -ge $(( (b - sh) * B )) ]; then
	ok "stock-icount: burst structure: $b bursts, $B windows each ($w windows)"
else
	not_ok "stock-icount: burst structure"
	show "$O/burst.check"
fi
if [ -n "${w:-}" ] && [ "$w" -gt 0 ] && [ "$mn" = $S ] && [ "$mx" = $S ] && [ "$within" = "$w" ]; then
	ok "stock-icount: every one of $w short windows is exactly $S cycles"
else
	not_ok "stock-icount: every short window is exactly $S cycles"
	show "$O/burst.check"
fi
if grep -q '^[0-9]* samples$' "$O/perf.check" 2>/dev/null; then
	ok "stock-icount: the guest's perf reads the --metrics file and counts the same: $(cat "$O/perf.check")"
else
	not_ok "stock-icount: the guest's perf reads the --metrics file and counts the same samples"
	show "$O/perf.check"
fi
if out=$(python3 "$TOP/tests/tools/lab_shares.py" "$O/truth.txt" "$O/burst.json" 1.0 2>&1); then
	ok "stock-icount: instruction shares within 1 point of the workload's count ($(tail -1 <<<"$out"))"
	sed 's/^/# /' <<<"$out"
else
	not_ok "stock-icount: instruction shares within 1 point of the workload's count"
	sed 's/^/# /' <<<"$out"
fi

# --metrics: the hardware group, what it left out and why
if [ "$(cat "$O/metrics.rc" 2>/dev/null)" = 0 ] &&
   grep -q -- '--metrics: {cycles/period=1000000,hf-period=300/,instructions}:uS' "$O/metrics.err" &&
   grep -q 'hardware PMU found; left out branch-instructions, branch-misses, cache-references, cache-misses: this PMU does not count them' "$O/metrics.err"; then
	ok "stock-icount: --metrics picks cycles and instructions, says what it left out and why"
else
	not_ok "stock-icount: --metrics picks the hardware group and says what it left out"
	show "$O/metrics.err"
fi
# CPI and IPC columns, every behaviour present with 1.00 for both
rows=$(awk '/^Symbol/ { for (i = 1; i <= NF; i++) { if ($i == "CPI") c = i; if ($i == "IPC") p = i }; next }
	c && $1 ~ /^(branch_mispredicts|int_divider_stalls|double_to_int|fp_divider_stalls|isb|dcache_miss|nops)$/ {
		n++; if ($c != "1.00" || $p != "1.00") bad++ }
	END { print n + 0, bad + 0, c + 0, p + 0 }' "$O/metrics.txt" 2>/dev/null)
read -r n bad c p <<<"$rows"
if [ "$c" -gt 0 ] && [ "$p" -gt 0 ] && [ "$n" -ge 5 ] && [ "$bad" = 0 ]; then
	ok "stock-icount: metrics prints CPI and IPC for $n behaviours, each 1.00 (cycles = instructions)"
else
	not_ok "stock-icount: metrics prints CPI and IPC per function ($rows)"
	show "$O/metrics.txt"
fi
