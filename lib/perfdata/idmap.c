// SPDX-License-Identifier: GPL-2.0
/* Sample id -> event: the hash index, so a lookup per sample is cheap. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "pmprof/util.h"

void pm_idmap__init(struct pm_idmap *m)
{
	memset(m, 0, sizeof(*m));
}

void pm_idmap__release(struct pm_idmap *m)
{
	free(m->entries);
	pm_hash__release(&m->index);
	pm_idmap__init(m);
}

struct pm_id_entry *pm_idmap__find(const struct pm_idmap *m, uint64_t id)
{
	size_t s = PM_HASH_FIND(&m->index, pm_hash64(id), i,
				m->entries[i].id == id);

	return pm_hash__empty(&m->index, s) ? NULL
					    : &m->entries[pm_hash__at(&m->index, s)];
}

static uint64_t id_hash(const void *arg, size_t i)
{
	return pm_hash64(((const struct pm_id_entry *)arg)[i].id);
}

struct pm_id_entry *pm_idmap__insert(struct pm_idmap *m, uint64_t id)
{
	struct pm_id_entry *e = pm_idmap__find(m, id);
	size_t s;

	if (e)
		return e;
	pm_hash__reserve(&m->index, m->nr, id_hash, m->entries);
	s = PM_HASH_FIND(&m->index, pm_hash64(id), i, false);
	PM_GROW(m->entries, m->alloc, m->nr + 1);
	e = &m->entries[m->nr];
	e->id = id;
	e->idx = 0;
	e->cpu = -2;
	e->tid = -2;
	pm_hash__set(&m->index, s, m->nr++);
	return e;
}
