#!/usr/bin/env bash
# pmprof record's errors: non-zero exits with messages that say what to do.
. "$(dirname "$0")/../lib.sh"
cd "$TMP" || exit 1

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

# Permission errors (perf_event_paranoid, as nobody) are in record-limits.sh,
# which reads the sysctl as it is instead of changing it for everyone.
