// SPDX-License-Identifier: GPL-2.0
/*
 * Burst mode's phases for one counter instance (see record-int.h): what
 * to arm next, long or short, and when the kernel has stopped the group.
 * No system calls here: the recorder does the ioctls and writes the
 * THROTTLE/UNTHROTTLE marks.
 */
#include <string.h>

#include "record-int.h"

#define NSEC_PER_SEC 1000000000ULL
/* The kernel refuses periods with bit 63 set; stay well below. */
#define MAX_PHASE_EVENTS (1ULL << 62)
/* Frequency mode before a long phase has been timed: this many bursts'
 * worth of events (the rate is then measured and used). */
#define FREQ_FIRST_LONG_BURSTS 4
/* Weight of the newest long phase in the measured rate. */
#define RATE_WEIGHT 0.25

static uint32_t burst_of(const struct pm_burst *b)
{
	return b->cfg.burst ? b->cfg.burst : 1;
}

/* Events of a short phase: the opening sample's and N windows. */
static uint64_t short_phase_events(const struct pm_burst *b)
{
	return (uint64_t)b->cfg.short_period * (burst_of(b) + 1);
}

void pm_burst__init(struct pm_burst *b, const struct pm_burst_config *cfg)
{
	struct pm_period_config pc;

	memset(b, 0, sizeof(*b));
	b->cfg = *cfg;
	memset(&pc, 0, sizeof(pc));
	pc.period = cfg->freq ? short_phase_events(b) * FREQ_FIRST_LONG_BURSTS : cfg->period;
	pc.hf_period = cfg->short_period;
	pc.hf_rand = cfg->hf_rand;
	pc.hf_burst = burst_of(b);
	pc.hf_jitter = cfg->hf_jitter;
	pc.seed = cfg->seed;
	pc.hz = PM_PERIOD_DEFAULT_HZ;
	pc.max_sample_rate = 0;		/* the kernel throttles, not the model */
	pm_period__init(&b->model, &pc);
}

/* The model's next long window: its opening one first, then each LONG
 * (hf-rand and hf-jitter move them; the short ones are always S here). */
static uint64_t next_long_window(struct pm_burst *b)
{
	struct pm_overflow ov;
	uint32_t guard;

	if (!b->longs)
		return b->model.length;
	for (guard = 0; guard < burst_of(b) + 3; guard++) {
		pm_period__overflow(&b->model, 0, &ov);
		if (ov.next_kind == PM_WINDOW_LONG || ov.next_kind == PM_WINDOW_PLAIN)
			return ov.next_period;
	}
	return b->model.length;
}

/*
 * The long phase's period. Period mode: the long window less the opening
 * sample's S (which belongs to it), so that long + short phases = L + N x S.
 * Frequency mode: what the leader counts in 1/F s, less the short phase.
 */
static uint64_t long_phase_events(struct pm_burst *b)
{
	uint64_t shorts = short_phase_events(b), want;

	if (!b->cfg.freq) {
		uint64_t l = next_long_window(b);

		return l > b->cfg.short_period ? l - b->cfg.short_period : 1;
	}
	if (b->cfg.time_unit) {
		want = NSEC_PER_SEC / b->cfg.freq;
	} else if (b->rate > 0) {
		double w = b->rate * (double)NSEC_PER_SEC / (double)b->cfg.freq;

		want = w >= (double)MAX_PHASE_EVENTS ? MAX_PHASE_EVENTS : (uint64_t)w;
	} else {
		want = shorts * (FREQ_FIRST_LONG_BURSTS + 1);
	}
	if (want > MAX_PHASE_EVENTS)
		want = MAX_PHASE_EVENTS;
	return want > shorts ? want - shorts : 1;
}

void pm_burst__next(struct pm_burst *b, uint64_t now_ns, struct pm_burst_arm *arm)
{
	bool want_long = b->last != PM_BURST_LONG;

	if (want_long) {
		b->events = long_phase_events(b);
		b->longs++;
		arm->refresh = 1;
	} else {
		b->events = b->cfg.short_period;
		arm->refresh = (int)burst_of(b) + 1;
	}
	b->phase = b->last = want_long ? PM_BURST_LONG : PM_BURST_SHORT;
	b->seen = 0;
	b->armed_ns = now_ns;
	arm->phase = b->phase;
	arm->period = b->events;
}

enum pm_burst_phase pm_burst__sample(struct pm_burst *b, uint64_t t)
{
	enum pm_burst_phase ended = b->phase;
	uint32_t due;

	if (ended == PM_BURST_IDLE)
		return PM_BURST_IDLE;
	due = ended == PM_BURST_LONG ? 1 : burst_of(b) + 1;
	if (++b->seen < due)
		return PM_BURST_IDLE;
	if (ended == PM_BURST_LONG && b->cfg.freq && !b->cfg.time_unit && t > b->armed_ns) {
		double rate = (double)b->events / (double)(t - b->armed_ns);

		b->rate = b->rate > 0 ? (1 - RATE_WEIGHT) * b->rate + RATE_WEIGHT * rate : rate;
	}
	b->phase = PM_BURST_IDLE;
	return ended;
}

enum pm_burst_phase pm_burst__stopped(struct pm_burst *b)
{
	enum pm_burst_phase was = b->phase;

	b->phase = PM_BURST_IDLE;
	return was;
}
