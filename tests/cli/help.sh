#!/usr/bin/env bash
# Every command `pmprof --help` lists has `pmprof CMD --help` (exit 0, a
# usage line), a man page docs/pmprof-CMD.1 that groff renders without a
# warning, and `pmprof help CMD` shows that page; pmprof(1) too;
# `pmprof --version` prints the Makefile's version.
. "$(dirname "$0")/../lib.sh"

"$PMPROF" --help >"$TMP/help" 2>&1
check_eq "help: pmprof --help exits 0" 0 $?
# The command list: the indented lines after "The commands are:".
cmds=$(sed -n '/^The commands are:/,/^$/{/^   [a-z]/p}' "$TMP/help" | awk '{ print $1 }')
n=$(echo $cmds | wc -w)
if [ "$n" -ge 10 ]; then
	ok "help: $n commands listed"
else
	not_ok "help: only $n commands listed"
	sed 's/^/# /' "$TMP/help"
fi

have_groff=0
command -v groff >/dev/null 2>&1 && have_groff=1
have_man=0
command -v man >/dev/null 2>&1 && have_man=1

# render NAME PAGE: groff, warnings on (-ww), output discarded (-z).
render() {
	local name=$1 page=$2 w
	if [ $have_groff = 0 ]; then
		skip "$name" "no groff (groff-base)"
		return
	fi
	w=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
	if [ -z "$w" ]; then
		ok "$name"
	else
		not_ok "$name"
		printf '%s\n' "$w" | head -5 | sed 's/^/# /'
	fi
}

for c in $cmds; do
	out=$("$PMPROF" "$c" --help 2>&1)
	rc=$?
	check_eq "help: pmprof $c --help exits 0" 0 "$rc"
	if printf '%s\n' "$out" | grep -Eq "^ *usage: pmprof $c( |$)"; then
		ok "help: pmprof $c --help has a usage line"
	else
		not_ok "help: pmprof $c --help has a usage line"
		printf '%s\n' "$out" | head -5 | sed 's/^/# /'
	fi

	page="$TOP/docs/pmprof-$c.1"
	if [ ! -f "$page" ]; then
		not_ok "help: docs/pmprof-$c.1 exists"
		continue
	fi
	ok "help: docs/pmprof-$c.1 exists"
	check_eq "help: docs/pmprof-$c.1 names its command" \
		"pmprof-$c" "$(sed -n '/^\.SH NAME/{n;s/ .*//;s/\\-/-/g;p;q}' "$page")"
	render "help: docs/pmprof-$c.1 renders without warnings" "$page"

	if [ $have_man = 1 ]; then
		shown=$(MANPAGER=cat MANWIDTH=80 "$PMPROF" help "$c" 2>&1)
		rc=$?
		if [ "$rc" -eq 0 ] && printf '%s\n' "$shown" | grep -q "pmprof-$c"; then
			ok "help: pmprof help $c shows the page"
		else
			not_ok "help: pmprof help $c shows the page (status $rc)"
			printf '%s\n' "$shown" | head -5 | sed 's/^/# /'
		fi
	fi
done

render "help: docs/pmprof.1 renders without warnings" "$TOP/docs/pmprof.1"
# pmprof(1) names every command.
for c in $cmds; do
	grep -q "^\.B $c\$" "$TOP/docs/pmprof.1" || missing="${missing:-} $c"
done
check_eq "help: pmprof(1) lists every command" "" "${missing:-}"

if [ $have_man = 1 ]; then
	MANPAGER=cat "$PMPROF" help >"$TMP/page" 2>&1
	check_eq "help: pmprof help (no command) exits 0" 0 $?
	check "help: pmprof help shows pmprof(1)" grep -q "^NAME" "$TMP/page"
	MANPAGER=cat "$PMPROF" help nosuchcommand >/dev/null 2>&1
	rc=$?
	check "help: pmprof help nosuchcommand fails" test "$rc" -ne 0
fi

version=$(sed -n 's/^VERSION *:= *//p' "$TOP/Makefile")
check_eq "help: pmprof --version" "pmprof version $version" "$("$PMPROF" --version)"
check_eq "help: man pages carry the version" "" \
	"$(grep -L "\"pmprof $version\"" "$TOP"/docs/*.1)"

"$PMPROF" nosuchcommand >/dev/null 2>&1
check_eq "help: an unknown command exits 1" 1 $?
