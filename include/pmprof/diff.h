/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two finished reports compared (pmprof diff): the first ranked table of
 * each (hotspot's event table, metrics' functions) matched row by row on
 * their key columns (PM_COLF_KEY: the shared object and symbol), and the
 * "stacks" tables (pmprof/stacks.h), when both have one, side by side.
 *
 * The report has one table, "functions": the key columns, Baseline and
 * New (each side's share, the Overhead column or else the samples'),
 * then what opts.compute asks: Delta (New - Baseline, percentage points),
 * Ratio (New / Baseline), Wdiff (period_new * w_new - period_base *
 * w_base: perf diff's -c names and meanings); then z and Significant: a
 * two-proportion z test of the samples' shares (pooled, normal
 * approximation), significant when |z| is above the normal quantile of
 * opts.confidence. Then each other number both tables have (samples,
 * period, a metrics recording's counts and metrics): its NEW value with
 * its delta and ratio; a metric with a confidence interval on both sides
 * (metrics --ci: group "ci95") also gets "METRIC sig", true when the two
 * intervals do not overlap.
 *
 * The stacks table, when kept: Stack, base, new (each side's weight of
 * the stack, 0 where it has none), its summary saying differential: the
 * folded format prints "stack base new" (FlameGraph's difffolded) and
 * HTML draws the differential flame graph.
 */
#ifndef PMPROF_DIFF_H
#define PMPROF_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/error.h"

struct pm_report;

enum {
	PM_DIFF_DELTA = 1 << 0,
	PM_DIFF_RATIO = 1 << 1,
	PM_DIFF_WDIFF = 1 << 2,
};

struct pm_diff_opts {
	size_t sz;		/* sizeof(struct pm_diff_opts) */
	unsigned int compute;	/* PM_DIFF_*; 0: delta */
	double confidence;	/* two-sided, 0 < c < 1; 0: 0.95 */
	int64_t w_base, w_new;	/* wdiff's weights (perf's -c wdiff:B,N) */
	/* the stacks' weight on each side: a stacks column (samples,
	 * period, an event); NULL: samples */
	const char *weight;
};

/* The comparison of base and new into *out (the caller's). 0, or a
 * negative code with err saying why (no table to compare, no stacks
 * column of that weight). */
int pm_diff__reports(const struct pm_report *base, const struct pm_report *new,
		     const struct pm_diff_opts *opts, struct pm_report **out,
		     struct pm_error *err);

/* Parse "delta,ratio,wdiff:B,N" (perf diff's -c) into opts. 0, or
 * -PM_EUSAGE with err naming the word. */
int pm_diff_compute__parse(const char *s, struct pm_diff_opts *opts,
			   struct pm_error *err);

/* The normal quantile a two-sided test at this confidence compares |z|
 * with (0.95: 1.96). */
double pm_diff__z_critical(double confidence);

#endif
