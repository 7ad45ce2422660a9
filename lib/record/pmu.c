// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's CPU PMU as sysfs describes it (under a root, so that a
 * tree of files can describe another machine): which vendor's, the events
 * it lists, its caps/, and the CPUID that tells an AMD core's generation.
 * Also the PMU_CAPS features a recording gets, as perf copies them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/pmu_events.h"
#include "pmprof/util.h"
#include "record-int.h"
#include "sampling/evspec-int.h"

#define PMU_DIR "bus/event_source/devices"

bool pm_core_pmu__has_event(const char *root, const struct pm_core_pmu *p,
			    const char *event)
{
	char *a = pm_sysfs_pmu_alias(root, p->name, event);

	free(a);
	return a != NULL;
}

/* The CPUID perf would record: the caller's (PERF_CPUID), else on x86
 * this CPU's from /proc/cpuinfo; never the running CPU's for a tree of
 * files that describes another machine. */
static void cpuid_of(const char *root, const char *given, char *out, size_t size)
{
	const char *env = getenv("PERF_CPUID");
	char vendor[64], fam[16], model[16];

	out[0] = 0;
	if (given || env) {
		snprintf(out, size, "%s", given ? given : env);
		return;
	}
	if (root)
		return;
	if (pm_cpuinfo_value("vendor_id", vendor, sizeof(vendor)) &&
	    pm_cpuinfo_value("cpu family", fam, sizeof(fam)) &&
	    pm_cpuinfo_value("model", model, sizeof(model)))
		snprintf(out, size, "%s,%s,%s,0", vendor, fam, model);
}

static bool is_arm_name(const char *n)
{
	return !strncmp(n, "armv8", 5) || !strncmp(n, "armv9", 5);
}

int pm_core_pmu__find(const char *root, const char *cpuid, struct pm_core_pmu *p)
{
	char **names, *fmt;
	size_t nr, i;
	char vendor[32];

	memset(p, 0, sizeof(*p));
	cpuid_of(root, cpuid, p->cpuid, sizeof(p->cpuid));
	names = pm_sysfs_pmus(root, &nr);
	/* Arm: armv8_pmuv3_0, armv8_cortex_a72 ..., or any PMU that lists
	 * Arm's cpu_cycles */
	for (i = 0; i < nr && !p->vendor; i++) {
		char *a = pm_sysfs_pmu_alias(root, names[i], "cpu_cycles");

		if (is_arm_name(names[i]) || a) {
			char *slots = pm_sysfs_read(root, PMU_DIR "/%s/caps/slots", names[i]);

			p->vendor = PM_CORE_ARM;
			snprintf(p->name, sizeof(p->name), "%s", names[i]);
			p->slots = slots ? (double)strtoul(slots, NULL, 0) : 0;
			free(slots);
		}
		free(a);
	}
	/* x86: "cpu", or a hybrid's performance cores, with x86's edge and
	 * inv bits; AMD's event field spans config:0-7,32-35, Intel's
	 * config:0-7 */
	for (i = 0; i < nr && !p->vendor; i++) {
		char *edge;

		if (strcmp(names[i], "cpu") && strcmp(names[i], "cpu_core"))
			continue;
		edge = pm_sysfs_read(root, PMU_DIR "/%s/format/edge", names[i]);
		free(edge);
		if (!edge)
			continue;
		snprintf(p->name, sizeof(p->name), "%s", names[i]);
		fmt = pm_sysfs_read(root, PMU_DIR "/%s/format/event", names[i]);
		p->vendor = fmt && strstr(fmt, "32-35") ? PM_CORE_AMD : PM_CORE_INTEL;
		free(fmt);
	}
	pm_sysfs_free_list(names, nr);
	if (p->vendor == PM_CORE_AMD || p->vendor == PM_CORE_INTEL)
		pm_cpuid__x86(p->cpuid, vendor, sizeof(vendor), &p->family, &p->model);
	return p->vendor ? 0 : -1;
}

int pm_synth__pmu_caps(struct pm_writer *w, const char *root, struct pm_error *err)
{
	struct pm_pmu_caps *caps = NULL;
	char **pmus;
	size_t nr_pmus, nr = 0, i, k;
	int ret;

	pmus = pm_sysfs_pmus(root, &nr_pmus);
	caps = pm_calloc(nr_pmus + 1, sizeof(*caps));
	for (i = 0; i < nr_pmus; i++) {
		size_t n;
		char **files = pm_sysfs_pmu_dir(root, pmus[i], "caps", &n);
		struct pm_pmu_caps *c = &caps[nr];

		if (!n) {
			pm_sysfs_free_list(files, n);
			continue;
		}
		c->pmu = pm_strdup(pmus[i]);
		c->names = files;
		c->values = pm_calloc(n, sizeof(char *));
		c->nr = (uint32_t)n;
		for (k = 0; k < n; k++) {
			char *v = pm_sysfs_read(root, PMU_DIR "/%s/caps/%s", pmus[i], files[k]);

			c->values[k] = v ? v : pm_strdup("");
		}
		nr++;
	}
	ret = nr ? pm_writer__set_pmu_caps(w, caps, nr, err) : 0;
	for (i = 0; i < nr; i++) {
		pm_sysfs_free_list(caps[i].names, caps[i].nr);
		pm_sysfs_free_list(caps[i].values, caps[i].nr);
		free(caps[i].pmu);
	}
	free(caps);
	pm_sysfs_free_list(pmus, nr_pmus);
	return ret;
}
