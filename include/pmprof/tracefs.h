/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracefs: where the kernel describes its tracepoints (events/SYS/NAME/id
 * and format). perf finds it at /sys/kernel/tracing, or under debugfs at
 * /sys/kernel/debug/tracing, and mounts it at /sys/kernel/tracing when a
 * tracepoint is asked for on a machine that has not mounted it; so does
 * `pmprof record`.
 */
#ifndef PMPROF_TRACEFS_H
#define PMPROF_TRACEFS_H

#include <stddef.h>

#include "pmprof/error.h"

#define PM_TRACEFS_MOUNTPOINT "/sys/kernel/tracing"

/* The tracefs directory under a sysfs root (NULL: /sys): the first of
 * ROOT/kernel/tracing and ROOT/kernel/debug/tracing that has events/.
 * 0 and the path, or -ENOENT. */
int pm_tracefs__find(const char *sysfs_root, char *path, size_t size);

/* Mount tracefs at /sys/kernel/tracing, as perf does. 0, or -errno with
 * a message that says how to do it by hand. */
int pm_tracefs__mount(struct pm_error *err);

#endif
