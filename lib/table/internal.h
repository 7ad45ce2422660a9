/* SPDX-License-Identifier: GPL-2.0 */
/* The insides of tables and reports, shared by the objects and the renderers. */
#ifndef PMPROF_TABLE_INTERNAL_H
#define PMPROF_TABLE_INTERNAL_H

#include "pmprof/report.h"
#include "pmprof/strbuf.h"
#include "pmprof/table.h"

struct pm_table_col {
	char *name;
	char *key;
	char *unit;
	char *null_text;
	char *group;
	char *subgroup;
	enum pm_table_type type;
	enum pm_table_align align;
	int digits;
	unsigned int show, flags, perf_width;
	struct pm_table_column desc;	/* points into the strings above */
};

enum pm_cell_state {
	PM_CELL_ABSENT = 0,	/* never set */
	PM_CELL_NULL,		/* set to null */
	PM_CELL_VALUE,
};

struct pm_table_cell {
	uint8_t state;
	char mark;	/* text: a sign after the value (pm_table__set_mark) */
	union {
		char *s;
		uint64_t u;
		int64_t i;
		double d;
		bool b;
		double r[2];
	} v;
};

enum pm_value_type {
	PM_VAL_STR,
	PM_VAL_U64,
	PM_VAL_I64,
	PM_VAL_DOUBLE,
	PM_VAL_BOOL,
	PM_VAL_STRS,
};

struct pm_summary_item {
	char *key, *label;
	enum pm_value_type type;
	union {
		char *s;	/* NULL: null */
		uint64_t u;
		int64_t i;
		double d;
		bool b;
		struct {
			char **v;
			size_t n;
		} strs;
	} v;
};

struct pm_summary {
	struct pm_summary_item *items;
	size_t nr, alloc;
};

void pm_summary__release(struct pm_summary *s);
const struct pm_summary_item *pm_summary__find(const struct pm_summary *s,
					       const char *key);
void pm_summary_item__text(const struct pm_summary_item *it,
			   struct pm_strbuf *sb);
/* "label: value" into sb (reset first), as text and HTML show an item;
 * false for an item without a label (JSON only). */
bool pm_summary_item__labelled(const struct pm_summary_item *it,
			       struct pm_strbuf *sb);
/* The items as members of the JSON object being written. */
void pm_summary__json(const struct pm_summary *s, struct pm_json *j);

struct pm_table {
	struct pm_table_col *cols;	/* a tree shares its root's */
	size_t nr_cols, alloc_cols;
	bool shared_cols;
	struct pm_table_cell **rows;	/* each an array of nr_cols cells */
	struct pm_table **kids;		/* per row: its children, or NULL */
	size_t nr_rows, alloc_rows;
	char *title, *caption, *name;
	char *tree_key;		/* JSON member of row trees; NULL: "children" */
	char **comments;
	size_t nr_comments, alloc_comments;
	unsigned int flags;
	struct pm_summary summary;
};

struct pm_report {
	char *title;
	char **comments, **notes, **warnings;
	size_t nr_comments, alloc_comments, nr_notes, alloc_notes;
	size_t nr_warnings, alloc_warnings;
	struct pm_summary summary;
	struct pm_table **tables;
	size_t nr_tables, alloc_tables;
	char *tables_key;
	bool has_merge, merge_always;
	struct pm_table_column merge;	/* strings owned: merge_name, merge_key */
	char *merge_name, *merge_key;
};

/* The column's strings freed (its struct is the caller's). */
void pm_table_col__release(struct pm_table_col *c);

static inline const struct pm_table_cell *
pm_table__cell(const struct pm_table *t, size_t row, size_t col)
{
	return &t->rows[row][col];
}

static inline bool pm_table_col__numeric(const struct pm_table_col *c)
{
	return c->type != PM_COL_STRING && c->type != PM_COL_BOOL;
}

/* Shown in the tabular formats (text, CSV, TSV, HTML) / in JSON. */
static inline bool pm_table_col__in_table(const struct pm_table_col *c)
{
	return !c->show || (c->show & PM_SHOW_TABLE);
}

static inline bool pm_table_col__in_json(const struct pm_table_col *c)
{
	return !c->show || (c->show & PM_SHOW_JSON);
}

/*
 * A cell with a value as text into sb (appended): numbers with the
 * column's digits, hex as "0x" and digits, percent with a '%' sign if
 * `sign`. Strings are added raw; each renderer escapes them its own way.
 */
void pm_table__format_cell(const struct pm_table *t, size_t row, size_t col,
			   bool sign, struct pm_strbuf *sb);

/*
 * Text: the tree under a row as perf's call graph or flat call chains
 * (PM_TABLE_CALL_GRAPH, PM_TABLE_CALL_CHAINS), appended to sb as lines;
 * nothing for a table without such a flag.
 */
void pm_table__call_graph_text(const struct pm_table *t, size_t row,
			       const struct pm_table *kids, struct pm_strbuf *sb);

/* The tabular formats' columns of a table, in order. */
size_t pm_table__table_columns(const struct pm_table *t, size_t *out);

/* vsnprintf into a new string ("" at least). */
char *pm_table__vformat(const char *fmt, va_list ap);

/*
 * CSV and TSV see one table: the report's tables stacked (and the merge
 * column). Returns a table to pm_table__delete(), or NULL when the report
 * has one table and no merge column to add (render that one), or none.
 */
struct pm_table *pm_report__stacked(const struct pm_report *rep,
				    const struct pm_table **single);

/* lib/table/flamegraph.{js,css}, as C strings (scripts/embed.sh). */
extern const char pm_asset_flamegraph_js[];
extern const char pm_asset_flamegraph_css[];

/* The renderers (lib/table/render-*.c), listed in renderers.c. */
extern const struct pm_renderer pm_render_text;
extern const struct pm_renderer pm_render_csv;
extern const struct pm_renderer pm_render_tsv;
extern const struct pm_renderer pm_render_json;
extern const struct pm_renderer pm_render_html;
extern const struct pm_renderer pm_render_folded;
extern const struct pm_renderer pm_render_pprof;

#endif
