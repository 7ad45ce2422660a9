// SPDX-License-Identifier: GPL-2.0
/*
 * The hotspot tables' columns: the shares, samples and periods of each
 * group member, the sort keys' columns, and what a call-graph view needs
 * of them (which cell a branch shows, what flows through a node, the
 * column frames are named in).
 */
#include <stdint.h>
#include <stdio.h>

#include "hotspot-int.h"
#include "pmprof/session.h"
#include "pmprof/util.h"

/* "Overhead" for the leader, "Overhead:EVENT" and key "overhead_N" for
 * the other members of a group. */
static size_t add_member_col(struct pm_table *t, const struct pm_hotspot_opts *o,
			     const char *field, const char *what,
			     const char *key, size_t i, const char *member,
			     enum pm_table_type type, unsigned int flags)
{
	/* perf's widths: a share 8 characters, a count 12 */
	struct pm_table_column c = { .type = type, .flags = flags,
				     .perf_width = type == PM_COL_PERCENT ? 8 : 12 };

	/* -F: what it leaves out only JSON shows */
	if (o->fields && !pm_hot_fields__has(o->fields, field))
		c.show = PM_SHOW_JSON;
	char name[128], k[64];

	snprintf(name, sizeof(name), i ? "%s:%s" : "%s", what, member);
	snprintf(k, sizeof(k), i ? "%s_%zu" : "%s", key, i);
	c.name = name;
	c.key = k;
	return (size_t)pm_table__add_column(t, &c);
}

/* -g: which cell a branch shows (perf's percent, period or count). */
static unsigned int value_flag(const struct pm_hotspot_opts *o, enum pm_cg_value v)
{
	return o->callgraph && o->cg.value == v ? PM_COLF_TREE_VALUE : 0;
}

/* The column of count kind for member i (hidden when -F lacks it), its
 * index in g and the call-graph roles of the leader's. */
static void add_count(struct pm_table *t, const struct pm_hotspot_opts *o,
		      struct pm_reader *r, int idx, size_t nr_slots,
		      enum hot_field_kind kind, size_t i, struct hot_graph *g)
{
	const struct pm_event *m = pm_reader__event(r, (size_t)idx + i);
	const char *mn = m ? m->name : "?";
	unsigned int pct = i ? 0 : value_flag(o, PM_CG_PERCENT);
	size_t c;

	if (g->count_col[kind * nr_slots + i] != SIZE_MAX)
		return;
	switch (kind) {
	case HOT_F_CHILDREN:
		if (!o->children)
			return;
		c = add_member_col(t, o, "overhead_children", "Children", "children", i, mn,
				   PM_COL_PERCENT, pct);
		if (!i)
			g->share_col = c;
		break;
	case HOT_F_OVERHEAD:
		c = o->children ?
		    add_member_col(t, o, "overhead", "Self", "self", i, mn, PM_COL_PERCENT, 0) :
		    add_member_col(t, o, "overhead", "Overhead", "overhead", i, mn,
				   PM_COL_PERCENT, pct);
		if (!i && o->children)
			g->self_col = (int)c;
		else if (!i)
			g->share_col = c;
		break;
	case HOT_F_SAMPLE:
		c = add_member_col(t, o, "sample", "Samples", "samples", i, mn, PM_COL_U64,
				   i ? 0 : value_flag(o, PM_CG_COUNT));
		if (!i)
			g->samples_col = c;
		break;
	default:
		c = add_member_col(t, o, "period", "Period", "period", i, mn, PM_COL_U64,
				   i ? 0 : value_flag(o, PM_CG_PERIOD) |
				   (o->callgraph && !o->children ? PM_COLF_TREE_WEIGHT : 0));
		if (!i)
			g->period_col = c;
		break;
	}
	g->count_col[kind * nr_slots + i] = c;
}

/* Key k's column(s), once. */
static void add_key(struct pm_table *t, const struct pm_hotspot_opts *o, size_t k,
		    bool shown, size_t *kcol, struct hot_graph *g)
{
	const struct hot_key *d = hot_key__get(o->keys[k]);
	struct pm_table_column col = d->col;

	if (kcol[k] != SIZE_MAX)
		return;
	if (o->callgraph && o->keys[k] == PM_HOT_SYM)
		col.flags |= PM_COLF_TREE;
	if (!shown)
		col.show = PM_SHOW_JSON;
	kcol[k] = (size_t)pm_table__add_column(t, &col);
	if (d->json_col.name)
		pm_table__add_column(t, &d->json_col);
	if (o->keys[k] == PM_HOT_DSO && g->dso_col < 0)
		g->dso_col = (int)kcol[k];
	if (o->keys[k] == PM_HOT_SYM && g->name_col[0] < 0) {
		g->name_col[0] = (int)kcol[k];
		g->name_col[1] = (int)kcol[k] + 1;
	}
}

/* -F: its columns in its order, then the sort keys it lacks (perf). */
static void add_fields(struct pm_table *t, const struct pm_hotspot_opts *o,
		       struct pm_reader *r, int idx, size_t nr_slots,
		       size_t *kcol, struct hot_graph *g)
{
	struct hot_field f[HOT_MAX_FIELDS];
	size_t n = hot_fields__columns(o, f);

	for (size_t j = 0; j < n; j++) {
		if (f[j].kind != HOT_F_KEY) {
			for (size_t i = 0; i < nr_slots; i++)
				add_count(t, o, r, idx, nr_slots, f[j].kind, i, g);
			continue;
		}
		for (size_t k = 0; k < o->nr_keys; k++)
			if (o->keys[k] == f[j].key)
				add_key(t, o, k, true, kcol, g);
	}
}

void hot_columns__add(struct pm_table *t, const struct pm_hotspot_opts *o,
		      struct pm_reader *r, int idx, size_t nr_slots,
		      size_t *kcol, struct hot_graph *g)
{
	g->self_col = g->dso_col = g->name_col[0] = g->name_col[1] = -1;
	g->count_col = pm_calloc(HOT_F_NR_COUNTS * nr_slots, sizeof(*g->count_col));
	for (size_t i = 0; i < HOT_F_NR_COUNTS * nr_slots; i++)
		g->count_col[i] = SIZE_MAX;
	for (size_t k = 0; k < o->nr_keys; k++)
		kcol[k] = SIZE_MAX;
	if (o->fields)
		add_fields(t, o, r, idx, nr_slots, kcol, g);
	/* without -F (and what -F leaves out, for JSON): the shares, the
	 * counts, then the keys */
	for (size_t i = 0; i < nr_slots; i++) {
		add_count(t, o, r, idx, nr_slots, HOT_F_CHILDREN, i, g);
		add_count(t, o, r, idx, nr_slots, HOT_F_OVERHEAD, i, g);
	}
	for (size_t i = 0; i < nr_slots; i++) {
		add_count(t, o, r, idx, nr_slots, HOT_F_SAMPLE, i, g);
		add_count(t, o, r, idx, nr_slots, HOT_F_PERIOD, i, g);
	}
	g->weight_col = -1;
	if (o->callgraph && o->children) {
		/* what a row's graph covers: the period with it in the chain */
		struct pm_table_column w = {
			.name = "Children period", .key = "children_period",
			.type = PM_COL_U64, .show = PM_SHOW_JSON,
			.flags = PM_COLF_TREE_WEIGHT,
		};

		g->weight_col = pm_table__add_column(t, &w);
	}
	g->rest_col = g->more_col = -1;
	if (o->callgraph && o->cg.mode != PM_CG_FLAT && o->cg.mode != PM_CG_FOLDED) {
		/* JSON: which node is perf's "[...]", which is the last of
		 * siblings more of which are left out (text draws both as
		 * perf does) */
		struct pm_table_column rest = {
			.name = "Remainder", .key = "remainder",
			.type = PM_COL_BOOL, .show = PM_SHOW_JSON,
			.flags = PM_COLF_OPTIONAL | PM_COLF_TREE_REST,
		}, more = {
			.name = "More", .key = "more",
			.type = PM_COL_BOOL, .show = PM_SHOW_JSON,
			.flags = PM_COLF_OPTIONAL | PM_COLF_TREE_MORE,
		};

		if (o->cg.mode == PM_CG_FRACTAL)
			g->rest_col = pm_table__add_column(t, &rest);
		g->more_col = pm_table__add_column(t, &more);
	}
	for (size_t k = 0; k < o->nr_keys; k++)
		add_key(t, o, k, !o->fields, kcol, g);
	/* JSON rows always name the location (null when no key). */
	if (g->dso_col < 0) {
		struct pm_table_column c = hot_key__get(PM_HOT_DSO)->col;

		c.show = PM_SHOW_JSON;
		g->dso_col = pm_table__add_column(t, &c);
	}
	if (g->name_col[1] < 0) {
		/* -g: the frames' names in text too, from this column */
		struct pm_table_column c = hot_key__get(PM_HOT_SYM)->json_col;

		if (o->callgraph)
			c.flags |= PM_COLF_TREE;
		g->name_col[1] = pm_table__add_column(t, &c);
	}
}

unsigned int hot_graph__table_flags(const struct pm_hotspot_opts *o)
{
	if (!o->callgraph)
		return 0;
	switch (o->cg.mode) {
	case PM_CG_FLAT:
		return PM_TABLE_CALL_CHAINS;
	case PM_CG_FOLDED:
		return PM_TABLE_CALL_FOLDED;
	default:
		/* perf: --sort sym first (and no -F) leaves the row's own
		 * frame out of the chain under it */
		return PM_TABLE_CALL_GRAPH |
		       (!o->fields && o->nr_sort_keys && o->keys[0] == PM_HOT_SYM ?
			PM_TABLE_CALL_OWN_FRAME : 0);
	}
}
