#!/usr/bin/env bash
# pmprof record under the kernel's limits, as perf record 6.1 behaves:
# -F above kernel.perf_event_max_sample_rate is lowered to it (or refused
# with --strict-freq), -F max, -F 0 and -c 0 refused; as a user without
# CAP_PERFMON, perf_event_paranoid decides: at 2 the events fall back to
# user space only (EVENT:u, exclude_kernel), and what cannot be opened
# says which value suffices. Both sysctls are read as they are, never
# written (other tests depend on them); tests/unit/test-record-limits.c
# covers the other values.
. "$(dirname "$0")/../lib.sh"
WORKLOAD="$TOP/$BUILD/bench/workload"

if ! have_perf; then
	skip record-limits "perf cannot record here"
	exit 0
fi
[ -x "$WORKLOAD" ] || { skip record-limits "no $WORKLOAD"; exit 0; }
cd "$TMP" || exit 1

# The sampling frequency of the first event as perf reads the file.
perf_freq() {
	perf report -f -i "$1" --header-only 2>/dev/null |
		sed -n 's/^# event : .*{ sample_period, sample_freq } = \([0-9]*\).*/\1/p' | head -1
}

# ---- -F and the maximum sample rate ----
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
high=$((max * 10))
"$PMPROF" record -F "$high" -e cpu-clock -o hi.data -- true >/dev/null 2>hi.err
rc=$?
# the kernel may lower its maximum meanwhile: the file has what pmprof said
said=$(sed -n 's/.*sampling at \([0-9]*\) Hz.*/\1/p' hi.err)
after=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
if [ "$rc" = 0 ] && [ -n "$said" ] && { [ "$said" = "$max" ] || [ "$said" = "$after" ]; }; then
	ok "record -F $high: lowered to the maximum $said Hz, with a message"
else
	not_ok "record -F $high: exit $rc, said '$said', maximum $max/$after"
	sed 's/^/# /' hi.err | head -3
fi
check_eq "record -F $high: the file samples at the maximum (read by perf)" "$said" "$(perf_freq hi.data)"
perf record -F "$high" -e cpu-clock -o perf-hi.data -- true >/dev/null 2>perf-hi.err
check_eq "record -F $high: perf lowers it to the same rate" "$(perf_freq perf-hi.data)" "$(perf_freq hi.data)"
grep -q "throttling from $high Hz to" perf-hi.err && grep -q "is above kernel.perf_event_max_sample_rate" hi.err &&
	ok "record -F $high: both warn" || not_ok "record -F $high: both warn"

"$PMPROF" record -F max -e cpu-clock -o max.data -- true >/dev/null 2>max.err
said=$(sed -n 's/.*-F max: sampling at \([0-9]*\) Hz.*/\1/p' max.err)
check_eq "record -F max: the file samples at the rate announced" "$said" "$(perf_freq max.data)"
perf record -q -F max -e cpu-clock -o perf-max.data -- true >/dev/null 2>&1
check_eq "record -F max: as perf's -F max" "$(perf_freq perf-max.data)" "$(perf_freq max.data)"

"$PMPROF" record -F 1234 -e cpu-clock -o plain.data -- true >/dev/null 2>plain.err
check_eq "record -F 1234: below the maximum, unchanged and quiet" "1234 0" \
	"$(perf_freq plain.data) $(grep -c 'sampling at' plain.err)"

expect "record --strict-freq -F $high: refused" 1 "above kernel.perf_event_max_sample_rate.*--strict-freq" \
	"$PMPROF" record --strict-freq -F "$high" -e cpu-clock -o x.data -- true
perf record -q --strict-freq -F "$high" -e cpu-clock -o x.data -- true >/dev/null 2>&1 &&
	not_ok "perf refuses --strict-freq -F $high too" || ok "perf refuses --strict-freq -F $high too"
expect "record -F 0: refused" 1 "-F 0: frequency and count are zero" \
	"$PMPROF" record -F 0 -e cpu-clock -o x.data -- true
perf record -F 0 -e cpu-clock -o x.data -- true >/dev/null 2>perf0.err
check_eq "perf refuses -F 0 too" "1" "$(grep -c 'frequency and count are zero' perf0.err)"
expect "record -c 0: refused" 1 "-c 0: the period must be at least 1" \
	"$PMPROF" record -c 0 -e cpu-clock -o x.data -- true
expect "record -F abc: refused" 1 "-F abc: give a frequency in Hz or 'max'" \
	"$PMPROF" record -F abc -e cpu-clock -o x.data -- true
expect "record -F -5: refused" 1 "-F -5: give a frequency" \
	"$PMPROF" record -F -5 -e cpu-clock -o x.data -- true
# a freq= term is the kernel's to refuse: the message says why
expect "record -e cpu-clock/freq=$high/: the error names the maximum" 2 \
	"frequency $high Hz is above kernel.perf_event_max_sample_rate" \
	"$PMPROF" record -e "cpu-clock/freq=$high/" -o x.data -- true

# ---- perf_event_paranoid, as a user without capabilities ----
if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1 || ! command -v setpriv >/dev/null; then
	skip "record as a user" "needs root to become nobody with setpriv"
	exit 0
fi
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
chmod 777 "$TMP"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
# Copies nobody can run wherever the tree is (a clone in /root is 0700).
cp "$PMPROF" "$TMP/pmprof" && cp "$WORKLOAD" "$TMP/workload" &&
	chmod 755 "$TMP/pmprof" "$TMP/workload" || { not_ok "record as a user: cannot copy the binaries"; exit 0; }
PMPROF=$TMP/pmprof WORKLOAD=$TMP/workload

as_nobody "$PMPROF" record -e cpu-clock -o "$TMP/u.data" -- "$WORKLOAD" -n 100 >/dev/null 2>u.err
rc=$?
as_nobody perf record -q -e cpu-clock -o "$TMP/perf-u.data" -- "$WORKLOAD" -n 100 >/dev/null 2>&1
# "name = cpu-clock:u, ..., exclude_kernel = 1, exclude_hv = 1" as perf prints it
desc() {
	perf report -f -i "$1" --header-only 2>/dev/null | grep '^# event' | head -1 |
		grep -o 'name = [^,]*\|exclude_\(kernel\|hv\) = 1' | tr '\n' ' '
}
case $paranoid in
2)
	check_eq "paranoid 2: record as nobody falls back to user space" 0 "$rc"
	check_eq "paranoid 2: the fallback is said once" 1 "$(grep -c 'paranoid is 2: sampling user space only' u.err)"
	check_eq "paranoid 2: the event is cpu-clock:u, exclude_kernel and exclude_hv" \
		"name = cpu-clock:u exclude_kernel = 1 exclude_hv = 1 " "$(desc u.data)"
	check_eq "paranoid 2: as perf's own fallback" "$(desc perf-u.data)" "$(desc u.data)"
	nk=$(perf report -f -i u.data --stdio 2>/dev/null | grep -v '^#' | grep -c '\[k\]')
	ns=$("$PMPROF" dump -i u.data 2>/dev/null | grep -c ' SAMPLE ')
	[ "$nk" = 0 ] && [ "$ns" -gt 0 ] && ok "paranoid 2: $ns samples, none in the kernel" ||
		not_ok "paranoid 2: $ns samples, $nk kernel symbols"
	expect "paranoid 2: a :k event names 1 and :u" 2 \
		"cpu-clock:k: no permission.*is 2.*kernel.perf_event_paranoid=1\`, or sample user space only \(-e cpu-clock:u\)" \
		as_nobody "$PMPROF" record -e cpu-clock:k -o "$TMP/k.data" -- true
	;;
-1|0|1)
	check_eq "paranoid $paranoid: record as nobody samples the kernel too" \
		"0 name = cpu-clock " "$rc $(desc u.data)"
	;;
*)
	check_eq "paranoid $paranoid: record as nobody is refused" 2 "$rc"
	grep -q "paranoid is $paranoid.*kernel.perf_event_paranoid=1\`, or set it to 2 and sample user space only" u.err &&
		ok "paranoid $paranoid: the message names what suffices" ||
		not_ok "paranoid $paranoid: the message names what suffices"
	;;
esac
if [ "$paranoid" -gt 0 ]; then
	expect "paranoid $paranoid: -a as nobody needs 0, not -1" 2 \
		"every CPU.*needs 0 or lower.*kernel.perf_event_paranoid=0\`" \
		as_nobody "$PMPROF" record -a -e cpu-clock:u -o "$TMP/a.data" -- true
else
	as_nobody "$PMPROF" record -a -e cpu-clock:u -o "$TMP/a.data" -- true >/dev/null 2>&1
	check_eq "paranoid $paranoid: -a as nobody works" 0 "$?"
fi
