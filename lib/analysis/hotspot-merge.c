// SPDX-License-Identifier: GPL-2.0
/*
 * A fleet's rows (hotspot over several recordings): each recording has
 * its own session, so one function of two hosts is two entries (their
 * keys are each session's DSO and symbol pointers). The rows a user
 * expects are per function across hosts: entries that show the same
 * key cells (the same shared object name, the same symbol name, ...)
 * become one, their counts added. Two builds of one program resolve
 * each from its own binary; a function both have is one row. Their
 * call-graph trees merge the same way (pm_cg__merge: by what each node
 * prints).
 */
#include <stdlib.h>
#include <string.h>

#include "hotspot-int.h"
#include "pmprof/util.h"

/* The symbol as the row shows it: its name (and level), else the address. */
static int sym_shown_cmp(const struct hot_entry *a, const struct hot_entry *b)
{
	int c = (a->sym != NULL) - (b->sym != NULL);

	if (c)
		return c;
	if (a->level != b->level)
		return a->level - b->level;
	if (!a->sym)
		return pm_cmp_u64(a->addr, b->addr);
	if ((c = strcmp(a->sym->name, b->sym->name)))
		return c;
	return (int)a->sym->inlined - (int)b->sym->inlined;
}

static int shown_cmp(const void *pa, const void *pb, void *arg)
{
	const struct hot_entry *a = *(struct hot_entry *const *)pa;
	const struct hot_entry *b = *(struct hot_entry *const *)pb;
	const struct pm_hotspot_opts *o = arg;
	int c = 0;

	for (size_t i = 0; i < o->nr_keys && !c; i++)
		c = o->keys[i] == PM_HOT_SYM ? sym_shown_cmp(a, b)
					     : hot_key__get(o->keys[i])->cmp(a, b);
	/* rows the thread filters hide stay apart from those they show */
	return c ? c : (int)a->filtered - (int)b->filtered;
}

size_t hot_rows__coalesce(struct hot_entry **e, size_t n, size_t nr_slots,
			  const struct pm_hotspot_opts *o)
{
	size_t k = 0;

	qsort_r(e, n, sizeof(*e), shown_cmp, (void *)o);
	for (size_t i = 0; i < n; i++) {
		if (k && !shown_cmp(&e[k - 1], &e[i], (void *)o)) {
			for (size_t s = 0; s < nr_slots; s++) {
				e[k - 1]->st[s].samples += e[i]->st[s].samples;
				e[k - 1]->st[s].period += e[i]->st[s].period;
				e[k - 1]->st[s].acc += e[i]->st[s].acc;
			}
			/* -g: the recordings' trees of the row become one */
			e[k - 1]->tree = pm_cg__merge(e[k - 1]->tree, e[i]->tree);
			free(e[i]);
			continue;
		}
		e[k++] = e[i];
	}
	return k;
}
