// SPDX-License-Identifier: GPL-2.0
/*
 * The vdso image of this process, as a stand-in for a recording's
 * "[vdso]" made on this host (the kernel maps the same image into every
 * process). /proc/self/maps gives where it is; it is readable memory.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/error.h"
#include "pmprof/util.h"
#include "symbols/internal.h"

int pm_vdso__self_image(void **buf, size_t *len, struct pm_error *err)
{
	char *maps, *line, *save = NULL;
	size_t n;
	int r = pm_read_file("/proc/self/maps", &maps, &n, err);

	if (r < 0)
		return r;
	for (line = strtok_r(maps, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		uint64_t lo, hi;

		if (!strstr(line, "[vdso]") ||
		    sscanf(line, "%" SCNx64 "-%" SCNx64, &lo, &hi) != 2 ||
		    hi <= lo || hi - lo > (64u << 20))
			continue;
		free(maps);
		*len = (size_t)(hi - lo);
		*buf = pm_malloc(*len);
		memcpy(*buf, (const void *)(uintptr_t)lo, *len);
		return 0;
	}
	free(maps);
	return pm_error__fmt(err, PM_EUNSUP, "this process has no [vdso]");
}
