#!/usr/bin/env bash
# `make demo` in a clean clone (committed files only): exits 0, prints the
# workload's functions in a table, and leaves no perf.data in the clone.
# How long it takes is for `make bench` (bench/run.sh demo): here the
# times are only printed, as the machine's load decides them.
. "$(dirname "$0")/../lib.sh"

if ! "$PMPROF" record -q -e cpu-clock -o "$TMP/probe.data" -- true >/dev/null 2>&1; then
	skip demo "pmprof record cannot open cpu-clock here (perf_event_paranoid?)"
	exit 0
fi
if ! git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	skip demo "$TOP is not a git checkout"
	exit 0
fi

git clone -q "$TOP" "$TMP/clone"
check "demo: clone" test -f "$TMP/clone/scripts/demo.sh"

# deps.sh --runtime installs nothing when everything is there; the build
# of the clone is most of the time.
start=$(date +%s)
timeout 900 make -C "$TMP/clone" -j2 demo >"$TMP/out" 2>&1	# a hang guard
rc=$?
secs=$(( $(date +%s) - start ))
if [ "$rc" -eq 0 ]; then
	ok "demo: make demo exits 0"
else
	not_ok "demo: make demo exits 0 (status $rc)"
	tail -30 "$TMP/out" | sed 's/^/# /'
fi
echo "# demo: make demo took ${secs} s, build included"

# The demo's own part: from its first heading on.
sed -n '/^==== /,$p' "$TMP/out" >"$TMP/demo"
check "demo: printed its headings" grep -q '^==== ' "$TMP/demo"

# A table row per behaviour: a percentage (report) or a sample count
# (metrics, sim --compare) on the same line as the function's name.
for f in int_divider_stalls fp_divider_stalls isb branch_mispredicts dcache_miss; do
	if grep -Eq "([0-9]+\.[0-9]+%|^$f +[0-9]+ ).*$f|^$f +[0-9]+ " "$TMP/demo"; then
		ok "demo: table row for $f"
	else
		not_ok "demo: table row for $f"
		head -60 "$TMP/demo" | sed 's/^/# /'
	fi
done

# Without a PMU the demo also shows the simulator beside the truth.
if grep -q 'No hardware PMU' "$TMP/demo"; then
	check "demo: report shown" grep -q 'pmprof report' "$TMP/demo"
	check "demo: sim --compare shows the truth" grep -q 'true CPI' "$TMP/demo"
fi

# The demo says when it is done (and how long it took, for the record).
d=$(sed -n 's/^==== Done in \([0-9]*\) s.*/\1/p' "$TMP/demo")
if [ -n "$d" ]; then
	ok "demo: says it is done"
	echo "# demo: the demo part took ${d} s"
else
	not_ok "demo: no '==== Done in N s' line"
fi

# Nothing written into the clone but the (ignored) build.
check_eq "demo: nothing left in the clone" "" \
	"$(git -C "$TMP/clone" status --porcelain --untracked-files=all)"
