#!/usr/bin/env bash
# The lab kernel (scripts/lab/kernel/hf-sample.patch), with -icount:
#   - its attr rules (tests/lab/attr-rules.c, hand-made 144-byte attrs):
#     a window shorter than the period is taken, with or without the
#     random term and in freq mode; a window not shorter than the period,
#     a window on a non-sampling event, a random term without a window,
#     reserved bits: EINVAL; Debian's kernel refuses every such attr with
#     E2BIG;
#   - record --hf-mode kernel records, and every sample's period is what
#     was asked (tests/tools/hf-check.awk, from the leader's counts: P - S
#     first, then S and P - S in turn), with hf-rand the long parts stay
#     within 2^(R-1) of P - S and the windows exact; cpu-clock alternates
#     too (the kernel's hrtimer path);
#   - pmprof metrics uses the windows (short windows, as many as samples
#     / 2, every behaviour's CPI 1.00);
#   - --hf-mode auto: the behavioural probe says present, and its answer
#     is cached for the boot (a second record reads the cache);
#   (perf 6.1 refuses files with 144-byte attrs, so it reads none of
#   these.)
#   - booted with perf_hf_sample=off (the kernel takes the 144 bytes and
#     ignores them, as one with config4 in the slot would): auto detects
#     that the periods do not alternate and falls back to burst, saying
#     so; --hf-mode kernel refuses with the same reason. Burst mode wants
#     the workload's cgroup, but on a fresh boot Linux 6.1 gives cgroups
#     no perf_event state until a controller is first enabled at the
#     root, and the lab kernel has none to enable: it records per thread
#     instead and says why.
. "$(dirname "$0")/guest.bash"
lab_ready hf
CC_ARM=aarch64-linux-gnu-gcc-12

P=20000 S=300 R=6
mkdir -p "$TMP/bin"
if ! "$CC_ARM" -static -O1 -Wall -Werror -o "$TMP/bin/attr-rules" "$TOP/tests/lab/attr-rules.c" \
	>"$TMP/cc.log" 2>&1; then
	not_ok "hf: cannot build attr-rules for arm64: $(why "$TMP/cc.log")"
	show "$TMP/cc.log"
	exit 0
fi

script_for() {	# the guest script; $1: kernel label
	cat <<EOF
cp /lab/add/attr-rules /tmp/ 2>/dev/null
cd /tmp
/lab/add/attr-rules >\$LAB_OUT/rules.txt 2>&1
pmprof record --hf-mode auto -e '{cycles/period=$P,hf-period=$S/,instructions}:uS' -o a.data -- workload -n 1000 >/dev/null 2>\$LAB_OUT/auto.err
echo \$? >\$LAB_OUT/auto.rc
pmprof record --hf-mode auto -e '{cycles/period=$P,hf-period=$S/,instructions}:uS' -o a2.data -- workload -n 100 >/dev/null 2>\$LAB_OUT/auto2.err
cp /root/.cache/pmprof/hf-probe \$LAB_OUT/probe-cache 2>/dev/null
pmprof record --hf-mode kernel -e '{cycles/period=$P,hf-period=$S/,instructions}:uS' -o k.data -- workload -n 1000 >/dev/null 2>\$LAB_OUT/kernel.err
echo \$? >\$LAB_OUT/kernel.rc
if [ -s k.data ]; then
	pmprof dump -i k.data | awk -v P=$P -v S=$S -f /lab/add/tools/hf-check.awk >\$LAB_OUT/kernel.check
	pmprof metrics -i k.data >\$LAB_OUT/kernel.metrics 2>&1
	pmprof record --hf-mode kernel -e '{cycles/period=$P,hf-period=$S,hf-rand=$R/,instructions}:uS' -o r.data -- workload -n 1000 >/dev/null 2>\$LAB_OUT/rand.err
	pmprof dump -i r.data | awk -v P=$P -v S=$S -v R=$R -f /lab/add/tools/hf-check.awk >\$LAB_OUT/rand.check
	pmprof record --hf-mode kernel -e 'cpu-clock/period=1000000,hf-period=100000/' -o c.data -- workload -n 1000 >/dev/null 2>\$LAB_OUT/clock.err
	pmprof dump -i c.data | awk '\$3 == "SAMPLE" { for (i = 1; i <= NF; i++) if (\$i ~ /^time=/) { t = substr(\$i, 6) + 0; if (n++) print t - last; last = t } }' >\$LAB_OUT/clock.deltas
fi
EOF
}

rules_expect() {	# the attr rules each kernel must show
	case $1 in
	hf) printf '%s\n' "window ok" "window+rand ok" "window-not-shorter EINVAL" \
		"window-without-sampling EINVAL" "rand-without-window EINVAL" \
		"window-with-freq ok" "reserved-bits EINVAL" "config3-slot EINVAL" ;;
	off) printf '%s\n' "window ok" "window+rand ok" "window-not-shorter ok" \
		"window-without-sampling ok" "rand-without-window ok" \
		"window-with-freq ok" "reserved-bits ok" "config3-slot EINVAL" ;;
	esac
}

cp "$TMP/bin/attr-rules" "$TMP/attr-rules"
mkdir -p "$TMP/hf.add" "$TMP/hf-off.add"
cp "$TMP/attr-rules" "$TMP/hf.add/"
cp "$TMP/attr-rules" "$TMP/hf-off.add/"

# ---- the feature on ----------------------------------------------------------
guest hf --kernel hf --icount --smp 1 -- "$(script_for hf)"
O="$TMP/hf"
rules_expect hf >"$TMP/rules.want"
check_files_eq "hf: the kernel's attr rules" "$TMP/rules.want" "$O/rules.txt"

if [ "$(cat "$O/auto.rc" 2>/dev/null)" = 0 ] && grep -q '^pmprof record: hf mode kernel' "$O/auto.err"; then
	ok "hf: --hf-mode auto picks kernel"
else
	not_ok "hf: --hf-mode auto picks kernel: exit $(cat "$O/auto.rc" 2>/dev/null); $(why "$O/auto.err")"
	show "$O/auto.err"
fi
if grep -q " 0 0 present the kernel alternates sample periods as asked" "$O/probe-cache" 2>/dev/null &&
   [ "$(wc -l <"$O/probe-cache")" = 1 ]; then
	ok "hf: the probe's answer is cached for this boot: $(cut -d' ' -f4- "$O/probe-cache")"
else
	not_ok "hf: the probe's answer is cached for this boot: $(why "$O/probe-cache")"
	show "$O/probe-cache"
fi
if [ "$(cat "$O/kernel.rc" 2>/dev/null)" = 0 ]; then
	ok "hf: --hf-mode kernel records"
else
	not_ok "hf: --hf-mode kernel records: exit $(cat "$O/kernel.rc" 2>/dev/null); $(why "$O/kernel.err")"
	show "$O/kernel.err"
fi
read -r _ n _ bad _ lmin _ lmax _ smin _ smax <"$O/kernel.check" 2>/dev/null
if [ "${bad:-x}" = 0 ] && [ "$n" -gt 1000 ] && [ "$lmin" = $((P - S)) ] && [ "$lmax" = $((P - S)) ] &&
   [ "$smin" = $S ] && [ "$smax" = $S ]; then
	ok "hf: each of $n samples' periods as asked: $((P - S)) then $S in turn, exactly"
else
	not_ok "hf: every sample's period alternates exactly: $(why "$O/kernel.check" "$O/kernel.err")"
	show "$O/kernel.check"
fi
read -r _ n _ bad _ lmin _ lmax _ smin _ smax <"$O/rand.check" 2>/dev/null
half=$((1 << (R - 1)))
if [ "${bad:-x}" = 0 ] && [ "$n" -gt 1000 ] && [ "$lmin" -ge $((P - S - half)) ] &&
   [ "$lmax" -le $((P - S + half - 1)) ] && [ "$lmin" -lt "$lmax" ] && [ "$smin" = $S ] && [ "$smax" = $S ]; then
	ok "hf: hf-rand=$R: long parts in [$lmin, $lmax] within $((P - S)) +- $half, windows exactly $S ($n samples)"
else
	not_ok "hf: hf-rand=$R keeps the jitter in its range: $(why "$O/rand.check" "$O/rand.err")"
	show "$O/rand.check"
fi
# cpu-clock: time between samples, 100 us and 900 us in turn. An hrtimer
# never fires early but may fire late, by as much as the host's load
# delays the guest (seen: 80 us and 122 us, once in 250): what shows the
# alternation is that every short interval is short (under half the
# long period) and every long one long, however late.
clock=$(awk 'NR % 2 == 1 && ($1 < 95000 || $1 >= 450000) { bad++; if (bad < 5) print "interval " NR ": " $1 }
	NR % 2 == 0 && ($1 < 855000 || $1 > 10000000) { bad++; if (bad < 5) print "interval " NR ": " $1 }
	END { print "intervals " NR " bad " bad + 0 }' "$O/clock.deltas" 2>&1)
if grep -q '^intervals [0-9][0-9]* bad 0$' <<<"$clock" && [ "$(wc -l <"$O/clock.deltas")" -gt 20 ]; then
	ok "hf: cpu-clock alternates 100 us and 900 us ($(tail -1 <<<"$clock"))"
else
	not_ok "hf: cpu-clock alternates its periods: $(tail -1 <<<"$clock"), $(wc -l <"$O/clock.deltas" 2>/dev/null || echo no) intervals; $(why "$O/clock.err")"
	sed 's/^/# /' <<<"$clock"
	show "$O/clock.err"
fi
line=$(grep '^# windows used' "$O/kernel.metrics" 2>/dev/null)
used=$(sed -n 's/^# windows used \([0-9]*\),.*short windows.*/\1/p' <<<"$line")
if [ -n "$used" ] && [ "$used" -gt 500 ] &&
   awk '$1 == "nops" || $1 == "int_divider_stalls" { n++; if ($5 != "1.00") bad++ } END { exit !(n == 2 && !bad) }' "$O/kernel.metrics"; then
	ok "hf: pmprof metrics uses the kernel's windows: $line"
else
	not_ok "hf: pmprof metrics uses the kernel's windows: ${line:-no windows line}; $(why "$O/kernel.metrics")"
	show "$O/kernel.metrics"
fi

# ---- the feature off at boot ---------------------------------------------------
guest hf-off --kernel hf --icount --smp 1 --append perf_hf_sample=off -- "$(script_for off)"
O="$TMP/hf-off"
rules_expect off >"$TMP/rules.want"
check_files_eq "hf-off: the kernel takes the 144 bytes and ignores hf_sample" "$TMP/rules.want" "$O/rules.txt"
if [ "$(cat "$O/auto.rc" 2>/dev/null)" = 0 ] &&
   grep -q "hf mode: burst (the kernel takes 144-byte attrs but ignores hf_sample_period: every sample's period is 100000" "$O/auto.err"; then
	ok "hf-off: --hf-mode auto sees the periods do not alternate and falls back to burst"
else
	not_ok "hf-off: --hf-mode auto falls back to burst: exit $(cat "$O/auto.rc" 2>/dev/null); $(why "$O/auto.err")"
	show "$O/auto.err"
fi
if grep -q "burst: the workload's cgroup takes no perf events (perf_event_open: No such file or directory): this kernel gives cgroups none until a controller is first enabled in /sys/fs/cgroup/cgroup.subtree_control, and it has none to enable" "$O/auto.err" &&
   grep -q "only its first thread is recorded, per thread without inherit" "$O/auto.err" &&
   grep -q "hf mode burst, per thread, without inherit" "$O/auto.err"; then
	ok "hf-off: burst without a cgroup controller to enable records per thread and says why"
else
	not_ok "hf-off: burst without a cgroup controller to enable falls back to per thread: $(grep -m1 'burst' "$O/auto.err" 2>/dev/null || why "$O/auto.err")"
	show "$O/auto.err"
fi
if grep -q " 0 0 absent the kernel takes 144-byte attrs but ignores" "$O/probe-cache" 2>/dev/null; then
	ok "hf-off: the probe's answer (absent) is cached for this boot"
else
	not_ok "hf-off: the probe's answer is cached: $(why "$O/probe-cache")"
	show "$O/probe-cache"
fi
if [ "$(cat "$O/kernel.rc" 2>/dev/null)" = 1 ] &&
   grep -q -- "--hf-mode kernel: the kernel takes 144-byte attrs but ignores hf_sample_period" "$O/kernel.err"; then
	ok "hf-off: --hf-mode kernel refuses, saying why"
else
	not_ok "hf-off: --hf-mode kernel refuses: exit $(cat "$O/kernel.rc" 2>/dev/null); $(why "$O/kernel.err")"
	show "$O/kernel.err"
fi
