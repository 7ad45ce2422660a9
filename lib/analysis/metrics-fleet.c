// SPDX-License-Identifier: GPL-2.0
/*
 * A fleet's windows (metrics over several recordings, one per host):
 * one accumulator adds up every recording's kept windows. What belongs
 * to a recording is forgotten before the next: its counter ids, the
 * streams and their last values, so that no window spans two files.
 * Functions are then told apart by their names (the shared object's and
 * the symbol's), not by the session's pointers, so that one function of
 * several hosts is one row: its sums, its windows, its intervals over
 * them all.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "metrics-internal.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

static uint64_t name_hash(const void *arg, size_t i)
{
	return pm_hash_str(((char *const *)arg)[i]);
}

/* The one pointer of a name: equal names, equal pointers. */
static const void *intern(struct pm_metrics *m, const char *name)
{
	uint64_t h = pm_hash_str(name);
	size_t s = PM_HASH_FIND(&m->fleet_index, h, i, !strcmp(m->fleet_names[i], name));

	if (!pm_hash__empty(&m->fleet_index, s))
		return m->fleet_names[pm_hash__at(&m->fleet_index, s)];
	pm_hash__reserve(&m->fleet_index, m->nr_fleet_names, name_hash, m->fleet_names);
	s = PM_HASH_FIND(&m->fleet_index, h, i, false);
	PM_GROW(m->fleet_names, m->alloc_fleet_names, m->nr_fleet_names + 1);
	m->fleet_names[m->nr_fleet_names] = pm_strdup(name);
	pm_hash__set(&m->fleet_index, s, m->nr_fleet_names);
	return m->fleet_names[m->nr_fleet_names++];
}

/* A function's identity by its names: the DSO's, and the DSO's with the
 * symbol's (NULL for an unknown symbol, as the session's). */
static void names_key(struct pm_metrics *m, const char *dso_name,
		      const char *sym_name, bool has_sym, const void **dso,
		      const void **sym)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;

	*dso = intern(m, dso_name ? dso_name : "[unknown]");
	*sym = NULL;
	if (!has_sym)
		return;
	pm_strbuf__addf(&sb, "%s\x1f%s", dso_name ? dso_name : "[unknown]",
			sym_name ? sym_name : "");
	*sym = intern(m, pm_strbuf__str(&sb));
	pm_strbuf__release(&sb);
}

void mx_fleet_loc(struct pm_metrics *m, struct pm_metrics_loc *loc)
{
	/* samples repeat their function: one lookup per change */
	if (loc->dso != m->fleet_last_dso || loc->sym != m->fleet_last_sym) {
		m->fleet_last_dso = loc->dso;
		m->fleet_last_sym = loc->sym;
		names_key(m, loc->dso_name, loc->sym_name, loc->sym != NULL,
			  &m->fleet_dso, &m->fleet_sym);
	}
	loc->dso = m->fleet_dso;
	loc->sym = m->fleet_sym;
}

/* The first recording's event of this name not yet taken by the
 * recording's earlier events (two events of one name: each its own). */
static int event_named(const struct pm_metrics *m, const char *name,
		       const int *taken, size_t nr_taken)
{
	for (size_t j = 0; j < m->nr_events; j++) {
		char buf[128];
		bool used = false;

		if (strcmp(mx_event_name(&m->events[j], buf, sizeof(buf)), name))
			continue;
		for (size_t k = 0; k < nr_taken && !used; k++)
			used = taken[k] == (int)j;
		if (!used)
			return (int)j;
	}
	return -1;
}

static const char *leader_name(const struct pm_metrics *m, int j, char *buf,
			       size_t size)
{
	int l = m->events[j].leader_idx;

	return l >= 0 && (size_t)l < m->nr_events ?
	       mx_event_name(&m->events[l], buf, size) : "?";
}

/* Recording r's events as the first recording's, by name (of[i]: r's
 * event i's index among m's): the windows add up by counter, whatever
 * the order. An event only in the first counts from the recordings that
 * have it; one it lacks, or a group of other members, has no counter
 * to add to: refused. */
static int match_events(struct pm_metrics *m, struct pm_reader *r, int *of,
			struct pm_error *err)
{
	size_t n = pm_reader__nr_events(r);

	for (size_t i = 0; i < n; i++) {
		const struct pm_event *ev = pm_reader__event(r, i);
		const struct pm_event *lead = pm_reader__event(r, (size_t)ev->leader_idx);
		const char *name = ev->name ? ev->name : "?";
		char buf[128];
		int j = of[i] = event_named(m, name, of, i);

		if (j < 0)
			return pm_error__fmt(err, EINVAL,
					     "records %s, which the first recording does "
					     "not: metrics adds up the first one's events", name);
		if (!lead || ev->nr_members != m->events[j].nr_members ||
		    strcmp(lead->name ? lead->name : "?", leader_name(m, j, buf, sizeof(buf))))
			return pm_error__fmt(err, EINVAL,
					     "records %s in a group of other members than "
					     "the first recording's (a group's counters add up "
					     "only with the same members)", name);
	}
	return 0;
}

int pm_metrics__next_input(struct pm_metrics *m, struct pm_reader *r,
			   struct pm_error *err)
{
	size_t n = pm_reader__nr_events(r);
	int *of = pm_calloc(n + 1, sizeof(*of));
	int ret = match_events(m, r, of, err);

	if (ret) {
		free(of);
		return ret;
	}
	/* the functions so far, by their names from now on */
	if (!m->fleet)
		for (size_t i = 0; i < m->nr_funcs; i++) {
			struct mx_func *f = m->funcs[i];

			names_key(m, f->pub.dso_name, f->pub.sym_name, f->sym != NULL,
				  &f->dso, &f->sym);
		}
	m->fleet = true;
	m->fleet_last_dso = m->fleet_last_sym = NULL;
	mx_rekey_funcs(m);
	/* this recording's ids and streams */
	free(m->ids);
	m->ids = NULL;
	m->nr_ids = m->alloc_ids = 0;
	pm_hash__release(&m->id_index);
	m->last_id = 0;
	m->nr_streams = 0;
	pm_hash__release(&m->stream_index);
	m->last_stream = 0;
	m->nr_vals = 0;
	for (size_t g = 0; g < m->nr_groups; g++)
		for (size_t j = 0; j < m->groups[g].nr; j++)
			m->groups[g].cache_pos[j] = -2;
	for (size_t i = 0; i < m->nr_events; i++)	/* none, unless this one has it */
		m->events[i].nr_ids = 0;
	for (size_t i = 0; i < n; i++) {
		const struct pm_event *ev = pm_reader__event(r, i);
		struct mx_event *e = &m->events[of[i]];

		e->ev = ev;
		free(e->ids);
		e->nr_ids = ev->nr_ids;
		e->ids = pm_calloc(ev->nr_ids + 1, sizeof(*e->ids));
		if (ev->nr_ids)
			memcpy(e->ids, ev->ids, ev->nr_ids * sizeof(*e->ids));
		for (uint32_t k = 0; k < ev->nr_ids; k++) {
			struct mx_id *id = mx_find_id(m, ev->ids[k], true);
			int32_t cpu, tid;

			id->event = of[i];
			id->k = k;
			if (!pm_reader__id_info(r, ev->ids[k], &cpu, &tid))
				id->scope = tid == -1 ? PM_METRICS_SCOPE_CPU
						      : PM_METRICS_SCOPE_TASK;
		}
	}
	free(of);
	return 0;
}

void mx_fleet_release(struct pm_metrics *m)
{
	for (size_t i = 0; i < m->nr_fleet_names; i++)
		free(m->fleet_names[i]);
	free(m->fleet_names);
	pm_hash__release(&m->fleet_index);
}
