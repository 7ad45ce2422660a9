// SPDX-License-Identifier: GPL-2.0
/* Payloads by call chain (chain-memo-int.h): a direct-mapped cache. */
#include <stdlib.h>
#include <string.h>

#include "chain-memo-int.h"
#include "pmprof/hash.h"
#include "pmprof/perfdata.h"
#include "pmprof/util.h"

#define MEMO_BITS 14

struct chain_memo_slot {
	uint64_t hash;
	uint64_t *words;	/* head, entries, then the payload */
	size_t nr_entries, nr_payload, alloc;
	bool used;
};

#define HEAD_WORDS (sizeof(((struct chain_memo *)0)->head) / sizeof(uint64_t))

static uint64_t chain_hash(const uint64_t *head, const uint64_t *v, size_t n)
{
	uint64_t x = n;

	for (size_t i = 0; i < HEAD_WORDS; i++)
		x = (x ^ head[i]) * 0x9e3779b97f4a7c15ULL;
	for (size_t i = 0; i < n; i++)
		x = (x ^ v[i] ^ (x >> 31)) * 0x9e3779b97f4a7c15ULL;
	return pm_hash64(x);
}

static struct chain_memo_slot *slot_of(const struct chain_memo *m)
{
	return &m->slots[m->hash & ((1u << MEMO_BITS) - 1)];
}

static bool same_chain(const struct chain_memo *m, const struct chain_memo_slot *e)
{
	if (!e->used || e->hash != m->hash || e->nr_entries != m->nr_entries)
		return false;
	for (size_t i = 0; i < HEAD_WORDS; i++)
		if (e->words[i] != m->head[i])
			return false;
	for (size_t i = 0; i < m->nr_entries; i++)
		if (e->words[HEAD_WORDS + i] != m->entries[i])
			return false;
	return true;
}

const uint64_t *chain_memo__get(struct chain_memo *m, struct pm_session *s,
				const struct pm_sample_ctx *ctx, size_t *n)
{
	const struct pm_sample *smp = ctx->sample;
	const struct chain_memo_slot *e;

	*n = 0;
	/* another session (a fleet's next recording): its map versions
	 * count from the start again, nothing kept is its */
	if (m->session != s) {
		chain_memo__release(m);
		m->session = s;
	}
	m->keyed = pm_session__chain_maps(s, &m->head[0], &m->head[1]);
	if (!m->keyed)
		return NULL;
	m->head[2] = smp->ip;
	m->head[3] = smp->cpumode;
	/* as pm_session__callchain() reads them (none: nr 0) */
	m->entries = smp->callchain;
	m->nr_entries = smp->callchain_nr;
	m->hash = chain_hash(m->head, m->entries, m->nr_entries);
	if (!m->slots)
		m->slots = pm_calloc(1u << MEMO_BITS, sizeof(*m->slots));
	e = slot_of(m);
	if (!same_chain(m, e))
		return NULL;
	*n = e->nr_payload;
	return e->words + HEAD_WORDS + e->nr_entries;
}

void chain_memo__put(struct chain_memo *m, const uint64_t *payload, size_t n)
{
	struct chain_memo_slot *e;
	uint64_t *w;

	if (!m->keyed)
		return;
	m->keyed = false;
	e = slot_of(m);
	PM_GROW(e->words, e->alloc, HEAD_WORDS + m->nr_entries + n);
	w = e->words;
	memcpy(w, m->head, sizeof(m->head));
	if (m->nr_entries)
		memcpy(w + HEAD_WORDS, m->entries, m->nr_entries * sizeof(*w));
	if (n)
		memcpy(w + HEAD_WORDS + m->nr_entries, payload, n * sizeof(*w));
	e->hash = m->hash;
	e->nr_entries = m->nr_entries;
	e->nr_payload = n;
	e->used = true;
}

void chain_memo__release(struct chain_memo *m)
{
	if (m->slots)
		for (size_t i = 0; i < 1u << MEMO_BITS; i++)
			free(m->slots[i].words);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
