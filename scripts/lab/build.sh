#!/usr/bin/env bash
# scripts/lab/build.sh: build the lab's arm64 guest.
#
#   - pmprof and bench/workload for arm64, static (cross-build.sh);
#   - Debian's arm64 kernel (linux-image-arm64) with the two modules the
#     guest needs (virtio_mmio, virtio_blk: the output disk), busybox-static
#     and perf (linux-perf) with the shared libraries it loads, all of
#     arm64, fetched with apt-get download and unpacked with dpkg-deb;
#   - the lab kernel with the hf_sample ABI (build-kernel.sh);
#   - the initramfs: the above and scripts/lab/init.
#
# The Debian parts are cached in $PMPROF_LAB_CACHE/guest/HASH (HASH: the
# package versions and this script), the lab kernel in kernel/HASH; the
# initramfs and a manifest for run.sh go to BUILD/lab/ (BUILD=build).
# Environment: JOBS (make -j, default 2), LAB_NO_HF_KERNEL=1 to leave the
# lab kernel out (run.sh --kernel hf then fails saying so).
. "$(dirname "$0")/lib.sh"

lab_need_cmd cpio cpio
lab_need_cmd qemu-system-aarch64 qemu-system-arm
lab_need_cmd readelf binutils
lab_need_arch arm64
triplet=aarch64-linux-gnu
out="$LAB_BUILD/lab"
mkdir -p "$out" || lab_die "cannot create $out"
# A build that fails leaves no manifest: the tests then say there is no
# guest instead of booting the one an older tree made.
rm -f "$out/manifest"

# ---- the Debian parts -------------------------------------------------------

image_pkg=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null |
	awk '/Depends: linux-image-[0-9]/ { sub(/:arm64$/, "", $2); print $2; exit }')
[ -n "$image_pkg" ] || lab_die "apt knows no linux-image-arm64:arm64 (apt-get update?)"
libs=$(lab_deps_closure arm64 linux-perf) || exit 1
pkgs=("$image_pkg:arm64" busybox-static:arm64)
for p in $libs; do pkgs+=("$p:arm64"); done
versions=$(lab_versions "${pkgs[@]}") || exit 1
# lib.sh too: its lab_deps_closure chooses perf's libraries
key=$(lab_hash "$0" "$LAB_TOP/scripts/lab/lib.sh" "$versions")
guest="$LAB_CACHE/guest/$key"

# needed ROOT FILE: the shared objects FILE loads (its interpreter and
# NEEDED entries, recursively), as paths inside ROOT, one a line.
needed() {
	local root=$1 todo=("$2") seen=" " f n d p
	while [ ${#todo[@]} -gt 0 ]; do
		f=${todo[0]}
		todo=("${todo[@]:1}")
		for n in $(readelf -d "$root$f" 2>/dev/null |
			   sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p') \
			 $(readelf -l "$root$f" 2>/dev/null |
			   sed -n 's/.*\[Requesting program interpreter: \(.*\)\]/\1/p'); do
			p=""
			case $n in
			/*) p=$n ;;
			*)
				for d in /lib/$triplet /usr/lib/$triplet /lib /usr/lib; do
					if [ -e "$root$d/$n" ]; then p="$d/$n"; break; fi
				done ;;
			esac
			[ -n "$p" ] || lab_die "perf needs $n, found in none of the packages"
			case $seen in *" $p "*) continue ;; esac
			seen="$seen$p "
			echo "$p"
			todo+=("$p")
		done
	done
}

# module_order DIR NAME: the path of module NAME under DIR after those
# of the modules it depends on, recursively.
module_order() {
	local dir=$1 ko d
	ko=$(find "$dir" -name "$2.ko" | head -1)
	[ -n "$ko" ] || lab_die "no module $2 in $image_pkg"
	for d in $(readelf -p .modinfo "$ko" | sed -n 's/.*\] *depends=//p' | tr ',' ' '); do
		module_order "$dir" "$d" || exit 1
	done
	echo "$ko"
}

make_guest() {
	local debs tmp deb rel m mods ko list p
	lab_lock guest
	if [ -f "$guest/.complete" ]; then
		lab_unlock
		return 0
	fi
	debs=$(lab_fetch "${pkgs[@]}") || exit 1
	mkdir -p "$LAB_CACHE/guest"
	tmp=$(mktemp -d "$LAB_CACHE/guest/.new.XXXXXX")
	mkdir -p "$tmp/deb" "$tmp/root/bin" "$tmp/root/usr/bin" "$tmp/stock"
	while read -r deb; do
		dpkg-deb -x "$deb" "$tmp/deb" || lab_die "dpkg-deb -x $deb failed"
	done <<<"$debs"

	# the stock kernel and the modules for the output disk, in load order
	cp "$tmp"/deb/boot/vmlinuz-* "$tmp/stock/Image" || lab_die "no vmlinuz in $image_pkg"
	rel=$(basename "$tmp"/deb/lib/modules/*)
	mkdir -p "$tmp/root/lab/modules/$rel"
	# Debian's package has no modules.dep (depmod makes it on install):
	# each module names its dependencies in .modinfo; load them first.
	mods=$(for m in virtio_mmio virtio_blk; do module_order "$tmp/deb/lib/modules/$rel" "$m"; done |
		awk '!seen[$0]++') || exit 1
	for ko in $mods; do
		cp "$ko" "$tmp/root/lab/modules/$rel/" || lab_die "cannot copy $ko"
		basename "$ko" >>"$tmp/root/lab/modules/$rel/order"
	done
	grep -qx virtio_blk.ko "$tmp/root/lab/modules/$rel/order" 2>/dev/null ||
		lab_die "no virtio_blk module in $image_pkg"
	echo "$rel" >"$tmp/stock/release"

	cp "$tmp/deb/bin/busybox" "$tmp/root/bin/busybox" || lab_die "no busybox in busybox-static"
	cp "$tmp/deb/usr/bin/perf" "$tmp/root/usr/bin/perf" || lab_die "no perf in linux-perf"
	list=$(needed "$tmp/deb" /usr/bin/perf) || exit 1
	for p in $list; do
		mkdir -p "$tmp/root$(dirname "$p")"
		cp -L "$tmp/deb$p" "$tmp/root$p" || lab_die "cannot copy $p"
	done
	rm -rf "$tmp/deb"
	printf '%s\n' "$versions" >"$tmp/versions"
	touch "$tmp/.complete"
	lab_publish "$tmp" "$guest"
	lab_unlock
}
if [ ! -f "$guest/.complete" ]; then
	lab_log "making the guest's Debian parts ($image_pkg, busybox, perf)"
	make_guest
fi

# ---- pmprof for arm64 -----------------------------------------------------

cross=$(bash "$(dirname "$0")/cross-build.sh" arm64 pmprof workload) || exit 1
cross=$(tail -1 <<<"$cross")

# ---- the lab kernel -------------------------------------------------------

hf=""
if [ "${LAB_NO_HF_KERNEL:-0}" != 1 ]; then
	hf=$(bash "$(dirname "$0")/build-kernel.sh") || exit 1
	hf=$(tail -1 <<<"$hf")
fi

# ---- the initramfs --------------------------------------------------------

stage=$(mktemp -d "$out/.stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
cp -a "$guest/root/." "$stage/"
mkdir -p "$stage/lab/bin" "$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp" \
	"$stage/sbin" "$stage/usr/sbin" "$stage/etc"
install -m 755 "$cross/pmprof" "$stage/lab/bin/pmprof"
install -m 755 "$cross/bench/workload" "$stage/lab/bin/workload"
install -m 755 "$LAB_TOP/scripts/lab/init" "$stage/init"
echo "root:x:0:0:root:/root:/bin/sh" >"$stage/etc/passwd"
echo "lab:x:1000:1000:lab:/tmp:/bin/sh" >>"$stage/etc/passwd"
printf 'root:x:0:\nlab:x:1000:\n' >"$stage/etc/group"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
	cpio -o -H newc -R 0:0 --quiet) >"$out/base.cpio.tmp" ||
	lab_die "cpio failed"
mv "$out/base.cpio.tmp" "$out/base.cpio"

{
	echo "stock_kernel $guest/stock/Image"
	echo "stock_release $(cat "$guest/stock/release")"
	echo "hf_kernel ${hf:+$hf/Image}"
	echo "initramfs $out/base.cpio"
	echo "pmprof $cross/pmprof"
	echo "workload $cross/bench/workload"
} >"$out/manifest.tmp" && mv "$out/manifest.tmp" "$out/manifest"
lab_log "guest ready: $out/manifest ($(( $(stat -c %s "$out/base.cpio") / 1048576 )) MB initramfs)"
echo "$out"
