#!/usr/bin/env bash
# `make check` on a fresh Debian 12: debootstrap a minimal bookworm into a
# new directory, clone this repository into it, and run `make check` there
# as root, with nothing installed but `make` (what a user needs to type
# the command). make check must install the rest itself (scripts/deps.sh
# --test) and pass. The kernel, and so perf_event_open, is the host's.
#
#   sudo scripts/fresh-check.sh [--keep] [--dir DIR] [--ref REF]
#
#   --dir DIR   where the new system goes (default: a new directory
#               under /var/tmp); must be empty or absent
#   --ref REF   what to clone and test (default: HEAD; a branch, tag or
#               commit of this repository, committed files only)
#   --keep      leave the system behind (default: removed at the end)
#
# Environment: JOBS (make -j, default 2), MIRROR (default
# http://deb.debian.org/debian), FRESH_CACHE (a tarball of the pristine
# debootstrap: made on the first run, unpacked instead of downloading on
# later ones; the same packages either way).
#
# The new root is bound onto itself (a mount point, as / is), and /proc,
# /sys (with what is mounted under it here: tracefs, cgroups) and /dev are
# bound into it as slave mounts; all are unmounted at the end. While it
# runs, the host's mount table lists them.
# Prints the time each stage took and ends with make check's summary
# line; the exit status is make check's.
set -u -o pipefail
cd "$(dirname "$0")/.." || exit 1
TOP=$PWD
JOBS=${JOBS:-2}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
FRESH_CACHE=${FRESH_CACHE:-}
dir= ref=HEAD keep=0
while [ $# -gt 0 ]; do
	case "$1" in
	--dir) dir=${2:?--dir needs a directory}; shift ;;
	--ref) ref=${2:?--ref needs a commit}; shift ;;
	--keep) keep=1 ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "fresh-check: unknown option '$1' (try --help)" >&2; exit 1 ;;
	esac
	shift
done

die() { echo "fresh-check: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mounts)"
scripts/deps.sh --fresh || exit 1
commit=$(git rev-parse --verify -q "$ref^{commit}") || die "no commit '$ref'"

if [ -z "$dir" ]; then
	dir=$(mktemp -d /var/tmp/pmprof-fresh.XXXXXX) || exit 1
elif [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
	die "$dir is not empty"
fi
mkdir -p "$dir" && chmod 755 "$dir" || exit 1	# mktemp's 0700 would lock users out
dir=$(cd "$dir" && pwd)
mounted=()
cleanup() { [ "$keep" = 1 ] && echo "fresh-check: left $dir" || rm -rf --one-file-system "$dir"; }
trap cleanup EXIT

stage_start=0
stage() { stage_start=$(date +%s); printf '\n==== fresh-check: %s\n' "$*"; }
stage_end() { printf '==== fresh-check: %s: %ds\n' "$1" $(( $(date +%s) - stage_start )); }
all_start=$(date +%s)

stage "debootstrap bookworm (minbase) into $dir"
if [ -n "$FRESH_CACHE" ] && [ -f "$FRESH_CACHE" ]; then
	debootstrap --variant=minbase --unpack-tarball="$(realpath "$FRESH_CACHE")" \
		bookworm "$dir" "$MIRROR" >"$dir.debootstrap.log" 2>&1
else
	if [ -n "$FRESH_CACHE" ]; then
		debootstrap --variant=minbase --make-tarball="$(realpath -m "$FRESH_CACHE")" \
			bookworm "$dir.tarball-work" "$MIRROR" >"$dir.debootstrap.log" 2>&1 &&
		rm -rf "$dir.tarball-work" &&
		debootstrap --variant=minbase --unpack-tarball="$(realpath "$FRESH_CACHE")" \
			bookworm "$dir" "$MIRROR" >>"$dir.debootstrap.log" 2>&1
	else
		debootstrap --variant=minbase bookworm "$dir" "$MIRROR" \
			>"$dir.debootstrap.log" 2>&1
	fi
fi
rc=$?
if [ "$rc" -ne 0 ]; then
	tail -20 "$dir.debootstrap.log" >&2
	die "debootstrap failed (log $dir.debootstrap.log)"
fi
rm -f "$dir.debootstrap.log"
stage_end debootstrap

stage "clone $ref ($commit) into /root/pmprof"
git clone -q --no-hardlinks "$TOP" "$dir/root/pmprof" &&
	git -C "$dir/root/pmprof" checkout -q "$commit" ||
	die "cannot clone $TOP"
cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null
stage_end clone

# /proc, /sys and /dev of the host, bound as slaves: nothing done inside
# propagates out, and unmounting them leaves the host's own mounts. (Not a
# private mount namespace: perf, reading a system-wide recording, would
# try to enter the host processes' namespace from a chroot and fail.)
mounted=()
unmount_all() {
	local i
	for (( i = ${#mounted[@]} - 1; i >= 0; i-- )); do
		umount -R "${mounted[i]}" 2>/dev/null || umount -R -l "${mounted[i]}"
	done
	mounted=()
}
cleanup() {
	unmount_all
	if findmnt -rn -o TARGET | grep -q -e "^$dir/" -e "^$dir\$"; then
		echo "fresh-check: something is still mounted under $dir: not removing it" >&2
	elif [ "$keep" = 1 ]; then
		echo "fresh-check: left $dir"
	else
		rm -rf --one-file-system "$dir"
	fi
}
# The new root a mount point of its own (private: nothing under it
# propagates), as / is on a real machine: tests that unshare a mount
# namespace change the propagation of /, which a plain directory refuses.
mount --bind "$dir" "$dir" && mounted+=("$dir") &&
	mount --make-private "$dir" &&
	mount -t proc proc "$dir/proc" && mounted+=("$dir/proc") &&
	mount --rbind /sys "$dir/sys" && mounted+=("$dir/sys") &&
	mount --make-rslave "$dir/sys" &&
	mount --rbind /dev "$dir/dev" && mounted+=("$dir/dev") &&
	mount --make-rslave "$dir/dev" || die "cannot mount /proc, /sys, /dev in $dir"

# Inside: what a user has before typing make check (make), then make
# check, as root.
inner='
	export DEBIAN_FRONTEND=noninteractive
	s=$(date +%s)
	apt-get -q update >/tmp/apt.log 2>&1 &&
	apt-get -q install -y --no-install-recommends make >>/tmp/apt.log 2>&1 ||
		{ tail -20 /tmp/apt.log; exit 1; }
	echo "==== fresh-check: make installed: $(( $(date +%s) - s ))s"
	cd /root/pmprof && exec make check -j"$JOBS"
'
stage "make check -j$JOBS inside, as root"
chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	TERM=dumb LANG=C.UTF-8 JOBS="$JOBS" /bin/bash -c "$inner" 2>&1 |
	tee "$dir.check.log"
rc=$?
unmount_all
stage_end "make check"
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$dir.check.log" | tail -1)
installed=$(grep -c '^deps.sh: .*apt-get install' "$dir.check.log")
rm -f "$dir.check.log"
printf '\n==== fresh-check: %s in %ds; make check installed packages: %s\n' \
	"$commit" $(( $(date +%s) - all_start )) \
	"$([ "$installed" -gt 0 ] && echo yes || echo no)"
echo "${summary:-no summary line: make check did not reach the tests}"
exit "$rc"
