// SPDX-License-Identifier: GPL-2.0
/*
 * The thread table (tid -> the thread now using that tid) and string
 * interning (comm names), both open-addressing hash tables: a system-wide
 * recording has thousands of threads and every sample looks one up.
 */
#include <stdlib.h>
#include <string.h>

#include "pmprof/util.h"
#include "session/internal.h"

static size_t hash_tid(int32_t tid)
{
	uint64_t h = (uint32_t)tid * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32);
}

static struct pm_thread_int **tslot(struct pm_thread_int **slots, size_t n,
				    int32_t tid)
{
	size_t i = hash_tid(tid) & (n - 1);

	while (slots[i] && slots[i]->pub.tid != tid)
		i = (i + 1) & (n - 1);
	return &slots[i];
}

struct pm_thread_int *pm_thread_table__find(const struct pm_thread_table *t,
					    int32_t tid)
{
	if (!t->nslots)
		return NULL;
	return *tslot(t->slots, t->nslots, tid);
}

void pm_thread_table__set(struct pm_thread_table *t, struct pm_thread_int *th)
{
	struct pm_thread_int **s;

	if ((t->nr + 1) * 2 > t->nslots) {
		size_t n = t->nslots ? t->nslots * 2 : 256;
		struct pm_thread_int **slots = pm_calloc(n, sizeof(*slots));

		for (size_t i = 0; i < t->nslots; i++)
			if (t->slots[i])
				*tslot(slots, n, t->slots[i]->pub.tid) = t->slots[i];
		free(t->slots);
		t->slots = slots;
		t->nslots = n;
	}
	s = tslot(t->slots, t->nslots, th->pub.tid);
	if (!*s)
		t->nr++;
	*s = th;
}

void pm_thread_table__free(struct pm_thread_table *t)
{
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

static size_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return (size_t)h;
}

static char **sslot(char **slots, size_t n, const char *s)
{
	size_t i = hash_str(s) & (n - 1);

	while (slots[i] && strcmp(slots[i], s))
		i = (i + 1) & (n - 1);
	return &slots[i];
}

const char *pm_intern__get(struct pm_intern *in, const char *s)
{
	char **slot;

	if ((in->nr + 1) * 2 > in->nslots) {
		size_t n = in->nslots ? in->nslots * 2 : 256;
		char **slots = pm_calloc(n, sizeof(*slots));

		for (size_t i = 0; i < in->nslots; i++)
			if (in->slots[i])
				*sslot(slots, n, in->slots[i]) = in->slots[i];
		free(in->slots);
		in->slots = slots;
		in->nslots = n;
	}
	slot = sslot(in->slots, in->nslots, s);
	if (!*slot) {
		*slot = pm_strdup(s);
		in->nr++;
	}
	return *slot;
}

void pm_intern__free(struct pm_intern *in)
{
	for (size_t i = 0; i < in->nslots; i++)
		free(in->slots[i]);
	free(in->slots);
	memset(in, 0, sizeof(*in));
}
