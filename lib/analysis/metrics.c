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
#include "pmprof/hash.h"
#include "pmprof/records.h"
#include "pmprof/util.h"

static uint64_t id_hash(const void *arg, size_t i)
{
	return pm_hash64(((const struct mx_id *)arg)[i].id);
}

static uint64_t stream_key(uint64_t id, uint32_t tid)
{
	return pm_hash64(id ^ ((uint64_t)tid << 32 | tid) * 0x9e3779b97f4a7c15ULL);
}

static uint64_t stream_hash(const void *arg, size_t i)
{
	const struct mx_stream *st = &((const struct mx_stream *)arg)[i];

	return stream_key(st->id, st->tid);
}

static uint64_t func_key(const void *dso, const void *sym)
{
	return pm_hash64((uint64_t)(uintptr_t)dso * 31 + (uint64_t)(uintptr_t)sym);
}

static uint64_t func_hash(const void *arg, size_t i)
{
	const struct mx_func *f = ((struct mx_func *const *)arg)[i];

	return func_key(f->dso, f->sym);
}

void mx_rekey_funcs(struct pm_metrics *m)
{
	pm_hash__release(&m->func_index);
	m->last_func = 0;
	for (size_t i = 0; i < m->nr_funcs; i++) {
		size_t s;

		pm_hash__reserve(&m->func_index, i, func_hash, m->funcs);
		s = PM_HASH_FIND(&m->func_index, func_hash(m->funcs, i), k, false);
		pm_hash__set(&m->func_index, s, i);
	}
}

/* ---- ids ----------------------------------------------------------- */

struct mx_id *mx_find_id(struct pm_metrics *m, uint64_t id, bool create)
{
	size_t s;

	if (m->last_id && m->ids[m->last_id - 1].id == id)
		return &m->ids[m->last_id - 1];
	s = PM_HASH_FIND(&m->id_index, pm_hash64(id), i, m->ids[i].id == id);
	if (!pm_hash__empty(&m->id_index, s)) {
		m->last_id = pm_hash__at(&m->id_index, s) + 1;
		return &m->ids[m->last_id - 1];
	}
	if (!create)
		return NULL;
	pm_hash__reserve(&m->id_index, m->nr_ids, id_hash, m->ids);
	s = PM_HASH_FIND(&m->id_index, pm_hash64(id), i, false);
	PM_GROW(m->ids, m->alloc_ids, m->nr_ids + 1);
	m->ids[m->nr_ids] = (struct mx_id){ .id = id, .event = -1 };
	pm_hash__set(&m->id_index, s, m->nr_ids++);
	return &m->ids[m->nr_ids - 1];
}

/* ---- setup ----------------------------------------------------------- */

struct pm_metrics *pm_metrics__new(const struct pm_metrics_opts *opts)
{
	static const struct pm_metrics_opts defaults;
	struct pm_metrics *m = pm_zalloc(sizeof(*m));

	PM_OPTS_COPY(&m->opts, opts, defaults);
	if (m->opts.arch)
		m->arch = pm_strdup(m->opts.arch);
	m->opts.arch = m->arch;
	if (m->opts.stacks || m->opts.profile) {
		m->stacks = m->opts.stacks ? pm_stacks__new() : NULL;
		m->profile = m->opts.profile ? pm_profile__new() : NULL;
		m->user_window = m->opts.window;
		m->user_window_arg = m->opts.window_arg;
		m->opts.window = mx_view_window;
		m->opts.window_arg = m;
	}
	return m;
}

void pm_metrics__delete(struct pm_metrics *m)
{
	size_t i, g;

	if (!m)
		return;
	pm_stacks__delete(m->stacks);
	pm_profile__delete(m->profile);
	mx_fleet_release(m);
	for (i = 0; i < m->nr_funcs; i++) {
		struct mx_func *f = m->funcs[i];

		free((char *)f->pub.dso_name);
		free((char *)f->pub.sym_name);
		free(f->ev_sums);
		free(f->sums);
		if (f->fg)
			for (g = 0; g < m->nr_groups; g++)
				free(f->fg[g].gram);
		free(f->fg);
		free(f);
	}
	free(m->funcs);
	pm_hash__release(&m->func_index);
	for (g = 0; g < m->nr_groups; g++) {
		free(m->groups[g].member);
		free(m->groups[g].cache_id);
		free(m->groups[g].cache_pos);
		free(m->groups[g].sq);
	}
	free(m->groups);
	mx_drop_layout(m);
	free(m->totals);
	free(m->ev_totals);
	for (i = 0; i < m->nr_events; i++) {
		free(m->events[i].name);
		free(m->events[i].ids);
	}
	free(m->events);
	free(m->ids);
	pm_hash__release(&m->id_index);
	free(m->streams);
	pm_hash__release(&m->stream_index);
	free(m->vals);
	free(m->have);
	free(m->cur);
	free(m->cur_have);
	free(m->delta);
	free(m->arch);
	free(m->cpuid);
	free(m);
}

int pm_metrics__add_event(struct pm_metrics *m, const struct pm_event *ev,
			  struct pm_error *err)
{
	struct mx_event *e;
	uint32_t k;

	if (m->ready)
		return pm_error__fmt(err, EINVAL,
				     "metrics: event added after the first sample");
	PM_GROW(m->events, m->alloc_events, m->nr_events + 1);
	e = &m->events[m->nr_events];
	*e = (struct mx_event){ .ev = ev, .attr = ev->attr, .group = -1,
				.counter = -1, .idx = ev->idx,
				.leader_idx = ev->leader_idx,
				.nr_members = ev->nr_members,
				.nr_ids = ev->nr_ids };
	e->name = ev->name ? pm_strdup(ev->name) : NULL;
	e->ids = pm_calloc(ev->nr_ids + 1, sizeof(*e->ids));
	if (ev->nr_ids)
		memcpy(e->ids, ev->ids, ev->nr_ids * sizeof(*e->ids));
	if (ev->nr_members > 1 || ev->leader_idx != ev->idx)
		m->described = true;
	if (ev->attr.sample_type & PM_SAMPLE_READ)
		m->nr_readers++;
	e->short_period = pm_metrics__short_period(&ev->attr, ev->name);
	if (e->short_period) {
		if (pm_attr__flag(&ev->attr, PM_ATTR_FREQ) || !ev->attr.sample_period)
			e->threshold = 2 * e->short_period;
		else	/* (long + short) / 2, long = period - short */
			e->threshold = ev->attr.sample_period / 2;
		m->sum.short_windows = true;
	}
	for (k = 0; k < ev->nr_ids; k++) {
		struct mx_id *id = mx_find_id(m, ev->ids[k], true);

		id->event = (int)m->nr_events;
		id->k = k;
	}
	m->nr_events++;
	return 0;
}

void pm_metrics__set_id_scope(struct pm_metrics *m, uint64_t id,
			      enum pm_metrics_scope scope)
{
	mx_find_id(m, id, true)->scope = scope;
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
	/* what the top-down formulas divide by (metrics-topdown.c) */
	if (pm_features__pmu_cap(f, NULL, "slots"))
		m->slots = (double)strtoul(pm_features__pmu_cap(f, NULL, "slots"), NULL, 0);
	if (f->cpuid && !m->cpuid)
		m->cpuid = pm_strdup(f->cpuid);
	if (pm_features__has(f, PM_FEAT_GROUP_DESC))
		m->described = true;
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

/* Groups and scratch space, once every event is known. */
void mx_prepare(struct pm_metrics *m)
{
	size_t nr = m->nr_events + 1;	/* a group holds distinct events */

	if (m->ready)
		return;
	m->ready = true;
	mx_setup_groups(m);
	m->ev_totals = pm_calloc(nr, sizeof(*m->ev_totals));
	m->scratch = nr;
	m->cur = pm_calloc(nr, sizeof(*m->cur));
	m->cur_have = pm_calloc(nr, 1);
	m->delta = pm_calloc(nr, sizeof(*m->delta));
	if (m->opts.mode == PM_METRICS_AUTO)
		m->opts.mode = m->sum.short_windows ? PM_METRICS_DISCARD
						    : PM_METRICS_NONE;
	m->sum.mode = m->opts.mode;
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
	s = PM_HASH_FIND(&m->func_index, h, i,
			 m->funcs[i]->dso == dso && m->funcs[i]->sym == sym);
	if (!pm_hash__empty(&m->func_index, s)) {
		m->last_func = pm_hash__at(&m->func_index, s) + 1;
		return m->funcs[m->last_func - 1];
	}
	pm_hash__reserve(&m->func_index, m->nr_funcs, func_hash, m->funcs);
	s = PM_HASH_FIND(&m->func_index, h, i, false);
	f = pm_zalloc(sizeof(*f));
	f->dso = dso;
	f->sym = sym;
	f->pub.dso_name = pm_strdup(loc && loc->dso_name ? loc->dso_name : "[unknown]");
	f->pub.sym_name = pm_strdup(loc && loc->sym_name ? loc->sym_name : "[unknown]");
	f->ev_sums = pm_calloc(m->nr_events + 1, sizeof(*f->ev_sums));
	f->fg = pm_calloc(m->nr_events + 1, sizeof(*f->fg));
	m->sums_stale = true;
	PM_GROW(m->funcs, m->alloc_funcs, m->nr_funcs + 1);
	m->funcs[m->nr_funcs] = f;
	pm_hash__set(&m->func_index, s, m->nr_funcs++);
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
	s = PM_HASH_FIND(&m->stream_index, h, i,
			 m->streams[i].id == id && m->streams[i].tid == tid);
	if (!pm_hash__empty(&m->stream_index, s)) {
		m->last_stream = pm_hash__at(&m->stream_index, s) + 1;
		return &m->streams[m->last_stream - 1];
	}
	pm_hash__reserve(&m->stream_index, m->nr_streams, stream_hash, m->streams);
	s = PM_HASH_FIND(&m->stream_index, h, i, false);
	PM_GROW(m->streams, m->alloc_streams, m->nr_streams + 1);
	st = &m->streams[m->nr_streams];
	*st = (struct mx_stream){ .id = id, .tid = tid, .group = g,
				  .vals = m->nr_vals };
	PM_GROW(m->vals, m->alloc_vals, m->nr_vals + m->groups[g].nr);
	PM_GROW(m->have, m->alloc_have, m->nr_vals + m->groups[g].nr);
	memset(m->have + m->nr_vals, 0, m->groups[g].nr);
	m->nr_vals += m->groups[g].nr;
	pm_hash__set(&m->stream_index, s, m->nr_streams++);
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

/* This sample's group values into m->cur / m->cur_have; < 0 for a read
 * that is not of the event's group. */
static int read_values(struct pm_metrics *m, const struct pm_sample *s,
		       const struct mx_event *e, struct pm_error *err)
{
	struct mx_group *g = &m->groups[e->group];
	uint64_t rf = e->attr.read_format;
	uint64_t j;

	memset(m->cur_have, 0, g->nr);
	if (s->read.nr > g->nr) {
		/* Name the stray value when the ids tell which it is. */
		for (j = 0; (rf & PM_FORMAT_ID) && j < s->read.nr; j++) {
			uint64_t vid = s->read.values[j].id;
			const struct mx_id *id = mx_find_id(m, vid, false);

			if (!id || id->event < 0 ||
			    m->events[id->event].group != e->group)
				return mx_bad_read(m, e, vid, id, err);
		}
		return mx_bad_count(m, e, s->read.nr, err);
	}
	for (j = 0; j < s->read.nr; j++) {
		int pos;

		if (rf & PM_FORMAT_ID) {
			uint64_t vid = s->read.values[j].id;
			const struct mx_id *id;

			/* Samples of a group carry the same ids in the same
			 * order: remember where each went. */
			if (g->cache_pos[j] != -2 && g->cache_id[j] == vid) {
				pos = g->cache_pos[j];
			} else {
				id = mx_find_id(m, vid, false);
				if (!id || id->event < 0 ||
				    m->events[id->event].group != e->group)
					return mx_bad_read(m, e, vid, id, err);
				pos = m->events[id->event].pos;
				g->cache_id[j] = vid;
				g->cache_pos[j] = pos;
			}
		} else if (rf & PM_FORMAT_GROUP) {
			pos = (int)j;
		} else {
			pos = e->pos;
		}
		m->cur[pos] = s->read.values[j].value;
		m->cur_have[pos] = 1;
	}
	return 0;
}

static void charge(struct pm_metrics *m, struct mx_func *f, int gi)
{
	struct mx_group *g = &m->groups[gi];
	size_t a, b, nr = g->nr;

	for (a = 0; a < nr; a++) {
		f->ev_sums[g->member[a]] += m->delta[a];
		m->ev_totals[g->member[a]] += m->delta[a];
	}
	m->sums_stale = true;
	f->pub.kept++;
	m->sum.kept++;
	g->kept++;
	f->fg[gi].n++;
	if (!m->opts.ci)
		return;
	if (!f->fg[gi].gram)
		f->fg[gi].gram = pm_calloc(nr * nr, sizeof(double));
	for (a = 0; a < nr; a++) {
		double da = (double)m->delta[a];

		g->sq[a] += da * da;
		for (b = 0; b < nr; b++)
			f->fg[gi].gram[a * nr + b] += da * (double)m->delta[b];
	}
}

int pm_metrics__sample(struct pm_metrics *m, const struct pm_sample *s,
		       const struct pm_metrics_loc *loc, struct pm_error *err)
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
	    (ei = event_index(m, s->event)) < 0) {
		m->sum.ignored++;
		return 0;
	}
	if (m->events[ei].pending && m->events[ei].group < 0 &&
	    mx_infer_group(m, s, ei, err))
		return -PM_EFORMAT;
	if (m->events[ei].group < 0) {
		m->sum.ignored++;
		return 0;
	}
	e = &m->events[ei];
	if (s->sample_type & PM_SAMPLE_IDENTIFIER)
		id = s->identifier;
	else if (s->sample_type & PM_SAMPLE_ID)
		id = s->id;
	else if ((e->attr.read_format & PM_FORMAT_ID) && s->read.nr)
		id = s->read.values[0].id;
	else	/* no id at all: one counter instance per event */
		id = ~(uint64_t)ei;
	idi = mx_find_id(m, id, true);
	if (idi->scope == PM_METRICS_SCOPE_TASK ||
	    (idi->scope == PM_METRICS_SCOPE_AUTO &&
	     pm_attr__flag(&e->attr, PM_ATTR_INHERIT) &&
	     (s->sample_type & PM_SAMPLE_TID)))
		tid = s->tid;
	st = find_stream(m, id, tid, e->group);
	if (st->group != e->group) {	/* the same id for two groups: bad input */
		m->sum.ignored++;
		return 0;
	}
	nr = m->groups[e->group].nr;
	if (read_values(m, s, e, err))
		return -PM_EFORMAT;
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
				.events = m->groups[e->group].member,
				.delta = m->delta,
			};

			m->opts.window(m->opts.window_arg, &w);
		}
	}
	mx_count_time(m, st, s, &e->attr);
	memcpy(prev, m->cur, nr * sizeof(*prev));
	memcpy(prev_have, m->cur_have, nr);
	st->started = true;
	st->epoch = idi->epoch;
	st->dso = loc ? loc->dso : NULL;
	st->sym = loc ? loc->sym : NULL;
	st->caller = loc ? loc->caller : NULL;
	return 0;
}

/* ---- stops ----------------------------------------------------------- */

/*
 * Restart the streams of an id: bump its epoch and, since a record may
 * name any member of a group, the epochs of the ids at the same position
 * of every event of that group (those are the group's sampling ids).
 */
static void restart(struct pm_metrics *m, uint64_t id)
{
	struct mx_id *x = mx_find_id(m, id, true);
	int ev = x->event, g;
	uint32_t k = x->k;
	size_t j;

	x->epoch++;
	mx_prepare(m);
	if (ev < 0 || (g = m->events[ev].group) < 0)
		return;
	for (j = 0; j < m->groups[g].nr; j++) {
		const struct mx_event *o = &m->events[m->groups[g].member[j]];

		if (k < o->nr_ids && o->ids[k] != id)
			mx_find_id(m, o->ids[k], true)->epoch++;
	}
}

void pm_metrics__throttle(struct pm_metrics *m, uint64_t id, uint16_t misc)
{
	(void)id;
	if (misc & PM_MISC_PMPROF_STOP)
		m->sum.burst_stops++;
	else
		m->sum.throttles++;
}

void pm_metrics__unthrottle(struct pm_metrics *m, uint64_t id, uint16_t misc)
{
	if (misc & PM_MISC_PMPROF_STOP)
		m->sum.burst_restarts++;
	else
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
			pm_metrics__throttle(m, t.id, rec->misc);
		else
			pm_metrics__unthrottle(m, t.id, rec->misc);
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
