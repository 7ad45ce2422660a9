// SPDX-License-Identifier: GPL-2.0
/*
 * The behavioural hf ABI probe (see pmprof/hfprobe.h): open the event
 * with an hf window, run a busy loop, and judge the periods the kernel
 * wrote in the samples.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pmprof/attr.h"
#include "pmprof/hfprobe.h"
#include "pmprof/record.h"
#include "pmprof/util.h"
#include "record-int.h"

#define SW_CPU_CLOCK	0
#define SW_TASK_CLOCK	1
#define PROBE_SAMPLES	12	/* P - H first, then 5 more pairs */
#define PROBE_ROUNDS	3	/* runs before an unclear answer counts as no */
#define PROBE_CPU_NS	250000000LL	/* busy loop budget per run (thread CPU) */
#define PROBE_WALL_NS	3000000000LL	/* ... and in wall time (a loaded host) */

static bool is_hrtimer_event(uint32_t type, uint64_t config)
{
	return type == PERF_TYPE_SOFTWARE &&
	       (config == SW_CPU_CLOCK || config == SW_TASK_CLOCK);
}

void pm_hf_probe__plan(uint32_t type, uint64_t config, struct pm_hf_probe_plan *p)
{
	if (is_hrtimer_event(type, config)) {
		/* ns; hrtimers take periods from 10 us */
		p->period = 1000000;
		p->hf_period = 200000;
	} else {
		/* events: 12 samples in ~0.7 M cycles */
		p->period = 100000;
		p->hf_period = 10000;
	}
	p->samples = PROBE_SAMPLES;
}

void pm_hf_probe__event_for(uint32_t type, uint64_t config,
			    uint32_t *probe_type, uint64_t *probe_config)
{
	if (is_hrtimer_event(type, config)) {
		*probe_type = type;
		*probe_config = config;
	} else if (pm_recorder__probe_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES)) {
		*probe_type = PERF_TYPE_HARDWARE;
		*probe_config = PERF_COUNT_HW_CPU_CYCLES;
	} else {
		*probe_type = PERF_TYPE_SOFTWARE;
		*probe_config = SW_CPU_CLOCK;
	}
}

/* "a, b, c, ..." of the first periods, for messages. */
static void list_periods(char *buf, size_t size, const uint64_t *v, size_t n)
{
	size_t i, len = 0;

	buf[0] = 0;
	for (i = 0; i < n && i < 6 && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%llu", i ? ", " : "",
					(unsigned long long)v[i]);
	if (n > 6 && len < size)
		snprintf(buf + len, size - len, ", ...");
}

enum pm_hf_verdict pm_hf_probe__judge(const struct pm_hf_probe_plan *p,
				      const uint64_t *periods, size_t n,
				      char *why, size_t why_size)
{
	uint64_t lng = p->period - p->hf_period, h = p->hf_period;
	bool exact = true, same = true, only_two = true;
	char seen[96];
	size_t i;

	list_periods(seen, sizeof(seen), periods, n);
	if (n < p->samples) {
		snprintf(why, why_size, "the probe got %zu samples of the %zu it needs", n, p->samples);
		return PM_HF_UNCLEAR;
	}
	for (i = 0; i < n; i++) {
		uint64_t want = i % 2 ? h : lng;

		if (periods[i] != want)
			exact = false;
		if (periods[i] != periods[0])
			same = false;
		if (periods[i] != lng && periods[i] != h)
			only_two = false;
	}
	if (exact) {
		snprintf(why, why_size,
			 "the kernel alternates sample periods as asked (%llu then %llu, %zu samples)",
			 (unsigned long long)lng, (unsigned long long)h, n);
		return PM_HF_PRESENT;
	}
	if (same) {
		snprintf(why, why_size,
			 "the kernel takes 144-byte attrs but ignores hf_sample_period: "
			 "every sample's period is %llu, not %llu and %llu in turn",
			 (unsigned long long)periods[0], (unsigned long long)lng,
			 (unsigned long long)h);
		return PM_HF_ABSENT;
	}
	if (only_two) {
		snprintf(why, why_size, "sample periods alternate only in part (%s): a sample lost?",
			 seen);
		return PM_HF_UNCLEAR;
	}
	snprintf(why, why_size,
		 "the kernel takes 144-byte attrs but its sample periods (%s) do not alternate "
		 "between %llu and %llu as asked", seen, (unsigned long long)lng,
		 (unsigned long long)h);
	return PM_HF_ABSENT;
}

/* perf_event_open for the calling thread; on E2BIG the kernel writes the
 * attr size it knows into buf. */
static long open_attr(const struct pm_attr *a, uint8_t buf[PM_ATTR_SIZE_VER9])
{
	pm_attr__encode(a, buf, PM_ATTR_SIZE_VER9, false);
	return syscall(SYS_perf_event_open, buf, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static int64_t now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Read the samples' periods out of the ring; false on LOST or THROTTLE. */
static bool drain(struct pm_ring *rb, uint64_t *periods, size_t *n, size_t max)
{
	const struct perf_event_header *h;
	bool clean = true;
	size_t sz;

	pm_ring__begin(rb);
	while ((h = pm_ring__next(rb, &sz))) {
		if (h->type == PERF_RECORD_SAMPLE && sz >= sizeof(*h) + 8) {
			uint64_t v;

			memcpy(&v, (const uint8_t *)h + sizeof(*h), sizeof(v));
			if (*n < max)
				periods[(*n)++] = v;
		} else if (h->type == PERF_RECORD_LOST || h->type == PERF_RECORD_THROTTLE) {
			clean = false;
		}
	}
	pm_ring__end(rb);
	return clean;
}

/*
 * One run. Returns the verdict (PRESENT/ABSENT/UNCLEAR) with out->why
 * and out->definite set; ABSENT with definite false when the event
 * cannot be probed.
 */
static enum pm_hf_verdict run_once(uint32_t type, uint64_t config, struct pm_hf_probe *out)
{
	struct pm_hf_probe_plan plan;
	uint8_t buf[PM_ATTR_SIZE_VER9];
	uint64_t periods[64];
	struct pm_ring rb;
	struct pm_error err;
	struct pm_attr a;
	int64_t cpu0, wall0;
	uint64_t spin = 0;
	size_t n = 0;
	bool clean = true;
	long fd;
	int e;

	pm_hf_probe__plan(type, config, &plan);
	memset(&a, 0, sizeof(a));
	a.type = type;
	a.config = config;
	a.size = PM_ATTR_SIZE_VER9;
	a.sample_period = plan.period;
	a.sample_type = PERF_SAMPLE_PERIOD;
	a.hf_sample_period = (uint32_t)plan.hf_period;
	pm_attr__set_flag(&a, PM_ATTR_DISABLED, true);
	pm_attr__set_flag(&a, PM_ATTR_EXCLUDE_KERNEL, true);
	pm_attr__set_flag(&a, PM_ATTR_EXCLUDE_HV, true);
	out->definite = false;
	fd = open_attr(&a, buf);
	if (fd < 0) {
		e = errno;
		if (e == E2BIG) {
			uint32_t ks = (uint32_t)buf[4] | (uint32_t)buf[5] << 8 |
				      (uint32_t)buf[6] << 16 | (uint32_t)buf[7] << 24;

			snprintf(out->why, sizeof(out->why),
				 "this kernel does not take 144-byte attrs with hf_sample "
				 "(perf_event_open: E2BIG, it knows %u bytes)", ks);
			out->definite = true;
			return PM_HF_ABSENT;
		}
		/* is it the hf field the kernel refuses, or the event? */
		a.size = PM_ATTR_SIZE_VER7;
		a.hf_sample_period = 0;
		fd = open_attr(&a, buf);
		if (fd >= 0) {
			close((int)fd);
			snprintf(out->why, sizeof(out->why),
				 "this kernel refuses attrs with hf_sample_period (perf_event_open: %s)",
				 strerror(e));
			out->definite = e == EINVAL;
			return PM_HF_ABSENT;
		}
		snprintf(out->why, sizeof(out->why),
			 "cannot probe the hf ABI with %s (perf_event_open: %s)",
			 type == PERF_TYPE_HARDWARE ? "cycles" : "cpu-clock", strerror(errno));
		return PM_HF_ABSENT;
	}
	if (pm_ring__map(&rb, (int)fd, 1, &err) < 0) {
		snprintf(out->why, sizeof(out->why), "cannot probe the hf ABI: %.250s", err.msg);
		close((int)fd);
		return PM_HF_ABSENT;
	}
	cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	wall0 = now_ns(CLOCK_MONOTONIC);
	ioctl((int)fd, PERF_EVENT_IOC_ENABLE, 0);
	while (n < plan.samples && clean) {
		/* work the compiler cannot drop: the event counts it */
		for (int i = 0; i < 20000; i++) {
			spin += (uint64_t)i;
			__asm__ volatile("" : "+r"(spin));
		}
		clean = drain(&rb, periods, &n, PM_ARRAY_SIZE(periods));
		if (now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0 > PROBE_CPU_NS ||
		    now_ns(CLOCK_MONOTONIC) - wall0 > PROBE_WALL_NS)
			break;
	}
	ioctl((int)fd, PERF_EVENT_IOC_DISABLE, 0);
	clean = drain(&rb, periods, &n, PM_ARRAY_SIZE(periods)) && clean;
	pm_ring__unmap(&rb);
	close((int)fd);
	if (!clean) {
		snprintf(out->why, sizeof(out->why), "the probe run was throttled or lost samples");
		return PM_HF_UNCLEAR;
	}
	out->definite = true;
	return pm_hf_probe__judge(&plan, periods, n < plan.samples ? n : plan.samples,
				  out->why, sizeof(out->why));
}

/* This boot's id, or "" when the kernel does not say. */
static void boot_id(char *buf, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	buf[0] = 0;
	if (!f)
		return;
	if (!fgets(buf, (int)size, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	/* a uuid: hex digits and dashes; anything else is not used */
	if (strspn(buf, "0123456789abcdef-") != strlen(buf))
		buf[0] = 0;
}

int pm_hf_probe__kernel(uint32_t type, uint64_t config, struct pm_hf_probe *out)
{
	char path[4096], boot[64];
	enum pm_hf_verdict v = PM_HF_UNCLEAR;
	bool cache;
	int round;

	memset(out, 0, sizeof(*out));
	out->type = type;
	out->config = config;
	boot_id(boot, sizeof(boot));
	cache = boot[0] && !pm_hf_probe__cache_path(path, sizeof(path));
	if (cache && pm_hf_probe__cache_get(path, boot, type, config, out) == 1) {
		out->cached = true;
		return 0;
	}
	for (round = 0; round < PROBE_ROUNDS && v == PM_HF_UNCLEAR; round++)
		v = run_once(type, config, out);
	if (v == PM_HF_UNCLEAR) {
		/* never "yes" on doubt: burst mode works on every kernel */
		v = PM_HF_ABSENT;
		out->definite = false;
	}
	out->verdict = v;
	if (cache && out->definite)
		pm_hf_probe__cache_put(path, boot, out);
	return 0;
}
