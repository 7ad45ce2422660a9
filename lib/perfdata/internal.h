/* SPDX-License-Identifier: GPL-2.0 */
/* The reader's insides, shared by the files of lib/perfdata/. */
#ifndef PMPROF_PERFDATA_INTERNAL_H
#define PMPROF_PERFDATA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zstd.h>

#include "pmprof/hash.h"
#include "pmprof/perfdata.h"

/*
 * Where the bytes come from: a whole mapping (file or caller's buffer),
 * or a stream (pipe, stdin) read through a window that slides forward.
 */
struct pm_source {
	const uint8_t *map;	/* mapped or caller-owned bytes */
	size_t map_size;
	bool unmap;		/* munmap() map at close */
	size_t pop_lo, pop_hi;	/* map[pop_lo, pop_hi): the window last faulted in */

	int fd;			/* stream input, -1 when mapped */
	bool close_fd;
	uint8_t *buf;		/* stream window */
	size_t buf_len;		/* valid bytes in buf */
	size_t buf_alloc;
	uint64_t buf_base;	/* stream offset of buf[0] */
	bool eof;
};

/*
 * Bytes [off, off + len) of the input, or NULL when the input ends first
 * (*avail then says how many there are). For a stream, offsets below the
 * last request's start may no longer be available.
 */
const uint8_t *pm_source__get(struct pm_source *s, uint64_t off, size_t len,
			      size_t *avail, struct pm_error *err);
/* Tell a stream it may drop everything before `off`. */
void pm_source__release(struct pm_source *s, uint64_t off);
bool pm_source__is_stream(const struct pm_source *s);
void pm_source__close(struct pm_source *s);
/* Map `size` bytes of a regular file (none: an empty mapping). */
int pm_source__map(struct pm_source *s, int fd, uint64_t size,
		   struct pm_error *err);

/* id -> event index, with ID_INDEX's cpu and tid when known. */
struct pm_id_entry {
	uint64_t id;
	int32_t idx;		/* -1: empty slot */
	int32_t cpu, tid;	/* -2: not known from ID_INDEX */
};

struct pm_idmap {
	struct pm_id_entry *entries;
	size_t nr, alloc;
	struct pm_hash index;
};

void pm_idmap__init(struct pm_idmap *m);
void pm_idmap__release(struct pm_idmap *m);
struct pm_id_entry *pm_idmap__find(const struct pm_idmap *m, uint64_t id);
struct pm_id_entry *pm_idmap__insert(struct pm_idmap *m, uint64_t id);

/*
 * One file's run of records: the recording's own file (or pipe), or one
 * file of a directory recording. Each has its own bytes, position and
 * decompression stream, so the files of a directory can be walked apart
 * (by other threads: nothing here is shared).
 */
struct pm_stream {
	struct pm_source src;
	uint32_t part;		/* its index among the reader's parts */
	bool interrupted;	/* a partial record at the end ends it */
	uint64_t first_record;	/* offset of the first record */
	uint64_t pos;		/* offset of the next record */
	uint64_t data_end;	/* UINT64_MAX: to the end of the input */

	/* Decompression: COMPRESSED payloads feed one stream per file. */
	ZSTD_DStream *zds;
	const uint8_t *z_in;	/* rest of the current compressed payload */
	size_t z_in_size, z_in_pos;
	bool z_more;		/* the last inflate filled its output: zstd may
				   hold more of the payload, input used up or not */
	uint64_t z_rec_offset;	/* file offset of that COMPRESSED record */
	uint8_t *zbuf;		/* decompressed, not yet returned */
	size_t zpos, zlen, zalloc;
	uint64_t zbase;		/* decompressed-stream offset of zbuf[0] */
};

struct pm_dir;

struct pm_reader {
	char *name;
	struct pm_stream main;	/* the file, or a directory's DIR/data */
	struct pm_dir *dir;	/* the data.N files of a directory, or NULL */
	bool pipe;		/* header size 16: records start at 16 */
	bool swap;		/* file order != host order */
	bool big_endian;	/* the file's order */
	bool interrupted;
	struct pm_file_header hdr;

	struct pm_event **events;
	size_t nr_events, alloc_events;
	struct pm_idmap ids;
	int id_pos;		/* u64 index of the id in a sample, -1: none */
	int is_pos;		/* u64 index from the end of a trailer */
	int time_pos;		/* u64 index of a sample's TIME when every
				   event has it there, else one of: */
#define PM_TIME_POS_LOOKUP (-1)	/* the events differ: ask the sample's */
#define PM_TIME_POS_NONE (-2)	/* no event samples TIME */

	struct pm_features feat;

	/* Scratch the parsers hand out pointers into. */
	struct pm_sample_scratch scratch;
	char *str;
	size_t str_alloc;
};

/*
 * A stream's next record: 1 and *rec (rec->part set), 0 at its end, < 0
 * on error (err names the offset in that file). COMPRESSED records are
 * returned, then the records they hold. Reads the reader's byte order,
 * pipe flag and nothing else of it: safe beside other streams' walks.
 */
int pm_stream__next(const struct pm_reader *r, struct pm_stream *st,
		    struct pm_record *rec, struct pm_error *err);
void pm_stream__rewind(struct pm_stream *st);
void pm_stream__release(struct pm_stream *st);

/* Apply what pipe-mode header records, EVENT_UPDATE and ID_INDEX say. */
int pm_reader__apply_header_record(struct pm_reader *r,
				   const struct pm_record *rec,
				   struct pm_error *err);

/* "dir/name", malloc()ed. */
char *pm_path_join(const char *dir, const char *name);

/* Directory recordings (dir.c): open the data.N files beside DIR/data
 * (for DIR_FORMAT or an interrupted header; without data.N files the
 * latter stays a one-file recording), merge their records; free. */
int pm_dir__open(struct pm_reader *r, const char *path,
		 const struct pm_reader_opts *opts, struct pm_error *err);
int pm_dir__next(struct pm_reader *r, struct pm_record *rec,
		 struct pm_error *err);
int pm_dir__rewind(struct pm_reader *r, struct pm_error *err);
void pm_dir__delete(struct pm_dir *d);
size_t pm_dir__nr_parts(const struct pm_dir *d);
const struct pm_stream *pm_dir__part(const struct pm_dir *d, size_t i);
const char *pm_dir__part_name(const struct pm_dir *d, size_t i);
unsigned int pm_dir__decode_threads(const struct pm_dir *d);

/* Feature payload parsing (file sections and pipe HEADER_FEATURE). */
int pm_features__parse(struct pm_reader *r, unsigned int feat,
		       const uint8_t *p, size_t size, uint64_t offset,
		       struct pm_error *err);
void pm_features__release(struct pm_features *f);
int pm_features__parse_build_id_record(struct pm_reader *r,
				       const struct pm_record *rec,
				       struct pm_error *err);
/* After features and events are known: names, groups. */
void pm_reader__apply_features(struct pm_reader *r);

/* Add an event from an attr; returns it. */
struct pm_event *pm_reader__add_event(struct pm_reader *r,
				      const struct pm_attr *attr);
int pm_reader__add_id(struct pm_reader *r, struct pm_event *ev, uint64_t id);
/* Recompute id_pos and is_pos after the event list changed. */
void pm_reader__update_id_pos(struct pm_reader *r);

/* The record's bytes after its header, as (p, len), bounds-checked. */
static inline size_t pm_record__body_len(const struct pm_record *rec)
{
	return rec->size > 8 ? (size_t)rec->size - 8 : 0;
}

/* A perf string: u32 len, then len bytes (NUL-terminated within). */
int pm_read_string(const struct pm_reader *r, const uint8_t *p, size_t avail,
		   uint64_t offset, char **out, size_t *consumed,
		   struct pm_error *err);

/* Copy a NUL-terminated string found within p[0..avail) into scratch. */
const char *pm_reader__scratch_str(struct pm_reader *r, const uint8_t *p,
				   size_t avail);

/* Offset of byte `p` of a record, for messages. */
static inline uint64_t pm_record__offset_of(const struct pm_record *rec,
					    const uint8_t *p)
{
	/* Inside a compressed record, the record's own offset is the best
	 * file position there is. */
	return rec->compressed ? rec->offset
			       : rec->offset + (uint64_t)(p - rec->data);
}

/* The sample_type bits a sample_id_all trailer carries. */
#define PM_TRAILER_BITS (PM_SAMPLE_TID | PM_SAMPLE_TIME | PM_SAMPLE_ID | \
			 PM_SAMPLE_STREAM_ID | PM_SAMPLE_CPU | PM_SAMPLE_IDENTIFIER)

#endif
