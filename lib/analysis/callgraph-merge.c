// SPDX-License-Identifier: GPL-2.0
/*
 * A fleet's call-graph trees (callgraph.h): each recording's frames are
 * its own session's DSOs and symbols, so one function of two hosts is
 * two frames. A row's trees from several recordings become one by what
 * their nodes print: the DSO's short name and the symbol's name, or for
 * an unresolved frame the address. Counts of matched nodes add up; a
 * node only one tree has moves over with what is under it.
 */
#include <stdlib.h>
#include <string.h>

#include "pmprof/callgraph.h"
#include "pmprof/dso.h"
#include "pmprof/util.h"

static const char *dso_shown(const struct pm_cg_frame *f)
{
	return f->dso ? pm_dso__short_name(f->dso) : "[unknown]";
}

bool pm_cg_frame__shown_same(const struct pm_cg_frame *a, const struct pm_cg_frame *b)
{
	if ((a->sym != NULL) != (b->sym != NULL))
		return false;
	if (a->sym && (strcmp(a->sym->name, b->sym->name) ||
		       a->sym->inlined != b->sym->inlined))
		return false;
	if (!a->sym && a->ip != b->ip)
		return false;
	return a->dso == b->dso || !strcmp(dso_shown(a), dso_shown(b));
}

static void add_counts(struct pm_cg_node *dst, const struct pm_cg_node *src)
{
	dst->period += src->period;
	dst->samples += src->samples;
	dst->self_period += src->self_period;
	dst->self_samples += src->self_samples;
}

struct pm_cg_node *pm_cg__merge(struct pm_cg_node *dst, struct pm_cg_node *src)
{
	size_t mine;

	if (!src || !dst)
		return dst ? dst : src;
	mine = dst->nr_all_kids;	/* src's own never match each other */
	add_counts(dst, src);
	for (size_t i = 0; i < src->nr_all_kids; i++) {
		struct pm_cg_node *k = src->kids[i], *into = NULL;

		for (size_t j = 0; j < mine && !into; j++)
			if (pm_cg_frame__shown_same(&dst->kids[j]->frame, &k->frame))
				into = dst->kids[j];
		if (into) {
			(void)pm_cg__merge(into, k);
			continue;
		}
		/* new to dst: after its own, in src's order */
		k->parent = dst;
		k->arrival = dst->nr_all_kids;
		PM_GROW(dst->kids, dst->alloc_kids, dst->nr_all_kids + 1);
		dst->kids[dst->nr_all_kids++] = k;
	}
	dst->nr_kids = dst->nr_all_kids;
	free(src->kids);
	free(src);
	return dst;
}
