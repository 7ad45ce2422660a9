# Check the burst structure of a `pmprof dump` of a burst-mode recording.
#   awk -v N=1 -v S=10000 [-v P=1000000 -v CTOL=0] -f burst-check.awk DUMP
# For every counter instance (sampling id): each burst is an UNTHROTTLE,
# exactly N+1 SAMPLEs, then a THROTTLE (the first burst needs no
# UNTHROTTLE; the last may be cut short by the end of the recording and
# still gets its THROTTLE). Windows are the leader's read deltas between
# consecutive samples of a burst: N per burst. A cycle is the leader's
# count from the end of one complete burst to the end of the next (from
# 0, where counting starts, for the first): the total period P, long
# window and burst. Prints one line
#   bursts B bad K short_bursts C windows W min A p50 M p95 Q max X within T
#   cycles Y cmin E cmax F cwithin G count H expected I
# (one line, here folded) where T counts windows within TOL (default S)
# of S, G cycles within CTOL (default 0) of P, H sums each instance's
# last leader value (what it counted up to its last sample) and I the
# complete bursts that count asks for, floor(value / P) summed over the
# instances; then "error: ..." lines.
function field(line, key,    i, n, parts) {
	n = split(line, parts, " ")
	for (i = 1; i <= n; i++)
		if (index(parts[i], key "=") == 1)
			return substr(parts[i], length(key) + 2)
	return ""
}
BEGIN {
	if (TOL == "") TOL = S
	if (CTOL == "") CTOL = 0
	bursts = 0; bad = 0; nw = 0; shortb = 0; nc = 0; cwithin = 0
}
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
	} else {
		c = last[id] - end[id]
		cyc[++nc] = c
		if (c >= P - CTOL && c <= P + CTOL) cwithin++
		end[id] = last[id]
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
	count = 0; expected = 0; cmin = 0; cmax = 0
	for (id in last) { count += last[id]; if (P > 0) expected += int(last[id] / P) }
	for (i = 1; i <= nc; i++) {
		if (i == 1 || cyc[i] < cmin) cmin = cyc[i]
		if (i == 1 || cyc[i] > cmax) cmax = cyc[i]
	}
	tail = sprintf(" cycles %d cmin %d cmax %d cwithin %d count %d expected %d",
		       nc, cmin, cmax, cwithin, count, expected)
	# percentiles from a histogram of the (integer) window lengths: a
	# sort of every window recurses too deep in mawk when all are equal
	if (nw) {
		nk = 0
		for (i = 1; i <= nw; i++) if (!(w[i] in hist)) { keys[++nk] = w[i] + 0; hist[w[i]] = 0 }
		for (i = 1; i <= nw; i++) hist[w[i]]++
		for (i = 2; i <= nk; i++) { t = keys[i]; for (j = i - 1; j >= 1 && keys[j] > t; j--) keys[j + 1] = keys[j]; keys[j + 1] = t }
		p50 = pct(int((nw + 1) / 2)); p95 = int(nw * 0.95); if (p95 < 1) p95 = 1
		printf "bursts %d bad %d short_bursts %d windows %d min %d p50 %d p95 %d max %d within %d%s\n", bursts, bad, shortb, nw, keys[1], p50, pct(p95), keys[nk], within, tail
	} else
		printf "bursts %d bad %d short_bursts %d windows 0 min 0 p50 0 p95 0 max 0 within 0%s\n", bursts, bad, shortb, tail
	for (i = 1; i <= ne && i <= 10; i++) print "error: " errs[i]
}
# the k-th smallest window (1-based)
function pct(k,    i, c) {
	c = 0
	for (i = 1; i <= nk; i++) { c += hist[keys[i]]; if (c >= k) return keys[i] }
	return keys[nk]
}
