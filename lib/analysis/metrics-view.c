// SPDX-License-Identifier: GPL-2.0
/*
 * The windows analysis over a session, as `pmprof metrics` and `pmprof
 * sim --compare` run it: the session says which function (and caller) a
 * sample is in; the accumulator (metrics.c) takes the samples and the
 * records that stop or describe streams.
 */
#include "metrics-internal.h"
#include "pmprof/records.h"
#include "pmprof/report.h"
#include "pmprof/session.h"

/* Events go in once they are all known: at once for a file, after the
 * pipe's HEADER_ATTR records for a pipe (they precede every sample). */
static int add_events(struct pm_metrics *m, struct pm_session *s,
		      struct pm_error *err)
{
	int ret;

	if (m->reader_events)
		return 0;
	m->reader_events = true;
	ret = pm_metrics__add_reader_events(m, pm_session__reader(s), err);
	if (ret)
		return ret;
	/* Without counter reads there are no metrics: say how to get them
	 * rather than print an empty table. */
	if (m->opts.need_reads && !pm_metrics__nr_readers(m))
		return pm_error__fmt(err, PM_EFORMAT,
				     "no event reads counter values with its samples (PERF_SAMPLE_READ), so there are no windows to measure; record with `pmprof record --metrics -- PROG` or a leader-sampled group, e.g. `perf record -e '{cycles,instructions}:S' -- PROG`");
	return 0;
}

static int sample(void *x, struct pm_session *s, const struct pm_sample_ctx *ctx,
		  struct pm_error *err)
{
	struct pm_metrics *m = x;
	struct pm_metrics_loc loc = {
		.dso = ctx->ip.dso,
		.sym = ctx->ip.sym,
		.dso_name = pm_addr_loc__dso_name(&ctx->ip),
		.sym_name = ctx->ip.sym ? ctx->ip.sym->name : NULL,
	};
	int ret = add_events(m, s, err);

	if (ret)
		return ret;
	if (m->fleet)
		mx_fleet_loc(m, &loc);
	if (m->opts.match == PM_METRICS_MATCH_CALLCHAIN) {
		const struct pm_addr_loc *cc;
		size_t n = pm_session__callchain(s, &cc);

		/* The caller: its symbol, else its DSO, else unknown. */
		if (n > 1)
			loc.caller = cc[1].sym ? (const void *)cc[1].sym
					       : (const void *)cc[1].dso;
	}
	/* the stack a window this sample closes goes to */
	m->view_session = s;
	if (m->stacks)
		pm_stacks__begin(m->stacks, s, ctx);
	if (m->profile)
		pm_profile__begin(m->profile, s, ctx);
	ret = pm_metrics__sample(m, ctx->sample, &loc, err);
	if (ret && err) {	/* a read that does not fit its group */
		err->has_offset = true;
		err->offset = ctx->record_offset;
	}
	return ret;
}

/* A kept window: a sample of the closing sample's stack, each member's
 * count in its event's column (the first also the sample's period). */
void mx_view_window(void *arg, const struct pm_metrics_window *w)
{
	struct pm_metrics *m = arg;
	struct pm_reader *r = m->view_session ? pm_session__reader(m->view_session)
					      : NULL;

	for (size_t i = 0; r && w->kept && i < w->nr; i++) {
		const struct pm_event *ev = pm_reader__event(r, (size_t)w->events[i]);
		const char *name = ev ? ev->name : "?";

		if (m->stacks) {
			size_t col = pm_stacks__column(m->stacks, w->events[i], name);

			if (i == 0)
				pm_stacks__add(m->stacks, col, w->delta[i]);
			else
				pm_stacks__add_value(m->stacks, col, w->delta[i]);
		}
		if (m->profile) {
			size_t col = pm_profile__column(m->profile, w->events[i], name);

			if (i == 0)
				pm_profile__add(m->profile, col, w->delta[i]);
			else
				pm_profile__add_value(m->profile, col, w->delta[i]);
		}
	}
	if (m->user_window)
		m->user_window(m->user_window_arg, w);
}

static int record(void *x, struct pm_session *s, const struct pm_record *rec,
		  struct pm_error *err)
{
	struct pm_metrics *m = x;
	int ret;

	if (rec->type != PM_RECORD_THROTTLE && rec->type != PM_RECORD_UNTHROTTLE &&
	    rec->type != PM_RECORD_LOST && rec->type != PM_RECORD_LOST_SAMPLES &&
	    rec->type != PM_RECORD_ID_INDEX)
		return 0;
	ret = add_events(m, s, err);
	if (ret)
		return ret;
	return pm_metrics__record(m, pm_session__reader(s), rec, err);
}

static int finish(void *x, struct pm_session *s, struct pm_report **out,
		  struct pm_error *err)
{
	struct pm_metrics *m = x;
	int ret = add_events(m, s, err);	/* a recording without samples */

	if (ret)
		return ret;
	ret = pm_metrics__finish(m, out);
	if (ret)
		return ret;
	if (m->stacks)
		pm_report__add_table(*out, pm_stacks__table(m->stacks));
	if (m->profile)
		pm_profile__tables(m->profile, *out);
	return 0;
}

/* A fleet's next recording (metrics-fleet.c). */
static int next_input(void *x, struct pm_session *s, struct pm_error *err)
{
	struct pm_metrics *m = x;
	int ret = add_events(m, s, err);	/* the first had no sample */

	return ret ? ret : pm_metrics__next_input(m, pm_session__reader(s), err);
}

const struct pm_analysis pm_metrics_analysis = {
	.name = "metrics",
	.sample = sample,
	.record = record,
	.finish = finish,
	.next_input = next_input,
};
