#!/usr/bin/env bash
# The build-id cache: record copies the binaries its samples hit into
# $HOME/.debug in perf's layout; after the program is rebuilt, pmprof
# report (and perf report) still resolve the old recording's symbols from
# the cache. -N leaves the cache alone; --buildid-dir moves it.
. "$(dirname "$0")/../lib.sh"

if ! have_perf; then
	skip record-buildid "perf cannot record here"
	exit 0
fi
command -v gcc >/dev/null 2>&1 || { skip record-buildid "no gcc"; exit 0; }
cd "$TMP" || exit 1

# two functions that take the time, renamed by the rebuild below
cat >prog.c <<'C'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin_alpha(long n) { for (long i = 0; i < n; i++) sink += i * 3; }
__attribute__((noinline)) void spin_beta(long n) { for (long i = 0; i < n; i++) sink ^= i; }
int main(int argc, char **argv) { long n = argc > 1 ? atol(argv[1]) : 30000000; spin_alpha(n); spin_beta(n); return 0; }
C
gcc -O1 -o prog prog.c || { not_ok "record-buildid: gcc"; exit 0; }
bid=$(readelf -n prog | awk '/Build ID/ { print $3 }')
"$PMPROF" record -q -e cpu-clock -c 200000 -o old.data -- ./prog
check_eq "record: exit 0" 0 $?

# the layout perf uses: DIR/PATH/HEX/elf and .build-id/HE/X -> ../../PATH/HEX
entry="$HOME/.debug$TMP/prog/$bid"
link="$HOME/.debug/.build-id/${bid:0:2}/${bid:2}"
if cmp -s prog "$entry/elf"; then ok "cache: $entry/elf is a copy of the program"
else not_ok "cache: $entry/elf is a copy of the program"; find "$HOME" | sed 's/^/# /' | head; fi
check_eq "cache: the .build-id link" "../..$TMP/prog/$bid" "$(readlink "$link")"
if [ -f "$link/elf" ]; then ok "cache: the link leads to the elf"; else not_ok "cache: the link leads to the elf"; fi
kbid=$("$PMPROF" info -i old.data 2>/dev/null | awk '/build id/ && /kernel.kallsyms/ { print $5 }')
if [ -n "$kbid" ]; then
	if [ -s "$HOME/.debug/[kernel.kallsyms]/$kbid/kallsyms" ]; then ok "cache: the kernel's kallsyms"
	else not_ok "cache: the kernel's kallsyms ($kbid)"; fi
fi

# symbols as recorded, before the rebuild (the reference for after)
"$PMPROF" report -i old.data --format csv --sort sym >before.csv 2>/dev/null
grep -q spin_alpha before.csv && grep -q spin_beta before.csv ||
	not_ok "report before the rebuild names spin_alpha and spin_beta"

# rebuild in place: other names, other code, another build id
sed -i 's/spin_alpha/other_one/; s/spin_beta/other_two/' prog.c
echo 'void padding(void) {}' >>prog.c
gcc -O0 -o prog prog.c
newbid=$(readelf -n prog | awk '/Build ID/ { print $3 }')
[ "$newbid" != "$bid" ] || not_ok "the rebuild changed the build id"

"$PMPROF" report -i old.data --format csv --sort sym >after.csv 2>/dev/null
check_files_eq "report after the rebuild: the same rows, from the cache" before.csv after.csv
# perf reads pmprof's cache too
if perf report -i old.data --stdio --sort sym 2>/dev/null | grep -q spin_alpha; then
	ok "perf report resolves the old recording from pmprof's cache"
else not_ok "perf report resolves the old recording from pmprof's cache"; fi
# without the cache: the rebuilt file's build id differs, no symbols
HOME="$TMP/empty" "$PMPROF" report -i old.data --format csv --sort sym >nocache.csv 2>/dev/null
if grep -q spin_alpha nocache.csv; then not_ok "without the cache the symbols are gone"
else ok "without the cache the symbols are gone (the cache is what resolved them)"; fi

# -N: nothing cached; --buildid-dir: a cache elsewhere, read back from there
gcc -O1 -o prog2 prog.c
bid2=$(readelf -n prog2 | awk '/Build ID/ { print $3 }')
"$PMPROF" record -q -N -e cpu-clock -c 200000 -o n.data -- ./prog2
if [ -e "$HOME/.debug/.build-id/${bid2:0:2}/${bid2:2}" ]; then not_ok "-N: nothing cached"
else ok "-N: nothing cached"; fi
"$PMPROF" record -q --buildid-dir "$TMP/cache2" -e '{cpu-clock,page-faults}:S' -c 200000 -o d.data -- ./prog2
check_eq "--buildid-dir: the entry is there" "../..$TMP/prog2/$bid2" \
	"$(readlink "$TMP/cache2/.build-id/${bid2:0:2}/${bid2:2}")"
"$PMPROF" report -i d.data --format csv --sort sym >d-before.csv 2>/dev/null
rm prog2
"$PMPROF" report -i d.data --buildid-dir "$TMP/cache2" --format csv --sort sym >d-after.csv 2>/dev/null
if grep -q other_one d-after.csv && cmp -s d-before.csv d-after.csv; then
	ok "report --buildid-dir: symbols of a deleted binary"
else not_ok "report --buildid-dir: symbols of a deleted binary"; diff d-before.csv d-after.csv | head -5 | sed 's/^/# /'; fi
# metrics and mem read through the same session: the deleted binary's
# symbols there too
if "$PMPROF" metrics -i d.data --buildid-dir "$TMP/cache2" --format csv 2>/dev/null | grep -q other_one; then
	ok "metrics --buildid-dir resolves from the cache"
else not_ok "metrics --buildid-dir resolves from the cache"; fi

# a cache that cannot be written only warns; the recording is complete
mkdir ro && touch ro/.debug && chmod 500 ro
out=$(HOME="$TMP/ro" "$PMPROF" record -e cpu-clock -c 200000 -o ro.data -- ./prog 2>&1); rc=$?
check_eq "record with an unwritable cache exits 0" 0 "$rc"
case "$out" in *"build-id cache"*) ok "record says the cache could not be filled" ;;
*) not_ok "record says the cache could not be filled: $out" ;; esac

# The vdso is cached as perf caches it ([vdso]/HEX/vdso, the image's
# bytes): a report made elsewhere, perf's included, resolves its symbols
# from there. The program spends its time in the vdso's clock_gettime.
cat >vd.c <<'C'
#include <time.h>
int main(void) { struct timespec t; long s = 0; for (long i = 0; i < 3000000; i++) { clock_gettime(CLOCK_MONOTONIC, &t); s += t.tv_nsec; } return (int)(s & 1); }
C
gcc -O1 -o vd vd.c || { not_ok "record-buildid: gcc vd.c"; exit 0; }
mkdir -p vh-pmprof vh-perf vh-empty
HOME="$TMP/vh-pmprof" "$PMPROF" record -q -e cpu-clock -c 100000 -o vd.data -- ./vd
HOME="$TMP/vh-perf" perf record -q -e cpu-clock -c 100000 -o vd-perf.data -- ./vd 2>/dev/null
perf_vdso=$(HOME="$TMP/vh-perf" perf buildid-list -i vd-perf.data 2>/dev/null | awk '$2 == "[vdso]" { print $1 }')
if [ -z "$perf_vdso" ]; then
	skip "vdso: cached" "perf's own recording hit no [vdso] (the clock falls back to a system call here)"
else
	ours=$(HOME="$TMP/vh-pmprof" perf buildid-list -i vd.data 2>/dev/null | awk '$2 == "[vdso]" { print $1 }')
	check_eq "vdso: BUILD_ID names [vdso] with perf's build id" "$perf_vdso" "$ours"
	if cmp -s "vh-pmprof/.debug/[vdso]/$perf_vdso/vdso" "vh-perf/.debug/[vdso]/$perf_vdso/vdso"; then
		ok "vdso: the cached image is perf's, byte for byte"
	else not_ok "vdso: the cached image is perf's, byte for byte"; find vh-pmprof/.debug | sed 's/^/# /' | head; fi
	check_eq "vdso: the .build-id link" "../../[vdso]/$perf_vdso" \
		"$(readlink "vh-pmprof/.debug/.build-id/${perf_vdso:0:2}/${perf_vdso:2}")"
	HOME="$TMP/vh-pmprof" perf report -i vd.data --stdio -q --sort dso,sym 2>/dev/null >vd-cache.txt
	HOME="$TMP/vh-empty" perf report -i vd.data --stdio -q --sort dso,sym 2>/dev/null >vd-nocache.txt
	if grep -q '\[vdso\] .*clock_gettime' vd-cache.txt && ! grep -q '\[vdso\] .*clock_gettime' vd-nocache.txt; then
		ok "vdso: perf report names the vdso's functions from pmprof's cache, and not without it"
	else not_ok "vdso: perf report names the vdso's functions from pmprof's cache"; head -5 vd-cache.txt vd-nocache.txt | sed 's/^/# /'; fi
	# pmprof reads perf's entries: with only perf's cache, a report that
	# cannot use this process's image (the recording's id is kept) still
	# names the function
	if HOME="$TMP/vh-perf" "$PMPROF" report -i vd-perf.data --sort dso,sym --format csv 2>/dev/null |
		grep -q 'vdso.*clock_gettime'; then
		ok "vdso: pmprof report on perf's recording names the vdso's functions"
	else not_ok "vdso: pmprof report on perf's recording names the vdso's functions"; fi
fi
