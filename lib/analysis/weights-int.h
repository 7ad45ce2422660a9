/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Weighted keys: what the stack and profile accumulators count into. A key
 * is a run of 64-bit words (a stack's frame identities, a sample's location
 * ids and labels); each distinct key has its samples, the period of all
 * of them, and the period per column (an event, by the caller's id).
 */
#ifndef PMPROF_WEIGHTS_INT_H
#define PMPROF_WEIGHTS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/hash.h"

struct pm_table;

struct wkey {
	uint64_t hash;
	size_t first, nr;	/* words[first .. first + nr) */
	uint64_t samples, period;
	uint64_t *v;		/* per column, nv of them (later ones 0) */
	size_t nv;
};

struct wcol {
	int id;
	char *name;
};

/* Column ids below this find their column without a search (ids are
 * event indexes: a lookup per sample and event). */
#define WTAB_DIRECT_IDS 64

struct wtab {
	struct wkey *keys;
	size_t nr, alloc;
	struct pm_hash index;
	uint64_t *words;
	size_t nr_words, alloc_words;
	struct wcol *cols;
	size_t nr_cols, alloc_cols;
	uint32_t col_of_id[WTAB_DIRECT_IDS];	/* column + 1, 0: none yet */
};

void wtab__release(struct wtab *w);
/* The column of an id, made with this name on first use. */
size_t wtab__column(struct wtab *w, int id, const char *name);
/* The key of these words (made, with no counts, when new). */
size_t wtab__find(struct wtab *w, const uint64_t *words, size_t n);
/* One sample of this period to key k, column col. */
void wtab__add(struct wtab *w, size_t k, size_t col, uint64_t period);
/* A value to key k's column col alone (another counter of the sample). */
void wtab__add_value(struct wtab *w, size_t k, size_t col, uint64_t v);
static inline uint64_t wtab__value(const struct wtab *w, size_t k, size_t col)
{
	return col < w->keys[k].nv ? w->keys[k].v[col] : 0;
}
static inline const uint64_t *wtab__words(const struct wtab *w, size_t k)
{
	return w->words + w->keys[k].first;
}

/* Columns Samples, Period, then one per column (keys as names) from
 * column `at` on of t; returns the next free column. */
size_t wtab__add_columns(const struct wtab *w, struct pm_table *t);
/* Key k's counts into row `row` from column `at` on. */
void wtab__set_cells(const struct wtab *w, size_t k, struct pm_table *t,
		     size_t row, size_t at);

#endif
