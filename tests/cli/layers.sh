#!/usr/bin/env bash
# scripts/check-layers.sh: the tree follows DESIGN.md's layer order, and
# the check fails on wrong includes made in a copy of the tree (never in
# the tree itself): a lower layer's file or public header including a
# higher layer's header, a private header of a higher layer's folder, a
# header no layer lists; and without a layers block it cannot check.
. "$(dirname "$0")/../lib.sh"

CHECK="$TOP/scripts/check-layers.sh"

check "layers: the tree includes only downwards" "$CHECK" "$TOP"

# copy FILE_TO_BREAK INCLUDE: a fresh copy of what the check reads, with
# INCLUDE added to that file; prints the copy's path.
n=0
copy() {
	n=$((n + 1))
	local c="$TMP/tree$n"
	mkdir -p "$c"
	cp -r "$TOP/DESIGN.md" "$TOP/include" "$TOP/lib" "$TOP/src" "$c/"
	[ -n "$1" ] && printf '#include "%s"\n' "$2" >>"$c/$1"
	echo "$c"
}

# wrong NAME FILE INCLUDE EXPECT: the check exits 1 and names FILE's line
# and EXPECT.
wrong() {
	local name=$1 file=$2 inc=$3 expect=$4 c out rc lines
	c=$(copy "$file" "$inc")
	lines=$(wc -l <"$c/$file")
	out=$("$CHECK" "$c" 2>&1)
	rc=$?
	if [ "$rc" = 1 ] && grep -qF "$file:$lines: $expect" <<<"$out" &&
	   grep -q ', 1 wrong$' <<<"$out"; then
		ok "$name"
	else
		not_ok "$name"
		printf 'rc %s\n%s\n' "$rc" "$out" | tail -20 | sed 's/^/# /'
	fi
}

wrong "layers: core including the session fails" lib/core/util.c pmprof/session.h \
	"core includes pmprof/session.h of session, a layer above it"
wrong "layers: a public header including a higher one fails" include/pmprof/table.h \
	pmprof/hotspot.h "table includes pmprof/hotspot.h of analysis, a layer above it"
wrong "layers: perfdata including record's private header fails" lib/perfdata/reader.c \
	record/record-int.h "perfdata includes record/record-int.h of record, a layer above it"
wrong "layers: the analyses including the CLI's folder fails" lib/analysis/hotspot.c \
	src/cli.h "includes src/cli.h, of no layer's folder"
wrong "layers: a header in no layer fails" lib/sim/run.c pmprof/nosuch.h \
	"includes pmprof/nosuch.h, in no layer of DESIGN.md"

# the same include one layer down is fine: only the direction counts
c=$(copy lib/analysis/hotspot.c pmprof/session.h)
check "layers: the analyses including the session passes" "$CHECK" "$c"

# a public header that no layer lists
c=$(copy "" "")
: >"$c/include/pmprof/orphan.h"
out=$("$CHECK" "$c" 2>&1)
rc=$?
if [ "$rc" = 1 ] && grep -qF "include/pmprof/orphan.h: in no layer" <<<"$out"; then
	ok "layers: a header no layer lists fails"
else
	not_ok "layers: a header no layer lists fails"
	printf 'rc %s\n%s\n' "$rc" "$out" | tail -5 | sed 's/^/# /'
fi

# DESIGN.md without the block: nothing to check against
c=$(copy "" "")
sed -i '/^```layers$/,/^```$/d' "$c/DESIGN.md"
out=$("$CHECK" "$c" 2>&1)
rc=$?
if [ "$rc" = 2 ] && grep -q 'no ```layers block' <<<"$out"; then
	ok "layers: no layers block in DESIGN.md is an error"
else
	not_ok "layers: no layers block in DESIGN.md is an error"
	printf 'rc %s\n%s\n' "$rc" "$out" | tail -5 | sed 's/^/# /'
fi
