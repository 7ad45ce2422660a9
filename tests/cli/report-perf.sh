#!/usr/bin/env bash
# pmprof report against perf report: record with the real perf on this
# machine, then both tools report the same file by (dso, symbol); every
# row must have the same samples and period, exactly.
. "$(dirname "$0")/../lib.sh"

have_perf || { skip report-perf "perf cannot record here"; exit 0; }
command -v gcc >/dev/null || { skip report-perf "no gcc"; exit 0; }
cmp_tool="$TOP/tests/tools/compare_report.py"
src="$TOP/tests/programs/report-prog.c"
prog="$TMP/report-prog"
child="$TMP/report-child"
gcc -O2 -g -fno-omit-frame-pointer -fPIE -pie -o "$prog" "$src" -lpthread &&
	cp "$prog" "$child" || { not_ok "report-perf: cannot build $src"; exit 0; }

rec() {	# rec NAME perf-record-args...
	local name=$1; shift
	perf record -q -o "$TMP/$name.data" "$@" >/dev/null 2>"$TMP/$name.err" ||
		{ not_ok "$name: perf record failed: $(tail -1 "$TMP/$name.err")"; return 1; }
}

# compare NAME [options]: same rows as perf report --sort dso,sym (lib.sh)
compare() { local name=$1; shift; rows_as_perf "$name" "$TMP/$name.data" "$@"; }

# compare_syswide: in the system-wide recording, the rows of the program
# this test ran (its binary, libc, ld.so, the kernel, as the one command
# report-prog) must be perf's exactly. The other programs are whatever
# else runs on the machine: their files change under the tools (a build
# relinks a binary, a test removes its program) and what they exercise
# changes from run to run, so they are compared for the log only.
compare_syswide() {
	local f="$TMP/syswide.data" out
	perf report -i "$f" --stdio -q --sort comm,dso,sym -t '|' \
		-F overhead,sample,period,comm,dso,sym --percent-limit 0 -g none --no-children \
		>"$TMP/syswide.perf" 2>/dev/null ||
		{ not_ok "syswide: perf report failed"; return; }
	"$PMPROF" report -i "$f" --sort comm,dso,sym --format csv >"$TMP/syswide.csv" \
		2>"$TMP/syswide.pmerr" ||
		{ not_ok "syswide: pmprof report failed: $(tail -1 "$TMP/syswide.pmerr")"; return; }
	check "syswide: report-prog's rows equal perf report" \
		python3 "$cmp_tool" "$TMP/syswide.perf" "$TMP/syswide.csv" --comm report-prog
	perf_rows "$f" "$TMP/syswide-all.perf"
	"$PMPROF" report -i "$f" --format csv >"$TMP/syswide-all.csv" 2>/dev/null
	if ! out=$(python3 "$cmp_tool" "$TMP/syswide-all.perf" "$TMP/syswide-all.csv"); then
		echo "# syswide, every program (not checked): $(printf '%s\n' "$out" | tail -1)"
		printf '%s\n' "$out" | head -6 | sed 's/^/#   /'
	fi
}

# has NAME PATTERN: a row of pmprof's text report matches (proves the
# workload's own symbols were resolved, not just agreed on).
has() {
	if "$PMPROF" report -i "$TMP/$1.data" | grep -q -- "$2"; then
		ok "$1: shows $2"
	else
		not_ok "$1: no row matching $2"
	fi
}

rec single -e cpu-clock -- "$prog" single && {
	compare single
	has single 'report-prog  *\[\.\] spin_alpha'
	has single 'libc.so.6  *\[\.\] '
}
rec threads -e cpu-clock -- "$prog" threads && {
	compare threads
	has threads 'spin_beta'
}
rec forkexec -e cpu-clock -- "$prog" forkexec "$child" && {
	compare forkexec
	has forkexec 'report-child  *\[\.\] spin_alpha'
	# the exec'd child is its own command
	if "$PMPROF" report -i "$TMP/forkexec.data" --sort comm,dso --format csv |
		grep -q '^[^,]*,[^,]*,[^,]*,report-child,report-child$'; then
		ok "forkexec: the child's samples carry its comm"
	else
		not_ok "forkexec: no report-child comm row"
	fi
}
rec callgraph -e cpu-clock -g -- "$prog" single && compare callgraph
# code in anonymous executable memory, without a perf map: perf's
# "[JIT] tid PID" rows (a JIT in another program broke the system-wide
# comparison below once)
"$prog" jit >/dev/null 2>&1
if [ $? = 77 ]; then
	skip jit "report-prog's jit mode needs x86-64"
else
	rec jit -e cpu-clock -- "$prog" jit && {
		compare jit
		has jit '\[JIT\] tid [0-9]*  *\[\.\] 0x'
	}
fi

if [ "$(id -u)" = 0 ] && [ "$(sed -n 1p /proc/kallsyms | cut -c1-16)" != 0000000000000000 ]; then
	rec kernel -e cpu-clock -- "$prog" syscalls && {
		compare kernel
		has kernel '\[kernel.kallsyms\]  *\[k\] [a-z_]'
	}
	# Other programs run too (C++ ones): perf demangles without
	# parameter lists, so compare the names as they are in the files.
	rec syswide -a -e cpu-clock -- "$prog" single && compare_syswide
	# --kallsyms FILE gives the same kernel symbols as /proc/kallsyms
	cp /proc/kallsyms "$TMP/kallsyms"
	"$PMPROF" report -i "$TMP/kernel.data" --format csv --kallsyms "$TMP/kallsyms" \
		>"$TMP/kernel-ks.csv" 2>/dev/null
	check "kernel: --kallsyms FILE equals perf report" \
		python3 "$cmp_tool" "$TMP/kernel.perf" "$TMP/kernel-ks.csv"
else
	skip "report-perf kernel" "needs root and readable kallsyms"
fi

# A C++ library that calls its own exported function through its PLT (as
# libapt-pkg's iterators do): perf names a sample in the stub after the
# callee, demangled, with "@plt" ("ns::It::operator++@plt"), never as the
# function itself. The recording's samples land in the stub by chance; so
# one sample is also moved into it (its IP patched to the stub's address
# in the library's mapping), and the file still gives perf's rows.
if command -v g++ >/dev/null; then
	cat >"$TMP/plt.cpp" <<'CPP'
namespace ns { struct It { unsigned long v; It &operator++(); }; }
ns::It &ns::It::operator++() { v = v * 3 + 1; return *this; }
extern "C" unsigned long run(long n) { ns::It it{1}; for (long i = 0; i < n; i++) ++it; return it.v; }
CPP
	printf 'extern "C" unsigned long run(long);\nint main() { return run(30000000L) == 42; }\n' \
		>"$TMP/plt-main.cpp"
	if g++ -O2 -fPIC -shared -o "$TMP/libpltdemo.so" "$TMP/plt.cpp" &&
	   g++ -O2 -o "$TMP/plt-main" "$TMP/plt-main.cpp" -L"$TMP" -lpltdemo -Wl,-rpath,"$TMP"; then
		if rec plt -e cpu-clock -c 100000 -- "$TMP/plt-main"; then
			compare plt
			stub=$(objdump -d --section=.plt "$TMP/libpltdemo.so" |
				sed -n 's/^\([0-9a-f]*\) <_ZN2ns2ItppEv@plt>:$/\1/p')
			perf report -D -i "$TMP/plt.data" >"$TMP/plt.D" 2>/dev/null
			python3 - "$TMP/plt.D" "$TMP/plt.data" "$TMP/pltmoved.data" "${stub:-x}" <<'PY'
import re, struct, sys
dump, src, dst, stub = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4], 16)
lib = sample = None
for line in open(dump, errors='replace'):
    m = re.search(r'PERF_RECORD_MMAP2 \d+/\d+: \[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+) .*\]: r-xp .*/libpltdemo\.so$', line)
    if m:
        lib = [int(x, 16) for x in m.groups()]
    m = re.search(r' (0x[0-9a-f]+) \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE\(IP, 0x2\): \d+/\d+: (0x[0-9a-f]+)', line)
    if m and lib and lib[0] <= int(m.group(2), 16) < lib[0] + lib[1]:
        sample = int(m.group(1), 16)
        break
assert lib and sample, 'no sample in the library'
b = bytearray(open(src, 'rb').read())
# sample_type IP|TID|TIME: the IP is the first field after the header;
# .plt's file offset is its address in this library
struct.pack_into('<Q', b, sample + 8, lib[0] + stub - lib[2])
open(dst, 'wb').write(bytes(b))
PY
			[ -s "$TMP/pltmoved.data" ] && compare pltmoved
			has pltmoved 'libpltdemo.so  *\[\.\] ns::It::operator++@plt'
		fi
	else
		not_ok "plt: cannot build the C++ library"
	fi
else
	skip "report-perf plt" "no g++ (build-essential)"
fi

# Sort keys, limits and formats on the single recording.
out=$("$PMPROF" report -i "$TMP/single.data" --top 3 --format csv | tail -n +2 | wc -l)
check_eq "--top 3 gives 3 rows" 3 "$out"
"$PMPROF" report -i "$TMP/single.data" --format json >"$TMP/single.json"
check "json: rows carry dso, symbol, samples, period, overhead" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["events"][0]
rows = ev["rows"]
assert rows and ev["event"] == "cpu-clock"
for r in rows:
    for k in ("dso", "symbol", "samples", "period", "overhead"):
        assert k in r, k
assert sum(r["samples"] for r in rows) == ev["samples"]
assert sum(r["period"] for r in rows) == ev["event_count"]
assert abs(sum(r["overhead"] for r in rows) - 100) < 0.01
assert any(r["symbol"] == "spin_alpha" for r in rows)
' "$TMP/single.json"
perf report -i "$TMP/single.data" --stdio -q --sort comm -F overhead,sample,period,comm \
	-g none 2>/dev/null | awk 'NF {print $NF, $2, $3}' | sort >"$TMP/comm.perf"
"$PMPROF" report -i "$TMP/single.data" --sort comm --format csv |
	awk -F, 'NR > 1 {print $4, $2, $3}' | sort >"$TMP/comm.pmprof"
check_files_eq "--sort comm equals perf" "$TMP/comm.perf" "$TMP/comm.pmprof"
perf report -i "$TMP/threads.data" --stdio -q --sort cpu -F overhead,sample,period,cpu \
	-g none 2>/dev/null | awk 'NF {print $4+0, $2, $3}' | sort >"$TMP/cpu.perf"
"$PMPROF" report -i "$TMP/threads.data" --sort cpu --format csv |
	awk -F, 'NR > 1 {print $4, $2, $3}' | sort >"$TMP/cpu.pmprof"
check_files_eq "--sort cpu equals perf" "$TMP/cpu.perf" "$TMP/cpu.pmprof"
out=$("$PMPROF" report -i "$TMP/single.data" --percent-limit 5 --format csv |
	awk -F, 'NR > 1 && $1 < 5' | wc -l)
check_eq "--percent-limit 5 hides rows below 5%" 0 "$out"
"$PMPROF" report -i "$TMP/single.data" --sort bogus >/dev/null 2>&1
check_eq "unknown sort key is a usage error" 1 "$?"

# --children: Children and Self shares of every row equal perf's; also
# with a stripped program, whose callers have no symbols (perf 6.1 rows a
# symbol-less chain entry by its absolute address, the samples' own rows
# by the relative one; libc without debug symbols does the same).
children() { children_as_perf "$1" "$TMP/$1.data"; }	# children NAME (lib.sh)
children callgraph
# (stripped at link time and without a build id, so that no tool finds
# the symbols of the program above in perf's build-id cache)
gcc -O2 -fno-omit-frame-pointer -fPIE -pie -s -Wl,--build-id=none \
	-o "$TMP/report-stripped" "$src" -lpthread &&
	rec stripped -e cpu-clock -g -- "$TMP/report-stripped" single && {
	children stripped
	if grep -Eq ' report-stripped +\[\.\] 0x0000[1-9a-f]' "$TMP/stripped.children.perf"; then
		ok "stripped: perf shows its callers by absolute address"
	else
		not_ok "stripped: no absolute-address caller rows (the case is not made)"
	fi
}
