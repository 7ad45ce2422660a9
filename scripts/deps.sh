#!/usr/bin/env bash
# Check (and, as root, install) the Debian packages pmprof needs.
#
#   scripts/deps.sh [--runtime | --test | --lab | --fresh] [--check] [--list]
#
#   --runtime   what `make demo` needs: the build dependencies and perf
#   --lab       what the arm64 lab needs on the host (scripts/lab/: cross
#               compilers, qemu, the kernel build's tools); its arm64 and
#               s390x packages are fetched by the lab itself (apt-get
#               download), after `dpkg --add-architecture`, done here too
#   --test      everything the tests need, the lab's included (the default)
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
# why. Group "runtime" and "lab" packages are also part of "test"; "fresh"
# stands alone.
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
libprotobuf-c-dev        runtime  libprotobuf-c  --format pprof: profile.proto messages
protobuf-c-compiler      runtime  -         protoc-c: profile.proto compiled at build time
zlib1g-dev               runtime  zlib      --format pprof: gzip
libncurses-dev           runtime  ncursesw  the screen of pmprof top
linux-perf               runtime  -         perf: recording, reference output
binutils-multiarch       runtime  -         annotate: objdump that reads every architecture (Alpha too)
libcmocka-dev            test     cmocka    unit tests
zstd                     test     -         compressed fixtures
clang                    test     -         libFuzzer and sanitizer builds
libclang-rt-14-dev       test     -         libFuzzer and sanitizer runtimes (clang only recommends them)
gcc-12-alpha-linux-gnu   test     -         Alpha fixture binaries
binutils-alpha-linux-gnu test     -         Alpha fixture binaries
gcc-12-s390x-linux-gnu   lab      -         s390x (big-endian) builds
libc6-dev-s390x-cross    lab      -         s390x (big-endian) builds
gcc-12-aarch64-linux-gnu lab      -         arm64 builds: pmprof, the lab kernel, stacks to unwind
libc6-dev-arm64-cross    lab      -         arm64 builds (a static one for tests/unit/test-unwind.c)
qemu-user                lab      -         arm64/s390x unit tests (qemu-aarch64, qemu-s390x), arm64 stacks to unwind
qemu-system-arm          lab      -         the lab guest: qemu-system-aarch64
cpio                     lab      -         the guest initramfs
file                     lab      -         checks that the cross builds are static
flex                     lab      -         the lab kernel build
bison                    lab      -         the lab kernel build
bc                       lab      -         the lab kernel build
xz-utils                 lab      -         the kernel source package
patch                    lab      -         the lab kernel patch
man-db                   test     -         man page checks
groff-base               test     -         man page checks
python3                  test     -         perf script -s benchmark
valgrind                 test     -         leak checks of the error exits of record
libc6-dbg                test     -         the libc symbol table and DWARF of the --inline checks (valgrind pulls it in too)
golang-go                test     -         go tool pprof reads --format pprof
chromium                 test     -         headless: the flame graph of --format html
tmux                     test     -         pmprof top driven on a terminal
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
	--lab) group=lab ;;
	--check) check_only=1 ;;
	--list) list_only=1 ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "deps.sh: unknown option '$a' (try --help)" >&2; exit 1 ;;
	esac
done

# Rows of the chosen group: "package module".
rows=$(printf '%s\n' "$PACKAGES" | awk -v g="$group" \
	'NF >= 3 && ($2 == g || (g == "test" && ($2 == "runtime" || $2 == "lab"))) { print $1, $3 }')
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

# The lab fetches arm64 and s390x packages: dpkg must know those
# architectures (the only change the lab makes outside its cache).
need_arch=()
if [ "$group" = test ] || [ "$group" = lab ]; then
	for a in arm64 s390x; do
		dpkg --print-foreign-architectures | grep -qx "$a" || need_arch+=("$a")
	done
fi

if [ ${#missing[@]} -eq 0 ] && [ ${#need_arch[@]} -eq 0 ]; then
	echo "deps.sh: all $(printf '%s\n' "$pkgs" | wc -l) $group packages present"
	exit 0
fi

# One command line for all of it, to give a user who is not root.
line=
for a in ${need_arch[@]+"${need_arch[@]}"}; do
	line+="dpkg --add-architecture $a && "
done
line+="apt-get update"
if [ ${#missing[@]} -gt 0 ]; then
	line+=" && apt-get install -y --no-install-recommends ${missing[*]}"
	echo "deps.sh: missing: ${missing[*]}"
fi
[ ${#need_arch[@]} -eq 0 ] || echo "deps.sh: dpkg knows no ${need_arch[*]} packages"
if [ "$check_only" = 1 ] || [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: to install them, as root:"
	echo "  $line"
	exit 1
fi

for a in ${need_arch[@]+"${need_arch[@]}"}; do
	echo "deps.sh: dpkg --add-architecture $a"
	dpkg --add-architecture "$a" || { echo "deps.sh: dpkg --add-architecture $a failed" >&2; exit 1; }
done
if [ ${#missing[@]} -eq 0 ]; then
	apt-get -o DPkg::Lock::Timeout=600 update -q || { echo "deps.sh: apt-get update failed" >&2; exit 1; }
	exec "$0" --check "--$group"
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
