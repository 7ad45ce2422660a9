/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Does the running kernel alternate sample periods as the hf_sample ABI
 * asks? (`pmprof record --hf-mode auto|kernel`.)
 *
 * The 144-byte attr slot that the hf-period series gives hf_sample is
 * config4 in newer kernels, and a kernel built with the feature can have
 * it turned off: "perf_event_open took the attr" does not mean "the
 * kernel alternates periods". So the probe asks by behaviour: it opens
 * the event with sample_period P and hf_sample_period H, runs a short
 * busy loop on the calling thread, and reads the samples' periods back.
 * The kernel has the feature when they come P - H, H, P - H, H, ... from
 * the first sample on; a kernel without it fails with E2BIG (or EINVAL),
 * or gives every sample the same period.
 *
 * The answer is a property of the running kernel: it is cached per boot
 * (keyed by /proc/sys/kernel/random/boot_id and the event probed) in
 * $XDG_CACHE_HOME/pmprof/hf-probe (default ~/.cache/pmprof/hf-probe; the
 * environment variable PMPROF_HF_PROBE_CACHE names another file, or
 * "none" for no cache). Only definite answers are cached, never "could
 * not probe" (no permission, no such event). The file is read only when
 * it is a regular file of the user's, not writable by others.
 */
#ifndef PMPROF_HFPROBE_H
#define PMPROF_HFPROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pm_hf_verdict {
	PM_HF_ABSENT = 0,	/* the kernel does not alternate periods */
	PM_HF_PRESENT = 1,	/* it does, exactly as asked */
	PM_HF_UNCLEAR = -1,	/* (judge only) this run cannot tell */
};

/* The probe's periods: P and H, in the event's unit. */
struct pm_hf_probe_plan {
	uint64_t period;
	uint64_t hf_period;
	size_t samples;		/* at least this many to decide */
};

/* The plan for an event: cycles-like counts or cpu-clock/task-clock ns. */
void pm_hf_probe__plan(uint32_t type, uint64_t config, struct pm_hf_probe_plan *p);

/*
 * Judge the periods of n samples (in order) against the plan. PRESENT
 * when they alternate exactly (P - H first); ABSENT when every period is
 * the same; UNCLEAR when there are too few samples or they alternate only
 * in part (a sample lost). why: a sentence for the user, either way.
 */
enum pm_hf_verdict pm_hf_probe__judge(const struct pm_hf_probe_plan *p,
				      const uint64_t *periods, size_t n,
				      char *why, size_t why_size);

struct pm_hf_probe {
	enum pm_hf_verdict verdict;	/* PRESENT or ABSENT */
	bool cached;			/* this boot's answer, from the cache */
	bool definite;			/* a property of the kernel (cacheable) */
	uint32_t type;			/* the event probed */
	uint64_t config;
	char why[320];
};

/*
 * Probe the kernel with event (type, config), or take this boot's cached
 * answer. 0; the answer in *out (ABSENT also when the event cannot be
 * opened at all: then definite is false and why says so).
 */
int pm_hf_probe__kernel(uint32_t type, uint64_t config, struct pm_hf_probe *out);

/*
 * The event to probe for an hf leader (type, config): cpu-clock and
 * task-clock themselves (the kernel's hrtimer path), otherwise the
 * hardware cycles counter when it opens, else cpu-clock.
 */
void pm_hf_probe__event_for(uint32_t type, uint64_t config,
			    uint32_t *probe_type, uint64_t *probe_config);

/* ---- the per-boot cache (exposed for tests) ---- */

/* The cache file's path; 0, or -1 when there is none (no HOME, "none"). */
int pm_hf_probe__cache_path(char *buf, size_t size);
/* This boot's answer for the event from the file: 1 found, 0 not. */
int pm_hf_probe__cache_get(const char *path, const char *boot_id, uint32_t type,
			   uint64_t config, struct pm_hf_probe *out);
/* Record an answer (replacing older boots' lines); 0 or -errno. */
int pm_hf_probe__cache_put(const char *path, const char *boot_id,
			   const struct pm_hf_probe *p);

#endif
