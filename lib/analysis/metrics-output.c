// SPDX-License-Identifier: GPL-2.0
/*
 * The windows accumulator's results: the summary, counters and functions,
 * metric values with their intervals, the functions' order and filters,
 * the counter groups. The report is metrics-report.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "metrics-internal.h"
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

int pm_metrics__metric_ratio(const struct pm_metrics *m, const char *name,
			     size_t *num, size_t *den, double *scale)
{
	size_t i;

	mx_finish((struct pm_metrics *)m);
	for (i = 0; i < m->nr_metrics; i++) {
		const struct mx_metric *x = &m->metrics[i];

		if (strcmp(x->name, name))
			continue;
		if (x->formula || x->den < 0)
			return -EINVAL;
		*num = (size_t)x->num;
		*den = (size_t)x->den;
		*scale = x->scale;
		return 0;
	}
	return -ENOENT;
}

const char *pm_metrics__topdown_note(const struct pm_metrics *m)
{
	mx_finish((struct pm_metrics *)m);
	return m->td_note;
}

const char *pm_metrics__metric_name(const struct pm_metrics *m, size_t i)
{
	return i < m->nr_metrics ? m->metrics[i].name : NULL;
}

/* Half-width of the ratio's interval, unscaled; NaN when there is none. */
static double delta_halfwidth(const struct pm_metrics *m,
			      const struct mx_func *f, const struct mx_metric *x);

/*
 * The Jeffreys 95% interval of a Poisson count k: the 2.5% and 97.5%
 * quantiles of Gamma(k + 1/2), i.e. chi-square quantiles with 2k + 1
 * degrees of freedom, halved (the lower end 0 for k = 0), by Wilson and
 * Hilferty's cube root. Its coverage is close to 95% on average, where
 * the exact (Garwood) interval's is well above it for small counts.
 */
static void poisson_interval(double k, double *lo, double *hi)
{
	double nu = 2 * k + 1, s = sqrt(2 / (9 * nu)), b = 1 - 2 / (9 * nu);
	double cl = b - Z95 * s, ch = b + Z95 * s;

	*lo = k > 0 && cl > 0 ? nu * cl * cl * cl / 2 : 0;
	*hi = nu * ch * ch * ch / 2;
	if (k == 0)	/* exact: the square of the normal's 98.75% quantile */
		*hi = 2.241402727604947 * 2.241402727604947 / 2;
}

/*
 * The interval's half-width: the delta method's, widened to the count's
 * Poisson interval when fewer than RARE events were seen and that reaches
 * farther. The delta method takes the windows' spread for the estimate's,
 * which needs enough windows with an event to measure it: a rate of 0.02
 * per kilo-instruction seen 0 times in 1,600 windows has no spread at
 * all, yet 0 events say only that the mean is below about 2.5. (With many
 * events the spread is measured, and can be below a Poisson count's: a
 * call's events come evenly.) The interval stays symmetric about the
 * value, so it is widened to the farther end.
 */
#define RARE 30
static double ratio_halfwidth(const struct pm_metrics *m,
			      const struct mx_func *f, const struct mx_metric *x)
{
	double h = delta_halfwidth(m, f, x), lo, hi, sy, sx, v;

	if (isnan(h))
		return h;
	sy = (double)f->sums[x->num];
	if (sy >= RARE)
		return h;
	sx = x->den >= 0 ? (double)f->sums[x->den] : (double)m->totals[x->num];
	v = sy / sx;
	poisson_interval(sy, &lo, &hi);
	lo /= sx;
	hi /= sx;
	if (hi - v > h)
		h = hi - v;
	if (v - lo > h)
		h = v - lo;
	return h;
}

/* The ratio estimator's delta-method half-width (pmprof/metrics.h). */
static double delta_halfwidth(const struct pm_metrics *m,
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

int mx_metric_at(const struct pm_metrics *m, const struct mx_func *f,
		 const struct mx_metric *x, double *value, double *half)
{
	double den;

	if (x->formula)
		return mx_formula_value(m, f, x, value, half);
	den = x->den >= 0 ? (double)f->sums[x->den] : (double)m->totals[x->num];
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
	ret = mx_metric_at(m, m->funcs[func], &m->metrics[i], &v, &h);
	if (value)
		*value = v;
	if (lo)
		*lo = !m->metrics[i].formula && v - h < 0 ? 0 : v - h;	/* counts */
	if (hi)
		*hi = v + h;
	return ret;
}

/* ---- order ------------------------------------------------------------ */

int pm_metrics__find_metric(const struct pm_metrics *m, const char *name)
{
	size_t i;

	mx_finish((struct pm_metrics *)m);
	if (!strcmp(name, "#") || !strcasecmp(name, "samples"))
		return (int)m->nr_metrics;
	for (i = 0; i < m->nr_metrics; i++)
		if (!strcasecmp(m->metrics[i].name, name))
			return (int)i;
	return -1;
}

uint64_t mx_windows_of(const struct pm_metrics *m, const struct mx_func *f,
			   const struct mx_metric *x)
{
	if (x->formula)
		return mx_formula_windows(m, f, x);
	return f->fg[m->counters[x->num].group].n;
}

uint64_t pm_metrics__metric_windows(const struct pm_metrics *m, size_t func,
				    const char *name)
{
	int i = pm_metrics__find_metric(m, name);

	if (i < 0 || (size_t)i >= m->nr_metrics || func >= m->nr_funcs)
		return 0;
	return mx_windows_of(m, m->funcs[func], &m->metrics[i]);
}

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

/* By opts.sort's metric, greatest first, NaN (no value) last. */
static int cmp_by_metric(const void *pa, const void *pb, void *arg)
{
	const struct pm_metrics *m = arg;
	const struct mx_metric *x = &m->metrics[pm_metrics__find_metric(m, m->opts.sort)];
	double va, vb, h;

	mx_metric_at(m, *(struct mx_func *const *)pa, x, &va, &h);
	mx_metric_at(m, *(struct mx_func *const *)pb, x, &vb, &h);
	if (isnan(va) != isnan(vb))
		return isnan(va) ? 1 : -1;
	if (!isnan(va) && va != vb)
		return va > vb ? -1 : 1;
	return cmp_funcs(pa, pb);
}

/* Does opts.percent_limit or opts.min_windows leave the function out? */
static bool left_out(const struct pm_metrics *m, const struct mx_func *f,
		     uint64_t samples)
{
	if (f->pub.kept < m->opts.min_windows)
		return true;
	return m->opts.percent_limit > 0 && samples &&
	       100.0 * (double)f->pub.samples / (double)samples < m->opts.percent_limit;
}

static uint64_t all_samples(const struct pm_metrics *m)
{
	uint64_t n = 0;

	for (size_t i = 0; i < m->nr_funcs; i++)
		n += m->funcs[i]->pub.samples;
	return n;
}

size_t pm_metrics__nr_left_out(const struct pm_metrics *m)
{
	uint64_t samples;
	size_t i, n = 0;

	mx_finish((struct pm_metrics *)m);
	samples = all_samples(m);
	for (i = 0; i < m->nr_funcs; i++)
		n += left_out(m, m->funcs[i], samples);
	return n;
}

/* The functions shown, in order; the caller frees the array. */
struct mx_func **mx_sorted(const struct pm_metrics *m, size_t top, size_t *nr)
{
	struct mx_func **v = pm_calloc(m->nr_funcs + 1, sizeof(*v));
	uint64_t samples = all_samples(m);
	int by = m->opts.sort ? pm_metrics__find_metric(m, m->opts.sort) : -1;
	size_t i, n = 0;

	for (i = 0; i < m->nr_funcs; i++)
		if (!left_out(m, m->funcs[i], samples))
			v[n++] = m->funcs[i];
	if (by >= 0 && (size_t)by < m->nr_metrics)
		qsort_r(v, n, sizeof(*v), cmp_by_metric, (void *)m);
	else if (n)
		qsort(v, n, sizeof(*v), cmp_funcs);
	*nr = top && top < n ? top : n;
	return v;
}

int mx_cmp_arm(const void *pa, const void *pb, void *arg)
{
	const struct pm_metrics *m = arg;
	const struct mx_metric *a = &m->metrics[*(const size_t *)pa];
	const struct mx_metric *b = &m->metrics[*(const size_t *)pb];

	if (a->arm_rank != b->arm_rank)
		return a->arm_rank < b->arm_rank ? -1 : 1;
	return *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
}

/* ---- counter groups ---------------------------------------------------- */

size_t pm_metrics__nr_groups(const struct pm_metrics *m)
{
	mx_finish((struct pm_metrics *)m);
	return m->nr_groups;
}

int pm_metrics__group(const struct pm_metrics *m, size_t i,
		      struct pm_metrics_group *out)
{
	const struct mx_group *g;

	mx_finish((struct pm_metrics *)m);
	if (i >= m->nr_groups)
		return -ENOENT;
	g = &m->groups[i];
	out->leader = m->events[g->leader].counter >= 0 ?
		      m->counters[m->events[g->leader].counter].name : "?";
	out->nr_events = g->nr;
	out->timed = g->timed;
	out->enabled = g->enabled;
	out->running = g->running;
	return 0;
}
