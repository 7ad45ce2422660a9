// SPDX-License-Identifier: GPL-2.0
/* Read a whole file, including /proc files whose size reads as 0. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmprof/error.h"
#include "pmprof/util.h"
#include "symbols/internal.h"

int pm_read_file(const char *path, char **buf, size_t *len,
		 struct pm_error *err)
{
	size_t alloc = 65536, n = 0;
	char *b;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return pm_error__fmt(err, errno, "%s: %s", path,
				     strerror(errno));
	b = pm_malloc(alloc + 1);
	for (;;) {
		ssize_t r;

		if (n == alloc) {
			alloc *= 2;
			b = pm_realloc(b, alloc + 1);
		}
		r = read(fd, b + n, alloc - n);
		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			close(fd);
			free(b);
			return pm_error__fmt(err, e, "%s: %s", path,
					     strerror(e));
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}
