// SPDX-License-Identifier: GPL-2.0
/*
 * The windows analysis's report (pmprof/report.h): the summary, the
 * table "functions" (either of two column orders for the tabular formats;
 * JSON has the counts, the metrics, their intervals and which come from
 * few windows) with the summary lines as its comments, and the counter
 * groups (JSON only).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics-internal.h"
#include "pmprof/report.h"
#include "pmprof/table-fit.h"
#include "pmprof/util.h"

/* ---- summary lines ---------------------------------------------------- */

void pm_metrics__summary_line(struct pm_metrics *m, char *buf, size_t size)
{
	const struct pm_metrics_summary *s = pm_metrics__summary(m);

	snprintf(buf, size,
		 "windows used %" PRIu64 ", discarded %" PRIu64
		 ", opening samples %" PRIu64 ", throttles %" PRIu64
		 " (the kernel's), burst stops %" PRIu64
		 ", lost %" PRIu64 " (%" PRIu64 " samples) (mode %s%s)",
		 s->kept, s->discarded, s->opening, s->throttles, s->burst_stops,
		 s->lost_records, s->lost_samples, pm_metrics_mode__name(s->mode),
		 s->short_windows ? ", short windows" : "");
}

/* "groups counted 100% of their enabled time", or each one's share when
 * the kernel multiplexed them; "" without times in the reads. */
void pm_metrics__groups_line(struct pm_metrics *m, char *buf, size_t size)
{
	size_t i, n = 0, timed = 0, full = 0;
	struct pm_metrics_group g;

	buf[0] = 0;
	for (i = 0; i < pm_metrics__nr_groups(m); i++) {
		pm_metrics__group(m, i, &g);
		timed += g.timed && g.enabled;
		full += g.timed && g.enabled && g.running == g.enabled;
	}
	if (!timed)
		return;
	if (full == timed) {
		snprintf(buf, size, "%s counted all of %s enabled time (no multiplexing)",
			 timed > 1 ? "the groups" : "the group", timed > 1 ? "their" : "its");
		return;
	}
	n = (size_t)snprintf(buf, size, "multiplexed (fewer counters than events): ");
	for (i = 0; i < pm_metrics__nr_groups(m) && n < size; i++) {
		pm_metrics__group(m, i, &g);
		if (!g.timed || !g.enabled)
			continue;
		n += (size_t)snprintf(buf + n, size - n, "%sgroup %zu (%s, %zu events) counted %.1f%%",
				      n > 44 ? ", " : "", i + 1, g.leader, g.nr_events,
				      100.0 * (double)g.running / (double)g.enabled);
	}
	if (n < size)
		snprintf(buf + n, size - n, " of its enabled time");
}

/* ---- the functions' table --------------------------------------------- */

/* A metric's column in the tabular formats, or its interval's (key
 * "NAME:ci", so that --columns and the fit keep it with its metric). */
static int metric_column(struct pm_table *t, const char *name, bool pm)
{
	struct pm_table_column c = {
		.name = name,
		.type = name[0] == '%' ? PM_COL_PERCENT : PM_COL_DOUBLE,
		.show = PM_SHOW_TABLE,
	};
	char buf[320], key[320];

	if (pm) {
		snprintf(buf, sizeof(buf), "±%s", name);
		snprintf(key, sizeof(key), "%s:ci", name);
		c.name = buf;
		c.key = key;
	}
	return pm_table__add_column(t, &c);
}

static int json_column(struct pm_table *t, const char *name, const char *group,
		       enum pm_table_type type, unsigned int flags)
{
	struct pm_table_column c = { .name = name, .type = type,
				     .show = PM_SHOW_JSON, .group = group,
				     .flags = flags };

	return pm_table__add_column(t, &c);
}

static int dis_column(struct pm_table *t)
{
	return pm_table__add_column(t, &(struct pm_table_column){
		.name = "DIS%", .key = "discarded_pct",
		.type = PM_COL_PERCENT, .show = PM_SHOW_TABLE });
}

/* Where each kind of cell of a function's row goes. */
struct cols {
	int jdso, jsym, sym, dso, n, dis, jdis;
	int *text;		/* per metric in layout order: value, then ± */
	int counts, metrics, few, ci;	/* the first JSON column of each */
};

static void add_columns(struct pm_table *t, struct pm_metrics *m,
			const size_t *order, struct cols *c)
{
	enum pm_metrics_layout layout = m->opts.layout;
	size_t k;

	c->jdso = json_column(t, "dso", NULL, PM_COL_STRING, 0);
	c->jsym = json_column(t, "symbol", NULL, PM_COL_STRING, 0);
	c->sym = pm_table__add_column(t, &(struct pm_table_column){
		.name = "Symbol", .key = "symbol", .type = PM_COL_STRING,
		.show = PM_SHOW_TABLE, .flags = PM_COLF_KEY });
	c->dso = -1;
	if (layout == PM_METRICS_LAYOUT_TEXT)
		c->dso = pm_table__add_column(t, &(struct pm_table_column){
			.name = "DSO", .key = "dso", .type = PM_COL_STRING,
			.show = PM_SHOW_TABLE, .flags = PM_COLF_KEY });
	c->n = pm_table__add_col(t, "#", "samples", PM_COL_U64);
	c->jdis = json_column(t, "discarded", NULL, PM_COL_U64, 0);
	c->dis = layout == PM_METRICS_LAYOUT_TEXT ? dis_column(t) : -1;
	c->text = pm_calloc(2 * m->nr_metrics + 1, sizeof(*c->text));
	for (k = 0; k < m->nr_metrics; k++) {
		const struct mx_metric *x = &m->metrics[order[k]];

		if (layout == PM_METRICS_LAYOUT_ARM && c->dis < 0 && x->arm_rank > 9)
			c->dis = dis_column(t);
		c->text[2 * k] = metric_column(t, x->name, false);
		c->text[2 * k + 1] = m->opts.ci ? metric_column(t, x->name, true) : -1;
	}
	if (c->dis < 0)
		c->dis = dis_column(t);
	if (c->dso < 0)
		c->dso = pm_table__add_column(t, &(struct pm_table_column){
			.name = "DSO", .key = "dso", .type = PM_COL_STRING,
			.show = PM_SHOW_TABLE, .flags = PM_COLF_KEY });
	/* JSON: every counter's sum, every metric, the metrics text marks
	 * '?' (true where it is so), then the intervals. */
	c->counts = (int)pm_table__nr_columns(t);
	for (k = 0; k < m->nr_counters; k++)
		json_column(t, m->counters[k].name, "counts", PM_COL_U64, 0);
	c->metrics = (int)pm_table__nr_columns(t);
	for (k = 0; k < m->nr_metrics; k++)
		json_column(t, m->metrics[k].name, "metrics", PM_COL_DOUBLE, 0);
	c->few = (int)pm_table__nr_columns(t);
	for (k = 0; k < m->nr_metrics; k++)
		json_column(t, m->metrics[k].name, "few_windows", PM_COL_BOOL,
			    PM_COLF_OPTIONAL);
	c->ci = -1;
	if (m->opts.ci) {
		c->ci = (int)pm_table__nr_columns(t);
		for (k = 0; k < m->nr_metrics; k++)
			json_column(t, m->metrics[k].name, "ci95", PM_COL_RANGE, 0);
	}
}

/* The row of f; true when a metric of it comes from few windows. */
static bool add_row(struct pm_table *t, struct pm_metrics *m,
		    const struct mx_func *f, const size_t *order,
		    const struct cols *c)
{
	size_t row = pm_table__add_row(t), k;
	bool few = false;

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
		const struct mx_metric *x = &m->metrics[order[k]];
		size_t col = (size_t)c->text[2 * k];
		double v, h;

		if (mx_metric_at(m, f, x, &v, &h))
			continue;
		pm_table__set_double(t, row, col, v);
		if (mx_windows_of(m, f, x) < PM_METRICS_FEW_WINDOWS) {
			pm_table__set_mark(t, row, col, '?');
			few = true;
		}
		if (c->text[2 * k + 1] >= 0 && !isnan(h))
			pm_table__set_double(t, row, (size_t)c->text[2 * k + 1], h);
	}
	for (k = 0; k < m->nr_counters; k++)
		pm_table__set_u64(t, row, (size_t)c->counts + k, f->sums[k]);
	for (k = 0; k < m->nr_metrics; k++) {
		const struct mx_metric *x = &m->metrics[k];
		double v, h;

		mx_metric_at(m, f, x, &v, &h);
		pm_table__set_double(t, row, (size_t)c->metrics + k, v);
		if (mx_windows_of(m, f, x) < PM_METRICS_FEW_WINDOWS)
			pm_table__set_bool(t, row, (size_t)c->few + k, true);
		if (c->ci >= 0 && !isnan(h))	/* a count's interval starts at 0 */
			pm_table__set_range(t, row, (size_t)c->ci + k,
					    !x->formula && v - h < 0 ? 0 : v - h, v + h);
	}
	return few;
}

static void add_comments(struct pm_table *t, struct pm_metrics *m, bool few)
{
	size_t out = pm_metrics__nr_left_out(m);
	char line[512];

	pm_table__set_title(t, "per-function metrics from sample windows");
	pm_metrics__summary_line(m, line, sizeof(line));
	pm_table__add_comment(t, "%s", line);
	pm_metrics__groups_line(m, line, sizeof(line));
	if (line[0])
		pm_table__add_comment(t, "%s", line);
	if (m->td_note[0])
		pm_table__add_comment(t, "%s", m->td_note);
	if (m->software_only)
		pm_table__add_comment(t, "%s", PM_METRICS_SOFTWARE_NOTE);
	if (few)
		pm_table__add_comment(t, "?: from fewer than %d windows, a rough value",
				      PM_METRICS_FEW_WINDOWS);
	if (out)
		pm_table__add_comment(t, "%zu function%s with fewer windows or samples than asked (--min-windows, --percent-limit) left out",
				      out, out == 1 ? "" : "s");
}

/* ---- the rest of the report ------------------------------------------- */

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
	pm_summary__add_u64(sum, "burst_stops", NULL, s->burst_stops);
	pm_summary__add_u64(sum, "lost", NULL, s->lost_records);
	pm_summary__add_u64(sum, "lost_samples", NULL, s->lost_samples);
	pm_summary__add_str(sum, "topdown", NULL, m->td_note);
	pm_summary__add_bool(sum, "software_only", NULL, m->software_only);
	for (k = 0; k < m->nr_counters; k++)
		names[k] = m->counters[k].name;
	pm_summary__add_strs(sum, "events", NULL, names, m->nr_counters);
	free(names);
}

/* The counter groups and how long each counted (JSON only: the text has
 * pm_metrics__groups_line). */
static struct pm_table *groups_table(struct pm_metrics *m)
{
	struct pm_table *t = pm_table__new();
	struct pm_metrics_group g;
	size_t i, row;

	pm_table__set_name(t, "groups");
	pm_table__set_flags(t, PM_TABLE_JSON_ONLY);
	pm_table__add_col(t, "leader", NULL, PM_COL_STRING);
	pm_table__add_col(t, "events", NULL, PM_COL_U64);
	json_column(t, "enabled_ns", NULL, PM_COL_U64, PM_COLF_OPTIONAL);
	json_column(t, "running_ns", NULL, PM_COL_U64, PM_COLF_OPTIONAL);
	for (i = 0; i < pm_metrics__nr_groups(m); i++) {
		pm_metrics__group(m, i, &g);
		row = pm_table__add_row(t);
		pm_table__set_str(t, row, 0, g.leader);
		pm_table__set_u64(t, row, 1, g.nr_events);
		if (g.timed) {
			pm_table__set_u64(t, row, 2, g.enabled);
			pm_table__set_u64(t, row, 3, g.running);
		}
	}
	return t;
}

int pm_metrics__finish(struct pm_metrics *m, struct pm_report **out)
{
	struct pm_report *rep = pm_report__new();
	struct pm_table *t = pm_table__new();
	struct mx_func **funcs;
	size_t *order, nr, i;
	struct cols c;
	bool few = false;

	mx_finish(m);	/* the metrics are known from here on */
	order = pm_calloc(m->nr_metrics + 1, sizeof(*order));
	for (i = 0; i < m->nr_metrics; i++)
		order[i] = i;
	if (m->opts.layout == PM_METRICS_LAYOUT_ARM)
		qsort_r(order, m->nr_metrics, sizeof(*order), mx_cmp_arm, m);
	add_summary(rep, m);
	pm_table__set_name(t, "functions");
	add_columns(t, m, order, &c);
	funcs = mx_sorted(m, (size_t)m->opts.top, &nr);
	for (i = 0; i < nr; i++)
		few |= add_row(t, m, funcs[i], order, &c);
	add_comments(t, m, few);
	free(funcs);
	free(c.text);
	free(order);
	pm_report__add_table(rep, t);
	pm_report__add_table(rep, groups_table(m));
	*out = rep;
	return 0;
}
