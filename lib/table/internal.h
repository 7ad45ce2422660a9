/* SPDX-License-Identifier: GPL-2.0 */
/* The table's insides, shared by the object code and the renderers. */
#ifndef PMPROF_TABLE_INTERNAL_H
#define PMPROF_TABLE_INTERNAL_H

#include "pmprof/strbuf.h"
#include "pmprof/table.h"

struct pm_table_col {
	char *name;
	char *key;
	char *unit;
	enum pm_table_type type;
	enum pm_table_align align;
	int digits;
	struct pm_table_column desc;	/* points into the strings above */
};

struct pm_table_cell {
	bool set;
	char mark;	/* text: a sign after the value (pm_table__set_mark) */
	union {
		char *s;
		uint64_t u;
		int64_t i;
		double d;
	} v;
};

struct pm_table {
	struct pm_table_col *cols;
	size_t nr_cols, alloc_cols;
	struct pm_table_cell **rows;	/* each an array of nr_cols cells */
	size_t nr_rows, alloc_rows;
	char *title;
	char **comments;
	size_t nr_comments, alloc_comments;
};

static inline const struct pm_table_cell *
pm_table__cell(const struct pm_table *t, size_t row, size_t col)
{
	return &t->rows[row][col];
}

static inline bool pm_table_col__numeric(const struct pm_table_col *c)
{
	return c->type != PM_COL_STRING;
}

/*
 * A set cell as text into sb (appended): numbers with the column's digits,
 * hex as "0x" and digits, percent with a '%' sign if `sign`. Strings are
 * added raw; each renderer escapes them its own way.
 */
void pm_table__format_cell(const struct pm_table *t, size_t row, size_t col,
			   bool sign, struct pm_strbuf *sb);

#endif
