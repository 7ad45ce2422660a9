/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Call-graph trees: the call chains of the samples under a profile row,
 * merged into a tree as `perf report -g` shows them. A tree is added
 * paths (frames in display order, the first at the top), each with a
 * period; frames are the same node when perf's "function" key says so
 * (the same DSO and symbol; an unresolved frame by its address; inlined
 * frames by name). Finishing sorts every node's children by the period
 * through them (equal ones in perf's order: by that key, the greater
 * first, DSOs in the order they were met) and leaves out those under
 * the threshold:
 *
 *	graph    children below threshold % of the event's period go
 *	fractal  children below threshold % of their parent's children go
 *	flat, folded: nothing is pruned; a chain (the path to a node with
 *	         self period) shows when its self period reaches threshold %
 *	         of the event's (root->min_self)
 *
 * Which paths a row gets is perf's choice (pm_callgraph__add_sample()):
 * a sample's own row gets its whole chain; with --children each caller's
 * row gets the chain from that caller on, toward the sample in caller
 * order (what it calls), toward the outermost frame in callee order (who
 * calls it).
 */
#ifndef PMPROF_CALLGRAPH_H
#define PMPROF_CALLGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/session.h"

struct pm_error;

enum pm_cg_mode {
	PM_CG_GRAPH,		/* percentages of the whole event (perf's) */
	PM_CG_FRACTAL,		/* percentages of the parent */
	PM_CG_FLAT,		/* each distinct chain, one frame a line */
	PM_CG_FOLDED,		/* each distinct chain on one line, ';' apart */
	PM_CG_NONE,		/* no tree */
};

enum pm_cg_order {
	PM_CG_CALLEE,		/* from the sampled function to its callers */
	PM_CG_CALLER,		/* from the outermost caller down */
};

enum pm_cg_value {
	PM_CG_PERCENT,
	PM_CG_PERIOD,
	PM_CG_COUNT,		/* samples */
};

struct pm_cg_opts {
	enum pm_cg_mode mode;
	enum pm_cg_order order;
	bool order_set;		/* given: else the default for --children */
	double threshold;	/* percent (perf's default 0.5) */
	bool threshold_set;
	uint64_t print_limit;	/* flat/folded: at most this many chains; 0 all */
	enum pm_cg_value value;
	bool by_name;		/* a fleet's trees (several recordings):
				   siblings of equal period ordered by
				   what they print, not by each
				   recording's DSO order and addresses */
};

/* perf's defaults: graph, 0.5, callee order, percentages. */
void pm_cg_opts__init(struct pm_cg_opts *o);

/*
 * perf's -g / --call-graph argument, "graph,0.5,caller,function,percent"
 * in any order of its words: a mode (graph, fractal, flat, folded, none),
 * an order (caller, callee), a threshold and then a print limit (numbers),
 * the key (function only: address and srcline are not supported), a value
 * (percent, period, count). Fields not given keep their values.
 * -PM_EUSAGE with a message naming the bad word.
 */
int pm_cg_opts__parse(struct pm_cg_opts *o, const char *spec,
		      struct pm_error *err);

/* One frame of a tree. */
struct pm_cg_frame {
	struct pm_dso *dso;		/* NULL: outside every map */
	const struct pm_symbol *sym;	/* NULL: unresolved */
	uint64_t ip;			/* the address (the first seen) */
	char level;			/* perf's '.', 'k', ... */
};

struct pm_cg_node {
	struct pm_cg_frame frame;	/* unused at the root */
	uint64_t period, samples;	/* through this node */
	uint64_t self_period, self_samples;	/* of paths ending here */
	struct pm_cg_node **kids;	/* sorted, pruned, after finish */
	size_t nr_kids, alloc_kids;
	struct pm_cg_node *parent;
	size_t nr_all_kids;		/* before pruning (all are freed) */
	size_t arrival;			/* its index among its parent's
					   children before sorting */
	uint64_t min_self;		/* root, flat and folded: a chain shows
					   when its self period reaches this */
};

/* A tree: its root's period is that of every path added. */
struct pm_cg_node *pm_cg__new(void);
void pm_cg__delete(struct pm_cg_node *root);

/* Add a path of n frames, frames[0] at the top. */
void pm_cg__add(struct pm_cg_node *root, const struct pm_cg_frame *frames,
		size_t n, uint64_t period);

/*
 * Sort and prune for o's mode: total_period is the event's (graph, flat
 * and folded thresholds are shares of it, as perf's).
 */
void pm_cg__finish(struct pm_cg_node *root, const struct pm_cg_opts *o,
		   uint64_t total_period);

/*
 * A fleet's trees: src's paths added into dst, nodes matched by what
 * they print (pm_cg_frame__shown_same); src is consumed (its nodes
 * dst does not have move into it). Both unfinished; either may be NULL.
 * Returns the merged tree (dst, or src when dst is NULL).
 */
struct pm_cg_node *pm_cg__merge(struct pm_cg_node *dst, struct pm_cg_node *src);

/* The frame perf shows for a call chain entry. */
void pm_cg_frame__from_loc(struct pm_cg_frame *f, const struct pm_addr_loc *loc);
/* Are two frames the same node (perf's "function" key)? */
bool pm_cg_frame__same(const struct pm_cg_frame *a, const struct pm_cg_frame *b);
/* Do two frames, maybe of two recordings, print the same: the DSO's
 * short name and the symbol's name (and inlined mark), or the address? */
bool pm_cg_frame__shown_same(const struct pm_cg_frame *a, const struct pm_cg_frame *b);

/*
 * The paths of one sample, for rows found by the caller: chain is the
 * sample's call chain, callee first (pm_session__callchain(), already
 * cut to --max-stack); self is the sample's own row (NULL: none), which
 * gets the whole chain; with children, row_of(arg, i) is the row of
 * entry i (NULL: a row that takes no tree; it may be self, as entry 0
 * mostly is), and each distinct row other than self gets, at its first
 * entry in display order, the chain from there on. tree_of(arg, row) is
 * the row's tree.
 */
/*
 * --max-stack as perf: does it keep entry i of a chain of n (callee
 * first; the first `recorded` from PERF_SAMPLE_CALLCHAIN, the rest
 * unwound)? perf cuts each part on its own to max entries (0: no cut):
 * of the recorded, the first in display order (in caller order the
 * outermost); of the unwound, the innermost, the unwinder stopping there.
 */
bool pm_callgraph__keeps(size_t i, size_t n, size_t recorded, size_t max,
			 enum pm_cg_order order);

typedef void *(*pm_cg_row_fn)(void *arg, size_t i);
typedef struct pm_cg_node *(*pm_cg_tree_fn)(void *arg, void *row);
void pm_callgraph__add_sample(const struct pm_addr_loc *chain, size_t n,
			      enum pm_cg_order order, bool children,
			      uint64_t period, void *self, pm_cg_row_fn row_of,
			      pm_cg_tree_fn tree_of, void *arg);

#endif
