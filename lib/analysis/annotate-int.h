/* SPDX-License-Identifier: GPL-2.0 */
/* The annotate accumulator's state, shared by its add and finish halves. */
#ifndef PMPROF_ANNOTATE_INT_H
#define PMPROF_ANNOTATE_INT_H

#include "pmprof/annotate.h"
#include "pmprof/profileme_acc.h"
#include "pmprof/strbuf.h"

/* One sampled address of a function (a DSO address). */
struct an_insn {
	uint64_t addr;
	uint64_t samples, period;
	uint64_t windows, discarded;	/* closing here: kept, discarded */
	uint64_t *sums;			/* per event over kept windows */
	struct pm_profileme_row *pm;	/* ProfileMe status, or NULL */
};

/* What one table annotates: an event's samples in one function (and,
 * for ProfileMe, of one SL1 value). */
struct an_func {
	const struct pm_event *ev;
	struct pm_dso *dso;
	const struct pm_symbol *sym;
	int sl1;
	uint64_t samples, period, windows, discarded;
	struct an_insn *insns;		/* sorted by address */
	size_t nr, alloc;
	size_t seq;			/* order of first sample */
};

struct pm_annotate {
	struct pm_annotate_opts opts;
	char *symbol, *dso;
	struct pm_metrics *metrics;
	bool events_added;
	size_t nr_events;		/* the recording's, when windows began */
	size_t nr_counters;		/* at finish: the windows' counters */
	int *counter_ev;		/* and each one's event index */

	struct an_func **funcs;		/* sorted by key */
	size_t nr_funcs, alloc_funcs;
	struct an_func *last;		/* a one-entry cache */
	const struct pm_symbol *last_sym;	/* ... and of the filters */
	const struct pm_dso *last_dso;
	bool last_selected;
	struct an_insn *cur;		/* the sample being added, for windows */
	struct an_func *cur_func;

	struct pm_annotate_summary sum;
	struct pm_annotation *out;	/* after finish */
	size_t nr_out;
	char **notes;
	size_t nr_notes;
	struct pm_strbuf scratch;
};

/* The recording's events into the windows accumulator, once. */
int an_add_events(struct pm_annotate *a, struct pm_session *s,
		  struct pm_error *err);
void an_note(struct pm_annotate *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
