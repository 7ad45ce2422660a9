// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "suggest.h"

#define MAX_WORD 64

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

/*
 * Optimal string alignment distance: insertions, deletions,
 * substitutions and swaps of two neighbours ("reprot") cost one each.
 */
static size_t distance(const char *a, size_t la, const char *b, size_t lb)
{
	size_t d[MAX_WORD + 1][MAX_WORD + 1], i, j;

	if (la > MAX_WORD || lb > MAX_WORD)
		return (size_t)-1;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];

			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[la][lb];
}

const char *pm_suggest(const char *word, size_t len, const char *const *cands, size_t nr)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1, i;
	/* a typo, not another word: about one edit in three letters */
	size_t limit = len / 3 + 1;

	if (!len)
		return NULL;
	if (limit > 3)
		limit = 3;
	for (i = 0; i < nr; i++) {
		size_t lc, d;

		if (!cands[i])
			continue;
		lc = strlen(cands[i]);
		d = distance(word, len, cands[i], lc);
		if (len >= 2 && lc > len && !strncmp(cands[i], word, len) && d > 1)
			d = 1;
		if (d < best_d) {
			best_d = d;
			best = cands[i];
		}
	}
	return best_d <= limit ? best : NULL;
}
