// SPDX-License-Identifier: GPL-2.0
/*
 * Compressed records, as perf record -z writes them: from the moment
 * compression is on, the kernel's records (types below 64) go through one
 * zstd stream, flushed into PERF_RECORD_COMPRESSED records (header and at
 * most 65527 bytes of zstd data each, perf's limit); the tool's own
 * records (FINISHED_ROUND, ...) stay plain, written after a flush so the
 * file order is kept. perf decompresses each COMPRESSED record into a
 * buffer of the COMPRESSED feature's mmap_len bytes (plus a record split
 * across two), so the stream is flushed before more than the ring
 * buffer's data size has gone in since the last flush.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "perfdata/writer-int.h"
#include "pmprof/abi.h"
#include "pmprof/bytes.h"
#include "pmprof/util.h"

#define MAX_ZDATA (65536 - 8 - 1)	/* PERF_SAMPLE_MAX_SIZE - header - 1 */
#define PM_COMP_ZSTD 1			/* the feature's type: zstd */

struct pm_wz {
	ZSTD_CStream *cs;
	struct pm_bytebuf out;		/* zstd bytes not yet in records */
	size_t pending;			/* bytes fed since the last flush */
	size_t limit;			/* flush before pending passes it */
	uint32_t level, mmap_len;
	uint64_t in_bytes, out_bytes;	/* for the feature's ratio */
};

/* The COMPRESSED feature: version, type, level, ratio, mmap_len (u32s). */
static int set_feature(struct pm_writer *w, struct pm_error *err)
{
	struct pm_wz *z = w->z;
	uint8_t p[20];
	uint32_t ratio = z->out_bytes ? (uint32_t)((double)z->in_bytes / (double)z->out_bytes + 0.5) : 0;

	pm_store32(p, 0, w->swap);
	pm_store32(p + 4, PM_COMP_ZSTD, w->swap);
	pm_store32(p + 8, z->level, w->swap);
	pm_store32(p + 12, ratio, w->swap);
	pm_store32(p + 16, z->mmap_len, w->swap);
	return pm_writer__set_raw_feature(w, PM_FEAT_COMPRESSED, p, sizeof(p), err);
}

int pm_writer__set_compression(struct pm_writer *w, int level, uint32_t mmap_len,
			       struct pm_error *err)
{
	struct pm_wz *z;
	size_t r;
	int ret;

	if (w->z)
		return 0;
	if (level < 1 || level > ZSTD_maxCLevel())
		return pm_error__fmt(err, PM_EUSAGE, "compression level %d: give 1 to %d",
				     level, ZSTD_maxCLevel());
	if (mmap_len < 8192)
		return pm_error__fmt(err, PM_EUSAGE, "compression: mmap_len %u too small", mmap_len);
	/* header records (pipe mode) and the layout go out plain */
	ret = pm_writer__begin(w, err);
	if (ret)
		return ret;
	z = pm_zalloc(sizeof(*z));
	z->cs = ZSTD_createCStream();
	if (!z->cs) {
		free(z);
		return pm_error__fmt(err, -ENOMEM, "cannot create a zstd stream");
	}
	r = ZSTD_CCtx_setParameter(z->cs, ZSTD_c_compressionLevel, level);
	if (ZSTD_isError(r)) {
		ZSTD_freeCStream(z->cs);
		free(z);
		return pm_error__fmt(err, PM_EUSAGE, "zstd level %d: %s", level, ZSTD_getErrorName(r));
	}
	z->level = (uint32_t)level;
	z->mmap_len = mmap_len;
	/* what perf's reader decompresses a record into, less a page */
	z->limit = mmap_len - 4096;
	w->z = z;
	return set_feature(w, err);
}

/* Run the stream with `mode` over `in` (may be empty), output into z->out. */
static int pump(struct pm_writer *w, const void *p, size_t len, ZSTD_EndDirective mode,
		struct pm_error *err)
{
	struct pm_wz *z = w->z;
	ZSTD_inBuffer in = { p, len, 0 };
	size_t left;

	do {
		ZSTD_outBuffer out;
		size_t room = ZSTD_CStreamOutSize();

		pm_bytebuf__grow(&z->out, room);
		z->out.len -= room;
		out.dst = z->out.data + z->out.len;
		out.size = room;
		out.pos = 0;
		left = ZSTD_compressStream2(z->cs, &out, &in, mode);
		if (ZSTD_isError(left))
			return pm_error__fmt(err, PM_EFORMAT, "%s: zstd: %s", w->name,
					     ZSTD_getErrorName(left));
		z->out.len += out.pos;
	} while (mode == ZSTD_e_continue ? in.pos < in.size : left != 0);
	return 0;
}

/* Flush the stream and write what it made as COMPRESSED records. */
int pm_writer__compress_flush(struct pm_writer *w, struct pm_error *err)
{
	struct pm_wz *z = w->z;
	size_t off;
	int ret;

	if (!z || !z->pending)
		return 0;
	ret = pump(w, NULL, 0, ZSTD_e_flush, err);
	for (off = 0; !ret && off < z->out.len; off += MAX_ZDATA) {
		size_t n = PM_MIN((size_t)MAX_ZDATA, z->out.len - off);
		uint8_t h[8];

		pm_store32(h, PM_RECORD_COMPRESSED, w->swap);
		pm_store16(h + 4, 0, w->swap);
		pm_store16(h + 6, (uint16_t)(n + 8), w->swap);
		ret = pm_writer__emit(w, h, sizeof(h), err);
		if (!ret)
			ret = pm_writer__emit(w, z->out.data + off, n, err);
		z->out_bytes += n + 8;
	}
	pm_bytebuf__reset(&z->out);
	z->pending = 0;
	return ret;
}

int pm_writer__emit_record(struct pm_writer *w, const void *rec, size_t len,
			   struct pm_error *err)
{
	struct pm_wz *z = w->z;
	uint32_t type;
	int ret;

	if (!z)
		return pm_writer__emit(w, rec, len, err);
	type = pm_load32(rec, w->swap);
	if (type >= 64) {
		/* the tool's records stay plain, in their place */
		ret = pm_writer__compress_flush(w, err);
		return ret ? ret : pm_writer__emit(w, rec, len, err);
	}
	if (w->failed)
		return pm_error__fmt(err, EIO, "%s: an earlier write failed", w->name);
	if (z->pending + len > z->limit && (ret = pm_writer__compress_flush(w, err)))
		return ret;
	ret = pump(w, rec, len, ZSTD_e_continue, err);
	z->pending += len;
	z->in_bytes += len;
	return ret;
}

int pm_writer__compress_end(struct pm_writer *w, struct pm_error *err)
{
	int ret;

	if (!w->z)
		return 0;
	ret = pm_writer__compress_flush(w, err);
	/* the ratio is known now */
	if (!ret && !w->pipe)
		ret = set_feature(w, err);
	return ret;
}

void pm_writer__compress_free(struct pm_writer *w)
{
	if (!w->z)
		return;
	ZSTD_freeCStream(w->z->cs);
	pm_bytebuf__release(&w->z->out);
	free(w->z);
	w->z = NULL;
}
