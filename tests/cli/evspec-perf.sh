#!/usr/bin/env bash
# The event parser against perf 6.1: every corpus string perf accepts here
# must give the attrs `perf record -vv` prints; hf strings the hand-computed
# attrs; errors a message naming the term. See tests/data/evspec-corpus.txt.
. "$(dirname "$0")/../lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip evspec-perf "python3 not installed"
	exit 0
fi
python3 "$TOP/tests/tools/evspec-check.py" "$PMPROF" \
	"$TOP/tests/data/evspec-corpus.txt" "$TOP/tests/data/sysfs-alpha" "$TMP"

# The CLI around the parser.
out=$("$PMPROF" record -e cpu-clock 2>&1); rc=$?
check_eq "record without --dry-run exits 1" 1 "$rc"
case "$out" in *"not built yet"*) ok "record without --dry-run says why" ;;
*) not_ok "record without --dry-run says why: $out" ;; esac
out=$("$PMPROF" record -e 'cpu-clock/foo=1/' --dry-run 2>&1)
l1=$(printf '%s\n' "$out" | sed -n 1p); l2=$(printf '%s\n' "$out" | sed -n 2p)
pre=${l1%%foo=1*}; caret=${l2%%\\___*}
check_eq "error caret under the term" "${#pre}" "${#caret}"
case "$l2" in *"unknown term 'foo'"*) ok "error names the term" ;;
*) not_ok "error names the term: $l2" ;; esac
plan=$("$PMPROF" record -e 'cycles/period=1000000,hf-period=300/' --dry-run --plan 4 --format json |
	python3 -c 'import json,sys; print(" ".join("%s:%d" % (w["kind"], w["period"]) for w in json.load(sys.stdin)[0]["plan"]))')
check_eq "dry-run plan" "opening:999700 short:300 long:999700 short:300" "$plan"
