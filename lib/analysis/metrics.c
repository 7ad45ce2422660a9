// SPDX-License-Identifier: GPL-2.0
/*
 * The windows accumulator: streams, opening samples, windows and the
 * per-function sums. The rules are in include/pmprof/metrics.h; this file
 * applies them one sample at a time with O(1) work per read value, since
 * recordings with short windows run to millions of samples.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics-internal.h"
#include "pmprof/records.h"
#include "pmprof/util.h"

static inline uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* ---- the open-address indexes ---------------------------------------- */

typedef uint64_t (*mx_hash_fn)(const struct pm_metrics *m, size_t i);

static uint64_t id_hash(const struct pm_metrics *m, size_t i)
{
	return mix64(m->ids[i].id);
}

static uint64_t stream_key(uint64_t id, uint32_t tid)
{
	return mix64(id ^ ((uint64_t)tid << 32 | tid) * 0x9e3779b97f4a7c15ULL);
}

static uint64_t stream_hash(const struct pm_metrics *m, size_t i)
{
	return stream_key(m->streams[i].id, m->streams[i].tid);
}

static uint64_t func_key(const void *dso, const void *sym)
{
	return mix64((uint64_t)(uintptr_t)dso * 31 + (uint64_t)(uintptr_t)sym);
}

static uint64_t func_hash(const struct pm_metrics *m, size_t i)
{
	return func_key(m->funcs[i]->dso, m->funcs[i]->sym);
}

/* Keep the load under one half; called before adding element nr. */
static void index_reserve(struct pm_metrics *m, struct mx_index *ix,
			  size_t nr, mx_hash_fn hash)
{
	size_t size, i;

	if (ix->slots && (nr + 1) * 2 <= ix->mask + 1)
		return;
	size = ix->slots ? (ix->mask + 1) * 2 : 64;
	free(ix->slots);
	ix->slots = pm_calloc(size, sizeof(*ix->slots));
	ix->mask = size - 1;
	for (i = 0; i < nr; i++) {
		size_t s = hash(m, i) & ix->mask;

		while (ix->slots[s])
			s = (s + 1) & ix->mask;
		ix->slots[s] = (uint32_t)(i + 1);
	}
}

/* The slot where h's probe ends: the element's, or the empty one. */
#define INDEX_FIND(ix, h, match)					\
	({								\
		size_t _s = (h) & (ix)->mask;				\
		while ((ix)->slots[_s]) {				\
			size_t i = (ix)->slots[_s] - 1;			\
			(void)i;					\
			if (match)					\
				break;					\
			_s = (_s + 1) & (ix)->mask;			\
		}							\
		_s;							\
	})

/* ---- ids ----------------------------------------------------------- */

static struct mx_id *find_id(struct pm_metrics *m, uint64_t id, bool create)
{
	size_t s;

	if (m->last_id && m->ids[m->last_id - 1].id == id)
		return &m->ids[m->last_id - 1];
	if (!m->id_index.slots) {
		if (!create)
			return NULL;
		index_reserve(m, &m->id_index, 0, id_hash);
	}
	s = INDEX_FIND(&m->id_index, mix64(id), m->ids[i].id == id);
	if (m->id_index.slots[s]) {
		m->last_id = m->id_index.slots[s];
		return &m->ids[m->last_id - 1];
	}
	if (!create)
		return NULL;
	index_reserve(m, &m->id_index, m->nr_ids, id_hash);
	s = INDEX_FIND(&m->id_index, mix64(id), false);
	PM_GROW(m->ids, m->alloc_ids, m->nr_ids + 1);
	m->ids[m->nr_ids] = (struct mx_id){ .id = id, .event = -1 };
	m->id_index.slots[s] = (uint32_t)++m->nr_ids;
	return &m->ids[m->nr_ids - 1];
}

/* ---- setup ----------------------------------------------------------- */

struct pm_metrics *pm_metrics__new(const struct pm_metrics_opts *opts)
{
	struct pm_metrics *m = pm_zalloc(sizeof(*m));

	if (opts)
		m->opts = *opts;
	if (m->opts.arch)
		m->arch = pm_strdup(m->opts.arch);
	m->opts.arch = m->arch;
	return m;
}

void pm_metrics__delete(struct pm_metrics *m)
{
	size_t i, g;

	if (!m)
		return;
	for (i = 0; i < m->nr_funcs; i++) {
		struct mx_func *f = m->funcs[i];

		free((char *)f->pub.dso_name);
		free((char *)f->pub.sym_name);
		free(f->sums);
		if (f->fg)
			for (g = 0; g < m->nr_groups; g++)
				free(f->fg[g].gram);
		free(f->fg);
		free(f);
	}
	free(m->funcs);
	free(m->func_index.slots);
	for (g = 0; g < m->nr_groups; g++) {
		free(m->groups[g].counter);
		free(m->groups[g].cache_id);
		free(m->groups[g].cache_pos);
		free(m->groups[g].sq);
	}
	free(m->groups);
	for (i = 0; i < m->nr_counters; i++)
		free(m->counters[i].name);
	free(m->counters);
	for (i = 0; i < m->nr_metrics; i++)
		free(m->metrics[i].name);
	free(m->metrics);
	free(m->totals);
	free(m->events);
	free(m->ids);
	free(m->id_index.slots);
	free(m->streams);
	free(m->stream_index.slots);
	free(m->vals);
	free(m->have);
	free(m->cur);
	free(m->cur_have);
	free(m->delta);
	free(m->arch);
	free(m);
}

int pm_metrics__add_event(struct pm_metrics *m, const struct pm_event *ev,
			  struct pm_error *err)
{
	struct mx_event *e;
	uint32_t k;

	if (m->ready)
		return pm_error__fmt(err, -EINVAL,
				     "metrics: event added after the first sample");
	PM_GROW(m->events, m->alloc_events, m->nr_events + 1);
	e = &m->events[m->nr_events];
	*e = (struct mx_event){ .ev = ev, .group = -1 };
	e->short_period = pm_metrics__short_period(&ev->attr, ev->name);
	if (e->short_period) {
		if (pm_attr__flag(&ev->attr, PM_ATTR_FREQ) || !ev->attr.sample_period)
			e->threshold = 2 * e->short_period;
		else	/* (long + short) / 2, long = period - short */
			e->threshold = ev->attr.sample_period / 2;
		m->sum.short_windows = true;
	}
	for (k = 0; k < ev->nr_ids; k++) {
		struct mx_id *id = find_id(m, ev->ids[k], true);

		id->event = (int)m->nr_events;
		id->k = k;
	}
	m->nr_events++;
	return 0;
}

void pm_metrics__set_id_scope(struct pm_metrics *m, uint64_t id,
			      enum pm_metrics_scope scope)
{
	find_id(m, id, true)->scope = scope;
}

int pm_metrics__add_reader_events(struct pm_metrics *m, struct pm_reader *r,
				  struct pm_error *err)
{
	const struct pm_features *f = pm_reader__features(r);
	size_t i;
	int ret;

	if (!m->arch && f->arch) {
		m->arch = pm_strdup(f->arch);
		m->opts.arch = m->arch;
	}
	for (i = 0; i < pm_reader__nr_events(r); i++) {
		const struct pm_event *ev = pm_reader__event(r, i);
		uint32_t k;

		ret = pm_metrics__add_event(m, ev, err);
		if (ret)
			return ret;
		for (k = 0; k < ev->nr_ids; k++) {
			int32_t cpu, tid;

			if (pm_reader__id_info(r, ev->ids[k], &cpu, &tid))
				continue;
			pm_metrics__set_id_scope(m, ev->ids[k], tid == -1 ?
						 PM_METRICS_SCOPE_CPU :
						 PM_METRICS_SCOPE_TASK);
		}
	}
	return 0;
}

/* Array index of an event's leader, or its own index if the group info
 * does not hold together (a leader out of range, say). */
static size_t leader_of(const struct pm_metrics *m, size_t i)
{
	const struct pm_event *ev = m->events[i].ev;
	long l = (long)i - ((long)ev->idx - (long)ev->leader_idx);

	if (l < 0 || (size_t)l >= m->nr_events || l > (long)i)
		return i;
	return (size_t)l;
}

static void add_counter(struct pm_metrics *m, size_t ev, int g, int pos)
{
	struct mx_counter *c;
	const char *name = m->events[ev].ev->name;
	char buf[256];
	size_t i, n = 1;

	if (!name || !*name)
		name = pm_attr__name(&m->events[ev].ev->attr, buf, sizeof(buf));
	m->counters = pm_reallocarray(m->counters, m->nr_counters + 1,
				      sizeof(*m->counters));
	c = &m->counters[m->nr_counters];
	c->event = (int)ev;
	c->group = g;
	c->pos = pos;
	c->role = pm_metrics__role(&m->events[ev].ev->attr, name, m->arch);
	c->name = pm_strdup(name);
	/* Two groups may both count "cycles": keep names apart. */
	for (i = 0; i < m->nr_counters; i++) {
		if (strcmp(m->counters[i].name, c->name))
			continue;
		n++;
		free(c->name);
		snprintf(buf, sizeof(buf), "%s#%zu", name, n);
		c->name = pm_strdup(buf);
		i = (size_t)-1;		/* check the new name from the start */
	}
	m->events[ev].group = g;
	m->events[ev].pos = pos;
	m->nr_counters++;
}

static void build_metrics(struct pm_metrics *m);

/* Groups and counters, once every event is known. */
void mx_prepare(struct pm_metrics *m)
{
	size_t i, j, max_nr = 1;

	if (m->ready)
		return;
	m->ready = true;
	for (i = 0; i < m->nr_events; i++) {
		struct mx_group *g;
		bool read = false;
		size_t nr = 0;

		if (leader_of(m, i) != i)
			continue;
		for (j = i; j < m->nr_events; j++) {
			if (j > i && leader_of(m, j) != i)
				break;
			if (m->events[j].ev->attr.sample_type & PM_SAMPLE_READ)
				read = true;
			nr++;
		}
		if (!read)
			continue;
		m->groups = pm_reallocarray(m->groups, m->nr_groups + 1,
					    sizeof(*m->groups));
		g = &m->groups[m->nr_groups];
		g->leader = (int)i;
		g->nr = nr;
		g->counter = pm_calloc(nr, sizeof(*g->counter));
		g->sq = pm_calloc(nr, sizeof(*g->sq));
		g->cache_id = pm_calloc(nr, sizeof(*g->cache_id));
		g->cache_pos = pm_calloc(nr, sizeof(*g->cache_pos));
		for (j = 0; j < nr; j++)
			g->cache_pos[j] = -2;	/* nothing cached */
		g->kept = 0;
		for (j = 0; j < nr; j++) {
			g->counter[j] = (int)m->nr_counters;
			add_counter(m, i + j, (int)m->nr_groups, (int)j);
		}
		max_nr = PM_MAX(max_nr, nr);
		m->nr_groups++;
	}
	m->totals = pm_calloc(m->nr_counters + 1, sizeof(*m->totals));
	m->scratch = max_nr;
	m->cur = pm_calloc(max_nr, sizeof(*m->cur));
	m->cur_have = pm_calloc(max_nr, 1);
	m->delta = pm_calloc(max_nr, sizeof(*m->delta));
	if (m->opts.mode == PM_METRICS_AUTO)
		m->opts.mode = m->sum.short_windows ? PM_METRICS_DISCARD
						    : PM_METRICS_NONE;
	m->sum.mode = m->opts.mode;
	build_metrics(m);
}

/* ---- the named metrics ------------------------------------------------ */

static int role_in_group(const struct pm_metrics *m, int g,
			 enum pm_metrics_role role)
{
	size_t p;

	for (p = 0; p < m->groups[g].nr; p++) {
		int c = m->groups[g].counter[p];

		if (m->counters[c].role == role)
			return c;
	}
	return -1;
}

static void add_metric(struct pm_metrics *m, const char *name, int num,
		       int den, double scale, int arm_rank)
{
	struct mx_metric *x;

	m->metrics = pm_reallocarray(m->metrics, m->nr_metrics + 1,
				     sizeof(*m->metrics));
	x = &m->metrics[m->nr_metrics++];
	x->name = pm_strdup(name);
	x->num = num;
	x->den = den;
	x->scale = scale;
	x->arm_rank = arm_rank;
}

/* A ratio from the first group that counts both roles. */
static void add_ratio(struct pm_metrics *m, const char *name,
		      enum pm_metrics_role num, enum pm_metrics_role den,
		      double scale, int arm_rank)
{
	size_t g;

	for (g = 0; g < m->nr_groups; g++) {
		int a = role_in_group(m, (int)g, num);
		int b = role_in_group(m, (int)g, den);

		if (a >= 0 && b >= 0) {
			add_metric(m, name, a, b, scale, arm_rank);
			return;
		}
	}
}

static void build_metrics(struct pm_metrics *m)
{
	static const char *const share_names[PM_ROLE__NR] = {
		"%CY", "%I", "%BM", "%L1DA", "%L1DM", "%IS",
	};
	static const int share_rank[PM_ROLE__NR] = { 5, 6, 7, 8, 9, 100 };
	int share_counter[PM_ROLE__NR];
	char name[300];
	size_t c;
	int r;

	add_ratio(m, "CPI", PM_ROLE_CYCLES, PM_ROLE_INSTR, 1, 1);
	add_ratio(m, "IPC", PM_ROLE_INSTR, PM_ROLE_CYCLES, 1, 100);
	add_ratio(m, "BMKI", PM_ROLE_BRANCH_MISS, PM_ROLE_INSTR, 1000, 2);
	add_ratio(m, "CMKI", PM_ROLE_L1D_MISS, PM_ROLE_INSTR, 1000, 3);
	add_ratio(m, "%CM", PM_ROLE_L1D_MISS, PM_ROLE_L1D_ACCESS, 100, 4);
	add_ratio(m, "%RI", PM_ROLE_INSTR, PM_ROLE_INSTR_SPEC, 100, 100);
	for (r = 0; r < PM_ROLE__NR; r++) {
		share_counter[r] = -1;
		for (c = 0; c < m->nr_counters; c++)
			if ((int)m->counters[c].role == r) {
				share_counter[r] = (int)c;
				add_metric(m, share_names[r], (int)c, -1, 100,
					   share_rank[r]);
				break;
			}
	}
	/* Every other counter: per kilo-instruction (same group) and share. */
	for (c = 0; c < m->nr_counters; c++) {
		const struct mx_counter *k = &m->counters[c];
		int instr;

		if (k->role != PM_ROLE_NONE && share_counter[k->role] == (int)c)
			continue;
		instr = role_in_group(m, k->group, PM_ROLE_INSTR);
		if (instr >= 0 && instr != (int)c) {
			snprintf(name, sizeof(name), "%s/KI", k->name);
			add_metric(m, name, (int)c, instr, 1000, 100);
		}
		snprintf(name, sizeof(name), "%%%s", k->name);
		add_metric(m, name, (int)c, -1, 100, 100);
	}
}

/* ---- functions ------------------------------------------------------- */

static struct mx_func *find_func(struct pm_metrics *m,
				 const struct pm_metrics_loc *loc)
{
	const void *dso = loc ? loc->dso : NULL, *sym = loc ? loc->sym : NULL;
	struct mx_func *f;
	size_t s;
	uint64_t h;

	if (m->last_func) {
		f = m->funcs[m->last_func - 1];
		if (f->dso == dso && f->sym == sym)
			return f;
	}
	h = func_key(dso, sym);
	if (m->func_index.slots) {
		s = INDEX_FIND(&m->func_index, h,
			       m->funcs[i]->dso == dso && m->funcs[i]->sym == sym);
		if (m->func_index.slots[s]) {
			m->last_func = m->func_index.slots[s];
			return m->funcs[m->last_func - 1];
		}
	}
	index_reserve(m, &m->func_index, m->nr_funcs, func_hash);
	s = INDEX_FIND(&m->func_index, h, false);
	f = pm_zalloc(sizeof(*f));
	f->dso = dso;
	f->sym = sym;
	f->pub.dso_name = pm_strdup(loc && loc->dso_name ? loc->dso_name : "[unknown]");
	f->pub.sym_name = pm_strdup(loc && loc->sym_name ? loc->sym_name : "[unknown]");
	f->sums = pm_calloc(m->nr_counters + 1, sizeof(*f->sums));
	f->pub.sums = f->sums;
	if (m->opts.ci)
		f->fg = pm_calloc(m->nr_groups + 1, sizeof(*f->fg));
	PM_GROW(m->funcs, m->alloc_funcs, m->nr_funcs + 1);
	m->funcs[m->nr_funcs++] = f;
	m->func_index.slots[s] = (uint32_t)m->nr_funcs;
	m->last_func = m->nr_funcs;
	return f;
}

/* ---- streams --------------------------------------------------------- */

static struct mx_stream *find_stream(struct pm_metrics *m, uint64_t id,
				     uint32_t tid, int g)
{
	struct mx_stream *st;
	size_t s;
	uint64_t h;

	if (m->last_stream) {
		st = &m->streams[m->last_stream - 1];
		if (st->id == id && st->tid == tid)
			return st;
	}
	h = stream_key(id, tid);
	if (m->stream_index.slots) {
		s = INDEX_FIND(&m->stream_index, h,
			       m->streams[i].id == id && m->streams[i].tid == tid);
		if (m->stream_index.slots[s]) {
			m->last_stream = m->stream_index.slots[s];
			return &m->streams[m->last_stream - 1];
		}
	}
	index_reserve(m, &m->stream_index, m->nr_streams, stream_hash);
	s = INDEX_FIND(&m->stream_index, h, false);
	PM_GROW(m->streams, m->alloc_streams, m->nr_streams + 1);
	st = &m->streams[m->nr_streams];
	*st = (struct mx_stream){ .id = id, .tid = tid, .group = g,
				  .vals = m->nr_vals };
	PM_GROW(m->vals, m->alloc_vals, m->nr_vals + m->groups[g].nr);
	PM_GROW(m->have, m->alloc_have, m->nr_vals + m->groups[g].nr);
	memset(m->have + m->nr_vals, 0, m->groups[g].nr);
	m->nr_vals += m->groups[g].nr;
	m->stream_index.slots[s] = (uint32_t)++m->nr_streams;
	m->last_stream = m->nr_streams;
	return st;
}

static int event_index(const struct pm_metrics *m, const struct pm_event *ev)
{
	size_t i;

	if (ev->idx >= 0 && (size_t)ev->idx < m->nr_events &&
	    m->events[ev->idx].ev == ev)
		return ev->idx;
	for (i = 0; i < m->nr_events; i++)
		if (m->events[i].ev == ev)
			return (int)i;
	return -1;
}

/* This sample's group values into m->cur / m->cur_have. */
static void read_values(struct pm_metrics *m, const struct pm_sample *s,
			const struct mx_event *e)
{
	struct mx_group *g = &m->groups[e->group];
	uint64_t rf = e->ev->attr.read_format;
	uint64_t j;

	memset(m->cur_have, 0, g->nr);
	for (j = 0; j < s->read.nr; j++) {
		int pos;

		if (rf & PM_FORMAT_ID) {
			uint64_t vid = s->read.values[j].id;
			const struct mx_id *id;

			/* Samples of a group carry the same ids in the same
			 * order: remember where each went. */
			if (j < g->nr && g->cache_pos[j] != -2 &&
			    g->cache_id[j] == vid) {
				pos = g->cache_pos[j];
			} else {
				id = find_id(m, vid, false);
				pos = id && id->event >= 0 &&
				      m->events[id->event].group == e->group ?
				      m->events[id->event].pos : -1;
				if (j < g->nr) {
					g->cache_id[j] = vid;
					g->cache_pos[j] = pos;
				}
			}
			if (pos < 0)
				continue;
		} else if (rf & PM_FORMAT_GROUP) {
			if (j >= g->nr)
				break;
			pos = (int)j;
		} else {
			pos = e->pos;
		}
		m->cur[pos] = s->read.values[j].value;
		m->cur_have[pos] = 1;
	}
}

static void charge(struct pm_metrics *m, struct mx_func *f, int gi)
{
	struct mx_group *g = &m->groups[gi];
	size_t a, b, nr = g->nr;

	for (a = 0; a < nr; a++) {
		f->sums[g->counter[a]] += m->delta[a];
		m->totals[g->counter[a]] += m->delta[a];
	}
	f->pub.kept++;
	m->sum.kept++;
	if (!m->opts.ci)
		return;
	g->kept++;
	if (!f->fg[gi].gram)
		f->fg[gi].gram = pm_calloc(nr * nr, sizeof(double));
	f->fg[gi].n++;
	for (a = 0; a < nr; a++) {
		double da = (double)m->delta[a];

		g->sq[a] += da * da;
		for (b = 0; b < nr; b++)
			f->fg[gi].gram[a * nr + b] += da * (double)m->delta[b];
	}
}

void pm_metrics__sample(struct pm_metrics *m, const struct pm_sample *s,
			const struct pm_metrics_loc *loc)
{
	const struct mx_event *e;
	struct mx_stream *st;
	struct mx_id *idi;
	uint64_t *prev;
	uint8_t *prev_have;
	uint64_t id;
	uint32_t tid = UINT32_MAX;
	bool opening;
	size_t p, nr;
	int ei;

	mx_prepare(m);
	if (!s->event || !(s->sample_type & PM_SAMPLE_READ) ||
	    (ei = event_index(m, s->event)) < 0 || m->events[ei].group < 0) {
		m->sum.ignored++;
		return;
	}
	e = &m->events[ei];
	if (s->sample_type & PM_SAMPLE_IDENTIFIER)
		id = s->identifier;
	else if (s->sample_type & PM_SAMPLE_ID)
		id = s->id;
	else if ((e->ev->attr.read_format & PM_FORMAT_ID) && s->read.nr)
		id = s->read.values[0].id;
	else	/* no id at all: one counter instance per event */
		id = ~(uint64_t)ei;
	idi = find_id(m, id, true);
	if (idi->scope == PM_METRICS_SCOPE_TASK ||
	    (idi->scope == PM_METRICS_SCOPE_AUTO &&
	     pm_attr__flag(&e->ev->attr, PM_ATTR_INHERIT) &&
	     (s->sample_type & PM_SAMPLE_TID)))
		tid = s->tid;
	st = find_stream(m, id, tid, e->group);
	if (st->group != e->group) {	/* the same id for two groups: bad input */
		m->sum.ignored++;
		return;
	}
	nr = m->groups[e->group].nr;
	read_values(m, s, e);
	prev = m->vals + st->vals;
	prev_have = m->have + st->vals;
	for (p = 0; p < nr; p++)
		m->delta[p] = m->cur_have[p] && prev_have[p] &&
			      m->cur[p] >= prev[p] ? m->cur[p] - prev[p] : 0;

	opening = !st->started || st->epoch != idi->epoch;
	if (!opening && e->short_period) {
		if (m->delta[e->pos] > e->threshold)
			opening = true;
		else if ((s->sample_type & PM_SAMPLE_PERIOD) &&
			 s->period > e->threshold)
			opening = true;
	}
	if (opening) {
		m->sum.opening++;
	} else {
		struct mx_func *f = find_func(m, loc);
		bool keep = true;

		f->pub.samples++;
		m->sum.windows++;
		if (m->opts.mode == PM_METRICS_DISCARD) {
			const void *dso = loc ? loc->dso : NULL;
			const void *sym = loc ? loc->sym : NULL;

			keep = st->dso == dso && st->sym == sym;
			if (keep && m->opts.match == PM_METRICS_MATCH_CALLCHAIN)
				keep = st->caller == (loc ? loc->caller : NULL);
		}
		if (keep) {
			charge(m, f, e->group);
		} else {
			f->pub.discarded++;
			m->sum.discarded++;
		}
		if (m->opts.window) {
			struct pm_metrics_window w = {
				.kept = keep, .nr = nr,
				.counters = m->groups[e->group].counter,
				.delta = m->delta,
			};

			m->opts.window(m->opts.window_arg, &w);
		}
	}
	memcpy(prev, m->cur, nr * sizeof(*prev));
	memcpy(prev_have, m->cur_have, nr);
	st->started = true;
	st->epoch = idi->epoch;
	st->dso = loc ? loc->dso : NULL;
	st->sym = loc ? loc->sym : NULL;
	st->caller = loc ? loc->caller : NULL;
}

/* ---- stops ----------------------------------------------------------- */

/*
 * Restart the streams of an id: bump its epoch and, since a record may
 * name any member of a group, the epochs of the ids at the same position
 * of every event of that group (those are the group's sampling ids).
 */
static void restart(struct pm_metrics *m, uint64_t id)
{
	struct mx_id *x = find_id(m, id, true);
	int ev = x->event, g;
	uint32_t k = x->k;
	size_t j;

	x->epoch++;
	mx_prepare(m);
	if (ev < 0 || (g = m->events[ev].group) < 0)
		return;
	for (j = 0; j < m->groups[g].nr; j++) {
		const struct pm_event *o = m->events[m->groups[g].leader + j].ev;

		if (k < o->nr_ids && o->ids[k] != id)
			find_id(m, o->ids[k], true)->epoch++;
	}
}

void pm_metrics__throttle(struct pm_metrics *m, uint64_t id)
{
	(void)id;
	m->sum.throttles++;
}

void pm_metrics__unthrottle(struct pm_metrics *m, uint64_t id)
{
	m->sum.unthrottles++;
	restart(m, id);
}

void pm_metrics__lost(struct pm_metrics *m, uint64_t id, uint64_t nr_lost)
{
	m->sum.lost_records++;
	m->sum.lost_samples += nr_lost;
	restart(m, id);
}

/* ID_INDEX says which ids are per-CPU (tid -1); it precedes the samples. */
static int apply_id_index(struct pm_metrics *m, struct pm_reader *r,
			  const struct pm_record *rec, struct pm_error *err)
{
	struct pm_rec_id_index idx;
	uint64_t i;
	int ret;

	ret = pm_rec__id_index(r, rec, &idx, err);
	if (ret)
		return ret;
	for (i = 0; i < idx.nr; i++) {
		struct pm_id_index_entry ent;

		pm_rec_id_index__entry(r, &idx, i, &ent);
		pm_metrics__set_id_scope(m, ent.id, (int64_t)ent.tid == -1 ?
					 PM_METRICS_SCOPE_CPU :
					 PM_METRICS_SCOPE_TASK);
	}
	return 0;
}

int pm_metrics__record(struct pm_metrics *m, struct pm_reader *r,
		       const struct pm_record *rec, struct pm_error *err)
{
	struct pm_rec_throttle t;
	struct pm_rec_lost l;
	struct pm_rec_lost_samples ls;
	struct pm_sample_id sid;
	int ret;

	switch (rec->type) {
	case PM_RECORD_THROTTLE:
	case PM_RECORD_UNTHROTTLE:
		ret = pm_rec__throttle(r, rec, &t, err);
		if (ret)
			return ret;
		if (rec->type == PM_RECORD_THROTTLE)
			pm_metrics__throttle(m, t.id);
		else
			pm_metrics__unthrottle(m, t.id);
		return 0;
	case PM_RECORD_LOST:
		ret = pm_rec__lost(r, rec, &l, err);
		if (ret)
			return ret;
		pm_metrics__lost(m, l.id, l.lost);
		return 0;
	case PM_RECORD_LOST_SAMPLES:
		ret = pm_rec__lost_samples(r, rec, &ls, err);
		if (ret)
			return ret;
		ret = pm_reader__parse_sample_id(r, rec, &sid, err);
		if (ret)
			return ret;
		if (sid.present & (PM_SAMPLE_ID | PM_SAMPLE_IDENTIFIER)) {
			pm_metrics__lost(m, sid.id, ls.lost);
		} else {
			m->sum.lost_records++;
			m->sum.lost_samples += ls.lost;
		}
		return 0;
	case PM_RECORD_ID_INDEX:
		return apply_id_index(m, r, rec, err);
	default:
		return 0;
	}
}

const struct pm_metrics_summary *pm_metrics__summary(struct pm_metrics *m)
{
	mx_prepare(m);
	return &m->sum;
}

size_t pm_metrics__nr_counters(const struct pm_metrics *m)
{
	mx_prepare((struct pm_metrics *)m);
	return m->nr_counters;
}

const char *pm_metrics__counter_name(const struct pm_metrics *m, size_t c)
{
	return c < m->nr_counters ? m->counters[c].name : NULL;
}

size_t pm_metrics__nr_funcs(const struct pm_metrics *m)
{
	return m->nr_funcs;
}

const struct pm_metrics_func *pm_metrics__func(const struct pm_metrics *m,
					       size_t i)
{
	return i < m->nr_funcs ? &m->funcs[i]->pub : NULL;
}

const struct pm_metrics_func *pm_metrics__find(const struct pm_metrics *m,
					       const char *dso,
					       const char *sym)
{
	size_t i;

	if (!dso)
		dso = "[unknown]";
	if (!sym)
		sym = "[unknown]";
	for (i = 0; i < m->nr_funcs; i++)
		if (!strcmp(m->funcs[i]->pub.dso_name, dso) &&
		    !strcmp(m->funcs[i]->pub.sym_name, sym))
			return &m->funcs[i]->pub;
	return NULL;
}
