/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Call stacks with weights: what the stack formats (folded, and the
 * pictures built on it) are rendered from. An analysis that keeps stacks
 * puts them into its report as the table named "stacks":
 *
 *	Stack    the frames, outermost first, joined by ';'
 *	Samples  the samples (deliveries, as the report's tables count them)
 *	Period   their period, every event's added
 *	EVENT    one column per event: the period delivered to it
 *
 * A stack is the sample's call chain as the session resolves it
 * (pm_session__callchain(): frame-pointer chains and DWARF unwinding),
 * else the sampled address alone. Frames are named as the report names
 * symbols: the function ("main", "f (inlined)"), else the address
 * ("0x0000000000001234"; the sampled one as its file offset, as the
 * report's self rows show it).
 *
 *	struct pm_stacks *st = pm_stacks__new();
 *	for each sample:
 *		pm_stacks__begin(st, session, ctx);
 *		pm_stacks__add(st, pm_stacks__column(st, ev->idx, ev->name), period);
 *	pm_report__add_table(rep, pm_stacks__table(st));
 */
#ifndef PMPROF_STACKS_H
#define PMPROF_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "pmprof/session.h"

struct pm_table;
struct pm_stacks;

struct pm_stacks *pm_stacks__new(void);
void pm_stacks__delete(struct pm_stacks *st);	/* NULL is fine */

/* The column of an event (by the caller's id, e.g. the event index),
 * made on first use with that name. */
size_t pm_stacks__column(struct pm_stacks *st, int id, const char *name);

/* The current sample's stack: the one pm_stacks__add() adds to. */
void pm_stacks__begin(struct pm_stacks *st, struct pm_session *s,
		      const struct pm_sample_ctx *ctx);
/* One sample of the current stack, of this period, to column col. */
void pm_stacks__add(struct pm_stacks *st, size_t col, uint64_t period);
/* Another count of that sample (a group member's), to column col alone. */
void pm_stacks__add_value(struct pm_stacks *st, size_t col, uint64_t v);

/* The "stacks" table (rows by stack, in byte order), the caller's. */
struct pm_table *pm_stacks__table(const struct pm_stacks *st);

#endif
