// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's limits on recording, decided from given values (no test
 * may change kernel.perf_event_paranoid or perf_event_max_sample_rate,
 * which other tests on the machine depend on): the sample-rate fit of -F
 * and the default, and for each perf_event_paranoid level which events a
 * user without CAP_PERFMON may open, when perf's user-only fallback
 * applies, and what the message says suffices. The expected levels are
 * the kernel's rules (kernel/events/core.c: kernel code needs <= 1,
 * CPU-wide events <= 0, raw tracepoint data <= -1; Debian's 3 forbids
 * all), written out here per case.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pmprof/attr.h"
#include "pmprof/record.h"

static void test_fit_freq(void **state)
{
	uint64_t f;

	(void)state;
	/* below and at the maximum: as asked */
	assert_int_equal(pm_record__fit_freq(4000, false, 100000, &f), PM_FREQ_AS_ASKED);
	assert_int_equal(f, 4000);
	assert_int_equal(pm_record__fit_freq(100000, true, 100000, &f), PM_FREQ_AS_ASKED);
	assert_int_equal(f, 100000);
	/* above: the maximum, or refused when strict */
	assert_int_equal(pm_record__fit_freq(1000000, false, 100000, &f), PM_FREQ_LOWERED);
	assert_int_equal(f, 100000);
	assert_int_equal(pm_record__fit_freq(1000000, true, 100000, &f), PM_FREQ_TOO_HIGH);
	/* the default 4000 Hz after the kernel lowered its maximum to 2500 */
	assert_int_equal(pm_record__fit_freq(4000, false, 2500, &f), PM_FREQ_LOWERED);
	assert_int_equal(f, 2500);
	/* no maximum known: nothing to fit */
	assert_int_equal(pm_record__fit_freq(1000000, true, 0, &f), PM_FREQ_AS_ASKED);
	assert_int_equal(f, 1000000);
}

static struct pm_attr attr_of(uint32_t type, bool exclude_kernel, bool exclude_user)
{
	struct pm_attr a;

	memset(&a, 0, sizeof(a));
	a.type = type;
	pm_attr__set_flag(&a, PM_ATTR_EXCLUDE_KERNEL, exclude_kernel);
	pm_attr__set_flag(&a, PM_ATTR_EXCLUDE_USER, exclude_user);
	return a;
}

static void test_needed(void **state)
{
	struct pm_attr both = attr_of(PM_TYPE_SOFTWARE, false, false);
	struct pm_attr user = attr_of(PM_TYPE_SOFTWARE, true, false);
	struct pm_attr kern = attr_of(PM_TYPE_SOFTWARE, false, true);
	struct pm_attr tp = attr_of(PM_TYPE_TRACEPOINT, false, false);

	(void)state;
	assert_int_equal(pm_perf_access__needed(&user, false), 2);
	assert_int_equal(pm_perf_access__needed(&both, false), 1);
	assert_int_equal(pm_perf_access__needed(&kern, false), 1);
	/* -a: CPU events need 0, with or without the kernel */
	assert_int_equal(pm_perf_access__needed(&user, true), 0);
	assert_int_equal(pm_perf_access__needed(&both, true), 0);
	/* a tracepoint's raw data */
	tp.sample_type = PM_SAMPLE_RAW;
	assert_int_equal(pm_perf_access__needed(&tp, false), -1);
	assert_int_equal(pm_perf_access__needed(&tp, true), -1);
	tp.sample_type = 0;	/* counting only */
	assert_int_equal(pm_perf_access__needed(&tp, false), 1);
}

static void test_fallback(void **state)
{
	struct pm_attr both = attr_of(PM_TYPE_SOFTWARE, false, false);
	struct pm_attr kern = attr_of(PM_TYPE_SOFTWARE, false, true);
	struct pm_attr user = attr_of(PM_TYPE_SOFTWARE, true, false);
	struct pm_perf_access acc = { .paranoid = 2, .privileged = false };

	(void)state;
	/* perf_event_paranoid 2, a process: user space only works */
	assert_true(pm_perf_access__user_only_helps(&acc, &both, false));
	/* not for :k events, nor events already user-only, nor -a (needs 0) */
	assert_false(pm_perf_access__user_only_helps(&acc, &kern, false));
	assert_false(pm_perf_access__user_only_helps(&acc, &user, false));
	assert_false(pm_perf_access__user_only_helps(&acc, &both, true));
	/* at 1 the kernel is allowed: nothing to fall back from */
	acc.paranoid = 1;
	assert_false(pm_perf_access__user_only_helps(&acc, &both, false));
	/* at 3 nothing is allowed */
	acc.paranoid = 3;
	assert_false(pm_perf_access__user_only_helps(&acc, &both, false));
	/* CAP_PERFMON: the level does not apply */
	acc.paranoid = 2;
	acc.privileged = true;
	assert_false(pm_perf_access__user_only_helps(&acc, &both, false));
}

static void test_user_name(void **state)
{
	char b[64];

	(void)state;
	pm_perf_access__user_name("cpu-clock", b, sizeof(b));
	assert_string_equal(b, "cpu-clock:u");
	pm_perf_access__user_name("cycles:p", b, sizeof(b));
	assert_string_equal(b, "cycles:pu");
	pm_perf_access__user_name("cpu/event=0x3c/", b, sizeof(b));
	assert_string_equal(b, "cpu/event=0x3c/u");
}

/* The message for an EACCES at a given level names what suffices. */
static void error_for(int paranoid, bool privileged, const struct pm_attr *a, bool cpu_wide,
		      const char *name, struct pm_error *err)
{
	struct pm_perf_access acc = { .paranoid = paranoid, .privileged = privileged };

	memset(err, 0, sizeof(*err));
	assert_int_equal(pm_perf_access__error(&acc, a, cpu_wide, name, 13, err), -13);
}

static void test_error_message(void **state)
{
	struct pm_attr both = attr_of(PM_TYPE_SOFTWARE, false, false);
	struct pm_attr kern = attr_of(PM_TYPE_SOFTWARE, false, true);
	struct pm_attr user = attr_of(PM_TYPE_SOFTWARE, true, false);
	struct pm_attr tp = attr_of(PM_TYPE_TRACEPOINT, false, false);
	struct pm_error err;

	(void)state;
	/* -a at 2 and at 1: 0 suffices (not -1), with or without :u */
	error_for(2, false, &both, true, "cpu-clock", &err);
	assert_non_null(strstr(err.msg, "kernel.perf_event_paranoid is 2"));
	assert_non_null(strstr(err.msg, "every CPU"));
	assert_non_null(strstr(err.msg, "kernel.perf_event_paranoid=0`"));
	assert_non_null(strstr(err.msg, "CAP_PERFMON"));
	assert_null(strstr(err.msg, ":u"));	/* :u does not help -a */
	error_for(1, false, &user, true, "cpu-clock:u", &err);
	assert_non_null(strstr(err.msg, "kernel.perf_event_paranoid=0`"));
	/* a :k event at 2: 1, or the event with :u */
	error_for(2, false, &kern, false, "cpu-clock:k", &err);
	assert_non_null(strstr(err.msg, "kernel.perf_event_paranoid=1`"));
	assert_non_null(strstr(err.msg, "-e cpu-clock:u"));
	error_for(2, false, &kern, false, "cpu/event=0x3c/k", &err);
	assert_non_null(strstr(err.msg, "-e cpu/event=0x3c/u"));
	/* Debian's 3: a user-only event needs 2, a kernel one 1 or :u */
	error_for(3, false, &user, false, "cycles:u", &err);
	assert_non_null(strstr(err.msg, "is 3"));
	assert_non_null(strstr(err.msg, "kernel.perf_event_paranoid=2`"));
	error_for(3, false, &both, false, "cycles", &err);
	assert_non_null(strstr(err.msg, "kernel.perf_event_paranoid=1`"));
	assert_non_null(strstr(err.msg, "-e cycles:u"));
	/* raw tracepoint data: -1 */
	tp.sample_type = PM_SAMPLE_RAW;
	error_for(0, false, &tp, false, "sched:sched_switch", &err);
	assert_non_null(strstr(err.msg, "kernel.perf_event_paranoid=-1`"));
	assert_null(strstr(err.msg, ":u"));
	/* allowed by the level, or privileged: not the level's fault */
	error_for(1, false, &both, false, "cycles", &err);
	assert_null(strstr(err.msg, "sysctl"));
	error_for(2, true, &both, true, "cycles", &err);
	assert_non_null(strstr(err.msg, "security module"));
	assert_null(strstr(err.msg, "sysctl"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_freq),
		cmocka_unit_test(test_needed),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_user_name),
		cmocka_unit_test(test_error_message),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
