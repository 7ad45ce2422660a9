/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data writing: the reader's mirror. File mode (perf record -o FILE)
 * and pipe mode (perf record -o -), in the host's byte order or the other
 * one, attrs of any size from 64 bytes.
 *
 *	struct pm_writer *w;
 *
 *	pm_writer__open(&w, "perf.data", NULL, &err);
 *	pm_writer__add_event(w, &event, &err);		(every event first)
 *	pm_writer__set_string(w, PM_FEAT_ARCH, "alpha", &err);
 *	pm_writer__comm(w, 0, &comm, NULL, &err);
 *	pm_writer__sample(w, &sample, &err);
 *	pm_writer__close(w, &err);
 *
 * Records are streamed out through a buffer as they come: memory does not
 * grow with the number of records. File mode lays out, like perf: header,
 * each event's id array, the attrs, the data, the feature index and the
 * feature payloads. The header goes out first as a valid one with data
 * size 0 (perf's "interrupted: records to the end of the file") and no
 * features, and is completed at close (the output must be seekable): an
 * output whose writer never closed reads up to its last complete record. Pipe mode writes {magic, 16}, then HEADER_ATTR records,
 * HEADER_FEATURE records and a closing one, then the records; it needs no
 * seeking, so every feature must be set before the first record.
 *
 * Every event must be added before the first record. Record functions take
 * values in host order and encode them in the output order; the "raw"
 * functions take bytes already encoded.
 */
#ifndef PMPROF_WRITER_H
#define PMPROF_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/outfile.h"
#include "pmprof/perfdata.h"
#include "pmprof/records.h"

enum pm_byte_order {
	PM_ORDER_NATIVE = 0,
	PM_ORDER_LITTLE,
	PM_ORDER_BIG,
};

struct pm_writer_opts {
	size_t sz;			/* sizeof(struct pm_writer_opts) */
	bool pipe;			/* pipe mode */
	enum pm_byte_order order;
	/*
	 * On-disk attr size (from 64, a multiple of 8). 0: the largest
	 * attr.size among the events, or 128 (perf 6.1's) if none is set,
	 * raised to 144 when an event uses hf_sample.
	 */
	uint32_t attr_size;
	/* pm_writer__open(): how PATH is written (NULL: the defaults). */
	const struct pm_outfile_opts *file;
};

struct pm_writer;

/*
 * Write PATH through a struct pm_outfile (pmprof/outfile.h): a temporary
 * file renamed into place by pm_writer__close(), removed by
 * pm_writer__delete() or a failed close; "-" and devices in place.
 */
int pm_writer__open(struct pm_writer **out, const char *path,
		    const struct pm_writer_opts *opts, struct pm_error *err);
/* Write to a caller-owned fd (not closed by the writer). */
int pm_writer__open_fd(struct pm_writer **out, int fd, const char *name,
		       const struct pm_writer_opts *opts, struct pm_error *err);
/* Write to a growing memory buffer; take it with pm_writer__close_mem(). */
int pm_writer__open_mem(struct pm_writer **out,
			const struct pm_writer_opts *opts, struct pm_error *err);

/* Finish (features, header), flush and free the writer, even on error. */
int pm_writer__close(struct pm_writer *w, struct pm_error *err);
/* Same for a memory writer: *buf (free() it) and *len get the bytes. */
int pm_writer__close_mem(struct pm_writer *w, void **buf, size_t *len,
			 struct pm_error *err);
/* Free without finishing (after an error). NULL is fine. */
void pm_writer__delete(struct pm_writer *w);

/* Write out what the buffer holds (a recorder, after each drain). */
int pm_writer__flush(struct pm_writer *w, struct pm_error *err);
/* A write to the output failed: the error is the output's, not the
 * input's (every later call fails too). */
bool pm_writer__failed(const struct pm_writer *w);

bool pm_writer__big_endian(const struct pm_writer *w);
bool pm_writer__is_pipe(const struct pm_writer *w);
/* Bytes written so far (the offset of the next record). */
uint64_t pm_writer__offset(const struct pm_writer *w);

/*
 * Add an event: attr, name (may be NULL: no EVENT_DESC entry name, ""),
 * ids, and group (leader_idx, nr_members, group_name). The event takes
 * the next index; ev->idx only tells whether leader_idx names ev itself. Everything is copied. Returns the
 * new index or a negative code.
 */
int pm_writer__add_event(struct pm_writer *w, const struct pm_event *ev,
			 struct pm_error *err);
/* Rename an event (names learnt late, from pipe EVENT_UPDATE records).
 * File mode: until close; pipe mode: until the first record. */
int pm_writer__set_event_name(struct pm_writer *w, size_t idx,
			      const char *name, struct pm_error *err);
/* The writer's copy, usable as pm_sample.event / pm_sample_id.event. */
const struct pm_event *pm_writer__event(const struct pm_writer *w, size_t idx);

/*
 * Features. File mode: any time before close. Pipe mode: before the first
 * record. HOSTNAME is always written in file mode (empty if not set):
 * perf tells the bitmap's word size of other-endian files by it.
 * EVENT_DESC is written from the events when any has a name, GROUP_DESC
 * when any group has more than one member.
 */
/* HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID */
int pm_writer__set_string(struct pm_writer *w, unsigned int feat,
			  const char *s, struct pm_error *err);
int pm_writer__set_nrcpus(struct pm_writer *w, uint32_t avail,
			  uint32_t online, struct pm_error *err);
int pm_writer__set_total_mem(struct pm_writer *w, uint64_t kb,
			     struct pm_error *err);
int pm_writer__set_cmdline(struct pm_writer *w, uint32_t argc,
			   const char *const *argv, struct pm_error *err);
int pm_writer__set_sample_time(struct pm_writer *w, uint64_t first,
			       uint64_t last, struct pm_error *err);
int pm_writer__set_clockid(struct pm_writer *w, uint64_t res_ns,
			   struct pm_error *err);
int pm_writer__add_build_id(struct pm_writer *w,
			    const struct pm_build_id_entry *b,
			    struct pm_error *err);
/* PMU capabilities: the PMU named "cpu" into CPU_PMU_CAPS, the others
 * into PMU_CAPS, in order (replacing what an earlier call set). */
int pm_writer__set_pmu_caps(struct pm_writer *w, const struct pm_pmu_caps *caps,
			    size_t nr, struct pm_error *err);
/* Any feature as its payload bytes, already in the output byte order.
 * Replaces what the typed setters would write for that feature. */
int pm_writer__set_raw_feature(struct pm_writer *w, unsigned int feat,
			       const void *payload, size_t len,
			       struct pm_error *err);
/* Copy every feature of f that the setters above can encode. */
int pm_writer__copy_features(struct pm_writer *w, const struct pm_features *f,
			     struct pm_error *err);

/*
 * Records. misc is the header's misc (cpumode and flags). sid is the
 * sample_id_all trailer: written when the event it names (sid->event, or
 * the first event when sid or sid->event is NULL) has sample_id_all set,
 * with the fields of that event's sample_type; sid NULL writes zeros.
 */
int pm_writer__mmap(struct pm_writer *w, uint16_t misc,
		    const struct pm_rec_mmap *m, const struct pm_sample_id *sid,
		    struct pm_error *err);	/* MMAP or MMAP2 by m->is_mmap2 */
int pm_writer__comm(struct pm_writer *w, uint16_t misc,
		    const struct pm_rec_comm *c, const struct pm_sample_id *sid,
		    struct pm_error *err);	/* c->exec adds COMM_EXEC */
/* type PM_RECORD_FORK or PM_RECORD_EXIT */
int pm_writer__task(struct pm_writer *w, uint32_t type, uint16_t misc,
		    const struct pm_rec_task *t, const struct pm_sample_id *sid,
		    struct pm_error *err);
int pm_writer__lost(struct pm_writer *w, uint16_t misc,
		    const struct pm_rec_lost *l, const struct pm_sample_id *sid,
		    struct pm_error *err);
int pm_writer__lost_samples(struct pm_writer *w, uint16_t misc,
			    const struct pm_rec_lost_samples *l,
			    const struct pm_sample_id *sid,
			    struct pm_error *err);
/* type PM_RECORD_THROTTLE or PM_RECORD_UNTHROTTLE */
int pm_writer__throttle(struct pm_writer *w, uint32_t type, uint16_t misc,
			const struct pm_rec_throttle *t,
			const struct pm_sample_id *sid, struct pm_error *err);
int pm_writer__finished_round(struct pm_writer *w, struct pm_error *err);
int pm_writer__id_index(struct pm_writer *w,
			const struct pm_id_index_entry *e, uint64_t nr,
			struct pm_error *err);

/*
 * A SAMPLE from its decoded fields: the fields of s->sample_type, in the
 * kernel's order. The event (s->event, else found by s->id/identifier,
 * else the first) gives read_format, branch_sample_type and the register
 * masks; s->misc is the header's misc (s->cpumode is or-ed in when misc
 * has no cpumode). RAW is zero-padded so that 4 + size is a multiple of
 * 8, as the kernel does; STACK_USER and AUX sizes must be multiples of 8
 * and register counts must match the masks.
 */
int pm_writer__sample(struct pm_writer *w, const struct pm_sample *s,
		      struct pm_error *err);

/* Size of the SAMPLE pm_writer__sample() would write (error: < 0). */
int pm_writer__sample_size(struct pm_writer *w, const struct pm_sample *s,
			   struct pm_error *err);

/* A whole record (header included), already in the output byte order. */
int pm_writer__raw(struct pm_writer *w, const void *rec, size_t len,
		   struct pm_error *err);

/*
 * A whole record in byte order `big_endian` (e.g. pm_record.data), written
 * in the output order: copied when the orders agree, else byte-swapped
 * field by field for the layouts the writer knows (the kernel's records
 * 1-21 but SAMPLE, which pm_writer__sample writes; FINISHED_ROUND,
 * ID_INDEX, FINISHED_INIT, THREAD_MAP, CPU_MAP, EVENT_UPDATE, TIME_CONV, STAT_CONFIG,
 * STAT, STAT_ROUND, AUXTRACE_INFO). Any other type is
 * refused with -PM_EUNSUP rather than written wrong. The trailer layout comes from the first
 * event's sample_type (all events share the id fields).
 */
int pm_writer__copy_record(struct pm_writer *w, const void *rec, size_t len,
			   bool big_endian, struct pm_error *err);

/*
 * From now on, write the kernel's records (types below 64) compressed,
 * as perf record -z does: one zstd stream at `level` (1-22) in
 * COMPRESSED records, and the COMPRESSED feature (mmap_len: the size
 * perf's reader decompresses into, the ring buffer's). The stream is
 * flushed at every FINISHED_ROUND, before any tool record, at close, and
 * before more than mmap_len - 4096 bytes have gone in since the last
 * flush. In pipe mode call it before the first record.
 */
int pm_writer__set_compression(struct pm_writer *w, int level, uint32_t mmap_len,
			       struct pm_error *err);
/* Write out what the zstd stream holds (COMPRESSED records). */
int pm_writer__compress_flush(struct pm_writer *w, struct pm_error *err);

/* HEADER_TRACING_DATA (pipe) or the TRACING_DATA feature (file): the
 * tracing blob is self-describing and never byte-swapped. */
int pm_writer__set_tracing_data(struct pm_writer *w, const void *blob,
				size_t len, struct pm_error *err);

#endif
