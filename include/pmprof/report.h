/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reports: what every analysis finishes into, and what every output
 * format is rendered from.
 *
 * A report is a summary (typed key/values), named tables (pmprof/table.h,
 * each with its own summary and, under any row, a tree of nodes with the
 * same columns), and text for people: a title, comment lines, notes. The
 * renderers (one per format, in lib/table/render-*.c) only see reports:
 *
 *   text  the title and comments as "# " lines (an empty comment is a
 *         bare "#") and a "#", each labelled summary item as "# label:
 *         value" and a "#" (perf's header), then the notes as plain lines,
 *         then each table (its caption line, its "# " title and comments,
 *         the aligned columns), tables apart by a blank line, and a blank
 *         line between the notes and the first table.
 *   csv, tsv  one table: the report's tables stacked (their columns
 *         joined by key, in order), with the merge column first when the
 *         report has one; no comments, notes or summary.
 *   json  one object: the summary's members, then the tables: each as its
 *         summary's members and its rows under its name, either directly
 *         in the report's object or as objects of an array under the
 *         report's tables key.
 *   html  a standalone page: title, comments, notes, labelled summary
 *         items, and each table.
 *   pprof  the report's profile_* tables (pmprof/profile.h) as pprof's
 *         gzipped profile.proto: a sample type per value column (samples,
 *         then each event), locations with mappings and functions, labels
 *         process, thread, comm and cpu; nothing else.
 *   folded  the report's "stacks" table (pmprof/stacks.h) as flame
 *         graphs read it: "frame;frame;frame N" a line, N the stack's
 *         weight (opts.weight), stacks of weight 0 left out; nothing else.
 *
 * A format is one struct pm_renderer; adding one is a file in lib/table
 * and a line in lib/table/renderers.c, and every command has it.
 */
#ifndef PMPROF_REPORT_H
#define PMPROF_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pmprof/table.h"

struct pm_error;

/* ---- summaries: key/values -------------------------------------------- */

/*
 * Items keep their order. `label`, when given, is how text and HTML show
 * the item ("Total Lost Samples: 0"); without one only JSON has it.
 */
struct pm_summary;

void pm_summary__add_str(struct pm_summary *s, const char *key,
			 const char *label, const char *v);	/* NULL: null */
void pm_summary__add_u64(struct pm_summary *s, const char *key,
			 const char *label, uint64_t v);
void pm_summary__add_i64(struct pm_summary *s, const char *key,
			 const char *label, int64_t v);
void pm_summary__add_double(struct pm_summary *s, const char *key,
			    const char *label, double v);	/* NaN: null */
void pm_summary__add_bool(struct pm_summary *s, const char *key,
			  const char *label, bool v);
void pm_summary__add_strs(struct pm_summary *s, const char *key,
			  const char *label, const char *const *v, size_t n);
size_t pm_summary__nr(const struct pm_summary *s);
/* The item's value as text ("-" for null), appended to sb; -ENOENT. */
struct pm_strbuf;
int pm_summary__text(const struct pm_summary *s, const char *key,
		     struct pm_strbuf *sb);

/* ---- reports ------------------------------------------------------------ */

struct pm_report;

struct pm_report *pm_report__new(void);
void pm_report__delete(struct pm_report *rep);	/* NULL is fine */

void pm_report__set_title(struct pm_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pm_report__add_comment(struct pm_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pm_report__add_note(struct pm_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct pm_summary *pm_report__summary(struct pm_report *rep);
/*
 * Something the reader of the report should know that is no part of the
 * output ("not an Alpha recording: no ProfileMe data"): no renderer
 * prints it; the CLI says it on standard error, naming the file.
 */
void pm_report__add_warning(struct pm_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
size_t pm_report__nr_warnings(const struct pm_report *rep);
const char *pm_report__warning(const struct pm_report *rep, size_t i);

/* Append a table; the report owns it from now on. Returns it. */
struct pm_table *pm_report__add_table(struct pm_report *rep, struct pm_table *t);
size_t pm_report__nr_tables(const struct pm_report *rep);
struct pm_table *pm_report__table(const struct pm_report *rep, size_t i);
/* The first table of that name, or NULL. */
struct pm_table *pm_report__find_table(const struct pm_report *rep,
				       const char *name);

/* JSON: the tables as an array of objects under this member. */
void pm_report__set_tables_key(struct pm_report *rep, const char *key);

/*
 * CSV, TSV: put this column first in the stacked table, its cell in each
 * table's rows being that table's summary item of the column's key (null
 * when the table has none, or a null one). always: also with one table
 * (else only when there are several), and with none, where CSV and TSV
 * print the header of the merge columns alone. set replaces the merge columns,
 * add appends one after them (a table per function: event, DSO, symbol).
 */
void pm_report__set_merge_column(struct pm_report *rep,
				 const struct pm_table_column *col,
				 bool always);
void pm_report__add_merge_column(struct pm_report *rep,
				 const struct pm_table_column *col,
				 bool always);

/* The one table CSV and TSV print: the report's tables stacked, in a new
 * table for the caller to delete (NULL when there is no table). */
struct pm_table *pm_report__merged(const struct pm_report *rep);

/* Keep the first n rows of every table but PM_TABLE_WHOLE and
 * PM_TABLE_JSON_ONLY ones; 0 keeps
 * all (--top). */
void pm_report__truncate(struct pm_report *rep, size_t n);

/* ---- renderers ------------------------------------------------------------ */

struct pm_render_opts {
	size_t sz;		/* sizeof(struct pm_render_opts); 0: this size */
	bool no_header;		/* text, CSV, TSV: no column header line */
	bool no_comments;	/* text: no "# " lines, notes or captions */
	const char *separator;	/* text: cells apart by this, unpadded, and
				   in a cell it becomes '.' (perf's -t);
				   NULL: aligned columns */
	/* folded: what a stack weighs: "samples" (NULL), "period" (every
	 * event's), or an event's name (its period) */
	const char *weight;
};

enum {
	PM_RENDER_NEEDS_STACKS  = 1 << 0,	/* a "stacks" table (stacks.h) */
	PM_RENDER_NEEDS_PROFILE = 1 << 1,	/* the profile_* tables (profile.h) */
};

struct pm_renderer {
	const char *name;	/* what --format takes */
	const char *help;	/* a few words for --help */
	int (*render)(const struct pm_report *rep, FILE *out,
		      const struct pm_render_opts *opts);
	/* What the analysis must keep for it (PM_RENDER_NEEDS_*). */
	unsigned int needs;
	/* Can rep be rendered with opts? 0, or -PM_EUSAGE with err saying
	 * why (no stacks, an unknown weight). NULL: always. */
	int (*check)(const struct pm_report *rep,
		     const struct pm_render_opts *opts, struct pm_error *err);
};

/* By name ("text" also finds "table"); NULL if there is none. */
const struct pm_renderer *pm_renderer__find(const char *name);
/* Every renderer in turn (NULL past the last): for help texts. */
const struct pm_renderer *pm_renderer__at(size_t i);

/* Can r render rep with opts (its check)? 0, or a negative code, err
 * filled. opts may be NULL. */
int pm_report__check_render(const struct pm_report *rep,
			    const struct pm_renderer *r,
			    const struct pm_render_opts *opts,
			    struct pm_error *err);

/* Print a report; opts may be NULL. 0, -EINVAL, or -EIO if out failed. */
int pm_report__render(const struct pm_report *rep, FILE *out,
		      const struct pm_renderer *r,
		      const struct pm_render_opts *opts);

#endif
