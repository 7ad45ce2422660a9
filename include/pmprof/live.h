/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live profile (`pmprof top`): samples of a recording in progress, cut
 * into intervals. Each interval is one run of an analysis that exists for
 * whole recordings, the hotspot profile (hotspot.h) or the per-function
 * metrics of short windows (metrics.h), fed the interval's samples and
 * records and finished into its table when the interval ends:
 *
 *	l = pm_live__new(&opts);
 *	while (recording) {
 *		...each record through the session, then:
 *		pm_live__sample(l, s, ctx, &err);	a SAMPLE
 *		pm_live__record(l, s, &rec, &err);	any other record
 *		...every -d seconds:
 *		pm_live__tick(l, s, &err);		the interval's table
 *		view = pm_live__view(l, &v);		sorted, filtered copy
 *	}
 *
 * Intervals reset, as `perf top -z` (--zero) does, rather than decay as
 * perf top's default does (each entry's period times 7/8 per refresh): a
 * row is the last interval's samples exactly, its Overhead the share of
 * that interval, and a metrics row the ratios of that interval's windows,
 * which decaying sums would mix across intervals with weights no metric
 * defines. Windows are cut at the interval's end: a window whose opening
 * sample came in the previous interval is not measured (with short
 * windows, as `--metrics` records them, windows open at each burst, so
 * this loses at most one window per burst in progress).
 *
 * No terminal and no threads here: the caller decides when an interval
 * ends and serialises calls.
 */
#ifndef PMPROF_LIVE_H
#define PMPROF_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/error.h"
#include "pmprof/session.h"

struct pm_table;
struct pm_live_view;

struct pm_live_opts {
	size_t sz;		/* sizeof(struct pm_live_opts); 0: this size */
	bool metrics;		/* per-function metrics, else the hotspot profile */
};

struct pm_live;

struct pm_live *pm_live__new(const struct pm_live_opts *opts);
void pm_live__delete(struct pm_live *l);

/* One SAMPLE with its context: 0, or a negative code with err filled
 * (a counter read that does not fit its group, in metrics). */
int pm_live__sample(struct pm_live *l, struct pm_session *s,
		    const struct pm_sample_ctx *ctx, struct pm_error *err);
/* Any other record, after the session applied it. */
int pm_live__record(struct pm_live *l, struct pm_session *s,
		    const struct pm_record *rec, struct pm_error *err);

/*
 * End the interval: finish its analysis into the table pm_live__view()
 * shows, and begin the next with nothing in it. 0, or a negative code
 * (a metrics recording without counter reads: err says how to record one).
 */
int pm_live__tick(struct pm_live *l, struct pm_session *s, struct pm_error *err);

/* What the last finished interval holds. */
struct pm_live_stats {
	uint64_t intervals;	/* ticks so far */
	uint64_t samples;	/* samples in the last interval (of the
				   viewed event, when there are several) */
	uint64_t total;		/* samples in the intervals so far */
	size_t nr_events;	/* tables: one per event (hotspot), or 1 */
	size_t view_event;	/* the one the view shows */
	const char *event;	/* its event (hotspot), or NULL */
};

/* The stats, with the event of the table v shows (v NULL: the first). */
void pm_live__stats(const struct pm_live *l, const struct pm_live_view *v,
		    struct pm_live_stats *st);

/* How to show the last interval. */
struct pm_live_view {
	int sort;		/* a column index; -1: the analysis's order
				   (period, or samples for metrics) */
	const char *filter;	/* rows whose Symbol holds this; NULL/"": all */
	size_t top;		/* at most this many rows; 0: all */
	size_t event;		/* which event's table (hotspot: one per
				   event, in the recording's order); past
				   the last: the last */
};

/*
 * The last interval's table as the view asks, a new table for the caller
 * to pm_table__delete(): sorted (stable) by the column, numbers largest
 * first, text in byte order, filtered, cut. NULL before the first interval
 * that had a table (no samples yet).
 */
struct pm_table *pm_live__view(const struct pm_live *l,
			       const struct pm_live_view *v);

/* The columns one can sort by (those of the last table): their number,
 * and each one's name; 0 / NULL before the first table. */
size_t pm_live__nr_columns(const struct pm_live *l);
const char *pm_live__column_name(const struct pm_live *l, size_t col);

#endif
