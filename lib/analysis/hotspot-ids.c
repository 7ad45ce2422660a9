// SPDX-License-Identifier: GPL-2.0
/*
 * The counters of sample-read groups: the last value of each id, so that
 * a sample's read gives each counter's growth since the one before. One
 * recording's: ids are numbered per recording, so a fleet's next one
 * starts afresh (hot_ids__reset).
 */
#include <stdlib.h>

#include "hotspot-int.h"
#include "pmprof/util.h"

static uint64_t id_hash(const void *arg, size_t i)
{
	return pm_hash64(((const struct hot_id_last *)arg)[i].id);
}

uint64_t *hot_ids__last(struct hot_ids *t, uint64_t id)
{
	size_t s = PM_HASH_FIND(&t->index, pm_hash64(id), i, t->ids[i].id == id);

	if (!pm_hash__empty(&t->index, s))
		return &t->ids[pm_hash__at(&t->index, s)].last;
	pm_hash__reserve(&t->index, t->nr, id_hash, t->ids);
	s = PM_HASH_FIND(&t->index, pm_hash64(id), i, false);
	PM_GROW(t->ids, t->alloc, t->nr + 1);
	t->ids[t->nr] = (struct hot_id_last){ .id = id };
	pm_hash__set(&t->index, s, t->nr);
	return &t->ids[t->nr++].last;
}

void hot_ids__reset(struct hot_ids *t)
{
	free(t->ids);
	pm_hash__release(&t->index);
	*t = (struct hot_ids){ 0 };
}
