// SPDX-License-Identifier: GPL-2.0
/*
 * The hotspot's call-graph view: the tree of a row's call chains
 * (pmprof/callgraph.h) as the nodes of the row's tree in its table
 * (pm_table__children), one node per frame with the row's columns: the
 * share (graph: of the event, as perf's; fractal: of the parent's
 * children; a frame continuing its parent's line of frames shows its
 * parent's), Self, Samples and Period through it, its DSO and its name
 * as perf's graph prints it ("main", an unresolved frame's address).
 * Flat and folded: one node per call chain, its frames ';' apart.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "hotspot-int.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

static void frame_name(const struct pm_cg_frame *f, struct pm_strbuf *sb)
{
	if (f->sym)
		pm_strbuf__addf(sb, "%s%s", f->sym->name,
				f->sym->inlined ? " (inlined)" : "");
	else
		pm_strbuf__addf(sb, "%#" PRIx64, f->ip);
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* The cells every node has; pct is its share (the value in percent). */
static void node_cells(struct pm_table *t, size_t r, const struct hot_graph *g,
		       double pct, uint64_t samples, uint64_t period,
		       uint64_t self, struct pm_cg_frame *f, const char *name)
{
	pm_table__set_double(t, r, g->share_col, pct);
	if (g->self_col >= 0)
		pm_table__set_double(t, r, (size_t)g->self_col, share(self, g->total));
	pm_table__set_u64(t, r, g->samples_col, samples);
	pm_table__set_u64(t, r, g->period_col, period);
	if (g->weight_col >= 0)
		pm_table__set_u64(t, r, (size_t)g->weight_col, period);
	if (g->dso_col >= 0 && f)
		pm_table__set_str(t, r, (size_t)g->dso_col,
				  f->dso ? pm_dso__short_name(f->dso) : "[unknown]");
	for (int i = 0; i < 2; i++)
		if (g->name_col[i] >= 0)
			pm_table__set_str(t, r, (size_t)g->name_col[i], name);
}

/*
 * Fractal: what n's shown children leave out of total (the pruned and
 * the ones past the print limit, and where total is the row's, what ends
 * on its first line of frames), as perf's "[...]" node after them. With
 * count values perf shows it only when samples are left besides: of n's
 * children's, which leave out what ends on n even where total has it.
 * Returns whether something is left (shown or not: the last child's
 * line keeps its level's pipe either way, as perf's).
 */
static bool fractal_rest(struct pm_table *t, size_t row, const struct pm_cg_node *n,
			 size_t shown, const struct hot_graph *g, uint64_t total,
			 bool *drawn)
{
	uint64_t rest = total, samples = n->samples - n->self_samples;
	struct pm_table *kids;
	size_t r;

	for (size_t i = 0; i < shown; i++) {
		rest -= n->kids[i]->period;
		samples -= n->kids[i]->samples;
	}
	*drawn = false;
	if (!rest || rest == total)
		return false;
	if (g->opts->value == PM_CG_COUNT && (int64_t)samples <= 0)
		return true;
	*drawn = true;
	kids = pm_table__children(t, row);
	r = pm_table__add_row(kids);
	node_cells(kids, r, g, share(rest, total), samples, rest, 0, NULL, "[...]");
	if (g->rest_col >= 0)
		pm_table__set_bool(kids, r, (size_t)g->rest_col, true);
	return true;
}

/* Where a node's children go and what their shares are of. */
struct graph_at {
	struct pm_table *t;	/* the node's row: (t, row) */
	size_t row;
	uint64_t total;		/* fractal: what the children's shares are
				   of (perf's: the row's period on the
				   row's one line of frames, else the
				   period through the node's children) */
	double head_pct;	/* the share of the line of frames the
				   node is on (a continuing frame shows it) */
	bool top;		/* the node is on the row's one line of
				   frames (or is the root) */
	uint64_t room;		/* how many more frames of that line show:
				   perf prints at most print_limit */
};

/* The kept children of n under at (at most print_limit of them, perf's
 * per level), then fractal's remainder; the last one shown marked when
 * more of n than it shows is left without a remainder node to say so. */
static void graph_rows(const struct pm_cg_node *n, const struct hot_graph *g,
		       const struct graph_at *at, uint64_t row_period)
{
	bool continues = n->parent && n->nr_all_kids == 1 && !n->self_period;
	uint64_t limit = g->opts->print_limit;
	size_t shown = n->nr_kids;
	struct pm_strbuf name = PM_STRBUF_INIT;
	struct pm_table *kids = NULL;
	bool open, drawn = false;

	if (!continues && limit && shown > limit)
		shown = (size_t)limit;
	open = shown < n->nr_kids;
	for (size_t i = 0; i < shown; i++) {
		struct pm_cg_node *k = n->kids[i];
		/* the row's one line of frames: all of the row through it */
		bool k_top = at->top && (n->parent ? continues :
					 n->nr_kids == 1 && k->period == row_period);
		struct graph_at below = { .top = k_top, .room = at->room };
		double pct;

		if (g->opts->mode != PM_CG_FRACTAL)
			pct = share(k->period, g->total);
		else if (continues)
			pct = at->head_pct;
		else
			pct = share(k->period, at->total);
		below.head_pct = pct;
		below.total = k_top ? row_period : k->period - k->self_period;
		if (k_top && limit && !at->room) {
			/* past perf's limit on the first line: the frame
			 * goes, what is under it stays */
			below.t = at->t;
			below.row = at->row;
			graph_rows(k, g, &below, row_period);
			continue;
		}
		if (k_top && limit)
			below.room--;
		if (!kids)
			kids = pm_table__children(at->t, at->row);
		below.t = kids;
		below.row = pm_table__add_row(kids);
		pm_strbuf__reset(&name);
		frame_name(&k->frame, &name);
		node_cells(kids, below.row, g, pct, k->samples, k->period, k->self_period,
			   &k->frame, pm_strbuf__str(&name));
		graph_rows(k, g, &below, row_period);
	}
	if (g->opts->mode == PM_CG_FRACTAL && !continues)
		open = fractal_rest(at->t, at->row, n, shown, g, at->total, &drawn) || open;
	if (open && !drawn && kids && pm_table__nr_rows(kids) && g->more_col >= 0)
		pm_table__set_bool(kids, pm_table__nr_rows(kids) - 1, (size_t)g->more_col, true);
	pm_strbuf__release(&name);
}

/* ---- flat and folded: each chain that ends with enough self period ---- */

struct chain_list {
	const struct pm_cg_node **v;
	size_t nr, alloc;
};

/* Post order, as perf collects them; the children in their order. */
static void collect(const struct pm_cg_node *n, uint64_t min, struct chain_list *l)
{
	for (size_t i = 0; i < n->nr_kids; i++)
		collect(n->kids[i], min, l);
	if (n->parent && n->self_period && n->self_period >= min) {
		PM_GROW(l->v, l->alloc, l->nr + 1);
		l->v[l->nr++] = n;
	}
}

static void chain_names(const struct pm_cg_node *n, struct pm_strbuf *sb)
{
	if (n->parent && n->parent->parent) {
		chain_names(n->parent, sb);
		pm_strbuf__addc(sb, ';');
	}
	frame_name(&n->frame, sb);
}

static void chain_rows(struct pm_table *t, size_t row, const struct pm_cg_node *root,
		       const struct hot_graph *g)
{
	struct chain_list l = { 0 };
	struct pm_strbuf names = PM_STRBUF_INIT;
	bool folded = g->opts->mode == PM_CG_FOLDED;
	struct pm_table *kids;

	collect(root, root->min_self, &l);
	/* most self period first; ties stay in collection order */
	for (size_t i = 1; i < l.nr; i++) {
		const struct pm_cg_node *x = l.v[i];
		size_t j = i;

		while (j > 0 && l.v[j - 1]->self_period < x->self_period) {
			l.v[j] = l.v[j - 1];
			j--;
		}
		l.v[j] = x;
	}
	if (g->opts->print_limit && l.nr > g->opts->print_limit)
		l.nr = (size_t)g->opts->print_limit;
	kids = l.nr ? pm_table__children(t, row) : NULL;
	for (size_t i = 0; i < l.nr; i++) {
		const struct pm_cg_node *n = l.v[i];
		size_t r = pm_table__add_row(kids);
		struct pm_cg_frame f = n->frame;

		pm_strbuf__reset(&names);
		chain_names(n, &names);
		/* perf: flat shows the period through the chain's end,
		 * folded the period ending there */
		node_cells(kids, r, g, share(folded ? n->self_period : n->period, g->total),
			   folded ? n->self_samples : n->samples,
			   folded ? n->self_period : n->period, n->self_period,
			   &f, pm_strbuf__str(&names));
	}
	pm_strbuf__release(&names);
	free(l.v);
}

void hot_graph__rows(struct pm_table *t, size_t row, struct pm_cg_node *tree,
		     uint64_t row_period, const struct hot_graph *g)
{
	struct graph_at at = {
		.t = t, .row = row, .total = row_period, .top = true,
		/* the row's own frame, left out of the text, is no frame
		 * to perf's limit */
		.room = g->opts->print_limit + (g->own_frame ? 1 : 0),
	};

	if (!tree)
		return;
	pm_cg__finish(tree, g->opts, g->total);
	if (g->opts->mode == PM_CG_FLAT || g->opts->mode == PM_CG_FOLDED)
		chain_rows(t, row, tree, g);
	else
		graph_rows(tree, g, &at, row_period);
}
