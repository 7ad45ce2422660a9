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

/* Fractal: what n's children left out of total (pruned children, and
 * below the row's first line of frames what ends on it), as perf's
 * "[...]" node. */
static void fractal_rest(struct pm_table *kids, const struct pm_cg_node *n,
			 const struct hot_graph *g, uint64_t total)
{
	uint64_t rest = total;
	size_t r;

	for (size_t i = 0; i < n->nr_kids; i++)
		rest -= n->kids[i]->period;
	if (!rest || rest == total)
		return;
	r = pm_table__add_row(kids);
	node_cells(kids, r, g, share(rest, total), 0, rest, 0, NULL, "[...]");
}

/*
 * The kept children of n under (t, row). total: what their fractal
 * shares are of (perf's: the row's period at the top and below the row's
 * one line of frames, else the period through n's children); head_pct:
 * the share of the line of frames n is on (a continuing frame shows it);
 * top: n is on the row's one line of frames (or is the root).
 */
static void graph_rows(struct pm_table *t, size_t row, const struct pm_cg_node *n,
		       const struct hot_graph *g, uint64_t total, double head_pct,
		       bool top)
{
	bool continues = n->parent && n->nr_all_kids == 1 && !n->self_period;
	const struct pm_cg_node *root = n;
	struct pm_strbuf name = PM_STRBUF_INIT;
	struct pm_table *kids;

	if (!n->nr_kids)
		return;
	while (root->parent)
		root = root->parent;
	kids = pm_table__children(t, row);
	for (size_t i = 0; i < n->nr_kids; i++) {
		struct pm_cg_node *k = n->kids[i];
		/* the row's one line of frames: all of the row through it */
		bool k_top = top && (n->parent ? continues :
				     n->nr_kids == 1 && k->period == n->period);
		double pct;
		size_t r = pm_table__add_row(kids);

		if (g->opts->mode != PM_CG_FRACTAL)
			pct = share(k->period, g->total);
		else if (continues)
			pct = head_pct;
		else
			pct = share(k->period, total);
		pm_strbuf__reset(&name);
		frame_name(&k->frame, &name);
		node_cells(kids, r, g, pct, k->samples, k->period, k->self_period,
			   &k->frame, pm_strbuf__str(&name));
		graph_rows(kids, r, k, g, k_top ? root->period : k->period - k->self_period,
			   pct, k_top);
	}
	if (g->opts->mode == PM_CG_FRACTAL && !continues)
		fractal_rest(kids, n, g, total);
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
		     const struct hot_graph *g)
{
	if (!tree)
		return;
	pm_cg__finish(tree, g->opts, g->total);
	if (g->opts->mode == PM_CG_FLAT || g->opts->mode == PM_CG_FOLDED)
		chain_rows(t, row, tree, g);
	else
		graph_rows(t, row, tree, g, tree->period, 0, true);
}
