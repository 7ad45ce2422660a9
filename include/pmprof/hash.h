/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one hash table of pmprof: an open-addressing index over an array
 * the caller owns (elements stay where they are, so element i is the i-th
 * ever added, and pointers to elements stay valid while the array does).
 * Slots hold an element index + 1 (0: empty), linear probing, load kept
 * under one half. The caller gives each element's hash; finding is a
 * macro so that the match is inlined on the hot paths (a lookup per
 * sample, per read value).
 *
 *	struct pm_hash ix = PM_HASH_INIT;
 *	size_t s = PM_HASH_FIND(&ix, pm_hash64(id), i, elems[i].id == id);
 *	if (pm_hash__empty(&ix, s)) {		(not there: add it)
 *		pm_hash__reserve(&ix, nr, elem_hash, elems);
 *		s = PM_HASH_FIND(&ix, pm_hash64(id), i, false);
 *		elems[nr] = ...;
 *		pm_hash__set(&ix, s, nr++);
 *	}
 */
#ifndef PMPROF_HASH_H
#define PMPROF_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pm_hash {
	uint32_t *slots;
	size_t mask;		/* nr slots - 1; slots NULL before first use */
};

#define PM_HASH_INIT { NULL, 0 }

/* The hash of element i of the caller's array (for rehashing). */
typedef uint64_t (*pm_hash_fn)(const void *arg, size_t i);

/*
 * Room for element `nr` (elements [0, nr) are in the index): grows and
 * rehashes when the load would pass one half. Call before adding.
 */
void pm_hash__reserve(struct pm_hash *ix, size_t nr, pm_hash_fn hash,
		      const void *arg);
void pm_hash__release(struct pm_hash *ix);

static inline bool pm_hash__empty(const struct pm_hash *ix, size_t slot)
{
	return !ix->slots || !ix->slots[slot];
}

/* The element in a slot that PM_HASH_FIND found full. */
static inline size_t pm_hash__at(const struct pm_hash *ix, size_t slot)
{
	return ix->slots[slot] - 1;
}

/* Put element i into the empty slot PM_HASH_FIND returned. */
static inline void pm_hash__set(struct pm_hash *ix, size_t slot, size_t i)
{
	ix->slots[slot] = (uint32_t)(i + 1);
}

/*
 * The slot where the probe for hash h ends: the first whose element
 * (its index named `i` for `match`) matches, or the empty slot after the
 * run. 0 (and pm_hash__empty) on an index that has no slots yet.
 */
#define PM_HASH_FIND(ix, h, i, match)					\
	({								\
		size_t _s = 0;						\
		if ((ix)->slots) {					\
			_s = (size_t)(h) & (ix)->mask;			\
			while ((ix)->slots[_s]) {			\
				size_t i = (ix)->slots[_s] - 1;		\
				(void)i;				\
				if (match)				\
					break;				\
				_s = (_s + 1) & (ix)->mask;		\
			}						\
		}							\
		_s;							\
	})

/* A 64-bit mix (the murmur3 finalizer): for ids, pointers, small keys. */
static inline uint64_t pm_hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* FNV-1a of bytes and of a string: short keys, no adversary. */
uint64_t pm_hash_bytes(const void *p, size_t n);
uint64_t pm_hash_str(const char *s);

#endif
