/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recording with perf_event_open into perf.data (`pmprof record`).
 *
 *	struct pm_recorder *r;
 *
 *	pm_recorder__new(&r, &opts, &err);	open events, file, synthesize,
 *						fork the workload (held)
 *	pm_recorder__start(r, &err);		enable / release the workload
 *	while (pm_recorder__poll(r, 100, &err) > 0)
 *		...progress, signals (pm_recorder__stop())...
 *	pm_recorder__finish(r, &err);		drain, build ids, features, rename
 *						the file into place
 *	pm_recorder__delete(r);
 *
 * Short windows ("hf" events: an event spec with an hf-period term) are
 * recorded in one of these modes:
 *
 *  kernel  The proposed kernel ABI: 144-byte attrs with hf_sample. Only
 *          when the kernel alternates periods as asked: probed by
 *          behaviour, once per boot (pmprof/hfprobe.h); kernels without
 *          the feature fail with E2BIG, or take the attr and ignore it.
 *  burst   The emulation for stock kernels. Each counter instance of an hf
 *          leader is opened disabled and alternates two phases, each armed
 *          with PERF_EVENT_IOC_PERIOD and PERF_EVENT_IOC_REFRESH so that the
 *          kernel itself stops the group at its end (lib/record/burst.c):
 *          the long window, one overflow after L - S events (L = period -
 *          N x S, N = hf-burst, default 1, moved by hf-rand/hf-jitter
 *          through the period model), then a burst of exactly N + 1 samples
 *          S events apart. The leader counts period events a cycle, so the
 *          bursts come once per period of its count whatever an interrupt
 *          costs; pmprof re-arms each phase when it sees the sample that
 *          ended the last (the long window's sample is not written);
 *          with one burst group the ring wakes it at each burst's end only
 *          and the long window's end comes as SIGIO, which the recorder
 *          blocks in its thread from start to finish (ppoll unblocks it;
 *          a handler is installed if SIGIO had none). In
 *          frequency mode a cycle lasts 1/F s: that many nanoseconds for
 *          cpu-clock/task-clock, else at the rate measured over the long
 *          windows. Around each gap the file gets a THROTTLE record (the
 *          burst's last sample time + 1 ns, when the group stopped) and an
 *          UNTHROTTLE record (the event clock read just before the burst
 *          is armed), both with the instance's id. The first sample of a
 *          burst opens a window, the next N close windows of S events. The
 *          burst leader samples without PERIOD (every written sample is at
 *          S). The event keeps its hf terms in its name (EVENT_DESC,
 *          e.g. "cpu-clock/period=1000000,hf-period=10000/") and its attr
 *          in the file has sample_period = the total period: that is how
 *          `pmprof metrics` recognises short windows (see metrics.h).
 *          Instances (REFRESH refuses inherited events):
 *            -a / -C          per CPU (pid -1);
 *            workload         per CPU in a cgroup v2 made for the
 *                             workload (all its threads and children);
 *                             with --per-thread, or without cgroup v2
 *                             (or not root): the workload's first thread
 *                             only, without inherit (said on stderr);
 *            -p / -t          per thread (the threads present at start),
 *                             without inherit.
 *          Side-band records (COMM, MMAP2, FORK, EXIT) come from a "dummy"
 *          tracking event: disabled hf leaders get none.
 *          Needs the event clock readable from user space, so burst mode
 *          uses CLOCK_MONOTONIC unless -k gives a clock.
 *  strobe  Arm's strobing PMU (a format/strobe_period term, from Arm's
 *          prototype kernel patch for Streamline): the counter alternates
 *          sample_period = period - S and strobe_period = S by itself.
 *          The file's attr says the total period and the name keeps the
 *          hf terms, as in burst mode (see hfmode.c).
 *  fixed   Every sample at the short period (sample_period = S).
 *  off     hf terms ignored: every sample at the total period.
 *  auto    kernel if supported, else strobe, else burst, else fixed.
 */
#ifndef PMPROF_RECORD_H
#define PMPROF_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/error.h"
#include "pmprof/evspec.h"

enum pm_hf_mode {
	PM_HF_AUTO = 0,
	PM_HF_KERNEL,
	PM_HF_BURST,
	PM_HF_FIXED,
	PM_HF_OFF,
	PM_HF_STROBE,
	PM_HF_NONE,	/* (result only) no event has hf terms */
};

const char *pm_hf_mode__name(enum pm_hf_mode m);
/* "auto", "kernel", "burst", "fixed", "off", "strobe"; -1 if unknown. */
int pm_hf_mode__parse(const char *s, enum pm_hf_mode *out);

/* ---- the hf mode a recording gets (hfmode.c) ---- */

struct pm_hf_env {
	const char *sysfs_root;		/* NULL: /sys */
	bool probe_kernel;		/* ask the running kernel for its hf ABI */
};

struct pm_hf_plan {
	enum pm_hf_mode mode;		/* the one in effect; PM_HF_NONE: no hf */
	char note[512];			/* what to tell the user; "" for nothing */
	char strobe_pmu[64];		/* strobe: the PMU, its strobe_period */
	int strobe_field;		/* field (0 config, 1-3 configN) */
	uint64_t strobe_mask;		/* and bits */
};

/*
 * auto: kernel if its ABI is there (probed when env->probe_kernel), then
 * strobe (an hf event's PMU has format/strobe_period, the event takes no
 * hf-burst, hf-rand, hf-jitter or frequency, and hf-period is below half
 * its period), then burst (hf events lead their groups), then fixed. A
 * mode asked for that cannot be had is -PM_EUSAGE with why.
 */
int pm_hf_mode__plan(const struct pm_evspec_list *l, enum pm_hf_mode want,
		     const struct pm_hf_env *env, struct pm_hf_plan *plan,
		     struct pm_error *err);
/* An hf event's attr as strobe mode opens it: sample_period - hf-period,
 * hf-period in the strobe field, 128 bytes. */
int pm_hf_plan__strobe_attr(const struct pm_hf_plan *plan, struct pm_attr *a,
			    struct pm_error *err);

/* Where burst instances live. */
enum pm_burst_scope {
	PM_BURST_SCOPE_NONE = 0,
	PM_BURST_SCOPE_CPU,		/* -a / -C */
	PM_BURST_SCOPE_CGROUP,		/* per CPU, in the workload's cgroup */
	PM_BURST_SCOPE_THREAD,		/* per thread, no inherit */
};

const char *pm_burst_scope__name(enum pm_burst_scope s);

/* ---- CPU lists ---- */

struct pm_cpu_list {
	int *cpus;
	int nr;
};

/* "0-3,5": sorted, no duplicates, each online. */
int pm_cpu_list__parse(struct pm_cpu_list *l, const char *s,
		       struct pm_error *err);
int pm_cpu_list__online(struct pm_cpu_list *l, struct pm_error *err);
void pm_cpu_list__exit(struct pm_cpu_list *l);

/* ---- clocks ---- */

/* "monotonic", "CLOCK_MONOTONIC_RAW", "mono_raw", a number...; -1. */
int pm_clockid__parse(const char *s, int *clockid);
const char *pm_clockid__name(int clockid);

/* ---- the kernel's limits (limits.c) ---- */

/* kernel.perf_event_max_sample_rate: 0, or -errno if it cannot be read. */
int pm_kernel__max_sample_rate(unsigned int *hz);

enum pm_freq_fit {
	PM_FREQ_AS_ASKED,	/* at most the maximum (or no maximum known) */
	PM_FREQ_LOWERED,	/* above it: *freq is the maximum, as perf does */
	PM_FREQ_TOO_HIGH,	/* above it and strict (--strict-freq): refuse */
};

/* A sampling frequency against the kernel's maximum (0: unknown). */
enum pm_freq_fit pm_record__fit_freq(uint64_t asked, bool strict,
				     unsigned int max_rate, uint64_t *freq);

/* Who may open what: kernel.perf_event_paranoid and the capabilities
 * that bypass it. */
struct pm_perf_access {
	int paranoid;
	bool privileged;	/* CAP_PERFMON or CAP_SYS_ADMIN in effect */
};

/* This process, now (paranoid 2, the kernel's default, if unreadable). */
void pm_perf_access__read(struct pm_perf_access *acc);
/*
 * The highest perf_event_paranoid at which a caller without CAP_PERFMON
 * may open this event: 2 to sample a process's user space, 1 with kernel
 * code, 0 CPU-wide (-a, -C: pid -1 or a cgroup), -1 for raw tracepoint
 * data. Levels above 2 (Debian's 3) forbid everything.
 */
int pm_perf_access__needed(const struct pm_attr *a, bool cpu_wide);
/* perf's fallback for EACCES/EPERM: would leaving out the kernel
 * (exclude_kernel, exclude_hv) make the event open? Never for events that
 * already exclude the user (":k"). */
bool pm_perf_access__user_only_helps(const struct pm_perf_access *acc,
				     const struct pm_attr *a, bool cpu_wide);
/* The event's name after that fallback, as perf renames it: "cycles" ->
 * "cycles:u", "cycles:p" -> "cycles:pu", "cpu/event=1/" -> "cpu/event=1/u". */
void pm_perf_access__user_name(const char *name, char *out, size_t size);
/* The message for an EACCES/EPERM (errno e): what the paranoid level
 * allows, which value suffices, and the ways out (root, CAP_PERFMON,
 * sysctl, :u). Returns -e. */
int pm_perf_access__error(const struct pm_perf_access *acc, const struct pm_attr *a,
			  bool cpu_wide, const char *name, int e, struct pm_error *err);

/* ---- perf_event_open ---- */

/*
 * perf_event_open with an attr encoded at attr->size (128 or 144). On
 * failure, a message that says what to do: perf_event_paranoid and the
 * sysctl for EACCES/EPERM, "not supported" for events the machine lacks,
 * the attr size the kernel wants for E2BIG.
 */
int pm_perf_event_open(const struct pm_attr *attr, int pid, int cpu,
		       int group_fd, unsigned long flags, const char *name,
		       struct pm_error *err);

/* Can this event be opened here (self, any CPU)? */
bool pm_recorder__probe_event(uint32_t type, uint64_t config);

/* ---- the recorder ---- */

struct pm_record_opts {
	size_t sz;			/* sizeof(struct pm_record_opts) */
	struct pm_evspec_list *events;	/* after pm_evspec__apply_record */
	const char *output;		/* NULL: perf.data */
	bool system_wide;		/* -a */
	const char *cpu_list;		/* -C */
	const char *pid_list;		/* -p: comma-separated */
	const char *tid_list;		/* -t */
	bool per_thread;		/* --per-thread: events per thread on any
					   CPU, a ring buffer per thread */
	char *const *argv;		/* the workload, NULL-terminated, or NULL */
	int clockid;			/* -k; -1: none given */
	unsigned int mmap_pages;	/* -m; 0: default */
	enum pm_hf_mode hf_mode;
	const char *sysfs_root;		/* PMUs (strobe, caps): NULL for /sys */
	uint64_t seed;			/* burst jitter */
	int compression_level;		/* -z: zstd level of the ring buffers'
					   records (COMPRESSED); 0: none. Not for
					   a pipe. */
	unsigned int delay_ms;		/* -D: events enabled this long after the
					   start (the events come from
					   pm_evspec__apply_record with delay) */
	uint32_t cmdline_argc;		/* CMDLINE feature */
	const char *const *cmdline_argv;
	/* The build-id cache to fill at the end (perf's ~/.debug layout,
	 * symbols.h), NULL for none (-N). */
	const char *buildid_dir;
	/* Messages for the user (chosen mode, scope, fallbacks); may be NULL. */
	void (*note)(void *ctx, const char *msg);
	void *note_ctx;
	/* pid_list is a snapshot of /proc (-u): a process of it that has
	 * ended since is skipped, as perf does; none left is ESRCH. */
	bool pids_may_end;
};

struct pm_record_stats {
	enum pm_hf_mode mode;		/* the one in effect */
	enum pm_burst_scope scope;
	uint64_t samples;		/* SAMPLE records written */
	uint64_t records;		/* all records written */
	uint64_t bytes;			/* file offset */
	uint64_t lost;			/* samples lost (LOST records) */
	uint64_t lost_records;
	uint64_t throttles, unthrottles;/* the kernel's (not burst gaps) */
	uint64_t bursts;		/* burst mode: bursts completed */
	uint64_t wakeups;
	int nr_instances;		/* counter instances opened */
	int nr_rings;
	/* workload */
	bool have_workload;
	bool workload_exited;
	int workload_status;		/* wait status */
	double workload_user, workload_sys;	/* its CPU seconds (rusage) */
	int exec_errno;			/* the workload could not start */
	uint64_t switches;		/* --switch-output: files closed so far */
	uint64_t total_bytes;		/* of the files closed so far */
};

struct pm_recorder;

int pm_recorder__new(struct pm_recorder **out, const struct pm_record_opts *opts,
		   struct pm_error *err);
/* Enable the events; release the workload (it then execs). */
int pm_recorder__start(struct pm_recorder *r, struct pm_error *err);
/*
 * Wait up to timeout_ms for data, drain the ring buffers (re-arming each
 * burst phase that ended). 1 while recording, 0 when done (the workload
 * exited, or there is none and pm_recorder__stop() was called), < 0 error.
 */
int pm_recorder__poll(struct pm_recorder *r, int timeout_ms, struct pm_error *err);
/* Stop: signal the workload (SIGTERM) or, without one, end the loop. */
void pm_recorder__stop(struct pm_recorder *r);
/* Drain, disable, write build ids and features, close the file. */
int pm_recorder__finish(struct pm_recorder *r, struct pm_error *err);
/*
 * --switch-output: drain, finish the file (build ids, features, header),
 * rename it to rename_to, and go on in a new file of the same name with
 * the same events and ids, the system features and the targets
 * synthesized again (the running workload too), so that each file reads
 * alone. Not for a pipe.
 */
int pm_recorder__switch_output(struct pm_recorder *r, const char *rename_to,
			       struct pm_error *err);
const struct pm_record_stats *pm_recorder__stats(const struct pm_recorder *r);
const char *pm_recorder__output(const struct pm_recorder *r);
/*
 * After a failed pm_recorder__finish() (a full disk...): the partial file
 * kept, OUTPUT.PID.partial, where stats' bytes and samples say what
 * reached the disk; NULL when there is none (standard output, a device).
 * A recorder that is killed leaves the same file, whose header is valid
 * from the start: it reads up to its last complete record.
 */
const char *pm_recorder__partial(const struct pm_recorder *r);
void pm_recorder__delete(struct pm_recorder *r);

/* ---- --switch-output, --max-size (switch-output.c) ---- */

enum pm_switch_mode {
	PM_SWITCH_NONE = 0,
	PM_SWITCH_SIGNAL,	/* on SIGUSR2 (perf's default) */
	PM_SWITCH_SIZE,		/* when the file reaches size bytes */
	PM_SWITCH_TIME,		/* every time_ns */
};

struct pm_switch_output {
	enum pm_switch_mode mode;
	uint64_t size;
	uint64_t time_ns;
};

/* "signal" (or NULL), a size ("100M", B/K/M/G) or a time ("30s",
 * s/m/h/d); -1 if none of these. */
int pm_switch_output__parse(const char *s, struct pm_switch_output *so);
/* "BASE.YYYYmmddHHMMSScc" (now, local time), a name no file has yet; -1
 * if it does not fit. */
int pm_switch_output__name(const char *base, char *buf, size_t size);
/* A size with perf's units: "123", "4K", "2M", "1G" (B allowed): bytes. */
int pm_size__parse(const char *s, uint64_t *bytes);

/* ---- --metrics (metrics-choice.c) ---- */

struct pm_metrics_request {
	const char *set;		/* "default" (or NULL) or "topdown" */
	const char *sysfs_root;		/* NULL: this machine, whose events are
					   probed by opening them; else a tree
					   of files describing another one */
	const char *cpuid;		/* x86: NULL for PERF_CPUID's, else
					   this CPU's (not for a --sysfs tree) */
	uint64_t period;		/* -c: the long period; 0: 1,000,000
					   cycles (10 ms of cpu-clock) */
	uint64_t freq;			/* -F: the kernel picks the long period
					   from this frequency instead */
	bool bursts;			/* the windows will be burst mode's: with
					   neither -c nor -F, cycles then get
					   bursts of 8 every 8,000,000, the same
					   windows a second for a fraction of
					   the recorder's wakeups */
};

struct pm_metrics_choice {
	bool hw;			/* a hardware PMU was found */
	int nr_groups;
	char spec[1024];		/* the -e string */
	char why[512];			/* what was left out and why, which
					   fallback was taken */
};

/*
 * The groups this machine offers for per-function metrics (see
 * metrics-choice.c): cycles leading with 300-cycle windows (100 us of
 * cpu-clock without a PMU), each group no larger than the PMU's counters.
 * 0, or -PM_EUSAGE for an unknown set or a period the windows do not fit.
 */
int pm_recorder__choose_metrics(const struct pm_metrics_request *rq,
				struct pm_metrics_choice *c, struct pm_error *err);

#endif
