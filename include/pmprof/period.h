/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's sample-period state machine as a pure, deterministic model:
 * the proposed hf-period series (alternating long and short windows, the
 * hf_sample_rand jitter), frequency mode, throttling, and pmprof's
 * extensions (bursts of short windows, a plain jitter on both periods).
 * The recorder's emulation, the simulator and the tests all use it.
 *
 * Rules (from the seed's kernel patches and kernel/events/core.c):
 *  - Windows: the first is an OPENING one of period - hf_period x burst
 *    (the kernel's period - hf_period), then hf_burst SHORT windows of
 *    hf_period, then a LONG one of period - hf_period x burst, and so on,
 *    so long + shorts = period. Without hf, or when the base period is not
 *    above hf_period x burst, windows are PLAIN (the base period).
 *  - hf_rand = r (1-15) moves a window that is not a short one by a
 *    uniform draw from [-2^r/2, 2^r/2), as the kernel does; the opening
 *    window is never moved. hf_jitter = J (ours) moves LONG and SHORT
 *    windows by a uniform draw from [-(J/2), J - J/2). Lengths never
 *    drop below 1.
 *  - Frequency mode (freq != 0): the base starts at 1 and each overflow
 *    that ends a non-short window feeds perf_adjust_period's low-pass
 *    filter (target = count x 1e9 / (ns x freq); base += (target - base
 *    +-7) / 8, truncated toward zero; never 0), with ns the time since the
 *    previous feeding overflow (ignored unless 0 < ns < 2 ticks). A short
 *    window never feeds it. With tick_adjust the tick does the same with
 *    the events of the last tick (perf_adjust_freq_unthr_context) and, if
 *    the running window has more than 8 x base left, restarts it.
 *  - Throttling: per tick, the first ceil(max_sample_rate / hz)
 *    interrupts pass; the next one logs THROTTLE (its sample is still
 *    written, after the THROTTLE record, as the kernel does) and stops
 *    the event; the next tick logs UNTHROTTLE and restarts it with the
 *    window it had queued. Events counted while stopped are lost.
 *  - The period a sample reports (PERF_SAMPLE_PERIOD) is the length of
 *    the window that just ended.
 * Simplification: the kernel computes each next period one overflow
 * ahead and, on x86, passes the newly programmed period to the frequency
 * filter; the model computes a window when it starts and feeds the
 * filter with the window that ended. Both give the same sequence in
 * period mode.
 *
 * Randomness: splitmix64 (Steele, Lea, Flood 2014) seeded with cfg.seed;
 * the same configuration always gives the same sequence. Uniform draws in
 * [0, n) use the high half of a 64x64 multiply (Lemire).
 */
#ifndef PMPROF_PERIOD_H
#define PMPROF_PERIOD_H

#include <stdbool.h>
#include <stdint.h>

#include "pmprof/attr.h"
#include "pmprof/error.h"

enum pm_window_kind {
	PM_WINDOW_PLAIN,	/* no alternation */
	PM_WINDOW_OPENING,	/* the first, period - hf x burst, no jitter */
	PM_WINDOW_LONG,
	PM_WINDOW_SHORT,
};

const char *pm_window_kind_name(enum pm_window_kind k);

#define PM_PERIOD_DEFAULT_HZ 250
#define PM_PERIOD_DEFAULT_MAX_RATE 100000	/* perf_event_max_sample_rate */

struct pm_period_config {
	uint64_t period;	/* sample_period (period mode) */
	uint64_t freq;		/* sample_freq: frequency mode when non-zero */
	uint32_t hf_period;	/* 0: no short windows */
	uint32_t hf_rand;	/* 0-15 */
	uint32_t hf_burst;	/* short windows per long one; 0 means 1 */
	uint32_t hf_jitter;	/* ours: jitter width in events, both periods */
	uint64_t seed;
	uint32_t hz;		/* ticks per second; 0: 250 */
	uint32_t max_sample_rate; /* 0: never throttle */
	bool tick_adjust;	/* frequency mode: also adjust at each tick */
};

/* A configuration from an attr (period or freq, hf_sample) plus the two
 * terms the kernel ABI does not carry. hz/throttling/seed: defaults (hz
 * 250, max rate 100000, tick_adjust on, seed 0). */
void pm_period_config__from_attr(struct pm_period_config *cfg,
				 const struct pm_attr *attr, uint32_t hf_burst,
				 uint32_t hf_jitter);

/* The kernel's open-time checks and ours. 0 or -PM_EUSAGE. */
int pm_period_config__validate(const struct pm_period_config *cfg,
			       struct pm_error *err);

struct pm_period {
	struct pm_period_config cfg;
	uint64_t base;		/* sample_period_base */
	uint64_t length;	/* the running window */
	uint64_t left;		/* events until it ends */
	enum pm_window_kind kind;
	uint32_t shorts_due;	/* short windows still to come in this burst */
	uint64_t rng;
	uint64_t freq_stamp;	/* time of the last feeding overflow */
	bool freq_stamp_valid;
	uint64_t tick_events;	/* events counted since the last tick */
	uint32_t max_per_tick;	/* 0: no throttling */
	uint32_t interrupts;	/* overflows since the last tick */
	bool throttled;
	uint64_t overflows;
};

/* What one overflow did. */
struct pm_overflow {
	uint64_t period;	/* the window that ended: the sample's period */
	enum pm_window_kind kind;
	bool feeds_freq;	/* this overflow fed the frequency filter */
	bool throttle;		/* THROTTLE precedes this sample; event stopped */
	uint64_t base;		/* the base period after this overflow */
	uint64_t next_period;	/* the window now queued/running */
	enum pm_window_kind next_kind;
};

struct pm_tick {
	bool unthrottle;	/* UNTHROTTLE logged, event restarted */
	bool adjusted;		/* frequency mode: the base moved */
	bool restarted;		/* the running window was restarted (8x rule) */
};

/* Start: the opening window is set up. cfg should have been validated. */
void pm_period__init(struct pm_period *m, const struct pm_period_config *cfg);

/* Events until the running window ends; UINT64_MAX while throttled. */
uint64_t pm_period__left(const struct pm_period *m);

/*
 * Count *events more events at time now_ns (the time of the overflow if
 * one happens within them). Returns 1 when the running window ends within
 * them: *events is reduced by those consumed and ov describes the
 * overflow; call again with the rest. Returns 0 when all were counted (or
 * lost while throttled).
 */
int pm_period__count(struct pm_period *m, uint64_t *events, uint64_t now_ns,
		     struct pm_overflow *ov);

/* The running window ends now (whatever is left of it). */
void pm_period__overflow(struct pm_period *m, uint64_t now_ns,
			 struct pm_overflow *ov);

/* A scheduler tick at now_ns. Call it every 1/hz seconds. */
void pm_period__tick(struct pm_period *m, uint64_t now_ns, struct pm_tick *t);

/* The filter alone: perf_calculate_period and perf_adjust_period's
 * low-pass step. Exposed for tests. */
uint64_t pm_period_target(uint64_t count, uint64_t nsec, uint64_t freq);
uint64_t pm_period_lowpass(uint64_t base, uint64_t target);

/* splitmix64, the generator the model uses. */
uint64_t pm_splitmix64(uint64_t *state);

#endif
