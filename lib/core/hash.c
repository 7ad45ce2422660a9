// SPDX-License-Identifier: GPL-2.0
/* The hash index's growth, and the byte hashes. */
#include <stdlib.h>

#include "pmprof/hash.h"
#include "pmprof/util.h"

void pm_hash__reserve(struct pm_hash *ix, size_t nr, pm_hash_fn hash,
		      const void *arg)
{
	size_t size, i;

	if (ix->slots && (nr + 1) * 2 <= ix->mask + 1)
		return;
	size = ix->slots ? (ix->mask + 1) * 2 : 64;
	while ((nr + 1) * 2 > size)
		size *= 2;
	free(ix->slots);
	ix->slots = pm_calloc(size, sizeof(*ix->slots));
	ix->mask = size - 1;
	for (i = 0; i < nr; i++) {
		size_t s = (size_t)hash(arg, i) & ix->mask;

		while (ix->slots[s])
			s = (s + 1) & ix->mask;
		ix->slots[s] = (uint32_t)(i + 1);
	}
}

void pm_hash__release(struct pm_hash *ix)
{
	free(ix->slots);
	ix->slots = NULL;
	ix->mask = 0;
}

uint64_t pm_hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--) {
		h ^= *b++;
		h *= 0x100000001b3ull;
	}
	return h;
}

uint64_t pm_hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}
