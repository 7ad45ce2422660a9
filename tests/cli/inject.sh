#!/usr/bin/env bash
# pmprof inject round trips, with real perf recordings and perf as the
# oracle: for each recording, inject to a file and a pipe stream in both
# byte orders, then
#   - `perf script` of the original and of the copy must be identical,
#   - `pmprof dump` of both must be identical but for offsets and the
#     records that only carry the header (ATTR, FEATURE, TRACING_DATA,
#     BUILD_ID in pipes) or wrap others (COMPRESSED: the copy is
#     decompressed),
#   - `pmprof info` must show the same header but for the file name
#     (same events only, when the input is a pipe or the order changes:
#     features whose layout the writer does not swap are dropped).
. "$(dirname "$0")/../lib.sh"

if ! have_perf; then
	skip inject "perf cannot record here"
	exit 0
fi
cd "$TMP" || exit 1

work() { ls -R /usr/include >/dev/null; }
export -f work

rec() {	# NAME perf-record-args...
	local name=$1; shift
	if ! perf record -q "$@" -- bash -c work >/dev/null 2>"$name.rec.err"; then
		skip "inject-$name" "perf record failed: $(head -1 "$name.rec.err")"
		return 1
	fi
}

# records of a dump, without offsets and header-only records
records() {
	"$PMPROF" dump -i "$1" | cut -d' ' -f3- |
		grep -v -E '^(ATTR|FEATURE|COMPRESSED|COMPRESSED2|TRACING_DATA|BUILD_ID|HEADER_[A-Z_]*)( |$)'
}

# the header, but for the file name; a decompressed copy has a new size
# and no COMPRESSED feature
info() {
	if [ "$f" = zstd ]; then
		"$PMPROF" info -i "$1" | tail -n +2 |
			grep -v -E '^# (data size|feat offset|features|compress)'
	else
		"$PMPROF" info -i "$1" | tail -n +2
	fi
}

rec sw -o sw.data -e cpu-clock -e task-clock -e page-faults
rec group -o group.data -e '{cpu-clock,task-clock,page-faults}:S' -T \
	--sample-cpu --call-graph fp
rec sysw -o sysw.data -a -e sched:sched_switch -e cpu-clock
rec zstd -o zstd.data -z -e task-clock --call-graph fp
if perf record -q -o - -e cpu-clock -e page-faults -- bash -c work \
	>pipe.data 2>/dev/null; then :; else rm -f pipe.data; fi

# A JIT's /tmp/perf-PID.map (another process of the machine, in the -a
# recording) changes between two perf script runs: its anonymous maps'
# names are not the files' to compare.
unjit() {
	sed -i -E 's#[^ ]+ \((/tmp/perf-[0-9]+\.map|//anon)\)$#(anon)#' "$1"
}

for f in sw group sysw zstd pipe; do
	in=$f.data
	[ -s "$in" ] || continue
	perf script -i "$in" >"$f.orig.txt" 2>"$f.orig.perr"
	unjit "$f.orig.txt"
	records "$in" >"$f.orig.dump"
	info "$in" >"$f.orig.info"
	for order in little big; do
		for mode in file pipe; do
			t=$f-$order-$mode
			args=(-i "$in" -o "$t.data" --byte-order "$order")
			[ $mode = pipe ] && args+=(--pipe)
			if ! "$PMPROF" inject "${args[@]}" 2>"$t.err"; then
				not_ok "inject-$t"
				sed 's/^/# /' "$t.err" | grep -v dropping
				continue
			fi
			ok "inject-$t"
			records "$t.data" >"$t.dump"
			check_files_eq "inject-$t-dump" "$f.orig.dump" "$t.dump"
			if [ $mode = file ]; then
				info "$t.data" >"$t.info"
				if [ $f != pipe ] && [ $order = little ]; then
					check_files_eq "inject-$t-info" "$f.orig.info" "$t.info"
				else
					# the header differs (pipe in, or features
					# not swapped): the events must not
					grep '^# event' "$f.orig.info" >"$t.oev"
					grep '^# event' "$t.info" >"$t.ev"
					check_files_eq "inject-$t-events" "$t.oev" "$t.ev"
				fi
				perf script -i "$t.data" >"$t.txt" 2>"$t.perr"
			elif [ $order = big ]; then
				# perf 6.1 reads other-endian pipes without
				# fixing u32 pairs (tid, cpu) and tracepoints:
				# compare what it does swap right.
				if [ $f = sysw ]; then
					skip "inject-$t-perf" "perf 6.1 cannot read other-endian pipes with tracepoints"
					continue
				fi
				F=comm,time,event,ip,sym,period
				perf script -F $F -i "$in" >"$t.orig.txt" 2>/dev/null
				perf script -F $F -i - <"$t.data" >"$t.txt" 2>"$t.perr"
				check_files_eq "inject-$t-perf-script" "$t.orig.txt" "$t.txt"
				continue
			else
				perf script -i - <"$t.data" >"$t.txt" 2>"$t.perr"
			fi
			unjit "$t.txt"
			if [ $f = sysw ]; then
				# other programs' files may change meanwhile:
				# the original read again after the copy
				perf script -i "$in" >"$t.after.txt" 2>"$t.after.perr"
				unjit "$t.after.txt"
				cp "$f.orig.txt" "$t.before.txt"
				check "inject-$t-perf-script" python3 "$TOP/tests/tools/lines_either.py" \
					"$t.txt" "$t.before.txt" "$t.after.txt"
				cat "$f.orig.perr" "$t.after.perr" >"$t.orig.perr"
			else
				check_files_eq "inject-$t-perf-script" "$f.orig.txt" "$t.txt"
				cp "$f.orig.perr" "$t.orig.perr"
			fi
			# perf says nothing of the copy it does not say of the
			# original (in a chroot, say, perf 6.1 warns of namespaces)
			if grep -vxF -f "$t.orig.perr" "$t.perr" >"$t.newerr" ||
			   { [ -s "$t.perr" ] && [ ! -s "$t.orig.perr" ]; }; then
				not_ok "inject-$t-perf-quiet"; head -3 "$t.perr" | sed 's/^/# /'
			else
				ok "inject-$t-perf-quiet"
			fi
		done
	done
done

# Standard input and output: a pipe stream in, a pipe stream out.
if [ -s pipe.data ]; then
	"$PMPROF" inject <pipe.data | cat >pipe-stdio.data
	records pipe-stdio.data >pipe-stdio.dump
	check_files_eq inject-stdio "pipe.orig.dump" pipe-stdio.dump
	"$PMPROF" inject -i - -o pipe-seekable.data <pipe.data
	perf script -i pipe-seekable.data >pipe-seekable.txt 2>/dev/null
	check_files_eq inject-pipe-to-file "pipe.orig.txt" pipe-seekable.txt
fi

# A recording with no records at all (a pipe of header records only:
# HEADER_ATTR and HEADER_FEATURE) is written complete with data size 0
# and its features right after the data, where perf reads them: pmprof
# reads them too (not "interrupted", the group described) and perf and
# pmprof list the same features.
if perf record -q -e '{cpu-clock,task-clock}:S' -o - -- true >grp.pipe 2>/dev/null; then
	python3 - grp.pipe hdronly.pipe <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
out, pos = bytearray(b[:16]), 16
while pos + 8 <= len(b):
    t, m, s = struct.unpack_from('<IHH', b, pos)
    if s < 8:
        break
    extra = struct.unpack_from('<I', b, pos + 8)[0] if t == 66 else 0
    if t in (64, 80):	# HEADER_ATTR, HEADER_FEATURE
        out += b[pos:pos + s]
    pos += s + extra
open(sys.argv[2], 'wb').write(out)
PY
	"$PMPROF" inject -i hdronly.pipe -o empty.data
	check_eq "empty recording: data size 0" 0 "$(python3 -c '
import struct, sys; print(struct.unpack_from("<Q", open(sys.argv[1], "rb").read(), 48)[0])' empty.data)"
	"$PMPROF" info -i empty.data >empty.info
	check "empty recording: complete, not interrupted" sh -c \
		"grep -q '^# data size *: 0\$' empty.info"
	check "empty recording: the group from GROUP_DESC" grep -q '^# group: .* leader 0, 2 members' empty.info
	perf report --header-only -i empty.data >empty.perf 2>/dev/null
	check "empty recording: perf reads its group too" grep -q '^# group: {cpu-clock,task-clock}' empty.perf
	check_eq "empty recording: pmprof reads perf's hostname" \
		"$(sed -n 's/^# hostname : //p' empty.perf)" "$(sed -n 's/^# hostname *: //p' empty.info)"
else
	not_ok "perf record -o - of a group failed"
fi

# Bad input: a clear error and exit status 2, no output file left.
printf 'PERFILE2garbage' >bad.data
"$PMPROF" inject -i bad.data -o bad.out 2>bad.err
check_eq inject-bad-input-status 2 $?
check inject-bad-input-message grep -q '^pmprof: bad.data: ' bad.err
check inject-bad-input-no-output test ! -e bad.out
"$PMPROF" inject -i sw.data -o x.out --byte-order middle 2>/dev/null
check_eq inject-bad-order-status 1 $?
