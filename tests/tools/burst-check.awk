# Check the burst structure of a `pmprof dump` of a burst-mode recording.
#   awk -v N=1 -v S=10000 -f burst-check.awk DUMP
# For every counter instance (sampling id): each burst is an UNTHROTTLE,
# exactly N+1 SAMPLEs, then a THROTTLE (the first burst needs no
# UNTHROTTLE; the last may be cut short by the end of the recording and
# still gets its THROTTLE). Windows are the leader's read deltas between
# consecutive samples of a burst: N per burst. Prints one line
#   bursts B bad K short_bursts C windows W min A p50 M p95 Q max X within T
# where T counts windows within TOL (default S) of S; then "error: ..." lines.
function field(line, key,    i, n, parts) {
	n = split(line, parts, " ")
	for (i = 1; i <= n; i++)
		if (index(parts[i], key "=") == 1)
			return substr(parts[i], length(key) + 2)
	return ""
}
BEGIN { if (TOL == "") TOL = S; bursts = 0; bad = 0; nw = 0; shortb = 0 }
$3 == "UNTHROTTLE" {
	id = field($0, "id")
	if (id in open && open[id]) { bad++; errs[++ne] = "UNTHROTTLE inside a burst of id " id " at " $1 }
	open[id] = 1; seen[id] = 0; started[id] = 1
	next
}
$3 == "THROTTLE" {
	id = field($0, "id")
	if (seen[id] != N + 1) {
		if (seen[id] > 0 && seen[id] < N + 1) shortb++
		else { bad++; errs[++ne] = "burst of id " id " with " seen[id] " samples before " $1 }
	}
	bursts++
	open[id] = 0; seen[id] = 0
	next
}
$3 == "SAMPLE" {
	id = field($0, "id")
	if (id == "") next
	if (!(id in started)) { started[id] = 1; open[id] = 1; seen[id] = 0 }
	if (!open[id]) { bad++; errs[++ne] = "sample of id " id " outside a burst at " $1; next }
	r = field($0, "read")
	sub(/^\[/, "", r); split(r, v, /[:\/]/)
	val = v[2] + 0
	if (seen[id] > 0) {
		d = val - last[id]
		w[++nw] = d
		if (d >= S - TOL && d <= S + TOL) within++
	}
	last[id] = val
	seen[id]++
	if (seen[id] > N + 1) { bad++; errs[++ne] = "burst of id " id " longer than N+1 at " $1 }
	next
}
END {
	if (nw) {
		n = nw
		for (i = 1; i <= n; i++) s[i] = w[i]
		qs(s, 1, n)
		p95 = int(n * 0.95); if (p95 < 1) p95 = 1
		printf "bursts %d bad %d short_bursts %d windows %d min %d p50 %d p95 %d max %d within %d\n", bursts, bad, shortb, nw, s[1], s[int((n + 1) / 2)], s[p95], s[n], within
	} else
		printf "bursts %d bad %d short_bursts %d windows 0 min 0 p50 0 p95 0 max 0 within 0\n", bursts, bad, shortb
	for (i = 1; i <= ne && i <= 10; i++) print "error: " errs[i]
}
function qs(a, lo, hi,    i, last, t) {
	if (lo >= hi) return
	t = a[lo]; a[lo] = a[int((lo + hi) / 2)]; a[int((lo + hi) / 2)] = t
	last = lo
	for (i = lo + 1; i <= hi; i++)
		if (a[i] < a[lo]) { last++; t = a[last]; a[last] = a[i]; a[i] = t }
	t = a[lo]; a[lo] = a[last]; a[last] = t
	qs(a, lo, last - 1); qs(a, last + 1, hi)
}
