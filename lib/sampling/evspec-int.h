/* SPDX-License-Identifier: GPL-2.0 */
/* Internal to lib/sampling: the sysfs side of the event parser. */
#ifndef PMPROF_SAMPLING_EVSPEC_INT_H
#define PMPROF_SAMPLING_EVSPEC_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Read a small sysfs file, trailing newline stripped; NULL if absent. */
char *pm_sysfs_read(const char *root, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

bool pm_sysfs_pmu_exists(const char *root, const char *pmu, size_t len);
/* PMU's type number; -1 when missing or not a number. */
int pm_sysfs_pmu_type(const char *root, const char *pmu, uint32_t *type);
/* The format/TERM file: 0 and field/mask, -1 when the PMU has no such term. */
int pm_sysfs_pmu_format(const char *root, const char *pmu, const char *term,
			int *field, uint64_t *mask);
/* The events/NAME alias text ("event=0x3c,umask=0"), or NULL. */
char *pm_sysfs_pmu_alias(const char *root, const char *pmu, const char *name);
/* The first PMU (in name order) with an events/NAME alias; NULL if none. */
char *pm_sysfs_find_alias_pmu(const char *root, const char *name);
/* Comma-separated list of the PMU's format terms (for messages). */
char *pm_sysfs_pmu_format_names(const char *root, const char *pmu);
/* A core PMU, as perf tells them: "cpu", "cpum_cf", or one with a cpus
 * file (the hybrid cpu_core and cpu_atom, Arm's armv8_pmuv3_0 ...). */
bool pm_sysfs_pmu_is_core(const char *root, const char *pmu);
/* How many core PMUs root has. */
int pm_sysfs_nr_core_pmus(const char *root);
/* Every PMU under root, sorted by name; free each and the array. */
char **pm_sysfs_pmus(const char *root, size_t *nr);
/* The sorted entries of PMU's events/ (or format/) directory. */
char **pm_sysfs_pmu_dir(const char *root, const char *pmu, const char *sub, size_t *nr);
void pm_sysfs_free_list(char **v, size_t nr);
/* A directory's entries but dot files, sorted; NULL (and 0) if none. */
char **pm_sysfs_list_dir(const char *path, size_t *nr);
/* A tracepoint's id from tracefs (or debugfs) under root. */
int pm_sysfs_tracepoint_id(const char *root, const char *sys, const char *name,
			   uint64_t *id);

#endif
