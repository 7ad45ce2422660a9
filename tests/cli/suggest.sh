#!/usr/bin/env bash
# Unknown commands and options: one line that names the word and, for a
# likely typo, the nearest known command or option; exit 1.
. "$(dirname "$0")/../lib.sh"
cd "$TMP" || exit 1

# one_line NAME WANT_LINE CMD...: exit 1, stderr is exactly WANT_LINE
one_line() {
	local name=$1 want=$2 rc
	shift 2
	"$@" >out.txt 2>err.txt
	rc=$?
	if [ "$rc" = 1 ] && [ "$(cat err.txt)" = "$want" ] && [ ! -s out.txt ]; then
		ok "$name"
	else
		not_ok "$name: exit $rc"
		sed 's/^/# /' err.txt | head -5
		echo "# wanted: $want"
	fi
}

one_line "command typo (swap)" "pmprof: 'reprot' is not a pmprof command; did you mean 'report'?" \
	"$PMPROF" reprot
one_line "command typo (letter)" "pmprof: 'metrcs' is not a pmprof command; did you mean 'metrics'?" \
	"$PMPROF" metrcs
one_line "command prefix" "pmprof: 'prof' is not a pmprof command; did you mean 'profileme'?" \
	"$PMPROF" prof
one_line "no near command" "pmprof: 'frobnicate' is not a pmprof command. See 'pmprof --help'." \
	"$PMPROF" frobnicate
one_line "record option typo" "pmprof: --fre: unknown option; did you mean --freq?" \
	"$PMPROF" record --fre 10 -- true
one_line "record option with a value" "pmprof: --dryrun: unknown option; did you mean --dry-run?" \
	"$PMPROF" record --dryrun=1
one_line "no near option" "pmprof: --frobnicate: unknown option (see 'pmprof report -h')" \
	"$PMPROF" report --frobnicate
one_line "short switch in the other case" "pmprof: -f: unknown switch; did you mean -F?" \
	"$PMPROF" record -f 10
one_line "unknown short switch" "pmprof: -Z: unknown switch (see 'pmprof dump -h')" \
	"$PMPROF" dump -Z

# every command answers an unknown option the same way
for c in $("$PMPROF" --help | sed -n '/^The commands are:/,/^$/{/^   [a-z]/p}' | awk '{ print $1 }'); do
	[ "$c" = help ] && continue
	"$PMPROF" "$c" --no-such-option-here >out.txt 2>err.txt
	rc=$?
	if [ "$rc" = 1 ] && [ "$(wc -l <err.txt)" = 1 ] && grep -q "^pmprof: --no-such-option-here: unknown option (see 'pmprof $c -h')" err.txt; then
		ok "pmprof $c: one line for an unknown option"
	else
		not_ok "pmprof $c: one line for an unknown option (exit $rc)"
		head -3 err.txt | sed 's/^/# /'
	fi
done
