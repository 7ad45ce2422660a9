#!/usr/bin/env bash
# pmprof record's errors: non-zero exits with messages that say what to do.
. "$(dirname "$0")/../lib.sh"
cd "$TMP" || exit 1

# expect NAME STATUS PATTERN CMD...: CMD exits STATUS and its stderr
# matches PATTERN (grep -E).
expect() {
	local name=$1 want=$2 pat=$3 rc
	shift 3
	"$@" >out.txt 2>err.txt
	rc=$?
	if [ "$rc" = "$want" ] && grep -Eq -- "$pat" err.txt; then
		ok "$name (exit $rc)"
	else
		not_ok "$name: exit $rc, wanted $want"
		sed 's/^/# /' err.txt | head -5
	fi
}

expect "a bad event" 1 "event syntax error|unknown event|bogus" \
	"$PMPROF" record -o x.data -e bogus-event -- true
expect "a missing program exits 127 with the reason" 127 "cannot run 'no-such-program-pmprof': No such file or directory" \
	"$PMPROF" record -o x.data -e cpu-clock -- no-such-program-pmprof
[ -s x.data ] && "$PMPROF" dump -i x.data >/dev/null 2>&1 &&
	ok "a missing program still leaves a valid file" || not_ok "a missing program still leaves a valid file"
expect "a bad -C list" 1 "bad CPU list '0-x'" \
	"$PMPROF" record -o x.data -C 0-x -e cpu-clock -- true
expect "an offline CPU in -C" 1 "CPU 4000 in '4000' is not online" \
	"$PMPROF" record -o x.data -C 4000 -e cpu-clock -- true
expect "nothing to record" 1 "nothing to record" \
	"$PMPROF" record -o x.data -e cpu-clock
expect "an unknown --hf-mode" 1 "unknown mode 'sometimes'" \
	"$PMPROF" record -o x.data --hf-mode sometimes -- true
expect "-m not a power of 2" 1 "power of 2" \
	"$PMPROF" record -o x.data -m 3 -e cpu-clock -- true
expect "an unknown clock" 1 "unknown clock 'sundial'" \
	"$PMPROF" record -o x.data -k sundial -e cpu-clock -- true
expect "no such process" 2 "no such process" \
	"$PMPROF" record -o x.data -p 999999999 -e cpu-clock
expect "-p with -a" 1 "do not go together" \
	"$PMPROF" record -o x.data -p 1 -a -e cpu-clock
expect "--metrics with -e" 1 "--metrics chooses the events" \
	"$PMPROF" record -o x.data --metrics -e cpu-clock -- true
expect "-c with -F" 1 "mutually exclusive" \
	"$PMPROF" record -o x.data -c 1000 -F 100 -e cpu-clock -- true
expect "an unwritable output" 2 "x/y/z.data" \
	"$PMPROF" record -o x/y/z.data -e cpu-clock -- true

# Permission errors explain perf_event_paranoid: an unprivileged user
# (nobody, no capabilities) may not record system-wide unless paranoid is
# below 1 (or -1 on older kernels), nor kernel code unless it is below 2.
# The sysctl is the machine's, read and never changed (other tests and
# programs run beside this one); the binary is copied where nobody can
# run it, wherever the tree is (/root/...).
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)
if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1 || ! command -v setpriv >/dev/null; then
	skip "permission error" "needs root, user nobody and setpriv"
elif [ -z "$paranoid" ] || [ "$paranoid" -lt 1 ]; then
	skip "permission error" "kernel.perf_event_paranoid is ${paranoid:-unreadable}: every user may record system-wide here"
else
	chmod 755 "$TMP"
	cp "$PMPROF" "$TMP/pmprof-nobody"
	chmod 755 "$TMP/pmprof-nobody"
	mkdir "$TMP/nobody" && chown nobody "$TMP/nobody"	# its output may be written
	nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$TMP/pmprof-nobody" "$@"; }
	expect "a permission error names the sysctl (-a)" 2 "kernel.perf_event_paranoid is $paranoid.*sysctl -w kernel.perf_event_paranoid=" \
		nobody record -o "$TMP/nobody/n.data" -a -e cpu-clock -- true
	if [ "$paranoid" -ge 2 ]; then
		expect "a permission error names the sysctl (:k)" 2 "kernel.perf_event_paranoid is $paranoid.*sysctl -w kernel.perf_event_paranoid=" \
			nobody record -o "$TMP/nobody/n.data" -e cpu-clock:k -- true
	else
		skip "permission error (:k)" "kernel.perf_event_paranoid is $paranoid: every user may record kernel code here"
	fi
fi
