/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sample and row filters with perf report's names and meanings:
 *
 *   dropped, as if never recorded (totals leave them out):
 *     -C/--cpu LIST     samples of other CPUs ("0-3,8")
 *     --time SPEC       samples outside the time ranges
 *     -U                samples whose own symbol is unresolved (and, with
 *                       --children, unresolved callers get no row)
 *   filtered, still in the totals unless percentages are relative:
 *     --pid, --tid LIST samples of other processes, threads
 *     --comm LIST       samples of other commands
 *     --dsos LIST       rows of other DSOs (short or long name)
 *     --symbols LIST    rows of other symbols
 *
 * --time takes perf's syntax: "START,STOP" in seconds with up to nine
 * decimals (either may be empty), several separated by spaces; or
 * percentages of the recording's first to last sample (the SAMPLE_TIME
 * feature): "10%/2" (the second tenth), "0%-10%,30%-40%", "25%" (the
 * first quarter).
 */
#ifndef PMPROF_FILTER_H
#define PMPROF_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/analysis.h"
#include "pmprof/session.h"

struct pm_error;

/* [start, end] in ns; 0 leaves that side open. */
struct pm_time_range {
	uint64_t start, end;
};

/*
 * perf's --time SPEC into *out (malloc()ed, *nr ranges); first and last
 * are the recording's first and last sample times (both 0: unknown, and
 * a percentage is then an error). -PM_EUSAGE with a message.
 */
int pm_time_ranges__parse(const char *spec, uint64_t first, uint64_t last,
			  struct pm_time_range **out, size_t *nr,
			  struct pm_error *err);
/* Outside every range? (A sample without a time is never.) */
bool pm_time_ranges__skip(const struct pm_time_range *r, size_t nr,
			  uint64_t time);

struct pm_filter_opts {
	size_t sz;		/* sizeof(struct pm_filter_opts); 0: this size */
	const char *cpus;	/* -C */
	const char *time;	/* --time */
	const char *pids, *tids;	/* --pid, --tid */
	const char *comms;	/* --comm */
	const char *dsos;	/* --dsos */
	const char *symbols;	/* --symbols */
	bool hide_unresolved;	/* -U */
};

struct pm_filter;

/*
 * A filter for a recording (first and last sample times for --time
 * percentages, as pm_time_ranges__parse()). NULL opts or all fields
 * unset: a filter that keeps everything. -PM_EUSAGE with a message that
 * names the option.
 */
int pm_filter__new(struct pm_filter **out, const struct pm_filter_opts *opts,
		   uint64_t first, uint64_t last, struct pm_error *err);
void pm_filter__delete(struct pm_filter *f);

/* Does the filter hide anything that still counts in totals (thread,
 * DSO or symbol filters)? */
bool pm_filter__filters_rows(const struct pm_filter *f);
/* Drop the sample (CPU, time, -U)? */
bool pm_filter__drop(const struct pm_filter *f, const struct pm_sample_ctx *ctx);
/* Is the thread one the thread filters keep? */
bool pm_filter__thread(const struct pm_filter *f, const struct pm_thread *t);
/* Is a row of this DSO and symbol one the row filters keep? */
bool pm_filter__row(const struct pm_filter *f, const struct pm_dso *dso,
		    const struct pm_symbol *sym);
/* -U: is this call chain entry to be left out? */
bool pm_filter__hides_entry(const struct pm_filter *f,
			    const struct pm_addr_loc *loc);

/*
 * An analysis behind the sample filters (-C, --time, -U, --pid, --tid,
 * --comm): the samples they leave out never reach inner (for analyses
 * without rows of their own to hide: metrics, profileme, mem; --dsos and
 * --symbols are the hotspot's). Run pm_filtered_analysis with a struct
 * pm_filtered as its x; pm_filtered__release() after.
 */
struct pm_filtered {
	const struct pm_analysis *inner;
	void *x;				/* inner's */
	const struct pm_filter_opts *opts;
	struct pm_filter *filter;		/* made at the first sample */
};

extern const struct pm_analysis pm_filtered_analysis;
void pm_filtered__release(struct pm_filtered *fa);

#endif
