#!/usr/bin/env bash
# The reader against perf itself: record with the real perf on this
# machine, then compare every sample pmprof decodes with what
# `perf report -D` decodes from the same file, field by field.
. "$(dirname "$0")/../lib.sh"

have_perf || { skip reader-perf "perf cannot record here"; exit 0; }
cmp_tool="$TOP/tests/tools/compare_perf_dump.py"
loop='i=0; while [ $i -lt 40000 ]; do i=$((i+1)); done; ls / >/dev/null'

# compare NAME FILE: pmprof's decoding equals perf's; the file from stdin
# when FILE is "-" (pipe mode: both read the same bytes from stdin).
compare() {
	local name=$1 file=$2
	if [ "$file" = - ]; then
		perf report -D -i - <"$TMP/$name.data" >"$TMP/$name.perf" 2>/dev/null
		"$PMPROF" dump --format json -i - <"$TMP/$name.data" >"$TMP/$name.json"
	else
		perf report -D -i "$file" >"$TMP/$name.perf" 2>/dev/null
		"$PMPROF" dump --format json -i "$file" >"$TMP/$name.json"
	fi || { not_ok "$name: pmprof dump failed"; return; }
	check "$name: samples equal perf report -D" \
		python3 "$cmp_tool" "$TMP/$name.perf" "$TMP/$name.json"
}

rec() {	# rec NAME perf-record-args...
	local name=$1; shift
	perf record -q -o "$TMP/$name.data" "$@" >/dev/null 2>"$TMP/$name.err" ||
		{ not_ok "$name: perf record failed: $(tail -1 "$TMP/$name.err")"; return 1; }
}

rec sw -e cpu-clock -- sh -c "$loop" && compare sw "$TMP/sw.data"
rec group -e '{cpu-clock,task-clock,page-faults}:S' -T --sample-cpu \
	--call-graph fp -- sh -c "$loop" && compare group "$TMP/group.data"
rec syswide -a -e sched:sched_switch -e cpu-clock -- sh -c "$loop" &&
	compare syswide "$TMP/syswide.data"
rec compressed -z -e cpu-clock -- sh -c "$loop" && compare compressed "$TMP/compressed.data"
rec dwarf -e cpu-clock --call-graph dwarf,2048 -- sh -c "$loop" &&
	compare dwarf "$TMP/dwarf.data"
rec addr -d -e page-faults -c 1 -- sh -c "$loop" && compare addr "$TMP/addr.data"
if perf record -q -e cpu-clock -o - -- sh -c "$loop" >"$TMP/pipe.data" 2>/dev/null; then
	compare pipe -
	# A pipe stream saved to a file is still a pipe stream.
	compare pipe-file "$TMP/pipe.data"
else
	not_ok "pipe: perf record -o - failed"
fi

# The tracepoint recording needs IDENTIFIER to tell its events apart.
st=$("$PMPROF" info --format json -i "$TMP/syswide.data" |
	python3 -c 'import json,sys; d=json.load(sys.stdin); print(" ".join(e["attr"]["sample_type_names"] for e in d["events"]))')
case "$st" in
*IDENTIFIER*) ok "syswide: events carry IDENTIFIER" ;;
*) not_ok "syswide: expected IDENTIFIER in sample types, got: $st" ;;
esac

# Header facts equal perf's own view of them.
perf report --header-only -i "$TMP/group.data" >"$TMP/hdr.perf" 2>/dev/null
"$PMPROF" info -i "$TMP/group.data" >"$TMP/hdr.pmprof"
for key in hostname 'os release' arch 'nrcpus online' 'nrcpus avail' cpudesc cpuid; do
	want=$(sed -n "s/^# $key *: //p" "$TMP/hdr.perf" | head -1)
	got=$(sed -n "s/^# $key *: //p" "$TMP/hdr.pmprof" | head -1)
	check_eq "info: $key" "$want" "$got"
done
want=$(sed -n 's/^# perf version : //p' "$TMP/hdr.perf")
got=$(sed -n 's/^# perf version *: //p' "$TMP/hdr.pmprof")
check_eq "info: perf version" "$want" "$got"

# A real pipe, not a file on standard input; and perf writing straight in.
cat "$TMP/pipe.data" | "$PMPROF" dump --format json -i - >"$TMP/cat.json" &&
	check_files_eq "pipe: read through cat equals read from the file" \
		"$TMP/pipe.json" "$TMP/cat.json"
n=$(perf record -q -e cpu-clock -o - -- sh -c "$loop" 2>/dev/null |
	"$PMPROF" dump -i - | grep -c ' SAMPLE ')
[ "$n" -gt 0 ] && ok "pipe: perf record -o - | pmprof dump -i -" ||
	not_ok "pipe: no samples read from perf record -o -"

# A file-mode recording arriving on a pipe cannot be followed: say so.
msg=$(cat "$TMP/sw.data" | "$PMPROF" dump -i - 2>&1 >/dev/null); rc=$?
check_eq "file-mode data on a pipe: exit status" 2 "$rc"
case "$msg" in
*"(standard input): offset 8:"*) ok "file-mode data on a pipe: message names the offset" ;;
*) not_ok "file-mode data on a pipe: message was: $msg" ;;
esac

# Usage and input errors: the documented exit codes and messages.
"$PMPROF" dump --bogus >/dev/null 2>&1; check_eq "unknown option exits 1" 1 $?
"$PMPROF" dump -i "$TMP/missing.data" 2>"$TMP/err" >/dev/null; rc=$?
check_eq "missing file exits 2" 2 "$rc"
grep -q "$TMP/missing.data: cannot open" "$TMP/err" && ok "missing file named" ||
	not_ok "missing file message: $(cat "$TMP/err")"

# A sample_type or read_format bit that no ABI defines (perf 6.1 and
# Linux 6.18 define sample_type bits 0-24, read_format 0-4) would make
# every sample a guess: refused at the field, naming the attr and the bit.
# perf's own files, one bit set in the second attr, or in a pipe's
# first HEADER_ATTR.
setbit() {	# setbit IN OUT OFFSET-EXPRESSION BIT (python, with a = attrs offset, s = attr_size)
	python3 - "$1" "$2" "$3" "$4" <<'PY'
import struct, sys
src, dst, expr, bit = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
b = bytearray(open(src, 'rb').read())
a, s = struct.unpack_from('<QQ', b, 24)[0], struct.unpack_from('<Q', b, 16)[0]
off = eval(expr)
v = struct.unpack_from('<Q', b, off)[0] | 1 << bit
struct.pack_into('<Q', b, off, v)
open(dst, 'wb').write(bytes(b))
print(off)
PY
}
if [ -s "$TMP/group.data" ]; then
	off=$(setbit "$TMP/group.data" "$TMP/bit25.data" 'a + s + 24' 25)
	"$PMPROF" report -i "$TMP/bit25.data" >/dev/null 2>"$TMP/bit25.err"
	check_eq "unknown sample_type bit: exit 2" 2 $?
	check "unknown sample_type bit: file, offset, attr and bit named" grep -q \
		"^pmprof: $TMP/bit25.data: offset $off: attr 1 (task-clock): sample_type 0x[0-9a-f]* has bit 25 (0x2000000)" \
		"$TMP/bit25.err"
	off=$(setbit "$TMP/group.data" "$TMP/rf5.data" 'a + 32' 5)
	"$PMPROF" dump -i "$TMP/rf5.data" >/dev/null 2>"$TMP/rf5.err"
	check_eq "unknown read_format bit: exit 2" 2 $?
	check "unknown read_format bit: file, offset, attr and bit named" grep -q \
		"^pmprof: $TMP/rf5.data: offset $off: attr 0 (cpu-clock): read_format 0x3c has bit 5 (0x20)" \
		"$TMP/rf5.err"
fi
if [ -s "$TMP/pipe.data" ]; then
	# the first record is a HEADER_ATTR: its attr starts at 16 + 8
	setbit "$TMP/pipe.data" "$TMP/pipe40.data" '16 + 8 + 24' 40 >/dev/null
	"$PMPROF" dump -i - <"$TMP/pipe40.data" >/dev/null 2>"$TMP/pipe40.err"
	check_eq "unknown sample_type bit in a pipe: exit 2" 2 $?
	check "unknown sample_type bit in a pipe: offset and bit named" grep -q \
		"^pmprof: (standard input): offset 48: HEADER_ATTR (cpu-clock): sample_type 0x[0-9a-f]* has bit 40" \
		"$TMP/pipe40.err"
fi
