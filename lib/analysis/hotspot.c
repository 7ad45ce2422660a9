// SPDX-License-Identifier: GPL-2.0
/*
 * The hotspot accumulator. One histogram per report table; an entry per
 * distinct sort key, found through the hash index. Keys come from the
 * sort-key descriptors (hotspot-keys.c); the tables are built at finish.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotspot-int.h"
#include "pmprof/error.h"
#include "pmprof/hash.h"
#include "pmprof/profile.h"
#include "pmprof/records.h"
#include "pmprof/stacks.h"
#include "pmprof/report.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

struct hot_hist {
	int idx;			/* event (leader) index */
	size_t nr_slots;
	struct hot_entry **entries;
	size_t nr, alloc;
	struct pm_hash index;
	uint64_t *samples, *period;	/* per slot */
};

/* The last value of a sample-read counter, by id. */
struct id_last {
	uint64_t id, last;
};

struct pm_hotspot {
	struct pm_hotspot_opts opts;
	struct hot_hist **hists;	/* by event index */
	size_t nr_hists;
	struct id_last *ids;
	size_t nr_ids, alloc_ids;
	struct pm_hash id_index;
	uint64_t seq;
	uint64_t unknown;		/* samples of no known event or id */
	uint64_t lost;
	bool started;			/* over a session: the events known */
	bool children_ignored;		/* --children without call chains */
	struct pm_stacks *stacks;	/* opts.stacks */
	struct pm_profile *profile;	/* opts.profile */
};

static const struct pm_hotspot_opts default_opts;

struct pm_hotspot *pm_hotspot__new(const struct pm_hotspot_opts *opts)
{
	struct pm_hotspot *h = pm_zalloc(sizeof(*h));

	PM_OPTS_COPY(&h->opts, opts, default_opts);
	if (!h->opts.nr_keys) {
		h->opts.keys[0] = PM_HOT_DSO;
		h->opts.keys[1] = PM_HOT_SYM;
		h->opts.nr_keys = 2;
	}
	if (h->opts.stacks)
		h->stacks = pm_stacks__new();
	if (h->opts.profile)
		h->profile = pm_profile__new();
	return h;
}

static void hist_free(struct hot_hist *hi)
{
	if (!hi)
		return;
	for (size_t i = 0; i < hi->nr; i++)
		free(hi->entries[i]);
	free(hi->entries);
	pm_hash__release(&hi->index);
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
	pm_hash__release(&h->id_index);
	pm_stacks__delete(h->stacks);
	pm_profile__delete(h->profile);
	free(h);
}

/* ---- counters of sample-read groups: last value per id ---- */

static uint64_t id_hash(const void *arg, size_t i)
{
	return pm_hash64(((const struct id_last *)arg)[i].id);
}

static uint64_t *id_last(struct pm_hotspot *h, uint64_t id)
{
	size_t s = PM_HASH_FIND(&h->id_index, pm_hash64(id), i, h->ids[i].id == id);

	if (!pm_hash__empty(&h->id_index, s))
		return &h->ids[pm_hash__at(&h->id_index, s)].last;
	pm_hash__reserve(&h->id_index, h->nr_ids, id_hash, h->ids);
	s = PM_HASH_FIND(&h->id_index, pm_hash64(id), i, false);
	PM_GROW(h->ids, h->alloc_ids, h->nr_ids + 1);
	h->ids[h->nr_ids] = (struct id_last){ .id = id };
	pm_hash__set(&h->id_index, s, h->nr_ids);
	return &h->ids[h->nr_ids++].last;
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

static uint64_t entry_hash(const void *arg, size_t i)
{
	return ((struct hot_entry *const *)arg)[i]->hash;
}

static void make_key(const struct pm_hotspot *h, const struct pm_sample_ctx *ctx,
		     const struct pm_addr_loc *loc, uint64_t *key)
{
	memset(key, 0, HOT_KEY_WORDS * sizeof(*key));
	for (size_t i = 0; i < h->opts.nr_keys; i++)
		hot_key__get(h->opts.keys[i])->words(ctx, loc, key + 2 * i);
}

static struct hot_entry *findnew(struct hot_hist *hi, size_t words,
				 const uint64_t *key,
				 const struct pm_sample_ctx *ctx,
				 const struct pm_addr_loc *loc)
{
	uint64_t hv = hash_key(key, words);
	size_t s = PM_HASH_FIND(&hi->index, hv, i,
				hi->entries[i]->hash == hv &&
				!memcmp(hi->entries[i]->key, key, words * sizeof(*key)));
	struct hot_entry *e;

	if (!pm_hash__empty(&hi->index, s))
		return hi->entries[pm_hash__at(&hi->index, s)];
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
	e->cpu = ctx->sample->sample_type & PM_SAMPLE_CPU ?
		 (int64_t)ctx->sample->cpu : -1;
	pm_hash__reserve(&hi->index, hi->nr, entry_hash, hi->entries);
	s = PM_HASH_FIND(&hi->index, hv, i, false);
	PM_GROW(hi->entries, hi->alloc, hi->nr + 1);
	hi->entries[hi->nr] = e;
	pm_hash__set(&hi->index, s, hi->nr++);
	return e;
}

static void deliver(struct pm_hotspot *h, struct pm_session *s,
		    const struct pm_sample_ctx *ctx, const struct pm_event *ev,
		    uint64_t period)
{
	const struct pm_event *leader = ev;
	struct hot_hist *hi;
	struct hot_entry *e;
	uint64_t key[HOT_KEY_WORDS];
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
	if (h->stacks)
		pm_stacks__add(h->stacks, pm_stacks__column(h->stacks, ev->idx,
							     ev->name), period);
	if (h->profile)
		pm_profile__add(h->profile, pm_profile__column(h->profile, ev->idx,
							       ev->name), period);
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
	if (h->stacks)
		pm_stacks__begin(h->stacks, s, ctx);
	if (h->profile)
		pm_profile__begin(h->profile, s, ctx);
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

int pm_hotspot__record(struct pm_hotspot *h, struct pm_reader *r,
		       const struct pm_record *rec, struct pm_error *err)
{
	(void)err;
	if (rec->type == PM_RECORD_LOST) {
		struct pm_rec_lost l;

		if (!pm_rec__lost(r, rec, &l, NULL))
			h->lost += l.lost;
	} else if (rec->type == PM_RECORD_LOST_SAMPLES) {
		struct pm_rec_lost_samples l;

		if (!pm_rec__lost_samples(r, rec, &l, NULL))
			h->lost += l.lost;
	}
	return 0;
}

/* ---- tables ---- */

struct sort_arg {
	const struct pm_hotspot *h;
};

static int cmp_entries(const void *pa, const void *pb, void *arg)
{
	const struct hot_entry *a = *(struct hot_entry *const *)pa;
	const struct hot_entry *b = *(struct hot_entry *const *)pb;
	const struct pm_hotspot *h = arg;
	int c;

	c = h->opts.children ? pm_cmp_u64(b->st[0].acc, a->st[0].acc)
			     : pm_cmp_u64(b->st[0].period, a->st[0].period);
	if (c)
		return c;
	if ((c = pm_cmp_u64(b->st[0].samples, a->st[0].samples)))
		return c;
	for (size_t i = 0; i < h->opts.nr_keys; i++)
		if ((c = hot_key__get(h->opts.keys[i])->cmp(a, b)))
			return c;
	return 0;
}

static char *table_name(struct pm_reader *r, const struct pm_event *ev,
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

/* "Overhead" for the leader, "Overhead:EVENT" and key "overhead_N" for
 * the other members of a group. */
static void add_member_col(struct pm_table *t, const char *what,
			   const char *key, size_t i, const char *member,
			   enum pm_table_type type)
{
	struct pm_table_column c = { .type = type };
	char name[128], k[64];

	snprintf(name, sizeof(name), i ? "%s:%s" : "%s", what, member);
	snprintf(k, sizeof(k), i ? "%s_%zu" : "%s", key, i);
	c.name = name;
	c.key = k;
	pm_table__add_column(t, &c);
}

static void add_columns(struct pm_table *t, const struct pm_hotspot *h,
			struct pm_reader *r, const struct hot_hist *hi,
			size_t *kcol)
{
	const struct pm_hotspot_opts *o = &h->opts;
	bool has_dso = false, has_sym = false;

	for (size_t i = 0; i < hi->nr_slots; i++) {
		const struct pm_event *m = pm_reader__event(r, (size_t)hi->idx + i);
		const char *mn = m ? m->name : "?";

		if (o->children) {
			add_member_col(t, "Children", "children", i, mn, PM_COL_PERCENT);
			add_member_col(t, "Self", "self", i, mn, PM_COL_PERCENT);
		} else {
			add_member_col(t, "Overhead", "overhead", i, mn, PM_COL_PERCENT);
		}
	}
	for (size_t i = 0; i < hi->nr_slots; i++) {
		const struct pm_event *m = pm_reader__event(r, (size_t)hi->idx + i);
		const char *mn = m ? m->name : "?";

		add_member_col(t, "Samples", "samples", i, mn, PM_COL_U64);
		add_member_col(t, "Period", "period", i, mn, PM_COL_U64);
	}
	for (size_t k = 0; k < o->nr_keys; k++) {
		const struct hot_key *d = hot_key__get(o->keys[k]);

		kcol[k] = (size_t)pm_table__add_column(t, &d->col);
		if (d->json_col.name)
			pm_table__add_column(t, &d->json_col);
		has_dso |= o->keys[k] == PM_HOT_DSO;
		has_sym |= o->keys[k] == PM_HOT_SYM;
	}
	/* JSON rows always name the location (null when no key). */
	if (!has_dso) {
		struct pm_table_column c = hot_key__get(PM_HOT_DSO)->col;

		c.show = PM_SHOW_JSON;
		pm_table__add_column(t, &c);
	}
	if (!has_sym)
		pm_table__add_column(t, &hot_key__get(PM_HOT_SYM)->json_col);
}

static struct pm_table *build_table(struct pm_hotspot *h, struct pm_reader *r,
				    struct hot_hist *hi, const char *name)
{
	struct pm_table *t = pm_table__new();
	const struct pm_hotspot_opts *o = &h->opts;
	size_t kcol[PM_HOT_MAX_KEYS];
	uint64_t nsamples = 0;

	for (size_t i = 0; i < hi->nr_slots; i++)
		nsamples += hi->samples[i];
	pm_table__set_flags(t, PM_TABLE_PERF_HEADER);
	pm_table__add_comment(t, "Samples: %" PRIu64 "  of event%s '%s'",
			      nsamples, hi->nr_slots > 1 ? "s" : "", name);
	pm_table__add_comment(t, "Event count (approx.): %" PRIu64, hi->period[0]);
	pm_summary__add_str(pm_table__summary(t), "event", NULL, name);
	pm_summary__add_u64(pm_table__summary(t), "samples", NULL, nsamples);
	pm_summary__add_u64(pm_table__summary(t), "event_count", NULL,
			    hi->period[0]);
	add_columns(t, h, r, hi, kcol);

	qsort_r(hi->entries, hi->nr, sizeof(*hi->entries), cmp_entries, h);
	for (size_t n = 0; n < hi->nr; n++) {
		const struct hot_entry *e = hi->entries[n];
		uint64_t tot0 = hi->period[0];
		double pct0 = tot0 ? 100.0 * (double)(o->children ? e->st[0].acc
							   : e->st[0].period) / (double)tot0 : 0;
		size_t row, col = 0;

		if (o->percent_limit > 0 && pct0 < o->percent_limit)
			continue;
		row = pm_table__add_row(t);
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
		for (size_t k = 0; k < o->nr_keys; k++)
			hot_key__get(o->keys[k])->cells(t, row, kcol[k], e);
	}
	return t;
}

int pm_hotspot__finish(struct pm_hotspot *h, struct pm_reader *r,
		       struct pm_report **out)
{
	static const struct pm_table_column event_col = {
		.name = "Event", .key = "event", .type = PM_COL_STRING,
	};
	struct pm_report *rep = pm_report__new();

	/* perf's header: a bare "#", then the lost samples. */
	pm_report__add_comment(rep, "%s", "");
	pm_summary__add_u64(pm_report__summary(rep), "lost_samples",
			    "Total Lost Samples", h->lost);
	pm_report__set_tables_key(rep, "events");
	pm_report__set_merge_column(rep, &event_col, false);
	for (size_t i = 0; i < h->nr_hists; i++) {
		struct hot_hist *hi = h->hists[i];
		const struct pm_event *ev;
		uint64_t n = 0;
		char *name;

		if (!hi)
			continue;
		for (size_t k = 0; k < hi->nr_slots; k++)
			n += hi->samples[k];
		if (!n)
			continue;
		ev = pm_reader__event(r, (size_t)hi->idx);
		name = table_name(r, ev, hi->nr_slots);
		pm_report__add_table(rep, build_table(h, r, hi, name));
		free(name);
	}
	if (h->stacks)
		pm_report__add_table(rep, pm_stacks__table(h->stacks));
	if (h->profile)
		pm_profile__tables(h->profile, rep);
	*out = rep;
	return 0;
}

/* ---- over a session ---- */

/* Call chains come from PERF_SAMPLE_CALLCHAIN or a dwarf stack. */
static bool has_callchains(struct pm_reader *r)
{
	for (size_t i = 0; i < pm_reader__nr_events(r); i++) {
		uint64_t st = pm_reader__event(r, i)->attr.sample_type;

		if ((st & PM_SAMPLE_CALLCHAIN) ||
		    ((st & PM_SAMPLE_REGS_USER) && (st & PM_SAMPLE_STACK_USER)))
			return true;
	}
	return false;
}

/* Once the events are known (a pipe names them as it goes): --children
 * on a recording without call chains is the self profile. */
static void start(struct pm_hotspot *h, struct pm_reader *r)
{
	h->started = true;
	if (h->opts.children && !has_callchains(r)) {
		h->opts.children = false;
		h->children_ignored = true;
	}
}

static int sample(void *x, struct pm_session *s, const struct pm_sample_ctx *ctx,
		  struct pm_error *err)
{
	struct pm_hotspot *h = x;

	(void)err;
	if (!h->started)
		start(h, pm_session__reader(s));
	pm_hotspot__add(h, s, ctx);
	return 0;
}

static int record(void *x, struct pm_session *s, const struct pm_record *rec,
		  struct pm_error *err)
{
	return pm_hotspot__record(x, pm_session__reader(s), rec, err);
}

static int finish(void *x, struct pm_session *s, struct pm_report **out,
		  struct pm_error *err)
{
	struct pm_hotspot *h = x;
	char ksyms[512];
	int ret;

	(void)err;
	if (!h->started)
		start(h, pm_session__reader(s));
	ret = pm_hotspot__finish(h, pm_session__reader(s), out);
	if (!ret && h->children_ignored)
		pm_report__add_warning(*out, "no call chains in this recording (record with "
				       "-g or --call-graph): --children ignored");
	/* Which kernel symbols named the kernel's addresses, and why. */
	if (!ret && pm_session__kernel_symbols(s, ksyms, sizeof(ksyms)))
		pm_summary__add_str(pm_report__summary(*out), "kernel_symbols",
				    "Kernel symbols", ksyms);
	return ret;
}

const struct pm_analysis pm_hotspot_analysis = {
	.name = "report",
	.sample = sample,
	.record = record,
	.finish = finish,
};
