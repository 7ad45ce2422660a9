// SPDX-License-Identifier: GPL-2.0
/*
 * Burst mode's phases (lib/record/burst.c) against a fake kernel that
 * does what PERF_EVENT_IOC_PERIOD + PERF_EVENT_IOC_REFRESH do: count the
 * armed period, overflow, reload it, and stop after `refresh` overflows.
 * The leader's count at the end of each burst is then known exactly: the
 * spec (period P, N windows of S) says the k-th burst must end at k x P
 * counted events, whatever the events cost in time.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "record/record-int.h"

struct fake {
	struct pm_burst b;
	uint64_t count;		/* what the leader counted */
	uint64_t ns;		/* the event clock */
	double ns_per_event;
	uint64_t ends[256];	/* the count at each burst's end */
	uint64_t longs[256];	/* each long phase's period */
	int nr_ends, nr_longs;
};

static struct pm_burst_config config(uint64_t period, uint32_t s, uint32_t n)
{
	struct pm_burst_config c;

	memset(&c, 0, sizeof(c));
	c.period = period;
	c.short_period = s;
	c.burst = n;
	return c;
}

/* One event a nanosecond unless ns_per_event says otherwise. */
static void fake_init(struct fake *f, const struct pm_burst_config *c, double ns_per_event)
{
	memset(f, 0, sizeof(*f));
	f->ns_per_event = ns_per_event;
	pm_burst__init(&f->b, c);
}

/* Arm and run phases until `bursts` bursts have ended, checking that each
 * phase ends exactly at its last overflow and that they alternate. */
static void fake_run(struct fake *f, int bursts)
{
	struct pm_burst_arm a;
	enum pm_burst_phase want = PM_BURST_LONG;

	while (f->nr_ends < bursts) {
		int k;

		pm_burst__next(&f->b, f->ns, &a);
		assert_int_equal(a.phase, want);
		assert_true(a.period >= 1);
		if (a.phase == PM_BURST_LONG) {
			assert_int_equal(a.refresh, 1);
			f->longs[f->nr_longs++] = a.period;
		} else {
			assert_int_equal(a.refresh, (f->b.cfg.burst ? f->b.cfg.burst : 1) + 1);
			assert_int_equal(a.period, f->b.cfg.short_period);
		}
		for (k = 0; k < a.refresh; k++) {
			enum pm_burst_phase ended;

			f->count += a.period;
			f->ns += (uint64_t)((double)a.period * f->ns_per_event);
			ended = pm_burst__sample(&f->b, f->ns);
			assert_int_equal(ended, k + 1 == a.refresh ? a.phase : PM_BURST_IDLE);
		}
		if (a.phase == PM_BURST_SHORT)
			f->ends[f->nr_ends++] = f->count;
		want = a.phase == PM_BURST_LONG ? PM_BURST_SHORT : PM_BURST_LONG;
	}
}

static void test_period_exact(void **state)
{
	struct fake f;
	struct pm_burst_config c;
	int i;

	(void)state;
	c = config(10000, 300, 2);
	fake_init(&f, &c, 1);
	fake_run(&f, 100);
	for (i = 0; i < 100; i++)
		assert_int_equal(f.ends[i], (uint64_t)(i + 1) * 10000);
	/* the long phase: 10000 - 2 x 300 (the long window) - 300 (the
	 * burst's opening sample belongs to it) */
	assert_int_equal(f.longs[0], 9100);
	assert_int_equal(f.longs[50], 9100);
}

/* Time plays no part: at 1 or 1000 ns an event, the same counts. */
static void test_period_ignores_time(void **state)
{
	struct fake f;
	struct pm_burst_config c;

	(void)state;
	c = config(1000000, 300, 1);
	fake_init(&f, &c, 1000);
	fake_run(&f, 50);
	assert_int_equal(f.ends[49], 50ULL * 1000000);
}

/* hf-rand moves each long window but the opening one by [-2^r/2, 2^r/2). */
static void test_period_rand(void **state)
{
	struct fake f;
	struct pm_burst_config c;
	uint64_t lo = UINT64_MAX, hi = 0;
	int i;

	(void)state;
	c = config(100000, 100, 3);
	c.hf_rand = 6;
	c.seed = 7;
	fake_init(&f, &c, 1);
	fake_run(&f, 200);
	assert_int_equal(f.ends[0], 100000);
	for (i = 1; i < 200; i++) {
		uint64_t cycle = f.ends[i] - f.ends[i - 1];

		assert_true(cycle >= 100000 - 32 && cycle < 100000 + 32);
		lo = cycle < lo ? cycle : lo;
		hi = cycle > hi ? cycle : hi;
	}
	assert_true(hi > lo);
}

/* hf-jitter J moves long windows by [-(J/2), J - J/2). */
static void test_period_jitter(void **state)
{
	struct fake f;
	struct pm_burst_config c;
	int i;

	(void)state;
	c = config(50000, 1000, 1);
	c.hf_jitter = 101;
	fake_init(&f, &c, 1);
	fake_run(&f, 100);
	for (i = 1; i < 100; i++) {
		uint64_t cycle = f.ends[i] - f.ends[i - 1];

		assert_true(cycle >= 50000 - 50 && cycle < 50000 + 51);
	}
}

/* A long window no longer than S: the long phase is one event. */
static void test_period_tiny_long(void **state)
{
	struct fake f;
	struct pm_burst_config c;

	(void)state;
	c = config(100, 40, 2);
	fake_init(&f, &c, 1);
	fake_run(&f, 3);
	assert_int_equal(f.longs[0], 1);
	assert_int_equal(f.ends[0], 1 + 3 * 40);
}

/* cpu-clock at -F 1000: each cycle is 1 ms of the event's nanoseconds. */
static void test_freq_time(void **state)
{
	struct fake f;
	struct pm_burst_config c;
	int i;

	(void)state;
	c = config(0, 10000, 2);
	c.freq = 1000;
	c.time_unit = true;
	fake_init(&f, &c, 1);
	fake_run(&f, 20);
	for (i = 0; i < 20; i++)
		assert_int_equal(f.ends[i], (uint64_t)(i + 1) * 1000000);
}

/* Another event at -F: the rate measured over a long phase (here 0.5
 * events a ns, steady) sizes the next, so cycles take 1/F s of the clock. */
static void test_freq_rate(void **state)
{
	struct fake f;
	struct pm_burst_config c;

	(void)state;
	c = config(0, 100, 1);
	c.freq = 1000;
	fake_init(&f, &c, 2);
	fake_run(&f, 10);
	/* before any measure: four bursts' worth */
	assert_int_equal(f.longs[0], 4 * 2 * 100);
	/* then 0.5 x 1e6 ns less the burst's 2 x 100 */
	assert_int_equal(f.longs[1], 500000 - 200);
	assert_int_equal(f.longs[9], 500000 - 200);
}

/* Samples when nothing is armed change nothing; a LOST ends the phase. */
static void test_idle_and_stopped(void **state)
{
	struct pm_burst b;
	struct pm_burst_config c;
	struct pm_burst_arm a;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.period = 1000;
	c.short_period = 10;
	c.burst = 4;
	pm_burst__init(&b, &c);
	assert_int_equal(pm_burst__sample(&b, 5), PM_BURST_IDLE);
	assert_int_equal(pm_burst__stopped(&b), PM_BURST_IDLE);
	pm_burst__next(&b, 10, &a);
	assert_int_equal(a.phase, PM_BURST_LONG);
	assert_int_equal(pm_burst__sample(&b, 20), PM_BURST_LONG);
	pm_burst__next(&b, 30, &a);
	assert_int_equal(a.phase, PM_BURST_SHORT);
	assert_int_equal(a.refresh, 5);
	assert_int_equal(pm_burst__sample(&b, 40), PM_BURST_IDLE);
	assert_int_equal(pm_burst__stopped(&b), PM_BURST_SHORT);
	assert_int_equal(pm_burst__sample(&b, 50), PM_BURST_IDLE);
	pm_burst__next(&b, 60, &a);
	assert_int_equal(a.phase, PM_BURST_LONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_period_exact),
		cmocka_unit_test(test_period_ignores_time),
		cmocka_unit_test(test_period_rand),
		cmocka_unit_test(test_period_jitter),
		cmocka_unit_test(test_period_tiny_long),
		cmocka_unit_test(test_freq_time),
		cmocka_unit_test(test_freq_rate),
		cmocka_unit_test(test_idle_and_stopped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
