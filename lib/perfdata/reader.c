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
	return !pm_source__is_stream(&r->main.src) && !rec->compressed;
}

uint64_t pm_reader__file_size(const struct pm_reader *r)
{
	uint64_t n = 0;
	size_t i;

	if (pm_source__is_stream(&r->main.src))
		return 0;
	for (i = 0; i < pm_reader__nr_parts(r); i++)
		n += pm_reader__part_size(r, i);
	return n;
}

bool pm_reader__is_dir(const struct pm_reader *r)
{
	return r->dir != NULL;
}

unsigned int pm_reader__decode_threads(const struct pm_reader *r)
{
	return r->dir ? pm_dir__decode_threads(r->dir) : 0;
}

size_t pm_reader__nr_parts(const struct pm_reader *r)
{
	return r->dir ? pm_dir__nr_parts(r->dir) : 1;
}

const char *pm_reader__part_name(const struct pm_reader *r, size_t part)
{
	if (!r->dir)
		return part ? NULL : r->name;
	return part < pm_dir__nr_parts(r->dir) ? pm_dir__part_name(r->dir, part)
					       : NULL;
}

uint64_t pm_reader__part_size(const struct pm_reader *r, size_t part)
{
	const struct pm_stream *st = part ? NULL : &r->main;

	if (r->dir && part < pm_dir__nr_parts(r->dir))
		st = pm_dir__part(r->dir, part);
	return st && !pm_source__is_stream(&st->src) ? st->src.map_size : 0;
}

void pm_reader__error_in(const struct pm_reader *r, const struct pm_record *rec,
			 struct pm_error *err)
{
	const char *name;

	if (!err || !r->dir || err->part[0])
		return;
	name = pm_reader__part_name(r, rec->part);
	if (name)
		snprintf(err->part, sizeof(err->part), "%s", name);
}

const uint8_t *pm_reader__feature_bytes(const struct pm_reader *r,
					unsigned int feat, size_t *len)
{
	const struct pm_section *s;

	*len = 0;
	if (r->pipe || !pm_features__has(&r->feat, feat))
		return NULL;
	/* read_feature_sections checked that it lies inside the file */
	s = &r->feat.section[feat];
	*len = (size_t)s->size;
	return r->main.src.map + s->offset;
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
	const uint64_t before_time = PM_SAMPLE_IDENTIFIER | PM_SAMPLE_IP |
				     PM_SAMPLE_TID | PM_SAMPLE_TIME;
	uint64_t st;
	size_t i;

	r->time_pos = PM_TIME_POS_NONE;
	if (!r->nr_events) {
		r->id_pos = r->is_pos = -1;
		return;
	}
	/* Where a sample's TIME is, when every event agrees on the fields
	 * before it (perf makes them agree: a lookup per sample is rare). */
	st = r->events[0]->attr.sample_type & before_time;
	for (i = 1; i < r->nr_events; i++)
		if ((r->events[i]->attr.sample_type & before_time) != st)
			st = UINT64_MAX;
	if (st == UINT64_MAX)
		r->time_pos = PM_TIME_POS_LOOKUP;
	else if (st & PM_SAMPLE_TIME)
		r->time_pos = __builtin_popcountll(st & ~PM_SAMPLE_TIME);
	st = r->events[0]->attr.sample_type;
	r->id_pos = pm_sample_type__id_pos(st);
	r->is_pos = pm_sample_type__is_pos(st);
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

/* Is [off, off + size) inside the file, and past the header when it
 * holds anything? (A section over the header would read the header's
 * bytes as attrs or ids: magic as an attr size of 843 MB.) */
static int check_section(const struct pm_reader *r, const char *what,
			 const struct pm_section *s, uint64_t where,
			 struct pm_error *err)
{
	uint64_t fsize = r->main.src.map_size;

	if (s->offset > fsize || s->size > fsize - s->offset)
		return pm_error__at(err, PM_ETRUNC, where,
				    "%s section [%" PRIu64 ", +%" PRIu64
				    ") lies beyond the end of the file (%" PRIu64 " bytes)",
				    what, s->offset, s->size, fsize);
	if (s->size && s->offset < r->hdr.size)
		return pm_error__at(err, PM_EFORMAT, where,
				    "%s section [%" PRIu64 ", +%" PRIu64
				    ") overlaps the %" PRIu64 "-byte file header",
				    what, s->offset, s->size, r->hdr.size);
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

/*
 * The attrs section: attr_size - 16 bytes of attr (from 64 to a page),
 * then the {offset, size} of the event's u64 ids. The id arrays of all
 * events together fit in the file: they cannot overlap in a real one, and
 * so the work of reading them is bounded by the file's size.
 */
static int read_attrs(struct pm_reader *r, struct pm_error *err)
{
	const struct pm_section *as = &r->hdr.attrs;
	uint64_t n, i, total_ids = 0;
	int ret;

	if (!as->size)
		return 0;
	if (r->hdr.attr_size < 16 + PM_ATTR_SIZE_VER0 ||
	    r->hdr.attr_size > 16 + PM_ATTR_SIZE_MAX)
		return pm_error__at(err, PM_EFORMAT, 16,
				    "attr_size %" PRIu64 " is invalid: an attr of %u to %u bytes and 16 bytes of ids section",
				    r->hdr.attr_size, PM_ATTR_SIZE_VER0, PM_ATTR_SIZE_MAX);
	ret = check_section(r, "attrs", as, 24, err);
	if (ret)
		return ret;
	n = as->size / r->hdr.attr_size;
	if (as->size % r->hdr.attr_size)
		return pm_error__at(err, PM_EFORMAT, 32,
				    "attrs section size %" PRIu64
				    " is not a multiple of attr_size %" PRIu64,
				    as->size, r->hdr.attr_size);
	for (i = 0; i < n; i++) {
		uint64_t off = as->offset + i * r->hdr.attr_size;
		const uint8_t *p = r->main.src.map + off;
		size_t attr_len = (size_t)r->hdr.attr_size - 16;
		struct pm_section ids;
		struct pm_attr attr;
		struct pm_event *ev;
		char what[40];
		uint64_t j;

		ret = pm_attr__decode(&attr, p, attr_len, r->big_endian, err);
		if (ret) {
			if (err) {
				err->has_offset = true;
				err->offset = off;
			}
			return ret;
		}
		snprintf(what, sizeof(what), "attr %" PRIu64, i);
		ret = pm_attr__check_abi(&attr, what, off, err);
		if (ret)
			return ret;
		read_section(r, p + attr_len, &ids);
		ret = check_section(r, "event ids", &ids, off + attr_len, err);
		if (ret)
			return ret;
		total_ids += ids.size / 8;
		if (total_ids > r->main.src.map_size / 8)
			return pm_error__at(err, PM_EFORMAT, off + attr_len,
					    "the events' id sections hold more ids than the file has room for (they overlap)");
		ev = pm_reader__add_event(r, &attr);
		ev->ids = pm_calloc(ids.size / 8 ? ids.size / 8 : 1, sizeof(*ev->ids));
		for (j = 0; j < ids.size / 8; j++) {
			uint64_t id = pm_reader__u64(r, r->main.src.map + ids.offset + 8 * j);

			pm_idmap__insert(&r->ids, id)->idx = ev->idx;
			ev->ids[ev->nr_ids++] = id;
		}
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
		p = pm_source__get(&r->main.src, idx_off, 16, NULL, err);
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
		ret = pm_features__parse(r, feat, r->main.src.map + s.offset,
					 (size_t)s.size, s.offset, err);
		if (ret)
			return ret;
		idx_off += 16;
	}
	return 0;
}

/*
 * Data size 0 is either a completed recording with no records (perf and
 * the writer put the feature index at data.offset + data.size, so right at
 * data.offset, as perf reads it) or one cut short, whose records run to
 * the end of the file (the header written at the start has no features:
 * pmprof's own; or perf's, with its feature bits but no index yet). The
 * index is there when every set feature bit has an entry whose section
 * lies after the index and within the file. A record cannot pass for one:
 * its first u64 read as an offset holds the record's size in bits 48-63
 * (type << 32 in a byte-swapped file), far beyond any file's end.
 */
static bool empty_with_features(const struct pm_reader *r)
{
	uint64_t nr = 0, idx = r->hdr.data.offset, end, i;
	size_t size = r->main.src.map_size;
	unsigned int w;

	for (w = 0; w < PM_FEAT_BITS / 64; w++)
		nr += (uint64_t)__builtin_popcountll(r->hdr.features[w]);
	if (!nr || idx > size || nr > (size - idx) / 16)
		return false;
	end = idx + 16 * nr;
	for (i = 0; i < nr; i++) {
		struct pm_section s;

		read_section(r, r->main.src.map + idx + 16 * i, &s);
		if (s.offset < end || s.offset > size || s.size > size - s.offset)
			return false;
	}
	return true;
}

static int read_file_header(struct pm_reader *r, struct pm_error *err)
{
	const uint8_t *p;
	size_t avail;
	int ret;

	p = pm_source__get(&r->main.src, 0, 16, &avail, err);
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
		r->main.first_record = r->main.pos = PM_PIPE_HEADER_SIZE;
		r->main.data_end = UINT64_MAX;
		return 0;
	}
	if (pm_source__is_stream(&r->main.src))
		return pm_error__at(err, PM_EUNSUP, 8,
				    "a file-mode perf.data (header size %" PRIu64
				    ") cannot be read from a pipe; give its path",
				    r->hdr.size);
	if (r->hdr.size < 72 || r->hdr.size > r->main.src.map_size)
		return pm_error__at(err, r->hdr.size > r->main.src.map_size ? PM_ETRUNC : PM_EFORMAT, 8,
				    "header size %" PRIu64 " is invalid (file has %zu bytes)",
				    r->hdr.size, r->main.src.map_size);
	p = r->main.src.map;
	r->hdr.attr_size = pm_reader__u64(r, p + 16);
	read_section(r, p + 24, &r->hdr.attrs);
	read_section(r, p + 40, &r->hdr.data);
	read_section(r, p + 56, &r->hdr.event_types);
	if (r->hdr.size >= PM_FILE_HEADER_SIZE)
		read_feature_bitmap(r, p + 72);

	if (r->hdr.data.offset > r->main.src.map_size)
		return pm_error__at(err, PM_ETRUNC, 40,
				    "data section starts at %" PRIu64
				    ", beyond the end of the file (%zu bytes)",
				    r->hdr.data.offset, r->main.src.map_size);
	r->main.first_record = r->main.pos = r->hdr.data.offset;
	if (r->hdr.data.size == 0 && !empty_with_features(r)) {
		/* Interrupted: records go on to the end of the file. */
		r->interrupted = r->main.interrupted = true;
		r->main.data_end = r->main.src.map_size;
	} else {
		if (check_section(r, "data", &r->hdr.data, 40, err))
			return -PM_ETRUNC;
		r->main.data_end = r->hdr.data.offset + r->hdr.data.size;
	}
	if (r->hdr.data.offset < r->hdr.size)
		return pm_error__at(err, PM_EFORMAT, 40,
				    "data section starts at %" PRIu64 ", inside the %" PRIu64 "-byte header",
				    r->hdr.data.offset, r->hdr.size);
	ret = read_attrs(r, err);
	if (ret)
		return ret;
	if (!r->interrupted && read_feature_sections(r, err))
		return -PM_EFORMAT;
	pm_reader__apply_features(r);
	return 0;
}

static struct pm_reader *reader_new(const char *name)
{
	struct pm_reader *r = pm_zalloc(sizeof(*r));

	r->name = pm_strdup(name ? name : "perf.data");
	r->main.src.fd = -1;
	r->id_pos = r->is_pos = -1;
	pm_idmap__init(&r->ids);
	return r;
}

/* A file or pipe: its header, and it must be the whole recording. */
static int finish_open(struct pm_reader **out, struct pm_reader *r,
		       struct pm_error *err)
{
	int ret = read_file_header(r, err);

	if (!ret && pm_features__has(&r->feat, PM_FEAT_DIR_FORMAT))
		ret = pm_error__fmt(err, PM_EFORMAT,
				    "the header of a directory recording (perf record --threads): its records are in the data.N files beside it; read the directory");
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

	r->main.src.map = buf;
	r->main.src.map_size = len;
	return finish_open(out, r, err);
}

/* A regular file, mapped, or a FIFO or character device read as a
 * stream; *out is a new reader named `name`. */
static int open_path(struct pm_reader **out, const char *path,
		     const char *name, bool *is_dir, struct pm_error *err)
{
	struct pm_reader *r;
	struct stat st;
	int fd, ret;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pm_error__fmt(err, errno, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st)) {
		ret = pm_error__fmt(err, errno, "cannot stat: %s", strerror(errno));
		close(fd);
		return ret;
	}
	if (is_dir && S_ISDIR(st.st_mode)) {
		close(fd);
		*is_dir = true;
		return 0;
	}
	r = reader_new(name);
	if (!S_ISREG(st.st_mode)) {
		r->main.src.fd = fd;		/* a FIFO or a character device */
		r->main.src.close_fd = true;
	} else {
		ret = pm_source__map(&r->main.src, fd, (uint64_t)st.st_size, err);
		close(fd);
		if (ret) {
			pm_reader__delete(r);
			return ret;
		}
	}
	*out = r;
	return 0;
}

/*
 * A directory: DIR/data holds the header. With the DIR_FORMAT feature
 * (perf record --threads) the data.N files beside it hold the records
 * too; without it (perf record --kcore) DIR/data is the whole recording.
 * A recording cut short has no features to say (its data size is 0):
 * then data.N files beside it make it a directory recording.
 */
static int open_dir(struct pm_reader **out, const char *path,
		    const struct pm_reader_opts *opts, struct pm_error *err)
{
	struct pm_reader *r;
	char *hdr = pm_path_join(path, "data");
	int ret = open_path(&r, hdr, path, NULL, err);

	free(hdr);
	if (!ret)
		ret = read_file_header(r, err);
	if (!ret && (pm_features__has(&r->feat, PM_FEAT_DIR_FORMAT) ||
		     r->interrupted))
		ret = pm_dir__open(r, path, opts, err);
	if (ret) {
		if (err && !err->part[0])
			snprintf(err->part, sizeof(err->part), "data");
		pm_reader__delete(r);
		return ret;
	}
	*out = r;
	return 0;
}

int pm_reader__open(struct pm_reader **out, const char *path,
		    const struct pm_reader_opts *opts, struct pm_error *err)
{
	struct pm_reader *r;
	bool is_dir = false;
	int ret;

	*out = NULL;
	if (!strcmp(path, "-")) {
		r = reader_new("(standard input)");
		r->main.src.fd = STDIN_FILENO;
		return finish_open(out, r, err);
	}
	ret = open_path(&r, path, path, &is_dir, err);
	if (ret)
		return ret;
	if (is_dir)
		return open_dir(out, path, opts, err);
	return finish_open(out, r, err);
}

void pm_reader__delete(struct pm_reader *r)
{
	size_t i;

	if (!r)
		return;
	/* First: its decoder threads read the events and the main stream. */
	pm_dir__delete(r->dir);
	for (i = 0; i < r->nr_events; i++) {
		free(r->events[i]->name);
		free(r->events[i]->group_name);
		free(r->events[i]->ids);
		free(r->events[i]);
	}
	free(r->events);
	pm_idmap__release(&r->ids);
	pm_features__release(&r->feat);
	pm_stream__release(&r->main);
	pm_sample_scratch__release(&r->scratch);
	free(r->str);
	free(r->name);
	free(r);
}

int pm_reader__rewind(struct pm_reader *r, struct pm_error *err)
{
	if (pm_source__is_stream(&r->main.src))
		return pm_error__fmt(err, ESPIPE, "cannot rewind a pipe stream");
	if (r->dir)
		return pm_dir__rewind(r, err);
	pm_stream__rewind(&r->main);
	return 0;
}

int pm_reader__next(struct pm_reader *r, struct pm_record *rec,
		    struct pm_error *err)
{
	int ret = r->dir ? pm_dir__next(r, rec, err)
			 : pm_stream__next(r, &r->main, rec, err);

	if (ret <= 0)
		return ret;
	/* The header's records: never inside a compressed one. */
	if (!rec->compressed && rec->type != PM_RECORD_COMPRESSED &&
	    rec->type != PM_RECORD_COMPRESSED2) {
		ret = pm_reader__apply_header_record(r, rec, err);
		if (ret) {
			pm_reader__error_in(r, rec, err);
			return ret;
		}
	}
	return 1;
}

