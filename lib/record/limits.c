// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's limits on who records what, and how fast: the maximum
 * sample rate (kernel.perf_event_max_sample_rate) and perf_event_paranoid
 * with the capabilities that bypass it. The decisions are pure functions
 * of the values, so that tests can give them any value without touching
 * the sysctls; the readers take this machine's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/attr.h"
#include "pmprof/record.h"
#include "pmprof/util.h"

#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38

static int read_int_file(const char *path, long long *v)
{
	FILE *f = fopen(path, "r");
	int ret = 0;

	if (!f)
		return -errno;
	if (fscanf(f, "%lld", v) != 1)
		ret = -EINVAL;
	fclose(f);
	return ret;
}

int pm_kernel__max_sample_rate(unsigned int *hz)
{
	long long v;
	int ret = read_int_file("/proc/sys/kernel/perf_event_max_sample_rate", &v);

	if (ret)
		return ret;
	if (v <= 0 || v > UINT32_MAX)
		return -ERANGE;
	*hz = (unsigned int)v;
	return 0;
}

enum pm_freq_fit pm_record__fit_freq(uint64_t asked, bool strict,
				     unsigned int max_rate, uint64_t *freq)
{
	*freq = asked;
	if (!max_rate || asked <= max_rate)
		return PM_FREQ_AS_ASKED;
	if (strict)
		return PM_FREQ_TOO_HIGH;
	*freq = max_rate;
	return PM_FREQ_LOWERED;
}

/* ---- perf_event_paranoid ---- */

/* Effective capabilities of this process ("CapEff:" of /proc/self/status). */
static uint64_t effective_caps(void)
{
	char line[256];
	uint64_t caps = 0;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "CapEff:", 7)) {
			caps = strtoull(line + 7, NULL, 16);
			break;
		}
	fclose(f);
	return caps;
}

void pm_perf_access__read(struct pm_perf_access *acc)
{
	long long v;
	uint64_t caps = effective_caps();

	/* unreadable: the kernel's default */
	acc->paranoid = read_int_file("/proc/sys/kernel/perf_event_paranoid", &v) ? 2 : (int)v;
	acc->privileged = (caps >> CAP_PERFMON_BIT & 1) || (caps >> CAP_SYS_ADMIN_BIT & 1);
}

int pm_perf_access__needed(const struct pm_attr *a, bool cpu_wide)
{
	int need = 2;

	/*
	 * The kernel's checks for a caller without CAP_PERFMON: kernel
	 * code (!exclude_kernel) needs paranoid <= 1, CPU-wide events
	 * (pid -1, or a cgroup) <= 0, raw tracepoint data <= -1 (per task
	 * only a few tracepoints, the syscalls ones, are exempt).
	 */
	if (!pm_attr__flag(a, PM_ATTR_EXCLUDE_KERNEL))
		need = 1;
	if (cpu_wide)
		need = 0;
	if (a->type == PM_TYPE_TRACEPOINT && (a->sample_type & PM_SAMPLE_RAW))
		need = -1;
	return need;
}

bool pm_perf_access__user_only_helps(const struct pm_perf_access *acc,
				     const struct pm_attr *a, bool cpu_wide)
{
	struct pm_attr u;

	if (acc->privileged || pm_attr__flag(a, PM_ATTR_EXCLUDE_KERNEL) ||
	    pm_attr__flag(a, PM_ATTR_EXCLUDE_USER))
		return false;
	u = *a;
	pm_attr__set_flag(&u, PM_ATTR_EXCLUDE_KERNEL, true);
	return acc->paranoid > pm_perf_access__needed(a, cpu_wide) &&
	       acc->paranoid <= pm_perf_access__needed(&u, cpu_wide);
}

void pm_perf_access__user_name(const char *name, char *out, size_t size)
{
	/* perf's rule: a name that has modifiers or PMU terms takes a bare
	 * "u" ("cycles:p" -> "cycles:pu", "cpu/event=1/" -> "cpu/event=1/u") */
	snprintf(out, size, "%s%su", name, strpbrk(name, ":/") ? "" : ":");
}

/* The event as the user could give it for user space only: "cycles:k" ->
 * "cycles:u", "cpu/event=1/k" -> "cpu/event=1/u". */
static void user_only_spec(const char *name, char *out, size_t size)
{
	const char *slash = strrchr(name, '/');
	const char *mods = slash ? slash + 1 : strchr(name, ':');

	if (slash)
		snprintf(out, size, "%.*su", (int)(mods - name), name);
	else if (mods)
		snprintf(out, size, "%.*s:u", (int)(mods - name), name);
	else
		snprintf(out, size, "%s:u", name);
}

int pm_perf_access__error(const struct pm_perf_access *acc, const struct pm_attr *a,
			  bool cpu_wide, const char *name, int e, struct pm_error *err)
{
	int need = pm_perf_access__needed(a, cpu_wide);
	char user[200], alt[320] = "";
	const char *what;

	if (acc->privileged)
		return pm_error__fmt(err, e,
			"%s: no permission to open the event (%s) although this process has "
			"CAP_PERFMON or CAP_SYS_ADMIN: a security module or the kernel's "
			"lockdown forbids it", name, strerror(e));
	if (acc->paranoid <= need)
		return pm_error__fmt(err, e,
			"%s: no permission to open the event (%s; kernel.perf_event_paranoid "
			"is %d, which allows it: a security module forbids it?)",
			name, strerror(e), acc->paranoid);
	if (a->type == PM_TYPE_TRACEPOINT && (a->sample_type & PM_SAMPLE_RAW))
		what = "tracepoint samples (raw data)";
	else if (cpu_wide)
		what = "recording every CPU (-a, -C)";
	else if (need < 2)
		what = "sampling kernel code";
	else
		what = "any use of perf_event_open";
	if (!cpu_wide && need == 1 && a->type != PM_TYPE_TRACEPOINT) {
		/* leaving the kernel out needs 2 (an explicit :k event, or
		 * a level above 2 where nothing is allowed) */
		user_only_spec(name, user, sizeof(user));
		snprintf(alt, sizeof(alt), ", or %ssample user space only (-e %s)",
			 acc->paranoid > 2 ? "set it to 2 and " : "", user);
	}
	return pm_error__fmt(err, e,
		"%s: no permission to open the event (%s): kernel.perf_event_paranoid is %d, "
		"and %s without CAP_PERFMON needs %d or lower. Run as root or with "
		"CAP_PERFMON, or allow it with `sysctl -w kernel.perf_event_paranoid=%d`%s",
		name, strerror(e), acc->paranoid, what, need, need, alt);
}
