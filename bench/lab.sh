#!/usr/bin/env bash
# `make bench` section "lab": what recording costs, measured without noise
# in the lab's arm64 guest (scripts/lab/, built by scripts/lab/build.sh)
# on Debian's kernel with QEMU's -icount shift=0,sleep=off and one vCPU:
# the guest's clock advances one nanosecond per instruction executed,
# kernel and recorder included, and jumps over idle time, so the
# workload's elapsed guest time (workload --elapsed) is the same from run
# to run whatever the host's load, and its growth under a recorder is the
# recording's whole cost on that CPU. For each way of recording:
#   plain          no recorder
#   pmprof         pmprof record --metrics (burst: 8 windows of 300 cycles
#                  every 8,000,000 cycles, instructions, call chains)
#   perf           perf record of the same group at the long period, with
#                  the same call chains, times and CPUs (perf has no windows)
#   pmprof fixed   pmprof record --hf-mode fixed, every sample at the short
#                  period (300): what burst saves
# Goal (issue 15, after the seed and DCPI): burst under 2%. Beside its
# figure: the short windows per second of guest time (a burst's samples
# less its opening one) and the bursts, the data that overhead buys.
#
# bench/run.sh sources this file (it defines section_lab); alone:
#   bench/lab.sh        (BUILD; LAB_ITER iterations, default 8000: 1 s of
#                        guest time; LAB_FIXED_ITER for fixed, default 500)

LAB_ITER=${LAB_ITER:-8000}
LAB_FIXED_ITER=${LAB_FIXED_ITER:-500}
LAB_GROUP='{cycles/period=1000000,hf-period=300/,instructions}:uS'
LAB_PERF_GROUP='{cycles/period=1000000/,instructions}:uS'

section_lab() {
	local out="$TMP/lab.out" err="$TMP/lab.err" plain pm perf fixed plain_f t0 bursts nsamp wps
	printf '\n== lab: the workload'"'"'s guest time (arm64, Debian kernel, -icount, 1 vCPU) with and without a recorder\n'
	if [ ! -f "$BUILD/lab/manifest" ]; then
		echo "lab: no guest ($BUILD/lab/manifest): scripts/lab/build.sh first"
		summary "lab: pmprof record --metrics < 2% (icount guest time)" "no guest: scripts/lab/build.sh" "MISSED"
		return
	fi
	t0=$(date +%s)
	scripts/lab/run.sh --icount --smp 1 -- sh -c "
cd /tmp
echo plain \$(workload -e -n $LAB_ITER)
echo pmprof \$(pmprof record --metrics -q -o m.data -- workload -e -n $LAB_ITER)
echo perf \$(perf record -q -e '$LAB_PERF_GROUP' --call-graph fp,4 -T --sample-cpu -o p.data -- workload -e -n $LAB_ITER)
echo plain_fixed \$(workload -e -n $LAB_FIXED_ITER)
echo fixed \$(pmprof record --hf-mode fixed -q -e '$LAB_GROUP' -o f.data -- workload -e -n $LAB_FIXED_ITER)
echo bursts pmprof \$(pmprof dump -i m.data | grep -c ' UNTHROTTLE ')
echo samples pmprof \$(pmprof dump -i m.data | grep -c ' SAMPLE ') perf \$(pmprof dump -i p.data | grep -c ' SAMPLE ') fixed \$(pmprof dump -i f.data | grep -c ' SAMPLE ')
" >"$out" 2>"$err"
	get() { awk -v k="$1" '$1 == k && $2 == "elapsed" { print $3 }' "$out"; }
	plain=$(get plain) pm=$(get pmprof) perf=$(get perf) plain_f=$(get plain_fixed) fixed=$(get fixed)
	if [ -z "$plain" ] || [ -z "$pm" ] || [ -z "$perf" ] || [ -z "$fixed" ] || [ -z "$plain_f" ]; then
		echo "lab: the guest run failed:"
		sed 's/^/  /' "$err" | tail -10
		summary "lab: pmprof record --metrics < 2% (icount guest time)" "guest run failed" "MISSED"
		return
	fi
	# a burst's samples: its opening one (the end of the long window),
	# then one per short window
	bursts=$(awk '$1 == "bursts" { print $3 }' "$out")
	nsamp=$(awk '$1 == "samples" { print $3 }' "$out")
	wps=$(awk -v s="$nsamp" -v b="$bursts" -v ns="$pm" 'BEGIN { if (ns > 0 && s != "" && b != "") printf "%.0f", (s - b) / (ns / 1e9); else print "?" }')
	pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (a / b - 1) * 100 }'; }
	printf '%-44s %16s %10s\n' "recording" "guest ns" "overhead"
	printf '%-44s %16s %10s\n' "plain ($LAB_ITER iterations)" "$plain" "-"
	printf '%-44s %16s %9s%%   %s short windows/s, %s bursts\n' "pmprof record --metrics" "$pm" "$(pct "$pm" "$plain")" "$wps" "$bursts"
	printf '%-44s %16s %9s%%\n' "perf record, the group at the long period" "$perf" "$(pct "$perf" "$plain")"
	printf '%-44s %16s %10s\n' "plain ($LAB_FIXED_ITER iterations)" "$plain_f" "-"
	printf '%-44s %16s %9s%%\n' "pmprof record --hf-mode fixed (300)" "$fixed" "$(pct "$fixed" "$plain_f")"
	grep '^samples' "$out"
	echo "lab: $(( $(date +%s) - t0 )) s of host time"
	note_cmd scripts/lab/run.sh --icount --smp 1 -- workload -e -n "$LAB_ITER"
	note_cmd pmprof record --metrics -- workload -e -n "$LAB_ITER"
	note_cmd perf record -e "$LAB_PERF_GROUP" --call-graph fp,4 -T --sample-cpu -- workload -e -n "$LAB_ITER"
	note_cmd pmprof record --hf-mode fixed -e "$LAB_GROUP" -- workload -e -n "$LAB_FIXED_ITER"
	summary "lab: pmprof record --metrics < 2% (icount guest time)" \
		"$(pct "$pm" "$plain")% at $wps windows/s (perf at the long period $(pct "$perf" "$plain")%, fixed at 300 $(pct "$fixed" "$plain_f")%)" \
		"$(verdict "$(pct "$pm" "$plain") < 2")"
}

# Alone: the section with bench/run.sh's helpers.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run.sh" lab
fi
