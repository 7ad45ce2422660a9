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
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

/* What --compare shows, in order; "%#" is the share of samples, whose
 * truth is the share of cycles. The top-down ones with a model that has
 * slots. */
static const char *const all_metrics[] = {
	"FE%", "BAD%", "BE%", "RET%", "CPI", "BMKI", "CMKI", "%CM", "%CY", "%#",
};
#define NR_TOPDOWN 4

/* The top-down parts are shares of a whole: their error is a difference,
 * in percentage points. */
static bool in_points(const char *name)
{
	for (size_t k = 0; k < NR_TOPDOWN; k++)
		if (!strcmp(name, all_metrics[k]))
			return true;
	return false;
}

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

void pm_sim__compared(const struct pm_metrics *m, size_t func, double measured,
		      bool has_measured, double truth, bool has_truth,
		      const char *name, struct pm_sim_compared *out)
{
	size_t num, den;
	double scale;

	out->has_measured = has_measured;
	out->measured = measured;
	out->has_truth = has_truth;
	out->truth = truth;
	out->measurable = true;
	out->expected = NAN;
	if (has_truth && func != SIZE_MAX &&
	    !pm_metrics__metric_ratio(m, name, &num, &den, &scale)) {
		const struct pm_metrics_func *f = pm_metrics__func(m, func);

		out->expected = truth / scale * (double)f->sums[den];
		out->measurable = out->expected >= PM_SIM_MEASURABLE;
	}
	out->has_error = has_measured && has_truth && truth != 0 && out->measurable;
	out->error = out->has_error ? 100.0 * (measured - truth) / truth : NAN;
}

/* The measured value, the truth and the error where it can be measured. */
static void compared(struct pm_metrics *m, const struct pm_sim_result *res,
		     const struct compare_row *r, const char *name,
		     struct pm_sim_compared *c)
{
	double mv = NAN, tv = NAN;
	bool hm = measured(m, r, name, &mv), ht = truth(res, r, name, &tv);

	pm_sim__compared(m, r->mf ? r->mi : SIZE_MAX, mv, hm, tv, ht, name, c);
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

/* The metrics this comparison shows: the top-down ones when the truth
 * has them. */
static size_t choose_metrics(const struct pm_sim_result *res, const char **out)
{
	size_t k, n = 0;
	double v;

	for (k = 0; k < PM_ARRAY_SIZE(all_metrics); k++)
		if (k >= NR_TOPDOWN || !pm_sim_result__metric(res, -1, all_metrics[k], &v))
			out[n++] = all_metrics[k];
	return n;
}

/* A column of metric `name`'s subgroup: text and JSON (show 0), or one. */
static void metric_col(struct pm_table *t, const char *name, const char *cname,
		       const char *key, enum pm_table_type type, unsigned int show)
{
	pm_table__add_column(t, &(struct pm_table_column){
		.name = cname, .key = key, .type = type, .show = show,
		.group = "metrics", .subgroup = name });
}

#define COLS_PER_METRIC 7

static void add_columns(struct pm_table *t, const char *const *metrics, size_t n)
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
	/* A metric's columns share its subgroup: --columns and the fit keep
	 * them together (pmprof/table-fit.h). */
	for (k = 0; k < n; k++) {
		const char *name = metrics[k];
		char tname[32];

		snprintf(tname, sizeof(tname), "true %s", name);
		metric_col(t, name, name, "measured", PM_COL_DOUBLE, 0);
		metric_col(t, name, tname, "truth", PM_COL_DOUBLE, 0);
		if (in_points(name))
			metric_col(t, name, "pp", "pp", PM_COL_DOUBLE, PM_SHOW_TABLE);
		else
			metric_col(t, name, "err", "err", PM_COL_PERCENT, PM_SHOW_TABLE);
		metric_col(t, name, "error", "error", PM_COL_DOUBLE, PM_SHOW_JSON);
		metric_col(t, name, "difference", "difference", PM_COL_DOUBLE, PM_SHOW_JSON);
		metric_col(t, name, "measurable", "measurable", PM_COL_BOOL, PM_SHOW_JSON);
		metric_col(t, name, "expected_events", "expected_events", PM_COL_DOUBLE,
			   PM_SHOW_JSON);
	}
}

/* f's row; the cells whose error is left out (the truth too small to
 * measure) counted in *small, the first few named in notes. */
static void add_row(struct pm_table *t, struct pm_metrics *m,
		    const struct pm_sim_result *res, const struct compare_row *r,
		    const char *const *metrics, size_t n, size_t *small,
		    struct pm_strbuf *notes)
{
	size_t row = pm_table__add_row(t), col = 5, k;
	uint64_t samples = r->mf ? r->mf->samples : 0;
	const char *fname = res->funcs[r->truth].name;

	pm_table__set_str(t, row, 0, fname);
	if (r->mf) {
		pm_table__set_u64(t, row, 1, samples);
		if (samples)
			pm_table__set_double(t, row, 2,
				100.0 * (double)r->mf->discarded / (double)samples);
	}
	pm_table__set_u64(t, row, 3, samples);
	pm_table__set_u64(t, row, 4, r->mf ? r->mf->discarded : 0);
	for (k = 0; k < n; k++, col += COLS_PER_METRIC) {
		struct pm_sim_compared c;
		bool pp = in_points(metrics[k]);

		compared(m, res, r, metrics[k], &c);
		if (c.has_measured)
			pm_table__set_double(t, row, col, c.measured);
		if (c.has_truth)
			pm_table__set_double(t, row, col + 1, c.truth);
		if (c.has_error) {
			pm_table__set_double(t, row, col + 2,
					     pp ? c.measured - c.truth : c.error);
			pm_table__set_double(t, row, col + 3, c.error);
		}
		if (c.has_measured && c.has_truth)
			pm_table__set_double(t, row, col + 4, c.measured - c.truth);
		pm_table__set_bool(t, row, col + 5, c.measurable);
		if (!isnan(c.expected))
			pm_table__set_double(t, row, col + 6, c.expected);
		if (!c.measurable && c.has_measured && c.has_truth) {
			if (*small < 2)
				pm_strbuf__addf(notes, "%s%s %s: %.1f", *small ? ", " : "",
						fname, metrics[k], c.expected);
			++*small;
		}
	}
}

int pm_sim__compare(struct pm_metrics *m, const struct pm_sim_result *res,
		    const char *output, struct pm_report **out)
{
	const struct pm_metrics_summary *sum = pm_metrics__summary(m);
	struct pm_report *rep = pm_report__new();
	struct pm_summary *s = pm_report__summary(rep);
	struct pm_table *t = pm_table__new();
	size_t i, k, n = res->nr_funcs, nm, small = 0;
	struct compare_row *rows = pm_calloc(n + 1, sizeof(*rows));
	const char *metrics[PM_ARRAY_SIZE(all_metrics)];
	struct pm_strbuf notes = PM_STRBUF_INIT;

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
	pm_table__set_title(t, "%s: measured (pmprof metrics --mode %s) beside the truth; err = (measured - truth) / truth, pp = measured - truth",
			    output, pm_metrics_mode__name(sum->mode));
	pm_table__add_comment(t, "%" PRIu64 " bytes, %" PRIu64 " samples, %" PRIu64 " windows: %" PRIu64 " kept, %" PRIu64 " discarded, %" PRIu64 " opening, %" PRIu64 " throttles",
			      res->bytes, res->samples, sum->windows, sum->kept,
			      sum->discarded, sum->opening, res->throttles);
	nm = choose_metrics(res, metrics);
	add_columns(t, metrics, nm);
	for (i = 0; i < n; i++)
		add_row(t, m, res, &rows[i], metrics, nm, &small, &notes);
	if (small)
		pm_table__add_comment(t, "err left out in %zu cells where the truth puts under %d events in the function's windows, whose own noise is larger (e.g. %s expected)",
				      small, PM_SIM_MEASURABLE, pm_strbuf__str(&notes));
	pm_strbuf__release(&notes);
	free(rows);
	pm_report__add_table(rep, t);
	*out = rep;
	return 0;
}
