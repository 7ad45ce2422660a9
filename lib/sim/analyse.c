// SPDX-License-Identifier: GPL-2.0
/*
 * The windows analysis of a recording, as `pmprof metrics` runs it, for
 * `pmprof sim --compare` and the accuracy study.
 */
#include "pmprof/analysis.h"
#include "pmprof/metrics.h"
#include "pmprof/report.h"
#include "pmprof/session.h"
#include "pmprof/sim.h"

int pm_sim__analyse(const char *path, int mode, struct pm_metrics **out,
		    struct pm_error *err)
{
	struct pm_metrics_opts mo = { .sz = sizeof(mo),
				      .mode = (enum pm_metrics_mode)mode };
	struct pm_session_opts so = { .sz = sizeof(so), .host = PM_HOST_NO };
	struct pm_report *rep = NULL;
	struct pm_session *s;
	struct pm_metrics *m;
	int ret;

	*out = NULL;
	ret = pm_session__open(&s, path, &so, err);
	if (ret)
		return ret;
	m = pm_metrics__new(&mo);
	/* Finishing prepares every count while the session's events exist:
	 * the result outlives the session. */
	ret = pm_analysis__run(&pm_metrics_analysis, m, s, &rep, err);
	pm_report__delete(rep);
	pm_session__delete(s);
	if (ret) {
		pm_metrics__delete(m);
		return ret;
	}
	*out = m;
	return 0;
}
