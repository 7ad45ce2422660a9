// SPDX-License-Identifier: GPL-2.0
/*
 * The windows accumulator's results: the summary, counters and functions,
 * metric values with their intervals, and the report (the table in either
 * of two column orders; JSON has the counts, the metrics and their
 * intervals of every function).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics-internal.h"
#include "pmprof/report.h"
#include "pmprof/util.h"

#define Z95 1.959963984540054

/* ---- counters and functions ------------------------------------------ */

const struct pm_metrics_summary *pm_metrics__summary(struct pm_metrics *m)
{
	mx_finish(m);
	return &m->sum;
}

size_t pm_metrics__nr_counters(const struct pm_metrics *m)
{
	mx_finish((struct pm_metrics *)m);
	return m->nr_counters;
}

const char *pm_metrics__counter_name(const struct pm_metrics *m, size_t c)
{
	mx_finish((struct pm_metrics *)m);
	return c < m->nr_counters ? m->counters[c].name : NULL;
}

int pm_metrics__counter_event(const struct pm_metrics *m, size_t c)
{
	mx_finish((struct pm_metrics *)m);
	return c < m->nr_counters ? m->counters[c].event : -1;
}

size_t pm_metrics__nr_readers(const struct pm_metrics *m)
{
	return m->nr_readers;
}

size_t pm_metrics__nr_funcs(const struct pm_metrics *m)
{
	return m->nr_funcs;
}

const struct pm_metrics_func *pm_metrics__func(const struct pm_metrics *m,
					       size_t i)
{
	mx_finish((struct pm_metrics *)m);
	return i < m->nr_funcs ? &m->funcs[i]->pub : NULL;
}

const struct pm_metrics_func *pm_metrics__find(const struct pm_metrics *m,
					       const char *dso,
					       const char *sym)
{
	size_t i;

	if (!dso)
		dso = "[unknown]";
	if (!sym)
		sym = "[unknown]";
	mx_finish((struct pm_metrics *)m);
	for (i = 0; i < m->nr_funcs; i++)
		if (!strcmp(m->funcs[i]->pub.dso_name, dso) &&
		    !strcmp(m->funcs[i]->pub.sym_name, sym))
			return &m->funcs[i]->pub;
	return NULL;
}

/* ---- metric values ----------------------------------------------------- */

size_t pm_metrics__nr_metrics(const struct pm_metrics *m)
{
	mx_finish((struct pm_metrics *)m);
	return m->nr_metrics;
}

const char *pm_metrics__metric_name(const struct pm_metrics *m, size_t i)
{
	return i < m->nr_metrics ? m->metrics[i].name : NULL;
}

/* Half-width of the ratio's interval, unscaled; NaN when there is none. */
static double ratio_halfwidth(const struct pm_metrics *m,
			      const struct mx_func *f, const struct mx_metric *x)
{
	const struct mx_counter *num = &m->counters[x->num];
	const struct mx_group *g = &m->groups[num->group];
	double n, r, ss, xbar, sy, sx;

	if (!m->opts.ci)
		return NAN;
	sy = (double)f->sums[x->num];
	if (x->den >= 0) {
		const struct mx_fgroup *fg = &f->fg[num->group];
		size_t nr = g->nr, a = (size_t)num->pos,
		       b = (size_t)m->counters[x->den].pos;

		sx = (double)f->sums[x->den];
		n = (double)fg->n;
		if (fg->n < 2 || sx == 0)
			return NAN;
		r = sy / sx;
		ss = fg->gram[a * nr + a] - 2 * r * fg->gram[a * nr + b] +
		     r * r * fg->gram[b * nr + b];
	} else {
		/* A share: y_i is the window's count when it is this
		 * function's, else 0; x_i the count. */
		const struct mx_fgroup *fg = &f->fg[num->group];
		size_t a = (size_t)num->pos;
		double qf = fg->gram ? fg->gram[a * g->nr + a] : 0;

		sx = (double)m->totals[x->num];
		n = (double)g->kept;
		if (g->kept < 2 || sx == 0)
			return NAN;
		r = sy / sx;
		ss = (1 - r) * (1 - r) * qf + r * r * (g->sq[a] - qf);
	}
	if (ss < 0)	/* rounding */
		ss = 0;
	xbar = sx / n;
	return Z95 * sqrt(ss / ((n - 1) * n)) / xbar;
}

static int metric_at(const struct pm_metrics *m, const struct mx_func *f,
		     const struct mx_metric *x, double *value, double *half)
{
	double den = x->den >= 0 ? (double)f->sums[x->den]
				 : (double)m->totals[x->num];

	*half = NAN;
	if (den == 0) {
		*value = NAN;
		return -EDOM;
	}
	*value = x->scale * (double)f->sums[x->num] / den;
	*half = x->scale * ratio_halfwidth(m, f, x);
	return 0;
}

int pm_metrics__metric(const struct pm_metrics *m, size_t func,
		       const char *name, double *value, double *lo,
		       double *hi)
{
	size_t i;
	double v, h;
	int ret;

	mx_finish((struct pm_metrics *)m);
	if (func >= m->nr_funcs)
		return -ENOENT;
	for (i = 0; i < m->nr_metrics; i++)
		if (!strcmp(m->metrics[i].name, name))
			break;
	if (i == m->nr_metrics)
		return -ENOENT;
	ret = metric_at(m, m->funcs[func], &m->metrics[i], &v, &h);
	if (value)
		*value = v;
	if (lo)
		*lo = v - h;
	if (hi)
		*hi = v + h;
	return ret;
}

/* ---- order ------------------------------------------------------------ */

static int cmp_funcs(const void *pa, const void *pb)
{
	const struct mx_func *a = *(struct mx_func *const *)pa;
	const struct mx_func *b = *(struct mx_func *const *)pb;
	int c;

	if (a->pub.samples != b->pub.samples)
		return a->pub.samples > b->pub.samples ? -1 : 1;
	c = strcmp(a->pub.sym_name, b->pub.sym_name);
	return c ? c : strcmp(a->pub.dso_name, b->pub.dso_name);
}

/* The functions by samples; the caller frees the array. */
static struct mx_func **sorted(const struct pm_metrics *m, size_t top,
			       size_t *nr)
{
	struct mx_func **v = pm_calloc(m->nr_funcs + 1, sizeof(*v));

	if (m->nr_funcs) {	/* m->funcs is NULL before the first */
		memcpy(v, m->funcs, m->nr_funcs * sizeof(*v));
		qsort(v, m->nr_funcs, sizeof(*v), cmp_funcs);
	}
	*nr = top && top < m->nr_funcs ? top : m->nr_funcs;
	return v;
}

static int cmp_arm(const void *pa, const void *pb, void *arg)
{
	const struct pm_metrics *m = arg;
	const struct mx_metric *a = &m->metrics[*(const size_t *)pa];
	const struct mx_metric *b = &m->metrics[*(const size_t *)pb];

	if (a->arm_rank != b->arm_rank)
		return a->arm_rank < b->arm_rank ? -1 : 1;
	return *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
}

/* ---- the report --------------------------------------------------------- */

static int metric_column(struct pm_table *t, const char *name, bool pm)
{
	struct pm_table_column c = {
		.name = name,
		.type = name[0] == '%' ? PM_COL_PERCENT : PM_COL_DOUBLE,
		.show = PM_SHOW_TABLE,
	};
	char buf[320];

	if (pm) {
		snprintf(buf, sizeof(buf), "±%s", name);
		c.name = buf;
	}
	return pm_table__add_column(t, &c);
}

static int json_column(struct pm_table *t, const char *name, const char *group,
		       enum pm_table_type type)
{
	struct pm_table_column c = { .name = name, .type = type,
				     .show = PM_SHOW_JSON, .group = group };

	return pm_table__add_column(t, &c);
}

/* Where each kind of cell of a function's row goes. */
struct cols {
	int jdso, jsym, sym, dso, n, dis, jdis;
	int *text;		/* per metric in layout order: value, then ± */
	int counts, metrics, ci;	/* the first JSON column of each */
};

static void add_columns(struct pm_table *t, struct pm_metrics *m,
			const size_t *order, struct cols *c)
{
	enum pm_metrics_layout layout = m->opts.layout;
	size_t k;

	c->jdso = json_column(t, "dso", NULL, PM_COL_STRING);
	c->jsym = json_column(t, "symbol", NULL, PM_COL_STRING);
	c->sym = pm_table__add_column(t, &(struct pm_table_column){
		.name = "Symbol", .key = "symbol", .type = PM_COL_STRING,
		.show = PM_SHOW_TABLE, .flags = PM_COLF_KEY });
	c->dso = -1;
	if (layout == PM_METRICS_LAYOUT_TEXT)
		c->dso = pm_table__add_column(t, &(struct pm_table_column){
			.name = "DSO", .key = "dso", .type = PM_COL_STRING,
			.show = PM_SHOW_TABLE, .flags = PM_COLF_KEY });
	c->n = pm_table__add_col(t, "#", "samples", PM_COL_U64);
	c->jdis = json_column(t, "discarded", NULL, PM_COL_U64);
	c->dis = -1;
	if (layout == PM_METRICS_LAYOUT_TEXT)
		c->dis = pm_table__add_column(t, &(struct pm_table_column){
			.name = "DIS%", .key = "discarded_pct",
			.type = PM_COL_PERCENT, .show = PM_SHOW_TABLE });
	c->text = pm_calloc(2 * m->nr_metrics + 1, sizeof(*c->text));
	for (k = 0; k < m->nr_metrics; k++) {
		const struct mx_metric *x = &m->metrics[order[k]];

		if (layout == PM_METRICS_LAYOUT_ARM && c->dis < 0 && x->arm_rank > 9)
			c->dis = pm_table__add_column(t, &(struct pm_table_column){
				.name = "DIS%", .key = "discarded_pct",
				.type = PM_COL_PERCENT, .show = PM_SHOW_TABLE });
		c->text[2 * k] = metric_column(t, x->name, false);
		c->text[2 * k + 1] = m->opts.ci ? metric_column(t, x->name, true) : -1;
	}
	if (c->dis < 0)
		c->dis = pm_table__add_column(t, &(struct pm_table_column){
			.name = "DIS%", .key = "discarded_pct",
			.type = PM_COL_PERCENT, .show = PM_SHOW_TABLE });
	if (c->dso < 0)
		c->dso = pm_table__add_column(t, &(struct pm_table_column){
			.name = "DSO", .key = "dso", .type = PM_COL_STRING,
			.show = PM_SHOW_TABLE, .flags = PM_COLF_KEY });
	/* JSON: every counter's sum, every metric, then their intervals. */
	c->counts = (int)pm_table__nr_columns(t);
	for (k = 0; k < m->nr_counters; k++)
		json_column(t, m->counters[k].name, "counts", PM_COL_U64);
	c->metrics = (int)pm_table__nr_columns(t);
	for (k = 0; k < m->nr_metrics; k++)
		json_column(t, m->metrics[k].name, "metrics", PM_COL_DOUBLE);
	c->ci = -1;
	if (m->opts.ci) {
		c->ci = (int)pm_table__nr_columns(t);
		for (k = 0; k < m->nr_metrics; k++)
			json_column(t, m->metrics[k].name, "ci95", PM_COL_RANGE);
	}
}

static void add_row(struct pm_table *t, struct pm_metrics *m,
		    const struct mx_func *f, const size_t *order,
		    const struct cols *c)
{
	size_t row = pm_table__add_row(t), k;

	pm_table__set_str(t, row, (size_t)c->jdso, f->pub.dso_name);
	pm_table__set_str(t, row, (size_t)c->jsym, f->pub.sym_name);
	pm_table__set_str(t, row, (size_t)c->sym, f->pub.sym_name);
	pm_table__set_str(t, row, (size_t)c->dso, f->pub.dso_name);
	pm_table__set_u64(t, row, (size_t)c->n, f->pub.samples);
	pm_table__set_u64(t, row, (size_t)c->jdis, f->pub.discarded);
	if (f->pub.samples)
		pm_table__set_double(t, row, (size_t)c->dis,
				     100.0 * (double)f->pub.discarded /
				     (double)f->pub.samples);
	for (k = 0; k < m->nr_metrics; k++) {
		double v, h;

		if (!metric_at(m, f, &m->metrics[order[k]], &v, &h)) {
			pm_table__set_double(t, row, (size_t)c->text[2 * k], v);
			if (c->text[2 * k + 1] >= 0 && !isnan(h))
				pm_table__set_double(t, row,
						     (size_t)c->text[2 * k + 1], h);
		}
	}
	for (k = 0; k < m->nr_counters; k++)
		pm_table__set_u64(t, row, (size_t)c->counts + k, f->sums[k]);
	for (k = 0; k < m->nr_metrics; k++) {
		double v, h;

		metric_at(m, f, &m->metrics[k], &v, &h);
		pm_table__set_double(t, row, (size_t)c->metrics + k, v);
		if (c->ci >= 0 && !isnan(h))
			pm_table__set_range(t, row, (size_t)c->ci + k, v - h, v + h);
	}
}

static void add_summary(struct pm_report *rep, struct pm_metrics *m)
{
	const struct pm_metrics_summary *s = pm_metrics__summary(m);
	struct pm_summary *sum = pm_report__summary(rep);
	const char **names = pm_calloc(m->nr_counters + 1, sizeof(*names));
	size_t k;

	pm_summary__add_str(sum, "mode", NULL, pm_metrics_mode__name(s->mode));
	pm_summary__add_bool(sum, "short_windows", NULL, s->short_windows);
	pm_summary__add_u64(sum, "windows", NULL, s->windows);
	pm_summary__add_u64(sum, "opening", NULL, s->opening);
	pm_summary__add_u64(sum, "samples", NULL, s->windows);
	pm_summary__add_u64(sum, "discarded", NULL, s->discarded);
	pm_summary__add_u64(sum, "kept", NULL, s->kept);
	pm_summary__add_u64(sum, "throttles", NULL, s->throttles);
	pm_summary__add_u64(sum, "lost", NULL, s->lost_records);
	for (k = 0; k < m->nr_counters; k++)
		names[k] = m->counters[k].name;
	pm_summary__add_strs(sum, "events", NULL, names, m->nr_counters);
	free(names);
}

int pm_metrics__finish(struct pm_metrics *m, struct pm_report **out)
{
	struct pm_report *rep = pm_report__new();
	struct pm_table *t = pm_table__new();
	const struct pm_metrics_summary *s;
	struct mx_func **funcs;
	size_t *order, nr, i;
	struct cols c;

	mx_finish(m);	/* the metrics are known from here on */
	s = pm_metrics__summary(m);
	order = pm_calloc(m->nr_metrics + 1, sizeof(*order));
	for (i = 0; i < m->nr_metrics; i++)
		order[i] = i;
	if (m->opts.layout == PM_METRICS_LAYOUT_ARM)
		qsort_r(order, m->nr_metrics, sizeof(*order), cmp_arm, m);
	add_summary(rep, m);
	pm_table__set_name(t, "functions");
	pm_table__set_title(t, "per-function metrics from sample windows");
	pm_table__add_comment(t, "windows used %" PRIu64 ", discarded %" PRIu64
			      ", opening samples %" PRIu64 ", throttles %" PRIu64
			      ", lost %" PRIu64 " (mode %s%s)",
			      s->kept, s->discarded, s->opening, s->throttles,
			      s->lost_records, pm_metrics_mode__name(s->mode),
			      s->short_windows ? ", short windows" : "");
	add_columns(t, m, order, &c);
	funcs = sorted(m, 0, &nr);
	for (i = 0; i < nr; i++)
		add_row(t, m, funcs[i], order, &c);
	free(funcs);
	free(c.text);
	free(order);
	pm_report__add_table(rep, t);
	*out = rep;
	return 0;
}
