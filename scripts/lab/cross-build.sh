#!/usr/bin/env bash
# scripts/lab/cross-build.sh ARCH [TARGET...]: build pmprof for ARCH
# (arm64, s390x) in build-ARCH/ with Debian's cross compiler against the
# sysroot of scripts/lab/sysroot.sh. TARGET: pmprof, workload (both
# static) or tests (those two and the unit tests: the default), or any
# make target. Prints the build directory on the last line.
#
# Environment: JOBS (make -j, default 2), BUILD_CROSS (the build
# directory, default build-ARCH in the tree).
. "$(dirname "$0")/lib.sh"

arch=${1:-}
case $arch in
arm64|s390x) ;;
*) lab_die "usage: scripts/lab/cross-build.sh arm64|s390x [target...]" ;;
esac
shift
out=${BUILD_CROSS:-$LAB_TOP/build-$arch}
targets=()
for t in "${@:-tests}"; do
	case $t in
	pmprof) targets+=("$out/pmprof") ;;
	workload) targets+=("$out/bench/workload") ;;
	*) targets+=("$t") ;;
	esac
done
triplet=$(lab_triplet "$arch")
cc="$triplet-gcc-12"
lab_need_cmd "$cc" "gcc-12-$triplet"
[ -d "/usr/$triplet/include" ] || lab_die "no /usr/$triplet: install libc6-dev-$arch-cross"

root=$(bash "$(dirname "$0")/sysroot.sh" "$arch") || exit 1
root=$(tail -1 <<<"$root")

# pkg-config that reads only the sysroot's .pc files and prefixes their
# paths with it.
pc="$out/pkg-config"
mkdir -p "$out"
cat >"$pc.tmp" <<EOF
#!/bin/sh
PKG_CONFIG_SYSROOT_DIR='$root' PKG_CONFIG_LIBDIR='$root/usr/lib/$triplet/pkgconfig:$root/usr/share/pkgconfig' exec pkg-config "\$@"
EOF
chmod +x "$pc.tmp" && mv "$pc.tmp" "$pc"
"$pc" --exists libelf libdw libzstd jansson libprotobuf-c zlib ncursesw cmocka ||
	lab_die "the $arch sysroot $root lacks a pkg-config module"

cd "$LAB_TOP" || exit 1
make -j"${JOBS:-2}" BUILD="$out" CC="$cc" PKG_CONFIG="$pc" STATIC=1 \
	CPPFLAGS="-isystem $root/usr/include/$triplet" \
	LDFLAGS="-L$root/usr/lib/$triplet" "${targets[@]}" >&2 ||
	lab_die "$arch build failed"
echo "$out"
