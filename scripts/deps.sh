#!/usr/bin/env bash
# Check (and, as root, install) the Debian packages pmprof needs.
#
#   scripts/deps.sh [--runtime | --test | --fresh] [--check] [--list]
#
#   --runtime   what `make demo` needs: the build dependencies and perf
#   --test      everything the tests need (the default)
#   --fresh     what scripts/fresh-check.sh needs on the host
#   --check     only check: never install, exit 1 if something is missing
#   --list      print the packages of the group, one a line, and exit
#
# Every package is checked with dpkg-query (and, for -dev packages, its
# pkg-config module). When all are present this runs no apt-get at all.
# Missing ones are installed with apt-get when run as root; otherwise the
# exact apt-get line is printed and the script exits 1.
set -u

# The one list. Columns: package, group, pkg-config module ("-" if none),
# why. Group "runtime" packages are also part of "test"; "fresh" stands
# alone.
PACKAGES='
build-essential          runtime  -         C compiler, make, libc headers
gcc                      runtime  -         the default compiler
make                     runtime  -         GNU make
pkg-config               runtime  -         finds the libraries below
libelf-dev               runtime  libelf    ELF symbol tables
libdw-dev                runtime  libdw     DWARF
libzstd-dev              runtime  libzstd   compressed perf.data records
libjansson-dev           runtime  jansson   JSON input
libiberty-dev            runtime  -         C++ symbol demangling
linux-perf               runtime  -         perf: recording, reference output
libcmocka-dev            test     cmocka    unit tests
zstd                     test     -         compressed fixtures
clang                    test     -         libFuzzer and sanitizer builds
libclang-rt-14-dev       test     -         libFuzzer and sanitizer runtimes (clang only recommends them)
gcc-12-alpha-linux-gnu   test     -         Alpha fixture binaries
binutils-alpha-linux-gnu test     -         Alpha fixture binaries
gcc-12-s390x-linux-gnu   test     -         big-endian test builds
libc6-dev-s390x-cross    test     -         big-endian test builds
qemu-user                test     -         big-endian test runs (qemu-s390x)
man-db                   test     -         man page checks
groff-base               test     -         man page checks
python3                  test     -         perf script -s benchmark
git                      test     -         demo test: make demo in a clean clone
procps                   test     -         pgrep and ps in the record tests
debootstrap              fresh    -         scripts/fresh-check.sh: a new Debian
'

group=test check_only=0 list_only=0
for a in "$@"; do
	case "$a" in
	--runtime) group=runtime ;;
	--test) group=test ;;
	--fresh) group=fresh ;;
	--check) check_only=1 ;;
	--list) list_only=1 ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "deps.sh: unknown option '$a' (try --help)" >&2; exit 1 ;;
	esac
done

# Rows of the chosen group: "package module".
rows=$(printf '%s\n' "$PACKAGES" | awk -v g="$group" \
	'NF >= 3 && ($2 == g || ($2 == "runtime" && g == "test")) { print $1, $3 }')
pkgs=$(printf '%s\n' "$rows" | awk '{ print $1 }')

if [ "$list_only" = 1 ]; then
	printf '%s\n' "$pkgs"
	exit 0
fi

# One dpkg-query for all packages: "name status-abbrev" per installed or
# known package; unknown ones only complain on stderr.
installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' $pkgs 2>/dev/null |
	awk '$2 == "ii" { print $1 }')

missing=()
while read -r pkg module; do
	[ -n "$pkg" ] || continue
	if ! printf '%s\n' "$installed" | grep -qx -- "$pkg"; then
		missing+=("$pkg")
	elif [ "$module" != "-" ] && command -v pkg-config >/dev/null &&
	     ! pkg-config --exists "$module"; then
		echo "deps.sh: $pkg is installed but pkg-config finds no '$module'" >&2
		missing+=("$pkg")
	fi
done <<<"$rows"

if [ ${#missing[@]} -eq 0 ]; then
	echo "deps.sh: all $(printf '%s\n' "$pkgs" | wc -l) $group packages present"
	exit 0
fi

line="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
echo "deps.sh: missing: ${missing[*]}"
if [ "$check_only" = 1 ] || [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: to install them, as root:"
	echo "  $line"
	exit 1
fi

echo "deps.sh: $line"
export DEBIAN_FRONTEND=noninteractive
# Wait for a dpkg lock held by another apt run instead of failing.
lock=(-o DPkg::Lock::Timeout=600)
apt-get "${lock[@]}" update -q &&
	apt-get "${lock[@]}" install -y -q --no-install-recommends "${missing[@]}" || {
	echo "deps.sh: apt-get failed" >&2
	exit 1
}
# Re-check: apt-get can succeed and still leave something out.
exec "$0" --check "--$group"
