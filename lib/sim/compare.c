// SPDX-License-Identifier: GPL-2.0
/*
 * `pmprof sim --compare`: each function's metrics as `pmprof metrics`
 * measured them from the simulated recording, beside the simulator's
 * truth, as a report.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/metrics.h"
#include "pmprof/report.h"
#include "pmprof/sim.h"
#include "pmprof/util.h"

/* What --compare shows, in order; "%#" is the share of samples, whose
 * truth is the share of cycles. */
static const char *const compare_metrics[] = {
	"CPI", "BMKI", "CMKI", "%CM", "%CY", "%#",
};

struct compare_row {
	size_t truth;			/* index in the result */
	const struct pm_metrics_func *mf;
	size_t mi;			/* index in the metrics */
};

static bool measured(struct pm_metrics *m, const struct compare_row *r,
		     const char *name, double *v)
{
	const struct pm_metrics_summary *sum = pm_metrics__summary(m);

	if (!r->mf)
		return false;
	if (!strcmp(name, "%#")) {
		if (!sum->windows)
			return false;
		*v = 100.0 * (double)r->mf->samples / (double)sum->windows;
		return true;
	}
	return pm_metrics__metric(m, r->mi, name, v, NULL, NULL) == 0;
}

static bool truth(const struct pm_sim_result *res, const struct compare_row *r,
		  const char *name, double *v)
{
	if (!strcmp(name, "%#"))
		name = "%CY";
	return pm_sim_result__metric(res, (long)r->truth, name, v) == 0;
}

static int by_cycles(const void *a, const void *b, void *arg)
{
	const struct pm_sim_result *res = arg;
	const struct compare_row *x = a, *y = b;
	uint64_t cx = res->funcs[x->truth].counts[PM_SIM_CYCLES];
	uint64_t cy = res->funcs[y->truth].counts[PM_SIM_CYCLES];

	if (cx != cy)
		return cx > cy ? -1 : 1;
	return strcmp(res->funcs[x->truth].name, res->funcs[y->truth].name);
}

static void add_columns(struct pm_table *t)
{
	size_t k;

	pm_table__add_column(t, &(struct pm_table_column){
		.name = "Symbol", .key = "symbol", .type = PM_COL_STRING,
		.flags = PM_COLF_KEY });
	pm_table__add_column(t, &(struct pm_table_column){
		.name = "#", .key = "samples", .type = PM_COL_U64,
		.show = PM_SHOW_TABLE });
	pm_table__add_column(t, &(struct pm_table_column){
		.name = "DIS%", .key = "dis", .type = PM_COL_PERCENT,
		.show = PM_SHOW_TABLE });
	/* JSON counts 0 where the table shows nothing. */
	pm_table__add_column(t, &(struct pm_table_column){
		.name = "samples", .type = PM_COL_U64, .show = PM_SHOW_JSON });
	pm_table__add_column(t, &(struct pm_table_column){
		.name = "discarded", .type = PM_COL_U64, .show = PM_SHOW_JSON });
	for (k = 0; k < PM_ARRAY_SIZE(compare_metrics); k++) {
		char name[32];

		snprintf(name, sizeof(name), "true %s", compare_metrics[k]);
		pm_table__add_column(t, &(struct pm_table_column){
			.name = compare_metrics[k], .key = "measured",
			.type = PM_COL_DOUBLE, .group = "metrics",
			.subgroup = compare_metrics[k] });
		pm_table__add_column(t, &(struct pm_table_column){
			.name = name, .key = "truth", .type = PM_COL_DOUBLE,
			.group = "metrics", .subgroup = compare_metrics[k] });
		pm_table__add_column(t, &(struct pm_table_column){
			.name = "err", .key = "error", .type = PM_COL_PERCENT,
			.group = "metrics", .subgroup = compare_metrics[k] });
	}
}

static void add_row(struct pm_table *t, struct pm_metrics *m,
		    const struct pm_sim_result *res, const struct compare_row *r)
{
	size_t row = pm_table__add_row(t), col = 5, k;
	uint64_t samples = r->mf ? r->mf->samples : 0;

	pm_table__set_str(t, row, 0, res->funcs[r->truth].name);
	if (r->mf) {
		pm_table__set_u64(t, row, 1, samples);
		if (samples)
			pm_table__set_double(t, row, 2,
				100.0 * (double)r->mf->discarded / (double)samples);
	}
	pm_table__set_u64(t, row, 3, samples);
	pm_table__set_u64(t, row, 4, r->mf ? r->mf->discarded : 0);
	for (k = 0; k < PM_ARRAY_SIZE(compare_metrics); k++, col += 3) {
		double mv, tv;
		bool hm = measured(m, r, compare_metrics[k], &mv);
		bool ht = truth(res, r, compare_metrics[k], &tv);

		if (hm)
			pm_table__set_double(t, row, col, mv);
		if (ht)
			pm_table__set_double(t, row, col + 1, tv);
		if (hm && ht && tv != 0)
			pm_table__set_double(t, row, col + 2, 100.0 * (mv - tv) / tv);
	}
}

int pm_sim__compare(struct pm_metrics *m, const struct pm_sim_result *res,
		    const char *output, struct pm_report **out)
{
	const struct pm_metrics_summary *sum = pm_metrics__summary(m);
	struct pm_report *rep = pm_report__new();
	struct pm_summary *s = pm_report__summary(rep);
	struct pm_table *t = pm_table__new();
	size_t i, k, n = res->nr_funcs;
	struct compare_row *rows = pm_calloc(n + 1, sizeof(*rows));

	for (i = 0; i < n; i++) {
		rows[i].truth = i;
		for (k = 0; k < pm_metrics__nr_funcs(m); k++) {
			const struct pm_metrics_func *f = pm_metrics__func(m, k);

			if (f->sym_name && !strcmp(f->sym_name, res->funcs[i].name)) {
				rows[i].mf = f;
				rows[i].mi = k;
				break;
			}
		}
	}
	qsort_r(rows, n, sizeof(*rows), by_cycles, (void *)res);

	pm_summary__add_str(s, "file", NULL, output);
	pm_summary__add_u64(s, "bytes", NULL, res->bytes);
	pm_summary__add_u64(s, "samples", NULL, res->samples);
	pm_summary__add_u64(s, "throttles", NULL, res->throttles);
	pm_summary__add_str(s, "mode", NULL, pm_metrics_mode__name(sum->mode));
	pm_summary__add_u64(s, "windows", NULL, sum->windows);
	pm_summary__add_u64(s, "kept", NULL, sum->kept);
	pm_summary__add_u64(s, "discarded", NULL, sum->discarded);
	pm_summary__add_u64(s, "opening", NULL, sum->opening);

	pm_table__set_name(t, "functions");
	pm_table__set_title(t, "%s: measured (pmprof metrics --mode %s) beside the truth; err = (measured - truth) / truth",
			    output, pm_metrics_mode__name(sum->mode));
	pm_table__add_comment(t, "%" PRIu64 " bytes, %" PRIu64 " samples, %" PRIu64 " windows: %" PRIu64 " kept, %" PRIu64 " discarded, %" PRIu64 " opening, %" PRIu64 " throttles",
			      res->bytes, res->samples, sum->windows, sum->kept,
			      sum->discarded, sum->opening, res->throttles);
	add_columns(t);
	for (i = 0; i < n; i++)
		add_row(t, m, res, &rows[i]);
	free(rows);
	pm_report__add_table(rep, t);
	*out = rep;
	return 0;
}
