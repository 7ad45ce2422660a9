// SPDX-License-Identifier: GPL-2.0
/*
 * Opening a perf.data (file or pipe stream), its header and attrs, and
 * the record iterator. Nothing here trusts a size or an offset from the
 * input: every one is checked against what the input really holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "pmprof/bytes.h"
#include "pmprof/records.h"
#include "pmprof/util.h"

#define PIPE_MAGIC_OLD 0x454c494652455050ULL	/* "PERFFILE": version 1 */

uint16_t pm_reader__u16(const struct pm_reader *r, const void *p)
{
	return pm_load16(p, r->swap);
}

uint32_t pm_reader__u32(const struct pm_reader *r, const void *p)
{
	return pm_load32(p, r->swap);
}

uint64_t pm_reader__u64(const struct pm_reader *r, const void *p)
{
	return pm_load64(p, r->swap);
}

const char *pm_reader__name(const struct pm_reader *r) { return r->name; }
bool pm_reader__is_pipe(const struct pm_reader *r) { return r->pipe; }
bool pm_reader__big_endian(const struct pm_reader *r) { return r->big_endian; }
bool pm_reader__interrupted(const struct pm_reader *r) { return r->interrupted; }

const struct pm_file_header *pm_reader__header(const struct pm_reader *r)
{
	return &r->hdr;
}

const struct pm_features *pm_reader__features(const struct pm_reader *r)
{
	return &r->feat;
}

size_t pm_reader__nr_events(const struct pm_reader *r)
{
	return r->nr_events;
}

const struct pm_event *pm_reader__event(const struct pm_reader *r, size_t idx)
{
	return idx < r->nr_events ? r->events[idx] : NULL;
}

const struct pm_event *pm_reader__event_by_id(const struct pm_reader *r,
					      uint64_t id)
{
	const struct pm_id_entry *e = pm_idmap__find(&r->ids, id);

	return e ? r->events[e->idx] : NULL;
}

int pm_reader__id_info(const struct pm_reader *r, uint64_t id, int32_t *cpu,
		       int32_t *tid)
{
	const struct pm_id_entry *e = pm_idmap__find(&r->ids, id);

	if (!e || e->tid == -2)
		return -ENOENT;
	*cpu = e->cpu;
	*tid = e->tid;
	return 0;
}

bool pm_reader__record_stable(const struct pm_reader *r,
			      const struct pm_record *rec)
{
	return !pm_source__is_stream(&r->src) && !rec->compressed;
}

uint64_t pm_reader__file_size(const struct pm_reader *r)
{
	return pm_source__is_stream(&r->src) ? 0 : r->src.map_size;
}

struct pm_event *pm_reader__add_event(struct pm_reader *r,
				      const struct pm_attr *attr)
{
	struct pm_event *ev = pm_zalloc(sizeof(*ev));

	PM_GROW(r->events, r->alloc_events, r->nr_events + 1);
	ev->idx = (int)r->nr_events;
	ev->attr = *attr;
	ev->leader_idx = ev->idx;
	ev->nr_members = 1;
	r->events[r->nr_events++] = ev;
	pm_reader__update_id_pos(r);
	return ev;
}

int pm_reader__add_id(struct pm_reader *r, struct pm_event *ev, uint64_t id)
{
	struct pm_id_entry *e = pm_idmap__insert(&r->ids, id);

	e->idx = ev->idx;
	ev->ids = pm_reallocarray(ev->ids, ev->nr_ids + 1, sizeof(*ev->ids));
	ev->ids[ev->nr_ids++] = id;
	return 0;
}

/*
 * Where a record's id sits. All events of a recording share the layout
 * (perf sets ID or IDENTIFIER on all of them when there are several), so
 * the first event's sample_type decides.
 */
void pm_reader__update_id_pos(struct pm_reader *r)
{
	uint64_t st;

	if (!r->nr_events) {
		r->id_pos = r->is_pos = -1;
		return;
	}
	st = r->events[0]->attr.sample_type;
	if (st & PM_SAMPLE_IDENTIFIER) {
		r->id_pos = 0;
		r->is_pos = 1;
	} else if (st & PM_SAMPLE_ID) {
		r->id_pos = !!(st & PM_SAMPLE_IP) + !!(st & PM_SAMPLE_TID) +
			    !!(st & PM_SAMPLE_TIME) + !!(st & PM_SAMPLE_ADDR);
		r->is_pos = 1 + !!(st & PM_SAMPLE_CPU) +
			    !!(st & PM_SAMPLE_STREAM_ID);
	} else {
		r->id_pos = r->is_pos = -1;
	}
}

/* ---- opening ---------------------------------------------------------- */

static int read_magic(struct pm_reader *r, const uint8_t *p, struct pm_error *err)
{
	uint64_t magic;

	memcpy(&magic, p, 8);
	if (magic == PM_PERFILE_MAGIC) {
		r->swap = false;
	} else if (magic == pm_bswap64(PM_PERFILE_MAGIC)) {
		r->swap = true;
	} else if (magic == PIPE_MAGIC_OLD || magic == pm_bswap64(PIPE_MAGIC_OLD)) {
		return pm_error__at(err, PM_EUNSUP, 0,
				    "perf.data version 1 (\"PERFFILE\") is not supported");
	} else {
		return pm_error__at(err, PM_EFORMAT, 0,
				    "not a perf.data file (bad magic)");
	}
	r->big_endian = r->swap != PM_HOST_BIG_ENDIAN;
	return 0;
}

static void read_section(const struct pm_reader *r, const uint8_t *p,
			 struct pm_section *s)
{
	s->offset = pm_reader__u64(r, p);
	s->size = pm_reader__u64(r, p + 8);
}

/* Is [off, off + size) inside the file? */
static int check_section(const struct pm_reader *r, const char *what,
			 const struct pm_section *s, uint64_t where,
			 struct pm_error *err)
{
	uint64_t fsize = r->src.map_size;

	if (s->offset > fsize || s->size > fsize - s->offset)
		return pm_error__at(err, PM_ETRUNC, where,
				    "%s section [%" PRIu64 ", +%" PRIu64
				    ") lies beyond the end of the file (%" PRIu64 " bytes)",
				    what, s->offset, s->size, fsize);
	return 0;
}

/*
 * The adds_features bitmap of a file in the other byte order. perf swaps
 * it as u64s, and when that leaves HOSTNAME unset (a writer that stored
 * it as u32s) tries u32 swaps, as perf does.
 */
static void read_feature_bitmap(struct pm_reader *r, const uint8_t *p)
{
	uint64_t as64[4], as32[4];
	int i;

	for (i = 0; i < 4; i++) {
		as64[i] = pm_load64(p + 8 * i, r->swap);
		as32[i] = (uint64_t)pm_load32(p + 8 * i, r->swap) |
			  (uint64_t)pm_load32(p + 8 * i + 4, r->swap) << 32;
		if (PM_HOST_BIG_ENDIAN)
			as32[i] = (as32[i] << 32) | (as32[i] >> 32);
	}
	if (r->swap && !((as64[0] >> PM_FEAT_HOSTNAME) & 1) &&
	    ((as32[0] >> PM_FEAT_HOSTNAME) & 1))
		memcpy(r->hdr.features, as32, sizeof(as32));
	else
		memcpy(r->hdr.features, as64, sizeof(as64));
}

static int read_attrs(struct pm_reader *r, struct pm_error *err)
{
	const struct pm_section *as = &r->hdr.attrs;
	uint64_t n, i;

	if (!as->size)
		return 0;
	if (r->hdr.attr_size < 16 + 8)
		return pm_error__at(err, PM_EFORMAT, 16,
				    "attr_size %" PRIu64 " is too small", r->hdr.attr_size);
	if (check_section(r, "attrs", as, 24, err))
		return -PM_ETRUNC;
	n = as->size / r->hdr.attr_size;
	if (as->size % r->hdr.attr_size)
		return pm_error__at(err, PM_EFORMAT, 32,
				    "attrs section size %" PRIu64
				    " is not a multiple of attr_size %" PRIu64,
				    as->size, r->hdr.attr_size);
	for (i = 0; i < n; i++) {
		uint64_t off = as->offset + i * r->hdr.attr_size;
		const uint8_t *p = r->src.map + off;
		size_t attr_len = (size_t)r->hdr.attr_size - 16;
		struct pm_section ids;
		struct pm_attr attr;
		struct pm_event *ev;
		uint64_t j;
		int ret;

		ret = pm_attr__decode(&attr, p, attr_len, r->big_endian, err);
		if (ret) {
			err->has_offset = true;
			err->offset = off;
			return ret;
		}
		read_section(r, p + attr_len, &ids);
		if (check_section(r, "event ids", &ids, off + attr_len, err))
			return -PM_ETRUNC;
		ev = pm_reader__add_event(r, &attr);
		for (j = 0; j < ids.size / 8; j++)
			pm_reader__add_id(r, ev,
					  pm_reader__u64(r, r->src.map + ids.offset + 8 * j));
	}
	return 0;
}

static int read_feature_sections(struct pm_reader *r, struct pm_error *err)
{
	uint64_t idx_off = r->hdr.data.offset + r->hdr.data.size;
	unsigned int feat;
	int ret;

	for (feat = 0; feat < PM_FEAT_BITS; feat++) {
		struct pm_section s;
		const uint8_t *p;

		if (!((r->hdr.features[feat / 64] >> (feat % 64)) & 1))
			continue;
		p = pm_source__get(&r->src, idx_off, 16, NULL, err);
		if (!p)
			return pm_error__at(err, PM_ETRUNC, idx_off,
					    "feature index entry for %s is cut off",
					    pm_feature_name(feat) ? pm_feature_name(feat) : "a feature");
		read_section(r, p, &s);
		if (check_section(r, pm_feature_name(feat) ? pm_feature_name(feat)
							   : "feature", &s, idx_off, err))
			return -PM_ETRUNC;
		r->feat.section[feat] = s;
		r->feat.present[feat / 64] |= 1ULL << (feat % 64);
		ret = pm_features__parse(r, feat, r->src.map + s.offset,
					 (size_t)s.size, s.offset, err);
		if (ret)
			return ret;
		idx_off += 16;
	}
	return 0;
}

static int read_file_header(struct pm_reader *r, struct pm_error *err)
{
	const uint8_t *p;
	size_t avail;

	p = pm_source__get(&r->src, 0, 16, &avail, err);
	if (!p) {
		if (!avail)
			return pm_error__at(err, PM_ETRUNC, 0, "file is empty");
		return pm_error__at(err, PM_ETRUNC, avail,
				    "file ends inside the header");
	}
	if (read_magic(r, p, err))
		return -PM_EFORMAT;
	r->hdr.size = pm_reader__u64(r, p + 8);
	if (r->hdr.size == PM_PIPE_HEADER_SIZE) {
		r->pipe = true;
		r->first_record = r->pos = PM_PIPE_HEADER_SIZE;
		r->data_end = UINT64_MAX;
		return 0;
	}
	if (pm_source__is_stream(&r->src))
		return pm_error__at(err, PM_EUNSUP, 8,
				    "a file-mode perf.data (header size %" PRIu64
				    ") cannot be read from a pipe; give its path",
				    r->hdr.size);
	if (r->hdr.size < 72 || r->hdr.size > r->src.map_size)
		return pm_error__at(err, r->hdr.size > r->src.map_size ? PM_ETRUNC : PM_EFORMAT, 8,
				    "header size %" PRIu64 " is invalid (file has %zu bytes)",
				    r->hdr.size, r->src.map_size);
	p = r->src.map;
	r->hdr.attr_size = pm_reader__u64(r, p + 16);
	read_section(r, p + 24, &r->hdr.attrs);
	read_section(r, p + 40, &r->hdr.data);
	read_section(r, p + 56, &r->hdr.event_types);
	if (r->hdr.size >= PM_FILE_HEADER_SIZE)
		read_feature_bitmap(r, p + 72);

	if (r->hdr.data.offset > r->src.map_size)
		return pm_error__at(err, PM_ETRUNC, 40,
				    "data section starts at %" PRIu64
				    ", beyond the end of the file (%zu bytes)",
				    r->hdr.data.offset, r->src.map_size);
	r->first_record = r->pos = r->hdr.data.offset;
	if (r->hdr.data.size == 0) {
		/* Interrupted: records go on to the end of the file. */
		r->interrupted = true;
		r->data_end = r->src.map_size;
	} else {
		if (check_section(r, "data", &r->hdr.data, 40, err))
			return -PM_ETRUNC;
		r->data_end = r->hdr.data.offset + r->hdr.data.size;
	}
	if (read_attrs(r, err))
		return -PM_EFORMAT;
	if (!r->interrupted && read_feature_sections(r, err))
		return -PM_EFORMAT;
	pm_reader__apply_features(r);
	return 0;
}

static struct pm_reader *reader_new(const char *name)
{
	struct pm_reader *r = pm_zalloc(sizeof(*r));

	r->name = pm_strdup(name ? name : "perf.data");
	r->src.fd = -1;
	r->id_pos = r->is_pos = -1;
	pm_idmap__init(&r->ids);
	return r;
}

static int finish_open(struct pm_reader **out, struct pm_reader *r,
		       struct pm_error *err)
{
	int ret = read_file_header(r, err);

	if (ret) {
		pm_reader__delete(r);
		*out = NULL;
		return ret;
	}
	*out = r;
	return 0;
}

int pm_reader__open_mem(struct pm_reader **out, const void *buf, size_t len,
			const char *name, struct pm_error *err)
{
	struct pm_reader *r = reader_new(name);

	r->src.map = buf;
	r->src.map_size = len;
	return finish_open(out, r, err);
}

int pm_reader__open(struct pm_reader **out, const char *path,
		    const struct pm_reader_opts *opts, struct pm_error *err)
{
	struct pm_reader *r;
	struct stat st;
	int fd;

	(void)opts;
	*out = NULL;
	if (!strcmp(path, "-")) {
		r = reader_new("(standard input)");
		r->src.fd = STDIN_FILENO;
		return finish_open(out, r, err);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pm_error__fmt(err, errno, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st)) {
		int e = errno;

		close(fd);
		return pm_error__fmt(err, e, "cannot stat: %s", strerror(e));
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return pm_error__fmt(err, EISDIR,
				     "is a directory (perf's directory format is not supported)");
	}
	r = reader_new(path);
	if (!S_ISREG(st.st_mode)) {
		r->src.fd = fd;		/* a FIFO or a character device */
		r->src.close_fd = true;
		return finish_open(out, r, err);
	}
	if (st.st_size > 0) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (m == MAP_FAILED) {
			int e = errno;

			close(fd);
			pm_reader__delete(r);
			return pm_error__fmt(err, e, "cannot map: %s", strerror(e));
		}
		madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
		r->src.map = m;
		r->src.map_size = (size_t)st.st_size;
		r->src.unmap = true;
	} else {
		static const uint8_t empty[1];

		r->src.map = empty;
		r->src.map_size = 0;
	}
	close(fd);
	return finish_open(out, r, err);
}

void pm_reader__delete(struct pm_reader *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_events; i++) {
		free(r->events[i]->name);
		free(r->events[i]->group_name);
		free(r->events[i]->ids);
		free(r->events[i]);
	}
	free(r->events);
	pm_idmap__release(&r->ids);
	pm_features__release(&r->feat);
	pm_source__close(&r->src);
	if (r->zds)
		ZSTD_freeDStream(r->zds);
	free(r->zbuf);
	free(r->rv);
	free(r->callchain);
	free(r->branches);
	free(r->regs);
	free(r->str);
	free(r->name);
	free(r);
}

int pm_reader__rewind(struct pm_reader *r, struct pm_error *err)
{
	if (pm_source__is_stream(&r->src))
		return pm_error__fmt(err, ESPIPE, "cannot rewind a pipe stream");
	r->pos = r->first_record;
	r->z_in = NULL;
	r->z_in_size = r->z_in_pos = 0;
	r->zpos = r->zlen = 0;
	r->zbase = 0;
	if (r->zds)
		ZSTD_initDStream(r->zds);
	return 0;
}

/* ---- the records perf's pipe mode uses to carry the header ----------- */

static int apply_header_attr(struct pm_reader *r, const struct pm_record *rec,
			     struct pm_error *err)
{
	const uint8_t *body = rec->data + 8;
	size_t len = pm_record__body_len(rec);
	struct pm_attr attr;
	uint32_t asize;
	struct pm_event *ev;
	size_t i, nids;

	if (len < 8)
		return pm_error__at(err, PM_EFORMAT, rec->offset,
				    "HEADER_ATTR record too short (%u bytes)", rec->size);
	asize = pm_reader__u32(r, body + 4);
	if (!asize)
		asize = PM_ATTR_SIZE_VER0;
	if (asize > len)
		return pm_error__at(err, PM_EFORMAT, rec->offset,
				    "HEADER_ATTR record (%u bytes) is smaller than its attr (%u bytes)",
				    rec->size, asize);
	if (pm_attr__decode(&attr, body, asize, r->big_endian, err))
		return pm_error__at(err, PM_EFORMAT, rec->offset, "%s", err->msg);
	ev = pm_reader__add_event(r, &attr);
	nids = (len - asize) / 8;
	for (i = 0; i < nids; i++)
		pm_reader__add_id(r, ev, pm_reader__u64(r, body + asize + 8 * i));
	pm_reader__apply_features(r);
	return 0;
}

static int apply_header_feature(struct pm_reader *r, const struct pm_record *rec,
				struct pm_error *err)
{
	size_t len = pm_record__body_len(rec);
	uint64_t feat;
	int ret;

	if (len < 8)
		return pm_error__at(err, PM_EFORMAT, rec->offset,
				    "HEADER_FEATURE record too short (%u bytes)", rec->size);
	feat = pm_reader__u64(r, rec->data + 8);
	/* The list ends with an empty record naming the writer's last
	 * feature number; numbers past the bitmap cannot be kept. */
	if (feat >= PM_FEAT_BITS || (feat >= PM_FEAT_LAST_KNOWN && len == 8))
		return 0;
	r->feat.present[feat / 64] |= 1ULL << (feat % 64);
	r->feat.section[feat].offset = rec->offset + 16;
	r->feat.section[feat].size = len - 8;
	ret = pm_features__parse(r, (unsigned int)feat, rec->data + 16, len - 8,
				 rec->offset + 16, err);
	if (ret)
		return ret;
	pm_reader__apply_features(r);
	return 0;
}

static int apply_event_update(struct pm_reader *r, const struct pm_record *rec,
			      struct pm_error *err)
{
	size_t len = pm_record__body_len(rec);
	const struct pm_id_entry *e;
	uint64_t type, id;
	struct pm_event *ev;

	if (len < 16)
		return pm_error__at(err, PM_EFORMAT, rec->offset,
				    "EVENT_UPDATE record too short (%u bytes)", rec->size);
	type = pm_reader__u64(r, rec->data + 8);
	id = pm_reader__u64(r, rec->data + 16);
	e = pm_idmap__find(&r->ids, id);
	if (type != 2 /* NAME */ || !e)
		return 0;
	ev = r->events[e->idx];
	free(ev->name);
	ev->name = pm_strdup(pm_reader__scratch_str(r, rec->data + 24, len - 16));
	return 0;
}

static int apply_id_index(struct pm_reader *r, const struct pm_record *rec,
			  struct pm_error *err)
{
	struct pm_rec_id_index idx;
	uint64_t i;

	if (pm_rec__id_index(r, rec, &idx, err))
		return -PM_EFORMAT;
	for (i = 0; i < idx.nr; i++) {
		struct pm_id_index_entry ent;
		struct pm_id_entry *e;

		pm_rec_id_index__entry(r, &idx, i, &ent);
		e = pm_idmap__find(&r->ids, ent.id);
		if (!e)
			continue;
		e->cpu = (int32_t)ent.cpu;
		e->tid = (int32_t)ent.tid;
	}
	return 0;
}

static int apply_header_record(struct pm_reader *r, const struct pm_record *rec,
			       struct pm_error *err)
{
	/* A file's header already said what these records say in a pipe. */
	switch (rec->type) {
	case PM_RECORD_HEADER_ATTR:
		return r->pipe ? apply_header_attr(r, rec, err) : 0;
	case PM_RECORD_HEADER_FEATURE:
		return r->pipe ? apply_header_feature(r, rec, err) : 0;
	case PM_RECORD_HEADER_BUILD_ID:
		return r->pipe ? pm_features__parse_build_id_record(r, rec, err) : 0;
	case PM_RECORD_EVENT_UPDATE:
		return apply_event_update(r, rec, err);
	case PM_RECORD_ID_INDEX:
		return apply_id_index(r, rec, err);
	}
	return 0;
}

/* ---- compressed records ---------------------------------------------- */

static int start_compressed(struct pm_reader *r, const struct pm_record *rec,
			    struct pm_error *err)
{
	struct pm_rec_compressed c;

	if (pm_rec__compressed(r, rec, &c, err))
		return -PM_EFORMAT;
	if (!r->zds) {
		r->zds = ZSTD_createDStream();
		if (!r->zds)
			return pm_error__at(err, ENOMEM, rec->offset,
					    "cannot create a zstd stream");
		ZSTD_initDStream(r->zds);
	}
	r->z_in = c.data;
	r->z_in_size = (size_t)c.data_size;
	r->z_in_pos = 0;
	r->z_rec_offset = rec->offset;
	return 0;
}

/* Decompress one more chunk of the current payload into zbuf. */
static int inflate_more(struct pm_reader *r, struct pm_error *err)
{
	enum { CHUNK = 256 * 1024 };
	ZSTD_inBuffer in = { r->z_in, r->z_in_size, r->z_in_pos };
	ZSTD_outBuffer out;
	size_t ret;

	if (r->zpos) {
		memmove(r->zbuf, r->zbuf + r->zpos, r->zlen - r->zpos);
		r->zbase += r->zpos;
		r->zlen -= r->zpos;
		r->zpos = 0;
	}
	PM_GROW(r->zbuf, r->zalloc, r->zlen + CHUNK);
	out.dst = r->zbuf + r->zlen;
	out.size = CHUNK;
	out.pos = 0;
	ret = ZSTD_decompressStream(r->zds, &out, &in);
	if (ZSTD_isError(ret))
		return pm_error__at(err, PM_EFORMAT, r->z_rec_offset,
				    "compressed record: %s", ZSTD_getErrorName(ret));
	r->zlen += out.pos;
	r->z_in_pos = in.pos;
	if (in.pos == r->z_in_size && out.pos < CHUNK)
		r->z_in_pos = r->z_in_size;	/* all of it is out */
	return 0;
}

/* The next record held in decompressed bytes: 1, 0 if none complete yet. */
static int next_inner(struct pm_reader *r, struct pm_record *rec,
		      struct pm_error *err)
{
	for (;;) {
		size_t have = r->zlen - r->zpos;

		if (have >= 8) {
			const uint8_t *p = r->zbuf + r->zpos;
			uint16_t size = pm_reader__u16(r, p + 6);

			if (size < 8)
				return pm_error__at(err, PM_EFORMAT, r->z_rec_offset,
						    "record of size %u at offset %" PRIu64
						    " of the decompressed stream",
						    size, r->zbase + r->zpos);
			if (have >= size) {
				memset(rec, 0, sizeof(*rec));
				rec->offset = r->z_rec_offset;
				rec->zoffset = r->zbase + r->zpos;
				rec->compressed = true;
				rec->type = pm_reader__u32(r, p);
				rec->misc = pm_reader__u16(r, p + 4);
				rec->size = size;
				rec->data = p;
				r->zpos += size;
				return 1;
			}
		}
		if (!r->z_in || r->z_in_pos >= r->z_in_size)
			return 0;
		if (inflate_more(r, err))
			return -PM_EFORMAT;
	}
}

/* ---- the iterator ---------------------------------------------------- */

/* Payload that follows some records outside header.size. */
static int extra_size(struct pm_reader *r, const struct pm_record *rec,
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
static bool at_interrupted_end(const struct pm_reader *r, uint64_t size,
			       size_t avail)
{
	return r->interrupted && (avail < 8 || size < 8 || size > avail);
}

static int next_outer(struct pm_reader *r, struct pm_record *rec,
		      struct pm_error *err)
{
	const uint8_t *p;
	size_t avail;
	uint64_t extra;
	uint16_t size;

	if (r->pos >= r->data_end)
		return 0;
	if (r->data_end != UINT64_MAX && r->data_end - r->pos < 8) {
		if (r->interrupted)
			return 0;
		return pm_error__at(err, PM_ETRUNC, r->pos,
				    "data section ends inside a record header");
	}
	p = pm_source__get(&r->src, r->pos, 8, &avail, err);
	if (!p) {
		if (avail == 0 && (r->pipe || r->interrupted))
			return 0;	/* a stream ends between records */
		if (r->interrupted)
			return 0;
		return pm_error__at(err, PM_ETRUNC, r->pos,
				    "input ends inside a record header (%zu of 8 bytes)",
				    avail);
	}
	size = pm_reader__u16(r, p + 6);
	if (size < 8 || (r->data_end != UINT64_MAX && size > r->data_end - r->pos)) {
		if (at_interrupted_end(r, size, (size_t)(r->data_end - r->pos)))
			return 0;
		if (size < 8)
			return pm_error__at(err, PM_EFORMAT, r->pos,
					    "record size %u is smaller than its header", size);
		return pm_error__at(err, PM_ETRUNC, r->pos,
				    "record of %u bytes runs past the end of the data section",
				    size);
	}
	p = pm_source__get(&r->src, r->pos, size, &avail, err);
	if (!p) {
		if (r->interrupted)
			return 0;
		return pm_error__at(err, PM_ETRUNC, r->pos,
				    "input ends inside a record (%zu of %u bytes)",
				    avail, size);
	}
	memset(rec, 0, sizeof(*rec));
	rec->offset = r->pos;
	rec->type = pm_reader__u32(r, p);
	rec->misc = pm_reader__u16(r, p + 4);
	rec->size = size;
	rec->data = p;

	if (extra_size(r, rec, &extra, err))
		return -PM_EFORMAT;
	if (extra) {
		if (r->data_end != UINT64_MAX && extra > r->data_end - r->pos - size)
			return pm_error__at(err, PM_ETRUNC, r->pos,
					    "%s payload of %" PRIu64 " bytes runs past the end of the data",
					    pm_record_type_name(rec->type), extra);
		if (extra > SIZE_MAX - size)
			return pm_error__at(err, PM_EFORMAT, r->pos, "payload too large");
		p = pm_source__get(&r->src, r->pos, size + (size_t)extra, &avail, err);
		if (!p)
			return pm_error__at(err, PM_ETRUNC, r->pos + size,
					    "input ends inside a %s payload",
					    pm_record_type_name(rec->type));
		rec->data = p;
		rec->extra = p + size;
		rec->extra_size = extra;
	}
	r->pos += size + extra;
	return 1;
}

int pm_reader__next(struct pm_reader *r, struct pm_record *rec,
		    struct pm_error *err)
{
	int ret;

	for (;;) {
		ret = next_inner(r, rec, err);
		if (ret)
			return ret;
		ret = next_outer(r, rec, err);
		if (ret <= 0) {
			if (ret == 0 && r->zlen > r->zpos)
				return pm_error__at(err, PM_ETRUNC, r->z_rec_offset,
						    "compressed data ends inside a record");
			return ret;
		}
		if (rec->type == PM_RECORD_COMPRESSED ||
		    rec->type == PM_RECORD_COMPRESSED2) {
			if (start_compressed(r, rec, err))
				return -PM_EFORMAT;
		} else if (apply_header_record(r, rec, err)) {
			return -PM_EFORMAT;
		}
		return 1;
	}
}
