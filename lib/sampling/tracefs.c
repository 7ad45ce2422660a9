// SPDX-License-Identifier: GPL-2.0
/* Finding tracefs, and mounting it where a fresh machine has not. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "pmprof/tracefs.h"
#include "pmprof/util.h"

int pm_tracefs__find(const char *sysfs_root, char *path, size_t size)
{
	static const char *const dirs[] = { "kernel/tracing", "kernel/debug/tracing" };
	struct stat sb;
	char events[4200];
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(dirs); i++) {
		snprintf(path, size, "%s/%s", sysfs_root ? sysfs_root : "/sys", dirs[i]);
		snprintf(events, sizeof(events), "%s/events", path);
		if (!stat(events, &sb) && S_ISDIR(sb.st_mode))
			return 0;
	}
	return -ENOENT;
}

int pm_tracefs__mount(struct pm_error *err)
{
	if (!mount("none", PM_TRACEFS_MOUNTPOINT, "tracefs", 0, NULL))
		return 0;
	return pm_error__fmt(err, errno,
			     "tracefs is not mounted, and mounting it at " PM_TRACEFS_MOUNTPOINT
			     " failed: %s (as root: mount -t tracefs none " PM_TRACEFS_MOUNTPOINT ")",
			     strerror(errno));
}
