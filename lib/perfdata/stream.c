// SPDX-License-Identifier: GPL-2.0
/*
 * One file's records, in file order: the header of each is checked
 * against what the file holds (a data section's end, the end of the
 * input, an interrupted recording's partial last record), payloads that
 * follow a record outside its size are taken along, and COMPRESSED
 * records are inflated through the stream's own zstd stream. A stream
 * only reads its reader (byte order, pipe or not): the files of a
 * directory recording are walked side by side, by other threads too.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "pmprof/bytes.h"
#include "pmprof/records.h"
#include "pmprof/util.h"

/* ---- compressed records ---------------------------------------------- */

static int start_compressed(const struct pm_reader *r, struct pm_stream *st,
			    const struct pm_record *rec, struct pm_error *err)
{
	struct pm_rec_compressed c;
	int ret = pm_rec__compressed(r, rec, &c, err);

	if (ret)
		return ret;
	if (!st->zds) {
		st->zds = ZSTD_createDStream();
		if (!st->zds)
			return pm_error__at(err, ENOMEM, rec->offset,
					    "cannot create a zstd stream");
		ZSTD_initDStream(st->zds);
	}
	st->z_in = c.data;
	st->z_in_size = (size_t)c.data_size;
	st->z_in_pos = 0;
	st->z_more = false;
	st->z_rec_offset = rec->offset;
	return 0;
}

/* Decompress one more chunk of the current payload into zbuf. */
static int inflate_more(struct pm_stream *st, struct pm_error *err)
{
	enum { CHUNK = 256 * 1024 };
	ZSTD_inBuffer in = { st->z_in, st->z_in_size, st->z_in_pos };
	ZSTD_outBuffer out;
	size_t ret;

	if (st->zpos) {
		memmove(st->zbuf, st->zbuf + st->zpos, st->zlen - st->zpos);
		st->zbase += st->zpos;
		st->zlen -= st->zpos;
		st->zpos = 0;
	}
	PM_GROW(st->zbuf, st->zalloc, st->zlen + CHUNK);
	out.dst = st->zbuf + st->zlen;
	out.size = CHUNK;
	out.pos = 0;
	ret = ZSTD_decompressStream(st->zds, &out, &in);
	if (ZSTD_isError(ret))
		return pm_error__at(err, PM_EFORMAT, st->z_rec_offset,
				    "compressed record: %s", ZSTD_getErrorName(ret));
	st->zlen += out.pos;
	st->z_in_pos = in.pos;
	/* A full output buffer may leave decompressed bytes inside zstd even
	 * when the input is used up: they belong before whatever follows
	 * this record in the file (and at its end would be lost). */
	st->z_more = out.pos == CHUNK;
	return 0;
}

/* The next record held in decompressed bytes: 1, 0 if none complete yet. */
static int next_inner(const struct pm_reader *r, struct pm_stream *st,
		      struct pm_record *rec, struct pm_error *err)
{
	for (;;) {
		size_t have = st->zlen - st->zpos;

		if (have >= 8) {
			const uint8_t *p = st->zbuf + st->zpos;
			uint16_t size = pm_reader__u16(r, p + 6);

			if (size < 8)
				return pm_error__at(err, PM_EFORMAT, st->z_rec_offset,
						    "record of size %u at offset %" PRIu64
						    " of the decompressed stream",
						    size, st->zbase + st->zpos);
			if (have >= size) {
				memset(rec, 0, sizeof(*rec));
				rec->offset = st->z_rec_offset;
				rec->zoffset = st->zbase + st->zpos;
				rec->compressed = true;
				rec->part = st->part;
				rec->type = pm_reader__u32(r, p);
				rec->misc = pm_reader__u16(r, p + 4);
				rec->size = size;
				rec->data = p;
				st->zpos += size;
				return 1;
			}
		}
		if (!st->z_in || (st->z_in_pos >= st->z_in_size && !st->z_more))
			return 0;
		if (inflate_more(st, err))
			return -PM_EFORMAT;
	}
}

/* ---- the iterator ---------------------------------------------------- */

/* Payload that follows some records outside header.size. */
static int extra_size(const struct pm_reader *r, const struct pm_record *rec,
		      uint64_t *size, struct pm_error *err)
{
	*size = 0;
	if (rec->type == PM_RECORD_HEADER_TRACING_DATA) {
		if (rec->size < 12)
			return pm_error__at(err, PM_EFORMAT, rec->offset,
					    "TRACING_DATA record too short");
		*size = pm_align8(pm_reader__u32(r, rec->data + 8));
	} else if (rec->type == PM_RECORD_AUXTRACE) {
		if (rec->size < 16)
			return pm_error__at(err, PM_EFORMAT, rec->offset,
					    "AUXTRACE record too short");
		*size = pm_reader__u64(r, rec->data + 8);
	}
	return 0;
}

/* An interrupted file may end with a partial or zeroed record. */
static bool at_interrupted_end(const struct pm_stream *st, uint64_t size,
			       size_t avail)
{
	return st->interrupted && (avail < 8 || size < 8 || size > avail);
}

/*
 * Ask for the start of the next record while this one is processed: the
 * first bytes of each record (its header, a sample's fields and registers,
 * the innermost words of a copied stack) are the ones read, each on a line
 * no cache holds yet, behind a TLB miss that a virtual machine's two-level
 * page walk makes dear. Hints only: nothing faults, nothing is read past
 * the mapping.
 */
static void prefetch_next(const struct pm_source *src, uint64_t off)
{
	enum { AHEAD = 1024 };
	uint64_t end = off + AHEAD < src->map_size ? off + AHEAD : src->map_size;

	for (; off < end; off += 64)
		__builtin_prefetch(src->map + off);
}

static int next_outer(const struct pm_reader *r, struct pm_stream *st,
		      struct pm_record *rec, struct pm_error *err)
{
	const uint8_t *p;
	size_t avail;
	uint64_t extra;
	uint16_t size;

	if (st->pos >= st->data_end)
		return 0;
	if (st->data_end != UINT64_MAX && st->data_end - st->pos < 8) {
		if (st->interrupted)
			return 0;
		return pm_error__at(err, PM_ETRUNC, st->pos,
				    "data section ends inside a record header");
	}
	p = pm_source__get(&st->src, st->pos, 8, &avail, err);
	if (!p) {
		if (avail == 0 && (r->pipe || st->interrupted))
			return 0;	/* a stream ends between records */
		if (st->interrupted)
			return 0;
		return pm_error__at(err, PM_ETRUNC, st->pos,
				    "input ends inside a record header (%zu of 8 bytes)",
				    avail);
	}
	size = pm_reader__u16(r, p + 6);
	if (size < 8 || (st->data_end != UINT64_MAX && size > st->data_end - st->pos)) {
		if (at_interrupted_end(st, size, (size_t)(st->data_end - st->pos)))
			return 0;
		if (size < 8)
			return pm_error__at(err, PM_EFORMAT, st->pos,
					    "record size %u is smaller than its header", size);
		return pm_error__at(err, PM_ETRUNC, st->pos,
				    "record of %u bytes runs past the end of the data section",
				    size);
	}
	p = pm_source__get(&st->src, st->pos, size, &avail, err);
	if (!p) {
		if (st->interrupted)
			return 0;
		return pm_error__at(err, PM_ETRUNC, st->pos,
				    "input ends inside a record (%zu of %u bytes)",
				    avail, size);
	}
	if (!pm_source__is_stream(&st->src))
		prefetch_next(&st->src, st->pos + size);
	memset(rec, 0, sizeof(*rec));
	rec->offset = st->pos;
	rec->part = st->part;
	rec->type = pm_reader__u32(r, p);
	rec->misc = pm_reader__u16(r, p + 4);
	rec->size = size;
	rec->data = p;

	if (extra_size(r, rec, &extra, err))
		return -PM_EFORMAT;
	if (extra) {
		if (st->data_end != UINT64_MAX && extra > st->data_end - st->pos - size)
			return pm_error__at(err, PM_ETRUNC, st->pos,
					    "%s payload of %" PRIu64 " bytes runs past the end of the data",
					    pm_record_type_name(rec->type), extra);
		if (extra > SIZE_MAX - size)
			return pm_error__at(err, PM_EFORMAT, st->pos, "payload too large");
		p = pm_source__get(&st->src, st->pos, size + (size_t)extra, &avail, err);
		if (!p)
			return pm_error__at(err, PM_ETRUNC, st->pos + size,
					    "input ends inside a %s payload",
					    pm_record_type_name(rec->type));
		rec->data = p;
		rec->extra = p + size;
		rec->extra_size = extra;
	}
	st->pos += size + extra;
	return 1;
}

int pm_stream__next(const struct pm_reader *r, struct pm_stream *st,
		    struct pm_record *rec, struct pm_error *err)
{
	int ret = next_inner(r, st, rec, err);

	if (ret)
		return ret;
	ret = next_outer(r, st, rec, err);
	if (ret <= 0) {
		if (ret == 0 && st->zlen > st->zpos)
			return pm_error__at(err, PM_ETRUNC, st->z_rec_offset,
					    "compressed data ends inside a record");
		return ret;
	}
	if (rec->type == PM_RECORD_COMPRESSED ||
	    rec->type == PM_RECORD_COMPRESSED2) {
		ret = start_compressed(r, st, rec, err);
		if (ret)
			return ret;
	}
	return 1;
}

void pm_stream__rewind(struct pm_stream *st)
{
	st->pos = st->first_record;
	st->z_in = NULL;
	st->z_in_size = st->z_in_pos = 0;
	st->z_more = false;
	st->zpos = st->zlen = 0;
	st->zbase = 0;
	if (st->zds)
		ZSTD_initDStream(st->zds);
}

void pm_stream__release(struct pm_stream *st)
{
	pm_source__close(&st->src);
	if (st->zds)
		ZSTD_freeDStream(st->zds);
	free(st->zbuf);
	st->zds = NULL;
	st->zbuf = NULL;
	st->zalloc = st->zlen = st->zpos = 0;
}
