// SPDX-License-Identifier: GPL-2.0
/*
 * Which events of a recording make a counter group, which of them are
 * counters, and the named metrics over them.
 *
 * A group comes from GROUP_DESC when the recording has it. Without it
 * (older or other tools' files, captures that lost the feature) the
 * group of an event whose reads are PERF_FORMAT_GROUP | PERF_FORMAT_ID is
 * the list of ids its first sample reads: the leader's value first, then
 * every member's. With GROUP_DESC, every read is checked against it: a
 * value of an event the description puts elsewhere is an error, since
 * counting it 0 (or in the wrong group) would be a silently wrong number.
 *
 * Counters are laid out in event order once the reads are over
 * (mx_finish), so that a recording gives the same columns whether its
 * groups were described or learnt.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics-internal.h"
#include "pmprof/util.h"

const char *mx_event_name(const struct mx_event *e, char *buf, size_t size)
{
	if (e->name && *e->name)
		return e->name;
	return pm_attr__name(&e->attr, buf, size);
}

/* ---- groups ----------------------------------------------------------- */

/* Array index of an event's leader, or its own index if the group info
 * does not hold together (a leader out of range, say). */
static size_t leader_of(const struct pm_metrics *m, size_t i)
{
	const struct mx_event *e = &m->events[i];
	long l = (long)i - ((long)e->idx - (long)e->leader_idx);

	if (l < 0 || (size_t)l >= m->nr_events || l > (long)i)
		return i;
	return (size_t)l;
}

static void new_group(struct pm_metrics *m, const int *member, size_t nr)
{
	struct mx_group *g;
	size_t j;

	m->groups = pm_reallocarray(m->groups, m->nr_groups + 1,
				    sizeof(*m->groups));
	g = &m->groups[m->nr_groups];
	memset(g, 0, sizeof(*g));
	g->leader = member[0];
	g->nr = nr;
	g->member = pm_calloc(nr, sizeof(*g->member));
	g->sq = pm_calloc(nr, sizeof(*g->sq));
	g->cache_id = pm_calloc(nr, sizeof(*g->cache_id));
	g->cache_pos = pm_calloc(nr, sizeof(*g->cache_pos));
	g->kept = 0;
	for (j = 0; j < nr; j++) {
		struct mx_event *e = &m->events[member[j]];

		g->member[j] = member[j];
		g->cache_pos[j] = -2;	/* nothing cached */
		e->group = (int)m->nr_groups;
		e->pos = (int)j;
		e->pending = false;
	}
	m->nr_groups++;
}

void mx_setup_groups(struct pm_metrics *m)
{
	int *member = pm_calloc(m->nr_events + 1, sizeof(*member));
	size_t i, j;

	for (i = 0; i < m->nr_events; i++) {
		struct mx_event *e = &m->events[i];
		bool read = false;
		size_t nr = 0;

		if (!m->described) {
			/* Alone until its reads say otherwise. */
			if (!(e->attr.sample_type & PM_SAMPLE_READ))
				continue;
			if (e->attr.read_format & PM_FORMAT_GROUP) {
				e->pending = true;
				continue;
			}
			member[0] = (int)i;
			new_group(m, member, 1);
			continue;
		}
		if (leader_of(m, i) != i)
			continue;
		for (j = i; j < m->nr_events; j++) {
			if (j > i && leader_of(m, j) != i)
				break;
			if (m->events[j].attr.sample_type & PM_SAMPLE_READ)
				read = true;
			member[nr++] = (int)j;
		}
		if (read)
			new_group(m, member, nr);
	}
	free(member);
}

static int bad_group(const struct pm_metrics *m, const struct mx_event *e,
		     struct pm_error *err, const char *fmt, const char *what)
{
	char buf[128], msg[256];

	(void)m;
	snprintf(msg, sizeof(msg), fmt, what);
	return pm_error__fmt(err, PM_EFORMAT,
			     "metrics: a sample of '%s' reads its group, and %s",
			     mx_event_name(e, buf, sizeof(buf)), msg);
}

/*
 * The group of a pending event from its sample's read: the events whose
 * ids it reads, in order. 0 when the group is made (or the read names no
 * value yet), < 0 when the read cannot be a group's.
 */
int mx_infer_group(struct pm_metrics *m, const struct pm_sample *s, int ei,
		   struct pm_error *err)
{
	const struct mx_event *e = &m->events[ei];
	int *member;
	char name[128], what[200];
	size_t n = 0, j, k;
	bool self = false;
	int ret = 0;

	if (!s->read.nr)
		return 0;
	if (!(e->attr.read_format & PM_FORMAT_ID)) {
		if (s->read.nr > 1) {
			snprintf(what, sizeof(what), "%" PRIu64, s->read.nr);
			return bad_group(m, e, err, "the recording has no GROUP_DESC and the read's %s values carry no ids: which events they count is unknown", what);
		}
		new_group(m, &ei, 1);
		return 0;
	}
	member = pm_calloc((size_t)s->read.nr, sizeof(*member));
	for (j = 0; j < s->read.nr; j++) {
		uint64_t vid = s->read.values[j].id;
		const struct mx_id *id = mx_find_id(m, vid, false);
		const struct mx_event *x;

		if (!id || id->event < 0) {
			snprintf(what, sizeof(what), "%" PRIu64, vid);
			ret = bad_group(m, e, err, "names id %s, which no event of the recording has", what);
			goto out;
		}
		x = &m->events[id->event];
		for (k = 0; k < n; k++)
			if (member[k] == id->event)
				break;
		if (k < n || x->group >= 0) {
			snprintf(what, sizeof(what), "%s' (id %" PRIu64 "), which %s",
				 mx_event_name(x, name, sizeof(name)), vid,
				 k < n ? "it reads twice" : "is in another group");
			ret = bad_group(m, e, err, "names '%s", what);
			goto out;
		}
		self |= id->event == ei;
		member[n++] = id->event;
	}
	if (!self) {
		ret = bad_group(m, e, err, "%s", "its own value is not in it");
		goto out;
	}
	new_group(m, member, n);
out:
	free(member);
	return ret;
}

/* A read value that does not belong in the sampling event's group. */
int mx_bad_read(const struct pm_metrics *m, const struct mx_event *e,
		uint64_t vid, const struct mx_id *id, struct pm_error *err)
{
	char name[128], what[256];

	if (!id || id->event < 0) {
		snprintf(what, sizeof(what), "%" PRIu64, vid);
		return bad_group(m, e, err, "names id %s, which no event of the recording has", what);
	}
	snprintf(what, sizeof(what), "%s' (id %" PRIu64 "), which %s",
		 mx_event_name(&m->events[id->event], name, sizeof(name)), vid,
		 m->described ? "GROUP_DESC does not put in its group"
			      : "is in another group");
	return bad_group(m, e, err, "names '%s", what);
}

int mx_bad_count(const struct pm_metrics *m, const struct mx_event *e,
		 uint64_t nr, struct pm_error *err)
{
	char what[128];

	snprintf(what, sizeof(what), "%" PRIu64 " values where %s %zu event%s",
		 nr, m->described ? "GROUP_DESC gives it" : "its group has",
		 m->groups[e->group].nr, m->groups[e->group].nr == 1 ? "" : "s");
	return bad_group(m, e, err, "holds %s", what);
}

/* ---- counters --------------------------------------------------------- */

/* The group's enabled and running time since the stream's last sample
 * (a group is scheduled whole: one pair of times for all its members). */
void mx_count_time(struct pm_metrics *m, struct mx_stream *st,
		   const struct pm_sample *s, const struct pm_attr *a)
{
	struct mx_group *g = &m->groups[st->group];
	uint64_t want = PM_FORMAT_TOTAL_TIME_ENABLED | PM_FORMAT_TOTAL_TIME_RUNNING;

	if ((a->read_format & want) != want) {
		st->timed = false;
		return;
	}
	g->timed = true;
	if (st->timed && s->read.time_enabled >= st->enabled &&
	    s->read.time_running >= st->running) {
		g->enabled += s->read.time_enabled - st->enabled;
		g->running += s->read.time_running - st->running;
	}
	st->timed = true;
	st->enabled = s->read.time_enabled;
	st->running = s->read.time_running;
}

static void add_counter(struct pm_metrics *m, size_t ev)
{
	struct mx_event *e = &m->events[ev];
	struct mx_counter *c;
	char buf[256];
	const char *name = mx_event_name(e, buf, sizeof(buf));
	size_t i, n = 1;

	m->counters = pm_reallocarray(m->counters, m->nr_counters + 1,
				      sizeof(*m->counters));
	c = &m->counters[m->nr_counters];
	c->event = (int)ev;
	c->group = e->group;
	c->pos = e->pos;
	c->role = pm_metrics__role(&e->attr, name, m->arch);
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
	e->counter = (int)m->nr_counters;
	m->nr_counters++;
}

void mx_drop_layout(struct pm_metrics *m)
{
	size_t i;

	for (i = 0; i < m->nr_counters; i++)
		free(m->counters[i].name);
	free(m->counters);
	m->counters = NULL;
	m->nr_counters = 0;
	for (i = 0; i < m->nr_metrics; i++) {
		free(m->metrics[i].name);
		free(m->metrics[i].formula);
	}
	free(m->metrics);
	m->metrics = NULL;
	m->nr_metrics = 0;
}

/* The counters (events in a group, in event order) and the metrics,
 * again whenever a group was learnt since. */
static void lay_out(struct pm_metrics *m)
{
	size_t i;

	mx_drop_layout(m);
	for (i = 0; i < m->nr_events; i++) {
		m->events[i].counter = -1;
		if (m->events[i].group >= 0)
			add_counter(m, i);
	}
	mx_build_metrics(m);
	m->totals = pm_reallocarray(m->totals, m->nr_counters + 1,
				    sizeof(*m->totals));
	m->laid_out = m->nr_groups + 1;
	m->sums_stale = true;
}

void mx_finish(struct pm_metrics *m)
{
	size_t i, c;

	mx_prepare(m);
	if (m->laid_out != m->nr_groups + 1)
		lay_out(m);
	if (!m->sums_stale)
		return;
	for (c = 0; c < m->nr_counters; c++)
		m->totals[c] = m->ev_totals[m->counters[c].event];
	for (i = 0; i < m->nr_funcs; i++) {
		struct mx_func *f = m->funcs[i];

		f->sums = pm_reallocarray(f->sums, m->nr_counters + 1,
					  sizeof(*f->sums));
		for (c = 0; c < m->nr_counters; c++)
			f->sums[c] = f->ev_sums[m->counters[c].event];
		f->pub.sums = f->sums;
	}
	m->sums_stale = false;
}
