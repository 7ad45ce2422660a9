#!/usr/bin/env bash
# `make demo`: record the bundled workload (bench/workload.c: seven
# behaviours with known hardware signatures) and show what pmprof makes of
# it. Runs after `scripts/deps.sh --runtime` and `make all`; takes well
# under a minute.
#
# With a hardware PMU: pmprof record --metrics, then pmprof metrics (the
# per-function CPI / miss table). Without one: a software-event profile
# (pmprof report), then the simulator on the same benchmark's model, whose
# metrics are shown beside the truth it kept.
#
# Everything is written into a temporary directory, removed on exit; the
# source tree is never touched.
set -u
cd "$(dirname "$0")/.." || exit 1
TOP=$PWD
BUILD=${BUILD:-build}
PMPROF="$TOP/$BUILD/pmprof"
WORKLOAD="$TOP/$BUILD/bench/workload"
ITER=${DEMO_ITERATIONS:-4000}
SIM_ITER=${DEMO_SIM_ITERATIONS:-20000}

for f in "$PMPROF" "$WORKLOAD"; do
	[ -x "$f" ] && continue
	echo "demo: $f is missing; run make first" >&2
	exit 1
done

DIR=$(mktemp -d /tmp/pmprof-demo.XXXXXX) || exit 1
trap 'rm -rf "$DIR"' EXIT
cd "$DIR" || exit 1
# The commands are shown as a user would type them: pmprof on the PATH,
# the workload beside the recording.
PATH="$TOP/$BUILD:$PATH"
ln -s "$WORKLOAD" workload

title() { printf '\n==== %s\n\n' "$*"; }
# shown CMD...: print the command (quoting what the shell would need), then
# run it.
shown() {
	local a line='$'
	for a in "$@"; do
		case "$a" in
		*[!A-Za-z0-9_./=,:+-]*) line="$line '$a'" ;;
		*) line="$line $a" ;;
		esac
	done
	printf '%s\n' "$line"
	"$@"
}

# Can this user record at all? (kernel.perf_event_paranoid, containers.)
if ! pmprof record -q -e cpu-clock -o probe.data -- true 2>probe.err; then
	echo "demo: pmprof record cannot open a perf event here:" >&2
	cat probe.err >&2
	echo "demo: as a normal user, try: sysctl kernel.perf_event_paranoid=1" >&2
	exit 1
fi
rm -f probe.data probe.err

# A hardware PMU counts instructions. perf says so directly; without perf,
# ask pmprof record --metrics which group it would choose.
have_pmu() {
	local out
	if command -v perf >/dev/null 2>&1; then
		out=$(perf stat -x, -e instructions true 2>&1) || return 1
		case "$out" in *"not supported"*|*"not counted"*) return 1 ;; esac
		return 0
	fi
	out=$(pmprof record --metrics --dry-run 2>&1) || return 1
	case "$out" in *"no hardware PMU"*) return 1 ;; esac
	return 0
}

with_pmu() {
	title "This machine"
	echo "This machine has a hardware PMU: cycles, instructions and misses can be sampled."
	title "1. Record the workload with the per-function metrics group"
	shown pmprof record --metrics -- ./workload --nest 3 -n "$ITER" || exit 1
	title "2. Per-function metrics (CPI, misses per kilo-instruction), 95% intervals"
	shown pmprof metrics --top 15 --ci || exit 1
	title "3. Hotspots (pmprof report --top 15)"
	shown pmprof report --top 15 -q || exit 1
}

without_pmu() {
	title "This machine"
	echo "No hardware PMU here (instructions cannot be counted): recording software events, then simulating the PMU."
	title "1. Record the workload with cpu-clock and call graphs (seven behaviours, 3 frames deep)"
	shown pmprof record -e cpu-clock -g -- ./workload --nest 3 -n "$ITER" || exit 1

	title "2. Hotspots: pmprof report --top 15"
	shown pmprof report --top 15 || exit 1

	local G='instructions,branch-misses,cache-references,cache-misses}:uS'
	title "3. What a PMU would show: pmprof sim on the arm-benchmark model (the same seven behaviours), hf period 1,000,000 + 300-cycle windows, metrics beside the truth"
	shown pmprof sim -q arm-benchmark --iterations "$SIM_ITER" -o hf.data \
		--compare -e "{cycles/period=1000000,hf-period=300/,$G" || exit 1

	title "4. The same run sampled every 1,000,000 cycles without windows (the smear hf avoids)"
	local hf plain
	hf=$(pmprof sim -q arm-benchmark --iterations "$SIM_ITER" -o hf.data \
		--compare --format csv -e "{cycles/period=1000000,hf-period=300/,$G" | max_cpi_err)
	plain=$(pmprof sim -q arm-benchmark --iterations "$SIM_ITER" -o plain.data \
		--compare --format csv -e "{cycles/period=1000000/,$G" | max_cpi_err)
	echo "largest CPI error of a function: hf 1,000,000 + 300: $hf; plain 1,000,000: $plain"
	echo "(plain sampling charges every function the program's average CPI; see docs/accuracy.md)"
}

# The largest |err| of CPI over the functions of a --compare CSV.
max_cpi_err() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "true CPI") c = i + 1; next }
		c { e = $c < 0 ? -$c : $c; if (e > m) { m = e; f = $1 } }
		END { printf "%.1f%% (%s)\n", m, f }'
}

START=$(date +%s)
if have_pmu; then with_pmu; else without_pmu; fi
printf '\n==== Done in %d s. More: pmprof --help, man ./docs/pmprof-metrics.1, README.md\n' \
	$(( $(date +%s) - START ))
