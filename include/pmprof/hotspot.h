/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hotspot profile (what `perf report` shows): samples grouped by sort
 * keys, per event, with their share of the event's period. An accumulator:
 * create it with options, add every sample the session resolved, finish
 * into one table per event (or per group, with --group).
 *
 * Periods follow perf's rules: a sample's period, or for events that
 * sample a read group (PERF_SAMPLE_READ, `{a,b}:S`), the growth of each
 * member's counter since that counter's previous sample, delivered to the
 * member's own event; zero growth delivers nothing.
 */
#ifndef PMPROF_HOTSPOT_H
#define PMPROF_HOTSPOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/session.h"

struct pm_error;
struct pm_table;

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
const char *pm_hot_key__name(enum pm_hot_key k);

struct pm_hotspot_opts {
	size_t sz;			/* sizeof(struct pm_hotspot_opts) */
	enum pm_hot_key keys[PM_HOT_MAX_KEYS];
	size_t nr_keys;			/* 0: dso,sym */
	bool children;			/* Children and Self from callchains */
	bool group;			/* one table per group, a column per member */
	double percent_limit;		/* hide rows below this share */
	size_t top;			/* keep the first N rows; 0: all */
	bool bare_symbols;		/* Symbol cells without perf's "[.] " */
	bool all_columns;		/* Shared Object and Symbol even when
					   not keys (null cells): for JSON */
};

struct pm_hotspot;

struct pm_hotspot *pm_hotspot__new(const struct pm_hotspot_opts *opts);
void pm_hotspot__delete(struct pm_hotspot *h);
/* Account one sample (uses the session for its callchain). */
void pm_hotspot__add(struct pm_hotspot *h, struct pm_session *s,
		     const struct pm_sample_ctx *ctx);

/* One report section: an event (or a group) with its table. */
struct pm_hotspot_report {
	const char *name;		/* the event's name, or the group's
					   "{a, b}" description */
	uint64_t samples;		/* all samples, before limits */
	uint64_t period;		/* all of the (leader's) period */
	uint64_t lost_unknown;		/* samples of unknown counter ids */
	struct pm_table *table;		/* owned by the hotspot */
};

/*
 * Build the tables: rows sorted by period (children: by Children), then
 * --percent-limit and --top applied. Sections of events without samples
 * are left out. Valid until pm_hotspot__delete().
 */
size_t pm_hotspot__finish(struct pm_hotspot *h, struct pm_reader *r,
			  const struct pm_hotspot_report **out);

#endif
