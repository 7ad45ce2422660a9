#!/usr/bin/env bash
# record's perf options: -z, --switch-output (size, signal, time),
# --switch-max-files, --max-size, -D, -d, -R, -b, -u. Each file is read by
# perf and by pmprof, which must see the same samples.
. "$(dirname "$0")/../lib.sh"
WORKLOAD="$TOP/$BUILD/bench/workload"
CHECK="$TOP/tests/tools/record-check.sh"

if ! have_perf; then
	skip record-options "perf cannot record here"
	exit 0
fi
[ -x "$WORKLOAD" ] || { skip record-options "no $WORKLOAD"; exit 0; }
cd "$TMP" || exit 1

both_read() {
	local name=$1 f=$2 log=${3:-} out
	if out=$("$CHECK" "$PMPROF" "$f" $log); then ok "$name: $out"
	else not_ok "$name"; printf '%s\n' "$out" | sed 's/^/# /'; fi
}
samples() { "$PMPROF" dump -i "$1" 2>/dev/null | grep -c '^0x[0-9a-f]*\(+z0x[0-9a-f]*\)\? \[0x[0-9a-f]*\] SAMPLE '; }
# dumps ERR N: record has printed N "Dump" lines (closed N files) into ERR
dumps() { [ "$(grep -c '^\[ pmprof record: Dump ' "$1" 2>/dev/null)" -ge "$2" ] 2>/dev/null; }
# A workload that computes until the test has seen what it waits for and
# creates the file $TMP/NAME.stop (more iterations than any test waits for)
until_stopped() { echo "$WORKLOAD" -n 1000000000 -u "$TMP/$1.stop"; }

# ---- -z: zstd-compressed records, as perf writes them -------------------
"$PMPROF" record -N -z -e cpu-clock -c 50000 -o z.data -- "$WORKLOAD" -n 300 >/dev/null 2>z.err
check_eq "-z: exit 0" 0 $?
both_read "-z: perf and pmprof see the same samples" z.data z.err
check_eq "-z: COMPRESSED records" yes \
	"$("$PMPROF" dump -i z.data --stats 2>/dev/null | grep -q COMPRESSED && echo yes)"
# the decompressed stream's first record is at +z0x0, in the format of
# every other (a bare "+z0" escaped the sample count, when a sample was first)
check_eq "-z: dump shows the first decompressed record at +z0x0" 1 \
	"$("$PMPROF" dump -i z.data 2>/dev/null | grep -c '^0x[0-9a-f]*+z0x0 ')"
if perf report -i z.data --header-only 2>/dev/null | grep -q "compressed : Zstd, level = 1,"; then
	ok "-z: perf reads the COMPRESSED feature (zstd, level 1)"
else not_ok "-z: perf reads the COMPRESSED feature"; fi
# the same report from the compressed file and a plain one of the same samples
# perf's and pmprof's reports of the compressed file: the same symbols
# with the same samples and periods (lib.sh)
rows_as_perf -z z.data
# a small ring and a high level: many flushes, records split over COMPRESSED records
"$PMPROF" record -N -z9 -m 8 -e cpu-clock -c 20000 -g -o z9.data -- "$WORKLOAD" -n 300 >/dev/null 2>z9.err
both_read "-z9 -m 8: perf and pmprof see the same samples" z9.data z9.err
expect "-z with -o - is refused" 1 "need a file" "$PMPROF" record -z -o - -e cpu-clock -- true
expect "--compression-level=23 is refused" 1 "1 to 22" "$PMPROF" record --compression-level=23 -e cpu-clock -- true

# ---- --switch-output=SIZE: files named as perf names them ----------------
# One workload process computes until record has closed two files: the
# second file holds nothing but that process's samples in its own code.
mkdir sw && cd sw || exit 1
"$PMPROF" record -N -e cpu-clock -c 20000 --switch-output=60K -- $(until_stopped sw) \
	>/dev/null 2>../sw.err &
rec=$!
wait_for dumps ../sw.err 2 || not_ok "--switch-output=60K: record closed no second file"
touch "$TMP/sw.stop"
wait $rec
check_eq "--switch-output=60K: exit 0" 0 $?
files=$(ls)
n=$(echo "$files" | grep -c .)
if [ "$n" -ge 2 ] && [ "$(echo "$files" | grep -cE '^perf\.data\.[0-9]{16}$')" = "$n" ]; then
	ok "--switch-output=60K: $n files perf.data.YYYYmmddHHMMSScc"
else not_ok "--switch-output=60K: files named perf.data.TIMESTAMP"; echo "$files" | sed 's/^/# /'; fi
total=0
for f in $files; do
	both_read "--switch-output: $f" "$f"
	total=$((total + $(samples "$f")))
done
check_eq "--switch-output: the files hold every sample record said" \
	"$(sed -n 's/.*Wrote .* in [0-9]* files (\([0-9]*\) samples).*/\1/p' ../sw.err)" "$total"
check_eq "--switch-output: one Dump line per file" "$n" "$(grep -c '^\[ pmprof record: Dump perf.data.' ../sw.err)"
last=$(echo "$files" | sed -n 2p)
if perf report -i "$last" --stdio --sort sym 2>/dev/null | grep -q '\[\.\] [a-z_]*_stalls\|\[\.\] isb\|\[\.\] dcache_miss'; then
	ok "--switch-output: a later file ($last) alone resolves the workload's symbols (perf)"
else not_ok "--switch-output: a later file alone resolves the workload's symbols"; fi
cd .. || exit 1

# --switch-max-files: only the newest; the workload runs until three files
# were closed, so that one was removed
mkdir mx && cd mx || exit 1
"$PMPROF" record -N -e cpu-clock -c 20000 --switch-output=40K --switch-max-files=2 -- \
	$(until_stopped mx) >/dev/null 2>../mx.err &
rec=$!
wait_for dumps ../mx.err 3 || not_ok "--switch-max-files=2: record closed no third file"
touch "$TMP/mx.stop"
wait $rec
check_eq "--switch-max-files=2: two files left of $(grep -c Dump ../mx.err)" 2 "$(ls | grep -c .)"
cd .. || exit 1

# --switch-output (signal): SIGUSR2 closes the file; the workload waits
# for the Dump line before its second part
mkdir sig && cd sig || exit 1
mkfifo go
"$PMPROF" record -N -e cpu-clock -c 50000 --switch-output -- \
	sh -c "$WORKLOAD -n 100; echo > ready; read x < go; $WORKLOAD -n 100" >/dev/null 2>../sig.err &
rec=$!
wait_for test -e ready || not_ok "--switch-output (signal): the workload never got ready"
kill -USR2 $rec
wait_for dumps ../sig.err 1 || not_ok "--switch-output (signal): no Dump line after SIGUSR2"
echo go >go
wait $rec
check_eq "--switch-output: exit 0 after SIGUSR2" 0 $?
rm -f go ready
check_eq "--switch-output (signal): two files" 2 "$(ls perf.data.* 2>/dev/null | grep -c .)"
for f in perf.data.*; do both_read "--switch-output (signal): $f" "$f"; done
cd .. || exit 1

# --switch-output=1s (time): a workload that waits in the middle until the
# timer has closed two files; each file's samples span at most the interval
mkdir tm && cd tm || exit 1
mkfifo go
"$PMPROF" record -N -e cpu-clock -c 50000 --switch-output=1s -- \
	sh -c "$WORKLOAD -n 50; read x < go; $WORKLOAD -n 50" >/dev/null 2>../tm.err &
rec=$!
wait_for dumps ../tm.err 2 || not_ok "--switch-output=1s: the timer closed no second file"
echo go >go
wait $rec
check_eq "--switch-output=1s: exit 0" 0 $?
rm -f go
n=$(ls perf.data.* 2>/dev/null | grep -c .)
if [ "$n" -ge 3 ]; then ok "--switch-output=1s: $n files, two of them closed by the timer"
else not_ok "--switch-output=1s: $n files"; fi
cd .. || exit 1
expect "--switch-output=bogus is refused" 1 "give signal, a size" \
	"$PMPROF" record --switch-output=bogus -e cpu-clock -- true

# ---- --max-size: stop when the output is that big ------------------------
"$PMPROF" record -N -m 16 -e cpu-clock -c 10000 --max-size=50K -o max.data -- "$WORKLOAD" -n 100000 \
	>/dev/null 2>max.err
check_eq "--max-size: exit 0" 0 $?
size=$(stat -c %s max.data)
if [ "$size" -ge 51200 ] && [ "$size" -lt 1048576 ] && grep -q "reached --max-size" max.err; then
	ok "--max-size=50K: stopped at $size bytes"
else not_ok "--max-size=50K: stopped at $size bytes"; cat max.err | sed 's/^/# /'; fi
both_read "--max-size: the file is whole" max.data

# ---- -D: nothing sampled in the first N ms of the program -----------------
# The workload computes until the recording holds a sample (however late
# the delay's end comes on a loaded machine); the gap is measured between
# the times the recording carries: the command's exec (its COMM record,
# from the tracking event enabled at the start) and the first sample.
# record starts the delay once the exec is done (its CLOEXEC pipe closed,
# after the COMM), so the gap is at least 400 ms, less only the drift
# between CLOCK_MONOTONIC and perf's clock over 400 ms.
"$PMPROF" record -N -D 400 -e cpu-clock -c 100000 -o d.data -- $(until_stopped d) \
	>/dev/null 2>d.err &
rec=$!
wait_for recording_has_samples d.data || not_ok "-D 400: no sample in the recording"
touch "$TMP/d.stop"
wait $rec
check_eq "-D 400: exit 0" 0 $?
gap=$("$PMPROF" dump -i d.data | awk '
	/ COMM .*exec=1/ && !c { match($0, /sid.time=[0-9]+/); c = substr($0, RSTART + 9, RLENGTH - 9) }
	/ SAMPLE / && !s { match($0, / time=[0-9]+/); s = substr($0, RSTART + 6, RLENGTH - 6) }
	END { if (c && s) printf "%d", (s - c) / 1000000; else print "none" }')
if [ "$gap" != none ] && [ "$gap" -ge 398 ]; then ok "-D 400: the first sample $gap ms after the exec"
else not_ok "-D 400: the first sample $gap ms after the exec"; fi
both_read "-D: perf and pmprof see the same samples" d.data d.err

# ---- -d: data addresses and sources; N/A sources counted apart by mem -----
"$PMPROF" record -N -d -e page-faults -c 1 -o dd.data -- "$WORKLOAD" -n 50 >/dev/null 2>dd.err
both_read "-d: perf and pmprof see the same samples" dd.data dd.err
n=$(samples dd.data)
"$PMPROF" mem -i dd.data --format json >mem.json
got=$(python3 -c 'import json; d=json.load(open("mem.json")); print(d["samples"], d["na"], d["skipped"])')
# a software event's data source is the kernel's PERF_MEM_NA: no data source
check_eq "-d: mem counts the page faults' N/A data sources apart" "0 $n 0" "$got"
addr=$(perf script -i dd.data -F addr 2>/dev/null | awk '$1 != "0" && $1 != "" { n++ } END { print n + 0 }')
[ "$addr" -gt 0 ] && ok "-d: the faults' data addresses ($addr non-zero, perf script)" ||
	not_ok "-d: the faults' data addresses"

# ---- -R: raw samples ------------------------------------------------------
"$PMPROF" record -N -R -e cpu-clock -c 100000 -o r.data -- "$WORKLOAD" -n 100 >/dev/null 2>r.err
both_read "-R: perf and pmprof see the same samples" r.data r.err
check_eq "-R: RAW and CPU in the attr" yes \
	"$("$PMPROF" info -i r.data | grep -q 'sample_type = IP|TID|TIME|CPU|RAW,' && echo yes)"

# ---- -b: no branch stack here (no LBR in a VM): said, not a crash ---------
if perf record -b -e cpu-clock -o pb.data -- true >/dev/null 2>&1; then
	"$PMPROF" record -N -b -e cpu-clock -o b.data -- "$WORKLOAD" -n 50 >/dev/null 2>b.err
	both_read "-b: perf and pmprof see the same samples" b.data b.err
else
	"$PMPROF" record -N -b -e cpu-clock -o b.data -- true >/dev/null 2>b.err
	rc=$?
	if [ "$rc" = 2 ] && grep -qi "cpu-clock" b.err && [ ! -e b.data ]; then
		ok "-b: refused by this kernel as by perf, exit 2, no file"
	else not_ok "-b: refused by this kernel as by perf (exit $rc)"; sed 's/^/# /' b.err | head -3; fi
fi

# ---- -u: the processes of a user ------------------------------------------
if command -v setpriv >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && getent passwd nobody >/dev/null; then
	# the user's processes run until the recording holds a sample of the
	# workload in its own code (on a busy machine that may take long; the
	# file's size says nothing: another run's processes of nobody are
	# synthesized too), then the test ends them
	owned_by() { [ "$(stat -c %U "/proc/$1" 2>/dev/null)" = "$2" ]; }
	sampled_in() {
		local f
		for f in "$1".*.partial; do
			[ -e "$f" ] && "$PMPROF" report -i "$f" --sort sym 2>/dev/null | grep -q "$2" && return 0
		done
		return 1
	}
	# nobody runs a copy of the workload that it can reach (the tree may
	# be in a directory of root's alone: a fresh clone in a mktemp -d)
	chmod 711 "$TMP"
	mkdir -m 755 "$TMP/nobody"
	cp "$WORKLOAD" "$TMP/nobody/workload"
	setsid setpriv --reuid=nobody --regid=nogroup --clear-groups \
		sh -c "while :; do $TMP/nobody/workload -n 20; done" </dev/null >/dev/null 2>&1 &
	upid=$!
	wait_for owned_by "$upid" nobody || not_ok "-u: the user's process never ran as nobody"
	# and a process of root's, a copy of the workload named rootwork,
	# computes while the recording runs: none of its samples may be in it
	cp "$WORKLOAD" "$TMP/rootwork"
	"$TMP/rootwork" -n 1000000000 -u "$TMP/u.stop" >/dev/null 2>&1 &
	rpid=$!
	"$PMPROF" record -N -u nobody -e cpu-clock -c 100000 -o u.data >/dev/null 2>u.err &
	rec=$!
	wait_for sampled_in u.data int_divider_stalls || not_ok "-u: no sample of the workload while it ran"
	t0=$(cpu_ticks "$rpid")
	wait_for used_cpu "$rpid" $((t0 + 2)) || not_ok "-u: root's process did not run meanwhile"
	touch "$TMP/u.stop"
	wait "$rpid"
	kill -- -"$upid"
	wait $rec
	rc=$?
	check_eq "-u nobody: exit 0 when the user's processes end" 0 $rc
	[ "$rc" = 0 ] || sed 's/^/# /' u.err
	# the workload's samples, none of root's process (other processes of
	# nobody, another run's, may be in it too)
	comms=$(perf script -i u.data -F comm 2>/dev/null | tr -d ' ' | sort -u)
	if ! printf '%s\n' "$comms" | grep -qx rootwork && printf '%s\n' "$comms" | grep -qx workload; then
		ok "-u nobody: samples of that user's processes, none of root's"
	else not_ok "-u nobody: samples of that user's processes, none of root's: $(printf '%s\n' "$comms" | paste -sd' ')"; fi
	if perf report -i u.data --stdio --sort sym 2>/dev/null | grep -q 'int_divider_stalls'; then
		ok "-u: the workload's symbols"
	else not_ok "-u: the workload's symbols"; fi
else
	skip "-u" "needs root, setpriv and the user nobody"
fi
expect "-u with a command is refused" 1 "not with -p, -t, -a, -C or a command" \
	"$PMPROF" record -u root -e cpu-clock -- true
expect "-u of no such user" 1 "no such user" "$PMPROF" record -u no-such-user-here -e cpu-clock
