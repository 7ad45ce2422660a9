/* SPDX-License-Identifier: GPL-2.0 */
/* Internals of lib/record: ring buffers, synthesis, DSO hits, burst phases. */
#ifndef PMPROF_RECORD_INT_H
#define PMPROF_RECORD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/error.h"
#include "pmprof/period.h"
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

/* The kernel's text, _text to _etext, from /proc/kallsyms (start 0 when
 * kptr_restrict hides the addresses). Slow: some kernels list nearly the
 * whole file before _etext. */
struct pm_kernel_text {
	uint64_t start, end;
};

void pm_synth__kernel_text(struct pm_kernel_text *t);
/* The kernel's text map ([kernel.kallsyms]_text), as perf writes it. */
int pm_synth__kernel_mmap(struct pm_writer *w, const struct pm_kernel_text *t,
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

/* ---- burst.c: the phases of one burst-mode counter instance ---- */

/*
 * The kernel counts both phases itself: each is armed with
 * PERF_EVENT_IOC_PERIOD (which also drops what was left of the last
 * period) and PERF_EVENT_IOC_REFRESH, which stops the group after that
 * many overflows:
 *   LONG   1 overflow after L - S events, L the period model's long
 *          window (the total period minus N x S, moved by hf-rand and
 *          hf-jitter); its sample ends the long window;
 *   SHORT  N + 1 overflows S events apart: the first opens, the next N
 *          close windows of S events.
 * One LONG and one SHORT phase make a cycle of L + N x S events: the
 * total period, counted by the event itself, so bursts come once per
 * period of the leader's count whatever an interrupt costs. The recorder
 * re-arms the next phase as soon as it sees the sample that ended one.
 * In frequency mode (-F, freq=) the long phase lasts 1/F s less the
 * short phase: events for cpu-clock/task-clock, else at the rate measured
 * over the long phases (one interrupt each, unlike a burst).
 */
enum pm_burst_phase {
	PM_BURST_IDLE = 0,	/* not armed (before start, after a stop) */
	PM_BURST_LONG,
	PM_BURST_SHORT,
};

struct pm_burst_config {
	uint64_t period;	/* the total period P (period mode) */
	uint64_t freq;		/* cycles per second; 0: period mode */
	uint32_t short_period;	/* S */
	uint32_t burst;		/* N, short windows per burst (0: 1) */
	uint32_t hf_rand, hf_jitter;
	uint64_t seed;
	bool time_unit;		/* the event counts nanoseconds */
};

struct pm_burst {
	struct pm_burst_config cfg;
	struct pm_period model;	/* period mode: the long windows */
	enum pm_burst_phase phase;	/* running, IDLE once stopped */
	enum pm_burst_phase last;	/* the last one armed */
	uint32_t seen;		/* samples of the running phase */
	uint64_t armed_ns;	/* when it was armed (event clock) */
	uint64_t events;	/* its period */
	uint64_t longs;		/* long phases armed */
	double rate;		/* frequency mode: events per ns, 0: unknown */
};

/* What to arm: PERF_EVENT_IOC_PERIOD period, PERF_EVENT_IOC_REFRESH refresh. */
struct pm_burst_arm {
	enum pm_burst_phase phase;
	uint64_t period;
	int refresh;
};

void pm_burst__init(struct pm_burst *b, const struct pm_burst_config *cfg);
/* The phase to arm now (at now_ns, the event clock): a long one first,
 * then they alternate. The burst counts as armed from here. */
void pm_burst__next(struct pm_burst *b, uint64_t now_ns, struct pm_burst_arm *arm);
/* A sample of the instance at time t. When it was the running phase's
 * last (the kernel has stopped the group), that phase; else IDLE. */
enum pm_burst_phase pm_burst__sample(struct pm_burst *b, uint64_t t);
/* The running phase is over without all its samples seen (LOST): the
 * phase that was running (IDLE: none). */
enum pm_burst_phase pm_burst__stopped(struct pm_burst *b);

/*
 * Arm a stopped (or stopping) burst leader for its next phase: the first
 * overflow `period` events from now, the group stopped by the kernel
 * after `refresh` of them. The kernel stops a group whose REFRESH limit
 * ran out in two steps: the overflow marks the disable pending and an
 * irq_work does it (kernel/events/core.c, perf_event_disable_inatomic).
 * The sample is in the ring before that work runs, so a reader that
 * sees it early (another CPU, already draining) and re-arms with PERIOD
 * and REFRESH alone finds the event still active (REFRESH's enable does
 * nothing) and the pending disable then stops it for good: the group
 * records nothing more. PERF_EVENT_IOC_DISABLE first, done synchronously
 * on the event's CPU, schedules the event out, which clears the pending
 * disable; PERF_EVENT_IOC_PERIOD also drops what was left of the last
 * period (period_left), so the phase's first overflow comes exactly its
 * period after the re-arm instead of whenever the stopped period would
 * have ended (at once, for cpu-clock's hrtimer). name is for the errors.
 * tests/unit/test-burst-rearm.c makes that race happen.
 */
int pm_rec_burst__rearm(int fd, uint64_t period, int refresh, const char *name,
			struct pm_error *err);

/* ---- cgroup-perf.c: perf events on a cgroup v2 ---- */

/*
 * Make sure perf_event_open takes the cgroup open as dir_fd (under the
 * cgroup2 mount root) on cpu: on a fresh boot the kernel gives cgroups no
 * perf_event state (ENOENT) until a controller is first enabled in the
 * root's cgroup.subtree_control, so then one is enabled and disabled
 * again, and did says so. 0 when an event opens on the cgroup, else
 * -errno and why says why not.
 */
int pm_rec_cgroup__perf_ready(const char *root, int dir_fd, int cpu, char *did, size_t did_size,
			      char *why, size_t why_size);

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
