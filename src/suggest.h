/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "Did you mean": the known word closest to one the user mistyped, for
 * unknown commands and unknown options alike.
 */
#ifndef PMPROF_SUGGEST_H
#define PMPROF_SUGGEST_H

#include <stddef.h>

/*
 * The candidate nearest to word (edit distance with transpositions; a
 * candidate that word is a prefix of counts as one edit), or NULL when
 * none is near enough to be a likely typo. NULL entries are skipped.
 */
const char *pm_suggest(const char *word, size_t len,
		       const char *const *cands, size_t nr);

#endif
