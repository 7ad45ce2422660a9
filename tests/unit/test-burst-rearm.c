// SPDX-License-Identifier: GPL-2.0
/*
 * pm_rec_burst__rearm against the kernel's deferred disable. A burst
 * leader that runs out of its REFRESH limit is stopped by an irq_work
 * after its last sample is already in the ring; re-armed before that work
 * runs, with PERF_EVENT_IOC_PERIOD and PERF_EVENT_IOC_REFRESH alone, the
 * event stays stopped for good (record.h's bursts then end part-way).
 *
 * The race is made to happen, not hoped for: a worker thread spins on one
 * CPU under a cpu-clock event armed for one overflow at a time, and this
 * thread, on another CPU, spins on the ring's head and re-arms the moment
 * a sample appears, so that the re-arm often lands while the overflow's
 * interrupt is still running. A phase is stalled when no sample comes,
 * the worker ran meanwhile, and the event's enabled time stands still (it
 * is off). First the bare PERIOD + REFRESH runs until it stalls (proof
 * that the race happens here; if it never does, the test is skipped),
 * then pm_rec_burst__rearm for three times as many phases (2000 to
 * 20000), none stalled.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "record/record-int.h"

#define PERIOD_NS 20000ULL		/* cpu-clock's period: 50 overflows per ms */
#define RING_PAGES 8
#define QUIET_NS 20000000ULL		/* no sample for this long: look closer */
#define LOOK_US 20000			/* ... over this long */
#define MAX_BARE_PHASES 40000
#define MIN_PHASES 2000
#define MAX_PHASES 20000

struct race {
	int cpu[2];			/* the worker's, ours */
	volatile int stop;
	volatile pid_t worker_tid;
	volatile uint64_t spins;	/* the worker's progress */
	int fd;
	struct perf_event_mmap_page *pg;
	size_t map_len;
};

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static void *worker(void *arg)
{
	struct race *r = arg;

	pin(r->cpu[0]);
	r->worker_tid = (pid_t)syscall(SYS_gettid);
	while (!r->stop)
		r->spins++;
	return NULL;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t head(const struct race *r)
{
	return __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
}

static uint64_t time_enabled(const struct race *r)
{
	uint64_t v[2] = { 0, 0 };

	if (read(r->fd, v, sizeof(v)) != (ssize_t)sizeof(v))
		return 0;
	return v[1];
}

/* The old re-arm: what the recorder did before pm_rec_burst__rearm. */
static int bare_rearm(int fd, uint64_t period)
{
	if (ioctl(fd, PERF_EVENT_IOC_PERIOD, &period))
		return -errno;
	return ioctl(fd, PERF_EVENT_IOC_REFRESH, 1) ? -errno : 0;
}

static int lib_rearm(int fd, uint64_t period)
{
	struct pm_error err;

	return pm_rec_burst__rearm(fd, period, 1, "cpu-clock", &err);
}

/* Whether the phase armed last, whose sample has not come by `since`,
 * is stalled (the event off while the worker runs). */
static bool stalled(struct race *r, uint64_t since)
{
	uint64_t spins = r->spins, te = time_enabled(r);

	usleep(LOOK_US);
	return head(r) == since && r->spins - spins > 1000 && time_enabled(r) == te;
}

/* Phases armed one overflow at a time with rearm, re-armed as soon as
 * their sample shows; stops at the first stall when asked. Returns the
 * stalls; *phases, the phases that ended. */
static int run(struct race *r, int (*rearm)(int fd, uint64_t period), int max_phases,
	       bool stop_at_stall, int *phases)
{
	uint64_t last = head(r), period = PERIOD_NS;
	int stalls = 0;

	*phases = 0;
	assert_int_equal(rearm(r->fd, period), 0);
	while (*phases < max_phases) {
		uint64_t t0 = now_ns(), h;

		while ((h = head(r)) == last && now_ns() - t0 < QUIET_NS)
			;
		if (h == last) {
			if (!stalled(r, last))
				continue;	/* the worker did not run: wait on */
			stalls++;
			if (stop_at_stall)
				break;
		}
		last = head(r);
		__atomic_store_n(&r->pg->data_tail, last, __ATOMIC_RELEASE);
		++*phases;
		assert_int_equal(rearm(r->fd, period), 0);
	}
	ioctl(r->fd, PERF_EVENT_IOC_DISABLE, 0);
	return stalls;
}

/* Two CPUs we may run on, or false. */
static bool two_cpus(int cpu[2])
{
	cpu_set_t s;
	int i, n = 0;

	if (sched_getaffinity(0, sizeof(s), &s))
		return false;
	for (i = 0; i < CPU_SETSIZE && n < 2; i++)
		if (CPU_ISSET(i, &s))
			cpu[n++] = i;
	return n == 2;
}

static void test_rearm_race(void **state)
{
	struct perf_event_attr a;
	struct race r;
	pthread_t t;
	cpu_set_t saved;
	int bare_phases, phases = 0, bare_stalls, stalls = 0;
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);

	(void)state;
	memset(&r, 0, sizeof(r));
	if (!two_cpus(r.cpu)) {
		print_message("# skip: needs two CPUs\n");
		skip();
	}
	sched_getaffinity(0, sizeof(saved), &saved);
	assert_int_equal(pthread_create(&t, NULL, worker, &r), 0);
	while (!r.worker_tid)
		;
	pin(r.cpu[1]);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = PERIOD_NS;
	a.sample_type = PERF_SAMPLE_TIME;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	a.disabled = 1;
	a.wakeup_events = 1;
	r.fd = (int)syscall(SYS_perf_event_open, &a, r.worker_tid, -1, -1, 0);
	r.map_len = (RING_PAGES + 1) * psz;
	if (r.fd >= 0) {
		r.pg = mmap(NULL, r.map_len, PROT_READ | PROT_WRITE, MAP_SHARED, r.fd, 0);
		if (r.pg == MAP_FAILED) {
			close(r.fd);
			r.fd = -1;
		}
	}
	if (r.fd < 0) {
		r.stop = 1;
		pthread_join(t, NULL);
		sched_setaffinity(0, sizeof(saved), &saved);
		print_message("# skip: no cpu-clock sampling here: %s\n", strerror(errno));
		skip();
	}
	bare_stalls = run(&r, bare_rearm, MAX_BARE_PHASES, true, &bare_phases);
	if (bare_stalls) {
		int want = 3 * bare_phases;

		want = want < MIN_PHASES ? MIN_PHASES : want > MAX_PHASES ? MAX_PHASES : want;

		stalls = run(&r, lib_rearm, want, false, &phases);
	}
	r.stop = 1;
	pthread_join(t, NULL);
	munmap(r.pg, r.map_len);
	close(r.fd);
	sched_setaffinity(0, sizeof(saved), &saved);
	if (!bare_stalls) {
		print_message("# skip: PERIOD + REFRESH alone never stalled in %d phases: the "
			      "race did not happen here\n", bare_phases);
		skip();
	}
	print_message("# PERIOD + REFRESH alone: stalled after %d phases; "
		      "pm_rec_burst__rearm: %d stalls in %d phases\n", bare_phases, stalls, phases);
	assert_int_equal(stalls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rearm_race),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
