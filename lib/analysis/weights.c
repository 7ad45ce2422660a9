// SPDX-License-Identifier: GPL-2.0
/* Weighted keys (weights-int.h): a hash of word runs, counts per column. */
#include <stdlib.h>
#include <string.h>

#include "pmprof/table.h"
#include "pmprof/util.h"
#include "weights-int.h"

void wtab__release(struct wtab *w)
{
	for (size_t i = 0; i < w->nr; i++)
		free(w->keys[i].v);
	free(w->keys);
	pm_hash__release(&w->index);
	free(w->words);
	for (size_t i = 0; i < w->nr_cols; i++)
		free(w->cols[i].name);
	free(w->cols);
	memset(w, 0, sizeof(*w));
}

size_t wtab__column(struct wtab *w, int id, const char *name)
{
	bool direct = id >= 0 && id < WTAB_DIRECT_IDS;
	size_t i;

	if (direct && w->col_of_id[id])
		return w->col_of_id[id] - 1;
	for (i = 0; i < w->nr_cols; i++)
		if (w->cols[i].id == id)
			break;
	if (i == w->nr_cols) {
		PM_GROW(w->cols, w->alloc_cols, w->nr_cols + 1);
		w->cols[w->nr_cols].id = id;
		w->cols[w->nr_cols].name = pm_strdup(name ? name : "?");
		w->nr_cols++;
	}
	if (direct)
		w->col_of_id[id] = (uint32_t)(i + 1);
	return i;
}

static uint64_t words_hash(const uint64_t *v, size_t n)
{
	uint64_t x = 0xcbf29ce484222325ULL ^ n;

	for (size_t i = 0; i < n; i++) {
		x ^= v[i];
		x *= 0x9e3779b97f4a7c15ULL;
		x ^= x >> 29;
	}
	return x;
}

static uint64_t key_hash(const void *arg, size_t i)
{
	return ((const struct wkey *)arg)[i].hash;
}

/* Keys are a few words: a loop beats a call to memcmp. */
static bool same_key(const struct wtab *w, const struct wkey *k, uint64_t hv,
		     const uint64_t *words, size_t n)
{
	const uint64_t *v = w->words + k->first;

	if (k->hash != hv || k->nr != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (v[i] != words[i])
			return false;
	return true;
}

size_t wtab__find(struct wtab *w, const uint64_t *words, size_t n)
{
	uint64_t hv = words_hash(words, n);
	size_t slot = PM_HASH_FIND(&w->index, hv, i,
				   same_key(w, &w->keys[i], hv, words, n));

	if (!pm_hash__empty(&w->index, slot))
		return pm_hash__at(&w->index, slot);
	pm_hash__reserve(&w->index, w->nr, key_hash, w->keys);
	slot = PM_HASH_FIND(&w->index, hv, i, false);
	PM_GROW(w->words, w->alloc_words, w->nr_words + n);
	memcpy(w->words + w->nr_words, words, n * sizeof(*words));
	PM_GROW(w->keys, w->alloc, w->nr + 1);
	w->keys[w->nr] = (struct wkey){ .hash = hv, .first = w->nr_words, .nr = n };
	w->nr_words += n;
	pm_hash__set(&w->index, slot, w->nr);
	return w->nr++;
}

void wtab__add_value(struct wtab *w, size_t k, size_t col, uint64_t v)
{
	struct wkey *e = &w->keys[k];

	if (col >= e->nv) {
		e->v = pm_reallocarray(e->v, w->nr_cols, sizeof(*e->v));
		memset(e->v + e->nv, 0, (w->nr_cols - e->nv) * sizeof(*e->v));
		e->nv = w->nr_cols;
	}
	e->v[col] += v;
}

void wtab__add(struct wtab *w, size_t k, size_t col, uint64_t period)
{
	wtab__add_value(w, k, col, period);
	w->keys[k].samples++;
	w->keys[k].period += period;
}

size_t wtab__add_columns(const struct wtab *w, struct pm_table *t)
{
	pm_table__add_col(t, "Samples", "samples", PM_COL_U64);
	pm_table__add_col(t, "Period", "period", PM_COL_U64);
	for (size_t c = 0; c < w->nr_cols; c++)
		pm_table__add_col(t, w->cols[c].name, w->cols[c].name, PM_COL_U64);
	return pm_table__nr_columns(t);
}

void wtab__set_cells(const struct wtab *w, size_t k, struct pm_table *t,
		     size_t row, size_t at)
{
	pm_table__set_u64(t, row, at, w->keys[k].samples);
	pm_table__set_u64(t, row, at + 1, w->keys[k].period);
	for (size_t c = 0; c < w->nr_cols; c++)
		pm_table__set_u64(t, row, at + 2 + c, wtab__value(w, k, c));
}
