// SPDX-License-Identifier: GPL-2.0
/*
 * The profile accumulator (pmprof/profile.h). Locations, mappings and
 * functions are interned as weighted keys of their identities (map and
 * address, map, symbol), their index + 1 being their id; a chain's
 * location ids are interned as a list (a chain seen before finds its list
 * in the chain memo, unresolved), and a sample's key is its list and its
 * labels. Source lines are looked up once per location, at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "pmprof/hash.h"
#include "pmprof/profile.h"
#include "pmprof/report.h"
#include "pmprof/strbuf.h"
#include "pmprof/symbols.h"
#include "pmprof/table.h"
#include "pmprof/util.h"
#include "chain-memo-int.h"
#include "weights-int.h"

#define LOC_CACHE 4096	/* a power of two */

struct ploc {
	const struct pm_map *map;
	struct pm_dso *dso;
	uint64_t addr;		/* the DSO's address, for its source line */
	const struct pm_symbol *sym;
	uint64_t mapping, function;	/* ids, 0: none */
};

struct pfunc {
	struct pm_dso *dso;
	const struct pm_symbol *sym;
};

struct pm_profile {
	struct wtab samples, locs, maps, funcs;
	struct wtab lists;		/* the location ids of each chain */
	struct ploc *loc;		/* by location index */
	size_t alloc_loc;
	const struct pm_map **map;	/* by mapping index */
	uint64_t *map_samples;		/* samples whose leaf is in it */
	size_t alloc_map, alloc_map_samples;
	size_t cur_leaf_map;		/* the current sample's mapping id */
	struct pfunc *func;		/* by function index */
	size_t alloc_func;
	uint64_t *cur_words;
	size_t nr_cur, alloc_cur;
	size_t cur;
	bool has_cur;
	struct chain_memo memo;		/* raw chain -> its list */
	/* the hosts (HEADER_HOSTNAME) of the recordings seen: a fleet's
	 * samples carry theirs, pprof's "host" label */
	char **hosts;
	size_t nr_hosts;
	const struct pm_session *host_session;	/* the last sample's, */
	uint64_t host;				/* its host's index */
	/* the last location of each address slot: samples repeat their
	 * frames, and this spares most of them a hash lookup */
	struct {
		const struct pm_map *map;
		uint64_t ip, id;
	} recent[LOC_CACHE];
};

struct pm_profile *pm_profile__new(void)
{
	return pm_zalloc(sizeof(struct pm_profile));
}

void pm_profile__delete(struct pm_profile *p)
{
	if (!p)
		return;
	wtab__release(&p->samples);
	wtab__release(&p->locs);
	wtab__release(&p->maps);
	wtab__release(&p->funcs);
	wtab__release(&p->lists);
	chain_memo__release(&p->memo);
	free(p->loc);
	free(p->map);
	free(p->map_samples);
	free(p->func);
	free(p->cur_words);
	for (size_t i = 0; i < p->nr_hosts; i++)
		free(p->hosts[i]);
	free(p->hosts);
	free(p);
}

size_t pm_profile__column(struct pm_profile *p, int id, const char *name)
{
	return wtab__column(&p->samples, id, name);
}

static uint64_t mapping_id(struct pm_profile *p, const struct pm_map *m)
{
	uint64_t w = (uintptr_t)m;
	size_t n = p->maps.nr, i;

	if (!m)
		return 0;
	i = wtab__find(&p->maps, &w, 1);
	if (i == n) {
		PM_GROW(p->map, p->alloc_map, i + 1);
		p->map[i] = m;
	}
	return i + 1;
}

static uint64_t function_id(struct pm_profile *p, const struct pm_addr_loc *l)
{
	uint64_t w = (uintptr_t)l->sym;
	size_t n = p->funcs.nr, i;

	if (!l->sym)
		return 0;
	i = wtab__find(&p->funcs, &w, 1);
	if (i == n) {
		PM_GROW(p->func, p->alloc_func, i + 1);
		p->func[i] = (struct pfunc){ .dso = l->dso, .sym = l->sym };
	}
	return i + 1;
}

static uint64_t location_id(struct pm_profile *p, const struct pm_addr_loc *l)
{
	uint64_t w[2] = { (uintptr_t)l->map, l->ip };
	size_t slot = (size_t)(pm_hash64(l->ip ^ (uintptr_t)l->map) & (LOC_CACHE - 1));
	size_t n = p->locs.nr, i;

	if (p->recent[slot].id && p->recent[slot].ip == l->ip &&
	    p->recent[slot].map == l->map)
		return p->recent[slot].id;
	i = wtab__find(&p->locs, w, 2);
	p->recent[slot].map = l->map;
	p->recent[slot].ip = l->ip;
	p->recent[slot].id = i + 1;

	if (i == n) {
		PM_GROW(p->loc, p->alloc_loc, i + 1);
		p->loc[i] = (struct ploc){
			.map = l->map, .dso = l->dso, .addr = l->addr, .sym = l->sym,
			.mapping = mapping_id(p, l->map),
			.function = function_id(p, l),
		};
	}
	return i + 1;
}

/* Room reserved by the caller (begin). */
static void push(struct pm_profile *p, uint64_t w)
{
	p->cur_words[p->nr_cur++] = w;
}

/* The index of the session's host, the same for one name. */
static uint64_t host_of(struct pm_profile *p, struct pm_session *s)
{
	const struct pm_features *f;
	const char *name;
	size_t i;

	if (p->host_session == s)
		return p->host;
	f = pm_reader__features(pm_session__reader(s));
	name = f && f->hostname ? f->hostname : "";
	for (i = 0; i < p->nr_hosts && strcmp(p->hosts[i], name); i++)
		;
	if (i == p->nr_hosts) {
		p->hosts = pm_reallocarray(p->hosts, i + 1, sizeof(*p->hosts));
		p->hosts[p->nr_hosts++] = pm_strdup(name);
	}
	p->host_session = s;
	return p->host = i;
}

/* The current sample's location ids, interned as a list: its index. */
static uint64_t chain_list(struct pm_profile *p, struct pm_session *s,
			   const struct pm_sample_ctx *ctx)
{
	const struct pm_addr_loc *chain;
	size_t n = pm_session__callchain(s, &chain);

	p->nr_cur = 0;
	PM_GROW(p->cur_words, p->alloc_cur, n + 1);
	for (size_t i = 0; i < n; i++)
		push(p, location_id(p, &chain[i]));
	if (!n)
		push(p, location_id(p, &ctx->ip));
	return wtab__find(&p->lists, p->cur_words, p->nr_cur);
}

void pm_profile__begin(struct pm_profile *p, struct pm_session *s,
		       const struct pm_sample_ctx *ctx)
{
	const struct pm_sample *smp = ctx->sample;
	size_t n;
	const uint64_t *memo = chain_memo__get(&p->memo, s, ctx, &n);
	uint64_t list = memo ? memo[0] : chain_list(p, s, ctx);
	uint64_t key[6];

	if (!memo)
		chain_memo__put(&p->memo, &list, 1);
	/* the leaf: the list's first location */
	p->cur_leaf_map = p->loc[wtab__words(&p->lists, list)[0] - 1].mapping;
	key[0] = list;
	key[1] = (uint32_t)ctx->thread->pid;
	key[2] = (uint32_t)ctx->thread->tid;
	key[3] = smp->sample_type & PM_SAMPLE_CPU ? smp->cpu : UINT64_MAX;
	key[4] = (uintptr_t)ctx->thread->comm;
	key[5] = host_of(p, s);
	p->cur = wtab__find(&p->samples, key, 6);
	p->has_cur = true;
}

void pm_profile__add(struct pm_profile *p, size_t col, uint64_t period)
{
	if (!p->has_cur)
		return;
	wtab__add(&p->samples, p->cur, col, period);
	if (p->cur_leaf_map) {
		size_t m = p->cur_leaf_map - 1;

		if (m >= p->alloc_map_samples) {
			size_t n = PM_MAX(2 * p->alloc_map_samples, m + 16);

			p->map_samples = pm_reallocarray(p->map_samples, n, sizeof(uint64_t));
			memset(p->map_samples + p->alloc_map_samples, 0,
			       (n - p->alloc_map_samples) * sizeof(uint64_t));
			p->alloc_map_samples = n;
		}
		p->map_samples[m]++;
	}
}

void pm_profile__add_value(struct pm_profile *p, size_t col, uint64_t v)
{
	if (p->has_cur)
		wtab__add_value(&p->samples, p->cur, col, v);
}

/*
 * pprof takes the first mapping for the main binary: the one most samples
 * land in goes first, the others keep their order. first: its index.
 */
static uint64_t mapping_order(uint64_t id, size_t first)
{
	if (!id)
		return 0;
	if (id == first + 1)
		return 1;
	return id <= first ? id + 1 : id;
}

static size_t busiest_mapping(const struct pm_profile *p)
{
	size_t best = 0;

	for (size_t i = 0; i < p->maps.nr && i < p->alloc_map_samples; i++)
		if (p->map_samples[i] > p->map_samples[best])
			best = i;
	return best;
}

/* ---- tables ---- */

static struct pm_table *named(const char *name)
{
	struct pm_table *t = pm_table__new();

	pm_table__set_name(t, name);
	pm_table__set_flags(t, PM_TABLE_WHOLE);
	return t;
}

static struct pm_table *samples_table(const struct pm_profile *p)
{
	const struct wtab *w = &p->samples;
	struct pm_table *t = named("profile_samples");
	struct pm_strbuf sb = PM_STRBUF_INIT;
	size_t host_col;

	pm_table__add_col(t, "Locations", "locations", PM_COL_STRING);
	pm_table__add_col(t, "Process", "pid", PM_COL_U64);
	pm_table__add_col(t, "Thread", "tid", PM_COL_U64);
	pm_table__add_col(t, "Command", "comm", PM_COL_STRING);
	pm_table__add_col(t, "CPU", "cpu", PM_COL_U64);
	host_col = wtab__add_columns(w, t);
	/* a fleet's: the host of each sample, last (pprof/profile.h) */
	if (p->nr_hosts > 1)
		pm_table__add_col(t, "Host", "host", PM_COL_STRING);
	for (size_t k = 0; k < w->nr; k++) {
		const uint64_t *lab = wtab__words(w, k) + 1;
		size_t list = wtab__words(w, k)[0], row = pm_table__add_row(t);
		const uint64_t *v = wtab__words(&p->lists, list);
		size_t nr = p->lists.keys[list].nr;

		pm_strbuf__reset(&sb);
		for (size_t i = 0; i < nr; i++)
			pm_strbuf__addf(&sb, "%s%llu", i ? ";" : "",
					(unsigned long long)v[i]);
		pm_table__set_str(t, row, 0, pm_strbuf__str(&sb));
		pm_table__set_u64(t, row, 1, lab[0]);
		pm_table__set_u64(t, row, 2, lab[1]);
		pm_table__set_str(t, row, 3, (const char *)(uintptr_t)lab[3]);
		if (lab[2] == UINT64_MAX)
			pm_table__set_null(t, row, 4);
		else
			pm_table__set_u64(t, row, 4, lab[2]);
		wtab__set_cells(w, k, t, row, 5);
		if (p->nr_hosts > 1)
			pm_table__set_str(t, row, host_col, p->hosts[lab[4]]);
	}
	pm_strbuf__release(&sb);
	return t;
}

static struct pm_table *locations_table(const struct pm_profile *p, size_t first)
{
	struct pm_table *t = named("profile_locations");

	pm_table__add_col(t, "Id", "id", PM_COL_U64);
	pm_table__add_col(t, "Mapping", "mapping", PM_COL_U64);
	pm_table__add_col(t, "Address", "address", PM_COL_HEX);
	pm_table__add_col(t, "Function", "function", PM_COL_U64);
	pm_table__add_col(t, "Line", "line", PM_COL_U64);
	for (size_t i = 0; i < p->locs.nr; i++) {
		const struct ploc *l = &p->loc[i];
		struct pm_srcline src;
		size_t row = pm_table__add_row(t);

		pm_table__set_u64(t, row, 0, i + 1);
		pm_table__set_u64(t, row, 1, mapping_order(l->mapping, first));
		pm_table__set_u64(t, row, 2, wtab__words(&p->locs, i)[1]);
		pm_table__set_u64(t, row, 3, l->function);
		pm_table__set_u64(t, row, 4, l->dso && l->sym &&
				  !pm_dso__srcline(l->dso, l->addr, &src) &&
				  src.line > 0 ? (uint64_t)src.line : 0);
	}
	return t;
}

static struct pm_table *mappings_table(const struct pm_profile *p, size_t first)
{
	struct pm_table *t = named("profile_mappings");

	pm_table__add_col(t, "Id", "id", PM_COL_U64);
	pm_table__add_col(t, "Start", "start", PM_COL_HEX);
	pm_table__add_col(t, "Limit", "limit", PM_COL_HEX);
	pm_table__add_col(t, "Offset", "offset", PM_COL_HEX);
	pm_table__add_col(t, "File", "file", PM_COL_STRING);
	pm_table__add_col(t, "Build ID", "build_id", PM_COL_STRING);
	for (size_t k = 0; k < p->maps.nr; k++) {
		/* the k-th in pprof's order */
		size_t i = k == 0 ? first : k <= first ? k - 1 : k;
		const struct pm_map *m = p->map[i];
		const uint8_t *id;
		size_t n = pm_dso__build_id(m->dso, &id), row = pm_table__add_row(t);
		char hex[2 * 64 + 1] = "";

		if (n && n <= 64)
			pm_build_id__hex(id, n, hex);
		pm_table__set_u64(t, row, 0, k + 1);
		pm_table__set_u64(t, row, 1, m->start);
		pm_table__set_u64(t, row, 2, m->end);
		pm_table__set_u64(t, row, 3, m->pgoff);
		pm_table__set_str(t, row, 4, pm_dso__name(m->dso));
		pm_table__set_str(t, row, 5, hex);
	}
	return t;
}

static struct pm_table *functions_table(const struct pm_profile *p)
{
	struct pm_table *t = named("profile_functions");

	pm_table__add_col(t, "Id", "id", PM_COL_U64);
	pm_table__add_col(t, "Name", "name", PM_COL_STRING);
	pm_table__add_col(t, "System Name", "system_name", PM_COL_STRING);
	pm_table__add_col(t, "File", "file", PM_COL_STRING);
	for (size_t i = 0; i < p->funcs.nr; i++) {
		const struct pfunc *f = &p->func[i];
		struct pm_srcline src;
		size_t row = pm_table__add_row(t);
		bool src_ok = f->dso && !pm_dso__srcline(f->dso, f->sym->start, &src) &&
			      src.file;

		pm_table__set_u64(t, row, 0, i + 1);
		pm_table__set_strf(t, row, 1, "%s%s", f->sym->name,
				   f->sym->inlined ? " (inlined)" : "");
		pm_table__set_str(t, row, 2, f->sym->raw_name ? f->sym->raw_name
							      : f->sym->name);
		pm_table__set_str(t, row, 3, src_ok ? src.file : "");
	}
	return t;
}

void pm_profile__tables(struct pm_profile *p, struct pm_report *rep)
{
	pm_report__add_table(rep, samples_table(p));
	size_t first = busiest_mapping(p);

	pm_report__add_table(rep, locations_table(p, first));
	pm_report__add_table(rep, mappings_table(p, first));
	pm_report__add_table(rep, functions_table(p));
}
