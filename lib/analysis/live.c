// SPDX-License-Identifier: GPL-2.0
/*
 * The live profile: one analysis run per interval, its table kept until the
 * next interval ends (see pmprof/live.h for why intervals reset). The
 * analyses are the ones `report` and `metrics` run over whole recordings;
 * this file only starts, feeds and finishes them, and copies the finished
 * table so that the analysis can go.
 */
#include <stdlib.h>
#include <string.h>

#include "pmprof/analysis.h"
#include "pmprof/hotspot.h"
#include "pmprof/live.h"
#include "pmprof/metrics.h"
#include "pmprof/records.h"
#include "pmprof/report.h"
#include "pmprof/strbuf.h"
#include "pmprof/table.h"
#include "pmprof/util.h"

/* The one interval's analysis. */
struct live_run {
	const struct pm_analysis *a;
	void *x;
};

/* A finished interval: a table per event (one for metrics), each with
 * the event's name (NULL for metrics). */
struct live_tables {
	struct pm_table **t;
	char **event;
	uint64_t *samples;	/* each table's */
	size_t nr;
};

static void tables_release(struct live_tables *lt)
{
	for (size_t i = 0; i < lt->nr; i++) {
		pm_table__delete(lt->t[i]);
		free(lt->event[i]);
	}
	free(lt->t);
	free(lt->event);
	free(lt->samples);
	memset(lt, 0, sizeof(*lt));
}

struct pm_live {
	struct pm_live_opts opts;
	struct live_run run;
	uint64_t samples;	/* in the interval in progress */
	struct live_tables last;	/* the last finished interval's */
	struct pm_live_stats st;
	/* ID_INDEX records come once, at the start: each interval's metrics
	 * accumulator needs the id scopes they give. */
	uint8_t **id_index;
	size_t nr_id_index;
};

static void run_begin(struct pm_live *l)
{
	if (l->opts.metrics) {
		struct pm_metrics_opts mo = { .sz = sizeof(mo), .need_reads = true };

		l->run.a = &pm_metrics_analysis;
		l->run.x = pm_metrics__new(&mo);
	} else {
		struct pm_hotspot_opts ho = { .sz = sizeof(ho) };

		l->run.a = &pm_hotspot_analysis;
		l->run.x = pm_hotspot__new(&ho);
	}
	l->samples = 0;
}

static void run_end(struct pm_live *l)
{
	if (l->opts.metrics)
		pm_metrics__delete(l->run.x);
	else
		pm_hotspot__delete(l->run.x);
	l->run.x = NULL;
}

struct pm_live *pm_live__new(const struct pm_live_opts *opts)
{
	struct pm_live *l = pm_calloc(1, sizeof(*l));

	if (opts)
		memcpy(&l->opts, opts, opts->sz && opts->sz < sizeof(l->opts) ?
		       opts->sz : sizeof(l->opts));
	l->opts.sz = sizeof(l->opts);
	run_begin(l);
	return l;
}

void pm_live__delete(struct pm_live *l)
{
	size_t i;

	if (!l)
		return;
	run_end(l);
	tables_release(&l->last);
	for (i = 0; i < l->nr_id_index; i++)
		free(l->id_index[i]);
	free(l->id_index);
	free(l);
}

int pm_live__sample(struct pm_live *l, struct pm_session *s,
		    const struct pm_sample_ctx *ctx, struct pm_error *err)
{
	l->samples++;
	return l->run.a->sample(l->run.x, s, ctx, err);
}

int pm_live__record(struct pm_live *l, struct pm_session *s,
		    const struct pm_record *rec, struct pm_error *err)
{
	if (rec->type == PM_RECORD_ID_INDEX) {
		l->id_index = pm_realloc(l->id_index, (l->nr_id_index + 1) * sizeof(*l->id_index));
		l->id_index[l->nr_id_index] = pm_malloc(rec->size);
		memcpy(l->id_index[l->nr_id_index], rec->data, rec->size);
		l->nr_id_index++;
	}
	return l->run.a->record ? l->run.a->record(l->run.x, s, rec, err) : 0;
}

/* A new interval's analysis learns the id scopes of the ID_INDEX records
 * the stream had. */
static int replay_id_index(struct pm_live *l, struct pm_session *s, struct pm_error *err)
{
	struct pm_reader *r = pm_session__reader(s);
	struct pm_record rec;
	size_t i;
	int ret = 0;

	for (i = 0; i < l->nr_id_index && !ret && l->run.a->record; i++) {
		memset(&rec, 0, sizeof(rec));
		rec.type = PM_RECORD_ID_INDEX;
		rec.size = pm_reader__u16(r, l->id_index[i] + 6);
		rec.data = l->id_index[i];
		ret = l->run.a->record(l->run.x, s, &rec, err);
	}
	return ret;
}

/* What top shows of a table: the columns of the tabular formats. */
static struct pm_table *copy_table(const struct pm_table *src)
{
	return pm_table__copy(src, PM_SHOW_TABLE);
}

/* The finished interval's tables (the hotspot profile has one per
 * event): copies, none when the interval had no samples. */
static int run_finish(struct pm_live *l, struct pm_session *s, struct live_tables *out,
		      struct pm_error *err)
{
	struct pm_report *rep = NULL;
	int ret;
	size_t i, n;

	memset(out, 0, sizeof(*out));
	ret = l->run.a->finish(l->run.x, s, &rep, err);
	n = ret ? 0 : pm_report__nr_tables(rep);
	/* metrics: the per-function table; its others are views of it */
	if (l->opts.metrics && n > 1)
		n = 1;
	if (n) {
		out->t = pm_calloc(n, sizeof(*out->t));
		out->event = pm_calloc(n, sizeof(*out->event));
		out->samples = pm_calloc(n, sizeof(*out->samples));
		out->nr = n;
	}
	for (i = 0; i < n; i++) {
		struct pm_table *t = pm_report__table(rep, i);
		struct pm_strbuf sb = PM_STRBUF_INIT;

		out->t[i] = copy_table(t);
		out->samples[i] = l->samples;
		if (!l->opts.metrics && !pm_summary__text(pm_table__summary(t), "event", &sb))
			out->event[i] = pm_strbuf__detach(&sb);
		pm_strbuf__reset(&sb);
		if (!l->opts.metrics && !pm_summary__text(pm_table__summary(t), "samples", &sb))
			out->samples[i] = strtoull(sb.buf, NULL, 10);
		pm_strbuf__release(&sb);
	}
	pm_report__delete(rep);
	return ret;
}

/* An interval without samples shows the last tables' columns and no rows. */
static void tables_emptied(const struct live_tables *from, struct live_tables *to)
{
	to->nr = from->nr;
	to->t = pm_calloc(to->nr ? to->nr : 1, sizeof(*to->t));
	to->event = pm_calloc(to->nr ? to->nr : 1, sizeof(*to->event));
	to->samples = pm_calloc(to->nr ? to->nr : 1, sizeof(*to->samples));
	for (size_t i = 0; i < to->nr; i++) {
		to->t[i] = pm_table__copy(from->t[i], 0);
		pm_table__truncate(to->t[i], 0);
		to->event[i] = from->event[i] ? pm_strdup(from->event[i]) : NULL;
	}
}

int pm_live__tick(struct pm_live *l, struct pm_session *s, struct pm_error *err)
{
	struct live_tables got;
	int ret = run_finish(l, s, &got, err);

	if (ret) {
		tables_release(&got);
		return ret;
	}
	l->st.intervals++;
	l->st.samples = l->samples;
	l->st.total += l->samples;
	if (got.nr || !l->samples) {
		if (!got.nr && l->last.nr)
			tables_emptied(&l->last, &got);
		tables_release(&l->last);
		l->last = got;
	} else {
		tables_release(&got);
	}
	run_end(l);
	run_begin(l);
	return replay_id_index(l, s, err);
}

/* The table a view shows: its event, or the last one. */
static size_t view_table(const struct pm_live *l, const struct pm_live_view *v)
{
	size_t e = v ? v->event : 0;

	return e < l->last.nr ? e : (l->last.nr ? l->last.nr - 1 : 0);
}

void pm_live__stats(const struct pm_live *l, const struct pm_live_view *v,
		    struct pm_live_stats *st)
{
	*st = l->st;
	st->nr_events = l->last.nr;
	st->view_event = view_table(l, v);
	st->event = l->last.nr ? l->last.event[st->view_event] : NULL;
	if (l->last.nr > 1)
		st->samples = l->last.samples[st->view_event];
}

size_t pm_live__nr_columns(const struct pm_live *l)
{
	return l->last.nr ? pm_table__nr_columns(l->last.t[0]) : 0;
}

const char *pm_live__column_name(const struct pm_live *l, size_t col)
{
	if (!l->last.nr || col >= pm_table__nr_columns(l->last.t[0]))
		return NULL;
	return pm_table__column(l->last.t[0], col)->name;
}

struct filter_arg {
	int col;
	const char *text;
};

static bool row_matches(const struct pm_table *t, size_t row, const struct filter_arg *f)
{
	const char *s = pm_table__get_str(t, row, (size_t)f->col);

	return s && strstr(s, f->text);
}

/* Matching rows first, each side in its order: a stable partition. */
static int filter_cmp(const struct pm_table *t, size_t a, size_t b, void *arg)
{
	return (int)!row_matches(t, a, arg) - (int)!row_matches(t, b, arg);
}

struct pm_table *pm_live__view(const struct pm_live *l, const struct pm_live_view *v)
{
	struct pm_table *t;
	size_t nr;

	if (!l->last.nr)
		return NULL;
	t = copy_table(l->last.t[view_table(l, v)]);
	if (v->sort >= 0 && (size_t)v->sort < pm_table__nr_columns(t))
		pm_table__sort(t, (size_t)v->sort,
			       pm_table__column(t, (size_t)v->sort)->type != PM_COL_STRING);
	nr = pm_table__nr_rows(t);
	if (v->filter && v->filter[0]) {
		struct filter_arg f = { pm_table__find_column(t, "Symbol"), v->filter };
		size_t keep = 0;

		if (f.col >= 0) {
			pm_table__sort_by(t, filter_cmp, &f);
			while (keep < nr && row_matches(t, keep, &f))
				keep++;
		}
		nr = keep;
	}
	if (v->top && v->top < nr)
		nr = v->top;
	pm_table__truncate(t, nr);
	return t;
}
