/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tables that fit: what a command does to a table before it prints it as
 * text for a person (pmprof/table.h) - the columns asked for, a mark on
 * the values to read with care, and no line wider than the terminal.
 */
#ifndef PMPROF_TABLE_FIT_H
#define PMPROF_TABLE_FIT_H

#include <stddef.h>

#include "pmprof/error.h"
#include "pmprof/strbuf.h"
#include "pmprof/table.h"

/*
 * A sign printed after the cell's value in text ("4.07?"), none in CSV,
 * TSV, JSON or HTML; 0 takes it away. Setting the value again clears it.
 * In a column with marks, text pads the other values so the digits stay
 * aligned. -EINVAL for a bad row or column, or a cell without a value.
 */
int pm_table__set_mark(struct pm_table *t, size_t row, size_t col, char mark);

/* The widest line text prints for the table (header included), in
 * characters, without the "# " comment lines. */
size_t pm_table__text_width(const struct pm_table *t);

/* Take a column out, with its cells. */
void pm_table__remove_column(struct pm_table *t, size_t col);

/*
 * --columns: keep the first `fixed` columns and those named in `list`
 * (commas between; each a column's key or name, in any case), in the
 * table's order. A name the table lacks is an error that lists its
 * columns. Columns go with the one they belong to, here and in the fit:
 * a column keyed "KEY:what" (an interval) with the one keyed KEY, the
 * columns of one JSON subgroup (a metric's truth and error) with its
 * first. Columns count as text shows them: those for JSON only
 * (pmprof/table.h's PM_SHOW_JSON) are not counted, named, or taken out
 * (by this; the fit, for text only, drops those after a column it drops).
 */
int pm_table__keep_columns(struct pm_table *t, size_t fixed, const char *list,
			   struct pm_error *err);

struct pm_table_fit {
	size_t width;		/* the widest line allowed; 0: any */
	int elastic;		/* the column cut first (its strings end in
				   "…"): a symbol, by its place among the
				   shown ones; -1: none */
	size_t min_elastic;	/* ... down to this many characters (0: 16) */
	size_t fixed;		/* the first `fixed` columns are never left out */
};

/*
 * Make the text no wider than f->width: cut the elastic column's long
 * strings with an ellipsis, down to f->min_elastic; then, while still
 * too wide, leave out the last column after the fixed ones. Returns how
 * many shown columns were left out, their names appended to left_out (", "
 * between) when it is not NULL.
 */
size_t pm_table__fit(struct pm_table *t, const struct pm_table_fit *f,
		     struct pm_strbuf *left_out);

#endif
