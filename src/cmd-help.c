// SPDX-License-Identifier: GPL-2.0
/* pmprof help COMMAND: the command's man page, from docs/ or the system. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "cli.h"

/* The man page next to the binary (a build tree) or in the man path. */
static int show_man(const char *page)
{
	char self[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n > 0) {
		char *slash;

		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, sizeof(path), "%s/../docs/%s.1", self, page);
			if (access(path, R_OK) == 0)
				return execlp("man", "man", "-l", path, (char *)NULL);
		}
	}
	return execlp("man", "man", page, (char *)NULL);
}

int cmd_help(int argc, const char **argv)
{
	char page[128];

	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fprintf(stdout, "\n usage: pmprof help [COMMAND]\n\n"
			"    shows pmprof-COMMAND(1), or pmprof(1) without a command\n\n");
		return PM_EXIT_OK;
	}
	if (argc < 2)
		snprintf(page, sizeof(page), "pmprof");
	else
		snprintf(page, sizeof(page), "pmprof-%s", argv[1]);
	fflush(stdout);
	show_man(page);
	return pm_cli_errorf(PM_EXIT_USAGE, NULL,
			     "no manual page for '%s' (is man installed?)",
			     argc < 2 ? "pmprof" : argv[1]);
}
