// SPDX-License-Identifier: GPL-2.0
/*
 * Map lists: one sorted array per address space, binary search to find the
 * map of an address (with a one-entry cache, as consecutive samples tend to
 * hit the same map), and perf's rule for overlapping MMAPs: the newest map
 * wins, older ones are cut back to what it does not cover.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "pmprof/util.h"
#include "session/internal.h"

#define ARENA_CHUNK 256

struct pm_map *pm_map_arena__new(struct pm_map_arena *a)
{
	if (!a->nr_chunks || a->used == ARENA_CHUNK) {
		PM_GROW(a->chunks, a->alloc_chunks, a->nr_chunks + 1);
		a->chunks[a->nr_chunks++] = pm_calloc(ARENA_CHUNK,
						      sizeof(struct pm_map));
		a->used = 0;
	}
	return &a->chunks[a->nr_chunks - 1][a->used++];
}

void pm_map_arena__free(struct pm_map_arena *a)
{
	for (size_t i = 0; i < a->nr_chunks; i++) {
		size_t n = i + 1 == a->nr_chunks ? a->used : ARENA_CHUNK;

		for (size_t j = 0; j < n; j++)
			pm_dso__put(a->chunks[i][j].dso);
		free(a->chunks[i]);
	}
	free(a->chunks);
	memset(a, 0, sizeof(*a));
}

struct pm_maps *pm_maps__new(void)
{
	struct pm_maps *m = pm_zalloc(sizeof(*m));

	m->refcnt = 1;
	return m;
}

struct pm_maps *pm_maps__get(struct pm_maps *m)
{
	if (m)
		m->refcnt++;
	return m;
}

void pm_maps__put(struct pm_maps *m)
{
	if (!m || --m->refcnt > 0)
		return;
	free(m->v);
	free(m);
}

struct pm_maps *pm_maps__clone(const struct pm_maps *m)
{
	struct pm_maps *c = pm_maps__new();

	if (m->nr) {
		c->v = pm_malloc(m->nr * sizeof(*c->v));
		memcpy(c->v, m->v, m->nr * sizeof(*c->v));
		c->nr = c->alloc = m->nr;
	}
	return c;
}

void pm_maps__clear(struct pm_maps *m)
{
	m->nr = 0;
	m->last = 0;
}

/* First index whose map starts at or after addr. */
static size_t lower_bound(const struct pm_maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid]->start < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct pm_map *piece(struct pm_map_arena *arena, const struct pm_map *old,
			    uint64_t start, uint64_t end)
{
	struct pm_map *p = pm_map_arena__new(arena);

	*p = *old;
	p->start = start;
	p->end = end;
	p->pgoff = old->pgoff + (start - old->start);
	pm_dso__get(p->dso);
	return p;
}

void pm_maps__insert(struct pm_maps *m, struct pm_map *map,
		     struct pm_map_arena *arena)
{
	struct pm_map *repl[3];
	size_t nrepl = 0, i, j;

	i = lower_bound(m, map->start);
	if (i > 0 && m->v[i - 1]->end > map->start)
		i--;
	for (j = i; j < m->nr && m->v[j]->start < map->end; j++)
		;
	/* v[i..j) overlap the new map; keep what sticks out of it. */
	if (j > i && m->v[i]->start < map->start)
		repl[nrepl++] = piece(arena, m->v[i], m->v[i]->start, map->start);
	repl[nrepl++] = map;
	if (j > i && m->v[j - 1]->end > map->end)
		repl[nrepl++] = piece(arena, m->v[j - 1], map->end,
				      m->v[j - 1]->end);

	PM_GROW(m->v, m->alloc, m->nr - (j - i) + nrepl);
	memmove(&m->v[i + nrepl], &m->v[j], (m->nr - j) * sizeof(*m->v));
	memcpy(&m->v[i], repl, nrepl * sizeof(*m->v));
	m->nr = m->nr - (j - i) + nrepl;
	m->last = 0;
}

struct pm_map *pm_maps__find(struct pm_maps *m, uint64_t addr)
{
	size_t i;

	if (!m || !m->nr)
		return NULL;
	if (m->last < m->nr && m->v[m->last]->start <= addr &&
	    addr < m->v[m->last]->end)
		return m->v[m->last];
	/* i: the first map starting after addr */
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid]->start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	i = lo;
	if (i == 0 || addr >= m->v[i - 1]->end)
		return NULL;
	m->last = i - 1;
	return m->v[i - 1];
}

/*
 * The kernel's init text [_sinittext, _einittext) lies past the _text ..
 * _etext the kernel MMAP covers, but perf finds its symbols (start_kernel
 * on the idle task's stack): a map of its own from the kernel's symbols,
 * or NULL when they do not say where it is.
 */
struct pm_map *pm_map__inittext(struct pm_map_arena *a, struct pm_dso *kernel)
{
	uint64_t lo, hi;
	struct pm_map *m;

	if (pm_dso__init_text(kernel, &lo, &hi))
		return NULL;
	m = pm_map_arena__new(a);
	m->start = lo;
	m->end = hi;
	m->pgoff = lo;
	m->dso = pm_dso__get(kernel);
	m->prot = PROT_READ | PROT_EXEC;
	m->kernel = true;
	m->identity = true;
	return m;
}
