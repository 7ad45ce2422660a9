// SPDX-License-Identifier: GPL-2.0
/*
 * The hotspot accumulator. One histogram per output section; an entry per
 * distinct sort key, found through a hash of the key. Keys are made of the
 * session's identities (DSO and symbol pointers, interned comm strings),
 * so building and comparing one costs a few word compares, never a string
 * compare; names are only looked at when the table is built.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/error.h"
#include "pmprof/hotspot.h"
#include "pmprof/strbuf.h"
#include "pmprof/table.h"
#include "pmprof/util.h"

#define KEY_WORDS (2 * PM_HOT_MAX_KEYS)

struct hot_stat {
	uint64_t samples;	/* samples landing here (self) */
	uint64_t period;	/* their period (self) */
	uint64_t acc;		/* period of samples with this in their chain */
};

struct hot_entry {
	uint64_t key[KEY_WORDS];
	uint64_t hash;
	uint64_t seq;		/* last delivery that added to acc */
	/* what the row shows */
	struct pm_dso *dso;
	const struct pm_symbol *sym;
	uint64_t addr;
	char level;
	const char *comm;
	int32_t pid, tid;
	int64_t cpu;		/* -1 when not sampled, as perf shows it */
	uint64_t pc;
	struct hot_stat st[];	/* one per group member */
};

struct hot_hist {
	int idx;			/* event (leader) index */
	size_t nr_slots;
	struct hot_entry **entries;
	size_t nr, alloc;
	struct hot_entry **hash;
	size_t nbuckets;
	uint64_t *samples, *period;	/* per slot */
};

struct id_state {
	uint64_t id, last;
	bool used;
};

struct pm_hotspot {
	struct pm_hotspot_opts opts;
	struct hot_hist **hists;	/* by event index */
	size_t nr_hists;
	struct id_state *ids;
	size_t nids, nid_slots;
	uint64_t seq;
	uint64_t unknown;
	struct pm_hotspot_report *reports;
	size_t nr_reports;
	struct pm_table **tables;
	char **names;
};

static const struct {
	const char *name;
	enum pm_hot_key key;
} key_names[] = {
	{ "dso", PM_HOT_DSO }, { "sym", PM_HOT_SYM }, { "symbol", PM_HOT_SYM },
	{ "comm", PM_HOT_COMM }, { "pid", PM_HOT_PID }, { "tid", PM_HOT_TID },
	{ "cpu", PM_HOT_CPU }, { "pc", PM_HOT_PC },
};

const char *pm_hot_key__name(enum pm_hot_key k)
{
	for (size_t i = 0; i < PM_ARRAY_SIZE(key_names); i++)
		if (key_names[i].key == k)
			return key_names[i].name;
	return "?";
}

int pm_hot_keys__parse(const char *spec, enum pm_hot_key *keys, size_t *nr,
		       struct pm_error *err)
{
	const char *p = spec;

	*nr = 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		size_t i;

		for (i = 0; i < PM_ARRAY_SIZE(key_names); i++)
			if (strlen(key_names[i].name) == n &&
			    !strncmp(p, key_names[i].name, n))
				break;
		if (i == PM_ARRAY_SIZE(key_names))
			return pm_error__fmt(err, -PM_EUSAGE,
				"unknown sort key '%.*s' (dso, sym, comm, pid, tid, cpu, pc)",
				(int)n, p);
		for (size_t j = 0; j < *nr; j++)
			if (keys[j] == key_names[i].key)
				return pm_error__fmt(err, -PM_EUSAGE,
					"sort key '%.*s' given twice", (int)n, p);
		if (*nr == PM_HOT_MAX_KEYS)
			return pm_error__fmt(err, -PM_EUSAGE, "too many sort keys");
		keys[(*nr)++] = key_names[i].key;
		p += n;
		if (*p == ',')
			p++;
	}
	if (!*nr)
		return pm_error__fmt(err, -PM_EUSAGE, "no sort key given");
	return 0;
}

struct pm_hotspot *pm_hotspot__new(const struct pm_hotspot_opts *opts)
{
	struct pm_hotspot *h = pm_zalloc(sizeof(*h));

	if (opts) {
		size_t sz = opts->sz ? PM_MIN(opts->sz, sizeof(h->opts))
				     : sizeof(h->opts);

		memcpy(&h->opts, opts, sz);
	}
	if (!h->opts.nr_keys) {
		h->opts.keys[0] = PM_HOT_DSO;
		h->opts.keys[1] = PM_HOT_SYM;
		h->opts.nr_keys = 2;
	}
	return h;
}

static void hist_free(struct hot_hist *hi)
{
	if (!hi)
		return;
	for (size_t i = 0; i < hi->nr; i++)
		free(hi->entries[i]);
	free(hi->entries);
	free(hi->hash);
	free(hi->samples);
	free(hi->period);
	free(hi);
}

void pm_hotspot__delete(struct pm_hotspot *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->nr_hists; i++)
		hist_free(h->hists[i]);
	free(h->hists);
	free(h->ids);
	for (size_t i = 0; i < h->nr_reports; i++) {
		pm_table__delete(h->tables[i]);
		free(h->names[i]);
	}
	free(h->tables);
	free(h->names);
	free(h->reports);
	free(h);
}

/* ---- counters of sample-read groups: last value per id ---- */

static uint64_t *id_last(struct pm_hotspot *h, uint64_t id)
{
	size_t i;

	if ((h->nids + 1) * 2 > h->nid_slots) {
		size_t n = h->nid_slots ? h->nid_slots * 2 : 64;
		struct id_state *v = pm_calloc(n, sizeof(*v));

		for (i = 0; i < h->nid_slots; i++) {
			size_t j;

			if (!h->ids[i].used)
				continue;
			j = (size_t)(h->ids[i].id * 0x9e3779b97f4a7c15ULL >> 20) & (n - 1);
			while (v[j].used)
				j = (j + 1) & (n - 1);
			v[j] = h->ids[i];
		}
		free(h->ids);
		h->ids = v;
		h->nid_slots = n;
	}
	i = (size_t)(id * 0x9e3779b97f4a7c15ULL >> 20) & (h->nid_slots - 1);
	while (h->ids[i].used && h->ids[i].id != id)
		i = (i + 1) & (h->nid_slots - 1);
	if (!h->ids[i].used) {
		h->ids[i].used = true;
		h->ids[i].id = id;
		h->nids++;
	}
	return &h->ids[i].last;
}

/* ---- histograms ---- */

static struct hot_hist *hist_get(struct pm_hotspot *h, int idx, size_t nr_slots)
{
	struct hot_hist *hi;

	if ((size_t)idx >= h->nr_hists) {
		size_t n = (size_t)idx + 1;

		h->hists = pm_reallocarray(h->hists, n, sizeof(*h->hists));
		memset(h->hists + h->nr_hists, 0,
		       (n - h->nr_hists) * sizeof(*h->hists));
		h->nr_hists = n;
	}
	hi = h->hists[idx];
	if (!hi) {
		hi = h->hists[idx] = pm_zalloc(sizeof(*hi));
		hi->idx = idx;
		hi->nr_slots = nr_slots;
		hi->samples = pm_calloc(nr_slots, sizeof(uint64_t));
		hi->period = pm_calloc(nr_slots, sizeof(uint64_t));
		hi->nbuckets = 1024;
		hi->hash = pm_calloc(hi->nbuckets, sizeof(*hi->hash));
	}
	return hi;
}

static uint64_t hash_key(const uint64_t *key, size_t words)
{
	uint64_t x = 0x84222325cbf29ce4ULL;

	for (size_t i = 0; i < words; i++) {
		x ^= key[i];
		x *= 0x9e3779b97f4a7c15ULL;
		x ^= x >> 29;
	}
	return x;
}

static int64_t sample_cpu(const struct pm_sample *smp)
{
	return smp->sample_type & PM_SAMPLE_CPU ? (int64_t)smp->cpu : -1;
}

static void make_key(const struct pm_hotspot *h, const struct pm_sample_ctx *ctx,
		     const struct pm_addr_loc *loc, uint64_t *key)
{
	size_t w = 0;

	memset(key, 0, KEY_WORDS * sizeof(*key));
	for (size_t i = 0; i < h->opts.nr_keys; i++, w += 2) {
		switch (h->opts.keys[i]) {
		case PM_HOT_DSO:
			key[w] = (uintptr_t)loc->dso;
			break;
		case PM_HOT_SYM:
			/* an unknown symbol is its address, as in perf */
			key[w] = (uintptr_t)loc->sym;
			key[w + 1] = loc->sym ? 0 : loc->rel;
			break;
		case PM_HOT_COMM:
			key[w] = (uintptr_t)ctx->thread->comm;
			break;
		case PM_HOT_PID:
			key[w] = (uint32_t)ctx->thread->pid;
			break;
		case PM_HOT_TID:
			key[w] = (uint32_t)ctx->thread->tid;
			break;
		case PM_HOT_CPU:
			key[w] = (uint64_t)sample_cpu(ctx->sample);
			break;
		case PM_HOT_PC:
			key[w] = loc->ip;
			break;
		default:
			break;
		}
	}
}

static struct hot_entry *findnew(struct hot_hist *hi, size_t words,
				 const uint64_t *key,
				 const struct pm_sample_ctx *ctx,
				 const struct pm_addr_loc *loc)
{
	uint64_t hv = hash_key(key, words);
	size_t mask = hi->nbuckets - 1, i = (size_t)hv & mask;
	struct hot_entry *e;

	for (; (e = hi->hash[i]); i = (i + 1) & mask)
		if (e->hash == hv && !memcmp(e->key, key, words * sizeof(*key)))
			return e;
	e = pm_zalloc(sizeof(*e) + hi->nr_slots * sizeof(e->st[0]));
	memcpy(e->key, key, sizeof(e->key));
	e->hash = hv;
	e->dso = loc->dso;
	e->sym = loc->sym;
	e->addr = loc->rel;
	e->level = loc->level;
	e->pc = loc->ip;
	e->comm = ctx->thread->comm;
	e->pid = ctx->thread->pid;
	e->tid = ctx->thread->tid;
	e->cpu = sample_cpu(ctx->sample);
	PM_GROW(hi->entries, hi->alloc, hi->nr + 1);
	hi->entries[hi->nr++] = e;
	hi->hash[i] = e;
	if (hi->nr * 2 > hi->nbuckets) {
		size_t n = hi->nbuckets * 2;

		free(hi->hash);
		hi->hash = pm_calloc(n, sizeof(*hi->hash));
		hi->nbuckets = n;
		for (size_t k = 0; k < hi->nr; k++) {
			size_t j = (size_t)hi->entries[k]->hash & (n - 1);

			while (hi->hash[j])
				j = (j + 1) & (n - 1);
			hi->hash[j] = hi->entries[k];
		}
	}
	return e;
}

static void deliver(struct pm_hotspot *h, struct pm_session *s,
		    const struct pm_sample_ctx *ctx, const struct pm_event *ev,
		    uint64_t period)
{
	const struct pm_event *leader = ev;
	struct hot_hist *hi;
	struct hot_entry *e;
	uint64_t key[KEY_WORDS];
	size_t words = 2 * h->opts.nr_keys, slot = 0;

	if (h->opts.group && ev->leader_idx != ev->idx) {
		leader = pm_reader__event(pm_session__reader(s),
					  (size_t)ev->leader_idx);
		if (!leader || ev->idx - ev->leader_idx >= leader->nr_members)
			leader = ev;
		else
			slot = (size_t)(ev->idx - ev->leader_idx);
	}
	hi = hist_get(h, leader->idx,
		      h->opts.group && leader->nr_members > 1 ?
		      (size_t)leader->nr_members : 1);
	if (slot >= hi->nr_slots)
		return;
	h->seq++;
	make_key(h, ctx, &ctx->ip, key);
	e = findnew(hi, words, key, ctx, &ctx->ip);
	e->st[slot].samples++;
	e->st[slot].period += period;
	e->st[slot].acc += period;
	e->seq = h->seq;
	hi->samples[slot]++;
	hi->period[slot] += period;
	if (h->opts.children) {
		const struct pm_addr_loc *chain;
		size_t n = pm_session__callchain(s, &chain);

		for (size_t i = 0; i < n; i++) {
			struct pm_addr_loc loc = chain[i];

			/* perf shows an entry outside every map with the
			 * sample's level */
			if (!loc.map)
				loc.level = ctx->ip.level;
			/* and an unresolved entry by the address sampled,
			 * where the sample's own shows its file offset */
			if (!loc.sym)
				loc.rel = loc.ip;
			make_key(h, ctx, &loc, key);
			e = findnew(hi, words, key, ctx, &loc);
			if (e->seq != h->seq) {	/* once per sample */
				e->seq = h->seq;
				e->st[slot].acc += period;
			}
		}
	}
}

void pm_hotspot__add(struct pm_hotspot *h, struct pm_session *s,
		     const struct pm_sample_ctx *ctx)
{
	const struct pm_sample *smp = ctx->sample;

	if (!ctx->event) {
		h->unknown++;
		return;
	}
	if (!(smp->sample_type & PM_SAMPLE_READ)) {
		deliver(h, s, ctx, ctx->event, smp->period);
		return;
	}
	/* Sampled reads: each counter's growth goes to its own event. */
	for (uint64_t i = 0; i < smp->read.nr; i++) {
		const struct pm_read_value *v = &smp->read.values[i];
		const struct pm_event *ev =
			pm_reader__event_by_id(pm_session__reader(s), v->id);
		uint64_t *last, delta;

		if (!ev) {
			h->unknown++;
			continue;
		}
		last = id_last(h, v->id);
		delta = v->value - *last;
		*last = v->value;
		if (delta)
			deliver(h, s, ctx, ev, delta);
	}
}

/* ---- tables ---- */

static const char *sym_name(const struct hot_entry *e)
{
	return e->sym ? e->sym->name : NULL;
}

static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static const struct pm_hotspot *g_sort_h;	/* qsort has no argument */

static int cmp_entries(const void *pa, const void *pb)
{
	const struct hot_entry *a = *(struct hot_entry *const *)pa;
	const struct hot_entry *b = *(struct hot_entry *const *)pb;
	const struct pm_hotspot *h = g_sort_h;
	int c;

	c = h->opts.children ? cmp_u64(b->st[0].acc, a->st[0].acc)
			     : cmp_u64(b->st[0].period, a->st[0].period);
	if (c)
		return c;
	if ((c = cmp_u64(b->st[0].samples, a->st[0].samples)))
		return c;
	for (size_t i = 0; i < h->opts.nr_keys; i++) {
		switch (h->opts.keys[i]) {
		case PM_HOT_DSO:
			c = cmp_str(a->dso ? pm_dso__short_name(a->dso) : NULL,
				    b->dso ? pm_dso__short_name(b->dso) : NULL);
			break;
		case PM_HOT_SYM:
			c = cmp_str(sym_name(a), sym_name(b));
			if (!c)
				c = cmp_u64(a->addr, b->addr);
			break;
		case PM_HOT_COMM:
			c = cmp_str(a->comm, b->comm);
			break;
		case PM_HOT_PID:
			c = cmp_u64((uint32_t)a->pid, (uint32_t)b->pid);
			break;
		case PM_HOT_TID:
			c = cmp_u64((uint32_t)a->tid, (uint32_t)b->tid);
			break;
		case PM_HOT_CPU:
			c = a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
			break;
		case PM_HOT_PC:
			c = cmp_u64(a->pc, b->pc);
			break;
		default:
			break;
		}
		if (c)
			return c;
	}
	return 0;
}

static void set_symbol(struct pm_table *t, size_t row, size_t col,
		       const struct hot_entry *e, bool bare)
{
	/* perf marks a function inlined at the address as " (inlined)" */
	if (e->sym) {
		const char *inl = e->sym->inlined ? " (inlined)" : "";

		if (bare)
			pm_table__set_strf(t, row, col, "%s%s", e->sym->name, inl);
		else
			pm_table__set_strf(t, row, col, "[%c] %s%s", e->level,
					   e->sym->name, inl);
	} else if (bare) {
		pm_table__set_strf(t, row, col, "%#.16" PRIx64, e->addr);
	} else {
		pm_table__set_strf(t, row, col, "[%c] %#.16" PRIx64, e->level,
				   e->addr);
	}
}

static char *section_name(struct pm_reader *r, const struct pm_event *ev,
			  size_t nr_slots)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;

	if (nr_slots <= 1)
		return pm_strdup(ev->name);
	pm_strbuf__addf(&sb, "%s { ", ev->group_name ? ev->group_name
						     : "anon group");
	for (size_t i = 0; i < nr_slots; i++) {
		const struct pm_event *m = pm_reader__event(r, (size_t)ev->idx + i);

		pm_strbuf__addf(&sb, "%s%s", i ? ", " : "", m ? m->name : "?");
	}
	pm_strbuf__adds(&sb, " }");
	return pm_strbuf__detach(&sb);
}

static void add_pct(struct pm_table *t, const char *name, const char *key)
{
	struct pm_table_column c = {
		.name = name, .key = key, .type = PM_COL_PERCENT,
	};

	pm_table__add_column(t, &c);
}

static struct pm_table *build_table(struct pm_hotspot *h, struct pm_reader *r,
				    struct hot_hist *hi, const char *name)
{
	struct pm_table *t = pm_table__new();
	const struct pm_hotspot_opts *o = &h->opts;
	bool has_dso = false, has_sym = false;
	int kcol[PM_HOT_MAX_KEYS + 2];
	size_t rows = 0;
	char key[64], cname[128];

	uint64_t nsamples = 0;

	for (size_t i = 0; i < hi->nr_slots; i++)
		nsamples += hi->samples[i];
	pm_table__add_comment(t, "Samples: %" PRIu64 "  of event%s '%s'",
			      nsamples, hi->nr_slots > 1 ? "s" : "", name);
	pm_table__add_comment(t, "Event count (approx.): %" PRIu64, hi->period[0]);

	for (size_t i = 0; i < hi->nr_slots; i++) {
		const struct pm_event *m = pm_reader__event(r, (size_t)hi->idx + i);
		const char *mn = m ? m->name : "?";

		if (o->children) {
			snprintf(cname, sizeof(cname), i ? "Children:%s" : "Children", mn);
			snprintf(key, sizeof(key), i ? "children_%zu" : "children", i);
			add_pct(t, cname, key);
			snprintf(cname, sizeof(cname), i ? "Self:%s" : "Self", mn);
			snprintf(key, sizeof(key), i ? "self_%zu" : "self", i);
			add_pct(t, cname, key);
		} else {
			snprintf(cname, sizeof(cname), i ? "Overhead:%s" : "Overhead", mn);
			snprintf(key, sizeof(key), i ? "overhead_%zu" : "overhead", i);
			add_pct(t, cname, key);
		}
	}
	for (size_t i = 0; i < hi->nr_slots; i++) {
		const struct pm_event *m = pm_reader__event(r, (size_t)hi->idx + i);
		const char *mn = m ? m->name : "?";

		snprintf(cname, sizeof(cname), i ? "Samples:%s" : "Samples", mn);
		snprintf(key, sizeof(key), i ? "samples_%zu" : "samples", i);
		pm_table__add_col(t, cname, key, PM_COL_U64);
		snprintf(cname, sizeof(cname), i ? "Period:%s" : "Period", mn);
		snprintf(key, sizeof(key), i ? "period_%zu" : "period", i);
		pm_table__add_col(t, cname, key, PM_COL_U64);
	}
	for (size_t k = 0; k < o->nr_keys; k++) {
		switch (o->keys[k]) {
		case PM_HOT_DSO:
			kcol[k] = pm_table__add_col(t, "Shared Object", "dso", PM_COL_STRING);
			has_dso = true;
			break;
		case PM_HOT_SYM:
			kcol[k] = pm_table__add_col(t, "Symbol", "symbol", PM_COL_STRING);
			has_sym = true;
			break;
		case PM_HOT_COMM:
			kcol[k] = pm_table__add_col(t, "Command", "comm", PM_COL_STRING);
			break;
		case PM_HOT_PID:
			kcol[k] = pm_table__add_col(t, "Pid", "pid", PM_COL_I64);
			break;
		case PM_HOT_TID:
			kcol[k] = pm_table__add_col(t, "Tid", "tid", PM_COL_I64);
			break;
		case PM_HOT_CPU:
			kcol[k] = pm_table__add_col(t, "CPU", "cpu", PM_COL_I64);
			break;
		case PM_HOT_PC:
			kcol[k] = pm_table__add_col(t, "PC", "pc", PM_COL_HEX);
			break;
		default:
			kcol[k] = -1;
		}
	}
	if (o->all_columns && !has_dso)
		pm_table__add_col(t, "Shared Object", "dso", PM_COL_STRING);
	if (o->all_columns && !has_sym)
		pm_table__add_col(t, "Symbol", "symbol", PM_COL_STRING);

	g_sort_h = h;
	qsort(hi->entries, hi->nr, sizeof(*hi->entries), cmp_entries);
	for (size_t n = 0; n < hi->nr; n++) {
		const struct hot_entry *e = hi->entries[n];
		uint64_t tot0 = hi->period[0];
		double pct0 = tot0 ? 100.0 * (double)(o->children ? e->st[0].acc
							   : e->st[0].period) / (double)tot0 : 0;
		size_t row, col = 0;

		if (o->percent_limit > 0 && pct0 < o->percent_limit)
			continue;
		if (o->top && rows == o->top)
			break;
		row = pm_table__add_row(t);
		rows++;
		for (size_t i = 0; i < hi->nr_slots; i++) {
			double tot = (double)hi->period[i];

			if (o->children)
				pm_table__set_double(t, row, col++, tot ?
					100.0 * (double)e->st[i].acc / tot : 0);
			pm_table__set_double(t, row, col++, tot ?
				100.0 * (double)e->st[i].period / tot : 0);
		}
		for (size_t i = 0; i < hi->nr_slots; i++) {
			pm_table__set_u64(t, row, col++, e->st[i].samples);
			pm_table__set_u64(t, row, col++, e->st[i].period);
		}
		for (size_t k = 0; k < o->nr_keys; k++) {
			size_t c = (size_t)kcol[k];

			switch (o->keys[k]) {
			case PM_HOT_DSO:
				pm_table__set_str(t, row, c, e->dso ?
					pm_dso__short_name(e->dso) : "[unknown]");
				break;
			case PM_HOT_SYM:
				set_symbol(t, row, c, e, o->bare_symbols);
				break;
			case PM_HOT_COMM:
				pm_table__set_str(t, row, c, e->comm);
				break;
			case PM_HOT_PID:
				pm_table__set_i64(t, row, c, e->pid);
				break;
			case PM_HOT_TID:
				pm_table__set_i64(t, row, c, e->tid);
				break;
			case PM_HOT_CPU:
				pm_table__set_i64(t, row, c, e->cpu);
				break;
			case PM_HOT_PC:
				pm_table__set_u64(t, row, c, e->pc);
				break;
			default:
				break;
			}
		}
	}
	return t;
}

size_t pm_hotspot__finish(struct pm_hotspot *h, struct pm_reader *r,
			  const struct pm_hotspot_report **out)
{
	if (!h->reports) {
		h->reports = pm_calloc(h->nr_hists + 1, sizeof(*h->reports));
		h->tables = pm_calloc(h->nr_hists + 1, sizeof(*h->tables));
		h->names = pm_calloc(h->nr_hists + 1, sizeof(*h->names));
		for (size_t i = 0; i < h->nr_hists; i++) {
			struct hot_hist *hi = h->hists[i];
			struct pm_hotspot_report *rep;
			const struct pm_event *ev;
			uint64_t n = 0;

			if (!hi)
				continue;
			for (size_t k = 0; k < hi->nr_slots; k++)
				n += hi->samples[k];
			if (!n)
				continue;
			ev = pm_reader__event(r, (size_t)hi->idx);
			rep = &h->reports[h->nr_reports];
			h->names[h->nr_reports] = section_name(r, ev, hi->nr_slots);
			rep->name = h->names[h->nr_reports];
			rep->samples = n;
			rep->period = hi->period[0];
			rep->lost_unknown = h->unknown;
			rep->table = h->tables[h->nr_reports] =
				build_table(h, r, hi, rep->name);
			h->nr_reports++;
		}
	}
	*out = h->reports;
	return h->nr_reports;
}
