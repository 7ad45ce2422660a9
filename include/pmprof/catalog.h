/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events a machine describes, for `pmprof list`: perf's legacy
 * hardware, software and cache events, the tracepoints in tracefs, and
 * each sysfs PMU with its type, format terms and events/ aliases. The
 * catalog only reads files; whether an event opens is the caller's to
 * probe (the record layer's pm_recorder__probe_event).
 */
#ifndef PMPROF_CATALOG_H
#define PMPROF_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/error.h"

enum pm_catalog_kind {
	PM_CAT_HARDWARE,
	PM_CAT_SOFTWARE,
	PM_CAT_CACHE,
	PM_CAT_TRACEPOINT,
	PM_CAT_PMU,		/* an events/ alias of a sysfs PMU: "pmu/alias/" */
};

/* "hardware", "software", "cache", "tracepoint", "pmu". */
const char *pm_catalog_kind__name(enum pm_catalog_kind k);

struct pm_catalog_event {
	enum pm_catalog_kind kind;
	char *name;		/* as -e takes it */
	char *aliases;		/* other spellings, comma-separated, or NULL */
	uint32_t type;		/* legacy events and tracepoints */
	uint64_t config;
	const char *pmu;	/* PM_CAT_PMU: the PMU's name (in the catalog) */
	char *value;		/* PM_CAT_PMU: the alias's terms */
};

struct pm_catalog_term {
	char *name, *spec;	/* "event", "config:0-7" */
};

struct pm_catalog_pmu {
	char *name;
	uint32_t type;
	bool core;
	struct pm_catalog_term *formats;
	size_t nr_formats;
};

struct pm_catalog {
	struct pm_catalog_event *ev;
	size_t nr, alloc;
	struct pm_catalog_pmu *pmus;
	size_t nr_pmus;
	bool have_tracefs;
};

/* Read everything under sysfs_root (NULL: /sys). Events in kind order,
 * then by name. Missing tracefs or PMUs are no error. */
int pm_catalog__read(struct pm_catalog *c, const char *sysfs_root, struct pm_error *err);
void pm_catalog__release(struct pm_catalog *c);

#endif
