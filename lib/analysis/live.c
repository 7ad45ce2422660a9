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

#include "pmprof/hotspot.h"
#include "pmprof/live.h"
#include "pmprof/metrics.h"
#include "pmprof/records.h"
#include "pmprof/table.h"
#include "pmprof/util.h"

/* The one interval's analysis, either kind. */
struct live_run {
	struct pm_hotspot *hot;
	struct pm_metrics *met;
	bool events_added;	/* metrics: the reader's events are in */
};

struct pm_live {
	struct pm_live_opts opts;
	struct live_run run;
	uint64_t samples;	/* in the interval in progress */
	struct pm_table *last;	/* the last finished interval's table */
	char *last_event;
	struct pm_live_stats st;
	/* ID_INDEX records come once, at the start: each interval's metrics
	 * accumulator needs the id scopes they give. */
	uint8_t **id_index;
	size_t nr_id_index;
};

static void run_begin(struct pm_live *l)
{
	memset(&l->run, 0, sizeof(l->run));
	if (l->opts.metrics) {
		struct pm_metrics_opts mo = { .mode = PM_METRICS_AUTO };

		l->run.met = pm_metrics__new(&mo);
	} else {
		struct pm_hotspot_opts ho = { .sz = sizeof(ho) };

		l->run.hot = pm_hotspot__new(&ho);
	}
	l->samples = 0;
}

static void run_end(struct pm_live *l)
{
	pm_hotspot__delete(l->run.hot);
	pm_metrics__delete(l->run.met);
	memset(&l->run, 0, sizeof(l->run));
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
	pm_table__delete(l->last);
	free(l->last_event);
	for (i = 0; i < l->nr_id_index; i++)
		free(l->id_index[i]);
	free(l->id_index);
	free(l);
}

/* Metrics: the events go in once the reader knows them all (a pipe's
 * HEADER_ATTR records precede every sample), with the id scopes. */
static int metrics_events(struct pm_live *l, struct pm_session *s,
			  struct pm_error *err)
{
	struct pm_reader *r = pm_session__reader(s);
	struct pm_record rec;
	size_t i;
	int ret;

	if (l->run.events_added)
		return 0;
	l->run.events_added = true;
	ret = pm_metrics__add_reader_events(l->run.met, r, err);
	if (ret)
		return ret;
	if (!pm_metrics__nr_readers(l->run.met))
		return pm_error__fmt(err, PM_EFORMAT,
				     "no event reads counter values with its samples "
				     "(PERF_SAMPLE_READ), so there are no windows to measure: "
				     "give --metrics without -e, or a leader-sampled group, "
				     "e.g. -e '{cpu-clock,task-clock}:S'");
	for (i = 0; i < l->nr_id_index && !ret; i++) {
		memset(&rec, 0, sizeof(rec));
		rec.type = PM_RECORD_ID_INDEX;
		rec.size = pm_reader__u16(r, l->id_index[i] + 6);
		rec.data = l->id_index[i];
		ret = pm_metrics__record(l->run.met, r, &rec, err);
	}
	return ret;
}

int pm_live__sample(struct pm_live *l, struct pm_session *s,
		    const struct pm_sample_ctx *ctx, struct pm_error *err)
{
	int ret;

	l->samples++;
	if (l->run.hot) {
		pm_hotspot__add(l->run.hot, s, ctx);
		return 0;
	}
	ret = metrics_events(l, s, err);
	if (!ret) {
		struct pm_metrics_loc loc = {
			.dso = ctx->ip.dso,
			.sym = ctx->ip.sym,
			.dso_name = pm_addr_loc__dso_name(&ctx->ip),
			.sym_name = ctx->ip.sym ? ctx->ip.sym->name : NULL,
		};

		ret = pm_metrics__sample(l->run.met, ctx->sample, &loc, err);
		if (ret && err) {
			err->has_offset = true;
			err->offset = ctx->record_offset;
		}
	}
	return ret;
}

int pm_live__record(struct pm_live *l, struct pm_session *s,
		    const struct pm_record *rec, struct pm_error *err)
{
	int ret;

	if (!l->run.met)
		return 0;
	switch (rec->type) {
	case PM_RECORD_ID_INDEX:
		l->id_index = pm_realloc(l->id_index, (l->nr_id_index + 1) * sizeof(*l->id_index));
		l->id_index[l->nr_id_index] = pm_malloc(rec->size);
		memcpy(l->id_index[l->nr_id_index], rec->data, rec->size);
		l->nr_id_index++;
		/* fall through */
	case PM_RECORD_THROTTLE:
	case PM_RECORD_UNTHROTTLE:
	case PM_RECORD_LOST:
	case PM_RECORD_LOST_SAMPLES:
		if (!l->run.events_added)
			return 0;	/* (ID_INDEX: replayed when they are) */
		ret = metrics_events(l, s, err);
		return ret ? ret : pm_metrics__record(l->run.met, pm_session__reader(s), rec, err);
	default:
		return 0;
	}
}

/* A deep copy of a table's columns and cells, through its public face. */
static struct pm_table *copy_table(const struct pm_table *src)
{
	struct pm_table *t = pm_table__new();
	size_t nc = pm_table__nr_columns(src), nr = pm_table__nr_rows(src);
	size_t r, c;

	for (c = 0; c < nc; c++)
		pm_table__add_column(t, pm_table__column(src, c));
	for (r = 0; r < nr; r++) {
		size_t row = pm_table__add_row(t);

		for (c = 0; c < nc; c++) {
			if (pm_table__is_null(src, r, c))
				continue;
			switch (pm_table__column(src, c)->type) {
			case PM_COL_STRING:
				pm_table__set_str(t, row, c, pm_table__get_str(src, r, c));
				break;
			case PM_COL_U64:
			case PM_COL_HEX:
				pm_table__set_u64(t, row, c, pm_table__get_u64(src, r, c));
				break;
			case PM_COL_I64:
				pm_table__set_i64(t, row, c, pm_table__get_i64(src, r, c));
				break;
			default:	/* PM_COL_DOUBLE, PM_COL_PERCENT */
				pm_table__set_double(t, row, c, pm_table__get_double(src, r, c));
				break;
			}
		}
	}
	return t;
}

/* The finished interval's table (the first event's, for the hotspot
 * profile): a copy, or NULL when the interval had no section. */
static int run_finish(struct pm_live *l, struct pm_session *s,
		      struct pm_table **out, char **event, struct pm_error *err)
{
	*out = NULL;
	*event = NULL;
	if (l->run.hot) {
		const struct pm_hotspot_report *rep;

		if (pm_hotspot__finish(l->run.hot, pm_session__reader(s), &rep)) {
			*out = copy_table(rep[0].table);
			*event = pm_strdup(rep[0].name);
		}
		return 0;
	}
	if (!l->samples && !l->run.events_added)
		return 0;
	{
		int ret = metrics_events(l, s, err);

		if (ret)
			return ret;
	}
	*out = pm_metrics__table(l->run.met, PM_METRICS_LAYOUT_TEXT, 0);
	return 0;
}

int pm_live__tick(struct pm_live *l, struct pm_session *s, struct pm_error *err)
{
	struct pm_table *t;
	char *event;
	int ret = run_finish(l, s, &t, &event, err);

	if (ret)
		return ret;
	l->st.intervals++;
	l->st.samples = l->samples;
	l->st.total += l->samples;
	if (t || !l->samples) {
		/* an interval without samples shows the last table's columns
		 * and no rows */
		if (!t && l->last) {
			t = pm_table__new();
			for (size_t c = 0; c < pm_table__nr_columns(l->last); c++)
				pm_table__add_column(t, pm_table__column(l->last, c));
			event = l->last_event ? pm_strdup(l->last_event) : NULL;
		}
		pm_table__delete(l->last);
		free(l->last_event);
		l->last = t;
		l->last_event = event;
	}
	l->st.event = l->last_event;
	run_end(l);
	run_begin(l);
	return 0;
}

void pm_live__stats(const struct pm_live *l, struct pm_live_stats *st)
{
	*st = l->st;
}

size_t pm_live__nr_columns(const struct pm_live *l)
{
	return l->last ? pm_table__nr_columns(l->last) : 0;
}

const char *pm_live__column_name(const struct pm_live *l, size_t col)
{
	if (!l->last || col >= pm_table__nr_columns(l->last))
		return NULL;
	return pm_table__column(l->last, col)->name;
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

	if (!l->last)
		return NULL;
	t = copy_table(l->last);
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
