// SPDX-License-Identifier: GPL-2.0
/*
 * An analysis behind perf's sample filters (filter.h): what -C, --time
 * and -U drop, and the samples of the threads --pid, --tid and --comm
 * leave out, never reach it. The filter is made at the first sample,
 * when the recording's first and last sample times (--time percentages)
 * are known.
 */
#include "pmprof/filter.h"
#include "pmprof/perfdata.h"

static int filtered_sample(void *x, struct pm_session *s,
			   const struct pm_sample_ctx *ctx, struct pm_error *err)
{
	struct pm_filtered *fa = x;

	if (!fa->filter) {
		const struct pm_features *f = pm_reader__features(pm_session__reader(s));
		int ret = pm_filter__new(&fa->filter, fa->opts,
					 f ? f->sample_time_first : 0,
					 f ? f->sample_time_last : 0, err);

		if (ret)
			return ret;
	}
	if (pm_filter__drop(fa->filter, ctx) ||
	    (ctx->thread && !pm_filter__thread(fa->filter, ctx->thread)))
		return 0;
	return fa->inner->sample(fa->x, s, ctx, err);
}

static int filtered_record(void *x, struct pm_session *s,
			   const struct pm_record *rec, struct pm_error *err)
{
	struct pm_filtered *fa = x;

	return fa->inner->record ? fa->inner->record(fa->x, s, rec, err) : 0;
}

static int filtered_finish(void *x, struct pm_session *s, struct pm_report **out,
			   struct pm_error *err)
{
	struct pm_filtered *fa = x;

	return fa->inner->finish(fa->x, s, out, err);
}

/* Another recording: its own --time percentages (its first and last
 * sample), the filter made again at its first sample. */
static int filtered_next_input(void *x, struct pm_session *s, struct pm_error *err)
{
	struct pm_filtered *fa = x;

	pm_filtered__release(fa);
	if (!fa->inner->next_input)
		return pm_error__fmt(err, PM_EUSAGE, "%s takes one recording",
				     fa->inner->name);
	return fa->inner->next_input(fa->x, s, err);
}

const struct pm_analysis pm_filtered_analysis = {
	.name = "filtered",
	.sample = filtered_sample,
	.record = filtered_record,
	.finish = filtered_finish,
	.next_input = filtered_next_input,
};

void pm_filtered__release(struct pm_filtered *fa)
{
	pm_filter__delete(fa->filter);
	fa->filter = NULL;
}
