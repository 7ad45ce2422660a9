/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tables and their renderers. An analysis fills a table (typed columns and
 * rows of typed cells); a renderer prints it as aligned text, CSV, TSV,
 * JSON or HTML. Every report command gets every format from here, so a
 * column is described once and reads the same in each format.
 */
#ifndef PMPROF_TABLE_H
#define PMPROF_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pm_json;

/*
 * Output formats. The first four have the numbers of the CLI's enum
 * pm_output_format (src/cli.h: TABLE, CSV, TSV, JSON), so a value of one
 * converts to the other with a cast.
 */
enum pm_table_format {
	PM_TABLE_TEXT = 0,
	PM_TABLE_CSV  = 1,
	PM_TABLE_TSV  = 2,
	PM_TABLE_JSON = 3,
	PM_TABLE_HTML = 4,
};

/* "table" (or "text"), "csv", "tsv", "json", "html"; -1 if unknown. */
int pm_table_format__parse(const char *s, enum pm_table_format *out);
const char *pm_table_format__name(enum pm_table_format f);

enum pm_table_type {
	PM_COL_STRING,
	PM_COL_U64,
	PM_COL_I64,
	PM_COL_DOUBLE,
	PM_COL_PERCENT,	/* a double, 0..100; text shows a '%' sign */
	PM_COL_HEX,	/* an address: "0x" and zero-padded hex digits */
};

enum pm_table_align {
	PM_ALIGN_AUTO,	/* numbers right, strings left */
	PM_ALIGN_LEFT,
	PM_ALIGN_RIGHT,
};

/* digits: 0 = default (2 after the point, 16 hex digits); this for none. */
#define PM_TABLE_DIGITS_NONE (-1)

struct pm_table_column {
	const char *name;	/* header in text, CSV, TSV, HTML */
	const char *key;	/* JSON key; NULL: the name */
	enum pm_table_type type;
	const char *unit;	/* NULL or "": none; text/HTML header "name (unit)" */
	enum pm_table_align align;
	int digits;		/* double/percent: after the point; hex: width */
};

struct pm_table;

struct pm_table *pm_table__new(void);
void pm_table__delete(struct pm_table *t);	/* NULL is fine */

/* Columns come before rows. Returns the column's index or a negative code. */
int pm_table__add_column(struct pm_table *t, const struct pm_table_column *c);
/* Shorthand with the defaults for unit, alignment and digits. */
int pm_table__add_col(struct pm_table *t, const char *name, const char *key,
		      enum pm_table_type type);

/* "# title" and "# comment" lines above a text table; <title> in HTML. */
void pm_table__set_title(struct pm_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pm_table__add_comment(struct pm_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A new row of null cells; returns its index. */
size_t pm_table__add_row(struct pm_table *t);

/*
 * Setters return 0, or -EINVAL for a bad row/column or a value the
 * column's type cannot hold (a string in a number column, a number in a
 * string column). Numbers convert between the number types.
 */
int pm_table__set_str(struct pm_table *t, size_t row, size_t col, const char *s);
int pm_table__set_strf(struct pm_table *t, size_t row, size_t col,
		       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int pm_table__set_u64(struct pm_table *t, size_t row, size_t col, uint64_t v);
int pm_table__set_i64(struct pm_table *t, size_t row, size_t col, int64_t v);
int pm_table__set_double(struct pm_table *t, size_t row, size_t col, double v);
int pm_table__set_null(struct pm_table *t, size_t row, size_t col);

size_t pm_table__nr_rows(const struct pm_table *t);
size_t pm_table__nr_columns(const struct pm_table *t);
const struct pm_table_column *pm_table__column(const struct pm_table *t,
					       size_t col);
/* The column whose key or name is `s`, or -1. */
int pm_table__find_column(const struct pm_table *t, const char *s);

bool pm_table__is_null(const struct pm_table *t, size_t row, size_t col);
/* Getters of a cell in its column's type (0 / NULL when null or wrong). */
const char *pm_table__get_str(const struct pm_table *t, size_t row, size_t col);
uint64_t pm_table__get_u64(const struct pm_table *t, size_t row, size_t col);
int64_t pm_table__get_i64(const struct pm_table *t, size_t row, size_t col);
double pm_table__get_double(const struct pm_table *t, size_t row, size_t col);

/*
 * Stable sorts. By a column: numbers by value, strings by bytes (UTF-8
 * sorts by code point), null cells last in either direction. By a
 * comparator: a and b are row indices as they were before the sort.
 */
int pm_table__sort(struct pm_table *t, size_t col, bool descending);
typedef int (*pm_table_cmp_fn)(const struct pm_table *t, size_t a, size_t b,
			       void *arg);
void pm_table__sort_by(struct pm_table *t, pm_table_cmp_fn cmp, void *arg);

/* Keep the first n rows (--top N); n >= rows changes nothing. */
void pm_table__truncate(struct pm_table *t, size_t n);

struct pm_table_render_opts {
	bool no_header;		/* text, CSV, TSV: no header line */
	bool hash_header;	/* text: "# " header and a dots line, as perf */
	bool no_comments;	/* text: no title or comment lines */
};

/*
 * Print the table; opts may be NULL. Text: aligned columns (numbers right,
 * strings left, the last column unpadded), null as "-". CSV: RFC 4180
 * quoting, LF line ends, null empty. TSV: tab, newline, CR and backslash
 * escaped as \t \n \r \\, null empty. JSON: an array of objects keyed by
 * the column keys, numbers as numbers, null as null. HTML: a standalone
 * page with one table. Returns 0, or -EIO if the stream failed.
 */
int pm_table__render(const struct pm_table *t, FILE *out,
		     enum pm_table_format format,
		     const struct pm_table_render_opts *opts);

/*
 * For commands whose JSON is a bigger document: write the rows array as
 * the next value of j (after a pm_json__key, say), or one row's key/value
 * pairs into an object the caller has opened (and may add to).
 */
void pm_table__json_rows(const struct pm_table *t, struct pm_json *j);
void pm_table__json_row_fields(const struct pm_table *t, size_t row,
			       struct pm_json *j);

#endif
