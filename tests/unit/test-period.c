// SPDX-License-Identifier: GPL-2.0
/*
 * The sampling model. Expected sequences are worked out by hand from the
 * seed's rules (first period = period - hf_period, then short and long
 * alternate, jitter on long periods only, ...); the random-run properties
 * check invariants over many windows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmprof/period.h"

static struct pm_period_config cfg_period(uint64_t period, uint32_t hf)
{
	struct pm_period_config c;

	memset(&c, 0, sizeof(c));
	c.period = period;
	c.hf_period = hf;
	return c;
}

/* Run n windows back to back; out[i] = reported period, kinds[i]. */
static void run(struct pm_period *m, int n, uint64_t *out, enum pm_window_kind *kinds)
{
	struct pm_overflow ov;
	int i;

	for (i = 0; i < n; i++) {
		pm_period__overflow(m, 0, &ov);
		out[i] = ov.period;
		if (kinds)
			kinds[i] = ov.kind;
	}
}

static void test_alternation_by_hand(void **state)
{
	struct pm_period_config c = cfg_period(1000000, 300);
	struct pm_period m;
	uint64_t p[6];
	enum pm_window_kind k[6];
	const uint64_t want[6] = { 999700, 300, 999700, 300, 999700, 300 };
	int i;

	(void)state;
	assert_int_equal(pm_period_config__validate(&c, NULL), 0);
	pm_period__init(&m, &c);
	assert_int_equal(pm_period__left(&m), 999700);
	run(&m, 6, p, k);
	for (i = 0; i < 6; i++)
		assert_int_equal(p[i], want[i]);
	assert_int_equal(k[0], PM_WINDOW_OPENING);
	assert_int_equal(k[1], PM_WINDOW_SHORT);
	assert_int_equal(k[2], PM_WINDOW_LONG);
	assert_int_equal(k[3], PM_WINDOW_SHORT);
}

static void test_no_hf_is_plain(void **state)
{
	struct pm_period_config c = cfg_period(4000, 0);
	struct pm_period m;
	uint64_t p[3];
	enum pm_window_kind k[3];

	(void)state;
	pm_period__init(&m, &c);
	run(&m, 3, p, k);
	assert_int_equal(p[0], 4000);
	assert_int_equal(p[2], 4000);
	assert_int_equal(k[1], PM_WINDOW_PLAIN);
}

static void test_hf_not_below_period(void **state)
{
	struct pm_period_config c = cfg_period(300, 300);
	struct pm_period m;
	struct pm_error err;
	uint64_t p[3];
	enum pm_window_kind k[3];

	(void)state;
	/* rejected at open time, as the kernel does */
	assert_int_not_equal(pm_period_config__validate(&c, &err), 0);
	assert_non_null(strstr(err.msg, "hf-period"));
	/* and without validation: no alternation */
	pm_period__init(&m, &c);
	run(&m, 3, p, k);
	assert_int_equal(p[0], 300);
	assert_int_equal(p[1], 300);
	assert_int_equal(k[0], PM_WINDOW_PLAIN);
	assert_int_equal(k[2], PM_WINDOW_PLAIN);
}

static void test_validation(void **state)
{
	struct pm_period_config c = cfg_period(1000, 0);

	(void)state;
	c.hf_rand = 3;	/* rand without hf-period */
	assert_int_not_equal(pm_period_config__validate(&c, NULL), 0);
	c = cfg_period(1000, 100);
	c.hf_rand = 16;
	assert_int_not_equal(pm_period_config__validate(&c, NULL), 0);
	c = cfg_period(1000, 100);
	c.hf_burst = 10;	/* 10 x 100 = period */
	assert_int_not_equal(pm_period_config__validate(&c, NULL), 0);
	c.hf_burst = 9;
	assert_int_equal(pm_period_config__validate(&c, NULL), 0);
	c = cfg_period(1000, 100);
	c.hf_jitter = 200;	/* short could reach 0 */
	assert_int_not_equal(pm_period_config__validate(&c, NULL), 0);
	c.hf_jitter = 199;
	assert_int_equal(pm_period_config__validate(&c, NULL), 0);
	c = cfg_period(0, 100);	/* no period: invalid */
	assert_int_not_equal(pm_period_config__validate(&c, NULL), 0);
	c.freq = 4000;		/* frequency mode: allowed */
	assert_int_equal(pm_period_config__validate(&c, NULL), 0);
}

static void test_burst_by_hand(void **state)
{
	struct pm_period_config c = cfg_period(1000, 100);
	struct pm_period m;
	uint64_t p[9];
	const uint64_t want[9] = { 700, 100, 100, 100, 700, 100, 100, 100, 700 };
	int i;

	(void)state;
	c.hf_burst = 3;
	pm_period__init(&m, &c);
	run(&m, 9, p, NULL);
	for (i = 0; i < 9; i++)
		assert_int_equal(p[i], want[i]);
}

/* splitmix64 written out from its published constants, to check the
 * model's draws independently. */
static uint64_t ref_splitmix(uint64_t *s)
{
	uint64_t z;

	*s += 0x9E3779B97F4A7C15ULL;
	z = *s;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static void test_rand_by_hand(void **state)
{
	struct pm_period_config c = cfg_period(1000, 300);
	struct pm_period m;
	uint64_t p[6], s = 42;
	int64_t j1, j2;

	(void)state;
	c.hf_rand = 4;
	c.seed = 42;
	pm_period__init(&m, &c);
	run(&m, 6, p, NULL);
	/* opening: no jitter; long ones: 700 + (draw & 15) - 8 */
	assert_int_equal(p[0], 700);
	assert_int_equal(p[1], 300);
	j1 = (int64_t)(ref_splitmix(&s) & 15) - 8;
	j2 = (int64_t)(ref_splitmix(&s) & 15) - 8;
	assert_int_equal(p[2], 700 + j1);
	assert_int_equal(p[3], 300);
	assert_int_equal(p[4], 700 + j2);
	assert_int_equal(p[5], 300);
}

static void test_rand_properties(void **state)
{
	struct pm_period_config c = cfg_period(1000000, 300);
	struct pm_period m;
	struct pm_overflow ov;
	int i, longs = 0, seen_min = 0, seen_max = 0;
	double sum = 0;

	(void)state;
	c.hf_rand = 7;	/* [-64, 64) */
	c.seed = 7;
	pm_period__init(&m, &c);
	pm_period__overflow(&m, 0, &ov);	/* opening */
	for (i = 0; i < 200000; i++) {
		pm_period__overflow(&m, 0, &ov);
		if (ov.kind == PM_WINDOW_SHORT) {
			assert_int_equal(ov.period, 300);	/* never jittered */
			continue;
		}
		assert_int_equal(ov.kind, PM_WINDOW_LONG);
		{
			int64_t j = (int64_t)ov.period - 999700;

			assert_true(j >= -64 && j < 64);
			seen_min |= j == -64;
			seen_max |= j == 63;
			sum += (double)j;
			longs++;
		}
	}
	assert_int_equal(longs, 100000);
	assert_true(seen_min && seen_max);
	/* uniform on -64..63: mean -0.5, sd about 37; 100000 draws: se 0.12 */
	assert_true(sum / longs > -1.1 && sum / longs < 0.1);
}

static void test_long_plus_short_is_period(void **state)
{
	struct pm_period_config c = cfg_period(50000, 1234);
	struct pm_period m;
	struct pm_overflow ov;
	uint64_t prev = 0;
	enum pm_window_kind prev_kind = PM_WINDOW_PLAIN;
	int i, pairs = 0;

	(void)state;
	pm_period__init(&m, &c);
	for (i = 0; i < 10000; i++) {
		pm_period__overflow(&m, 0, &ov);
		if (ov.kind == PM_WINDOW_SHORT) {
			assert_true(prev_kind == PM_WINDOW_LONG || prev_kind == PM_WINDOW_OPENING);
			assert_int_equal(prev + ov.period, 50000);
			pairs++;
		}
		prev = ov.period;
		prev_kind = ov.kind;
	}
	assert_int_equal(pairs, 5000);
}

static void test_burst_and_jitter_properties(void **state)
{
	struct pm_period_config c = cfg_period(100000, 500);
	struct pm_period m;
	struct pm_overflow ov;
	int i, run_len = 0, bursts = 0;
	int64_t jmin = 0, jmax = 0;
	double jsum = 0;
	long njit = 0;

	(void)state;
	c.hf_burst = 4;
	c.hf_jitter = 100;	/* [-50, 50) on both */
	c.seed = 99;
	assert_int_equal(pm_period_config__validate(&c, NULL), 0);
	pm_period__init(&m, &c);
	pm_period__overflow(&m, 0, &ov);
	assert_int_equal(ov.kind, PM_WINDOW_OPENING);
	assert_int_equal(ov.period, 98000);	/* 100000 - 4 x 500, no jitter */
	for (i = 0; i < 100000; i++) {
		int64_t j;

		pm_period__overflow(&m, 0, &ov);
		if (ov.kind == PM_WINDOW_SHORT) {
			run_len++;
			j = (int64_t)ov.period - 500;
		} else {
			assert_int_equal(ov.kind, PM_WINDOW_LONG);
			assert_int_equal(run_len, 4);	/* exactly N shorts per long */
			run_len = 0;
			bursts++;
			j = (int64_t)ov.period - 98000;
		}
		assert_true(j >= -50 && j < 50);
		jmin = j < jmin ? j : jmin;
		jmax = j > jmax ? j : jmax;
		jsum += (double)j;
		njit++;
	}
	assert_true(bursts >= 19999);
	assert_int_equal(jmin, -50);
	assert_int_equal(jmax, 49);
	assert_true(jsum / njit > -1.5 && jsum / njit < 0.5);	/* mean -0.5 */
}

static void test_deterministic(void **state)
{
	struct pm_period_config c = cfg_period(10000, 100);
	struct pm_period a, b;
	uint64_t pa[50], pb[50];

	(void)state;
	c.hf_rand = 9;
	c.hf_jitter = 50;
	c.seed = 123;
	pm_period__init(&a, &c);
	pm_period__init(&b, &c);
	run(&a, 50, pa, NULL);
	run(&b, 50, pb, NULL);
	assert_memory_equal(pa, pb, sizeof(pa));
	c.seed = 124;
	pm_period__init(&b, &c);
	run(&b, 50, pb, NULL);
	assert_memory_not_equal(pa, pb, sizeof(pa));
}

static void test_filter_by_hand(void **state)
{
	(void)state;
	/* 1000 events in 1 ms at 4000 Hz: 1000 x 1e9 / (1e6 x 4000) */
	assert_int_equal(pm_period_target(1000, 1000000, 4000), 250);
	assert_int_equal(pm_period_target(1, 1, 1000), 1000000);
	/* (2000 - 1000 + 7) / 8 = 125 */
	assert_int_equal(pm_period_lowpass(1000, 2000), 1125);
	/* (0 - 1000 - 7) / 8 = -125 (toward zero) */
	assert_int_equal(pm_period_lowpass(1000, 0), 875);
	/* (1 - 1 + 7) / 8 = 0; never 0 */
	assert_int_equal(pm_period_lowpass(1, 1), 1);
	assert_int_equal(pm_period_lowpass(1, 0), 1);
	/* (10 - 17 - 7) / 8 = -1 */
	assert_int_equal(pm_period_lowpass(17, 10), 16);
}

/* Count `events` at one event per ns from time *t, ticking every tick_ns. */
static int feed(struct pm_period *m, uint64_t *t, uint64_t n_over, uint64_t *periods,
		enum pm_window_kind *kinds, bool *fed, uint64_t *bases)
{
	int k = 0;

	while ((uint64_t)k < n_over) {
		struct pm_overflow ov;
		uint64_t left = pm_period__left(m), e = left;

		*t += left;
		assert_int_equal(pm_period__count(m, &e, *t, &ov), 1);
		assert_int_equal(e, 0);
		periods[k] = ov.period;
		if (kinds)
			kinds[k] = ov.kind;
		if (fed)
			fed[k] = ov.feeds_freq;
		if (bases)
			bases[k] = ov.base;
		k++;
	}
	return k;
}

static void test_freq_by_hand(void **state)
{
	struct pm_period_config c;
	struct pm_period m;
	uint64_t t = 0, p[4], base[4];
	bool fed[4];

	(void)state;
	memset(&c, 0, sizeof(c));
	c.freq = 1000;
	pm_period__init(&m, &c);
	feed(&m, &t, 4, p, NULL, fed, base);
	/* starts at 1; the first overflow only sets the time stamp */
	assert_int_equal(p[0], 1);
	assert_false(fed[0]);
	assert_int_equal(base[0], 1);
	/* 1 event in 1 ns at 1000 Hz: target 1e6; 1 + (999999 + 7) / 8 */
	assert_int_equal(p[1], 1);
	assert_true(fed[1]);
	assert_int_equal(base[1], 125001);
	/* 125001 events in 125001 ns: target 1e6; + (874999 + 7) / 8 */
	assert_int_equal(p[2], 125001);
	assert_int_equal(base[2], 234376);
	assert_int_equal(p[3], 234376);
}

static void test_freq_short_never_feeds(void **state)
{
	struct pm_period_config c;
	struct pm_period m;
	uint64_t t = 0, p[2000], base[2000];
	enum pm_window_kind k[2000];
	bool fed[2000];
	int i, shorts = 0, longs_fed = 0;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.freq = 4000;
	c.hf_period = 300;
	c.hf_rand = 5;
	c.seed = 3;
	pm_period__init(&m, &c);
	feed(&m, &t, 2000, p, k, fed, base);
	for (i = 0; i < 2000; i++) {
		if (k[i] == PM_WINDOW_SHORT) {
			shorts++;
			assert_false(fed[i]);
			assert_int_equal(p[i], 300);
			/* the base does not move on a short window */
			assert_int_equal(base[i], base[i - 1]);
		} else if (fed[i]) {
			longs_fed++;
		}
	}
	assert_true(shorts > 900);
	assert_true(longs_fed > 900);
	/* 1 event/ns at 4000 Hz converges near 250000 (+ jitter) */
	assert_true(base[1999] > 240000 && base[1999] < 260000);
	/* long + short = base (+ rand jitter within +-16) */
	for (i = 1800; i < 1999; i++)
		if (k[i] == PM_WINDOW_LONG && k[i + 1] == PM_WINDOW_SHORT) {
			int64_t d = (int64_t)(p[i] + p[i + 1]) - (int64_t)base[i];

			assert_true(d >= -16 && d < 16);
		}
}

static void test_throttle_by_hand(void **state)
{
	struct pm_period_config c = cfg_period(10, 0);
	struct pm_period m;
	struct pm_overflow ov;
	struct pm_tick tk;
	uint64_t e = 100;
	int n = 0;

	(void)state;
	c.max_sample_rate = 1000;
	c.hz = 250;		/* ceil(1000 / 250) = 4 per tick */
	pm_period__init(&m, &c);
	while (pm_period__count(&m, &e, 0, &ov)) {
		n++;
		assert_int_equal(ov.throttle, n == 5);
	}
	/* 5 overflows (50 events), the fifth throttled; the rest lost */
	assert_int_equal(n, 5);
	assert_int_equal(e, 0);
	assert_int_equal(pm_period__left(&m), UINT64_MAX);
	pm_period__tick(&m, 4000000, &tk);
	assert_true(tk.unthrottle);
	assert_int_equal(pm_period__left(&m), 10);
	pm_period__tick(&m, 8000000, &tk);
	assert_false(tk.unthrottle);
	/* ceil: 1001 per second at 250 Hz is 5 per tick */
	c.max_sample_rate = 1001;
	pm_period__init(&m, &c);
	assert_int_equal(m.max_per_tick, 5);
}

static void test_throttle_properties(void **state)
{
	struct pm_period_config c = cfg_period(1000, 100);
	struct pm_period m;
	uint64_t t = 0, tick_ns = 1000000000 / 250;
	int ticks, throttles = 0, unthrottles = 0;

	(void)state;
	c.max_sample_rate = 100000;	/* 400 per tick */
	c.hz = 250;
	pm_period__init(&m, &c);
	/* 1 event/ns: about 2 x 4e6 / 1000 = 8000 overflows wanted per tick */
	for (ticks = 0; ticks < 200; ticks++) {
		uint64_t end = t + tick_ns, per_tick = 0;
		struct pm_tick tk;
		bool stopped = false;

		while (t < end) {
			struct pm_overflow ov;
			uint64_t left = pm_period__left(&m), e;

			if (left == UINT64_MAX || t + left > end) {
				e = end - t;
				pm_period__count(&m, &e, end, &ov);
				t = end;
				break;
			}
			e = left;
			t += left;
			assert_int_equal(pm_period__count(&m, &e, t, &ov), 1);
			assert_false(stopped);
			per_tick++;
			if (ov.throttle) {
				throttles++;
				stopped = true;
				assert_int_equal(per_tick, 401);
			}
		}
		assert_true(per_tick <= 401);
		pm_period__tick(&m, t, &tk);
		unthrottles += tk.unthrottle;
		assert_int_equal(tk.unthrottle, stopped);
	}
	assert_int_equal(throttles, 200);
	assert_int_equal(unthrottles, 200);
}

static void test_from_attr(void **state)
{
	struct pm_attr a;
	struct pm_period_config c;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.sample_period = 4000;
	pm_attr__set_flag(&a, PM_ATTR_FREQ, true);
	a.hf_sample_period = 300;
	a.hf_sample_rand = 3;
	pm_period_config__from_attr(&c, &a, 2, 10);
	assert_int_equal(c.freq, 4000);
	assert_int_equal(c.period, 0);
	assert_int_equal(c.hf_period, 300);
	assert_int_equal(c.hf_rand, 3);
	assert_int_equal(c.hf_burst, 2);
	assert_int_equal(c.hf_jitter, 10);
	assert_int_equal(c.max_sample_rate, 100000);
	assert_string_equal(pm_window_kind_name(PM_WINDOW_SHORT), "short");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alternation_by_hand),
		cmocka_unit_test(test_no_hf_is_plain),
		cmocka_unit_test(test_hf_not_below_period),
		cmocka_unit_test(test_validation),
		cmocka_unit_test(test_burst_by_hand),
		cmocka_unit_test(test_rand_by_hand),
		cmocka_unit_test(test_rand_properties),
		cmocka_unit_test(test_long_plus_short_is_period),
		cmocka_unit_test(test_burst_and_jitter_properties),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_filter_by_hand),
		cmocka_unit_test(test_freq_by_hand),
		cmocka_unit_test(test_freq_short_never_feeds),
		cmocka_unit_test(test_throttle_by_hand),
		cmocka_unit_test(test_throttle_properties),
		cmocka_unit_test(test_from_attr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
