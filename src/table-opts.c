// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "table-opts.h"
#include "pmprof/strbuf.h"
#include "pmprof/table-fit.h"

size_t pm_table_cli__width(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	char *end;
	long v;

	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 40)
		return ws.ws_col;
	if (env && *env) {
		v = strtol(env, &end, 10);
		if (!*end && v >= 40)
			return (size_t)v;
	}
	return 120;
}

int pm_table_cli__apply(const struct pm_table_cli *o, struct pm_table *t, bool text,
			size_t fixed, int elastic)
{
	struct pm_table_fit f = { .elastic = elastic, .fixed = fixed };
	struct pm_strbuf gone = PM_STRBUF_INIT;
	struct pm_error err = { 0 };
	size_t n;

	if (o->columns && pm_table__keep_columns(t, fixed, o->columns, &err))
		return pm_cli_error(PM_EXIT_USAGE, "--columns", &err);
	if (!text || o->wide)
		return 0;
	/* the columns asked for stay: only the names are cut */
	f.width = pm_table_cli__width();
	if (o->columns)
		f.fixed = pm_table__nr_columns(t);
	n = pm_table__fit(t, &f, &gone);
	if (n)
		pm_table__add_comment(t, "%zu column%s left out to fit %zu characters "
				      "(--wide shows them, --columns chooses): %s",
				      n, n == 1 ? "" : "s", f.width, pm_strbuf__str(&gone));
	pm_strbuf__release(&gone);
	return 0;
}
