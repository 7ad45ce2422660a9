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

int pm_metrics__next_input(struct pm_metrics *m, struct pm_reader *r,
			   struct pm_error *err)
{
	if (pm_reader__nr_events(r) != m->nr_events)
		return pm_error__fmt(err, PM_EUSAGE,
				     "a fleet's recordings must record the same events");
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
	for (size_t i = 0; i < m->nr_events; i++) {
		const struct pm_event *ev = pm_reader__event(r, i);
		struct mx_event *e = &m->events[i];

		e->ev = ev;
		free(e->ids);
		e->nr_ids = ev->nr_ids;
		e->ids = pm_calloc(ev->nr_ids + 1, sizeof(*e->ids));
		if (ev->nr_ids)
			memcpy(e->ids, ev->ids, ev->nr_ids * sizeof(*e->ids));
		for (uint32_t k = 0; k < ev->nr_ids; k++) {
			struct mx_id *id = mx_find_id(m, ev->ids[k], true);
			int32_t cpu, tid;

			id->event = (int)i;
			id->k = k;
			if (!pm_reader__id_info(r, ev->ids[k], &cpu, &tid))
				id->scope = tid == -1 ? PM_METRICS_SCOPE_CPU
						      : PM_METRICS_SCOPE_TASK;
		}
	}
	return 0;
}

void mx_fleet_release(struct pm_metrics *m)
{
	for (size_t i = 0; i < m->nr_fleet_names; i++)
		free(m->fleet_names[i]);
	free(m->fleet_names);
	pm_hash__release(&m->fleet_index);
}
