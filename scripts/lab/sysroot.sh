#!/usr/bin/env bash
# scripts/lab/sysroot.sh ARCH: make (once) and print the path of a sysroot
# for cross builds of pmprof for ARCH (arm64, s390x): Debian's -dev
# packages of that architecture, fetched with apt-get download and
# unpacked with dpkg-deb -x, so nothing is installed beside the host's
# packages. The C library comes from the cross toolchain
# (libc6-dev-ARCH-cross); the sysroot also holds the loader, libc and
# libcmocka of ARCH, for running the unit tests under qemu-user.
#
# Debian ships static archives of every library pmprof links except
# cmocka, so pmprof and bench/workload link fully static; the unit tests
# link everything static but libc and libcmocka. The shared-library links
# of the other -dev packages are removed so that the linker takes their
# archives.
#
# Cached in $PMPROF_LAB_CACHE/sysroot/ARCH-HASH (HASH: the package
# versions and this script).
. "$(dirname "$0")/lib.sh"

arch=${1:-}
case $arch in
arm64|s390x) ;;
*) lab_die "usage: scripts/lab/sysroot.sh arm64|s390x" ;;
esac
triplet=$(lab_triplet "$arch")

DEV='libelf-dev libdw-dev libzstd-dev libjansson-dev libiberty-dev
     libcmocka-dev zlib1g-dev liblzma-dev libbz2-dev libprotobuf-c-dev
     libncurses-dev'
RUNTIME='libc6 libcmocka0'

lab_need_arch "$arch"
pkgs=()
for p in $DEV $RUNTIME; do pkgs+=("$p:$arch"); done
versions=$(lab_versions "${pkgs[@]}") || exit 1
key=$(lab_hash "$0" "$versions")
root="$LAB_CACHE/sysroot/$arch-$key"
if [ -f "$root/.complete" ]; then
	echo "$root"
	exit 0
fi

lab_lock "sysroot-$arch"
if [ -f "$root/.complete" ]; then
	echo "$root"
	exit 0
fi
debs=$(lab_fetch "${pkgs[@]}") || exit 1
mkdir -p "$LAB_CACHE/sysroot"
tmp=$(mktemp -d "$LAB_CACHE/sysroot/.new.$arch.XXXXXX")
while read -r deb; do
	dpkg-deb -x "$deb" "$tmp" || lab_die "dpkg-deb -x $deb failed"
done <<<"$debs"

lib="$tmp/usr/lib/$triplet"
# Archives, not shared objects, for all but cmocka (no archive shipped).
find "$lib" -maxdepth 1 -name 'lib*.so' ! -name 'libcmocka.so' -delete
[ -f "$lib/libelf.a" ] && [ -f "$lib/libdw.a" ] && [ -f "$lib/libzstd.a" ] ||
	lab_die "$arch sysroot: the static libraries are missing"
# pkg-config files name /usr: keep them, PKG_CONFIG_SYSROOT_DIR maps it.
printf '%s\n' "$versions" >"$tmp/.versions"
touch "$tmp/.complete"
lab_publish "$tmp" "$root"
lab_log "$arch sysroot in $root"
echo "$root"
