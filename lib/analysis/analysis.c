// SPDX-License-Identifier: GPL-2.0
/* The driver of every analysis: a recording through a session into a report. */
#include "pmprof/analysis.h"

struct run {
	const struct pm_analysis *a;
	void *x;
	struct pm_error *err;
};

static int on_sample(struct pm_session *s, const struct pm_sample_ctx *ctx,
		     void *arg)
{
	struct run *run = arg;

	return run->a->sample(run->x, s, ctx, run->err);
}

static int on_record(struct pm_session *s, const struct pm_record *rec,
		     void *arg)
{
	struct run *run = arg;

	return run->a->record(run->x, s, rec, run->err);
}

static int feed(const struct pm_analysis *a, void *x, struct pm_session *s,
		struct pm_error *err)
{
	struct run run = { a, x, err };
	int ret = pm_session__run(s, a->sample ? on_sample : NULL,
				  a->record ? on_record : NULL, &run, err);

	return ret > 0 ? 0 : ret;	/* a callback's stop without a code: not ours */
}

int pm_analysis__run_inputs(const struct pm_analysis *a, void *x,
			    struct pm_session *const *s, size_t n,
			    struct pm_report **out, size_t *failed,
			    struct pm_error *err)
{
	int ret;

	*out = NULL;
	*failed = 0;
	if (n > 1 && !a->next_input)
		return pm_error__fmt(err, PM_EUSAGE, "%s takes one recording", a->name);
	for (size_t i = 0; i < n; i++) {
		*failed = i;
		if (i && (ret = a->next_input(x, s[i], err)))
			return ret;
		if ((ret = feed(a, x, s[i], err)))
			return ret;
	}
	*failed = 0;
	return a->finish(x, s[0], out, err);
}

int pm_analysis__run(const struct pm_analysis *a, void *x,
		     struct pm_session *s, struct pm_report **out,
		     struct pm_error *err)
{
	struct run run = { a, x, err };
	int ret;

	*out = NULL;
	ret = pm_session__run(s, a->sample ? on_sample : NULL,
			      a->record ? on_record : NULL, &run, err);
	if (ret > 0)	/* a callback's stop without a code: not ours */
		ret = 0;
	if (ret < 0)
		return ret;
	return a->finish(x, s, out, err);
}
