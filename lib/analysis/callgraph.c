// SPDX-License-Identifier: GPL-2.0
/*
 * Call-graph trees (callgraph.h): one node per frame, children found by
 * perf's "function" key, periods and sample counts summed on the way
 * down; finishing sorts children by the period through them and prunes
 * by the threshold of the mode, as perf's graph and flat sorting decide
 * what shows. Between equal periods the order is perf's, which is not
 * the order samples came in: perf keeps a node's children ordered by
 * the key it matches frames with and sorts them by period stably.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/callgraph.h"
#include "pmprof/dso.h"
#include "pmprof/error.h"
#include "pmprof/util.h"

void pm_cg_opts__init(struct pm_cg_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = PM_CG_GRAPH;
	o->order = PM_CG_CALLEE;
	o->threshold = 0.5;
	o->value = PM_CG_PERCENT;
}

static bool parse_number(const char *w, double *v)
{
	char *end;

	if (!*w)
		return false;
	*v = strtod(w, &end);
	return !*end && isfinite(*v) && *v >= 0;
}

int pm_cg_opts__parse(struct pm_cg_opts *o, const char *spec,
		      struct pm_error *err)
{
	static const struct { const char *w; int mode; } modes[] = {
		{ "graph", PM_CG_GRAPH }, { "fractal", PM_CG_FRACTAL },
		{ "flat", PM_CG_FLAT }, { "folded", PM_CG_FOLDED },
		{ "none", PM_CG_NONE },
	};
	char *copy = pm_strdup(spec), *save = NULL, *w;
	int numbers = 0, ret = 0;

	for (w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		double v;
		bool known = false;

		for (size_t i = 0; i < PM_ARRAY_SIZE(modes); i++)
			if (!strcmp(w, modes[i].w)) {
				o->mode = (enum pm_cg_mode)modes[i].mode;
				known = true;
			}
		if (known)
			continue;
		if (!strcmp(w, "caller") || !strcmp(w, "callee")) {
			o->order = strcmp(w, "caller") ? PM_CG_CALLEE : PM_CG_CALLER;
			o->order_set = true;
		} else if (!strcmp(w, "function")) {
			/* the only key: frames are functions */
		} else if (!strcmp(w, "percent")) {
			o->value = PM_CG_PERCENT;
		} else if (!strcmp(w, "period")) {
			o->value = PM_CG_PERIOD;
		} else if (!strcmp(w, "count")) {
			o->value = PM_CG_COUNT;
		} else if (parse_number(w, &v) && numbers < 2) {
			if (numbers++ == 0) {
				if (v > 100) {
					ret = pm_error__fmt(err, PM_EUSAGE, "call-graph threshold '%s' is over 100", w);
					break;
				}
				o->threshold = v;
				o->threshold_set = true;
			} else {
				o->print_limit = (uint64_t)v;
			}
		} else {
			ret = pm_error__fmt(err, PM_EUSAGE,
					    !strcmp(w, "address") || !strcmp(w, "srcline") ?
					    "call-graph key '%s' is not supported (function only)" :
					    "unknown call-graph word '%s' (graph, fractal, flat, folded, none; caller, callee; a threshold; percent, period, count)",
					    w);
			break;
		}
	}
	free(copy);
	return ret;
}

/* ---- frames ---- */

void pm_cg_frame__from_loc(struct pm_cg_frame *f, const struct pm_addr_loc *loc)
{
	f->dso = loc->map ? loc->dso : NULL;
	f->sym = loc->sym;
	f->ip = loc->ip;
	f->level = loc->level;
}

bool pm_cg_frame__same(const struct pm_cg_frame *a, const struct pm_cg_frame *b)
{
	if (a->sym && b->sym) {
		/* inlined functions share their host's start: by name */
		if (a->sym->inlined || b->sym->inlined)
			return !strcmp(a->sym->name, b->sym->name);
		return a->dso == b->dso && a->sym->start == b->sym->start;
	}
	if (a->sym || b->sym)
		return false;
	return a->dso == b->dso && a->ip == b->ip;
}

/* ---- trees ---- */

struct pm_cg_node *pm_cg__new(void)
{
	return pm_zalloc(sizeof(struct pm_cg_node));
}

void pm_cg__delete(struct pm_cg_node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->nr_all_kids; i++)
		pm_cg__delete(n->kids[i]);
	free(n->kids);
	free(n);
}

static struct pm_cg_node *child(struct pm_cg_node *n, const struct pm_cg_frame *f)
{
	struct pm_cg_node *c;

	/* the last child found is the likeliest */
	for (size_t i = n->nr_all_kids; i-- > 0;)
		if (pm_cg_frame__same(&n->kids[i]->frame, f))
			return n->kids[i];
	c = pm_zalloc(sizeof(*c));
	c->frame = *f;
	c->parent = n;
	c->arrival = n->nr_all_kids;
	PM_GROW(n->kids, n->alloc_kids, n->nr_all_kids + 1);
	n->kids[n->nr_all_kids++] = c;
	n->nr_kids = n->nr_all_kids;
	return c;
}

void pm_cg__add(struct pm_cg_node *root, const struct pm_cg_frame *frames,
		size_t n, uint64_t period)
{
	struct pm_cg_node *at = root;

	root->period += period;
	root->samples++;
	for (size_t i = 0; i < n; i++) {
		at = child(at, &frames[i]);
		at->period += period;
		at->samples++;
	}
	at->self_period += period;
	at->self_samples++;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/*
 * Two frames' DSOs in perf's key order (none the least): by the order
 * they were met, perf comparing the addresses it allocated them at, in
 * that order.
 */
static int cmp_dso(const struct pm_cg_frame *a, const struct pm_cg_frame *b)
{
	if (a->dso == b->dso)
		return 0;
	if (!a->dso || !b->dso)
		return a->dso ? -1 : 1;
	return -cmp_u64(pm_dso__seq(a->dso), pm_dso__seq(b->dso));
}

/*
 * perf's key order, the greater first (negative: a goes before b):
 * inlined frames by name, functions by DSO and start, any other pair by
 * DSO and address.
 */
static int cmp_key(const struct pm_cg_frame *a, const struct pm_cg_frame *b)
{
	int c;

	if (a->sym && b->sym && (a->sym->inlined || b->sym->inlined))
		return -strcmp(a->sym->name, b->sym->name);
	if ((c = cmp_dso(a, b)))
		return c;
	if (a->sym && b->sym)
		c = cmp_u64(a->sym->start, b->sym->start);
	else
		c = cmp_u64(a->ip, b->ip);
	return -c;
}

/*
 * A fleet's key order (by_name): each recording met its DSOs in its own
 * order and each build has its own addresses, so its siblings go by what
 * they print, the greater first as perf's names: the DSO's short name
 * (none the least), then the function's name (resolved before
 * unresolved), then an unresolved frame's address. The tree does not
 * depend on the order the recordings were given in.
 */
static int cmp_shown(const struct pm_cg_frame *a, const struct pm_cg_frame *b)
{
	int c;

	if ((a->dso != NULL) != (b->dso != NULL))
		return a->dso ? -1 : 1;
	if (a->dso && a->dso != b->dso &&
	    (c = strcmp(pm_dso__short_name(a->dso), pm_dso__short_name(b->dso))))
		return -c;
	if ((a->sym != NULL) != (b->sym != NULL))
		return a->sym ? -1 : 1;
	if (a->sym && (c = strcmp(a->sym->name, b->sym->name)))
		return -c;
	if (a->sym)
		return (int)b->sym->inlined - (int)a->sym->inlined;
	return -cmp_u64(a->ip, b->ip);
}

static int cmp_order(const struct pm_cg_node *x, const struct pm_cg_node *y,
		     const struct pm_cg_opts *o)
{
	int c = o->by_name ? cmp_shown(&x->frame, &y->frame)
			   : cmp_key(&x->frame, &y->frame);

	return c ? c : cmp_u64(x->arrival, y->arrival);
}

/* Graph and fractal: by the period through them, most first. */
static int cmp_period(const void *a, const void *b, void *o)
{
	const struct pm_cg_node *x = *(struct pm_cg_node *const *)a;
	const struct pm_cg_node *y = *(struct pm_cg_node *const *)b;

	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	return cmp_order(x, y, o);
}

/* Flat and folded: perf collects chains walking children in key order. */
static int cmp_frames(const void *a, const void *b, void *o)
{
	return cmp_order(*(struct pm_cg_node *const *)a,
			 *(struct pm_cg_node *const *)b, o);
}

/*
 * Keep the children whose period reaches min (graph: a share of the
 * event's; fractal: of the node's children): sorted, they are the first nr_kids
 * (the pruned ones stay past them, to be freed with the tree).
 */
static void prune(struct pm_cg_node *n, const struct pm_cg_opts *o,
		  uint64_t min_abs)
{
	uint64_t min = min_abs, kids_period = 0;
	size_t keep = 0;

	if (n->nr_all_kids > 1)		/* (a leaf's kids may be NULL) */
		qsort_r(n->kids, n->nr_all_kids, sizeof(*n->kids),
			o->mode == PM_CG_FLAT || o->mode == PM_CG_FOLDED ?
			cmp_frames : cmp_period, (void *)o);
	for (size_t i = 0; i < n->nr_all_kids; i++)
		kids_period += n->kids[i]->period;
	if (o->mode == PM_CG_FRACTAL)
		/* perf's rounding: the share first, then ceil */
		min = (uint64_t)ceil((double)kids_period * (o->threshold / 100.0));
	else if (o->mode == PM_CG_FLAT || o->mode == PM_CG_FOLDED)
		min = 0;	/* whole chains are left out, not nodes */
	while (keep < n->nr_all_kids && n->kids[keep]->period >= min)
		keep++;
	n->nr_kids = keep;
	for (size_t i = 0; i < keep; i++)
		prune(n->kids[i], o, min_abs);
}

void pm_cg__finish(struct pm_cg_node *root, const struct pm_cg_opts *o,
		   uint64_t total_period)
{
	/* perf's min_callchain_hits, a u64 from a double */
	uint64_t min = (uint64_t)((double)total_period * (o->threshold / 100.0));

	root->min_self = min;
	prune(root, o, min);
}

/* ---- a sample's paths ---- */

bool pm_callgraph__keeps(size_t i, size_t n, size_t recorded, size_t max,
			 enum pm_cg_order order)
{
	if (!max)
		return i < n;
	if (i >= recorded)	/* the unwinder stops after max */
		return i - recorded < max;
	/* the first max in display order */
	return order == PM_CG_CALLER ? recorded - i <= max : i < max;
}

void pm_callgraph__add_sample(const struct pm_addr_loc *chain, size_t n,
			      enum pm_cg_order order, bool children,
			      uint64_t period, void *self, pm_cg_row_fn row_of,
			      pm_cg_tree_fn tree_of, void *arg)
{
	struct pm_cg_frame stack_frames[PM_UNWIND_MAX_FRAMES * 2], *f = stack_frames;
	void *stack_seen[PM_UNWIND_MAX_FRAMES * 2 + 1], **seen = stack_seen;
	size_t nr_seen = 0;

	if (!n)
		return;
	if (n > PM_ARRAY_SIZE(stack_frames)) {
		f = pm_calloc(n, sizeof(*f));
		seen = pm_calloc(n + 1, sizeof(*seen));
	}
	/* display order: the cursor perf walks */
	for (size_t p = 0; p < n; p++)
		pm_cg_frame__from_loc(&f[p], &chain[order == PM_CG_CALLER ? n - 1 - p : p]);
	if (self) {
		pm_cg__add(tree_of(arg, self), f, n, period);
		seen[nr_seen++] = self;
	}
	for (size_t p = 0; children && p < n; p++) {
		size_t i = order == PM_CG_CALLER ? n - 1 - p : p;
		void *row = row_of(arg, i);
		bool dup = !row;

		for (size_t k = 0; k < nr_seen && !dup; k++)
			dup = seen[k] == row;
		if (dup)
			continue;
		seen[nr_seen++] = row;
		pm_cg__add(tree_of(arg, row), f + p, n - p, period);
	}
	if (f != stack_frames) {
		free(f);
		free(seen);
	}
}
