#!/usr/bin/env bash
# perf 6.1 as the oracle for files pmprof writes. test-writer's
# test_oracle_files writes them (PMPROF_WRITER_OUT) together with an ELF
# "prog" whose symbols the samples hit and expected.txt (time, period, ip,
# symbol per sample, computed by the test):
#   - native and big-endian files, attr sizes 64..128, with and without
#     callchains, and a pipe stream: `perf report --header-only`,
#     `perf report -D` and `perf script` read them without a word on
#     stderr, and show the expected samples, as `pmprof dump` does;
#   - CPU_PMU_CAPS and PMU_CAPS (caps of the "cpu" PMU and of another)
#     read by perf as the test wrote them;
#   - 144-byte attrs (hf_sample): perf 6.1 refuses them, pmprof reads
#     them and `pmprof info` shows hf_sample_period and hf_sample_rand.
. "$(dirname "$0")/../lib.sh"

if ! command -v perf >/dev/null 2>&1; then
	skip writer-perf "no perf"
	exit 0
fi
cd "$TMP" || exit 1
if ! PMPROF_WRITER_OUT=$TMP "$TOP/$BUILD/tests/unit/test-writer" >gen.log 2>&1; then
	not_ok writer-perf-generate
	tail -20 gen.log | sed 's/^/# /'
	exit 0
fi
ok writer-perf-generate

perf_in() {	# FILE perf-args...: a pipe stream goes through stdin
	local f=$1; shift
	case "$f" in
	*pipe*) perf "$@" -i - <"$f" ;;
	*) perf "$@" -i "$f" ;;
	esac
}

quiet() {	# NAME FILE: ok if FILE (stderr) is empty
	if [ -s "$2" ]; then
		not_ok "$1"; head -5 "$2" | sed 's/^/# /'
	else
		ok "$1"
	fi
}

for f in le.data be.data le-cc.data be-cc.data le-64.data be-96.data le-pipe.data; do
	n=${f%.data}
	if perf_in "$f" report --header-only >"$n.hdr" 2>"$n.hdr.err"; then
		ok "writer-perf-$n-header"
	else
		not_ok "writer-perf-$n-header"
	fi
	quiet "writer-perf-$n-header-quiet" "$n.hdr.err"
	case $n in pipe*|*pipe) ;; *)
		check "writer-perf-$n-header-arch" grep -q '^# arch : x86_64' "$n.hdr"
		# the PMU capabilities the test wrote, as perf decodes them
		check "writer-perf-$n-header-cpu-caps" \
			grep -qx '# cpu pmu capabilities: max_precise=3, branches=32' "$n.hdr"
		check "writer-perf-$n-header-pmu-caps" \
			grep -qx '# armv8_pmuv3_0 pmu capabilities: slots=0x00000005' "$n.hdr" ;;
	esac

	perf_in "$f" report -D >"$n.D" 2>"$n.D.err"
	quiet "writer-perf-$n-D-quiet" "$n.D.err"
	check_eq "writer-perf-$n-D-samples" 6 "$(grep -c 'PERF_RECORD_SAMPLE' "$n.D")"

	perf_in "$f" script -F time,period,ip,sym --ns >"$n.script" 2>"$n.script.err"
	quiet "writer-perf-$n-script-quiet" "$n.script.err"
	if [ "${n%-cc}" = "$n" ]; then
		# "1.000000000:  250000  401010 main" -> expected.txt's form
		awk '{ sub(":", "", $1); print $1, $2, $3, $4 }' "$n.script" >"$n.got"
		check_files_eq "writer-perf-$n-script-samples" expected.txt "$n.got"
	else
		# with callchains: the sample line, then the frames
		check_eq "writer-perf-$n-script-callchain" 12 \
			"$(grep -c -E '^[[:space:]]+[0-9a-f]+ (main|work|spin)$' "$n.script")"
	fi

	# pmprof dump shows the same samples as perf script
	"$PMPROF" dump -i "$f" | grep ' SAMPLE ' |
		sed -E 's/.* ip=0x([0-9a-f]+) .* period=([0-9]+).*/\2 \1/' >"$n.dump"
	awk '{ print $2, $3 }' expected.txt >"$n.want"
	check_files_eq "writer-perf-$n-pmprof-dump" "$n.want" "$n.dump"
done

for f in le-144.data be-144.data; do
	n=${f%.data}
	if perf report --header-only -i "$f" >/dev/null 2>"$n.err"; then
		not_ok "writer-perf-$n-refused-by-perf"
	else
		ok "writer-perf-$n-refused-by-perf"
	fi
	"$PMPROF" info -i "$f" >"$n.info" 2>&1
	check "writer-perf-$n-info-size" grep -q 'size = 144' "$n.info"
	check "writer-perf-$n-info-hf" grep -q 'hf_sample_period = 100, hf_sample_rand = 3' "$n.info"
	check_eq "writer-perf-$n-dump-samples" 6 "$("$PMPROF" dump -i "$f" | grep -c ' SAMPLE ')"
done
