#!/usr/bin/env bash
# scripts/lab/run.sh [options] -- CMD [ARG...]: run CMD in the lab's arm64
# guest (QEMU's virt machine, -cpu max: an armv8 PMU with 7 counters),
# built by scripts/lab/build.sh.
#
#   --kernel stock|hf   Debian's arm64 kernel (default) or the lab kernel
#                       with the hf_sample ABI (build-kernel.sh)
#   --icount            -icount shift=0,sleep=off: one instruction a
#                       nanosecond of guest time, `cycles` = `instructions`
#                       (which then exists), samples without skid, and
#                       guest time that does not depend on the host
#   --add DIR           DIR's files in the guest, as /lab/add (the
#                       command's working directory)
#   --out DIR           copy the guest's $LAB_OUT (/lab/out) back to DIR
#   --append ARGS       more kernel command line (perf_hf_sample=off)
#   --env NAME=VALUE    set a variable for CMD (repeatable)
#   --smp N, --mem MB   CPUs (default 2) and memory (default 1024)
#   --timeout S         stop the guest after S seconds (default 900)
#   --log FILE          keep the console (kernel messages) in FILE
#   --verbose           the console on standard error as it happens
#
# CMD runs as root with the guest's pmprof, perf and workload on PATH.
# Its standard output and exit status are run.sh's own; its standard
# error goes to run.sh's standard error, after it ends. Kernel messages
# never reach standard output: the console goes to a log (printed on
# standard error when the guest fails). Exit status 125: the guest did
# not report one (it crashed or hung), or run.sh could not start it (no
# guest built, no qemu): the reason is on standard error's first line.
. "$(dirname "$0")/lib.sh"
# run.sh's own failures (no guest, no kernel, no qemu) are 125 as well,
# never an exit status the command could have given.
lab_die() { printf 'run.sh: %s\n' "$*" >&2; exit 125; }

usage() { sed -n '2,/^\. /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-1}"; }

kernel=stock icount=0 add="" outdir="" append="" smp=2 mem=1024 timeout=900
log="" verbose=0 envs=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:-}; shift 2 ;;
	--icount) icount=1; shift ;;
	--add) add=${2:-}; shift 2 ;;
	--out) outdir=${2:-}; shift 2 ;;
	--append) append="$append ${2:-}"; shift 2 ;;
	--env) envs+=("${2:-}"); shift 2 ;;
	--smp) smp=${2:-}; shift 2 ;;
	--mem) mem=${2:-}; shift 2 ;;
	--timeout) timeout=${2:-}; shift 2 ;;
	--log) log=${2:-}; shift 2 ;;
	--verbose) verbose=1; shift ;;
	-h|--help) usage 0 ;;
	--) shift; break ;;
	*) echo "run.sh: unknown option '$1' (try --help)" >&2; exit 1 ;;
	esac
done
[ $# -gt 0 ] || { echo "run.sh: no command (run.sh [options] -- CMD)" >&2; exit 1; }
case $kernel in stock|hf) ;; *) echo "run.sh: --kernel stock or hf" >&2; exit 1 ;; esac
[ -z "$add" ] || [ -d "$add" ] || { echo "run.sh: --add $add: not a directory" >&2; exit 1; }
for e in "${envs[@]}"; do
	case $e in [A-Za-z_]*=*) ;; *) echo "run.sh: --env $e: not NAME=VALUE" >&2; exit 1 ;; esac
done

manifest="$LAB_BUILD/lab/manifest"
[ -f "$manifest" ] || lab_die "no guest: run scripts/lab/build.sh first ($manifest missing)"
get() { awk -v k="$1" '$1 == k { print $2 }' "$manifest"; }
image=$(get "${kernel}_kernel")
[ -n "$image" ] && [ -f "$image" ] ||
	lab_die "no $kernel kernel in $manifest (scripts/lab/build.sh builds it)"
base=$(get initramfs)
[ -f "$base" ] || lab_die "$base missing: run scripts/lab/build.sh"
lab_need_cmd qemu-system-aarch64 qemu-system-arm

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmprof-lab.XXXXXX")
qpid=""
cleanup() {
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# sq ARG: ARG single-quoted for sh.
sq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

# The command, its environment and DIR: a second cpio archive after the
# base one (the kernel unpacks both).
mkdir -p "$tmp/extra/lab"
{
	printf 'exec'
	for a in "$@"; do printf ' %s' "$(sq "$a")"; done
	printf '\n'
} >"$tmp/extra/lab/cmd"
{
	echo "export LAB_KERNEL=$kernel LAB_ICOUNT=$icount"
	for e in "${envs[@]}"; do echo "export ${e%%=*}=$(sq "${e#*=}")"; done
} >"$tmp/extra/lab/env"
if [ -n "$add" ]; then
	cp -a "$add/." "$tmp/extra/lab/add/" 2>/dev/null || {
		mkdir -p "$tmp/extra/lab/add" && cp -a "$add/." "$tmp/extra/lab/add/"
	} || lab_die "cannot copy $add"
fi
(cd "$tmp/extra" && find . -mindepth 1 | LC_ALL=C sort |
	cpio -o -H newc -R 0:0 --quiet) >"$tmp/extra.cpio" || lab_die "cpio failed"
cat "$base" "$tmp/extra.cpio" >"$tmp/initrd"
# The output disk: a sparse raw image the guest writes a tar archive to.
truncate -s "${LAB_DISK_MB:-1024}M" "$tmp/out.img"

console="${log:-$tmp/console.log}"
qemu=(qemu-system-aarch64 -M virt -cpu max -smp "$smp" -m "$mem"
      -display none -monitor none -no-reboot -nic none
      -kernel "$image" -initrd "$tmp/initrd"
      -append "console=ttyAMA0 panic=-1 loglevel=6 rdinit=/init$append"
      -drive "if=none,file=$tmp/out.img,format=raw,id=out"
      -device virtio-blk-device,drive=out)
[ "$icount" = 1 ] && qemu+=(-icount shift=0,sleep=off)
if [ "$verbose" = 1 ]; then
	qemu+=(-serial stdio)
	"${qemu[@]}" </dev/null 2>&1 | tee "$console" >&2 &
else
	qemu+=(-serial "file:$console")
	"${qemu[@]}" </dev/null >"$tmp/qemu.err" 2>&1 &
fi
qpid=$!
t0=$(date +%s)
while kill -0 "$qpid" 2>/dev/null; do
	if [ $(( $(date +%s) - t0 )) -ge "$timeout" ]; then
		kill "$qpid" 2>/dev/null
		wait "$qpid" 2>/dev/null
		qpid=""
		echo "run.sh: the guest did not finish in $timeout s; the console's end:" >&2
		tail -20 "$console" 2>/dev/null | sed 's/^/  /' >&2
		exit 125
	fi
	sleep 0.2
done
wait "$qpid"
qrc=$?
qpid=""

mkdir -p "$tmp/report"
if ! tar -x -f "$tmp/out.img" -C "$tmp/report" 2>"$tmp/tar.err" ||
   [ ! -f "$tmp/report/status" ]; then
	echo "run.sh: the guest reported no exit status (qemu exit $qrc); the console's end:" >&2
	cat "$tmp/qemu.err" 2>/dev/null | sed 's/^/  qemu: /' >&2
	tail -30 "$console" 2>/dev/null | sed 's/^/  /' >&2
	exit 125
fi
if [ -n "$outdir" ]; then
	mkdir -p "$outdir" && cp -a "$tmp/report/out/." "$outdir/" ||
		lab_die "cannot copy the guest's output to $outdir"
fi
cat "$tmp/report/stdout"
cat "$tmp/report/stderr" >&2
status=$(cat "$tmp/report/status")
case $status in
''|*[!0-9]*) echo "run.sh: the guest reported a bad status '$status'" >&2; exit 125 ;;
esac
exit "$status"
