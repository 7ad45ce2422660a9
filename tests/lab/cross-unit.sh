#!/usr/bin/env bash
# The whole unit-test suite built for arm64 and for s390x (big endian)
# against sysroots of Debian's -dev packages (scripts/lab/cross-build.sh)
# and run under qemu-user, each test program under qemu-ARCH with the
# sysroot as its library prefix (Debian ships no static cmocka, so the
# unit tests load libc and libcmocka; pmprof itself is static). One check
# per test program; a failed build is a failed check.
. "$(dirname "$0")/guest.bash"

for arch in arm64 s390x; do
	qemu=$(. "$TOP/scripts/lab/lib.sh" && lab_qemu_user "$arch")
	if ! command -v "$qemu" >/dev/null 2>&1; then
		not_ok "cross-$arch: no $qemu (install qemu-user: scripts/deps.sh --test)"
		continue
	fi
	if ! out=$("$TOP/scripts/lab/cross-build.sh" "$arch" tests 2>"$TMP/$arch.build"); then
		not_ok "cross-$arch: the build failed: $(grep -m1 -E 'error|lab: ' "$TMP/$arch.build" || tail -1 "$TMP/$arch.build")"
		grep -v '^\(aarch64\|s390x\)-linux-gnu-gcc-12 \|^ar rcs' "$TMP/$arch.build" | tail -15 | sed 's/^/# /'
		continue
	fi
	dir=$(tail -1 <<<"$out")
	root=$("$TOP/scripts/lab/sysroot.sh" "$arch" 2>/dev/null | tail -1)
	file "$dir/pmprof" | grep -q 'statically linked' &&
		ok "cross-$arch: pmprof is a static $arch program" ||
		not_ok "cross-$arch: pmprof is not static: $(file -b "$dir/pmprof")"
	# The unit tests run from the tree (fixtures by relative path), with
	# the host's tools (perf, cc) where a test calls them; each may take
	# an hour (a hang guard: emulated, test-badinput took over the
	# default 10 minutes on a loaded machine).
	(cd "$TOP" && BUILD=$(realpath --relative-to="$TOP" "$dir") \
		UNIT_RUNNER="$qemu -L $root" QEMU_LD_PREFIX="$root" UNIT_TIMEOUT=3600 \
		tests/run.sh --unit-only) >"$TMP/$arch.out" 2>&1
	while read -r status name count; do
		case $status in
		ok) ok "cross-$arch: $name $count" ;;
		FAIL) not_ok "cross-$arch: $name: $(awk -v n="$name" '$1 == "FAIL" && $2 == n { on = 1; next } on && /^(ok|FAIL) / { on = 0 } on && /FAILED|ERROR|Failure|Timeout|Segmentation|error/ { sub(/^ +/, ""); print; exit }' "$TMP/$arch.out")"
		      awk -v n="$name" '$1 == "FAIL" && $2 == n { on = 1; next } on && /^(ok|FAIL) / { on = 0 } on' \
			"$TMP/$arch.out" | tail -15 | sed 's/^/# /' ;;
		esac
	done < <(grep -E '^(ok  |FAIL) ' "$TMP/$arch.out")
	tail -1 "$TMP/$arch.out" | sed "s/^/# cross-$arch: /"
	grep -qE '^[0-9]+ passed, [0-9]+ failed' "$TMP/$arch.out" ||
		{ not_ok "cross-$arch: the unit tests did not run: $(tail -1 "$TMP/$arch.out")"; tail -10 "$TMP/$arch.out" | sed 's/^/# /'; }
done
