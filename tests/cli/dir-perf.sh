#!/usr/bin/env bash
# perf's directory format against perf itself: `perf record --threads`
# writes DIR/data (the header and the synthesized records) and a data.N
# file per recording thread. Every reading command reads the directory as
# one recording, its records merged in perf's time order:
#   - report equals perf report, on plain, call-graph and compressed (-z)
#     recordings; dump gives the records in the very order perf report -D
#     delivers them;
#   - inject writes the directory as one file that perf reads the same
#     (perf script and perf report of both are identical);
#   - info, metrics and dump agree between the directory and that file;
#   - decoding in any number of threads gives byte-identical output;
#   - a cut data file, a lone DIR/data and a directory without data files
#     are refused with exit 2, naming the file inside the directory.
# The workload runs pinned to CPUs 0 and 1 at once, so that both per-CPU
# data files hold samples.
. "$(dirname "$0")/../lib.sh"

have_perf || { skip dir-perf "perf cannot record here"; exit 0; }
[ "$(nproc)" -ge 2 ] || { skip dir-perf "needs 2 CPUs for two per-CPU data files"; exit 0; }
command -v taskset >/dev/null || { skip dir-perf "needs taskset (util-linux)"; exit 0; }
perf record -q --threads -e cpu-clock -o "$TMP/probe.dir" true >/dev/null 2>&1 ||
	{ skip dir-perf "this perf has no record --threads"; exit 0; }
cd "$TMP" || exit 1
cmp_dump="$TOP/tests/tools/compare_perf_dump.py"
W="$TOP/$BUILD/bench/workload"
work="taskset -c 0 '$W' -n 1500 & taskset -c 1 '$W' -n 1500 -f; wait"

rec() {	# rec NAME perf-record-args... (the workload: $work)
	local name=$1; shift
	rm -rf "$name"
	perf record -q -o "$name" "$@" -- sh -c "$work" >/dev/null 2>"$name.err" ||
		{ not_ok "$name: perf record failed: $(tail -1 "$name.err")"; return 1; }
}

# in_order NAME PATH: pmprof dump's records, in order, equal perf report -D's
in_order() {
	perf report -D -i "$2" >"$1.D" 2>/dev/null || { not_ok "$1: perf report -D failed"; return; }
	"$PMPROF" dump --format json -i "$2" >"$1.json" ||
		{ not_ok "$1: pmprof dump failed"; return; }
	check "$1: dump gives perf report -D's records in its order" \
		python3 "$cmp_dump" --in-order "$1.D" "$1.json"
}

# ---- a plain recording --------------------------------------------------
if rec plain --threads -e cpu-clock; then
	n=0
	for f in plain/data.*; do [ -s "$f" ] && n=$((n + 1)); done
	if [ "$n" -ge 2 ]; then ok "plain: $n data files hold records"; else not_ok "plain: only $n data file with records"; fi
	rows_as_perf plain plain
	in_order plain plain
	# merged, not concatenated: the dump switches between files
	sw=$("$PMPROF" dump -i plain | sed -n 's/^0x[0-9a-f]*@\([^ ]*\) .*/\1/p; s/^0@\([^ ]*\) .*/\1/p' | uniq | wc -l)
	if [ "$sw" -gt 3 ]; then ok "plain: records of the files interleave ($sw runs)"; else not_ok "plain: $sw runs of one file"; fi

	# info: the parts as ls sees them, the version as perf reads it
	"$PMPROF" info --format json -i plain >info.json
	want=$(cd plain && for f in data $(ls | grep '^data\.[0-9]*$' | sort -t. -k2 -n); do
		printf '%s %s\n' "$f" "$(stat -c %s "$f")"; done)
	got=$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
assert d["mode"] == "directory"
for p in d["parts"]: print(p["file"], p["size"])' info.json)
	check_eq "info: the parts and their sizes" "$want" "$got"
	want=$(perf report -i plain --header-only 2>/dev/null | sed -n 's/^# directory data version : //p')
	got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["dir_format_version"])' info.json)
	check_eq "info: directory version as perf reads it" "$want" "$got"
	"$PMPROF" report -i plain --sort comm --format csv | awk -F, 'NR > 1 {print $4, $2, $3}' | sort >comm.pm
	perf report -i plain --stdio -q --sort comm -F overhead,sample,period,comm -g none 2>/dev/null |
		awk 'NF {print $NF, $2, $3}' | sort >comm.perf
	check_files_eq "plain: --sort comm equals perf" comm.perf comm.pm

	# inject: one file, which perf reads as it reads the directory
	if "$PMPROF" inject -i plain -o plain.data 2>inj.err; then
		perf script -i plain >s.dir 2>/dev/null
		perf script -i plain.data >s.file 2>/dev/null
		[ -s s.dir ] && check_files_eq "inject: perf script of the file equals the directory's" s.dir s.file ||
			not_ok "inject: perf script printed nothing"
		perf report -i plain --stdio -q -g none >r.dir 2>/dev/null
		perf report -i plain.data --stdio -q -g none >r.file 2>/dev/null
		check_files_eq "inject: perf report of the file equals the directory's" r.dir r.file
		"$PMPROF" report -i plain.data --format csv >plain-file.csv
		check_files_eq "inject: pmprof report of the file equals the directory's" plain.csv plain-file.csv
		if "$PMPROF" info -i plain.data | grep -q 'DIR_FORMAT'; then
			not_ok "inject: the file still says DIR_FORMAT"
		else
			ok "inject: the file has no DIR_FORMAT"
		fi
		# the records, less their offsets and files
		"$PMPROF" dump -i plain | sed 's/^[^ ]* //' | grep -v -E '^\[0x[0-9a-f]*\] (ATTR|FEATURE)' >d.dir
		"$PMPROF" dump -i plain.data | sed 's/^[^ ]* //' >d.file
		check_files_eq "inject: the file's records are the directory's, in order" d.dir d.file
	else
		not_ok "inject: $(head -1 inj.err)"
	fi

	# any number of decoder threads: the same bytes out
	for t in 0 1 2 8; do
		PMPROF_DECODE_THREADS=$t "$PMPROF" dump --format json -i plain >"dump.$t"
		PMPROF_DECODE_THREADS=$t "$PMPROF" report -i plain --format csv >"report.$t"
		PMPROF_DECODE_THREADS=$t "$PMPROF" inject -i plain -o "inject.$t"
	done
	for f in dump.0 report.0 inject.0; do
		[ -s "$f" ] || not_ok "no decoder threads: $f is empty"
	done
	for t in 1 2 8; do
		check_files_eq "$t decoder threads: dump as with none" dump.0 "dump.$t"
		check_files_eq "$t decoder threads: report as with none" report.0 "report.$t"
		check_files_eq "$t decoder threads: inject as with none" inject.0 "inject.$t"
	done

	# never over a file of the input directory (its data files are mapped)
	cp plain/data keep.data
	"$PMPROF" inject -i plain -o plain/data >/dev/null 2>over.err
	rc=$?
	if [ "$rc" = 1 ] && cmp -s keep.data plain/data; then
		ok "inject: refuses to write over the directory's DIR/data ($(head -1 over.err))"
	else
		not_ok "inject -o plain/data: exit $rc, DIR/data $(cmp -s keep.data plain/data && echo kept || echo changed)"
	fi

	# hostile and broken directories
	cp -r plain cut
	f=$(for f in cut/data.*; do [ -s "$f" ] && echo "$f"; done | tail -1)
	size=$(stat -c %s "$f")
	truncate -s $((size - 3)) "$f"
	"$PMPROF" report -i cut >/dev/null 2>cut.err
	rc=$?
	msg=$(head -1 cut.err)
	name=${f#cut/}
	off=$(sed -n "s|^pmprof: cut/$name: offset \([0-9]*\): .*|\1|p" cut.err)
	if [ "$rc" = 2 ] && [ -n "$off" ] && [ "$off" -lt "$size" ]; then
		ok "cut $name: refused, naming it and an offset in it ($msg)"
	else
		not_ok "cut $name: exit $rc, message: $msg"
	fi
	cp plain/data lone.data
	"$PMPROF" report -i lone.data >/dev/null 2>lone.err
	rc=$?
	if [ "$rc" = 2 ] && grep -q 'directory' lone.err; then ok "DIR/data alone: refused ($(head -1 lone.err))"; else not_ok "DIR/data alone: exit $rc: $(head -1 lone.err)"; fi
	mkdir nodata && cp plain/data nodata/
	"$PMPROF" info -i nodata >/dev/null 2>nodata.err
	rc=$?
	if [ "$rc" = 2 ] && grep -q 'nodata/data: .*data.N' nodata.err; then ok "no data files: refused ($(head -1 nodata.err))"; else not_ok "no data files: exit $rc: $(head -1 nodata.err)"; fi
fi

# ---- a directory without DIR_FORMAT (perf record --kcore): DIR/data -----
if perf record -q -e cpu-clock -o one.data -- sh -c "$work" >/dev/null 2>&1; then
	mkdir kcore && cp one.data kcore/data
	rows_as_perf kcore kcore
	"$PMPROF" report -i one.data --format csv >one.csv
	check_files_eq "kcore-style directory: report as of its DIR/data" one.csv kcore.csv
	# the header facts pmprof reads from a directory are a file's
	"$PMPROF" info --format json -i plain >a.json 2>/dev/null &&
	"$PMPROF" info --format json -i one.data >b.json &&
	check "directory and file: the same event attrs" python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
strip = lambda d: [e["attr"] for e in d["events"]]
assert strip(a) == strip(b), (strip(a), strip(b))' a.json b.json
fi

# ---- call graphs, compression --------------------------------------------
rec graph --threads -e cpu-clock -g && rows_as_perf graph graph && in_order graph graph
if rec zstd --threads -z -e cpu-clock; then
	if "$PMPROF" dump -i zstd | grep -q ' COMPRESSED '; then
		ok "zstd: records are compressed"
	else
		not_ok "zstd: no COMPRESSED record"
	fi
	rows_as_perf zstd zstd
	in_order zstd zstd
	PMPROF_DECODE_THREADS=0 "$PMPROF" dump --format json -i zstd >z.0
	PMPROF_DECODE_THREADS=2 "$PMPROF" dump --format json -i zstd >z.2
	[ -s z.0 ] || not_ok "zstd: the dump is empty"
	check_files_eq "zstd: 2 decoder threads dump as none" z.0 z.2
fi

# ---- metrics on a group recording ------------------------------------------
# The workload itself, two threads, not under sh: pmprof metrics finds
# few windows in the counters a forked child inherits (a file recording
# of sh -c shows the same).
if perf record -q --threads -e '{cpu-clock,task-clock}:S' -c 200000 -o group \
	-- "$W" -t 2 -n 1500 >/dev/null 2>group.err; then
	"$PMPROF" metrics -i group --format csv >m.dir 2>m.err ||
		not_ok "metrics: $(head -1 m.err)"
	"$PMPROF" inject -i group -o group.data &&
		"$PMPROF" metrics -i group.data --format csv >m.file 2>/dev/null
	check_files_eq "metrics: the directory equals its injected file" m.dir m.file
	if grep -q 'int_divider_stalls' m.dir; then ok "metrics: the workload's functions"; else not_ok "metrics: no workload function in $(head -3 m.dir)"; fi
	PMPROF_DECODE_THREADS=2 "$PMPROF" metrics -i group --format csv >m.t2 2>/dev/null
	[ -s m.dir ] || not_ok "metrics: no output"
	check_files_eq "metrics: 2 decoder threads as none" m.dir m.t2
else
	not_ok "group: perf record failed: $(tail -1 group.err)"
fi
