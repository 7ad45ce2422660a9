#!/usr/bin/env bash
# The big-endian check: the ProfileMe payload is little endian on every
# host, so a big-endian build must decode the same fixtures to the same
# tables. No libelf/libdw/libzstd/jansson exist for s390x here, so this
# builds a reduced static program (tests/bigendian/pm-json.c: reader,
# decoders, accumulators, JSON; no session, hence no symbols) twice, for
# the host and for s390x, runs the latter under qemu-user, and compares:
# the two builds' JSON for every fixture, and the s390x pc view with the
# hand-worked document of test-profileme-fixtures (symbols left out).
#
# Needs gcc-12-s390x-linux-gnu, libc6-dev-s390x-cross and qemu-user;
# prints "skip" without them.
. "$(dirname "$0")/../lib.sh"

CROSS=${CROSS:-s390x-linux-gnu-gcc-12}
QEMU=${QEMU:-qemu-s390x}
GEN="$TOP/$BUILD/tests/unit/test-profileme-fixtures"

if ! command -v "$CROSS" >/dev/null 2>&1; then
	skip profileme-bigendian "no $CROSS (gcc-12-s390x-linux-gnu)"
	exit 0
fi
if ! command -v "$QEMU" >/dev/null 2>&1; then
	skip profileme-bigendian "no $QEMU (qemu-user)"
	exit 0
fi
if [ ! -x "$GEN" ]; then
	skip profileme-bigendian "no $GEN (make tests)"
	exit 0
fi

cd "$TOP" || exit 1
SRCS=(lib/core/*.c lib/perfdata/attr.c lib/perfdata/attr_print.c
      lib/perfdata/features.c lib/perfdata/idmap.c lib/perfdata/reader.c
      lib/perfdata/records.c lib/perfdata/sample.c lib/perfdata/source.c
      lib/decode/*.c lib/analysis/profileme.c lib/analysis/profileme-row.c
      lib/analysis/mem.c
      lib/table/*.c tests/bigendian/pm-json.c)
FLAGS=(-std=gnu11 -O1 -Wall -Wextra -Werror -Wno-missing-field-initializers
       -D_GNU_SOURCE -Itests/bigendian/stub -Iinclude -Ilib)

if ! "$CROSS" "${FLAGS[@]}" -static -o "$TMP/pm-json.s390x" "${SRCS[@]}" -lm \
	>"$TMP/cross.log" 2>&1; then
	if grep -q "cannot find -lc\|stdio.h: No such file" "$TMP/cross.log"; then
		skip profileme-bigendian "no s390x libc (libc6-dev-s390x-cross)"
		exit 0
	fi
	not_ok "profileme-bigendian: s390x build"
	sed 's/^/# /' "$TMP/cross.log" | tail -20
	exit 0
fi
ok "profileme-bigendian: s390x build"
check "profileme-bigendian: host build" \
	${CC:-cc} "${FLAGS[@]}" -o "$TMP/pm-json.host" "${SRCS[@]}" -lm

"$QEMU" "$TMP/pm-json.s390x" profileme "$TOP/tests/bigendian/pm-json.c" \
	>/dev/null 2>"$TMP/host"
check_eq "profileme-bigendian: the s390x build runs big endian" \
	"host: big endian" "$(head -1 "$TMP/host")"

"$GEN" --write "$TMP/fx" >/dev/null 2>&1
for f in "$TMP"/fx/*.data; do
	name=$(basename "$f" .data)
	case $name in
	mem-*) views="mem" ;;
	*) views="profileme profileme-pc" ;;
	esac
	for v in $views; do
		"$TMP/pm-json.host" $v "$f" >"$TMP/host.json" 2>/dev/null
		"$QEMU" "$TMP/pm-json.s390x" $v "$f" >"$TMP/be.json" 2>/dev/null
		if [ -s "$TMP/host.json" ]; then
			check_files_eq "profileme-bigendian: $name $v: s390x == host" \
				"$TMP/host.json" "$TMP/be.json"
		else
			not_ok "profileme-bigendian: $name $v: no output"
		fi
	done
done

# Against the hand-worked document, symbols aside (this build has none).
strip='import json,sys
d=json.load(open(sys.argv[1]))
for t in d.get("tables", []):
    for r in t["rows"]:
        for k in ("dso", "symbol", "srcline"):
            r.pop(k, None)
for r in d.get("rows", []):
    for k in ("dso", "symbol", "data_dso", "data_symbol"):
        r.pop(k, None)
json.dump(d, open(sys.argv[2], "w"), sort_keys=True)'
for order in le be; do
	"$QEMU" "$TMP/pm-json.s390x" profileme-pc "$TMP/fx/rules-$order.data" >"$TMP/be.json" 2>/dev/null
	python3 -c "$strip" "$TMP/be.json" "$TMP/got.json"
	python3 -c "$strip" "$TMP/fx/expect-pc.json" "$TMP/want.json"
	check "profileme-bigendian: s390x pc view of rules-$order equals the hand-worked tables" \
		python3 "$TOP/tests/tools/json_same.py" "$TMP/got.json" "$TMP/want.json"
done
if [ -s "$TMP/fx/branch-random.data" ]; then
	read -r pc n mis taken <"$TMP/fx/branch-random.expect"
	"$QEMU" "$TMP/pm-json.s390x" profileme-pc "$TMP/fx/branch-random.data" >"$TMP/be.json" 2>/dev/null
	check_eq "profileme-bigendian: s390x: the branch on random data" \
		"$pc $n $mis $taken" \
		"$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["tables"][0]["rows"][0]; print(r["pc"], r["samples"], r["mispredicted"], r["taken"])' "$TMP/be.json")"
fi
