#!/usr/bin/env bash
# scripts/deps.sh and make check's use of it, against stand-ins for
# dpkg-query and apt-get (first on PATH): with packages missing, a user
# who is not root gets the one apt-get line and make check stops before
# building; root gets them installed, then checked again.
. "$(dirname "$0")/../lib.sh"

fake=$TMP/bin state=$TMP/installed
mkdir -p "$fake"
: >"$state"
# dpkg-query -W -f=... PKG...: "PKG ii" for each package listed in $state
cat >"$fake/dpkg-query" <<FAKE
#!/bin/sh
shift 2
for p in "\$@"; do grep -qx "\$p" "$state" && echo "\$p ii"; done
exit 0
FAKE
# apt-get: logs its arguments; "install" marks the packages installed
cat >"$fake/apt-get" <<FAKE
#!/bin/sh
echo "apt-get \$*" >>"$TMP/apt.log"
case " \$* " in *" install "*)
	for a in "\$@"; do case \$a in -*|install|DPkg*) ;; *) echo "\$a" >>"$state" ;; esac; done ;;
esac
exit 0
FAKE
# pkg-config finds every module (the real one would not, for the stand-ins)
printf '#!/bin/sh\nexit 0\n' >"$fake/pkg-config"
# dpkg: the foreign architectures in $TMP/archs (none at first)
: >"$TMP/archs"
cat >"$fake/dpkg" <<FAKE
#!/bin/sh
case "\$1" in
--print-foreign-architectures) cat "$TMP/archs" ;;
--add-architecture) echo "dpkg \$*" >>"$TMP/apt.log"; echo "\$2" >>"$TMP/archs" ;;
esac
exit 0
FAKE
chmod 755 "$fake"/* "$TMP"
all=$("$TOP/scripts/deps.sh" --test --list | tr '\n' ' ' | sed 's/ $//')

# Not root, nothing installed, dpkg without the lab's architectures: one
# command line with all of it, exit 1.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	as_user() { setpriv --reuid=nobody --regid=nogroup --clear-groups env PATH="$fake:$PATH" "$@"; }
	cp "$TOP/scripts/deps.sh" "$TMP/deps.sh"
	as_user bash "$TMP/deps.sh" --test >"$TMP/user.out" 2>&1
	check_eq "deps: not root, packages missing: exit 1" 1 $?
	check_eq "deps: not root: the one command line, every package" \
		"1 dpkg --add-architecture arm64 && dpkg --add-architecture s390x && apt-get update && apt-get install -y --no-install-recommends $all" \
		"$(grep -c 'apt-get' "$TMP/user.out") $(grep 'apt-get' "$TMP/user.out" | sed 's/^ *//')"
	check_eq "deps: not root: apt-get not run" no "$([ -e "$TMP/apt.log" ] && echo yes || echo no)"
	# make check stops there, before building anything
	mkdir -p "$TMP/tree/scripts"
	cp "$TOP/Makefile" "$TMP/tree/" && cp "$TOP/scripts/deps.sh" "$TMP/tree/scripts/"
	chmod -R a+rwX "$TMP/tree"
	as_user make -C "$TMP/tree" check >"$TMP/make.out" 2>&1
	rc=$?
	if [ "$rc" != 0 ] && grep -q "apt-get update && apt-get install" "$TMP/make.out" &&
	   [ ! -e "$TMP/tree/build" ]; then
		ok "deps: make check as a user with packages missing says how and stops (exit $rc)"
	else
		not_ok "deps: make check as a user with packages missing says how and stops (exit $rc)"
		sed 's/^/# /' "$TMP/make.out" | head -10
	fi
else
	skip "deps as a user" "needs root to become nobody with setpriv"
fi

# Root, two packages missing: apt-get installs those two, the check after
# it passes.
if [ "$(id -u)" = 0 ]; then
	"$TOP/scripts/deps.sh" --test --list | grep -vx -e zstd -e procps >"$state"
	echo arm64 >"$TMP/archs"
	rm -f "$TMP/apt.log"
	PATH="$fake:$PATH" "$TOP/scripts/deps.sh" --test >"$TMP/root.out" 2>&1
	check_eq "deps: root: exit 0 once installed" 0 $?
	check_eq "deps: root: the architecture, apt-get update, then install of just the missing" \
		"dpkg --add-architecture s390x|apt-get -o DPkg::Lock::Timeout=600 update -q|apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends zstd procps" \
		"$(paste -sd'|' "$TMP/apt.log")"
	rm -f "$TMP/apt.log"
	PATH="$fake:$PATH" "$TOP/scripts/deps.sh" --test >"$TMP/again.out" 2>&1
	check_eq "deps: root, nothing missing: no apt-get at all" "0 no" \
		"$? $([ -e "$TMP/apt.log" ] && echo yes || echo no)"
else
	skip "deps as root" "needs root"
fi
