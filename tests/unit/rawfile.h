/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hand-built perf.data bytes for the reader's unit tests. Deliberately
 * independent of pmprof's writer and attr encoder: every byte is placed
 * here from the format's description, so the reader is checked against
 * the format, not against another part of pmprof.
 */
#ifndef PMPROF_TEST_RAWFILE_H
#define PMPROF_TEST_RAWFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct rawbuf {
	uint8_t *p;
	size_t len, alloc;
	bool be;		/* write big endian */
};

static inline void rb_reserve(struct rawbuf *b, size_t n)
{
	if (b->len + n > b->alloc) {
		b->alloc = (b->len + n) * 2 + 64;
		b->p = realloc(b->p, b->alloc);
	}
}

static inline void rb_put(struct rawbuf *b, uint64_t v, int width)
{
	int i;

	rb_reserve(b, (size_t)width);
	for (i = 0; i < width; i++) {
		int shift = b->be ? 8 * (width - 1 - i) : 8 * i;

		b->p[b->len + (size_t)i] = (uint8_t)(v >> shift);
	}
	b->len += (size_t)width;
}

static inline void rb_u8(struct rawbuf *b, uint8_t v) { rb_put(b, v, 1); }
static inline void rb_u16(struct rawbuf *b, uint16_t v) { rb_put(b, v, 2); }
static inline void rb_u32(struct rawbuf *b, uint32_t v) { rb_put(b, v, 4); }
static inline void rb_u64(struct rawbuf *b, uint64_t v) { rb_put(b, v, 8); }

static inline void rb_bytes(struct rawbuf *b, const void *p, size_t n)
{
	if (!n)
		return;
	rb_reserve(b, n);
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static inline void rb_zeros(struct rawbuf *b, size_t n)
{
	rb_reserve(b, n);
	memset(b->p + b->len, 0, n);
	b->len += n;
}

/* Overwrite at an offset already written. */
static inline void rb_patch(struct rawbuf *b, size_t off, uint64_t v, int width)
{
	size_t save = b->len;

	b->len = off;
	rb_put(b, v, width);
	b->len = save;
}

/* A perf string: u32 len, bytes padded with NULs to `pad`. */
static inline void rb_string(struct rawbuf *b, const char *s, size_t pad)
{
	size_t n = strlen(s) + 1, padded = (n + pad - 1) / pad * pad;

	rb_u32(b, (uint32_t)padded);
	rb_bytes(b, s, n - 1);
	rb_zeros(b, padded - (n - 1));
}

/* Record header; returns the offset to patch the size into. */
static inline size_t rb_record_begin(struct rawbuf *b, uint32_t type, uint16_t misc)
{
	size_t at = b->len;

	rb_u32(b, type);
	rb_u16(b, misc);
	rb_u16(b, 0);
	return at;
}

static inline void rb_record_end(struct rawbuf *b, size_t at)
{
	rb_patch(b, at + 6, (uint16_t)(b->len - at), 2);
}

/*
 * The attr flags word as written: in a big-endian file, the bitfield
 * that little endian keeps at bits [i, i+w) sits at [64-i-w, 64-i).
 * Only 1-bit flags and the 2-bit precise_ip (15-16) are used by tests.
 */
static inline uint64_t rb_flags_word(uint64_t le_flags, bool be)
{
	uint64_t out = 0;
	int bit;

	if (!be)
		return le_flags;
	for (bit = 0; bit < 64; bit++) {
		if (bit == 15) {	/* precise_ip, two bits */
			out |= ((le_flags >> 15) & 3) << (64 - 15 - 2);
			bit++;
			continue;
		}
		if ((le_flags >> bit) & 1)
			out |= 1ULL << (63 - bit);
	}
	return out;
}

#endif
