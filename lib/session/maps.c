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

#include "pmprof/records.h"
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

/* A number never given before, for a map list that changed. */
static uint64_t new_version(void)
{
	static uint64_t last;

	return __atomic_add_fetch(&last, 1, __ATOMIC_RELAXED);
}

struct pm_maps *pm_maps__new(void)
{
	struct pm_maps *m = pm_zalloc(sizeof(*m));

	m->refcnt = 1;
	m->version = new_version();
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
	m->version = new_version();
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
	m->version = new_version();
}

bool pm_maps__one_bias(struct pm_maps *m, struct pm_dso *dso)
{
	bool have = false;
	uint64_t bias = 0;

	for (size_t i = 0; i < m->nr; i++) {
		const struct pm_map *map = m->v[i];
		uint64_t len = map->end - map->start, b;

		if (map->dso != dso || map->identity || !(map->prot & PROT_EXEC))
			continue;
		/* up to one past the end: a return address there is moved
		 * through the mapping too (the unwinder's pm_uw_place) */
		if (!pm_dso__offsets_linear(dso, map->pgoff, map->pgoff + len + 1))
			return false;
		b = map->start - pm_dso__map_ip(dso, map->start, map->pgoff,
						map->start);
		if (have && b != bias)
			return false;
		bias = b;
		have = true;
	}
	return true;
}

/* First index whose map starts after addr. */
static size_t first_after(const struct pm_maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid]->start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct pm_map *pm_maps__find(struct pm_maps *m, uint64_t addr)
{
	size_t i;

	if (!m || !m->nr)
		return NULL;
	if (m->last < m->nr && m->v[m->last]->start <= addr &&
	    addr < m->v[m->last]->end)
		return m->v[m->last];
	i = first_after(m, addr);
	if (i == 0 || addr >= m->v[i - 1]->end)
		return NULL;
	m->last = i - 1;
	return m->v[i - 1];
}

void pm_maps__hole(const struct pm_maps *m, uint64_t addr, uint64_t *start,
		   uint64_t *end)
{
	size_t i = m ? first_after(m, addr) : 0;

	*start = i ? m->v[i - 1]->end : 0;
	*end = m && i < m->nr ? m->v[i]->start : UINT64_MAX;
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

/* ---- the session's MMAP and MMAP2 records ---- */

static struct pm_dso *kernel_dso_for(struct pm_session *s, const char *f)
{
	char kname[256];

	if (pm_session__is_kernel_name(f))
		return pm_dso__get(pm_dsos__kernel(pm_session__dsos_of(s)));
	if (pm_kmod_name(f, kname, sizeof(kname)))
		return pm_dsos__findnew(pm_session__dsos_of(s), kname);
	return pm_dsos__findnew(pm_session__dsos_of(s), f);
}

/*
 * perf 6.1's anonymous memory: its addresses are absolute, and if
 * executable it is looked up in /tmp/perf-PID.map. (memfd files are
 * files to it.)
 */
static bool perf_anon(const char *f, uint32_t flags)
{
	return !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) ||
	       !strncmp(f, "/anon_hugepage", 14) || (flags & MAP_HUGETLB) ||
	       !strncmp(f, "[stack", 6) || !strncmp(f, "/SYSV", 5) ||
	       !strcmp(f, "[heap]");
}

int pm_session__mmap(struct pm_session *s, const struct pm_record *rec,
			struct pm_error *err)
{
	struct pm_rec_mmap m;
	struct pm_map *map;
	uint8_t mode = rec->misc & PM_MISC_CPUMODE_MASK;
	int ret = pm_rec__mmap(s->r, rec, &m, err);

	if (ret)
		return ret;
	if (mode == PM_MISC_GUEST_KERNEL || mode == PM_MISC_GUEST_USER)
		return 0;	/* no guest machines */
	if (mode == PM_MISC_KERNEL && pm_session__is_kernel_name(m.filename) && !s->dsos)
		s->kernel_text = m.pgoff;
	map = pm_map_arena__new(&s->arena);
	map->start = m.start;
	map->end = m.start + m.len;
	if (map->end <= map->start)
		map->end = UINT64_MAX;
	map->pgoff = m.pgoff;
	if (m.is_mmap2) {
		map->prot = m.prot;
		map->flags = m.flags;
	} else {
		map->prot = PROT_READ |
			    (rec->misc & PM_MISC_MMAP_DATA ? 0 : PROT_EXEC);
	}
	if (mode == PM_MISC_KERNEL) {
		map->kernel = true;
		map->identity = true;
		map->dso = kernel_dso_for(s, m.filename);
		pm_maps__insert(s->kmaps, map, &s->arena);
	} else {
		struct pm_thread_int *th = pm_session__findnew_thread(s, (int32_t)m.pid,
							  (int32_t)m.tid);
		map->identity = perf_anon(m.filename, map->flags);
		/* Executable anonymous memory is JIT code: perf-PID.map. */
		if (map->identity && (map->prot & PROT_EXEC))
			map->dso = pm_dso__get(pm_dsos__jit(pm_session__dsos_of(s),
							    (int)m.pid));
		else
			map->dso = pm_dsos__findnew(pm_session__dsos_of(s), m.filename);
		pm_maps__insert(th->maps, map, &s->arena);
	}
	if (m.has_build_id && m.build_id_size)
		pm_dso__set_build_id(map->dso, m.build_id,
				     PM_MIN(m.build_id_size, sizeof(m.build_id)));
	return 0;
}

size_t pm_session__maps(struct pm_session *s, const struct pm_thread *t,
			const struct pm_map *const **out)
{
	struct pm_maps *m = t ? ((struct pm_thread_int *)t)->maps : s->kmaps;

	*out = (const struct pm_map *const *)m->v;
	return m->nr;
}
