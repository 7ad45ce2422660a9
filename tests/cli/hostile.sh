#!/usr/bin/env bash
# Hostile recordings (tests/data/hostile/, made by
# tests/tools/make-hostile-data.py from the recordings of tests/data/):
# lengths that lie about attrs, id arrays and payloads. Every reading
# command refuses each with exit 2 and a message naming the file and the
# byte offset; inject leaves no output; and no command may allocate or
# write more than the file could justify: they run with 1 GB of address
# space and 16 MB of file size (the inject example of issue 13 item 18 took
# 6.6 GB of memory and wrote 6.7 GB from 84 KB).
. "$(dirname "$0")/../lib.sh"

H="$TOP/tests/data/hostile"
cd "$TMP" || exit 1

# A sanitizer build reserves terabytes of address space: no ulimit -v.
limit_vm=1
if nm -D "$PMPROF" 2>/dev/null | grep -q __asan_init ||
   nm "$PMPROF" 2>/dev/null | grep -q __asan_init; then
	limit_vm=0
	skip "hostile: address-space limit" "the AddressSanitizer build cannot run under ulimit -v"
fi

# bounded CMD...: run CMD with the limits; its status in $rc, stderr in err
bounded() {
	(
		[ "$limit_vm" = 1 ] && ulimit -v 1000000
		ulimit -f 32768	# 512-byte blocks: 16 MB
		exec "$@"
	) >out 2>err
	rc=$?
}

# refused NAME CMD...: exit 2, and a message "pmprof: ...: offset N: ..."
refused() {
	local name=$1; shift
	bounded "$@"
	if [ "$rc" -eq 2 ] && grep -q '^pmprof: .*: offset [0-9][0-9]*: ' err; then
		ok "$name: refused with an offset ($(head -1 err | sed 's/^pmprof: [^:]*: //'))"
	else
		not_ok "$name: exit $rc, want 2 and an offset"
		head -3 err out | sed 's/^/# /'
	fi
}

for f in attrs-offset0 attr-size-256m attr-slot-huge ids-overlap event-desc-attr; do
	in="$H/$f.data"
	refused "$f: info" "$PMPROF" info -i "$in"
	refused "$f: dump" "$PMPROF" dump -i "$in"
	refused "$f: report" "$PMPROF" report -i "$in"
	rm -f inj.data
	refused "$f: inject" "$PMPROF" inject -i "$in" -o inj.data
	if [ -e inj.data ]; then
		not_ok "$f: inject left $(stat -c %s inj.data) bytes in its output"
	else
		ok "$f: inject left no output"
	fi
	refused "$f: inject to a pipe stream" "$PMPROF" inject -i "$in" -o - --pipe
	check_eq "$f: nothing written to the pipe" 0 "$(stat -c %s out)"
done

# Pipe streams: the same rules reading from standard input.
for f in pipe-attr-8k pipe-tracing-4g; do
	in="$H/$f.data"
	refused "$f: dump -i -" sh -c 'exec "$1" dump -i - <"$2"' sh "$PMPROF" "$in"
	refused "$f: report -i -" sh -c 'exec "$1" report -i - <"$2"' sh "$PMPROF" "$in"
	rm -f inj.data
	refused "$f: inject" sh -c 'exec "$1" inject -i - -o inj.data <"$2"' sh "$PMPROF" "$in"
	[ -e inj.data ] && not_ok "$f: inject left an output" || ok "$f: inject left no output"
done
