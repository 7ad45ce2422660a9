#!/usr/bin/env bash
# First of make check-lab's checks (tests/run.sh runs them in name order):
# build the guest (scripts/lab/build.sh: the Debian parts, pmprof for
# arm64, the lab kernel; each cached). A missing package or a failed
# download fails here with its reason; the later checks then fail for
# want of a guest, they do not skip.
. "$(dirname "$0")/guest.bash"
t0=$(date +%s)
if "$TOP/scripts/lab/build.sh" >"$TMP/build.out" 2>"$TMP/build.err"; then
	ok "lab-build: the guest is ready ($(( $(date +%s) - t0 )) s; $(grep -c . "$MANIFEST") parts in $MANIFEST)"
	hf=$(awk '$1 == "hf_kernel" { print $2 }' "$MANIFEST")
	[ -n "$hf" ] && [ -f "$(dirname "$hf")/build.log" ] &&
		echo "# lab kernel: $(sed -n 2p "$(dirname "$hf")/build.log")"
else
	# build.sh's last message of its own is the reason (lab_die's)
	reason=$(grep '^lab: ' "$TMP/build.err" | tail -1)
	not_ok "lab-build: scripts/lab/build.sh failed: ${reason:-$(grep . "$TMP/build.err" | tail -1)}"
	grep -v 'gcc-12 \|^ar rcs' "$TMP/build.err" | tail -20 | sed 's/^/# /'
fi
