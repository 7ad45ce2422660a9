// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof top -i FILE --stdio: a recording replayed as top would have shown
 * it live, the intervals cut by the samples' recorded times instead of the
 * clock: interval k holds the samples with t0 + k*d <= time < t0 + (k+1)*d,
 * t0 the first sample's time. The same live profile as the live feed,
 * without a recorder or a thread: what was shown can be checked against
 * the recording (tests/cli/top.sh does, against perf script).
 */
#include <stdio.h>

#include "cli.h"
#include "pmprof/table.h"
#include "top.h"

struct replay {
	struct pm_live *live;
	const struct top_ui *ui;
	uint64_t d_ns, start;
	bool started;
	int status;		/* of the output */
	struct pm_error *err;
};

/* End the interval: print it. 0, or non-zero to stop. */
static int replay_tick(struct replay *rp, struct pm_session *s)
{
	struct pm_live_view v = rp->ui->view;
	struct pm_live_stats st;
	struct pm_table *t;

	if (pm_live__tick(rp->live, s, rp->err))
		return -1;
	/* every event's table, as --stdio prints them */
	for (v.event = 0; ; v.event++) {
		pm_live__stats(rp->live, &v, &st);
		t = pm_live__view(rp->live, &v);
		rp->status = top_print_interval(t, &st, rp->ui);
		pm_table__delete(t);
		if (rp->status || v.event + 1 >= st.nr_events)
			break;
	}
	return rp->status ? 1 : 0;
}

static int replay_sample(struct pm_session *s, const struct pm_sample_ctx *ctx, void *arg)
{
	struct replay *rp = arg;
	uint64_t t = ctx->sample->time;
	int ret;

	if (!(ctx->sample->sample_type & PM_SAMPLE_TIME))
		return pm_error__fmt(rp->err, PM_EFORMAT, "samples without times "
				     "(PERF_SAMPLE_TIME): record with -T to replay");
	if (!rp->started) {
		rp->started = true;
		rp->start = t;
	}
	if (t < rp->start)	/* (time order: only a clock gone back) */
		t = rp->start;
	/* every interval this sample is past, empty ones too, as top would
	 * have shown them; past a million of them (a recording paused for
	 * days), one empty interval stands for the gap */
	if ((t - rp->start) / rp->d_ns > 1000000) {
		if ((ret = replay_tick(rp, s)))
			return ret;
		rp->start += (t - rp->start) / rp->d_ns * rp->d_ns;
	}
	while (t - rp->start >= rp->d_ns) {
		if ((ret = replay_tick(rp, s)))
			return ret;
		rp->start += rp->d_ns;
	}
	return pm_live__sample(rp->live, s, ctx, rp->err);
}

static int replay_record(struct pm_session *s, const struct pm_record *rec, void *arg)
{
	struct replay *rp = arg;

	return pm_live__record(rp->live, s, rec, rp->err);
}

int top_replay(const char *path, const struct top_ui *ui, const struct pm_live_opts *lo,
	       const struct pm_session_opts *so)
{
	struct pm_error err = { 0 };
	struct replay rp = { .ui = ui, .err = &err };
	struct pm_session *s;
	int ret;

	rp.d_ns = (uint64_t)(ui->delay * 1e9);
	if (!rp.d_ns)
		rp.d_ns = 1;
	if (pm_session__open(&s, path, so, &err))
		return pm_cli_error(PM_EXIT_INPUT, path, &err);
	rp.live = pm_live__new(lo);
	ret = pm_session__run(s, replay_sample, replay_record, &rp, &err);
	/* the last interval, however short */
	if (!ret && rp.started)
		ret = replay_tick(&rp, s);
	pm_live__delete(rp.live);
	pm_session__delete(s);
	if (rp.status)
		return rp.status;
	return ret < 0 ? pm_cli_error(PM_EXIT_INPUT, path, &err) : 0;
}
