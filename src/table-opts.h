/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options that shape a printed table (pmprof/table-fit.h): --wide and
 * --columns. Text fits the terminal (its width, else $COLUMNS, else 120
 * columns): long symbols are cut with an ellipsis, then the last columns
 * are left out, with a comment naming them.
 */
#ifndef PMPROF_TABLE_OPTS_H
#define PMPROF_TABLE_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"
#include "pmprof/error.h"
#include "pmprof/table.h"

struct pm_table_cli {
	bool wide;		/* --wide: text as wide as it is */
	const char *columns;	/* --columns LIST, or NULL */
};

#define OPT_TABLE_FIT(o) \
	OPT_BOOLEAN(0, "wide", &(o)->wide, \
		    "text: every column and whole names, however wide"), \
	OPT_STRING(0, "columns", &(o)->columns, "list", \
		   "the columns to show, by name (commas between; an interval or truth goes with its metric)")

/* The width text fits: the terminal's, $COLUMNS, or 120. */
size_t pm_table_cli__width(void);

/*
 * Before printing t: --columns (the first `fixed` columns always stay),
 * then for text (and not --wide) the fit, the elastic column cut first
 * (-1: none). 0, or an exit code after a usage message.
 */
int pm_table_cli__apply(const struct pm_table_cli *o, struct pm_table *t, bool text,
			size_t fixed, int elastic);

#endif
