/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder's state, shared by its parts: events.c (the mode and the
 * attrs), open.c (instances, rings, targets), burst.c (the burst
 * emulation and its cgroup), drain.c (the rings into the writer),
 * output.c (the file around the records) and record.c (the API).
 */
#ifndef PMPROF_RECORDER_H
#define PMPROF_RECORDER_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "record-int.h"
#include "pmprof/attr.h"
#include "pmprof/evspec.h"
#include "pmprof/hash.h"
#include "pmprof/period.h"
#include "pmprof/perfdata.h"
#include "pmprof/record.h"
#include "pmprof/writer.h"

#define PM_REC_DEFAULT_PAGES 512	/* 2 MB per ring: nothing lost at 100k samples/s */
#define PM_REC_STOP_GRACE_NS 2000000000ULL	/* SIGKILL a workload that ignores SIGTERM */
/* While recording, drained records reach the file (and a round ends) at
 * the first drain this long after the last write; the workload's exit is
 * looked for as often (at once after a signal or a quiet poll). */
#define PM_REC_FLUSH_NS 10000000ULL

struct rec_event {
	const struct pm_evspec_event *spec;
	struct pm_attr open;		/* what perf_event_open gets */
	struct pm_attr file;		/* what the file says */
	char *name;
	int leader, nr_members;
	bool hf, burst, dummy;
	uint64_t *ids;
	uint32_t nr_ids;
	size_t alloc_ids;
	/* burst */
	uint32_t burst_n;		/* N: a burst is N + 1 samples */
	uint64_t short_period;
	bool time_unit;			/* counts nanoseconds */
	bool freq;
	uint64_t freq_hz;
};

struct instance {
	int fd;
	int ev;
	int cpu, tid;			/* -1: any */
	int ring;
	uint64_t id;
	/* burst state */
	struct pm_burst burst;		/* its phases (burst.c) */
	uint64_t t_last;		/* the last sample's time */
	bool async;			/* O_ASYNC set on its fd */
	bool loud;			/* quiet wakeups lost their count: a signal per sample */
	uint32_t pid_last, tid_last, cpu_last;
};

struct pm_recorder {
	struct pm_record_opts o;
	struct pm_hf_plan hf;		/* the hf mode and, for strobe, its field */
	struct rec_event *ev;
	int nr_ev;
	struct instance *inst;
	size_t nr_inst, alloc_inst;
	struct pm_hash id_index;	/* id -> instance */
	struct pm_ring *rings;
	int nr_rings;
	struct pollfd *pfd;
	struct pm_writer *w;
	struct pm_outfile *file;	/* the output, renamed into place at finish */
	char *partial;			/* kept after a failed finish */
	bool pipe_out;
	struct pm_hits *hits;
	struct pm_record_stats st;
	char *output;
	struct pm_cpu_list cpus;
	int *threads;			/* -1: per CPU */
	int nr_threads;
	bool use_clockid;
	int clockid;
	uint64_t sample_type0;		/* the first event's: where ids are */
	unsigned int pages;
	bool workload_only;		/* the target is the workload alone */
	pid_t child;
	int go_fd, err_fd;
	int cgroup_fd;
	char *cgroup_dir;
	uint64_t first_time, last_time;
	bool have_time;
	bool stopping, done, started, finished;
	uint64_t stop_ns;
	bool round_dirty;
	bool burst_quiet;		/* burst.c: woken only at phase ends */
	bool sigio_blocked;		/* pm_recorder__start blocked SIGIO */
	sigset_t poll_mask;		/* ... which ppoll unblocks */
	uint64_t flushed_ns, reaped_ns;	/* the last flush, wait4 (monotonic) */
	uint64_t enable_at;		/* -D: monotonic ns to enable the events; 0 done */
	struct pm_writer_opts wo;	/* for the files --switch-output opens */
	struct pm_sample_scratch scratch;	/* drain.c's sample parser */
	struct pm_kernel_text ktext;	/* read before the fork (record.c) */
};

/* ---- record.c ---- */
uint64_t pm_rec__clock_ns(int clockid);
/* The events' clock (-k, or CLOCK_MONOTONIC). */
uint64_t pm_rec__now_ns(const struct pm_recorder *r);
/* A line for the user through opts.note (the library prints nothing). */
void pm_rec__note(const struct pm_recorder *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- events.c: the hf mode and every event's attrs ---- */
int pm_rec_events__choose_mode(struct pm_recorder *r, struct pm_error *err);
/* r->ev from the spec list for the chosen mode (and the tracking dummy
 * burst mode adds). */
void pm_rec_events__configure(struct pm_recorder *r);

/* ---- open.c: instances, rings, targets ---- */
int pm_rec_open__all(struct pm_recorder *r, struct pm_error *err);
/* Undo pm_rec_open__all: every instance closed, every ring unmapped. */
void pm_rec_open__close_all(struct pm_recorder *r);
/* After EACCES/EPERM: the events reduced to user space when
 * perf_event_paranoid allows that; false when it would not help. */
bool pm_rec_open__user_only(struct pm_recorder *r);
/* After EINVAL: inherit dropped from the events that sample READ (kernels
 * before 6.12 refuse both); false when none had both. */
bool pm_rec_open__no_inherit(struct pm_recorder *r);
/* The threads of a -p (whole processes) or -t list into r->threads. */
int pm_rec_open__add_threads(struct pm_recorder *r, const char *list, bool whole_process,
			     struct pm_error *err);
/* Fork the workload, held until pm_recorder__start. */
int pm_rec_open__fork_workload(struct pm_recorder *r, struct pm_error *err);
/* The instance of a sample id (NULL: none of ours). */
struct instance *pm_rec_open__by_id(struct pm_recorder *r, uint64_t id);

/* ---- burst.c: the burst emulation ---- */
/* The cgroup v2 mount (0), or -1. */
int pm_rec_burst__cgroup_root(char *out, size_t size);
/* The workload into a cgroup of its own that takes perf events, for
 * CGROUP scope; 0, or -1 with the reason in why and then thread scope. */
int pm_rec_burst__cgroup_make(struct pm_recorder *r, char *why, size_t size);
void pm_rec_burst__cgroup_remove(struct pm_recorder *r);
/* Whether the burst leaders wake the recorder at phase ends only (one
 * burst group, nothing else counting wakeup events): their wakeup_events
 * then say so. After pm_rec_events__configure's attrs. */
void pm_rec_burst__configure_wakeups(struct pm_recorder *r);
/* A burst leader's fd just opened: its signals (quiet wakeups) to us. */
int pm_rec_burst__own_fd(struct pm_recorder *r, int fd, struct pm_error *err);
/* The signal quiet wakeups use, blocked but where ppoll unblocks it;
 * and undone. */
void pm_rec_burst__signals(struct pm_recorder *r, bool on);
/* A new instance of a burst event: its phases (pm_burst). */
void pm_rec_burst__init(struct pm_recorder *r, struct instance *in);
/* Every burst leader armed for its first phase, a long one. */
int pm_rec_burst__arm_all(struct pm_recorder *r, struct pm_error *err);
/* Whether burst instance in runs its long phase: its sample only ends
 * that and is not written. */
bool pm_rec_burst__in_gap(const struct instance *in);
/* A sample of burst instance in at time: the phase it ended (if it did)
 * is marked and the next one armed. */
int pm_rec_burst__sample(struct pm_recorder *r, struct instance *in, uint64_t time,
			 struct pm_error *err);
/* LOST for instance in, at t (0: unknown): the running phase is over. */
int pm_rec_burst__lost(struct pm_recorder *r, struct instance *in, uint64_t t,
		       struct pm_error *err);
/* At the end: a burst cut short still gets its closing mark. */
int pm_rec_burst__close_all(struct pm_recorder *r, struct pm_error *err);

/* ---- drain.c: the rings into the writer ---- */
int pm_rec_drain(struct pm_recorder *r, bool lazy, struct pm_error *err);

/* ---- output.c: the file around the records ---- */
/* Header, attrs, features, id index and the synthesized maps; again: a
 * --switch-output file. */
int pm_rec_output__open(struct pm_recorder *r, const struct pm_writer_opts *wo, bool again,
			struct pm_error *err);
int pm_rec_output__close(struct pm_recorder *r, struct pm_error *err);

#endif
