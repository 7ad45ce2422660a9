#!/usr/bin/env bash
# The big-endian check: the ProfileMe payload is little endian on every
# host, so pmprof built for s390x (big endian; scripts/lab/cross-build.sh:
# the whole program, static, against a sysroot of Debian's s390x -dev
# packages) and run under qemu-s390x must decode the same fixtures to the
# same tables as the host's build: symbols included, for every fixture
# and view (annotate too: the disassembly through the host's objdump);
# and its pc view must equal the hand-worked document of
# test-profileme-fixtures. (The whole unit-test suite under qemu-s390x
# and qemu-aarch64 is in make check-lab: tests/lab/cross-unit.sh.)
#
# Needs gcc-12-s390x-linux-gnu, libc6-dev-s390x-cross and qemu-user
# (scripts/deps.sh --test) and, once, apt-get download of the sysroot's
# packages: without them this fails, saying which.
. "$(dirname "$0")/../lib.sh"

QEMU=${QEMU:-qemu-s390x}
GEN="$TOP/$BUILD/tests/unit/test-profileme-fixtures"

if ! command -v "$QEMU" >/dev/null 2>&1; then
	not_ok "profileme-bigendian: no $QEMU (qemu-user: scripts/deps.sh --test)"
	exit 0
fi
if [ ! -x "$GEN" ]; then
	not_ok "profileme-bigendian: no $GEN (make tests)"
	exit 0
fi
if ! out=$("$TOP/scripts/lab/cross-build.sh" s390x pmprof 2>"$TMP/cross.log"); then
	not_ok "profileme-bigendian: s390x build"
	grep -v '^s390x-linux-gnu-gcc-12 \|^ar rcs' "$TMP/cross.log" | tail -15 | sed 's/^/# /'
	exit 0
fi
BE="$(tail -1 <<<"$out")/pmprof"
ok "profileme-bigendian: s390x build"
check_eq "profileme-bigendian: the s390x build is a big-endian static program" \
	"MSB static" \
	"$(file -b "$BE" | awk '{ m = ($0 ~ /MSB/) ? "MSB" : "LSB"; s = ($0 ~ /statically linked/) ? "static" : "dynamic"; print m, s }')"
check_eq "profileme-bigendian: it runs under $QEMU" "pmprof version" \
	"$("$QEMU" "$BE" --version | cut -d' ' -f1-2)"

"$GEN" --write "$TMP/fx" >/dev/null 2>&1
for f in "$TMP"/fx/*.data; do
	name=$(basename "$f" .data)
	case $name in
	mem-*) views="mem" ;;
	*) views="profileme profileme-pc annotate" ;;
	esac
	for v in $views; do
		case $v in
		mem) args=(mem) ;;
		profileme) args=(profileme) ;;
		profileme-pc) args=(profileme --pc) ;;
		annotate) args=(annotate) ;;
		esac
		(cd "$TMP/fx" && "$PMPROF" "${args[@]}" --format json -i "$f") >"$TMP/host.json" 2>/dev/null
		(cd "$TMP/fx" && "$QEMU" "$BE" "${args[@]}" --format json -i "$f") >"$TMP/be.json" 2>"$TMP/be.err"
		if [ -s "$TMP/host.json" ]; then
			check_files_eq "profileme-bigendian: $name $v: s390x == host" \
				"$TMP/host.json" "$TMP/be.json"
		else
			not_ok "profileme-bigendian: $name $v: no output"
		fi
	done
done

# Against the hand-worked document, symbols aside (the document leaves
# out the fixture binaries' paths).
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
	(cd "$TMP/fx" && "$QEMU" "$BE" profileme --pc --format json -i "$TMP/fx/rules-$order.data") >"$TMP/be.json" 2>/dev/null
	python3 -c "$strip" "$TMP/be.json" "$TMP/got.json"
	python3 -c "$strip" "$TMP/fx/expect-pc.json" "$TMP/want.json"
	check "profileme-bigendian: s390x pc view of rules-$order equals the hand-worked tables" \
		python3 "$TOP/tests/tools/json_same.py" "$TMP/got.json" "$TMP/want.json"
done
if [ -s "$TMP/fx/branch-random.data" ]; then
	read -r pc n mis taken <"$TMP/fx/branch-random.expect"
	(cd "$TMP/fx" && "$QEMU" "$BE" profileme --pc --format json -i "$TMP/fx/branch-random.data") >"$TMP/be.json" 2>/dev/null
	check_eq "profileme-bigendian: s390x: the branch on random data" \
		"$pc $n $mis $taken" \
		"$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["tables"][0]["rows"][0]; print(r["pc"], r["samples"], r["mispredicted"], r["taken"])' "$TMP/be.json")"
fi
