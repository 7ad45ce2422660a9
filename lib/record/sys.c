// SPDX-License-Identifier: GPL-2.0
/*
 * The system side of recording: perf_event_open with errors a user can
 * act on, event probes, CPU lists and clock names (the hf ABI probe:
 * hfprobe.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pmprof/attr.h"
#include "pmprof/record.h"
#include "pmprof/util.h"

#ifndef CLOCK_TAI
#define CLOCK_TAI 11
#endif

static const char *const hf_mode_names[] = {
	[PM_HF_AUTO] = "auto", [PM_HF_KERNEL] = "kernel", [PM_HF_BURST] = "burst",
	[PM_HF_FIXED] = "fixed", [PM_HF_OFF] = "off", [PM_HF_STROBE] = "strobe",
	[PM_HF_NONE] = "none",
};

const char *pm_hf_mode__name(enum pm_hf_mode m)
{
	return (unsigned int)m < PM_ARRAY_SIZE(hf_mode_names) ? hf_mode_names[m] : "?";
}

int pm_hf_mode__parse(const char *s, enum pm_hf_mode *out)
{
	unsigned int i;

	for (i = 0; i < PM_HF_NONE; i++) {
		if (!strcmp(s, hf_mode_names[i])) {
			*out = (enum pm_hf_mode)i;
			return 0;
		}
	}
	return -1;
}

const char *pm_burst_scope__name(enum pm_burst_scope s)
{
	switch (s) {
	case PM_BURST_SCOPE_CPU: return "per CPU";
	case PM_BURST_SCOPE_CGROUP: return "per CPU in the workload's cgroup";
	case PM_BURST_SCOPE_THREAD: return "per thread, without inherit";
	default: return "none";
	}
}

/* ---- CPU lists ---- */

static int read_cpu_ranges(const char *s, struct pm_cpu_list *l,
			   struct pm_error *err)
{
	const char *p = s;
	char *end;

	l->cpus = NULL;
	l->nr = 0;
	while (*p) {
		long a, b;

		if (!isdigit((unsigned char)*p))
			goto bad;
		a = strtol(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			b = strtol(p, &end, 10);
			p = end;
		}
		if (a > b || b > 4095)
			goto bad;
		for (; a <= b; a++) {
			l->cpus = pm_reallocarray(l->cpus, (size_t)l->nr + 1, sizeof(int));
			l->cpus[l->nr++] = (int)a;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
		else if (*p == '\n')
			break;
	}
	return 0;
bad:
	pm_cpu_list__exit(l);
	return pm_error__fmt(err, PM_EUSAGE, "bad CPU list '%s' (expected e.g. 0-3,5)", s);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int pm_cpu_list__online(struct pm_cpu_list *l, struct pm_error *err)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");

	if (f && fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return read_cpu_ranges(buf, l, err);
	}
	if (f)
		fclose(f);
	/* no sysfs: 0..n-1 */
	l->nr = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (l->nr < 1)
		l->nr = 1;
	l->cpus = pm_calloc((size_t)l->nr, sizeof(int));
	for (int i = 0; i < l->nr; i++)
		l->cpus[i] = i;
	return 0;
}

int pm_cpu_list__parse(struct pm_cpu_list *l, const char *s, struct pm_error *err)
{
	struct pm_cpu_list on;
	int i, j, k, ret;

	if (!*s)
		return pm_error__fmt(err, PM_EUSAGE, "empty CPU list");
	ret = read_cpu_ranges(s, l, err);
	if (ret)
		return ret;
	qsort(l->cpus, (size_t)l->nr, sizeof(int), cmp_int);
	for (i = 0, k = 0; i < l->nr; i++)
		if (!k || l->cpus[k - 1] != l->cpus[i])
			l->cpus[k++] = l->cpus[i];
	l->nr = k;
	if (pm_cpu_list__online(&on, err))
		return -PM_EUSAGE;
	for (i = 0; i < l->nr; i++) {
		for (j = 0; j < on.nr && on.cpus[j] != l->cpus[i]; j++)
			;
		if (j == on.nr) {
			ret = pm_error__fmt(err, PM_EUSAGE,
					    "CPU %d in '%s' is not online (online: %d-%d, %d CPUs)",
					    l->cpus[i], s, on.cpus[0], on.cpus[on.nr - 1], on.nr);
			pm_cpu_list__exit(&on);
			pm_cpu_list__exit(l);
			return ret;
		}
	}
	pm_cpu_list__exit(&on);
	return 0;
}

void pm_cpu_list__exit(struct pm_cpu_list *l)
{
	free(l->cpus);
	l->cpus = NULL;
	l->nr = 0;
}

/* ---- clocks ---- */

static const struct {
	const char *name;
	int id;
} clocks[] = {
	{ "realtime", CLOCK_REALTIME },
	{ "monotonic", CLOCK_MONOTONIC },
	{ "monotonic_raw", CLOCK_MONOTONIC_RAW },
	{ "boottime", CLOCK_BOOTTIME },
	{ "tai", CLOCK_TAI },
	{ "mono", CLOCK_MONOTONIC },
	{ "raw", CLOCK_MONOTONIC_RAW },
	{ "real", CLOCK_REALTIME },
	{ "boot", CLOCK_BOOTTIME },
	{ "mono_raw", CLOCK_MONOTONIC_RAW },
};

int pm_clockid__parse(const char *s, int *clockid)
{
	char *end;
	long v;
	unsigned int i;

	if (!strncasecmp(s, "CLOCK_", 6))
		s += 6;
	for (i = 0; i < PM_ARRAY_SIZE(clocks); i++) {
		if (!strcasecmp(s, clocks[i].name)) {
			*clockid = clocks[i].id;
			return 0;
		}
	}
	v = strtol(s, &end, 0);
	if (end == s || *end || v < 0 || v > 15)
		return -1;
	*clockid = (int)v;
	return 0;
}

const char *pm_clockid__name(int clockid)
{
	unsigned int i;

	for (i = 0; i < 5; i++)
		if (clocks[i].id == clockid)
			return clocks[i].name;
	return "?";
}

/* ---- perf_event_open ---- */

int pm_perf_event_open(const struct pm_attr *attr, int pid, int cpu,
		       int group_fd, unsigned long flags, const char *name,
		       struct pm_error *err)
{
	uint8_t buf[PM_ATTR_SIZE_VER9];
	uint32_t size = attr->size ? attr->size : PM_ATTR_SIZE_VER7;
	long fd;
	int e;

	if (size > sizeof(buf))
		size = sizeof(buf);
	pm_attr__encode(attr, buf, size, false);
	fd = syscall(SYS_perf_event_open, buf, pid, cpu, group_fd, flags | 8UL /* CLOEXEC */);
	if (fd >= 0)
		return (int)fd;
	e = errno;
	if (!name)
		name = "event";
	switch (e) {
	case EACCES:
	case EPERM: {
		struct pm_perf_access acc;

		pm_perf_access__read(&acc);
		return pm_perf_access__error(&acc, attr,
					     pid == -1 || (flags & 4UL /* PID_CGROUP */),
					     name, e, err);
	}
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		return pm_error__fmt(err, e,
			"%s: not supported by this machine (%s): no hardware PMU or no such event",
			name, strerror(e));
	case E2BIG: {
		uint32_t ks = (uint32_t)buf[4] | (uint32_t)buf[5] << 8 |
			      (uint32_t)buf[6] << 16 | (uint32_t)buf[7] << 24;

		return pm_error__fmt(err, e,
			"%s: the kernel does not take %u-byte attrs (it knows %u bytes): "
			"no hf_sample support; use --hf-mode burst",
			name, size, ks);
	}
	case EINVAL: {
		unsigned int max;

		/* a freq= term is not fitted to the maximum as -F is */
		if (pm_attr__flag(attr, PM_ATTR_FREQ) && !pm_kernel__max_sample_rate(&max) &&
		    attr->sample_period > max)
			return pm_error__fmt(err, e,
				"%s: frequency %llu Hz is above kernel.perf_event_max_sample_rate "
				"(%u Hz): ask for less, or raise the limit in "
				"/proc/sys/kernel/perf_event_max_sample_rate",
				name, (unsigned long long)attr->sample_period, max);
		return pm_error__fmt(err, e, "%s: perf_event_open failed: %s (cpu %d, pid %d)",
				     name, strerror(e), cpu, pid);
	}
	case EMFILE:
		return pm_error__fmt(err, e,
			"%s: too many open files: raise `ulimit -n` (one file per event, CPU and thread)",
			name);
	case ESRCH:
		return pm_error__fmt(err, e, "%s: no such process %d", name, pid);
	case EBUSY:
		return pm_error__fmt(err, e, "%s: the PMU is busy (another tool holds it)", name);
	default:
		return pm_error__fmt(err, e, "%s: perf_event_open failed: %s (cpu %d, pid %d)",
				     name, strerror(e), cpu, pid);
	}
}

int pm_rec_probe_errno(uint32_t type, uint64_t config)
{
	uint8_t buf[PM_ATTR_SIZE_VER7];
	struct pm_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.type = type;
	a.config = config;
	a.size = PM_ATTR_SIZE_VER7;
	pm_attr__set_flag(&a, PM_ATTR_DISABLED, true);
	pm_attr__set_flag(&a, PM_ATTR_EXCLUDE_KERNEL, true);
	pm_attr__set_flag(&a, PM_ATTR_EXCLUDE_HV, true);
	pm_attr__encode(&a, buf, sizeof(buf), false);
	fd = syscall(SYS_perf_event_open, buf, 0, -1, -1, 8UL);
	if (fd < 0)
		return errno ? errno : EINVAL;
	close((int)fd);
	return 0;
}

bool pm_recorder__probe_event(uint32_t type, uint64_t config)
{
	return pm_rec_probe_errno(type, config) == 0;
}
