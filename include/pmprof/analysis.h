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
	/* Another recording follows (a fleet, pm_analysis__run_inputs):
	 * forget what belongs to the one before (counter ids and their last
	 * values), keep the sums. NULL: the analysis takes one recording. */
	int (*next_input)(void *x, struct pm_session *s, struct pm_error *err);
};

/* Feed the whole recording to x (time order, see pm_session__run), then
 * finish it into *out. 0, or the first negative code with err filled. */
int pm_analysis__run(const struct pm_analysis *a, void *x,
		     struct pm_session *s, struct pm_report **out,
		     struct pm_error *err);

/*
 * A fleet: the recordings of sessions s[0..n-1] (one per host, the same
 * events in the same order) fed in turn to one x, which adds them up;
 * a.next_input between two of them; then the finish (over s[0]). Each
 * session resolves its own samples (its build ids, its --symfs), and
 * all must live until this returns (the rows keep their symbols). 0, or
 * the first negative code with err filled and *failed the index of the
 * session it came from.
 */
int pm_analysis__run_inputs(const struct pm_analysis *a, void *x,
			    struct pm_session *const *s, size_t n,
			    struct pm_report **out, size_t *failed,
			    struct pm_error *err);

#endif
