#!/usr/bin/env bash
# What inject and sim write (issue 13, items 1, 3, 4, 21, 23): never over
# their input, whole or not at all (a failure, a full disk or /dev/full
# leaves no file under the final name and an existing one unchanged), new
# files mode 0600, replaced ones their mode, symlinks followed, devices
# written in place, the simulator's files never at one path, and messages
# that name the file at fault.
. "$(dirname "$0")/../lib.sh"
cd "$TMP" || exit 1
umask 022

# same NAME FILE COPY: FILE still has COPY's bytes.
same() {
	if cmp -s "$2" "$3"; then ok "$1"; else not_ok "$1"; fi
}

# nothing_but NAME DIR FILE...: DIR holds exactly FILE... (no partials).
nothing_but() {
	local name=$1 dir=$2 got want
	shift 2
	got=$(cd "$dir" && ls -A | sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sed '/^$/d' | sort | tr '\n' ' ')
	check_eq "$name" "$want" "$got"
}

SPEC='{cycles/period=30000/,instructions}:S'
sim() { "$PMPROF" sim -q resonant -e "$SPEC" "$@"; }

sim --iterations 3000 -o a.data --elf a.elf || not_ok "sim writes a.data"
cp a.data a.copy

# ---- 1: never over the input ----
expect "inject -o the input: refused" 1 "a.data is the input file a.data" \
	"$PMPROF" inject -i a.data -o a.data
same "inject -o the input: the input is intact" a.data a.copy
expect "inject -o ./the input: refused" 1 "is the input file" \
	"$PMPROF" inject -i a.data -o ./a.data
ln -s a.data link.data
expect "inject -o a symlink to the input: refused" 1 "is the input file" \
	"$PMPROF" inject -i a.data -o link.data
ln a.data hard.data
expect "inject -o a hard link of the input: refused (device and inode)" 1 "is the input file" \
	"$PMPROF" inject -i hard.data -o a.data
"$PMPROF" inject --pipe -i a.data -o p.data
cp p.data p.copy
expect "inject < FILE -o FILE: refused" 1 "is the input file \(standard input\)" \
	sh -c '"$1" inject -o p.data < p.data' sh "$PMPROF"
same "inject < FILE -o FILE: the input is intact" p.data p.copy
same "the input is intact after every refusal" a.data a.copy

# ---- 1, 4: a failure leaves the old output as it was ----
head -c 300 a.data > cut.data
echo "an old file" > keep.data
cp keep.data keep.copy
expect "inject of a cut input fails" 2 "cut.data: offset" \
	"$PMPROF" inject -i cut.data -o keep.data
same "a failed inject leaves the existing output unchanged" keep.data keep.copy
check_eq "a failed inject leaves no partial file" "" "$(ls -A | grep '\.partial$')"

# ---- 23: errors name the input, with its offset, not the output ----
# A pipe stream ending in a record of unknown type 99: its layout cannot
# be byte-swapped, a fault of the input.
cp p.data odd.data
printf '\143\000\000\000\000\000\010\000' >> odd.data
off=$(($(stat -c %s p.data)))
expect "an input record inject cannot write: the input and its offset named" 2 \
	"^pmprof: odd.data: offset $off: .*type 99" \
	"$PMPROF" inject --byte-order big -i odd.data -o odd-out.data
[ ! -e odd-out.data ] && ok "... and no output left" || not_ok "... and no output left"
if have_perf && perf record -q -e cpu-clock -o perf.data -- true 2>/dev/null; then
	"$PMPROF" inject --byte-order big -i perf.data -o big.data 2>warn.txt
	n=$(grep -c 'dropping feature' warn.txt)
	m=$(grep -c '^pmprof: perf.data: dropping feature' warn.txt)
	if [ "$n" -gt 0 ] && [ "$n" = "$m" ]; then
		ok "inject's warnings name the input ($n features dropped)"
	else
		not_ok "inject's warnings name the input: $m of $n"
		sed 's/^/# /' warn.txt | head -3
	fi
else
	skip "inject warnings" "perf cannot record here"
fi

# ---- 3: modes ----
"$PMPROF" inject -i a.data -o new.data
sim --iterations 200 -o s.data --truth s.json --elf s.elf
modes=$(stat -c %a new.data s.data s.json s.elf | tr '\n' ' ')
check_eq "new files of inject and sim (data, truth, ELF) are 0600 under umask 022" \
	"600 600 600 600 " "$modes"
cp a.data shared.data
chmod 640 shared.data
"$PMPROF" inject -i a.data -o shared.data
check_eq "a replaced file keeps its mode (640)" 640 "$(stat -c %a shared.data)"

# ---- symlinks and devices ----
echo target > target.data
ln -s target.data out-link.data
"$PMPROF" inject -i a.data -o out-link.data
if [ -L out-link.data ] && [ "$(readlink out-link.data)" = target.data ] &&
   "$PMPROF" info -i target.data >/dev/null 2>&1; then
	ok "-o a symlink: the link stays, its target is replaced"
else
	not_ok "-o a symlink: the link stays, its target is replaced"
fi
check "inject -o /dev/null writes in place" "$PMPROF" inject -i a.data -o /dev/null
[ -c /dev/null ] && ok "/dev/null is still a device" || not_ok "/dev/null is still a device"

# ---- 21: sim's ELF path (in a directory of its own: no ELF of before) ----
mkdir elf && cd elf || exit 1
had_dev_resonant=0
[ -e /dev/resonant ] && had_dev_resonant=1
expect "sim -o /dev/full: no space, the device named" 2 "^pmprof: /dev/full: write failed: No space left on device" \
	sim --iterations 2000 -o /dev/full
if [ $had_dev_resonant = 0 ] && [ -e /dev/resonant ]; then
	not_ok "sim -o /dev/full writes no /dev/resonant"
	rm -f /dev/resonant	# main's behaviour: do not leave it
else
	ok "sim -o /dev/full writes no /dev/resonant"
fi
[ ! -e resonant ] && ok "sim -o /dev/full: its ELF (in the current directory) is not left either" ||
	not_ok "sim -o /dev/full: its ELF (in the current directory) is not left either"
mkdir sub
sim --iterations 200 -o sub/x.data
[ -f sub/resonant ] && ok "the ELF goes beside a regular output (sub/resonant)" ||
	not_ok "the ELF goes beside a regular output (sub/resonant)"
expect "a model named like the output: the collision refused" 1 "the output \(resonant\) and the ELF .*resonant, named after the model\) are the same file" \
	sim --iterations 200 -o resonant
[ ! -e resonant ] && ok "... and nothing written" || not_ok "... and nothing written"
expect "--elf at the output (another spelling): refused" 1 "are the same file" \
	sim --iterations 200 -o c.data --elf ./c.data
expect "--truth at the output: refused" 1 "the output \(c.data\) and the truth \(c.data\) are the same file" \
	sim --iterations 200 -o c.data --truth c.data
[ ! -e c.data ] && ok "... and no c.data written" || not_ok "... and no c.data written"
cp "$TOP/models/arm-benchmark.json" model.json
cp model.json model.copy
expect "an output over the model's file: refused" 1 "and the model \(model.json\) are the same file" \
	"$PMPROF" sim -q model.json -e "$SPEC" --iterations 10 -o m.data --truth model.json
same "... the model is intact" model.json model.copy
cd "$TMP" || exit 1

# ---- 4: a full disk ----
tiny_tmpfs "$TMP/full" || exit 0
sim --iterations 40000 -o big.data --elf big.elf
[ "$(stat -c %s big.data)" -gt 100000 ] || not_ok "big.data is bigger than the tmpfs"
echo "old bytes" > full/keep.data
cp full/keep.data keep2.copy
expect "inject to a full disk: the output named, exit 2" 2 "^pmprof: full/new.data: write failed: No space left on device" \
	"$PMPROF" inject -i big.data -o full/new.data
expect "inject over a file on a full disk: exit 2" 2 "^pmprof: full/keep.data: write failed: No space left on device" \
	"$PMPROF" inject -i big.data -o full/keep.data
same "... the old file is unchanged" full/keep.data keep2.copy
expect "sim to a full disk: the output named, exit 2" 2 "^pmprof: full/s.data: write failed: No space left on device" \
	sim --iterations 40000 -o full/s.data --truth full/s.json
nothing_but "a full disk keeps no partial, ELF or truth file" full keep.data
