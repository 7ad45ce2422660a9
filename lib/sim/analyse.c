// SPDX-License-Identifier: GPL-2.0
/*
 * Run the windows analysis on a recording, as `pmprof metrics` does, for
 * `pmprof sim --compare` and the accuracy study.
 */
#include "pmprof/metrics.h"
#include "pmprof/records.h"
#include "pmprof/session.h"
#include "pmprof/sim.h"

struct run {
	struct pm_metrics *m;
	struct pm_reader *r;
	bool added;
	struct pm_error *err;
};

static int add(struct run *run)
{
	if (run->added)
		return 0;
	run->added = true;
	return pm_metrics__add_reader_events(run->m, run->r, run->err);
}

static int on_sample(struct pm_session *s, const struct pm_sample_ctx *ctx,
		     void *arg)
{
	struct run *run = arg;
	struct pm_metrics_loc loc = {
		.dso = ctx->ip.dso,
		.sym = ctx->ip.sym,
		.dso_name = pm_addr_loc__dso_name(&ctx->ip),
		.sym_name = ctx->ip.sym ? ctx->ip.sym->name : NULL,
	};

	(void)s;
	if (add(run))
		return -1;
	if (pm_metrics__sample(run->m, ctx->sample, &loc, run->err)) {
		if (run->err) {
			run->err->has_offset = true;
			run->err->offset = ctx->record_offset;
		}
		return -1;
	}
	return 0;
}

static int on_record(struct pm_session *s, const struct pm_record *rec,
		     void *arg)
{
	struct run *run = arg;

	(void)s;
	if (rec->type != PM_RECORD_THROTTLE && rec->type != PM_RECORD_UNTHROTTLE &&
	    rec->type != PM_RECORD_LOST && rec->type != PM_RECORD_LOST_SAMPLES &&
	    rec->type != PM_RECORD_ID_INDEX)
		return 0;
	if (add(run))
		return -1;
	return pm_metrics__record(run->m, run->r, rec, run->err) ? -1 : 0;
}

int pm_sim__analyse(const char *path, int mode, struct pm_metrics **out,
		    struct pm_error *err)
{
	struct pm_metrics_opts mo = { .mode = (enum pm_metrics_mode)mode };
	struct pm_session_opts so = { .sz = sizeof(so), .host = PM_HOST_NO };
	struct run run = { .err = err };
	struct pm_session *s;
	int ret;

	*out = NULL;
	if (pm_session__open(&s, path, &so, err))
		return err && err->code ? err->code : -1;
	run.r = pm_session__reader(s);
	run.m = pm_metrics__new(&mo);
	ret = pm_session__run(s, on_sample, on_record, &run, err);
	if (!ret)
		ret = add(&run);
	pm_session__delete(s);
	if (ret) {
		pm_metrics__delete(run.m);
		return err && err->code ? err->code : -1;
	}
	*out = run.m;
	return 0;
}
