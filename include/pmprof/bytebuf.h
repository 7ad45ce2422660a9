/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A growable byte buffer for anything that encodes binary data (the
 * perf.data writer, the ELF writer): appended or written at an offset,
 * numbers stored in either byte order. (Text goes into pmprof/strbuf.h.)
 */
#ifndef PMPROF_BYTEBUF_H
#define PMPROF_BYTEBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pm_bytebuf {
	uint8_t *data;
	size_t len, alloc;
};

#define PM_BYTEBUF_INIT { NULL, 0, 0 }

void pm_bytebuf__reset(struct pm_bytebuf *b);		/* len 0, memory kept */
void pm_bytebuf__release(struct pm_bytebuf *b);
/* n more bytes at the end, zeroed; their address. */
uint8_t *pm_bytebuf__grow(struct pm_bytebuf *b, size_t n);
/* Bytes [off, off + n), the buffer zero-extended to cover them. */
uint8_t *pm_bytebuf__at(struct pm_bytebuf *b, size_t off, size_t n);
void pm_bytebuf__add(struct pm_bytebuf *b, const void *p, size_t n);
/* Numbers appended in the host's order, or the other with swap. */
void pm_bytebuf__u16(struct pm_bytebuf *b, uint16_t v, bool swap);
void pm_bytebuf__u32(struct pm_bytebuf *b, uint32_t v, bool swap);
void pm_bytebuf__u64(struct pm_bytebuf *b, uint64_t v, bool swap);
/* Zeros up to the next multiple of 8. */
void pm_bytebuf__pad8(struct pm_bytebuf *b);

#endif
