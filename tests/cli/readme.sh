#!/usr/bin/env bash
# Every ```sh block of README.md runs as written and exits 0.
#
# The README's convention: examples run from the repository root after
# `make`, in order (later ones read the perf.data earlier ones wrote).
# Here they run, in order, in a scratch directory holding a symlink to each
# of the repository's top-level entries, so relative paths (build/...,
# models/..., docs/...) resolve and the files the examples write land in
# the scratch directory, never in the source tree. build/ is on PATH, as
# the README's first block sets it. A block right after a line
# "<!-- not run by tests/cli/readme.sh: WHY -->" is skipped (make check
# would run itself).
. "$(dirname "$0")/../lib.sh"

README="$TOP/README.md"
W="$TMP/root"
mkdir -p "$W" "$TMP/blocks"
for e in "$TOP"/* ; do
	ln -s "$e" "$W/$(basename "$e")"
done

# Split the blocks into files: NNN.sh, or NNN.skip holding the reason.
awk -v dir="$TMP/blocks" '
	/^<!-- not run by tests\/cli\/readme.sh/ { why = $0; next }
	!inblk && /^```sh[ \t]*$/ {
		n++; inblk = 1
		f = sprintf("%s/%03d.%s", dir, n, why != "" ? "skip" : "sh")
		printf "# README.md line %d\n", NR > f
		if (why != "") print why > f
		why = ""; next
	}
	inblk && /^```[ \t]*$/ { inblk = 0; close(f); next }
	inblk { print > f; next }
	/^```/ { why = "" }
	NF { why = "" }
' "$README"

n=$(ls "$TMP/blocks" | wc -l)
if [ "$n" -lt 10 ]; then
	not_ok "readme: found only $n sh blocks in README.md"
	exit 0
fi
ok "readme: $n sh blocks"

# Some blocks record; without perf_event access they cannot run.
if ! "$PMPROF" record -q -e cpu-clock -o "$TMP/probe.data" -- true >/dev/null 2>&1; then
	skip readme "pmprof record cannot open cpu-clock here (perf_event_paranoid?)"
	exit 0
fi

for b in "$TMP"/blocks/*; do
	where=$(head -1 "$b" | sed 's/^# //')
	case "$b" in
	*.skip)
		skip "readme: block at $where" "$(sed -n 2p "$b" | sed 's/^<!-- not run by tests\/cli\/readme.sh: //; s/ -->$//')"
		continue ;;
	esac
	if out=$(cd "$W" && PATH="$TOP/$BUILD:$PATH" MANPAGER=cat \
			timeout 120 bash -e "$b" 2>&1 </dev/null); then
		ok "readme: block at $where"
	else
		not_ok "readme: block at $where"
		sed 's/^/# /' "$b"
		printf '%s\n' "$out" | tail -15 | sed 's/^/#  | /'
	fi
done

# Nothing was written into the source tree.
check_eq "readme: no perf.data left in the source tree" "" \
	"$(cd "$TOP" && git status --porcelain --untracked-files=all -- '*.data' '*.pipe' '*.json' 2>/dev/null | grep -v '^ M\|^M ' || true)"
