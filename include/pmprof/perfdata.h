/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data reading: files and pipe streams of either byte order, every
 * attr size, the feature sections, and a streaming record iterator.
 *
 *	struct pm_reader *r;
 *	struct pm_record rec;
 *	struct pm_sample s;
 *
 *	if (pm_reader__open(&r, "perf.data", NULL, &err))
 *		...
 *	while ((ret = pm_reader__next(r, &rec, &err)) > 0) {
 *		if (rec.type == PM_RECORD_SAMPLE &&
 *		    !pm_reader__parse_sample(r, &rec, &s, &err))
 *			use(s.ip, s.event->name);
 *	}
 *
 * Pointers handed out (record bytes, callchains, strings) stay valid until
 * the next call to pm_reader__next(), unless documented otherwise. Memory
 * does not grow with the number of records.
 *
 * A directory recording (perf record --threads: DIR/data holds the header
 * and the records written outside the threads, DIR/data.N those of each
 * thread) reads as one recording: its header is DIR/data's, and its
 * records come from DIR/data and every data.N file merged in time order,
 * as perf report delivers them. The files are "parts"; pm_record.part
 * says which a record is in, and its offset is within that file.
 */
#ifndef PMPROF_PERFDATA_H
#define PMPROF_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pmprof/abi.h"
#include "pmprof/attr.h"
#include "pmprof/error.h"

#define PM_PERFILE_MAGIC 0x32454c4946524550ULL	/* "PERFILE2" */
#define PM_FILE_HEADER_SIZE 104
#define PM_PIPE_HEADER_SIZE 16

struct pm_section {
	uint64_t offset;
	uint64_t size;
};

struct pm_file_header {
	uint64_t size;			/* 104, 72 (old) or 16 (pipe) */
	uint64_t attr_size;		/* on-disk attr + 16 */
	struct pm_section attrs;
	struct pm_section data;
	struct pm_section event_types;
	uint64_t features[4];		/* adds_features bitmap */
};

/* One event of the recording (an evsel, in perf's words). */
struct pm_event {
	int idx;			/* position in the attrs section */
	struct pm_attr attr;
	char *name;			/* EVENT_DESC's, else derived from attr */
	uint64_t *ids;
	uint32_t nr_ids;
	int leader_idx;			/* own idx when it leads or is alone */
	int nr_members;			/* of its group, itself included */
	char *group_name;		/* GROUP_DESC's, or NULL */
};

struct pm_build_id_entry {
	uint16_t misc;
	int32_t pid;
	uint8_t build_id[20];
	uint8_t size;			/* bytes of build_id that count */
	char *filename;
};

struct pm_pmu_mapping {
	uint32_t type;
	char *name;
};

struct pm_group_desc {
	char *name;
	uint32_t leader_idx;
	uint32_t nr_members;
};

struct pm_cpu_topology_cpu {
	int32_t core_id, socket_id, die_id;
};

/* One PMU's capabilities (its sysfs caps/ files, name=value), as perf
 * writes them: CPU_PMU_CAPS for the PMU named "cpu", PMU_CAPS for the
 * others (an armv8_pmuv3_0's "slots", a hybrid cpu_core's "pmu_name"). */
struct pm_pmu_caps {
	char *pmu;
	unsigned int feat;	/* PM_FEAT_CPU_PMU_CAPS or PM_FEAT_PMU_CAPS */
	uint32_t nr;
	char **names, **values;
};

struct pm_event_desc {
	struct pm_attr attr;
	char *name;
	uint64_t *ids;
	uint32_t nr_ids;
};

/* Everything pmprof decodes from the feature sections. */
struct pm_features {
	uint64_t present[4];			/* bitmap, as in the header */
	struct pm_section section[PM_FEAT_BITS];/* file offset and size */

	char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint64_t total_mem_kb;
	char **cmdline;
	uint32_t nr_cmdline;
	struct pm_build_id_entry *build_ids;
	uint32_t nr_build_ids;
	struct pm_pmu_mapping *pmu_mappings;
	uint32_t nr_pmu_mappings;
	struct pm_group_desc *groups;
	uint32_t nr_groups;
	uint64_t sample_time_first, sample_time_last;
	uint64_t clockid_res_ns;
	uint64_t dir_format_version;		/* DIR_FORMAT: 1 */
	struct {
		uint32_t version, clockid;
		uint64_t tod_ns, clockid_ns;
	} clock_data;
	struct {
		uint32_t version, type, level, ratio, mmap_len;
	} compressed;
	struct {
		char **core_siblings;
		uint32_t nr_core_siblings;
		char **thread_siblings;
		uint32_t nr_thread_siblings;
		struct pm_cpu_topology_cpu *cpus;	/* nr_cpus_avail entries */
		uint32_t nr_cpus;
		bool has_die;
		char **die_siblings;
		uint32_t nr_die_siblings;
	} topology;
	struct pm_event_desc *event_desc;
	uint32_t nr_event_desc;
	struct pm_pmu_caps *pmu_caps;		/* CPU_PMU_CAPS's ("cpu") first */
	uint32_t nr_pmu_caps;
};

/* A PMU capability ("slots"): of the PMU named pmu, or of the first PMU
 * that has it when pmu is NULL; NULL when the recording does not say. */
const char *pm_features__pmu_cap(const struct pm_features *f, const char *pmu,
				 const char *cap);

static inline bool pm_features__has(const struct pm_features *f,
				    unsigned int feat)
{
	return feat < PM_FEAT_BITS && ((f->present[feat / 64] >> (feat % 64)) & 1);
}

/* A record as the iterator hands it out. */
struct pm_record {
	uint64_t offset;	/* byte offset in the file or stream; for a
				   record from a compressed one, that record's */
	uint32_t part;		/* the file of a directory recording it is in
				   (pm_reader__part_name); 0 otherwise */
	uint64_t zoffset;	/* offset in the decompressed stream, valid
				   when `compressed` */
	bool compressed;	/* came out of COMPRESSED(2) */
	uint32_t type;
	uint16_t misc;
	uint16_t size;		/* header.size, header included */
	const uint8_t *data;	/* the record's bytes, header first, in the
				   file's byte order */
	const uint8_t *extra;	/* payload outside header.size:
				   HEADER_TRACING_DATA, AUXTRACE */
	uint64_t extra_size;
};

struct pm_read_value {
	uint64_t value;
	uint64_t id;
	uint64_t lost;
};

struct pm_branch_entry {
	uint64_t from, to, flags;
};

struct pm_regs {
	uint64_t abi;		/* 0: none */
	uint64_t mask;
	uint32_t nr;
	const uint64_t *regs;	/* nr values, host order */
};

/* A SAMPLE record, every field decoded into host order. */
struct pm_sample {
	const struct pm_event *event;	/* NULL only if the id is unknown */
	uint64_t sample_type;		/* the bits this sample was parsed with */
	uint16_t misc;
	uint8_t cpumode;		/* misc & PM_MISC_CPUMODE_MASK */

	uint64_t identifier;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
	uint64_t period;		/* the attr's, when not sampled */
	struct {
		uint64_t time_enabled, time_running;
		uint64_t nr;			/* 1 without GROUP */
		const struct pm_read_value *values;
	} read;
	uint64_t callchain_nr;
	const uint64_t *callchain;		/* host order */
	uint32_t raw_size;
	const uint8_t *raw;			/* uninterpreted bytes */
	uint64_t branch_nr;
	uint64_t branch_hw_idx;			/* when HW_INDEX */
	const struct pm_branch_entry *branches;
	struct pm_regs regs_user;
	uint64_t stack_user_size;
	const uint8_t *stack_user;		/* uninterpreted bytes */
	uint64_t stack_user_dyn_size;
	uint64_t weight;			/* WEIGHT or WEIGHT_STRUCT's u64 */
	uint64_t data_src;
	uint64_t transaction;
	struct pm_regs regs_intr;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	uint64_t aux_size;
	const uint8_t *aux;
};

/* The sample_id_all trailer of a non-sample record. */
struct pm_sample_id {
	const struct pm_event *event;	/* NULL when no id */
	uint64_t present;		/* PM_SAMPLE_* bits that were read */
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
};

struct pm_reader;

/*
 * A regular file is always mapped, a pipe or FIFO read as a stream. NULL
 * options: the defaults (sz as in pmprof/util.h).
 */
struct pm_reader_opts {
	size_t sz;		/* sizeof(struct pm_reader_opts) */
	/*
	 * Threads that decode a directory recording's files ahead of the
	 * caller (each file is walked by one thread at a time; the records
	 * and their order are the same with any number). 0: the environment
	 * variable PMPROF_DECODE_THREADS if set, else one per file up to the
	 * number of idle CPUs (online ones less the load average), when two
	 * or more are online and the files hold at least 4 MB; -1: none, the
	 * caller's thread decodes as it reads.
	 */
	int decode_threads;
};

/* path "-" reads standard input. name is used in messages (may be NULL). */
int pm_reader__open(struct pm_reader **out, const char *path,
		    const struct pm_reader_opts *opts, struct pm_error *err);
/* Read from a caller-owned buffer that outlives the reader. */
int pm_reader__open_mem(struct pm_reader **out, const void *buf, size_t len,
			const char *name, struct pm_error *err);
void pm_reader__delete(struct pm_reader *r);

const char *pm_reader__name(const struct pm_reader *r);
bool pm_reader__is_pipe(const struct pm_reader *r);
bool pm_reader__big_endian(const struct pm_reader *r);	/* the file's order */
const struct pm_file_header *pm_reader__header(const struct pm_reader *r);
/* In pipe mode, these fill in as HEADER_* records go past. */
const struct pm_features *pm_reader__features(const struct pm_reader *r);
size_t pm_reader__nr_events(const struct pm_reader *r);
const struct pm_event *pm_reader__event(const struct pm_reader *r, size_t idx);
const struct pm_event *pm_reader__event_by_id(const struct pm_reader *r,
					      uint64_t id);
/* ID_INDEX's cpu and tid for an id (tid -1: a per-CPU counter);
 * -ENOENT when the recording did not say. */
int pm_reader__id_info(const struct pm_reader *r, uint64_t id, int32_t *cpu,
		       int32_t *tid);
/* True when data.size was 0: records are read up to where they end. */
bool pm_reader__interrupted(const struct pm_reader *r);
/* Bytes of the input: the file's size, the sum over a directory's
 * parts; 0 for a pipe. */
uint64_t pm_reader__file_size(const struct pm_reader *r);

/* A directory recording? Its parts: DIR/data (part 0), then the data.N
 * files in the order of N; a file or pipe is one part. */
bool pm_reader__is_dir(const struct pm_reader *r);
size_t pm_reader__nr_parts(const struct pm_reader *r);
/* "data", "data.3" in a directory; the reader's name otherwise. */
const char *pm_reader__part_name(const struct pm_reader *r, size_t part);
uint64_t pm_reader__part_size(const struct pm_reader *r, size_t part);
/* Decoder threads at work on the parts (0: the caller's thread). */
unsigned int pm_reader__decode_threads(const struct pm_reader *r);
/* For an error about rec (its offset): name rec's part in err->part. */
void pm_reader__error_in(const struct pm_reader *r, const struct pm_record *rec,
			 struct pm_error *err);

/* A feature section's bytes in the file's byte order (file mode: NULL
 * for a pipe or a feature the file lacks); valid until the reader is
 * deleted. */
const uint8_t *pm_reader__feature_bytes(const struct pm_reader *r,
					unsigned int feat, size_t *len);

/*
 * A record's timestamp: 1 and *time when it has one (a SAMPLE with TIME,
 * a kernel record whose sample_id_all trailer has TIME), 0 when not (a
 * SAMPLE too short for it: its parse says why), < 0 when a record is too
 * short for its trailer. Reads nothing but rec and the events: safe from
 * any thread while no pipe header record is being applied.
 */
int pm_reader__record_time(const struct pm_reader *r,
			   const struct pm_record *rec, uint64_t *time,
			   struct pm_error *err);

/*
 * The next record: 1 and *rec filled, 0 at the end, < 0 on error (err
 * names the offset). In pipe mode, HEADER_ATTR, HEADER_FEATURE,
 * EVENT_UPDATE and ID_INDEX records are also applied to the reader's
 * events and features as they go past. COMPRESSED records are returned
 * too, followed by the records they hold (rec->compressed set).
 */
int pm_reader__next(struct pm_reader *r, struct pm_record *rec,
		    struct pm_error *err);

/* Do rec's bytes stay valid until the reader is deleted? (A record of a
 * mapped file, not one from a pipe or out of a compressed record.) */
bool pm_reader__record_stable(const struct pm_reader *r,
			      const struct pm_record *rec);

/* Move back to the first record (not for pipes). */
int pm_reader__rewind(struct pm_reader *r, struct pm_error *err);

/* The event a record belongs to, from its id (sample or trailer). */
int pm_reader__parse_sample(struct pm_reader *r, const struct pm_record *rec,
			    struct pm_sample *s, struct pm_error *err);
int pm_reader__parse_sample_id(struct pm_reader *r,
			       const struct pm_record *rec,
			       struct pm_sample_id *sid, struct pm_error *err);

/*
 * The same parsers without a reader, for records from elsewhere (the
 * recorder's ring buffers): the caller knows the event's attr and the
 * bytes' order (swap: not the host's), and owns the scratch that arrays
 * are copied into when the record's own bytes cannot be used in place.
 * s->event and sid->event stay NULL. Pointers stay valid until the next
 * parse with the same scratch, or while the record's bytes do.
 */
struct pm_sample_scratch {
	struct pm_read_value *rv;
	size_t rv_alloc;
	uint64_t *callchain;
	size_t callchain_alloc;
	struct pm_branch_entry *branches;
	size_t branches_alloc;
	uint64_t *regs;		/* user then intr */
	size_t regs_alloc;
};

void pm_sample_scratch__release(struct pm_sample_scratch *sc);
int pm_sample__parse(const struct pm_attr *attr, bool swap,
		     const struct pm_record *rec, struct pm_sample *s,
		     struct pm_sample_scratch *sc, struct pm_error *err);
/* A kernel record's sample_id_all trailer (attr has sample_id_all). */
int pm_sample_id__parse(const struct pm_attr *attr, bool swap,
			const struct pm_record *rec, struct pm_sample_id *sid,
			struct pm_error *err);
/* Where a sample_type puts the id: the u64 index in a SAMPLE's body,
 * and counted from the end of a trailer; -1 when it has none. */
int pm_sample_type__id_pos(uint64_t st);
int pm_sample_type__is_pos(uint64_t st);

/* Load helpers in the reader's byte order. */
uint16_t pm_reader__u16(const struct pm_reader *r, const void *p);
uint32_t pm_reader__u32(const struct pm_reader *r, const void *p);
uint64_t pm_reader__u64(const struct pm_reader *r, const void *p);

#endif
