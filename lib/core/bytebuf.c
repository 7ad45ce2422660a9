// SPDX-License-Identifier: GPL-2.0
/* The growable byte buffer. */
#include <stdlib.h>
#include <string.h>

#include "pmprof/bytebuf.h"
#include "pmprof/bytes.h"
#include "pmprof/util.h"

void pm_bytebuf__reset(struct pm_bytebuf *b)
{
	b->len = 0;
}

void pm_bytebuf__release(struct pm_bytebuf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

uint8_t *pm_bytebuf__grow(struct pm_bytebuf *b, size_t n)
{
	uint8_t *p;

	PM_GROW(b->data, b->alloc, b->len + n);
	p = b->data + b->len;
	memset(p, 0, n);
	b->len += n;
	return p;
}

uint8_t *pm_bytebuf__at(struct pm_bytebuf *b, size_t off, size_t n)
{
	if (off + n > b->len)
		pm_bytebuf__grow(b, off + n - b->len);
	return b->data + off;
}

void pm_bytebuf__add(struct pm_bytebuf *b, const void *p, size_t n)
{
	if (n)
		memcpy(pm_bytebuf__grow(b, n), p, n);
}

void pm_bytebuf__u16(struct pm_bytebuf *b, uint16_t v, bool swap)
{
	pm_store16(pm_bytebuf__grow(b, 2), v, swap);
}

void pm_bytebuf__u32(struct pm_bytebuf *b, uint32_t v, bool swap)
{
	pm_store32(pm_bytebuf__grow(b, 4), v, swap);
}

void pm_bytebuf__u64(struct pm_bytebuf *b, uint64_t v, bool swap)
{
	pm_store64(pm_bytebuf__grow(b, 8), v, swap);
}

void pm_bytebuf__pad8(struct pm_bytebuf *b)
{
	pm_bytebuf__grow(b, pm_align8(b->len) - b->len);
}
