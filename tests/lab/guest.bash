# Shared by tests/lab/*.sh (make check-lab): tests/lib.sh's ok/not_ok
# plus the guest (tests/run.sh runs tests/lab/*.sh; this is sourced).
# The guest is built by `make check-lab` (scripts/lab/build.sh);
# a test whose guest is missing fails, it never skips: the lab exists to
# run these checks.
# The lab's cache (scripts/lab/lib.sh: kernel, guest parts, sysroots) is
# the machine's, outside the test: tests/lib.sh gives every test a HOME of
# its own, and a cache under that HOME would be built again by each run
# (the kernel: half an hour) and removed when the test that built it
# exits, under the feet of the tests that boot its kernel.
export PMPROF_LAB_CACHE="${PMPROF_LAB_CACHE:-${HOME:-/root}/.cache/pmprof-lab}"
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
LAB_RUN="$TOP/scripts/lab/run.sh"
MANIFEST="$TOP/$BUILD/lab/manifest"

# lab_ready NAME: the guest that tests/lab/0-build.sh made, every part
# of it still there (the manifest names files in the lab's cache); else
# one failed check saying what is missing, and the test ends.
lab_ready() {
	local key path
	if [ ! -f "$MANIFEST" ]; then
		not_ok "$1: no guest: $MANIFEST missing (scripts/lab/build.sh failed or did not run: see lab-build)"
		exit 0
	fi
	while read -r key path; do
		case $path in /*) ;; *) continue ;; esac	# a value, not a file
		[ -f "$path" ] && continue
		not_ok "$1: the guest's $key is gone: $path (named by $MANIFEST)"
		exit 0
	done <"$MANIFEST"
}

# first_reason FILE: the line of FILE that says why the guest or run.sh
# failed (run.sh's and the guest's init's own messages), else its last.
first_reason() {
	local r
	r=$(grep -m1 -E '^(run\.sh|lab|lab-init): ' "$1" 2>/dev/null)
	[ -n "$r" ] || r=$(grep . "$1" 2>/dev/null | tail -1)
	printf '%s' "${r:-no message}"
}

# why FILE...: one line for a failed check's not_ok line: the first
# error-looking line of the first FILE that has one ("FILE: missing" for
# one that does not exist), so that the reason shows where only the
# not_ok lines of a long log do.
why() {
	local f r
	for f in "$@"; do
		if [ ! -f "$f" ]; then
			printf '%s: missing' "$(basename "$f")"
			return
		fi
		r=$(grep -m1 -iE 'error|fail|cannot|refuse|invalid|not |no such|E2BIG|EINVAL|bad|usage' "$f")
		if [ -n "$r" ]; then
			printf '%s: %s' "$(basename "$f")" "$r"
			return
		fi
	done
	f=$1
	r=$(grep . "$f" | tail -1)
	printf '%s: %s' "$(basename "$f")" "${r:-empty}"
}

# guest NAME [run.sh options] -- SCRIPT: run the sh script SCRIPT (a
# string) in the guest, with tests/tools in /lab/add/tools; its output
# directory comes back as $TMP/NAME, its stdout in $TMP/NAME.out, its
# stderr and the console in $TMP/NAME.err and $TMP/NAME.console. Sets RC.
guest() {
	local name=$1 opts=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	mkdir -p "$TMP/$name.add/tools"
	cp "$TOP"/tests/tools/*.awk "$TOP"/tests/tools/*.sh "$TMP/$name.add/tools/"
	printf 'set -u\n%s\n' "$1" >"$TMP/$name.add/script.sh"
	"$LAB_RUN" --timeout "${LAB_TIMEOUT:-1800}" "${opts[@]}" --add "$TMP/$name.add" --out "$TMP/$name" \
		--log "$TMP/$name.console" -- sh /lab/add/script.sh \
		>"$TMP/$name.out" 2>"$TMP/$name.err"
	RC=$?
	if [ "$RC" = 125 ]; then
		not_ok "$name: the guest failed: $(first_reason "$TMP/$name.err")"
		sed 's/^/# /' "$TMP/$name.err" | tail -20
		exit 0
	fi
}

# show FILE...: a failed check's evidence
show() {
	local f
	for f in "$@"; do
		[ -f "$f" ] && sed "s|^|# $(basename "$f"): |" "$f" | head -15
	done
}
