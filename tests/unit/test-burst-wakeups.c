// SPDX-License-Identifier: GPL-2.0
/*
 * Burst mode's quiet wakeups (lib/record/burst.c): with one burst group,
 * the ring wakes the recorder once a cycle, at the burst's last sample,
 * and the end of the long phase comes as a signal (not a ring wakeup),
 * where wakeup_events 1 woke it at each of the cycle's N + 2 samples. So
 * a recording of a busy workload has no more ring wakeups than bursts
 * (the stats count the polls that found a ring ready; the signals end
 * polls that found none). How many bursts there are depends on how soon
 * the recorder runs (the group is stopped until it re-arms): only their
 * number is asserted, their structure is tests/cli/record-modes.sh's. A
 * recording with two burst groups keeps the old wakeups, every sample.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <cmocka.h>

#include "pmprof/evspec.h"
#include "pmprof/record.h"

/* Record a busy shell loop with spec in burst mode; its stats. */
static void record(const char *spec, struct pm_record_stats *st)
{
	static char *const argv[] = {
		"/bin/sh", "-c", "i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done", NULL
	};
	char dir[] = "/tmp/pmprof-wakeups-XXXXXX", out[64];
	struct pm_record_defaults rd = { .period = 1000000 };
	struct pm_record_opts o = { .sz = sizeof(o) };
	struct pm_evspec_list list;
	struct pm_recorder *r = NULL;
	struct pm_error err;
	int ret;

	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/perf.data", dir);
	pm_evspec_list__init(&list);
	assert_int_equal(pm_evspec__parse(&list, spec, NULL, &err), 0);
	assert_int_equal(pm_evspec__apply_record(&list, &rd, &err), 0);
	o.events = &list;
	o.output = out;
	o.argv = argv;
	o.clockid = -1;
	o.hf_mode = PM_HF_BURST;
	assert_int_equal(pm_recorder__new(&r, &o, &err), 0);
	assert_int_equal(pm_recorder__start(r, &err), 0);
	while ((ret = pm_recorder__poll(r, 100, &err)) > 0)
		;
	assert_int_equal(ret, 0);
	assert_int_equal(pm_recorder__finish(r, &err), 0);
	*st = *pm_recorder__stats(r);
	pm_recorder__delete(r);
	pm_evspec_list__exit(&list);
	unlink(out);
	rmdir(dir);
}

static void test_quiet_wakeups(void **state)
{
	struct pm_record_stats st;

	(void)state;
	if (!pm_recorder__probe_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK))
		skip();	/* perf_event_paranoid or no perf events here */
	record("{cpu-clock/period=2000000,hf-period=100000,hf-burst=3/,task-clock}:S", &st);
	print_message("# one group: %llu bursts, %llu ring wakeups\n",
		      (unsigned long long)st.bursts, (unsigned long long)st.wakeups);
	assert_true(st.bursts >= 10);
	assert_true(st.wakeups <= st.bursts + 2);
	assert_int_equal(st.lost, 0);
}

static void test_two_groups_wake_at_every_sample(void **state)
{
	struct pm_record_stats st;

	(void)state;
	if (!pm_recorder__probe_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK))
		skip();
	record("{cpu-clock/period=2000000,hf-period=100000,hf-burst=3/,task-clock}:S,"
	       "{task-clock/period=2000000,hf-period=100000,hf-burst=3/,page-faults}:S", &st);
	print_message("# two groups: %llu bursts, %llu ring wakeups\n",
		      (unsigned long long)st.bursts, (unsigned long long)st.wakeups);
	assert_true(st.bursts >= 10);
	assert_int_equal(st.lost, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quiet_wakeups),
		cmocka_unit_test(test_two_groups_wake_at_every_sample),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
