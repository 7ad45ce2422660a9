#!/usr/bin/env bash
# scripts/lab/build-kernel.sh: cross-build the lab kernel, Debian's Linux
# 6.1 (linux-source-6.1) with scripts/lab/kernel/hf-sample.patch (the
# hf_sample attr ABI of the hf-period series, written for this project
# from the series' description), for arm64, with the small configuration
# of scripts/lab/kernel/lab.config on top of allnoconfig. Prints the
# directory holding Image, config and build.log on the last line.
#
# Cached in $PMPROF_LAB_CACHE/kernel/HASH: HASH covers the patch, the
# configuration, this script, the source package's version and the cross
# compiler's; a later run with the same inputs reuses the kernel. The
# build itself happens in a temporary directory beside it (the unpacked
# source is 1.5 GB) that is removed afterwards.
#
# Environment: JOBS (make -j, default 2).
. "$(dirname "$0")/lib.sh"

here="$LAB_TOP/scripts/lab/kernel"
patch="$here/hf-sample.patch"
config="$here/lab.config"
cc=aarch64-linux-gnu-gcc-12
for t in "make make" "$cc gcc-12-aarch64-linux-gnu" "flex flex" "bison bison" \
	 "bc bc" "xz xz-utils" "patch patch" "perl perl"; do
	lab_need_cmd $t
done

src_row=$(lab_versions linux-source-6.1) || exit 1
key=$(lab_hash "$0" "$patch" "$config" "$src_row" "$($cc --version | head -1)")
dest="$LAB_CACHE/kernel/$key"
if [ -f "$dest/.complete" ]; then
	echo "$dest"
	exit 0
fi

lab_lock kernel
if [ -f "$dest/.complete" ]; then
	echo "$dest"
	exit 0
fi
deb=$(lab_fetch linux-source-6.1) || exit 1
mkdir -p "$LAB_CACHE/kernel"
tmp=$(mktemp -d "$LAB_CACHE/kernel/.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s)
lab_log "building the lab kernel in $tmp (linux-source-6.1 $(awk '{ print $2 }' <<<"$src_row"))"

dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" ./usr/src/linux-source-6.1.tar.xz ||
	lab_die "cannot unpack $deb"
xz -dc -T"${JOBS:-2}" "$tmp/usr/src/linux-source-6.1.tar.xz" | tar -x -C "$tmp" ||
	lab_die "cannot unpack linux-source-6.1.tar.xz"
rm -rf "$tmp/usr"
src="$tmp/linux-source-6.1"
obj="$tmp/obj"
(cd "$src" && patch -p1 --quiet <"$patch") || lab_die "$patch does not apply to linux-source-6.1"

kmake() {
	make -C "$src" O="$obj" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
		CC="$cc" -j"${JOBS:-2}" "$@"
}
mkdir -p "$obj"
{
	kmake allnoconfig &&
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$config" &&
	kmake olddefconfig
} >"$tmp/config.log" 2>&1 || { tail -20 "$tmp/config.log" >&2; lab_die "kernel configuration failed"; }
# Every option asked for must have survived (a typo or an unmet
# dependency drops it silently).
missing=$(grep -o '^CONFIG_[A-Z0-9_]*=.*' "$config" | while read -r o; do
	grep -qxF "$o" "$obj/.config" || echo "$o"
done)
[ -z "$missing" ] || lab_die "the kernel configuration lost: $missing"

if ! kmake Image >"$tmp/build.log" 2>&1; then
	grep -E 'error|Error' "$tmp/build.log" | head -20 >&2
	lab_die "the kernel build failed (log: $tmp/build.log, removed on exit)"
fi
t1=$(date +%s)
new="$LAB_CACHE/kernel/.new.$key.$$"
mkdir -p "$new"
cp "$obj/arch/arm64/boot/Image" "$new/Image"
cp "$obj/.config" "$new/config"
{
	echo "linux-source-6.1 $(awk '{ print $2 }' <<<"$src_row") + hf-sample.patch"
	echo "built in $((t1 - t0)) s (unpacking included) with JOBS=${JOBS:-2} on $(nproc) CPUs"
	cat "$tmp/build.log"
} >"$new/build.log"
touch "$new/.complete"
lab_publish "$new" "$dest"
lab_log "lab kernel built in $((t1 - t0)) s: $dest"
echo "$dest"
