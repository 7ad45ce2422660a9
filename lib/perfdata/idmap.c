// SPDX-License-Identifier: GPL-2.0
/* Sample id -> event: open addressing, so a lookup per sample is cheap. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "pmprof/util.h"

static size_t hash(uint64_t id)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return (size_t)id;
}

void pm_idmap__init(struct pm_idmap *m)
{
	memset(m, 0, sizeof(*m));
}

void pm_idmap__release(struct pm_idmap *m)
{
	free(m->slots);
	pm_idmap__init(m);
}

struct pm_id_entry *pm_idmap__find(const struct pm_idmap *m, uint64_t id)
{
	size_t i;

	if (!m->slots)
		return NULL;
	for (i = hash(id) & m->mask;; i = (i + 1) & m->mask) {
		if (m->slots[i].idx < 0)
			return NULL;
		if (m->slots[i].id == id)
			return &m->slots[i];
	}
}

static void rehash(struct pm_idmap *m, size_t nslots)
{
	struct pm_id_entry *old = m->slots;
	size_t i, oldn = old ? m->mask + 1 : 0;

	m->slots = pm_malloc(nslots * sizeof(*m->slots));
	for (i = 0; i < nslots; i++)
		m->slots[i].idx = -1;
	m->mask = nslots - 1;
	for (i = 0; i < oldn; i++) {
		size_t j;

		if (old[i].idx < 0)
			continue;
		for (j = hash(old[i].id) & m->mask; m->slots[j].idx >= 0;
		     j = (j + 1) & m->mask)
			;
		m->slots[j] = old[i];
	}
	free(old);
}

struct pm_id_entry *pm_idmap__insert(struct pm_idmap *m, uint64_t id)
{
	struct pm_id_entry *e = pm_idmap__find(m, id);
	size_t i;

	if (e)
		return e;
	if (!m->slots || (m->used + 1) * 2 > m->mask + 1)
		rehash(m, m->slots ? (m->mask + 1) * 2 : 64);
	for (i = hash(id) & m->mask; m->slots[i].idx >= 0; i = (i + 1) & m->mask)
		;
	m->slots[i].id = id;
	m->slots[i].idx = 0;
	m->slots[i].cpu = -2;
	m->slots[i].tid = -2;
	m->used++;
	return &m->slots[i];
}
