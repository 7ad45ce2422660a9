/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed views of the non-sample records whose layout is known. Each
 * decoder reads the body of a record the iterator returned, checks every
 * length against header.size, and copies strings out so they are always
 * NUL-terminated (they live in the reader's scratch space until the next
 * record).
 *
 * r may be NULL for a record that no reader read, in the host's byte
 * order (the recorder's ring buffers): strings then point into the
 * record ("" when the kernel's NUL is missing), and READ's optional
 * fields are not decoded (the events are not known).
 */
#ifndef PMPROF_RECORDS_H
#define PMPROF_RECORDS_H

#include <stdbool.h>
#include <stdint.h>

#include "pmprof/perfdata.h"

/* MMAP and MMAP2 (is_mmap2) share one view. */
struct pm_rec_mmap {
	bool is_mmap2;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	bool has_build_id;		/* MMAP2 with PM_MISC_MMAP_BUILD_ID */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint8_t build_id_size;
	uint8_t build_id[20];
	uint32_t prot, flags;
	const char *filename;
};

struct pm_rec_comm {
	uint32_t pid, tid;
	bool exec;			/* misc has PM_MISC_COMM_EXEC */
	const char *comm;
};

/* FORK and EXIT */
struct pm_rec_task {
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct pm_rec_lost {
	uint64_t id, lost;
};

struct pm_rec_lost_samples {
	uint64_t lost;
};

/* THROTTLE and UNTHROTTLE */
struct pm_rec_throttle {
	uint64_t time, id, stream_id;
};

/*
 * READ: a thread's counter at its exit (inherit_stat, perf record -s),
 * laid out as read(2) gives it by the event's read_format. With a
 * reader the event is the trailer's (sample_id_all), else the one the
 * body's id names, else the first; the body must hold what its
 * read_format says. Without one (the host's ring buffers, events
 * unknown) only pid, tid and value.value are decoded.
 */
struct pm_rec_read {
	uint32_t pid, tid;
	const struct pm_event *event;	/* NULL without a reader */
	uint64_t read_format;		/* the event's */
	struct pm_read_value value;	/* the counter; GROUP: the leader's */
	uint64_t time_enabled, time_running;
	uint64_t nr;			/* 1; GROUP: the members read */
	const uint8_t *members;		/* GROUP: nr x {value, [id], [lost]},
					   see pm_rec_read__member() */
};

struct pm_rec_aux {
	uint64_t aux_offset, aux_size, flags;
};

struct pm_rec_itrace_start {
	uint32_t pid, tid;
};

struct pm_rec_switch {
	bool out, preempt;
	bool cpu_wide;
	uint32_t next_prev_pid, next_prev_tid;
};

struct pm_rec_namespaces {
	uint32_t pid, tid;
	uint64_t nr;
	const uint8_t *entries;		/* nr x {u64 dev, u64 ino}, file order */
};

struct pm_rec_ksymbol {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	const char *name;
};

struct pm_rec_bpf_event {
	uint16_t bpf_type, flags;
	uint32_t id;
	uint8_t tag[8];
};

struct pm_rec_cgroup {
	uint64_t id;
	const char *path;
};

struct pm_rec_text_poke {
	uint64_t addr;
	uint16_t old_len, new_len;
	const uint8_t *bytes;		/* old_len then new_len bytes */
};

struct pm_rec_aux_output_hw_id {
	uint64_t hw_id;
};

struct pm_id_index_entry {
	uint64_t id, idx, cpu, tid;
};

struct pm_rec_id_index {
	uint64_t nr;
	const uint8_t *entries;		/* use pm_rec_id_index__entry() */
};

struct pm_rec_auxtrace {
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu;
};

struct pm_rec_time_conv {
	uint64_t time_shift, time_mult, time_zero;
	bool has_cycles;
	uint64_t time_cycles, time_mask;
	uint8_t cap_user_time_zero, cap_user_time_short;
};

struct pm_rec_compressed {
	uint64_t data_size;		/* zstd bytes */
	const uint8_t *data;
};

struct pm_rec_tracing_data {
	uint32_t size;
};

/* Room for any record's view (the one its type has). */
union pm_rec_any {
	struct pm_rec_mmap mmap;
	struct pm_rec_comm comm;
	struct pm_rec_task task;
	struct pm_rec_lost lost;
	struct pm_rec_lost_samples lost_samples;
	struct pm_rec_throttle throttle;
	struct pm_rec_read read;
	struct pm_rec_aux aux;
	struct pm_rec_itrace_start itrace_start;
	struct pm_rec_switch sw;
	struct pm_rec_namespaces namespaces;
	struct pm_rec_ksymbol ksymbol;
	struct pm_rec_bpf_event bpf_event;
	struct pm_rec_cgroup cgroup;
	struct pm_rec_text_poke text_poke;
	struct pm_rec_aux_output_hw_id aux_output_hw_id;
	struct pm_rec_id_index id_index;
	struct pm_rec_auxtrace auxtrace;
	struct pm_rec_time_conv time_conv;
	struct pm_rec_compressed compressed;
};

int pm_rec__mmap(struct pm_reader *r, const struct pm_record *rec,
		 struct pm_rec_mmap *out, struct pm_error *err);
int pm_rec__comm(struct pm_reader *r, const struct pm_record *rec,
		 struct pm_rec_comm *out, struct pm_error *err);
int pm_rec__task(struct pm_reader *r, const struct pm_record *rec,
		 struct pm_rec_task *out, struct pm_error *err);
int pm_rec__lost(struct pm_reader *r, const struct pm_record *rec,
		 struct pm_rec_lost *out, struct pm_error *err);
int pm_rec__lost_samples(struct pm_reader *r, const struct pm_record *rec,
			 struct pm_rec_lost_samples *out, struct pm_error *err);
int pm_rec__throttle(struct pm_reader *r, const struct pm_record *rec,
		     struct pm_rec_throttle *out, struct pm_error *err);
int pm_rec__read(struct pm_reader *r, const struct pm_record *rec,
		 struct pm_rec_read *out, struct pm_error *err);
/* Member i (< rd->nr) of a READ record, in host order: the leader is 0. */
void pm_rec_read__member(const struct pm_reader *r, const struct pm_rec_read *rd,
			 uint64_t i, struct pm_read_value *out);
int pm_rec__aux(struct pm_reader *r, const struct pm_record *rec,
		struct pm_rec_aux *out, struct pm_error *err);
int pm_rec__itrace_start(struct pm_reader *r, const struct pm_record *rec,
			 struct pm_rec_itrace_start *out, struct pm_error *err);
int pm_rec__switch(struct pm_reader *r, const struct pm_record *rec,
		   struct pm_rec_switch *out, struct pm_error *err);
int pm_rec__namespaces(struct pm_reader *r, const struct pm_record *rec,
		       struct pm_rec_namespaces *out, struct pm_error *err);
int pm_rec__ksymbol(struct pm_reader *r, const struct pm_record *rec,
		    struct pm_rec_ksymbol *out, struct pm_error *err);
int pm_rec__bpf_event(struct pm_reader *r, const struct pm_record *rec,
		      struct pm_rec_bpf_event *out, struct pm_error *err);
int pm_rec__cgroup(struct pm_reader *r, const struct pm_record *rec,
		   struct pm_rec_cgroup *out, struct pm_error *err);
int pm_rec__text_poke(struct pm_reader *r, const struct pm_record *rec,
		      struct pm_rec_text_poke *out, struct pm_error *err);
int pm_rec__aux_output_hw_id(struct pm_reader *r, const struct pm_record *rec,
			     struct pm_rec_aux_output_hw_id *out,
			     struct pm_error *err);
int pm_rec__id_index(struct pm_reader *r, const struct pm_record *rec,
		     struct pm_rec_id_index *out, struct pm_error *err);
void pm_rec_id_index__entry(const struct pm_reader *r,
			    const struct pm_rec_id_index *idx, uint64_t i,
			    struct pm_id_index_entry *out);
int pm_rec__auxtrace(struct pm_reader *r, const struct pm_record *rec,
		     struct pm_rec_auxtrace *out, struct pm_error *err);
int pm_rec__time_conv(struct pm_reader *r, const struct pm_record *rec,
		      struct pm_rec_time_conv *out, struct pm_error *err);
int pm_rec__compressed(const struct pm_reader *r, const struct pm_record *rec,
		       struct pm_rec_compressed *out, struct pm_error *err);

#endif
