/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A stand-in for <zstd.h> in the reduced cross build of
 * tests/cli/profileme-bigendian.sh, where no libzstd exists for the
 * target: the reader compiles, and a compressed recording fails cleanly
 * ("cannot create a zstd stream"). The ProfileMe fixtures are not
 * compressed.
 */
#ifndef PMPROF_STUB_ZSTD_H
#define PMPROF_STUB_ZSTD_H

#include <stddef.h>

typedef struct ZSTD_DStream_s ZSTD_DStream;
typedef struct { const void *src; size_t size; size_t pos; } ZSTD_inBuffer;
typedef struct { void *dst; size_t size; size_t pos; } ZSTD_outBuffer;

static inline ZSTD_DStream *ZSTD_createDStream(void) { return NULL; }
static inline size_t ZSTD_initDStream(ZSTD_DStream *z) { (void)z; return 0; }
static inline size_t ZSTD_freeDStream(ZSTD_DStream *z) { (void)z; return 0; }
static inline size_t ZSTD_decompressStream(ZSTD_DStream *z, ZSTD_outBuffer *o,
					   ZSTD_inBuffer *i)
{ (void)z; (void)o; (void)i; return (size_t)-1; }
static inline unsigned ZSTD_isError(size_t c) { return c == (size_t)-1; }
static inline const char *ZSTD_getErrorName(size_t c)
{ (void)c; return "zstd not available in this build"; }

#endif
