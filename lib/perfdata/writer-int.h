/* SPDX-License-Identifier: GPL-2.0 */
/* The writer's insides, shared by lib/perfdata/writer*.c only. */
#ifndef PMPROF_WRITER_INT_H
#define PMPROF_WRITER_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "pmprof/bytebuf.h"
#include "pmprof/writer.h"

/* perf's header string: u32 len, bytes, NUL, zero padding to 64. */
void pm_writer__put_string(struct pm_bytebuf *b, const char *s, bool swap);

struct pm_wz;

struct pm_writer_feature {
	bool set;
	struct pm_bytebuf payload;		/* encoded in the output order */
};

enum pm_sink_kind { PM_SINK_FD, PM_SINK_MEM };

struct pm_writer {
	char *name;
	enum pm_sink_kind sink;
	int fd;
	struct pm_outfile *file;	/* pm_writer__open's: committed at close */
	bool pipe;
	bool big_endian;		/* output order */
	bool swap;			/* output order != host order */
	uint32_t attr_size_opt;		/* 0: decide at begin */
	uint32_t attr_size;		/* on-disk attr bytes, set at begin */

	struct pm_bytebuf out;		/* stream buffer (fd) or everything (mem) */
	uint64_t flushed;		/* bytes already written to fd */

	bool begun;			/* the first record went out */
	bool failed;			/* a write failed: stop writing */
	uint64_t data_offset;
	uint64_t attrs_offset;

	struct pm_event *events;
	size_t nr_events, alloc_events;

	struct pm_writer_feature feat[PM_FEAT_BITS];
	bool want_hostname;		/* file mode: HOSTNAME even if unset */

	struct pm_bytebuf rec;		/* scratch for one record */
	struct pm_wz *z;		/* -z: the zstd stream (writer-compress.c) */
	struct pm_bytebuf build_ids;	/* BUILD_ID payload so far */
};

/* Append to the output stream (flushing to the fd as it fills). */
int pm_writer__emit(struct pm_writer *w, const void *p, size_t len,
		    struct pm_error *err);
/* Append a whole record: through the zstd stream when compression is on
 * and it is a kernel record, else plain (writer-compress.c). */
int pm_writer__emit_record(struct pm_writer *w, const void *rec, size_t len,
			   struct pm_error *err);
/* Before close: the last COMPRESSED records and the final ratio. */
int pm_writer__compress_end(struct pm_writer *w, struct pm_error *err);
void pm_writer__compress_free(struct pm_writer *w);
/* Lay out the start of the output; called before the first record. */
int pm_writer__begin(struct pm_writer *w, struct pm_error *err);
/* Emit w->rec as a record after patching its size. */
int pm_writer__emit_rec(struct pm_writer *w, struct pm_error *err);
/* Start w->rec with a header whose size is patched later. */
void pm_writer__rec_start(struct pm_writer *w, uint32_t type, uint16_t misc);

/* Feature payloads (writer-features.c). */
int pm_writer__encode_features(struct pm_writer *w, struct pm_error *err);
/* The trailer's layout owner: the writer's event a sid names. */
const struct pm_event *pm_writer__sid_event(const struct pm_writer *w,
					    const struct pm_event *ev);
/* Bytes of the sample_id_all trailer for records of event ev (0 if none). */
size_t pm_writer__trailer_size(const struct pm_event *ev);

#endif
