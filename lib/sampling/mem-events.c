// SPDX-License-Identifier: GPL-2.0
/*
 * The events `pmprof mem record` samples, as `perf mem record` picks
 * them, decided by the PMUs sysfs describes (so a fixture directory
 * stands for another machine):
 *  - Alpha with ProfileMe (a core PMU with a profileme format term, EV67
 *    and later): cpu/cycles,profileme/, the seed's mem-ldst event. Not
 *    cycles:p: a precise event samples only retired instructions, and a
 *    load or store that misses the DTB is aborted and refetched.
 *  - AMD: the IBS Op PMU, ibs_op//.
 *  - Arm: SPE, loads and stores with a latency of at least 30 cycles.
 *  - Intel: the core PMU's mem-loads (ldlat 30) and mem-stores, precise.
 * perf mem record adds -W (weight) and -d (data addresses and sources).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/evspec.h"
#include "pmprof/util.h"
#include "sampling/evspec-int.h"

#define LDLAT 30	/* perf mem's default load latency threshold */

static bool has_format(const char *root, const char *pmu, const char *term)
{
	int field;
	uint64_t mask;

	return !pm_sysfs_pmu_format(root, pmu, term, &field, &mask);
}

static bool has_event(const char *root, const char *pmu, const char *name)
{
	char *a = pm_sysfs_pmu_alias(root, pmu, name);

	free(a);
	return a != NULL;
}

int pm_mem_events__choose(const char *root, struct pm_mem_events *out)
{
	size_t n, i;
	char **pmus = pm_sysfs_pmus(root, &n);
	int ret = -1;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n && ret; i++)
		if (pm_sysfs_pmu_is_core(root, pmus[i]) && has_format(root, pmus[i], "profileme")) {
			snprintf(out->ev[0], sizeof(out->ev[0]), "%s/cycles,profileme/", pmus[i]);
			snprintf(out->what, sizeof(out->what),
				 "Alpha ProfileMe (%s has the profileme format term): DTB hits and "
				 "misses of loads, stores and prefetches", pmus[i]);
			out->nr = 1;
			ret = 0;
		}
	for (i = 0; i < n && ret; i++)
		if (!strcmp(pmus[i], "ibs_op")) {
			snprintf(out->ev[0], sizeof(out->ev[0]), "ibs_op//");
			snprintf(out->what, sizeof(out->what), "AMD IBS Op");
			out->nr = 1;
			ret = 0;
		}
	for (i = 0; i < n && ret; i++)
		if (!strncmp(pmus[i], "arm_spe_", 8)) {
			snprintf(out->ev[0], sizeof(out->ev[0]),
				 "%s/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=%d/",
				 pmus[i], LDLAT);
			snprintf(out->what, sizeof(out->what), "Arm SPE (%s)", pmus[i]);
			out->nr = 1;
			ret = 0;
		}
	for (i = 0; i < n && ret; i++)
		if (pm_sysfs_pmu_is_core(root, pmus[i]) && has_event(root, pmus[i], "mem-loads")) {
			snprintf(out->ev[0], sizeof(out->ev[0]), "%s/mem-loads,ldlat=%d/P", pmus[i], LDLAT);
			out->nr = 1;
			if (has_event(root, pmus[i], "mem-stores"))
				snprintf(out->ev[out->nr++], sizeof(out->ev[0]), "%s/mem-stores/P", pmus[i]);
			snprintf(out->what, sizeof(out->what), "%s's mem-loads%s", pmus[i],
				 out->nr > 1 ? " and mem-stores" : "");
			ret = 0;
		}
	pm_sysfs_free_list(pmus, n);
	return ret;
}
