/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one shape of every analysis (hotspot, metrics, profileme, mem):
 *
 *	x = pm_X__new(&opts);			options, nothing read yet
 *	pm_X__add(x, ...);			every sample (and record) in turn
 *	pm_X__finish(x, ..., &report);		a report: pmprof/report.h
 *	pm_X__delete(x);
 *
 * An analysis prints nothing and writes no JSON: its report is rendered
 * into any format by lib/table. struct pm_analysis is that shape over a
 * session, so that one driver runs any analysis on a recording:
 *
 *	struct pm_report *rep;
 *
 *	if (pm_analysis__run(&pm_hotspot_analysis, h, session, &rep, &err))
 *		... err says what went wrong, and at which offset ...
 */
#ifndef PMPROF_ANALYSIS_H
#define PMPROF_ANALYSIS_H

#include "pmprof/error.h"
#include "pmprof/session.h"

struct pm_report;

struct pm_analysis {
	const char *name;
	/* A SAMPLE with its context: 0, or a negative code (err filled). */
	int (*sample)(void *x, struct pm_session *s,
		      const struct pm_sample_ctx *ctx, struct pm_error *err);
	/* Any other record, after the session applied it; NULL: none needed. */
	int (*record)(void *x, struct pm_session *s, const struct pm_record *rec,
		      struct pm_error *err);
	/* The end: the report (the caller's to pm_report__delete()). */
	int (*finish)(void *x, struct pm_session *s, struct pm_report **out,
		      struct pm_error *err);
};

/* Feed the whole recording to x (time order, see pm_session__run), then
 * finish it into *out. 0, or the first negative code with err filled. */
int pm_analysis__run(const struct pm_analysis *a, void *x,
		     struct pm_session *s, struct pm_report **out,
		     struct pm_error *err);

#endif
