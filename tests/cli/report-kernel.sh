#!/usr/bin/env bash
# Kernel symbols come from the running kernel only when the recording is
# its: the kernel build ids are equal, or, without a recorded build id,
# it is the same boot (release, host name, kernel text address). Else
# kernel addresses are shown as they are, as perf shows them when it has
# no symbols, and the report's header says which kernel symbols were used
# and why, pointing to --kallsyms / --vmlinux. The "other machines'"
# recordings are perf's own recording here, rewritten by
# tests/tools/refeature.py (release, host name, build ids).
. "$(dirname "$0")/../lib.sh"
REFEATURE="$TOP/tests/tools/refeature.py"

if ! have_perf; then
	skip report-kernel "perf cannot record here"
	exit 0
fi
if [ "$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)" = 0000000000000000 ] ||
	[ -z "$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)" ]; then
	skip report-kernel "/proc/kallsyms hides addresses (kernel.kptr_restrict)"
	exit 0
fi
cd "$TMP" || exit 1
# system calls: kernel samples of a process of our own; -N keeps the
# build-id cache (shared by every test) as it is
LOOP='i=0; while [ $i -lt 1500 ]; do i=$((i+1)); cat /proc/self/stat >/dev/null; done'
perf record -q -N -e cpu-clock -c 100000 -o k.data -- sh -c "$LOOP" >/dev/null 2>&1
nk=$(perf report -i k.data --stdio 2>/dev/null | grep -c '\[k\]')
if [ "$nk" -lt 5 ]; then
	skip report-kernel "perf's recording has $nk kernel symbols"
	exit 0
fi

# kernel_rows FILE TOOL [ARGS]: "overhead [k] symbol" of kernel rows, sorted.
kernel_rows() {
	local f=$1 tool=$2
	shift 2
	if [ "$tool" = perf ]; then
		perf report -i "$f" --stdio --sort dso,sym "$@" 2>/dev/null
	else
		"$PMPROF" report -i "$f" --sort dso,sym "$@" 2>/dev/null
	fi | awk '/\[kernel\.kallsyms\] +\[k\]/ { print $1, $NF }' | sort
}
header() { "$PMPROF" report -i "$1" "${@:2}" 2>/dev/null | sed -n 's/^# Kernel symbols: //p'; }
# names: kernel rows that are symbol names, not addresses
names() { grep -vc ' 0x[0-9a-f]*$'; }
# check_rows NAME EXPECTED ACTUAL: the same kernel rows, and some of them
check_rows() {
	if [ "$(grep -c . "$2")" -lt 5 ]; then
		not_ok "$1: $(grep -c . "$2") kernel rows"
	else
		check_files_eq "$1 ($(grep -c . "$2") rows)" "$2" "$3"
	fi
}

python3 "$REFEATURE" k.data other.data --osrelease 5.10.0-23-amd64 --drop-kernel-build-id
python3 "$REFEATURE" k.data otherid.data --osrelease 5.10.0-23-amd64 \
	--kernel-build-id 00112233445566778899aabbccddeeff00112233
python3 "$REFEATURE" k.data nobid.data --drop-kernel-build-id
python3 "$REFEATURE" k.data otherhost.data --drop-kernel-build-id --hostname some-other-host
python3 "$REFEATURE" k.data bare.data --drop-kernel-build-id --drop-feature 3 --drop-feature 4

# the recording as made: the running kernel's symbols, names as perf's
h=$(header k.data)
case $h in
*"build id"*"is the running kernel's"|*"(the build-id cache's, for the recording's kernel build id "*) ok "kernel: perf's recording: $h" ;;
*) not_ok "kernel: perf's recording: '$h'" ;;
esac
kernel_rows k.data perf >perf-k.txt
kernel_rows k.data pmprof >pm-k.txt
check_rows "kernel: its kernel rows as perf's" perf-k.txt pm-k.txt

# a Linux 5.x recording without a kernel build id: addresses, as perf
# shows them without kernel symbols
kernel_rows other.data pmprof >pm-other.txt
kernel_rows other.data perf --kallsyms /dev/null >perf-other.txt
check_eq "kernel: a 5.x recording without build id gets no names" 0 "$(names <pm-other.txt)"
check_rows "kernel: its addresses as perf shows them without symbols" perf-other.txt pm-other.txt
case $(header other.data) in
"none, kernel addresses shown as they are: recorded under Linux 5.10.0-23-amd64, without a kernel build id; this is $(uname -r); give --kallsyms FILE or --vmlinux FILE"*)
	ok "kernel: the header says why, and --kallsyms / --vmlinux" ;;
*) not_ok "kernel: header '$(header other.data)'" ;;
esac
check_eq "kernel: json names the kernel symbols" 1 \
	"$("$PMPROF" report -i other.data --format json | grep -c '"kernel_symbols": *"none, kernel addresses shown as they are')"

# another machine's build id: perf shows addresses too
kernel_rows otherid.data perf >perf-otherid.txt
kernel_rows otherid.data pmprof >pm-otherid.txt
check_eq "kernel: another build id gets no names" 0 "$(names <pm-otherid.txt)"
check_rows "kernel: another build id: the rows as perf's" perf-otherid.txt pm-otherid.txt
grep -q "the recording's kernel build id 00112233445566778899aabbccddeeff00112233 is not the running kernel's" \
	<<<"$(header otherid.data)" && ok "kernel: the header names both build ids" ||
	not_ok "kernel: header '$(header otherid.data)'"
# ... and the machine's kallsyms given by hand are used as given
kernel_rows otherid.data perf --kallsyms /proc/kallsyms >perf-given.txt
kernel_rows otherid.data pmprof --kallsyms /proc/kallsyms >pm-given.txt
check_rows "kernel: --kallsyms FILE names them as perf's --kallsyms" perf-given.txt pm-given.txt
check_eq "kernel: the header says --kallsyms" "/proc/kallsyms (--kallsyms)" \
	"$(header otherid.data --kallsyms /proc/kallsyms)"

# no build id, but this boot: the running kernel's symbols, as perf uses them
kernel_rows nobid.data perf >perf-nobid.txt
kernel_rows nobid.data pmprof >pm-nobid.txt
check_rows "kernel: no build id, the same boot: names as perf's" perf-nobid.txt pm-nobid.txt
case $(header nobid.data) in
"/proc/kallsyms (the running kernel): no kernel build id recorded; the same boot: Linux $(uname -r) on $(uname -n), kernel text at 0x"*)
	ok "kernel: the header says the same boot" ;;
*) not_ok "kernel: header '$(header nobid.data)'" ;;
esac
# ... from another host, or saying nothing at all: not the running kernel's
check_eq "kernel: no build id, another host: no names" 0 "$(kernel_rows otherhost.data pmprof | names)"
grep -q "recorded on some-other-host, without a kernel build id" <<<"$(header otherhost.data)" &&
	ok "kernel: the header names the other host" || not_ok "kernel: header '$(header otherhost.data)'"
check_eq "kernel: no build id, release or host: no names" 0 "$(kernel_rows bare.data pmprof | names)"
grep -q "the recording names neither its kernel's build id nor its release" <<<"$(header bare.data)" &&
	ok "kernel: the header says the recording names nothing" || not_ok "kernel: header '$(header bare.data)'"

# pmprof's own pipe recording (no build ids in a pipe) on this boot
"$PMPROF" record -q -e cpu-clock -c 100000 -o - -- sh -c "$LOOP" 2>/dev/null >pipe.data
n=$("$PMPROF" report -i pipe.data 2>/dev/null | awk '/\[k\]/' | names)
[ "$n" -gt 0 ] && ok "kernel: pmprof's pipe recording has kernel names ($n)" ||
	not_ok "kernel: pmprof's pipe recording has kernel names"
grep -q "the same boot" <<<"$(header pipe.data)" && ok "kernel: the pipe is the same boot" ||
	not_ok "kernel: header '$(header pipe.data)'"
# a user-only recording looks up no kernel address: no header line
"$PMPROF" record -q -e cpu-clock:u -o user.data -- sh -c "$LOOP" >/dev/null 2>&1
check_eq "kernel: no kernel samples, no kernel symbols line" "" "$(header user.data)"
