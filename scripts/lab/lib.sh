# Shared by scripts/lab/*.sh: the download cache, locks, Debian packages of
# another architecture. Source it; it sets LAB_TOP (the tree), LAB_CACHE
# and LAB_BUILD.
#
# The cache (PMPROF_LAB_CACHE, default ~/.cache/pmprof-lab) lives outside
# the clone, so that every clone and CI run on a machine shares it:
#   debs/NAME_VERSION_ARCH.deb   packages as apt-get download names them
#   sysroot/ARCH-HASH/           unpacked -dev packages (cross builds)
#   kernel/HASH/                 the lab kernel (build-kernel.sh)
#   guest/HASH/                  the guest's Debian parts (build.sh)
# Every entry is keyed by a hash of what it is made from (package
# versions, patch, config, the script that makes it), made in a temporary
# directory beside it and renamed into place when complete, under a lock
# (flock) so that concurrent runs wait for each other instead of doing the
# work twice; a run that finds an entry uses it.
#
# Nothing outside the cache and the build directory is changed, except the
# dpkg architectures (lab_need_arch adds arm64 or s390x, as root).
set -u

LAB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LAB_CACHE=${PMPROF_LAB_CACHE:-${HOME:-/root}/.cache/pmprof-lab}
LAB_BUILD=${BUILD:-build}
case $LAB_BUILD in /*) ;; *) LAB_BUILD="$LAB_TOP/$LAB_BUILD" ;; esac

lab_log() { printf 'lab: %s\n' "$*" >&2; }
lab_die() { printf 'lab: %s\n' "$*" >&2; exit 1; }

# lab_hash FILE-OR-STRING...: a short sha256 over the contents of the
# files and the other arguments as strings, in order.
lab_hash() {
	local a
	for a in "$@"; do
		if [ -f "$a" ]; then
			printf 'file %s\n' "$(basename "$a")"
			cat "$a"
		else
			printf 'str %s\n' "$a"
		fi
	done | sha256sum | cut -c1-16
}

# lab_lock NAME: hold an exclusive lock on NAME for the rest of this
# shell (fd 9). Waits for another run that holds it, saying which
# processes hold it, at most LAB_LOCK_WAIT seconds (default 5400: a
# kernel build on a loaded machine); then fails naming them. The lock
# is flock(2)'s: it goes with the last process holding the file open, so
# a lock file left by a killed run is no lock.
lab_lock() {
	local f="$LAB_CACHE/locks/$1" me=$BASHPID
	mkdir -p "$LAB_CACHE/locks" || lab_die "cannot create $LAB_CACHE/locks"
	exec 9>"$f"
	if ! flock -n 9; then
		lab_log "waiting for another lab run ($1, held by $(lab_lock_holders "$f" "$me"))"
		flock -w "${LAB_LOCK_WAIT:-5400}" 9 ||
			lab_die "$f still locked after ${LAB_LOCK_WAIT:-5400} s by $(lab_lock_holders "$f" "$me")"
	fi
	# What a holder that was killed left unfinished (before its EXIT
	# trap could remove it: a kernel build's is 1.5 GB): only the holder
	# of NAME makes these, and that is now this run.
	case $1 in
	kernel) lab_clean_stale "$LAB_CACHE/kernel" '.build.*' '.new.*' ;;
	guest) lab_clean_stale "$LAB_CACHE/guest" '.new.*' ;;
	sysroot-*) lab_clean_stale "$LAB_CACHE/sysroot" ".new.${1#sysroot-}.*" ;;
	esac
}

# lab_lock_holders FILE PID: the processes that have FILE open but PID
# and the command substitution this runs in (this one's parent). A
# subshell that closes fd 9 first, so that neither it nor what it runs is
# among them.
lab_lock_holders() (
	exec 9>&-
	local pid cmd out="" parent self=$BASHPID
	parent=$(sed -n 's/^PPid:[[:space:]]*//p' "/proc/$self/status")
	for pid in $(find /proc/[0-9]*/fd -maxdepth 1 -lname "$1" 2>/dev/null |
		     cut -d/ -f3 | sort -un); do
		[ "$pid" = "$2" ] || [ "$pid" = "$parent" ] && continue
		cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-60) || continue
		out="${out}${out:+, }pid $pid ($cmd)"
	done
	printf '%s' "${out:-no process we can see}"
)

lab_unlock() { exec 9>&-; }

# lab_clean_stale DIR GLOB...: remove DIR's unfinished entries GLOB
# (temporary directories of a run that was killed). Only under the lock
# that guards them.
lab_clean_stale() {
	local dir=$1 g d
	shift
	for g in "$@"; do
		for d in "$dir"/$g; do
			[ -d "$d" ] || continue
			lab_log "removing $d, left by a run that did not finish"
			rm -rf "$d"
		done
	done
}

# lab_need_cmd CMD PACKAGE: fail with the package to install.
lab_need_cmd() {
	command -v "$1" >/dev/null 2>&1 ||
		lab_die "$1 not found: install $2 (scripts/deps.sh --lab)"
}

# lab_need_arch ARCH: make dpkg and apt know packages of ARCH (as root:
# dpkg --add-architecture and apt-get update; otherwise fail saying so).
lab_need_arch() {
	local arch=$1
	if dpkg --print-foreign-architectures | grep -qx "$arch" &&
	   [ -n "$(apt-cache policy "libc6:$arch" 2>/dev/null | awk '/Candidate:/ && $2 != "(none)"')" ]; then
		return 0
	fi
	if [ "$(id -u)" -ne 0 ]; then
		lab_die "dpkg does not know $arch packages; as root: dpkg --add-architecture $arch && apt-get update"
	fi
	lab_log "adding the dpkg architecture $arch"
	dpkg --add-architecture "$arch" || lab_die "dpkg --add-architecture $arch failed"
	apt-get -o DPkg::Lock::Timeout=600 update -q >&2 ||
		lab_die "apt-get update failed"
	[ -n "$(apt-cache policy "libc6:$arch" | awk '/Candidate:/ && $2 != "(none)"')" ] ||
		lab_die "apt has no $arch packages after apt-get update (are the sources multi-arch?)"
}

# lab_versions PKG...: "PKG VERSION DEBFILE" for each package (PKG may
# carry :ARCH), the candidate version apt would download. Fails naming
# the packages apt does not know.
lab_versions() {
	local out missing=() p
	out=$(apt-cache show --no-all-versions "$@" 2>/dev/null |
		awk '/^Package:/ { p = $2 } /^Architecture:/ { a = $2 }
		     /^Version:/ { v = $2 }
		     /^$/ { if (p != "") { print p, a, v }; p = "" }
		     END { if (p != "") print p, a, v }')
	for p in "$@"; do
		local name=${p%%:*}
		if ! awk -v n="$name" '$1 == n { f = 1 } END { exit !f }' <<<"$out"; then
			missing+=("$p")
		fi
	done
	[ ${#missing[@]} -eq 0 ] ||
		lab_die "apt knows no package ${missing[*]} (apt-get update? dpkg --add-architecture?)"
	# apt-get download writes NAME_VERSION_ARCH.deb, the epoch's colon as %3a
	awk '{ v = $3; gsub(/:/, "%3a", v); print $1 ":" $2, $3, $1 "_" v "_" $2 ".deb" }' <<<"$out"
}

# lab_fetch PKG...: download the packages not yet in the cache; prints
# the path of each .deb, one a line, in the order given. A failed
# download fails the run with apt's message.
lab_fetch() {
	local rows want=() tmp row pkg ver deb
	rows=$(lab_versions "$@") || exit 1
	mkdir -p "$LAB_CACHE/debs" || lab_die "cannot create $LAB_CACHE/debs"
	while read -r pkg ver deb; do
		[ -s "$LAB_CACHE/debs/$deb" ] || want+=("$pkg=$ver")
	done <<<"$rows"
	if [ ${#want[@]} -gt 0 ]; then
		tmp=$(mktemp -d "$LAB_CACHE/debs/.dl.XXXXXX")
		chmod 755 "$tmp"
		lab_log "downloading ${#want[@]} packages"
		if ! (cd "$tmp" && apt-get -q -o APT::Sandbox::User="$(id -un)" download "${want[@]}") \
			>"$tmp/.log" 2>&1; then
			sed 's/^/lab: apt-get: /' "$tmp/.log" | grep -v '^lab: apt-get: Get:' >&2
			rm -rf "$tmp"
			lab_die "apt-get download failed"
		fi
		for row in "$tmp"/*.deb; do
			mv -n "$row" "$LAB_CACHE/debs/" 2>/dev/null
		done
		rm -rf "$tmp"
	fi
	while read -r pkg ver deb; do
		[ -s "$LAB_CACHE/debs/$deb" ] ||
			lab_die "$pkg $ver: apt-get download did not write $deb"
		printf '%s\n' "$LAB_CACHE/debs/$deb"
	done <<<"$rows"
}

# lab_deps_closure ARCH PKG...: PKG and the library packages (lib*,
# zlib1g) they depend on, recursively, for ARCH; the programs they also
# depend on (perl, python3) are left out: only their libraries are needed.
lab_deps_closure() {
	local arch=$1
	shift
	apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances "${@/%/:$arch}" 2>/dev/null |
		awk -v a=":$arch" '/^[a-z0-9]/ && index($1, a) { print $1 }' |
		sed "s/:$arch\$//" | sort -u |
		awk -v want=" $* " '/^lib|^zlib1g$/ || index(want, " " $1 " ")'
}

# lab_triplet ARCH: the GNU triplet Debian uses for ARCH.
lab_triplet() {
	case $1 in
	arm64) echo aarch64-linux-gnu ;;
	s390x) echo s390x-linux-gnu ;;
	amd64) echo x86_64-linux-gnu ;;
	*) lab_die "no triplet for architecture '$1'" ;;
	esac
}

# lab_qemu_user ARCH: qemu-user's program for ARCH.
lab_qemu_user() {
	case $1 in
	arm64) echo qemu-aarch64 ;;
	s390x) echo qemu-s390x ;;
	*) lab_die "no qemu-user for architecture '$1'" ;;
	esac
}

# lab_publish TMPDIR FINAL: rename a finished cache entry into place; if
# another run put one there first, keep that one.
lab_publish() {
	if ! mv -T "$1" "$2" 2>/dev/null; then
		[ -d "$2" ] || lab_die "cannot move $1 to $2"
		rm -rf "$1"
	fi
}
