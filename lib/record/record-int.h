/* SPDX-License-Identifier: GPL-2.0 */
/* Internals of lib/record: ring buffers, synthesis, DSO hits. */
#ifndef PMPROF_RECORD_INT_H
#define PMPROF_RECORD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/error.h"
#include "pmprof/record.h"
#include "pmprof/strbuf.h"
#include "pmprof/writer.h"

struct perf_event_header;

/* ---- ring.c ---- */

struct pm_ring {
	int fd;
	void *base;		/* the metadata page */
	uint8_t *data;		/* the data pages */
	uint64_t mask;		/* data size - 1 */
	size_t len;		/* mapped length */
	uint64_t head, tail;	/* this pass */
	uint8_t *bounce;	/* a wrapped record, made whole */
	size_t bounce_len;
};

int pm_ring__map(struct pm_ring *rb, int fd, unsigned int pages,
		 struct pm_error *err);
void pm_ring__unmap(struct pm_ring *rb);
void pm_ring__begin(struct pm_ring *rb);
const struct perf_event_header *pm_ring__next(struct pm_ring *rb, size_t *size);
void pm_ring__end(struct pm_ring *rb);

/* ---- hits.c: which DSOs samples hit, for the BUILD_ID feature ---- */

struct pm_hits;

struct pm_hits *pm_hits__new(void);
void pm_hits__delete(struct pm_hits *d);
void pm_hits__mmap(struct pm_hits *d, uint32_t pid, uint64_t start,
		   uint64_t len, const char *path);
/* A new process (pid != ppid) starts with its parent's maps. */
void pm_hits__fork(struct pm_hits *d, uint32_t pid, uint32_t ppid);
/* exec: the old maps are gone. */
void pm_hits__exec(struct pm_hits *d, uint32_t pid);
void pm_hits__hit(struct pm_hits *d, uint32_t pid, uint64_t ip, int cpumode);
/* Forget which DSOs were hit (a new file), keep the maps. */
void pm_hits__clear_hits(struct pm_hits *d);
/* The build ids of every DSO hit that has one (the kernel's first, if
 * hit); free(*out). Filenames point into d. */
size_t pm_hits__build_ids(struct pm_hits *d, struct pm_build_id_entry **out);
/* BUILD_ID entries for every DSO hit whose build id can be read. */
int pm_hits__write_build_ids(struct pm_hits *d, struct pm_writer *w,
			     struct pm_error *err);

/* ---- synth.c: records and features from /proc and the system ---- */

/* HOSTNAME OSRELEASE VERSION ARCH NRCPUS CPUDESC CPUID TOTAL_MEM. */
int pm_synth__system_features(struct pm_writer *w, struct pm_error *err);
/* The value of a "key : value" line of /proc/cpuinfo (the first CPU's). */
bool pm_cpuinfo_value(const char *key, char *out, size_t size);

/* ---- sys.c ---- */

/* 0 when the event opens here (self, any CPU, user only), else its errno. */
int pm_rec_probe_errno(uint32_t type, uint64_t config);

/* ---- pmu.c: the CPU PMU as sysfs describes it ---- */

enum pm_core_vendor { PM_CORE_NONE, PM_CORE_ARM, PM_CORE_INTEL, PM_CORE_AMD };

struct pm_core_pmu {
	enum pm_core_vendor vendor;
	char name[64];			/* its sysfs directory */
	double slots;			/* Arm: caps/slots (0: none, or 0x0) */
	char cpuid[128];		/* the CPUID perf would record */
	unsigned int family, model;	/* x86, from it */
};

/* The CPU PMU under root (NULL: /sys): 0, or -1 when there is none. The
 * CPUID is `cpuid`, else PERF_CPUID's, else (for /sys) this CPU's. */
int pm_core_pmu__find(const char *root, const char *cpuid, struct pm_core_pmu *p);
/* Its events/ lists this event. */
bool pm_core_pmu__has_event(const char *root, const struct pm_core_pmu *p,
			    const char *event);
/* CPU_PMU_CAPS and PMU_CAPS from every PMU's caps/, as perf writes them. */
int pm_synth__pmu_caps(struct pm_writer *w, const char *root, struct pm_error *err);

/* The kernel's text map ([kernel.kallsyms]_text), as perf writes it. */
int pm_synth__kernel_mmap(struct pm_writer *w, struct pm_hits *d,
			  struct pm_error *err);

/* COMM (and FORK for other threads) of each thread of pid, MMAP2 of its
 * executable maps. A process that vanished meanwhile is skipped. */
int pm_synth__process(struct pm_writer *w, struct pm_hits *d, int pid,
		      struct pm_error *err);
/* Every process in /proc. */
int pm_synth__all(struct pm_writer *w, struct pm_hits *d,
		  struct pm_error *err);

/* ---- tracing.c: HEADER_TRACING_DATA ---- */

struct pm_tracepoint_ref {
	const char *name;	/* the event's name ("sched:sched_switch") */
	uint64_t id;		/* its attr.config */
};

/* perf's tracing data (trace-event-info 0.6) for these tracepoints, from
 * the mounted tracefs, appended to out. */
int pm_tracing_data__build(const struct pm_tracepoint_ref *evs, size_t nr,
			   struct pm_strbuf *out, struct pm_error *err);

/* The thread ids of a process (sorted); returns the count, -errno. */
int pm_proc_threads(int pid, int **tids);

/* ---- leftovers.c: what a recording that did not finish leaves ---- */

/* The burst cgroup of recorder PID is PM_REC_CGROUP_PREFIX "PID". */
#define PM_REC_CGROUP_PREFIX "pmprof-record-"

/* Point out each partial file of output a recorder now gone left. */
void pm_rec_leftovers__partials(const char *output,
				void (*note)(void *ctx, const char *msg),
				void *ctx);
/* Remove the burst cgroups under root whose recorder is gone (what runs
 * in one moves to root first); says so through note. Returns how many. */
int pm_rec_leftovers__cgroups(const char *root,
			      void (*note)(void *ctx, const char *msg),
			      void *ctx);
/* What reached the disk of a partial recording: its size and the SAMPLE
 * records up to its last complete record. */
int pm_rec_leftovers__count(const char *path, uint64_t *bytes,
			    uint64_t *samples);

#endif
