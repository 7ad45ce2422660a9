/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hotspot profile (what `perf report` shows): samples grouped by sort
 * keys, per event, with their share of the event's period. An accumulator
 * as every analysis is (pmprof/analysis.h): create it with options, add
 * every sample the session resolved, finish into a report with one table
 * per event (or per group, with opts.group).
 *
 * Periods follow perf's rules: a sample's period, or for events that
 * sample a read group (PERF_SAMPLE_READ, `{a,b}:S`), the growth of each
 * member's counter since that counter's previous sample, delivered to the
 * member's own event; zero growth delivers nothing.
 *
 * The sort keys are a table of descriptors (lib/analysis/hotspot-keys.c,
 * as perf's sort entries): each says how a sample's key is built, how two
 * rows compare, and which column it shows as. Adding a key is one entry.
 */
#ifndef PMPROF_HOTSPOT_H
#define PMPROF_HOTSPOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/analysis.h"
#include "pmprof/callgraph.h"
#include "pmprof/session.h"

struct pm_error;
struct pm_report;
struct pm_filter_opts;

enum pm_hot_key {
	PM_HOT_DSO,		/* "dso": Shared Object */
	PM_HOT_SYM,		/* "sym" (or "symbol"): Symbol */
	PM_HOT_COMM,		/* "comm": Command */
	PM_HOT_PID,		/* "pid": the process id */
	PM_HOT_TID,		/* "tid": the thread id */
	PM_HOT_CPU,		/* "cpu" */
	PM_HOT_PC,		/* "pc": the sampled address */
	PM_HOT_NR_KEYS,
};

#define PM_HOT_MAX_KEYS 8

/* "dso,sym" -> keys; -PM_EUSAGE with a message naming a bad key. */
int pm_hot_keys__parse(const char *spec, enum pm_hot_key *keys, size_t *nr,
		       struct pm_error *err);

/*
 * perf's -F: the columns the tabular formats show, named as perf names
 * them (overhead, overhead_children, sample, period, and the sort keys);
 * JSON keeps them all. parse: the sort keys it names that keys[0..*nr)
 * lacks appended, in order (perf's: -F's keys are sort keys too, after
 * --sort's); -PM_EUSAGE naming a bad field. has: is the
 * field (or a key by its alias) listed?
 */
int pm_hot_fields__parse(const char *spec, enum pm_hot_key *keys, size_t *nr,
			 struct pm_error *err);
bool pm_hot_fields__has(const char *spec, const char *word);

struct pm_hotspot_opts {
	size_t sz;			/* sizeof(struct pm_hotspot_opts); 0: this size */
	enum pm_hot_key keys[PM_HOT_MAX_KEYS];
	size_t nr_keys;			/* 0: dso,sym */
	bool children;			/* Children and Self from callchains */
	bool group;			/* one table per group, a column per member */
	double percent_limit;		/* leave out rows below this share */
	bool stacks;			/* the "stacks" table too (stacks.h) */
	bool profile;			/* the profile_* tables too (profile.h) */
	/* -g: the call-graph tree of each row's chains (cg.mode PM_CG_NONE,
	 * or no call chains in the recording: none); in callee order, or
	 * caller order when cg.order_set says so or, unset, with children */
	bool callgraph;
	struct pm_cg_opts cg;
	unsigned int max_stack;		/* chain entries used; 0: all */
	/* perf's filters (filter.h), made when the recording's first and
	 * last sample times are known (--time percentages); NULL: none */
	const struct pm_filter_opts *filter;
	bool relative;			/* --percentage relative: shares of
					   what the filters keep */
	const char *fields;		/* -F: what text, CSV, TSV, HTML show
					   (pm_hot_fields__parse()); NULL all */
	size_t nr_sort_keys;		/* the first ones of keys are --sort's
					   (0: none given); with fields rows
					   sort on them first, then on -F's
					   fields (perf's order); without,
					   sym first leaves the row's own
					   frame out of its call graph */
};

struct pm_hotspot;

struct pm_hotspot *pm_hotspot__new(const struct pm_hotspot_opts *opts);
void pm_hotspot__delete(struct pm_hotspot *h);
/* Account one sample (uses the session for its callchain). */
void pm_hotspot__add(struct pm_hotspot *h, struct pm_session *s,
		     const struct pm_sample_ctx *ctx);
/* Other records: LOST and LOST_SAMPLES count into the lost samples. */
int pm_hotspot__record(struct pm_hotspot *h, struct pm_reader *r,
		       const struct pm_record *rec, struct pm_error *err);

/*
 * The report: the summary's lost_samples ("Total Lost Samples"), then one
 * table per event (or group) with samples, named by the event (or the
 * group's "{a, b}"), rows sorted by period (children: by Children), then
 * opts.percent_limit applied. With opts.callgraph each row has its tree
 * (pm_table__children; JSON member "callgraph"), drawn in text as perf
 * --stdio -g does (PM_TABLE_CALL_GRAPH and friends). Each table's summary: event, samples,
 * event_count; in JSON under "events"; CSV and TSV stack them with an
 * Event column first when there are several. Symbols are perf's "[.] main"
 * in the tables, "main" in JSON, which also has dso and symbol when they
 * are no sort key (null). With opts.stacks, a last table "stacks" holds
 * every sample's call stack (pmprof/stacks.h), its Samples and Period
 * columns adding up to the event tables' samples and event counts; with
 * opts.profile the profile_* tables (pmprof/profile.h), alike.
 */
int pm_hotspot__finish(struct pm_hotspot *h, struct pm_reader *r,
		       struct pm_report **out);

extern const struct pm_analysis pm_hotspot_analysis;

#endif
