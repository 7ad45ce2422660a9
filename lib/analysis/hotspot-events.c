// SPDX-License-Identifier: GPL-2.0
/*
 * A fleet's events by name: recordings of one service need not record
 * the same events, nor in the same order. Each event gets a fleet id,
 * the same for every recording that records an event of its name (the
 * name as the report prints it); the tables and picture columns are by
 * that id, so that A's cpu-clock and B's add up wherever each recorded
 * it. The first recording's ids are its event indices.
 */
#include <stdlib.h>
#include <string.h>

#include "hotspot-int.h"
#include "pmprof/util.h"

/* The fleet id of a name not yet taken by this recording's events
 * (a recording of two events of one name: each its own id). */
static int id_of_name(struct hot_events *fe, const char *name, size_t upto)
{
	for (size_t id = 0; id < fe->nr_names; id++) {
		bool taken = false;

		if (strcmp(fe->names[id], name))
			continue;
		for (size_t j = 0; j < upto && !taken; j++)
			taken = fe->of_idx[j] == (int)id;
		if (!taken)
			return (int)id;
	}
	PM_GROW(fe->names, fe->alloc_names, fe->nr_names + 1);
	fe->names[fe->nr_names] = pm_strdup(name);
	return (int)fe->nr_names++;
}

int hot_events__id(struct hot_events *fe, struct pm_reader *r, int idx)
{
	size_t n = pm_reader__nr_events(r);

	if (idx < 0)
		return idx;
	/* the whole recording at once, in its order: the first one's ids
	 * are its indices (a pipe's later events: when they come) */
	if ((size_t)idx >= fe->nr_idx) {
		size_t from = fe->nr_idx;

		if ((size_t)idx >= n)
			n = (size_t)idx + 1;
		fe->of_idx = pm_reallocarray(fe->of_idx, n, sizeof(*fe->of_idx));
		for (size_t i = from; i < n; i++) {
			const struct pm_event *ev = pm_reader__event(r, i);

			fe->of_idx[i] = id_of_name(fe, ev && ev->name ? ev->name : "?", i);
		}
		fe->nr_idx = n;
	}
	return fe->of_idx[idx];
}

void hot_events__next(struct hot_events *fe)
{
	free(fe->of_idx);
	fe->of_idx = NULL;
	fe->nr_idx = 0;
}

void hot_events__release(struct hot_events *fe)
{
	hot_events__next(fe);
	for (size_t i = 0; i < fe->nr_names; i++)
		free(fe->names[i]);
	free(fe->names);
	memset(fe, 0, sizeof(*fe));
}
