// SPDX-License-Identifier: GPL-2.0
/*
 * The writer's frame: output sink and buffering, events, the layout of the
 * file (header, id arrays, attrs, data, features) and of the pipe stream.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmprof/bytes.h"
#include "pmprof/outfile.h"
#include "pmprof/util.h"
#include "writer-int.h"

/* Flush the stream buffer to the fd when it holds this much. */
#define OUT_CHUNK (256 * 1024)

/* ---- perf strings ------------------------------------------------ */

void pm_writer__put_string(struct pm_bytebuf *b, const char *s, bool swap)
{
	size_t n = strlen(s) + 1;
	size_t padded = (n + 63) & ~(size_t)63;

	pm_bytebuf__u32(b, (uint32_t)padded, swap);
	memcpy(pm_bytebuf__grow(b, padded), s, n - 1);
}

/* ---- output ------------------------------------------------------- */

static int write_all(struct pm_writer *w, const void *p, size_t len,
		     struct pm_error *err)
{
	int ret = pm_write_all(w->fd, p, len, w->name, err);

	if (ret)
		w->failed = true;
	return ret;
}

static int flush(struct pm_writer *w, struct pm_error *err)
{
	int ret;

	if (w->failed)
		return pm_error__fmt(err, EIO, "%s: an earlier write failed",
				     w->name);
	if (w->sink != PM_SINK_FD || !w->out.len)
		return 0;
	ret = write_all(w, w->out.data, w->out.len, err);
	if (ret)
		return ret;
	w->flushed += w->out.len;
	pm_bytebuf__reset(&w->out);
	return 0;
}

int pm_writer__emit(struct pm_writer *w, const void *p, size_t len,
		    struct pm_error *err)
{
	if (w->failed)
		return pm_error__fmt(err, EIO, "%s: an earlier write failed",
				     w->name);
	pm_bytebuf__add(&w->out, p, len);
	if (w->sink == PM_SINK_FD && w->out.len >= OUT_CHUNK)
		return flush(w, err);
	return 0;
}

uint64_t pm_writer__offset(const struct pm_writer *w)
{
	return w->flushed + w->out.len;
}

int pm_writer__flush(struct pm_writer *w, struct pm_error *err)
{
	return flush(w, err);
}

bool pm_writer__failed(const struct pm_writer *w)
{
	return w->failed;
}

bool pm_writer__big_endian(const struct pm_writer *w)
{
	return w->big_endian;
}

bool pm_writer__is_pipe(const struct pm_writer *w)
{
	return w->pipe;
}

/* ---- open / close -------------------------------------------------- */

static const struct pm_writer_opts default_opts;

static int writer_new(struct pm_writer **out, const char *name,
		      const struct pm_writer_opts *opts, struct pm_error *err)
{
	struct pm_writer *w;
	struct pm_writer_opts o;

	PM_OPTS_COPY(&o, opts, default_opts);
	if (o.attr_size && (o.attr_size < PM_ATTR_SIZE_VER0 ||
			    o.attr_size % 8 || o.attr_size > 4096))
		return pm_error__fmt(err, PM_EUSAGE,
				     "attr size %u: must be a multiple of 8 from 64",
				     o.attr_size);
	w = pm_zalloc(sizeof(*w));
	w->name = pm_strdup(name);
	w->fd = -1;
	w->pipe = o.pipe;
	switch (o.order) {
	case PM_ORDER_LITTLE: w->big_endian = false; break;
	case PM_ORDER_BIG:    w->big_endian = true; break;
	default:              w->big_endian = PM_HOST_BIG_ENDIAN; break;
	}
	w->swap = w->big_endian != PM_HOST_BIG_ENDIAN;
	w->attr_size_opt = o.attr_size;
	w->want_hostname = !o.pipe;
	*out = w;
	return 0;
}

int pm_writer__open_fd(struct pm_writer **out, int fd, const char *name,
		       const struct pm_writer_opts *opts, struct pm_error *err)
{
	struct pm_writer *w;
	int ret;

	*out = NULL;
	ret = writer_new(&w, name ? name : "(fd)", opts, err);
	if (ret)
		return ret;
	w->sink = PM_SINK_FD;
	w->fd = fd;
	/* File mode rewrites the header at close: the fd must seek. */
	if (!w->pipe && lseek(fd, 0, SEEK_CUR) < 0) {
		ret = pm_error__fmt(err, PM_EUSAGE,
				    "%s: not seekable: a file needs a seekable output (write a pipe stream instead)",
				    w->name);
		pm_writer__delete(w);
		return ret;
	}
	*out = w;
	return 0;
}

int pm_writer__open(struct pm_writer **out, const char *path,
		    const struct pm_writer_opts *opts, struct pm_error *err)
{
	struct pm_writer_opts o;
	struct pm_outfile *f;
	int ret;

	*out = NULL;
	PM_OPTS_COPY(&o, opts, default_opts);
	ret = pm_outfile__open(&f, path, o.file, err);
	if (ret)
		return ret;
	ret = pm_writer__open_fd(out, pm_outfile__fd(f), pm_outfile__name(f),
				 opts, err);
	if (ret) {
		pm_outfile__abort(f);
		return ret;
	}
	(*out)->file = f;
	return 0;
}

int pm_writer__open_mem(struct pm_writer **out,
			const struct pm_writer_opts *opts, struct pm_error *err)
{
	int ret;

	*out = NULL;
	ret = writer_new(out, "(memory)", opts, err);
	if (!ret)
		(*out)->sink = PM_SINK_MEM;
	return ret;
}

void pm_writer__delete(struct pm_writer *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->nr_events; i++) {
		free(w->events[i].name);
		free(w->events[i].ids);
		free(w->events[i].group_name);
	}
	free(w->events);
	for (i = 0; i < PM_FEAT_BITS; i++)
		pm_bytebuf__release(&w->feat[i].payload);
	pm_bytebuf__release(&w->out);
	pm_bytebuf__release(&w->rec);
	pm_bytebuf__release(&w->build_ids);
	pm_writer__compress_free(w);
	pm_outfile__abort(w->file);	/* no half-written file */
	free(w->name);
	free(w);
}

/* ---- events -------------------------------------------------------- */

int pm_writer__add_event(struct pm_writer *w, const struct pm_event *ev,
			 struct pm_error *err)
{
	struct pm_event *e;

	if (w->begun)
		return pm_error__fmt(err, PM_EUSAGE,
				     "%s: events must be added before the first record",
				     w->name);
	PM_GROW(w->events, w->alloc_events, w->nr_events + 1);
	e = &w->events[w->nr_events];
	memset(e, 0, sizeof(*e));
	e->idx = (int)w->nr_events;
	e->attr = ev->attr;
	e->name = ev->name ? pm_strdup(ev->name) : NULL;
	e->nr_ids = ev->nr_ids;
	if (ev->nr_ids) {
		e->ids = pm_calloc(ev->nr_ids, sizeof(*e->ids));
		memcpy(e->ids, ev->ids, ev->nr_ids * sizeof(*e->ids));
	}
	e->leader_idx = ev->nr_members > 1 || ev->leader_idx != ev->idx ?
			ev->leader_idx : e->idx;
	e->nr_members = ev->nr_members ? ev->nr_members : 1;
	e->group_name = ev->group_name ? pm_strdup(ev->group_name) : NULL;
	return (int)w->nr_events++;
}

int pm_writer__set_event_name(struct pm_writer *w, size_t idx,
			      const char *name, struct pm_error *err)
{
	if (idx >= w->nr_events)
		return pm_error__fmt(err, PM_EUSAGE, "no event %zu", idx);
	if (w->pipe && w->begun)
		return pm_error__fmt(err, PM_EUSAGE,
				     "%s: pipe mode names events before the first record",
				     w->name);
	free(w->events[idx].name);
	w->events[idx].name = name ? pm_strdup(name) : NULL;
	return 0;
}

const struct pm_event *pm_writer__event(const struct pm_writer *w, size_t idx)
{
	return idx < w->nr_events ? &w->events[idx] : NULL;
}

/* ---- layout --------------------------------------------------------- */

/*
 * The on-disk attr size: the option's, else the largest an event says,
 * up to the largest pmprof encodes (bytes past it would all be zeros: an
 * event's size field, which may come from a file, never sizes the output
 * beyond that).
 */
static uint32_t choose_attr_size(const struct pm_writer *w)
{
	uint32_t size = w->attr_size_opt;
	size_t i;

	if (size)
		return size;
	for (i = 0; i < w->nr_events; i++) {
		uint32_t s = PM_MIN(w->events[i].attr.size, PM_ATTR_SIZE_KNOWN);

		if (s > size)
			size = s;
	}
	if (!size)
		size = PM_ATTR_SIZE_VER7;
	for (i = 0; i < w->nr_events; i++) {
		const struct pm_attr *a = &w->events[i].attr;

		if ((a->hf_sample_period || a->hf_sample_rand ||
		     a->hf_sample_reserved) && size < PM_ATTR_SIZE_VER9)
			size = PM_ATTR_SIZE_VER9;
	}
	if (size < PM_ATTR_SIZE_VER0)
		size = PM_ATTR_SIZE_VER0;
	return (uint32_t)pm_align8(size);
}

void pm_writer__rec_start(struct pm_writer *w, uint32_t type, uint16_t misc)
{
	pm_bytebuf__reset(&w->rec);
	pm_bytebuf__u32(&w->rec, type, w->swap);
	pm_bytebuf__u16(&w->rec, misc, w->swap);
	pm_bytebuf__u16(&w->rec, 0, w->swap);
}

int pm_writer__emit_rec(struct pm_writer *w, struct pm_error *err)
{
	if (w->rec.len > UINT16_MAX)
		return pm_error__fmt(err, PM_EUNSUP,
				     "%s: a record of %zu bytes does not fit header.size (at most 65535)",
				     w->name, w->rec.len);
	pm_store16(w->rec.data + 6, (uint16_t)w->rec.len, w->swap);
	/* pipe header records go out before compression can be on */
	return pm_writer__emit_record(w, w->rec.data, w->rec.len, err);
}

/*
 * perf cannot take BUILD_ID as a pipe feature record; a pipe carries one
 * HEADER_BUILD_ID record per entry instead (the entry is laid out as a
 * record already: only its type changes).
 */
static int pipe_build_ids(struct pm_writer *w, const struct pm_bytebuf *b,
			  struct pm_error *err)
{
	size_t pos = 0;
	int ret = 0;

	while (!ret && b->len - pos >= 8) {
		uint16_t size = pm_load16(b->data + pos + 6, w->swap);

		if (size < 8 || size > b->len - pos)
			return pm_error__fmt(err, PM_EFORMAT,
					     "BUILD_ID entry of %u bytes does not fit its feature",
					     size);
		pm_bytebuf__reset(&w->rec);
		pm_bytebuf__add(&w->rec, b->data + pos, size);
		pm_store32(w->rec.data, PM_RECORD_HEADER_BUILD_ID, w->swap);
		ret = pm_writer__emit(w, w->rec.data, size, err);
		pos += size;
	}
	return ret;
}

static int begin_pipe(struct pm_writer *w, struct pm_error *err)
{
	uint8_t hdr[16];
	size_t i, f;
	int ret;

	pm_store64(hdr, PM_PERFILE_MAGIC, w->swap);
	pm_store64(hdr + 8, PM_PIPE_HEADER_SIZE, w->swap);
	ret = pm_writer__emit(w, hdr, sizeof(hdr), err);
	for (i = 0; !ret && i < w->nr_events; i++) {
		const struct pm_event *e = &w->events[i];
		uint32_t k;

		pm_writer__rec_start(w, PM_RECORD_HEADER_ATTR, 0);
		pm_attr__encode(&e->attr, pm_bytebuf__grow(&w->rec, w->attr_size),
				w->attr_size, w->big_endian);
		for (k = 0; k < e->nr_ids; k++)
			pm_bytebuf__u64(&w->rec, e->ids[k], w->swap);
		ret = pm_writer__emit_rec(w, err);
	}
	if (ret)
		return ret;
	ret = pm_writer__encode_features(w, err);
	for (f = 1; !ret && f < PM_FEAT_BITS; f++) {
		struct pm_writer_feature *ft = &w->feat[f];

		if (!ft->set)
			continue;
		if (f == PM_FEAT_TRACING_DATA) {
			/* Its own record: {header, u32 size} with the blob
			 * (padded to 8) outside header.size. */
			size_t padded = pm_align8(ft->payload.len);

			pm_writer__rec_start(w, PM_RECORD_HEADER_TRACING_DATA, 0);
			pm_bytebuf__u32(&w->rec, (uint32_t)padded, w->swap);
			ret = pm_writer__emit_rec(w, err);
			if (!ret)
				ret = pm_writer__emit(w, ft->payload.data,
						      ft->payload.len, err);
			if (!ret && padded > ft->payload.len) {
				static const uint8_t zeros[8];

				ret = pm_writer__emit(w, zeros,
						      padded - ft->payload.len, err);
			}
			continue;
		}
		if (f == PM_FEAT_BUILD_ID) {
			ret = pipe_build_ids(w, &ft->payload, err);
			continue;
		}
		pm_writer__rec_start(w, PM_RECORD_HEADER_FEATURE, 0);
		pm_bytebuf__u64(&w->rec, f, w->swap);
		pm_bytebuf__add(&w->rec, ft->payload.data, ft->payload.len);
		ret = pm_writer__emit_rec(w, err);
	}
	if (ret)
		return ret;
	/* The closing feature record: feat_id = the last feature number. */
	pm_writer__rec_start(w, PM_RECORD_HEADER_FEATURE, 0);
	pm_bytebuf__u64(&w->rec, PM_FEAT_LAST_KNOWN, w->swap);
	return pm_writer__emit_rec(w, err);
}

static void store_header(const struct pm_writer *w, uint8_t *h,
			 uint64_t data_size, const uint64_t bitmap[4])
{
	bool s = w->swap;
	int i;

	memset(h, 0, PM_FILE_HEADER_SIZE);
	pm_store64(h, PM_PERFILE_MAGIC, s);
	pm_store64(h + 8, PM_FILE_HEADER_SIZE, s);
	pm_store64(h + 16, w->attr_size + 16, s);
	pm_store64(h + 24, w->attrs_offset, s);
	pm_store64(h + 32, (uint64_t)w->nr_events * (w->attr_size + 16), s);
	pm_store64(h + 40, w->data_offset, s);
	pm_store64(h + 48, data_size, s);
	for (i = 0; i < 4; i++)
		pm_store64(h + 72 + 8 * i, bitmap[i], s);
}

/*
 * The header goes out first as a valid one with data size 0, perf's
 * "interrupted: the records run to the end of the file", and without
 * features: a recording killed before close reads up to its last
 * complete record. Close rewrites it with the sizes and features.
 */
static int begin_file(struct pm_writer *w, struct pm_error *err)
{
	static const uint64_t no_features[4];
	uint8_t hdr[PM_FILE_HEADER_SIZE];
	uint64_t ids_offset = PM_FILE_HEADER_SIZE;
	struct pm_bytebuf b = { 0 };
	size_t i;
	uint32_t k;
	int ret;

	for (i = 0; i < w->nr_events; i++)
		for (k = 0; k < w->events[i].nr_ids; k++)
			pm_bytebuf__u64(&b, w->events[i].ids[k], w->swap);
	w->attrs_offset = ids_offset + b.len;
	for (i = 0; i < w->nr_events; i++) {
		const struct pm_event *e = &w->events[i];

		pm_attr__encode(&e->attr, pm_bytebuf__grow(&b, w->attr_size),
				w->attr_size, w->big_endian);
		pm_bytebuf__u64(&b, e->nr_ids ? ids_offset : 0, w->swap);
		pm_bytebuf__u64(&b, (uint64_t)e->nr_ids * 8, w->swap);
		ids_offset += (uint64_t)e->nr_ids * 8;
	}
	w->data_offset = PM_FILE_HEADER_SIZE + b.len;
	store_header(w, hdr, 0, no_features);
	ret = pm_writer__emit(w, hdr, sizeof(hdr), err);
	if (!ret)
		ret = pm_writer__emit(w, b.data, b.len, err);
	pm_bytebuf__release(&b);
	return ret;
}

int pm_writer__begin(struct pm_writer *w, struct pm_error *err)
{
	if (w->begun)
		return w->failed ? pm_error__fmt(err, EIO, "%s: an earlier write failed",
						 w->name) : 0;
	w->begun = true;
	w->attr_size = choose_attr_size(w);
	return w->pipe ? begin_pipe(w, err) : begin_file(w, err);
}

static int finish_file(struct pm_writer *w, struct pm_error *err)
{
	uint64_t data_size = pm_writer__offset(w) - w->data_offset;
	uint64_t bitmap[4] = { 0 }, off;
	uint8_t hdr[PM_FILE_HEADER_SIZE];
	struct pm_bytebuf idx = { 0 };
	size_t f, nr = 0;
	int ret;

	ret = pm_writer__encode_features(w, err);
	if (ret)
		return ret;
	for (f = 1; f < PM_FEAT_BITS; f++)
		if (w->feat[f].set) {
			bitmap[f / 64] |= 1ULL << (f % 64);
			nr++;
		}
	/* Index at the end of data, then the payloads in bit order. */
	off = pm_writer__offset(w) + nr * 16;
	for (f = 1; f < PM_FEAT_BITS; f++) {
		if (!w->feat[f].set)
			continue;
		pm_bytebuf__u64(&idx, off, w->swap);
		pm_bytebuf__u64(&idx, w->feat[f].payload.len, w->swap);
		off += w->feat[f].payload.len;
	}
	ret = pm_writer__emit(w, idx.data, idx.len, err);
	pm_bytebuf__release(&idx);
	for (f = 1; !ret && f < PM_FEAT_BITS; f++)
		if (w->feat[f].set)
			ret = pm_writer__emit(w, w->feat[f].payload.data,
					      w->feat[f].payload.len, err);
	if (!ret)
		ret = flush(w, err);
	if (ret)
		return ret;
	store_header(w, hdr, data_size, bitmap);
	if (w->sink == PM_SINK_MEM) {
		memcpy(w->out.data, hdr, sizeof(hdr));
		return 0;
	}
	if (pwrite(w->fd, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr))
		return pm_error__fmt(err, errno ? errno : EIO,
				     "%s: writing the header: %s", w->name,
				     strerror(errno ? errno : EIO));
	return 0;
}

static int finish(struct pm_writer *w, struct pm_error *err)
{
	int ret = pm_writer__begin(w, err);

	if (!ret)
		ret = pm_writer__compress_end(w, err);
	if (ret)
		return ret;
	if (!w->pipe)
		return finish_file(w, err);
	return flush(w, err);
}

int pm_writer__close(struct pm_writer *w, struct pm_error *err)
{
	int ret;

	if (w->sink == PM_SINK_MEM) {
		pm_writer__delete(w);
		return pm_error__fmt(err, PM_EUSAGE,
				     "a memory writer ends with pm_writer__close_mem");
	}
	ret = finish(w, err);
	if (!ret && w->file)
		ret = pm_outfile__commit(w->file, err);
	else
		pm_outfile__abort(w->file);
	w->file = NULL;
	pm_writer__delete(w);
	return ret;
}

int pm_writer__close_mem(struct pm_writer *w, void **buf, size_t *len,
			 struct pm_error *err)
{
	int ret;

	*buf = NULL;
	*len = 0;
	if (w->sink != PM_SINK_MEM) {
		ret = pm_writer__close(w, err);
		return ret ? ret : pm_error__fmt(err, PM_EUSAGE,
						 "not a memory writer");
	}
	ret = finish(w, err);
	if (!ret) {
		*buf = w->out.data;
		*len = w->out.len;
		memset(&w->out, 0, sizeof(w->out));
	}
	pm_writer__delete(w);
	return ret;
}
