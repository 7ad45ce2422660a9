#!/usr/bin/env bash
# Check that no file includes a header of a layer above its own.
#
#   scripts/check-layers.sh [TOP]
#
# TOP (default: this script's tree) holds DESIGN.md, include/pmprof, lib
# and src. The layers, lowest first, come from DESIGN.md's ```layers
# block: one line per layer, "NAME DIR HEADER...", DIR a folder of TOP
# whose .c and .h files are that layer's, each HEADER include/pmprof/
# HEADER.h. Every file of lib/, src/ and include/pmprof belongs to one
# layer, and may include the headers of its own layer and of the layers
# before it:
#   "pmprof/X.h"   the layer that lists X
#   "DIR/X.h"      the layer of lib/DIR (a private header)
#   "X.h"          a private header of the file's own folder
# System headers (<...>) are not checked.
#
# Prints each wrong include as FILE:LINE: what is wrong, then one line
# "check-layers: N files, N includes, N wrong"; exits 1 when one is
# wrong, or when a file, folder or header is in no layer (the block must
# stay complete), 2 when DESIGN.md has no layers block.
set -u
TOP=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$TOP" || exit 2
[ -f DESIGN.md ] || { echo "check-layers: $TOP/DESIGN.md: no such file" >&2; exit 2; }

declare -A rank_of_dir=() rank_of_header=() layer_of_rank=()
n=0
while read -r name dir headers; do
	[ -n "$name" ] || continue
	layer_of_rank[$n]=$name
	rank_of_dir[$dir]=$n
	for h in $headers; do
		rank_of_header[$h]=$n
	done
	n=$((n + 1))
done < <(sed -n '/^```layers$/,/^```$/{/^```/d;p}' DESIGN.md)
if [ "$n" = 0 ]; then
	echo "check-layers: DESIGN.md: no \`\`\`layers block" >&2
	exit 2
fi

wrong=0 files=0 includes=0
complain() {
	echo "$1"
	wrong=$((wrong + 1))
}

# Every public header in exactly one layer.
for f in include/pmprof/*.h; do
	h=$(basename "$f" .h)
	[ -n "${rank_of_header[$h]+x}" ] ||
		complain "$f: in no layer of DESIGN.md's layers block"
done

check_file() {	# FILE RANK OWN_DIR
	local f=$1 rank=$2 own=$3 line num inc r what
	files=$((files + 1))
	while IFS=: read -r num line; do
		inc=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' <<<"$line")
		[ -n "$inc" ] || continue
		includes=$((includes + 1))
		case $inc in
		pmprof/*.h)
			what=${inc#pmprof/}
			what=${what%.h}
			if [ -z "${rank_of_header[$what]+x}" ]; then
				complain "$f:$num: includes $inc, in no layer of DESIGN.md"
				continue
			fi
			r=${rank_of_header[$what]} ;;
		*/*)
			what=lib/${inc%%/*}
			if [ -z "${rank_of_dir[$what]+x}" ]; then
				complain "$f:$num: includes $inc, of no layer's folder"
				continue
			fi
			r=${rank_of_dir[$what]} ;;
		*)
			r=$rank ;;	# its own folder's private header
		esac
		if [ "$r" -gt "$rank" ]; then
			complain "$f:$num: ${layer_of_rank[$rank]} includes $inc of ${layer_of_rank[$r]}, a layer above it (DESIGN.md)"
		fi
	done < <(grep -n '^[[:space:]]*#[[:space:]]*include' "$f")
}

for f in include/pmprof/*.h; do
	h=$(basename "$f" .h)
	[ -n "${rank_of_header[$h]+x}" ] || continue
	check_file "$f" "${rank_of_header[$h]}" include/pmprof
done
for d in lib/*/ src/; do
	d=${d%/}
	if [ -z "${rank_of_dir[$d]+x}" ]; then
		complain "$d: a folder in no layer of DESIGN.md's layers block"
		continue
	fi
	for f in "$d"/*.c "$d"/*.h; do
		[ -f "$f" ] || continue
		check_file "$f" "${rank_of_dir[$d]}" "$d"
	done
done
echo "check-layers: $files files, $includes includes, $wrong wrong"
[ "$wrong" = 0 ]
