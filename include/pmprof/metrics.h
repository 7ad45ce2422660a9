/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-function metrics from sample windows (`pmprof metrics`).
 *
 * A counter group sampled by one of its events with PERF_SAMPLE_READ (and
 * PERF_FORMAT_GROUP) carries the cumulative count of every member in each
 * sample. A *window* is the difference of those values between two
 * consecutive samples of one *stream* (one counter instance); it is charged
 * to the function of the sample that closes it.
 *
 *	struct pm_metrics *m = pm_metrics__new(&opts);
 *	pm_metrics__add_reader_events(m, reader);	(or pm_metrics__add_event)
 *	for each record:
 *		SAMPLE:   pm_metrics__sample(m, &sample, &loc, err);
 *		THROTTLE, UNTHROTTLE, LOST: pm_metrics__record(m, reader, &rec, err);
 *	pm_metrics__finish(m, &report);
 *
 * Over a session, pm_metrics_analysis does all of this (pmprof/analysis.h).
 *
 * The rules, exactly:
 *
 * Groups. With GROUP_DESC (or events added with leader_idx/nr_members
 * that say so) a group is the described one, counted when any member
 * samples with READ. Without it, an event with READ and read_format GROUP
 * is in the group its first sample reads: the events whose ids the read
 * values carry, leader first (without FORMAT_ID such a read may hold only
 * the event's own value); an event with READ but no FORMAT_GROUP is a
 * group of its own. Every read must fit its group: a value whose id is
 * unknown or belongs to an event of another group, or more values than
 * the group has, is an error (pm_metrics__sample() < 0), never a guess.
 *
 * Streams. A stream is one counter instance: samples with the same
 * sampling id (PERF_SAMPLE_ID/IDENTIFIER, else the first read value's id,
 * else the event) and, for per-task events, the same tid; for per-CPU
 * events the id alone. An id is per-CPU when ID_INDEX gives it tid -1,
 * per-task when ID_INDEX gives a tid; without an ID_INDEX entry an id is
 * per-task when its event has `inherit` set and samples TID (inherited
 * children share their parent's id), else one stream per id.
 *
 * Windows. A window is the difference of the group values between two
 * consecutive samples of a stream, in stream order. Read values are
 * matched to events by id (read_format ID) or else by position (leader,
 * then members in order). A member missing from either sample, or whose
 * value went down, counts 0; zero deltas count 0.
 *
 * Opening samples close no window and only mark where the next one starts:
 *  - a stream's first sample;
 *  - in recordings with short windows, long samples: the sampling event's
 *    delta exceeds the threshold (long + short) / 2, or PERF_SAMPLE_PERIOD
 *    reports a period above it;
 *  - the first sample of a stream after an UNTHROTTLE or a LOST record for
 *    its id (a member's id counts for its group's sampling event at the
 *    same position in the id arrays; LOST_SAMPLES uses its trailer's id).
 * Every other sample closes the window that starts at the stream's
 * previous sample.
 *
 * Short windows. An event has short windows when its attr (size 144)
 * has hf_sample_period S: long = sample_period - S, short = S, threshold
 * sample_period / 2. pmprof's own burst recordings (and any recorder that
 * follows this convention) say so in the event's name (EVENT_DESC):
 * a `hf-period=S` term inside the `pmu/.../` or `event/.../` terms, e.g.
 * "cycles/period=1000000,hf-period=300,hf-burst=4/"; the long period is
 * then sample_period - S as with the kernel ABI. A recorder restarting
 * stopped events (end of a burst gap, emulation) writes an UNTHROTTLE
 * record with the sampling event's id, which makes the next sample an
 * opening one. In frequency mode (attr.freq) the long period is not
 * known in advance and the threshold is 2 * S.
 *
 * Modes. `discard` (the default when any sampling event has short
 * windows): a window counts only if its opening and closing samples are in
 * the same DSO and symbol (the same DSO when both symbols are unknown);
 * else it is discarded. `none` (the default otherwise) charges every
 * window to the closing sample's function. Match `callchain` also
 * requires the same caller.
 *
 * Per function: `samples` = windows closing in it (kept + discarded),
 * `discarded`, and each event's sum over the kept windows.
 *
 * Confidence intervals (opts.ci): every metric is a ratio of two sums over
 * windows, R = sum(y) / sum(x). Its 95% interval is R +- 1.96 * SE with the
 * ratio estimator's delta-method (Taylor linearisation) standard error
 *	SE^2 = sum((y_i - R x_i)^2) / (n (n - 1) xbar^2)
 * over the n kept windows of the function (for shares, over every kept
 * window of the group, y_i being the window's count when it belongs to the
 * function and 0 otherwise, x_i its count), widened to the Poisson
 * (Jeffreys) interval of sum(y) events (over sum(x)) when that reaches
 * farther: a
 * rare event's windows have too little spread for the delta method (none
 * at all when no window saw one). The interval is symmetric about R, its
 * lower end no less than 0. Top-down formulas: the delta method over
 * each group they read (metrics-topdown.c). No interval when n < 2 or
 * sum(x) is 0.
 */
#ifndef PMPROF_METRICS_H
#define PMPROF_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/analysis.h"
#include "pmprof/error.h"
#include "pmprof/perfdata.h"

struct pm_report;

enum pm_metrics_mode {
	PM_METRICS_AUTO = 0,	/* discard with short windows, else none */
	PM_METRICS_NONE,
	PM_METRICS_DISCARD,
};

enum pm_metrics_match {
	PM_METRICS_MATCH_SYM = 0,
	PM_METRICS_MATCH_CALLCHAIN,
};

/* "none"/"discard", "sym"/"callchain"; -1 if unknown. */
int pm_metrics_mode__parse(const char *s, enum pm_metrics_mode *out);
int pm_metrics_match__parse(const char *s, enum pm_metrics_match *out);
const char *pm_metrics_mode__name(enum pm_metrics_mode m);

enum pm_metrics_layout {
	PM_METRICS_LAYOUT_TEXT,	/* Symbol DSO # DIS% CPI IPC BMKI CMKI %CM %RI
				   %CY %I %BM %L1DA %L1DM %IS, other events */
	PM_METRICS_LAYOUT_ARM,	/* Arm's TSV order: Symbol # CPI BMKI CMKI %CM
				   %CY %I %BM %L1DA %L1DM DIS%, then the rest */
};

/*
 * One closed window, as the observer (pm_metrics_opts.window) sees it
 * right after pm_metrics__sample() kept or discarded it: the members of
 * the sampling event's group (event indices, in the order the events
 * were added: pm_event.idx for pm_metrics__add_reader_events) and their
 * counts in the window. Valid during the call only.
 */
struct pm_metrics_window {
	bool kept;
	size_t nr;
	const int *events;
	const uint64_t *delta;
};

typedef void (*pm_metrics_window_fn)(void *arg,
				     const struct pm_metrics_window *w);

struct pm_metrics_opts {
	size_t sz;		/* sizeof(struct pm_metrics_opts); 0: this size */
	enum pm_metrics_mode mode;
	enum pm_metrics_match match;
	bool ci;		/* accumulate what the intervals need */
	const char *arch;	/* ARCH feature, for raw PMU codes; may be NULL */
	enum pm_metrics_layout layout;	/* the table's column order */
	bool need_reads;	/* pm_metrics_analysis: a recording without
				   PERF_SAMPLE_READ is an error */
	double slots;		/* top-down slots per cycle; 0: the recording's
				   (PMU_CAPS slots, or an AMD CPUID's width) */
	/* Which functions the report shows, in what order: */
	const char *sort;	/* a metric (pm_metrics__find_metric), by
				   value, greatest first; NULL: by samples */
	double percent_limit;	/* leave out functions with less than this %
				   of the samples */
	uint64_t min_windows;	/* ... or fewer kept windows than this */
	uint64_t top;		/* only the first this many (0: all), so
				   that the notes speak of the rows shown */
	/* Told of every window the sample being added closes (annotate
	 * charges it to that sample's instruction); NULL: nobody. */
	pm_metrics_window_fn window;
	void *window_arg;
	/* pm_metrics_analysis: the "stacks" table (pmprof/stacks.h) and the
	 * profile_* tables (pmprof/profile.h) of the kept windows: a window
	 * is a sample of its closing sample's call stack, of its sampling
	 * group's first member's count (Period), each member's count in
	 * that member's column */
	bool stacks;
	bool profile;
};

/* A metric from fewer windows than this is marked in text ("4.07?"):
 * too few to read as more than a rough value. */
#define PM_METRICS_FEW_WINDOWS 30

/*
 * Where a sample is, as the caller resolved it. Identity is by pointer:
 * two samples are in the same function when dso and sym are equal, and
 * have the same caller when caller is equal. NULL means unknown. The
 * names are copied the first time a function is seen (NULL names print as
 * "[unknown]").
 */
struct pm_metrics_loc {
	const void *dso;
	const void *sym;
	const void *caller;
	const char *dso_name;
	const char *sym_name;
};

enum pm_metrics_scope {
	PM_METRICS_SCOPE_AUTO = 0,	/* inherit + TID: per task, else per id */
	PM_METRICS_SCOPE_TASK,		/* stream = id + tid */
	PM_METRICS_SCOPE_CPU,		/* stream = id */
};

/* Roles of events that the named metrics use. */
enum pm_metrics_role {
	PM_ROLE_NONE = -1,
	PM_ROLE_CYCLES = 0,	/* %CY */
	PM_ROLE_INSTR,		/* %I */
	PM_ROLE_BRANCH_MISS,	/* %BM */
	PM_ROLE_L1D_ACCESS,	/* %L1DA: cache-references, Arm 0x04 */
	PM_ROLE_L1D_MISS,	/* %L1DM: cache-misses, Arm 0x03 */
	PM_ROLE_INSTR_SPEC,	/* %IS: speculated instructions, Arm 0x1b */
	PM_ROLE__SHARED,	/* the roles above have named shares */
	/* what misses are counted against: BM%, L1IM% ... */
	PM_ROLE_BRANCH = PM_ROLE__SHARED,	/* branch-instructions, br_retired */
	PM_ROLE_L1I_ACCESS, PM_ROLE_L1I_MISS,	/* l1i_cache(_refill), L1-icache-* */
	PM_ROLE_L2D_ACCESS, PM_ROLE_L2D_MISS,	/* l2d_cache(_refill) */
	PM_ROLE_LLC_ACCESS, PM_ROLE_LLC_MISS,	/* ll_cache_(miss_)rd, LLC-loads(-misses) */
	PM_ROLE_DTLB_ACCESS, PM_ROLE_DTLB_MISS,	/* l1d_tlb(_refill), dTLB-loads(-misses) */
	PM_ROLE_ITLB_ACCESS, PM_ROLE_ITLB_MISS,	/* l1i_tlb(_refill), iTLB-loads(-misses) */
	/* top-down: slots (pmprof/metrics.h's Top-down below) */
	PM_ROLE_SLOTS,		/* Intel's slots */
	PM_ROLE_TD_FRONTEND,	/* stall_slot_frontend, topdown-fe-bound,
				   de_no_dispatch_per_slot.no_ops_from_frontend */
	PM_ROLE_TD_BACKEND,	/* stall_slot_backend, topdown-be-bound,
				   de_no_dispatch_per_slot.backend_stalls */
	PM_ROLE_TD_STALL,	/* stall_slot */
	PM_ROLE_TD_ISSUED,	/* op_spec, de_src_op_disp.all */
	PM_ROLE_TD_RETIRED,	/* op_retired, topdown-retiring, ex_ret_ops */
	PM_ROLE_TD_BAD_SPEC,	/* topdown-bad-spec */
	PM_ROLE_TD_SMT,		/* de_no_dispatch_per_slot.smt_contention */
	PM_ROLE_STALL_FE_CYCLES,	/* stall_frontend */
	PM_ROLE_STALL_BE_CYCLES,	/* stall_backend */
	PM_ROLE__NR,
};

/*
 * The role of an event: from its name ("cycles", "cpu_cycles",
 * "armv8_pmuv3_0/inst_retired/", "instructions:u", ...), else from a
 * generic hardware or cache config, else from a raw code of the
 * recording's architecture (pmprof/pmu_events.h; Arm when arch is NULL).
 */
enum pm_metrics_role pm_metrics__role(const struct pm_attr *attr,
				      const char *name, const char *arch);

/* The short-window period an event declares (0: none), see above. */
uint64_t pm_metrics__short_period(const struct pm_attr *attr,
				  const char *name);

struct pm_metrics;

struct pm_metrics *pm_metrics__new(const struct pm_metrics_opts *opts);
void pm_metrics__delete(struct pm_metrics *m);

/*
 * Add the recording's events, in index order, before any sample. `events`
 * gives each event's group through leader_idx/nr_members. What the
 * accumulator needs is copied; a sample's `event` pointer is matched
 * against the added ones, so they must stay valid while samples are
 * added, not after.
 */
int pm_metrics__add_event(struct pm_metrics *m, const struct pm_event *ev,
			  struct pm_error *err);
/* Scope of one id (default: AUTO). */
void pm_metrics__set_id_scope(struct pm_metrics *m, uint64_t id,
			      enum pm_metrics_scope scope);
/* Every event of a reader, with scopes from ID_INDEX and arch. */
/*
 * Another recording of a fleet follows (the same events, in the same
 * order): its events' ids replace the last one's, its streams start
 * afresh (no window spans two files), the sums go on; functions are
 * told apart by their names from now on (pm_metrics_loc's names), so a
 * function of several hosts is one. 0, or -PM_EUSAGE for other events.
 */
int pm_metrics__next_input(struct pm_metrics *m, struct pm_reader *r,
			   struct pm_error *err);

int pm_metrics__add_reader_events(struct pm_metrics *m, struct pm_reader *r,
				  struct pm_error *err);

/* Events added that sample with PERF_SAMPLE_READ: 0 means the
 * recording has no windows at all. */
size_t pm_metrics__nr_readers(const struct pm_metrics *m);

/* One SAMPLE. Samples without PERF_SAMPLE_READ, or of unknown events,
 * are counted as ignored. < 0 with err set for a read that does not fit
 * the event's group (see Groups); the caller adds the record's offset. */
int pm_metrics__sample(struct pm_metrics *m, const struct pm_sample *s,
		       const struct pm_metrics_loc *loc, struct pm_error *err);
/* Stops: THROTTLE (counted), UNTHROTTLE and LOST (restart the id's
 * streams). misc is the record's: PM_MISC_PMPROF_STOP marks pmprof
 * record's burst gaps, counted apart from the kernel's throttling. */
void pm_metrics__throttle(struct pm_metrics *m, uint64_t id, uint16_t misc);
void pm_metrics__unthrottle(struct pm_metrics *m, uint64_t id, uint16_t misc);
void pm_metrics__lost(struct pm_metrics *m, uint64_t id, uint64_t nr_lost);
/* THROTTLE, UNTHROTTLE, LOST, LOST_SAMPLES and ID_INDEX records (the
 * scopes of ids); others ignored. */
int pm_metrics__record(struct pm_metrics *m, struct pm_reader *r,
		       const struct pm_record *rec, struct pm_error *err);

struct pm_metrics_summary {
	enum pm_metrics_mode mode;	/* the one in effect */
	bool short_windows;		/* the recording has them */
	uint64_t windows;		/* closing samples: kept + discarded */
	uint64_t kept, discarded;
	uint64_t opening;		/* opening samples */
	uint64_t throttles, unthrottles;	/* the kernel's */
	uint64_t burst_stops, burst_restarts;	/* pmprof record's burst gaps */
	uint64_t lost_records, lost_samples;
	uint64_t ignored;		/* samples without counter reads */
};

const struct pm_metrics_summary *pm_metrics__summary(struct pm_metrics *m);

/*
 * A group's counting time, from reads with TOTAL_TIME_ENABLED and
 * TOTAL_TIME_RUNNING (pmprof record --metrics asks for them): the sums of
 * each stream's increments between consecutive samples. running below
 * enabled: the kernel multiplexed the group with others (too few
 * counters), its counts are samples of the time it ran.
 */
struct pm_metrics_group {
	const char *leader;		/* its first event's name */
	size_t nr_events;
	bool timed;			/* its reads carry the times */
	uint64_t enabled, running;	/* ns */
};

size_t pm_metrics__nr_groups(const struct pm_metrics *m);
int pm_metrics__group(const struct pm_metrics *m, size_t i,
		      struct pm_metrics_group *out);

/* The counters (events that are read in some group), in event order.
 * Read the results (these and what follows) once the samples are in: a
 * group learnt from a later sample adds counters. */
size_t pm_metrics__nr_counters(const struct pm_metrics *m);
const char *pm_metrics__counter_name(const struct pm_metrics *m, size_t c);
/* The counter's event (its index as added), or -1. */
int pm_metrics__counter_event(const struct pm_metrics *m, size_t c);

struct pm_metrics_func {
	const char *dso_name;		/* "[unknown]" when unknown */
	const char *sym_name;
	uint64_t samples, discarded;
	const uint64_t *sums;		/* nr_counters sums over kept windows */
	uint64_t kept;			/* kept windows */
};

size_t pm_metrics__nr_funcs(const struct pm_metrics *m);
const struct pm_metrics_func *pm_metrics__func(const struct pm_metrics *m,
					       size_t i);
/* By names (NULL: unknown); NULL if absent. */
const struct pm_metrics_func *pm_metrics__find(const struct pm_metrics *m,
					       const char *dso,
					       const char *sym);

/*
 * The metrics of a function, by name ("CPI", "%CY", "page-faults/KI",
 * "%page-faults", ...): 0 and *value set, with *lo and *hi (may be NULL)
 * the 95% interval (NaN when there is none or opts.ci was off); -ENOENT
 * when the metric does not exist in this recording, -EDOM when its
 * denominator is 0.
 */
int pm_metrics__metric(const struct pm_metrics *m, size_t func,
		       const char *name, double *value, double *lo,
		       double *hi);
/* How the top-down columns were made ("top-down: Arm's, 5 slots per
 * cycle (PMU_CAPS)"), or why a recording with top-down events has none;
 * "" when it has no top-down events. */
const char *pm_metrics__topdown_note(const struct pm_metrics *m);
/* A ratio metric's definition: scale x sum(num) / sum(den) over a
 * function's windows, num and den counter indices. -ENOENT, or -EINVAL
 * for a share or a formula (no one denominator). */
int pm_metrics__metric_ratio(const struct pm_metrics *m, const char *name,
			     size_t *num, size_t *den, double *scale);
/* The metrics this recording has, in column order. */
size_t pm_metrics__nr_metrics(const struct pm_metrics *m);
const char *pm_metrics__metric_name(const struct pm_metrics *m, size_t i);
/* The metric of that name, in any case ("cpi"), or "#" / "samples" for
 * the samples: its index, nr_metrics for the samples, or -1. */
int pm_metrics__find_metric(const struct pm_metrics *m, const char *name);
/* The kept windows of a function a metric comes from (for a formula, the
 * fewest of the groups it reads); 0 when it does not exist. */
uint64_t pm_metrics__metric_windows(const struct pm_metrics *m, size_t func,
				    const char *name);
/* The functions opts.percent_limit and opts.min_windows leave out. */
size_t pm_metrics__nr_left_out(const struct pm_metrics *m);

/*
 * The report: the summary (mode, short_windows, windows, opening,
 * samples, discarded, kept, throttles, burst_stops, lost, lost_samples,
 * topdown, software_only, events: the counters' names), the table
 * "functions" and the table "groups" (JSON only: leader, events and, with
 * times in the reads, enabled_ns and running_ns).
 *
 * "functions" is sorted by samples (descending; ties by symbol, DSO) or
 * by opts.sort, without the functions opts.percent_limit and min_windows
 * leave out, in opts.layout's column order; with opts.ci each metric is
 * followed by its "±NAME" half-width column (key "NAME:ci"). A metric
 * from fewer than PM_METRICS_FEW_WINDOWS windows has the mark '?'
 * (pmprof/table-fit.h). Its title and comments are the summary lines.
 * JSON rows: dso, symbol, samples, discarded, "counts": {counter: sum},
 * "metrics": {name: value or null}, "few_windows": {name: true} for the
 * marked ones and, with opts.ci, "ci95": {name: [lo, hi] or null}.
 */
int pm_metrics__finish(struct pm_metrics *m, struct pm_report **out);

/*
 * Over a session: events added once the reader knows them all (a pipe's
 * HEADER_ATTR records come before any sample), samples resolved to their
 * function (and caller, for match callchain), THROTTLE, UNTHROTTLE, LOST,
 * LOST_SAMPLES and ID_INDEX applied.
 */
extern const struct pm_analysis pm_metrics_analysis;

/* The summary line, the first of the table's comments (no newline). */
void pm_metrics__summary_line(struct pm_metrics *m, char *buf, size_t size);
/* What a recording of software events only can and cannot tell. */
#define PM_METRICS_SOFTWARE_NOTE \
	"software events only (no hardware PMU where this was recorded): the shares of cpu-clock and task-clock are pmprof report's profile; CPI, branch, cache and top-down metrics need a PMU (pmprof sim models one)"
/* How long the groups counted of their enabled time (multiplexing); ""
 * when the reads carry no times. */
void pm_metrics__groups_line(struct pm_metrics *m, char *buf, size_t size);

#endif
