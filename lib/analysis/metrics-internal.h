/* SPDX-License-Identifier: GPL-2.0 */
/* The windows accumulator's state, shared by its accumulate and output halves. */
#ifndef PMPROF_METRICS_INTERNAL_H
#define PMPROF_METRICS_INTERNAL_H

#include <stdint.h>

#include "pmprof/hash.h"
#include "pmprof/metrics.h"
#include "pmprof/profile.h"
#include "pmprof/session.h"
#include "pmprof/stacks.h"

/*
 * An event as the accumulator keeps it: copies of what it needs, since the
 * results may be read after the reader (and its events) are gone.
 */
struct mx_event {
	const struct pm_event *ev;	/* identity only: samples point at it */
	struct pm_attr attr;
	char *name;			/* NULL: derived from attr */
	uint64_t *ids;
	uint32_t nr_ids;
	int idx, leader_idx, nr_members;
	int group;		/* -1: not a counter (yet) */
	int pos;		/* position in its group */
	int counter;		/* index among the counters, once laid out */
	bool pending;		/* its group is learnt from its reads */
	uint64_t short_period;	/* 0: no short windows */
	uint64_t threshold;	/* long sample above this */
};

struct mx_group {
	int leader;		/* event index */
	size_t nr;
	int *member;		/* nr event indices, by position */
	uint64_t *cache_id;	/* the last sample's read ids, by value index, */
	int *cache_pos;		/* and the positions they went to (-1: none) */
	uint64_t kept;		/* kept windows over every function */
	double *sq;		/* nr: sum of squared counts over them */
	bool timed;		/* reads with the enabled and running times */
	uint64_t enabled, running;	/* their increments, summed */
};

struct mx_counter {
	int event;
	int group, pos;
	char *name;		/* unique among counters */
	enum pm_metrics_role role;
};

struct mx_id {
	uint64_t id;
	int event;		/* -1: unknown to the events */
	uint32_t k;		/* position in the event's ids */
	enum pm_metrics_scope scope;
	uint32_t epoch;		/* bumped by UNTHROTTLE and LOST */
};

struct mx_stream {
	uint64_t id;
	uint32_t tid;		/* UINT32_MAX for per-id streams */
	uint32_t epoch;
	int group;
	bool started;
	const void *dso, *sym, *caller;	/* the previous sample's */
	size_t vals;		/* offset of nr values in m->vals */
	bool timed;		/* the previous sample had the times */
	uint64_t enabled, running;	/* and these */
};

/* Per function and group: its kept windows, and what the intervals
 * need (with opts.ci). */
struct mx_fgroup {
	uint64_t n;
	double *gram;		/* nr x nr sums of products */
};

struct mx_func {
	struct pm_metrics_func pub;
	const void *dso, *sym;
	uint64_t *ev_sums;	/* nr_events + 1, by event index */
	uint64_t *sums;		/* nr_counters + 1, by counter (mx_finish) */
	struct mx_fgroup *fg;	/* nr_events + 1 (groups) */
};

struct mx_formula;

/* A named metric: scale * sum(num) / sum(den) over one group's windows,
 * or a share (den < 0): 100 * the function's sum(num) / the total, or a
 * formula over several counters (metrics-topdown.c). */
struct mx_metric {
	char *name;
	int num, den;		/* counter indices; den -1 for a share */
	double scale;
	int arm_rank;		/* column order in Arm's layout, or 100+ */
	struct mx_formula *formula;	/* NULL: num / den */
};

struct pm_metrics {
	struct pm_metrics_opts opts;
	char *arch;
	char *cpuid;		/* CPUID feature, or NULL */
	double slots;		/* PMU_CAPS slots per cycle; 0: unknown */
	char td_note[256];	/* how the top-down columns were made, or why
				   there are none */
	bool software_only;	/* every counter a software event */
	bool ready;
	bool reader_events;	/* metrics-view.c added the reader's events */
	bool described;		/* groups come from GROUP_DESC */
	size_t laid_out;	/* nr_groups when the counters were made, + 1 */
	bool sums_stale;	/* the counters' sums need copying out */

	struct mx_event *events;
	size_t nr_events, alloc_events;
	size_t nr_readers;	/* events with PERF_SAMPLE_READ */
	struct mx_group *groups;
	size_t nr_groups;
	struct mx_counter *counters;
	size_t nr_counters;

	struct mx_id *ids;
	size_t nr_ids, alloc_ids;
	struct pm_hash id_index;

	struct mx_stream *streams;
	size_t nr_streams, alloc_streams;
	struct pm_hash stream_index;
	uint64_t *vals;		/* every stream's previous values */
	uint8_t *have;		/* and whether each was present */
	size_t nr_vals, alloc_vals, alloc_have;
	size_t last_stream;	/* + 1; a one-entry cache */
	size_t last_id;		/* + 1; a one-entry cache of find_id */

	struct mx_func **funcs;
	size_t nr_funcs, alloc_funcs;
	struct pm_hash func_index;
	size_t last_func;	/* + 1 */

	uint64_t *ev_totals;	/* nr_events + 1 sums over every kept window */
	uint64_t *totals;	/* the same by counter (mx_finish) */
	struct mx_metric *metrics;
	size_t nr_metrics;

	uint64_t *cur;		/* scratch: this sample's values */
	uint8_t *cur_have;
	uint64_t *delta;
	size_t scratch;

	struct pm_metrics_summary sum;

	/* metrics-view.c: the kept windows' stacks (opts.stacks, .profile),
	 * told by its own observer, which then tells the caller's */
	struct pm_stacks *stacks;
	struct pm_profile *profile;
	struct pm_session *view_session;
	pm_metrics_window_fn user_window;
	void *user_window_arg;

	/* metrics-fleet.c: several recordings, functions by their names */
	bool fleet;
	char **fleet_names;		/* interned names, their pointers the keys */
	size_t nr_fleet_names, alloc_fleet_names;
	struct pm_hash fleet_index;
	const void *fleet_last_dso, *fleet_last_sym;	/* the session's, */
	const void *fleet_dso, *fleet_sym;		/* and their names' */
};

/* metrics-fleet.c: a fleet's function identity by names (loc's pointers
 * made the names'), the interned names freed; metrics.c: the function
 * index made again after their identities changed. */
void mx_fleet_loc(struct pm_metrics *m, struct pm_metrics_loc *loc);
void mx_fleet_release(struct pm_metrics *m);
void mx_rekey_funcs(struct pm_metrics *m);

/* The view's window observer (metrics-view.c). */
void mx_view_window(void *arg, const struct pm_metrics_window *w);

/* Groups known from the events, once every event is added. */
void mx_prepare(struct pm_metrics *m);
/* The counters, the named metrics and the sums by counter, for output. */
void mx_finish(struct pm_metrics *m);

struct mx_id *mx_find_id(struct pm_metrics *m, uint64_t id, bool create);

/* metrics-groups.c: which events make a group, and checks of the reads */
void mx_setup_groups(struct pm_metrics *m);
int mx_infer_group(struct pm_metrics *m, const struct pm_sample *s, int ei,
		   struct pm_error *err);
/* The group's enabled and running time since the stream's last sample
 * (multiplexing): with TOTAL_TIME_ENABLED and _RUNNING in read_format. */
void mx_count_time(struct pm_metrics *m, struct mx_stream *st,
		   const struct pm_sample *s, const struct pm_attr *a);
int mx_bad_read(const struct pm_metrics *m, const struct mx_event *e,
		uint64_t vid, const struct mx_id *id, struct pm_error *err);
int mx_bad_count(const struct pm_metrics *m, const struct mx_event *e,
		 uint64_t nr, struct pm_error *err);
/* metrics-named.c, metrics-topdown.c: the named metrics */
void mx_build_metrics(struct pm_metrics *m);
int mx_role_in_group(const struct pm_metrics *m, int g,
		     enum pm_metrics_role role);
struct mx_metric *mx_add_metric(struct pm_metrics *m, const char *name,
				int num, int den, double scale, int arm_rank);
void mx_add_topdown(struct pm_metrics *m);
/* The fewest windows the function has in a group the formula reads. */
uint64_t mx_formula_windows(const struct pm_metrics *m, const struct mx_func *f,
			    const struct mx_metric *x);
int mx_formula_value(const struct pm_metrics *m, const struct mx_func *f,
		     const struct mx_metric *x, double *value, double *half);
/* metrics-output.c, for the report (metrics-report.c): a metric's value
 * and half-width (NaN: none; -EDOM without a denominator), the windows it
 * comes from, the functions shown in order (top 0: all; the caller frees
 * the array), Arm's column order (qsort_r over metric indices). */
int mx_metric_at(const struct pm_metrics *m, const struct mx_func *f,
		 const struct mx_metric *x, double *value, double *half);
uint64_t mx_windows_of(const struct pm_metrics *m, const struct mx_func *f,
		       const struct mx_metric *x);
struct mx_func **mx_sorted(const struct pm_metrics *m, size_t top, size_t *nr);
int mx_cmp_arm(const void *pa, const void *pb, void *arg);
/* Free the counters and the named metrics (mx_finish makes them). */
void mx_drop_layout(struct pm_metrics *m);
/* The event's name for messages and counters. */
const char *mx_event_name(const struct mx_event *e, char *buf, size_t size);

#endif
