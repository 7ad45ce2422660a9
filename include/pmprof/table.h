/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tables: typed columns and rows of typed cells, the data of a report
 * (pmprof/report.h). An analysis fills tables; the renderers print them as
 * aligned text, CSV, TSV, JSON or HTML, so a column is described once and
 * reads the same in each format.
 *
 * A row may have a tree under it (pm_table__children): nodes with the same
 * columns, each of which may have children in turn (a call graph under a
 * hotspot row). Text prints the nodes under their row with the tree drawn
 * in the tree column, JSON nests them ("children"), CSV and TSV print them
 * as rows after their parent with a depth column first.
 */
#ifndef PMPROF_TABLE_H
#define PMPROF_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pm_json;
struct pm_summary;
struct pm_renderer;

enum pm_table_type {
	PM_COL_STRING,
	PM_COL_U64,
	PM_COL_I64,
	PM_COL_DOUBLE,
	PM_COL_PERCENT,	/* a double, 0..100; text shows a '%' sign */
	PM_COL_HEX,	/* an address: "0x" and zero-padded hex digits */
	PM_COL_BOOL,	/* text "yes"/"no", JSON true/false */
	PM_COL_RANGE,	/* two doubles (lo, hi): text "lo..hi", JSON [lo, hi] */
};

enum pm_table_align {
	PM_ALIGN_AUTO,	/* numbers right, strings left */
	PM_ALIGN_LEFT,
	PM_ALIGN_RIGHT,
};

/* digits: 0 = default (2 after the point, 16 hex digits); this for none. */
#define PM_TABLE_DIGITS_NONE (-1)

/*
 * Where a column shows (struct pm_table_column.show). Most columns show in
 * every format (0); a column limited to the tabular formats or to JSON
 * lets an analysis keep perf's decorated text ("[.] main") beside a plain
 * JSON value, or give JSON counts where the table shows percentages.
 */
enum {
	PM_SHOW_TABLE = 1 << 0,		/* text, CSV, TSV, HTML */
	PM_SHOW_JSON  = 1 << 1,		/* JSON */
};

/* Column flags (struct pm_table_column.flags). */
enum {
	PM_COLF_KEY      = 1 << 0,	/* part of the row's identity: rows of
					   two reports are the same row when
					   their key columns are equal */
	PM_COLF_OPTIONAL = 1 << 1,	/* JSON leaves the member out where the
					   cell was never set */
	PM_COLF_TREE     = 1 << 2,	/* text draws trees in this column
					   (default: the last shown one) */
	PM_COLF_TREE_VALUE  = 1 << 3,	/* PM_TABLE_CALL_GRAPH: the value a
					   branch shows ("--12.50%--") */
	PM_COLF_TREE_WEIGHT = 1 << 4,	/* PM_TABLE_CALL_GRAPH: what flows
					   through a node (its period) */
	PM_COLF_TREE_REST   = 1 << 5,	/* PM_TABLE_CALL_GRAPH: a bool, true
					   on a node that stands for what its
					   siblings leave out of their parent
					   (perf's "[...]"): drawn last, with
					   no separator line before it */
	PM_COLF_TREE_MORE   = 1 << 6,	/* PM_TABLE_CALL_GRAPH: a bool, true
					   on the last node shown of siblings
					   more of which are not: its line
					   keeps the level's pipe */
};

struct pm_table_column {
	const char *name;	/* header in text, CSV, TSV, HTML */
	const char *key;	/* JSON member; NULL: the name */
	enum pm_table_type type;
	const char *unit;	/* NULL or "": none; text/HTML header "name (unit)" */
	enum pm_table_align align;
	int digits;		/* double/percent: after the point; hex: width */
	unsigned int show;	/* PM_SHOW_* bits; 0: every format */
	unsigned int flags;	/* PM_COLF_* */
	const char *null_text;	/* text, CSV, TSV, HTML: a null cell;
				   NULL: "-" in text, empty elsewhere */
	const char *group;	/* JSON: the member sits in this object of
				   the row ({"counts": {...}}), ... */
	const char *subgroup;	/* ... and in this object within it */
	unsigned int perf_width;	/* text with -t in a PM_TABLE_PERF_HEADER
					   table: at least this wide (perf's
					   width of the column); 0: its own */
};

struct pm_table;

struct pm_table *pm_table__new(void);
void pm_table__delete(struct pm_table *t);	/* NULL is fine */

/* Columns come before rows. Returns the column's index or a negative code. */
int pm_table__add_column(struct pm_table *t, const struct pm_table_column *c);
/* Shorthand with the defaults for everything but name, key and type. */
int pm_table__add_col(struct pm_table *t, const char *name, const char *key,
		      enum pm_table_type type);

/* "# title" and "# comment" lines above a text table; <title> in HTML. */
void pm_table__set_title(struct pm_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pm_table__add_comment(struct pm_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A plain line printed above the table in text ("pctr1 counts cycles:"). */
void pm_table__set_caption(struct pm_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The JSON member its rows go under in a report; default "rows". */
void pm_table__set_name(struct pm_table *t, const char *name);
/* The JSON member a row's tree goes under (default "children"); the
 * row trees made after this call take it too. */
void pm_table__set_tree_key(struct pm_table *t, const char *key);
const char *pm_table__name(const struct pm_table *t);
/* Key/values about this table (JSON: beside its rows), see report.h. */
struct pm_summary *pm_table__summary(struct pm_table *t);

enum {
	PM_TABLE_PERF_HEADER = 1 << 0,	/* text: "# " header and a dots line
					   under it, rows indented, as perf */
	PM_TABLE_OMIT_EMPTY  = 1 << 1,	/* text, JSON, HTML leave the table
					   out when it has no rows (CSV and
					   TSV keep its columns) */
	PM_TABLE_JSON_ONLY   = 1 << 2,	/* facts about the report, not rows
					   to rank: only JSON shows it, and
					   pm_report__truncate (--top)
					   keeps it whole */
	PM_TABLE_CALL_GRAPH  = 1 << 3,	/* text draws the trees as perf's
					   call graphs (below) */
	PM_TABLE_CALL_CHAINS = 1 << 4,	/* text prints each tree node as
					   perf's flat call chain (below) */
	PM_TABLE_CALL_FOLDED = 1 << 5,	/* ... as perf's folded one */
	PM_TABLE_WHOLE       = 1 << 6,	/* --top (pm_report__truncate) keeps
					   every row: a whole picture (stacks) */
	PM_TABLE_CALL_OWN_FRAME = 1 << 7,	/* call graphs: the "---" chain
					   a tree starts with leaves out its
					   first frame, the row's own symbol
					   (perf's, rows keyed on it first) */
};
void pm_table__set_flags(struct pm_table *t, unsigned int flags);
unsigned int pm_table__flags(const struct pm_table *t);

/* A new row of absent cells; returns its index. */
size_t pm_table__add_row(struct pm_table *t);

/*
 * Setters return 0, or -EINVAL for a bad row/column or a value the
 * column's type cannot hold (a string in a number column, a number in a
 * string column). Numbers convert between the number types. A string
 * setter given NULL, and pm_table__set_null(), make the cell null (JSON
 * null, the column's null_text in text); a cell never set is absent (the
 * same, except that JSON leaves out an absent optional member).
 */
int pm_table__set_str(struct pm_table *t, size_t row, size_t col, const char *s);
int pm_table__set_strf(struct pm_table *t, size_t row, size_t col,
		       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int pm_table__set_u64(struct pm_table *t, size_t row, size_t col, uint64_t v);
int pm_table__set_i64(struct pm_table *t, size_t row, size_t col, int64_t v);
int pm_table__set_double(struct pm_table *t, size_t row, size_t col, double v);
int pm_table__set_bool(struct pm_table *t, size_t row, size_t col, bool v);
int pm_table__set_range(struct pm_table *t, size_t row, size_t col, double lo,
			double hi);
int pm_table__set_null(struct pm_table *t, size_t row, size_t col);

size_t pm_table__nr_rows(const struct pm_table *t);
size_t pm_table__nr_columns(const struct pm_table *t);
const struct pm_table_column *pm_table__column(const struct pm_table *t,
					       size_t col);
/* The first column whose key, else whose name, is `s`, or -1. */
int pm_table__find_column(const struct pm_table *t, const char *s);

/* True for a null or absent cell. */
bool pm_table__is_null(const struct pm_table *t, size_t row, size_t col);
/* Getters of a cell in its column's type (0 / NULL when null or wrong). */
const char *pm_table__get_str(const struct pm_table *t, size_t row, size_t col);
uint64_t pm_table__get_u64(const struct pm_table *t, size_t row, size_t col);
int64_t pm_table__get_i64(const struct pm_table *t, size_t row, size_t col);
double pm_table__get_double(const struct pm_table *t, size_t row, size_t col);
/* A PM_COL_RANGE cell's two ends: false when null or not a range. */
bool pm_table__get_range(const struct pm_table *t, size_t row, size_t col,
			 double *lo, double *hi);

/*
 * The tree under a row: a table of its child nodes, with the table's
 * columns (add rows and set cells on it as on any table; each of its rows
 * can have children too). Made on the first call; owned by the table.
 */
struct pm_table *pm_table__children(struct pm_table *t, size_t row);
/*
 * Call graphs in text (a table flag; the other formats show the trees as
 * they always do):
 *
 *   PM_TABLE_CALL_GRAPH: under each row with a tree, perf's --stdio
 *   graph: frames named by the PM_COLF_TREE column; a row's only node as
 *   heavy as the row (PM_COLF_TREE_WEIGHT) starts a "---" line of frames
 *   with no value; a node continues the
 *   line of frames of its parent when it is the parent's only child and
 *   as heavy (PM_COLF_TREE_WEIGHT: nothing ends at the parent, nothing
 *   else leaves it), else it starts a branch showing its
 *   PM_COLF_TREE_VALUE cell: "|--12.50%--name".
 *   PM_TABLE_CALL_CHAINS: each node of a row's tree is one call chain:
 *   its value cell on a line, then its tree cell's frames (';' apart in
 *   the cell) one a line, as perf's flat mode.
 *   PM_TABLE_CALL_FOLDED: each node one line, its value and its tree
 *   cell ("12.50% main;work;leaf"), as perf's folded mode.
 */

/* The children of a row, or NULL when it has none. */
const struct pm_table *pm_table__children_of(const struct pm_table *t,
					     size_t row);

/*
 * Stable sorts. By a column: numbers by value, strings by bytes (UTF-8
 * sorts by code point), null cells last in either direction. By a
 * comparator: a and b are row indices as they were before the sort. A
 * row's tree moves with it.
 */
int pm_table__sort(struct pm_table *t, size_t col, bool descending);
typedef int (*pm_table_cmp_fn)(const struct pm_table *t, size_t a, size_t b,
			       void *arg);
void pm_table__sort_by(struct pm_table *t, pm_table_cmp_fn cmp, void *arg);

/*
 * A new table with t's columns (those shown in any of the formats `show`
 * names, PM_SHOW_*; 0: all) and rows, trees included: not its title,
 * comments, caption, summary or flags. For a view to sort and cut while
 * the original stays as it was (pmprof top).
 */
struct pm_table *pm_table__copy(const struct pm_table *t, unsigned int show);

/* Keep the first n rows (--top N); n >= rows changes nothing. */
void pm_table__truncate(struct pm_table *t, size_t n);

struct pm_render_opts;

/*
 * Print the table alone (a report with only this table; see report.h for
 * the formats): opts may be NULL. JSON prints the bare array of rows.
 * Returns 0, -EINVAL without a renderer, or -EIO if the stream failed.
 */
int pm_table__render(const struct pm_table *t, FILE *out,
		     const struct pm_renderer *r,
		     const struct pm_render_opts *opts);

/*
 * For documents built around tables: write the rows array (shown JSON
 * columns, trees as "children") as the next value of j (after a
 * pm_json__key, say), or one row's members into an object the caller has
 * opened (and may add to).
 */
void pm_table__json_rows(const struct pm_table *t, struct pm_json *j);
void pm_table__json_row_fields(const struct pm_table *t, size_t row,
			       struct pm_json *j);

#endif
