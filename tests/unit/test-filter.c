// SPDX-License-Identifier: GPL-2.0
/*
 * perf report's filters: --time ranges and percent slices (bounds worked
 * out by hand from the first and last sample times), the lists of -C,
 * --pid, --tid, --comm, --dsos, --symbols, and bad values named.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmprof/error.h"
#include "pmprof/filter.h"

#define S 1000000000ULL

static void check_ranges(const char *spec, uint64_t first, uint64_t last,
			 size_t want_nr, const uint64_t *want)
{
	struct pm_time_range *r;
	struct pm_error err = { 0 };
	size_t nr;

	if (pm_time_ranges__parse(spec, first, last, &r, &nr, &err))
		fail_msg("%s: %s", spec, err.msg);
	assert_int_equal(nr, want_nr);
	for (size_t i = 0; i < nr; i++) {
		assert_int_equal(r[i].start, want[2 * i]);
		assert_int_equal(r[i].end, want[2 * i + 1]);
	}
	free(r);
}

static void bad_ranges(const char *spec, uint64_t first, uint64_t last)
{
	struct pm_time_range *r;
	struct pm_error err = { 0 };
	size_t nr;

	assert_int_equal(pm_time_ranges__parse(spec, first, last, &r, &nr, &err),
			 -PM_EUSAGE);
	assert_null(r);
	assert_non_null(strstr(err.msg, "--time"));
}

static void test_time(void **state)
{
	(void)state;
	check_ranges("100.5,101", 0, 0, 1, (uint64_t[]){ 100 * S + S / 2, 101 * S });
	check_ranges("100.000000001,", 0, 0, 1, (uint64_t[]){ 100 * S + 1, 0 });
	check_ranges(",7", 0, 0, 1, (uint64_t[]){ 0, 7 * S });
	check_ranges("1,2 3.25,4", 0, 0, 2,
		     (uint64_t[]){ 1 * S, 2 * S, 3 * S + S / 4, 4 * S });
	/* 1000 ns of samples from 10000: tenths of 100 ns, ends excluded
	 * but the last sample's */
	check_ranges("10%/2", 10000, 11000, 1, (uint64_t[]){ 10100, 10199 });
	check_ranges("10%/10", 10000, 11000, 1, (uint64_t[]){ 10900, 11000 });
	check_ranges("10%/1,10%/3", 10000, 11000, 2,
		     (uint64_t[]){ 10000, 10099, 10200, 10299 });
	check_ranges("0%-25%,50%-100%", 10000, 11000, 2,
		     (uint64_t[]){ 10000, 10249, 10500, 11000 });
	check_ranges("25%", 10000, 11000, 1, (uint64_t[]){ 10000, 10249 });
	bad_ranges("2,1", 0, 0);		/* stop before start */
	bad_ranges("1,2 2,3", 0, 0);		/* overlapping */
	bad_ranges("1.0000000001,", 0, 0);	/* ten decimals */
	bad_ranges("abc", 0, 0);
	bad_ranges("10%/2", 0, 0);		/* no sample times */
	bad_ranges("10%/11", 10000, 11000);	/* past 100% */
	bad_ranges("0%/1", 10000, 11000);
	bad_ranges("10%-x", 10000, 11000);
}

static void test_skip(void **state)
{
	struct pm_time_range one = { 100, 200 }, open_end = { 100, 0 };
	struct pm_time_range two[2] = { { 100, 200 }, { 300, 0 } };

	(void)state;
	assert_true(pm_time_ranges__skip(&one, 1, 99));
	assert_false(pm_time_ranges__skip(&one, 1, 100));
	assert_false(pm_time_ranges__skip(&one, 1, 200));
	assert_true(pm_time_ranges__skip(&one, 1, 201));
	assert_false(pm_time_ranges__skip(&one, 1, 0));	/* no time */
	assert_false(pm_time_ranges__skip(&open_end, 1, 1ULL << 62));
	assert_true(pm_time_ranges__skip(two, 2, 250));
	assert_false(pm_time_ranges__skip(two, 2, 150));
	assert_false(pm_time_ranges__skip(two, 2, 1ULL << 62));
	assert_false(pm_time_ranges__skip(NULL, 0, 5));
}

static void test_lists(void **state)
{
	struct pm_filter_opts o = { .sz = sizeof(o), .cpus = "0-2,7",
				    .pids = "10,30", .comms = "a, b",
				    .symbols = "main,foo" };
	struct pm_thread t = { .pid = 10, .tid = 11, .comm = "b" };
	struct pm_symbol main_sym = { .name = "main" }, bar = { .name = "bar" };
	struct pm_sample smp = { .sample_type = PM_SAMPLE_CPU, .cpu = 2 };
	struct pm_sample_ctx ctx = { .sample = &smp };
	struct pm_error err = { 0 };
	struct pm_filter *f;

	(void)state;
	assert_int_equal(pm_filter__new(&f, &o, 0, 0, &err), 0);
	assert_true(pm_filter__filters_rows(f));
	assert_false(pm_filter__drop(f, &ctx));
	smp.cpu = 7;
	assert_false(pm_filter__drop(f, &ctx));
	smp.cpu = 3;
	assert_true(pm_filter__drop(f, &ctx));
	assert_true(pm_filter__thread(f, &t));
	t.pid = 20;
	assert_false(pm_filter__thread(f, &t));
	t.pid = 30;
	t.comm = "c";
	assert_false(pm_filter__thread(f, &t));
	assert_true(pm_filter__row(f, NULL, &main_sym));
	assert_false(pm_filter__row(f, NULL, &bar));
	assert_false(pm_filter__row(f, NULL, NULL));
	pm_filter__delete(f);

	/* no options: everything stays */
	assert_int_equal(pm_filter__new(&f, NULL, 0, 0, &err), 0);
	assert_false(pm_filter__filters_rows(f));
	assert_false(pm_filter__drop(f, &ctx));
	assert_true(pm_filter__row(f, NULL, NULL));
	pm_filter__delete(f);

	/* -U drops a sample without a symbol */
	o = (struct pm_filter_opts){ .sz = sizeof(o), .hide_unresolved = true };
	assert_int_equal(pm_filter__new(&f, &o, 0, 0, &err), 0);
	assert_true(pm_filter__drop(f, &ctx));
	ctx.ip.sym = &bar;
	assert_false(pm_filter__drop(f, &ctx));
	pm_filter__delete(f);

	o = (struct pm_filter_opts){ .sz = sizeof(o), .cpus = "1-x" };
	assert_int_equal(pm_filter__new(&f, &o, 0, 0, &err), -PM_EUSAGE);
	assert_non_null(strstr(err.msg, "--cpu '1-x'"));
	o = (struct pm_filter_opts){ .sz = sizeof(o), .tids = "5-6" };
	assert_int_equal(pm_filter__new(&f, &o, 0, 0, &err), -PM_EUSAGE);
	assert_non_null(strstr(err.msg, "--tid"));
	o = (struct pm_filter_opts){ .sz = sizeof(o), .time = "x" };
	assert_int_equal(pm_filter__new(&f, &o, 0, 0, &err), -PM_EUSAGE);
	assert_null(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_skip),
		cmocka_unit_test(test_lists),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
