/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an accumulator made of a sample's call chain, kept for the next
 * sample with the same chain (the stack formats' main cost is resolving
 * every frame of every sample, and most samples repeat a few stacks).
 *
 * The key is everything pm_session__callchain() resolves a chain from
 * (pm_session__chain_maps()): the versions of the process's and the
 * kernel's map lists, the sampled ip and cpumode and the raw callchain
 * entries, compared whole, so an entry is never taken for another
 * chain, another process or a map list since changed. Direct mapped:
 * the memory is bounded, a newer chain replaces an older one in its slot.
 *
 *	const uint64_t *v = chain_memo__get(&m, s, ctx, &n);
 *	if (!v) {
 *		... build the payload from pm_session__callchain() ...
 *		chain_memo__put(&m, payload, nr);
 *	}
 */
#ifndef PMPROF_CHAIN_MEMO_INT_H
#define PMPROF_CHAIN_MEMO_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/session.h"

struct chain_memo_slot;

struct chain_memo {
	struct chain_memo_slot *slots;	/* made on first use */
	const struct pm_session *session;	/* whose chains they are */
	/* the key of the last chain_memo__get(), for chain_memo__put() */
	uint64_t head[4];		/* maps versions, ip, cpumode */
	const uint64_t *entries;	/* the sample's callchain */
	size_t nr_entries;
	uint64_t hash;
	bool keyed;			/* false: this sample is not kept */
};

/* The payload kept for the current sample's chain (n words in *n), or
 * NULL: not kept yet, or the chain cannot be (its stack is unwound). */
const uint64_t *chain_memo__get(struct chain_memo *m, struct pm_session *s,
				const struct pm_sample_ctx *ctx, size_t *n);
/* Keep n words for the chain the last chain_memo__get() did not find. */
void chain_memo__put(struct chain_memo *m, const uint64_t *payload, size_t n);
void chain_memo__release(struct chain_memo *m);

#endif
