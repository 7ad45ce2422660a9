// SPDX-License-Identifier: GPL-2.0
/*
 * The windows accumulator's results: the summary, counters and functions,
 * metric values with their intervals, the table (two column orders) and
 * the JSON document.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics-internal.h"
#include "pmprof/json.h"
#include "pmprof/table.h"
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

/* ---- table ------------------------------------------------------------ */

static int metric_column(struct pm_table *t, const char *name, bool pm)
{
	struct pm_table_column c = {
		.name = name,
		.type = name[0] == '%' ? PM_COL_PERCENT : PM_COL_DOUBLE,
	};
	char buf[320];

	if (pm) {
		snprintf(buf, sizeof(buf), "±%s", name);
		c.name = buf;
	}
	return pm_table__add_column(t, &c);
}

struct pm_table *pm_metrics__table(struct pm_metrics *m,
				   enum pm_metrics_layout layout, size_t top)
{
	struct pm_table *t = pm_table__new();
	struct mx_func **funcs;
	size_t *order;
	size_t nr, i, k;
	int c_sym, c_dso, c_n, c_dis = -1, first_metric;
	char line[256];

	mx_finish(m);	/* the metrics are known from here on */
	order = pm_calloc(m->nr_metrics + 1, sizeof(*order));
	for (i = 0; i < m->nr_metrics; i++)
		order[i] = i;
	if (layout == PM_METRICS_LAYOUT_ARM)
		qsort_r(order, m->nr_metrics, sizeof(*order), cmp_arm, m);

	c_sym = pm_table__add_col(t, "Symbol", "symbol", PM_COL_STRING);
	c_dso = layout == PM_METRICS_LAYOUT_TEXT ?
		pm_table__add_col(t, "DSO", "dso", PM_COL_STRING) : -1;
	c_n = pm_table__add_col(t, "#", "samples", PM_COL_U64);
	if (layout == PM_METRICS_LAYOUT_TEXT)
		c_dis = pm_table__add_col(t, "DIS%", "discarded_pct", PM_COL_PERCENT);
	first_metric = (int)pm_table__nr_columns(t);
	for (k = 0; k < m->nr_metrics; k++) {
		const struct mx_metric *x = &m->metrics[order[k]];

		if (layout == PM_METRICS_LAYOUT_ARM && c_dis < 0 && x->arm_rank > 9)
			c_dis = pm_table__add_col(t, "DIS%", "discarded_pct",
						  PM_COL_PERCENT);
		metric_column(t, x->name, false);
		if (m->opts.ci)
			metric_column(t, x->name, true);
	}
	if (c_dis < 0)
		c_dis = pm_table__add_col(t, "DIS%", "discarded_pct", PM_COL_PERCENT);
	if (c_dso < 0)
		c_dso = pm_table__add_col(t, "DSO", "dso", PM_COL_STRING);

	funcs = sorted(m, top, &nr);
	for (i = 0; i < nr; i++) {
		const struct mx_func *f = funcs[i];
		size_t row = pm_table__add_row(t);
		int col = first_metric;

		pm_table__set_str(t, row, (size_t)c_sym, f->pub.sym_name);
		pm_table__set_str(t, row, (size_t)c_dso, f->pub.dso_name);
		pm_table__set_u64(t, row, (size_t)c_n, f->pub.samples);
		if (f->pub.samples)
			pm_table__set_double(t, row, (size_t)c_dis,
					     100.0 * (double)f->pub.discarded /
					     (double)f->pub.samples);
		for (k = 0; k < m->nr_metrics; k++) {
			double v, h;

			if (col == c_dis)
				col++;
			if (!metric_at(m, f, &m->metrics[order[k]], &v, &h))
				pm_table__set_double(t, row, (size_t)col, v);
			col++;
			if (m->opts.ci) {
				if (!isnan(h))
					pm_table__set_double(t, row, (size_t)col, h);
				col++;
			}
		}
	}
	free(funcs);
	free(order);
	pm_metrics__summary_line(m, line, sizeof(line));
	pm_table__set_title(t, "per-function metrics from sample windows");
	pm_table__add_comment(t, "%s", line);
	return t;
}

void pm_metrics__summary_line(struct pm_metrics *m, char *buf, size_t size)
{
	const struct pm_metrics_summary *s = pm_metrics__summary(m);

	snprintf(buf, size,
		 "windows used %" PRIu64 ", discarded %" PRIu64
		 ", opening samples %" PRIu64 ", throttles %" PRIu64
		 ", lost %" PRIu64 " (mode %s%s)",
		 s->kept, s->discarded, s->opening, s->throttles,
		 s->lost_records, pm_metrics_mode__name(s->mode),
		 s->short_windows ? ", short windows" : "");
}

/* ---- JSON ------------------------------------------------------------ */

void pm_metrics__json(struct pm_metrics *m, struct pm_json *j, size_t top)
{
	const struct pm_metrics_summary *s = pm_metrics__summary(m);
	struct mx_func **funcs;
	size_t nr, i, k;

	pm_json__begin_object(j);
	pm_json__kv_string(j, "mode", pm_metrics_mode__name(s->mode));
	pm_json__kv_bool(j, "short_windows", s->short_windows);
	pm_json__kv_u64(j, "windows", s->windows);
	pm_json__kv_u64(j, "opening", s->opening);
	pm_json__kv_u64(j, "samples", s->windows);
	pm_json__kv_u64(j, "discarded", s->discarded);
	pm_json__kv_u64(j, "kept", s->kept);
	pm_json__kv_u64(j, "throttles", s->throttles);
	pm_json__kv_u64(j, "lost", s->lost_records);
	pm_json__key(j, "events");
	pm_json__begin_array(j);
	for (k = 0; k < m->nr_counters; k++)
		pm_json__string(j, m->counters[k].name);
	pm_json__end_array(j);
	pm_json__key(j, "functions");
	pm_json__begin_array(j);
	funcs = sorted(m, top, &nr);
	for (i = 0; i < nr; i++) {
		const struct mx_func *f = funcs[i];

		pm_json__begin_object(j);
		pm_json__kv_string(j, "dso", f->pub.dso_name);
		pm_json__kv_string(j, "symbol", f->pub.sym_name);
		pm_json__kv_u64(j, "samples", f->pub.samples);
		pm_json__kv_u64(j, "discarded", f->pub.discarded);
		pm_json__key(j, "counts");
		pm_json__begin_object(j);
		for (k = 0; k < m->nr_counters; k++)
			pm_json__kv_u64(j, m->counters[k].name, f->sums[k]);
		pm_json__end_object(j);
		pm_json__key(j, "metrics");
		pm_json__begin_object(j);
		for (k = 0; k < m->nr_metrics; k++) {
			double v, h;

			metric_at(m, f, &m->metrics[k], &v, &h);
			pm_json__kv_double(j, m->metrics[k].name, v);
		}
		pm_json__end_object(j);
		if (m->opts.ci) {
			pm_json__key(j, "ci95");
			pm_json__begin_object(j);
			for (k = 0; k < m->nr_metrics; k++) {
				double v, h;

				metric_at(m, f, &m->metrics[k], &v, &h);
				pm_json__key(j, m->metrics[k].name);
				if (isnan(h)) {
					pm_json__null(j);
					continue;
				}
				pm_json__begin_array(j);
				pm_json__double(j, v - h);
				pm_json__double(j, v + h);
				pm_json__end_array(j);
			}
			pm_json__end_object(j);
		}
		pm_json__end_object(j);
	}
	free(funcs);
	pm_json__end_array(j);
	pm_json__end_object(j);
}
