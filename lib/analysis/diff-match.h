/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmprof diff's row matching: the rows of two tables paired by a key
 * string (each row's key columns, or a stack), by sorting both sides'
 * keys together instead of hashing them.
 */
#ifndef PMPROF_DIFF_MATCH_H
#define PMPROF_DIFF_MATCH_H

#include <stddef.h>

struct pm_table;

/* One output row: the row of each side, or -1 where that side has none. */
struct pm_diff_pair {
	const char *key;	/* the pair's key (owned by the match) */
	long base, new;
};

struct pm_diff_match {
	struct pm_diff_pair *pairs;
	size_t nr;
	char **keys;		/* every key string made */
	size_t nr_keys;
};

/* Pair the rows of base and new by key_col (>= 0: that string column,
 * in both) or, when key_col < 0, by all of their PM_COLF_KEY columns. */
void pm_diff_match__run(struct pm_diff_match *m, const struct pm_table *base,
			const struct pm_table *new, int key_col);
void pm_diff_match__release(struct pm_diff_match *m);

#endif
