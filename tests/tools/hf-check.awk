# Check the sample periods of a `pmprof dump` of an hf_sample recording
# (--hf-mode kernel) by what was counted: the leader's group read value
# grows by each period, so the deltas from one sample of a counter
# instance to the next (from 0 for its first) must be L, S, L, S, ...
# where S = the window and L = P - S, moved by at most 2^(R-1) when
# hf-rand = R (the long parts only; windows stay exact).
#   awk -v P=20000 -v S=300 [-v R=6] -f hf-check.awk DUMP
# Prints "samples N bad K long_min A long_max B short_min C short_max D",
# then "error: ..." lines (the first ten).
function field(line, key,    i, n, parts) {
	n = split(line, parts, " ")
	for (i = 1; i <= n; i++)
		if (index(parts[i], key "=") == 1)
			return substr(parts[i], length(key) + 2)
	return ""
}
BEGIN {
	L = P - S; half = 0
	if (R > 0) { half = 1; for (i = 1; i < R; i++) half *= 2 }
	lmin = -1; smin = -1; n = 0; bad = 0
}
$3 == "SAMPLE" {
	id = field($0, "id"); r = field($0, "read")
	if (id == "" || r == "") next
	sub(/^\[/, "", r); split(r, v, /[:\/]/)
	val = v[2] + 0
	d = val - last[id]; k = cnt[id]++
	last[id] = val; n++
	if (k % 2 == 0) {
		# the first long part is never moved
		lo = L; hi = L
		if (k > 0 && half > 0) { lo = L - half; hi = L + half - 1 }
		if (d < lo || d > hi) {
			bad++; if (ne < 10) errs[++ne] = "sample " k " of id " id ": long part " d
		}
		if (lmin < 0 || d < lmin) lmin = d
		if (d > lmax) lmax = d
	} else {
		if (d != S) { bad++; if (ne < 10) errs[++ne] = "sample " k " of id " id ": window " d }
		if (smin < 0 || d < smin) smin = d
		if (d > smax) smax = d
	}
}
END {
	printf "samples %d bad %d long_min %d long_max %d short_min %d short_max %d\n", n, bad, lmin, lmax, smin, smax
	for (i = 1; i <= ne; i++) print "error: " errs[i]
}
