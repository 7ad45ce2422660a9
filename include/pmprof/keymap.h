/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A map from byte-string keys to values, in insertion order: the rows of
 * an accumulator keyed by what a sample resolves to (symbol, pc, data
 * source), over the hash index (pmprof/hash.h); values stay where they
 * are, so values[i] is the i-th distinct key ever added.
 */
#ifndef PMPROF_KEYMAP_H
#define PMPROF_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "pmprof/hash.h"

struct pm_keymap {
	void **values;		/* values[i] belongs to keys[i] */
	char **keys;
	size_t *key_len;
	size_t nr, alloc;
	struct pm_hash index;
};

#define PM_KEYMAP_INIT { 0 }

/* Frees the keys and arrays; the values are the caller's. */
void pm_keymap__release(struct pm_keymap *m);

/*
 * The value slot for key, added (holding NULL, *is_new set) when the key
 * is new. The pointer is valid until the next call.
 */
void **pm_keymap__findnew(struct pm_keymap *m, const void *key, size_t len,
			  bool *is_new);

/* The same, the value being a zeroed allocation of `size` bytes made when
 * the key is new (the caller frees the values). */
void *pm_keymap__findnew_zeroed(struct pm_keymap *m, const void *key,
				size_t len, size_t size, bool *is_new);

struct pm_strbuf;

/* Append a string to a key being built: a marker byte tells NULL from "",
 * and the NUL keeps ("ab", "c") apart from ("a", "bc"). */
void pm_key__add_str(struct pm_strbuf *key, const char *s);

#endif
