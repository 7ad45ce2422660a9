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
#include "pmprof/filter.h"
#include "pmprof/hash.h"
#include "pmprof/profile.h"
#include "pmprof/records.h"
#include "pmprof/stacks.h"
#include "pmprof/report.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

struct hot_hist {
	struct pm_reader *r;		/* of the recording that made it, */
	int idx;			/* and its event (leader) index there */
	size_t nr_slots;
	struct hot_entry **entries;
	size_t nr, alloc;
	struct pm_hash index;
	uint64_t *samples, *period;	/* per slot */
};

struct pm_hotspot {
	struct pm_hotspot_opts opts;
	struct hot_hist **hists;	/* by fleet id (event index) */
	struct hot_events evs;		/* a fleet's events by name */
	struct hot_entry **rows;	/* a sample's row per chain entry */
	struct pm_addr_loc *chain;	/* a sample's chain, -U applied */
	size_t alloc_rows, alloc_chain;
	size_t nr_hists;
	struct hot_ids ids;		/* the recording's counters */
	bool fleet;			/* several recordings: coalesce rows */
	uint64_t seq;
	uint64_t unknown;		/* samples of no known event or id */
	uint64_t lost;
	bool started;			/* over a session: the events known */
	bool children_ignored;		/* --children without call chains */
	struct pm_stacks *stacks;	/* opts.stacks */
	struct pm_profile *profile;	/* opts.profile */
	bool graph_ignored;		/* -g without call chains */
	struct pm_filter *filter;	/* from opts.filter, at the start */
	enum pm_cg_order cg_order;
	bool sample_filtered;		/* the thread filters hide this sample */
	struct hot_field order[HOT_MAX_FIELDS];	/* -F: the rows' order */
	size_t nr_order;
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
	if (h->opts.fields)
		h->nr_order = hot_fields__order(&h->opts, h->order);
	if (h->opts.stacks)
		h->stacks = pm_stacks__new();
	if (h->opts.profile)
		h->profile = pm_profile__new();
	h->cg_order = h->opts.cg.order_set ? h->opts.cg.order :
		      h->opts.children ? PM_CG_CALLER : PM_CG_CALLEE;
	return h;
}

static void hist_free(struct hot_hist *hi)
{
	if (!hi)
		return;
	for (size_t i = 0; i < hi->nr; i++) {
		pm_cg__delete(hi->entries[i]->tree);
		free(hi->entries[i]);
	}
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
	free(h->rows);
	free(h->chain);
	hot_ids__reset(&h->ids);
	pm_stacks__delete(h->stacks);
	pm_profile__delete(h->profile);
	pm_filter__delete(h->filter);
	hot_events__release(&h->evs);
	free(h);
}

/* ---- histograms ---- */

static struct hot_hist *hist_get(struct pm_hotspot *h, int id, struct pm_reader *r,
				 int idx, size_t nr_slots)
{
	struct hot_hist *hi;

	if ((size_t)id >= h->nr_hists) {
		size_t n = (size_t)id + 1;

		h->hists = pm_reallocarray(h->hists, n, sizeof(*h->hists));
		memset(h->hists + h->nr_hists, 0,
		       (n - h->nr_hists) * sizeof(*h->hists));
		h->nr_hists = n;
	}
	hi = h->hists[id];
	if (!hi) {
		hi = h->hists[id] = pm_zalloc(sizeof(*hi));
		hi->r = r;
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
				 const struct pm_addr_loc *loc, bool filtered)
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
	e->filtered = filtered;
	pm_hash__reserve(&hi->index, hi->nr, entry_hash, hi->entries);
	s = PM_HASH_FIND(&hi->index, hv, i, false);
	PM_GROW(hi->entries, hi->alloc, hi->nr + 1);
	hi->entries[hi->nr] = e;
	pm_hash__set(&hi->index, s, hi->nr++);
	return e;
}

/* A sample's chain, cut to --max-stack as perf, without what -U hides:
 * in h->chain. */
static size_t sample_chain(struct pm_hotspot *h, struct pm_session *s)
{
	const struct pm_addr_loc *chain;
	size_t n = pm_session__callchain(s, &chain), k = 0;
	size_t recorded = pm_session__callchain_sampled(s);

	PM_GROW(h->chain, h->alloc_chain, n + 1);
	for (size_t i = 0; i < n; i++)
		if (pm_callgraph__keeps(i, n, recorded, h->opts.max_stack, h->cg_order) &&
		    (!h->filter || !pm_filter__hides_entry(h->filter, &chain[i])))
			h->chain[k++] = chain[i];
	return k;
}

static void *row_of(void *arg, size_t i)
{
	return ((struct pm_hotspot *)arg)->rows[i];
}

static struct pm_cg_node *tree_of(void *arg, void *row)
{
	struct hot_entry *e = row;

	(void)arg;
	if (!e->tree)
		e->tree = pm_cg__new();
	return e->tree;
}

/* --children: the sample's period into each caller's row (once per
 * row); -g: the chain into the trees of the rows it goes to. */
static void deliver_chain(struct pm_hotspot *h, struct pm_session *s,
			  const struct pm_sample_ctx *ctx, struct hot_hist *hi,
			  struct hot_entry *self, size_t slot, uint64_t period)
{
	size_t words = 2 * h->opts.nr_keys, n = sample_chain(h, s);
	uint64_t key[HOT_KEY_WORDS];
	char level = ctx->ip.level;

	PM_GROW(h->rows, h->alloc_rows, n + 1);
	for (size_t j = 0; j < n; j++) {
		/* in perf's order: callers first in caller order */
		size_t i = h->cg_order == PM_CG_CALLER ? n - 1 - j : j;
		struct pm_addr_loc loc = h->chain[i];
		struct hot_entry *e;

		h->rows[i] = NULL;
		if (!h->opts.children)
			continue;
		/* perf shows an entry outside every map with the level
		 * of the last one in a map before it in that order (it
		 * reuses one entry along the chain), else the sample's */
		if (loc.map)
			level = loc.level;
		else
			loc.level = level;
		/* and an unresolved entry by the address sampled,
		 * where the sample's own shows its file offset: a row
		 * of its own, a caller's */
		if (!loc.sym)
			loc.rel = loc.ip;
		make_key(h, ctx, &loc, key);
		e = findnew(hi, words, key, ctx, &loc, h->sample_filtered);
		h->rows[i] = e;
		if (e->seq != h->seq) {	/* once per sample */
			e->seq = h->seq;
			e->st[slot].acc += period;
		}
	}
	if (h->opts.callgraph && slot == 0 && n)
		pm_callgraph__add_sample(h->chain, n, h->cg_order, h->opts.children,
					 period, self, row_of, tree_of, h);
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
	struct pm_reader *r = pm_session__reader(s);
	int id = hot_events__id(&h->evs, r, ev->idx);

	if (h->opts.group && ev->leader_idx != ev->idx) {
		leader = pm_reader__event(r, (size_t)ev->leader_idx);
		if (!leader || ev->idx - ev->leader_idx >= leader->nr_members)
			leader = ev;
		else
			slot = (size_t)(ev->idx - ev->leader_idx);
	}
	hi = hist_get(h, hot_events__id(&h->evs, r, leader->idx), r, leader->idx,
		      h->opts.group && leader->nr_members > 1 ?
		      (size_t)leader->nr_members : 1);
	if (slot >= hi->nr_slots)
		return;
	hi->samples[slot]++;
	hi->period[slot] += period;
	/* --pid, --tid, --comm: in the totals, in no row of theirs; perf
	 * decides a row's by the sample that makes it, and later samples
	 * of other threads add to it */
	h->sample_filtered = h->filter && !pm_filter__thread(h->filter, ctx->thread);
	h->seq++;
	make_key(h, ctx, &ctx->ip, key);
	e = findnew(hi, words, key, ctx, &ctx->ip, h->sample_filtered);
	e->st[slot].samples++;
	e->st[slot].period += period;
	e->st[slot].acc += period;
	e->seq = h->seq;
	/* the pictures (stacks, profile) show what the filters keep */
	if (h->stacks && !h->sample_filtered)
		pm_stacks__add(h->stacks, pm_stacks__column(h->stacks, id,
							     ev->name), period);
	if (h->profile && !h->sample_filtered)
		pm_profile__add(h->profile, pm_profile__column(h->profile, id,
							       ev->name), period);
	if (h->opts.children || (h->opts.callgraph && slot == 0))
		deliver_chain(h, s, ctx, hi, e, slot, period);
}

void pm_hotspot__add(struct pm_hotspot *h, struct pm_session *s,
		     const struct pm_sample_ctx *ctx)
{
	const struct pm_sample *smp = ctx->sample;

	if (!ctx->event) {
		h->unknown++;
		return;
	}
	/* -C, --time, -U: as if never recorded */
	if (h->filter && pm_filter__drop(h->filter, ctx))
		return;
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
		last = hot_ids__last(&h->ids, v->id);
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

/* One field's order of two rows: counts the larger first, keys as perf. */
static int cmp_field(const struct hot_field *f, const struct hot_entry *a,
		     const struct hot_entry *b)
{
	switch (f->kind) {
	case HOT_F_CHILDREN:
		return pm_cmp_u64(b->st[0].acc, a->st[0].acc);
	case HOT_F_OVERHEAD:
	case HOT_F_PERIOD:
		return pm_cmp_u64(b->st[0].period, a->st[0].period);
	case HOT_F_SAMPLE:
		return pm_cmp_u64(b->st[0].samples, a->st[0].samples);
	default:
		return hot_key__get(f->key)->cmp(a, b);
	}
}

static int cmp_entries(const void *pa, const void *pb, void *arg)
{
	const struct hot_entry *a = *(struct hot_entry *const *)pa;
	const struct hot_entry *b = *(struct hot_entry *const *)pb;
	const struct pm_hotspot *h = arg;
	int c;

	/* -F: perf sorts on its fields (after --sort's keys) alone */
	for (size_t i = 0; i < h->nr_order; i++)
		if ((c = cmp_field(&h->order[i], a, b)))
			return c;
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

/* --dsos, --symbols: the rows they keep. */
static bool shown(const struct pm_hotspot *h, const struct hot_entry *e)
{
	return !e->filtered &&
	       (!h->filter || pm_filter__row(h->filter, e->dso, e->sym));
}

/* --percentage relative: the samples and periods of the rows shown. */
static uint64_t *shown_totals(const struct pm_hotspot *h,
			      const struct hot_hist *hi, uint64_t *nsamples)
{
	uint64_t *total = pm_calloc(hi->nr_slots, sizeof(*total));

	*nsamples = 0;
	for (size_t n = 0; n < hi->nr; n++) {
		const struct hot_entry *e = hi->entries[n];

		if (!shown(h, e))
			continue;
		for (size_t i = 0; i < hi->nr_slots; i++) {
			total[i] += e->st[i].period;
			*nsamples += e->st[i].samples;
		}
	}
	return total;
}

/* A row's counts of member i, in the columns it has. */
static void count_cells(struct pm_table *t, size_t row, const struct hot_graph *g,
			size_t nr_slots, size_t i, const struct hot_stat *st,
			uint64_t total)
{
	const size_t *col = g->count_col;
	double tot = (double)total;

	if (col[HOT_F_CHILDREN * nr_slots + i] != SIZE_MAX)
		pm_table__set_double(t, row, col[HOT_F_CHILDREN * nr_slots + i],
				     tot ? 100.0 * (double)st->acc / tot : 0);
	pm_table__set_double(t, row, col[HOT_F_OVERHEAD * nr_slots + i],
			     tot ? 100.0 * (double)st->period / tot : 0);
	pm_table__set_u64(t, row, col[HOT_F_SAMPLE * nr_slots + i], st->samples);
	pm_table__set_u64(t, row, col[HOT_F_PERIOD * nr_slots + i], st->period);
}

static struct pm_table *build_table(struct pm_hotspot *h, struct hot_hist *hi,
				    const char *name)
{
	struct pm_table *t = pm_table__new();
	const struct pm_hotspot_opts *o = &h->opts;
	size_t kcol[PM_HOT_MAX_KEYS];
	uint64_t nsamples = 0, *total = hi->period;
	struct hot_graph g = { .opts = &o->cg };

	if (o->relative)	/* shares of what the filters keep */
		total = shown_totals(h, hi, &nsamples);
	else
		for (size_t i = 0; i < hi->nr_slots; i++)
			nsamples += hi->samples[i];
	pm_table__set_flags(t, PM_TABLE_PERF_HEADER | hot_graph__table_flags(o));
	if (o->callgraph)
		pm_table__set_tree_key(t, "callgraph");
	pm_table__add_comment(t, "Samples: %" PRIu64 "  of event%s '%s'",
			      nsamples, hi->nr_slots > 1 ? "s" : "", name);
	pm_table__add_comment(t, "Event count (approx.): %" PRIu64, total[0]);
	pm_summary__add_str(pm_table__summary(t), "event", NULL, name);
	pm_summary__add_u64(pm_table__summary(t), "samples", NULL, nsamples);
	pm_summary__add_u64(pm_table__summary(t), "event_count", NULL, total[0]);
	hot_columns__add(t, o, hi->r, hi->idx, hi->nr_slots, kcol, &g);
	g.own_frame = pm_table__flags(t) & PM_TABLE_CALL_OWN_FRAME;
	g.total = total[0];

	if (h->fleet)
		hi->nr = hot_rows__coalesce(hi->entries, hi->nr, hi->nr_slots, o);
	qsort_r(hi->entries, hi->nr, sizeof(*hi->entries), cmp_entries, h);
	for (size_t n = 0; n < hi->nr; n++) {
		struct hot_entry *e = hi->entries[n];
		uint64_t tot0 = total[0];
		double pct0 = tot0 ? 100.0 * (double)(o->children ? e->st[0].acc
							   : e->st[0].period) / (double)tot0 : 0;
		size_t row;

		if (o->percent_limit > 0 && pct0 < o->percent_limit)
			continue;
		if (!shown(h, e))
			continue;
		row = pm_table__add_row(t);
		for (size_t i = 0; i < hi->nr_slots; i++)
			count_cells(t, row, &g, hi->nr_slots, i, &e->st[i], total[i]);
		for (size_t k = 0; k < o->nr_keys; k++)
			hot_key__get(o->keys[k])->cells(t, row, kcol[k], e);
		if (g.weight_col >= 0)
			pm_table__set_u64(t, row, (size_t)g.weight_col, e->st[0].acc);
		if (o->callgraph)
			hot_graph__rows(t, row, e->tree,
					o->children ? e->st[0].acc : e->st[0].period, &g);
	}
	if (total != hi->period)
		free(total);
	free(g.count_col);
	return t;
}

int pm_hotspot__finish(struct pm_hotspot *h, struct pm_reader *r,
		       struct pm_report **out)
{
	static const struct pm_table_column event_col = {
		.name = "Event", .key = "event", .type = PM_COL_STRING,
	};
	struct pm_report *rep = pm_report__new();

	(void)r;	/* each table's names: the recording that made it (hi->r) */
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
		ev = pm_reader__event(hi->r, (size_t)hi->idx);
		name = table_name(hi->r, ev, hi->nr_slots);
		pm_report__add_table(rep, build_table(h, hi, name));
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
static int start(struct pm_hotspot *h, struct pm_reader *r, struct pm_error *err)
{
	const struct pm_features *f = pm_reader__features(r);
	bool chains = has_callchains(r);

	h->started = true;
	if (h->opts.children && !chains) {
		h->opts.children = false;
		h->children_ignored = true;
	}
	if (h->opts.callgraph && h->opts.cg.mode == PM_CG_NONE)
		h->opts.callgraph = false;
	if (h->opts.callgraph && !chains) {
		h->opts.callgraph = false;
		h->graph_ignored = true;
	}
	/* --time percentages are of the first to the last sample */
	if (h->opts.filter)
		return pm_filter__new(&h->filter, h->opts.filter,
				      f ? f->sample_time_first : 0,
				      f ? f->sample_time_last : 0, err);
	return 0;
}

static int sample(void *x, struct pm_session *s, const struct pm_sample_ctx *ctx,
		  struct pm_error *err)
{
	struct pm_hotspot *h = x;
	int ret;

	if (!h->started && (ret = start(h, pm_session__reader(s), err)))
		return ret;
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

	if (!h->started && (ret = start(h, pm_session__reader(s), err)))
		return ret;
	ret = pm_hotspot__finish(h, pm_session__reader(s), out);
	if (!ret && (h->children_ignored || h->graph_ignored))
		pm_report__add_warning(*out, "no call chains in this recording (record with "
				       "-g or --call-graph): %s ignored",
				       h->children_ignored && h->graph_ignored ? "--children and -g" :
				       h->children_ignored ? "--children" : "-g");
	/* Which kernel symbols named the kernel's addresses, and why. */
	if (!ret && pm_session__kernel_symbols(s, ksyms, sizeof(ksyms)))
		pm_summary__add_str(pm_report__summary(*out), "kernel_symbols",
				    "Kernel symbols", ksyms);
	return ret;
}

/* A fleet's next recording: its own counter ids and times; -g's trees
 * merge with the rows (hot_rows__coalesce), their siblings' DSOs in an
 * order of names (each recording met its DSOs in its own order). */
static int next_input(void *x, struct pm_session *s, struct pm_error *err)
{
	struct pm_hotspot *h = x;

	(void)s;
	(void)err;
	h->fleet = true;
	h->opts.cg.by_name = true;
	hot_ids__reset(&h->ids);
	hot_events__next(&h->evs);
	/* --time percentages: of this recording's first to last sample */
	pm_filter__delete(h->filter);
	h->filter = NULL;
	h->started = false;
	return 0;
}

const struct pm_analysis pm_hotspot_analysis = {
	.name = "report",
	.sample = sample,
	.record = record,
	.finish = finish,
	.next_input = next_input,
};
