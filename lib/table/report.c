// SPDX-License-Identifier: GPL-2.0
/* The report object, and the one table CSV and TSV make of its tables. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/error.h"
#include "pmprof/json.h"
#include "pmprof/util.h"
#include "table/internal.h"

struct pm_report *pm_report__new(void)
{
	return pm_zalloc(sizeof(struct pm_report));
}

static void free_lines(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void release_merges(struct pm_report *rep)
{
	for (size_t i = 0; i < rep->nr_merges; i++) {
		free((char *)rep->merges[i].name);
		free((char *)rep->merges[i].key);
	}
	free(rep->merges);
	rep->merges = NULL;
	rep->nr_merges = 0;
	rep->merge_always = false;
}

void pm_report__delete(struct pm_report *rep)
{
	if (!rep)
		return;
	free(rep->title);
	free_lines(rep->comments, rep->nr_comments);
	free_lines(rep->notes, rep->nr_notes);
	free_lines(rep->warnings, rep->nr_warnings);
	pm_summary__release(&rep->summary);
	for (size_t i = 0; i < rep->nr_tables; i++)
		pm_table__delete(rep->tables[i]);
	free(rep->tables);
	free(rep->tables_key);
	release_merges(rep);
	free(rep);
}

void pm_report__set_title(struct pm_report *rep, const char *fmt, ...)
{
	va_list ap;

	free(rep->title);
	va_start(ap, fmt);
	rep->title = pm_table__vformat(fmt, ap);
	va_end(ap);
}

void pm_report__add_comment(struct pm_report *rep, const char *fmt, ...)
{
	va_list ap;

	PM_GROW(rep->comments, rep->alloc_comments, rep->nr_comments + 1);
	va_start(ap, fmt);
	rep->comments[rep->nr_comments++] = pm_table__vformat(fmt, ap);
	va_end(ap);
}

void pm_report__add_note(struct pm_report *rep, const char *fmt, ...)
{
	va_list ap;

	PM_GROW(rep->notes, rep->alloc_notes, rep->nr_notes + 1);
	va_start(ap, fmt);
	rep->notes[rep->nr_notes++] = pm_table__vformat(fmt, ap);
	va_end(ap);
}

void pm_report__add_warning(struct pm_report *rep, const char *fmt, ...)
{
	va_list ap;

	PM_GROW(rep->warnings, rep->alloc_warnings, rep->nr_warnings + 1);
	va_start(ap, fmt);
	rep->warnings[rep->nr_warnings++] = pm_table__vformat(fmt, ap);
	va_end(ap);
}

size_t pm_report__nr_warnings(const struct pm_report *rep)
{
	return rep->nr_warnings;
}

const char *pm_report__warning(const struct pm_report *rep, size_t i)
{
	return i < rep->nr_warnings ? rep->warnings[i] : NULL;
}

struct pm_summary *pm_report__summary(struct pm_report *rep)
{
	return &rep->summary;
}

struct pm_table *pm_report__add_table(struct pm_report *rep, struct pm_table *t)
{
	PM_GROW(rep->tables, rep->alloc_tables, rep->nr_tables + 1);
	rep->tables[rep->nr_tables++] = t;
	return t;
}

size_t pm_report__nr_tables(const struct pm_report *rep)
{
	return rep->nr_tables;
}

struct pm_table *pm_report__table(const struct pm_report *rep, size_t i)
{
	return i < rep->nr_tables ? rep->tables[i] : NULL;
}

struct pm_table *pm_report__find_table(const struct pm_report *rep,
				       const char *name)
{
	for (size_t i = 0; i < rep->nr_tables; i++)
		if (!strcmp(pm_table__name(rep->tables[i]), name))
			return rep->tables[i];
	return NULL;
}

void pm_report__set_tables_key(struct pm_report *rep, const char *key)
{
	free(rep->tables_key);
	rep->tables_key = key ? pm_strdup(key) : NULL;
}

void pm_report__add_merge_column(struct pm_report *rep,
				 const struct pm_table_column *col,
				 bool always)
{
	struct pm_table_column *m;

	rep->merges = pm_reallocarray(rep->merges, rep->nr_merges + 1,
				      sizeof(*rep->merges));
	m = &rep->merges[rep->nr_merges++];
	*m = *col;
	m->name = pm_strdup(col->name);
	m->key = pm_strdup(col->key ? col->key : col->name);
	m->show = 0;
	m->group = m->subgroup = NULL;
	m->null_text = NULL;
	m->unit = NULL;
	rep->merge_always |= always;
}

void pm_report__set_merge_column(struct pm_report *rep,
				 const struct pm_table_column *col,
				 bool always)
{
	release_merges(rep);
	pm_report__add_merge_column(rep, col, always);
}

void pm_report__truncate(struct pm_report *rep, size_t n)
{
	if (!n)
		return;
	for (size_t i = 0; i < rep->nr_tables; i++)
		if (!(rep->tables[i]->flags &
		      (PM_TABLE_WHOLE | PM_TABLE_JSON_ONLY)))
			pm_table__truncate(rep->tables[i], n);
}

int pm_report__check_render(const struct pm_report *rep,
			    const struct pm_renderer *r,
			    const struct pm_render_opts *opts,
			    struct pm_error *err)
{
	static const struct pm_render_opts defaults;
	struct pm_render_opts o;

	if (!r || !rep)
		return pm_error__fmt(err, EINVAL, "no report or no format");
	if (!r->check)
		return 0;
	PM_OPTS_COPY(&o, opts, defaults);
	return r->check(rep, &o, err);
}

int pm_report__render(const struct pm_report *rep, FILE *out,
		      const struct pm_renderer *r,
		      const struct pm_render_opts *opts)
{
	static const struct pm_render_opts defaults;
	struct pm_render_opts o;

	if (!r || !rep)
		return -EINVAL;
	PM_OPTS_COPY(&o, opts, defaults);
	return r->render(rep, out, &o);
}

int pm_table__render(const struct pm_table *t, FILE *out,
		     const struct pm_renderer *r,
		     const struct pm_render_opts *opts)
{
	struct pm_report rep = { 0 };
	struct pm_table *one = (struct pm_table *)t;
	struct pm_json j;

	if (!r)
		return -EINVAL;
	if (r == &pm_render_json) {
		/* A table alone is its array of rows. */
		pm_json__init(&j, out);
		pm_table__json_rows(t, &j);
		putc('\n', out);
		return ferror(out) ? -EIO : 0;
	}
	rep.tables = &one;
	rep.nr_tables = 1;
	return pm_report__render(&rep, out, r, opts);
}

/* ---- the stacked table of CSV and TSV ---------------------------------- */

/* The n-th column (0-based occurrence) of table t with this key, or -1. */
static int nth_key(const struct pm_table *t, const char *key, size_t nth)
{
	for (size_t c = 0; c < t->nr_cols; c++) {
		if (!pm_table_col__in_table(&t->cols[c]) || strcmp(t->cols[c].key, key))
			continue;
		if (!nth--)
			return (int)c;
	}
	return -1;
}

static size_t occurrence(const struct pm_table *t, size_t col)
{
	size_t n = 0;

	for (size_t c = 0; c < col; c++)
		if (pm_table_col__in_table(&t->cols[c]) &&
		    !strcmp(t->cols[c].key, t->cols[col].key))
			n++;
	return n;
}

/*
 * The columns of every table, joined by key: a column new to the list
 * goes right after the column that precedes it in its own table, so
 * that tables with an extra column keep the order each has.
 */
struct joined {
	const struct pm_table_col **cols;
	size_t *nth;
	size_t nr;
};

static int joined_find(const struct joined *jn, const char *key, size_t nth)
{
	for (size_t i = 0; i < jn->nr; i++)
		if (jn->nth[i] == nth && !strcmp(jn->cols[i]->key, key))
			return (int)i;
	return -1;
}

static void join_columns(struct joined *jn, const struct pm_report *rep,
			 size_t max)
{
	jn->cols = pm_calloc(max + 1, sizeof(*jn->cols));
	jn->nth = pm_calloc(max + 1, sizeof(*jn->nth));
	for (size_t i = 0; i < rep->nr_tables; i++) {
		const struct pm_table *t = rep->tables[i];
		int after = -1;

		for (size_t c = 0; c < t->nr_cols; c++) {
			const struct pm_table_col *col = &t->cols[c];
			size_t nth;
			int at;

			if (!pm_table_col__in_table(col))
				continue;
			nth = occurrence(t, c);
			at = joined_find(jn, col->key, nth);
			if (at < 0) {
				at = after + 1;
				memmove(jn->cols + at + 1, jn->cols + at,
					(jn->nr - (size_t)at) * sizeof(*jn->cols));
				memmove(jn->nth + at + 1, jn->nth + at,
					(jn->nr - (size_t)at) * sizeof(*jn->nth));
				jn->cols[at] = col;
				jn->nth[at] = nth;
				jn->nr++;
			}
			after = at;
		}
	}
}

static void copy_cell(struct pm_table *dst, size_t drow, size_t dcol,
		      const struct pm_table *src, size_t srow, size_t scol)
{
	const struct pm_table_cell *c = pm_table__cell(src, srow, scol);
	struct pm_table_cell *d = &dst->rows[drow][dcol];

	*d = *c;
	if (c->state == PM_CELL_VALUE && src->cols[scol].type == PM_COL_STRING)
		d->v.s = pm_strdup(c->v.s);
}

/* Row srow of src (and its tree) as a new row of dst; map: dst col -> src col. */
static void copy_row(struct pm_table *dst, const struct pm_table *src,
		     size_t srow, const int *map, size_t first)
{
	size_t row = pm_table__add_row(dst);
	const struct pm_table *kids = pm_table__children_of(src, srow);

	for (size_t c = first; c < dst->nr_cols; c++)
		if (map[c] >= 0)
			copy_cell(dst, row, c, src, srow, (size_t)map[c]);
	if (kids) {
		struct pm_table *dk = pm_table__children(dst, row);

		for (size_t r = 0; r < kids->nr_rows; r++)
			copy_row(dk, kids, r, map, first);
	}
}

struct pm_table *pm_table__copy(const struct pm_table *t, unsigned int show)
{
	struct pm_table *dst = pm_table__new();
	int *map = pm_calloc(t->nr_cols + 1, sizeof(*map));
	size_t n = 0;

	for (size_t c = 0; c < t->nr_cols; c++) {
		if (show && t->cols[c].show && !(t->cols[c].show & show))
			continue;
		pm_table__add_column(dst, &t->cols[c].desc);
		map[n++] = (int)c;
	}
	for (size_t r = 0; r < t->nr_rows; r++)
		copy_row(dst, t, r, map, 0);
	free(map);
	return dst;
}

/* Column dcol of dst's rows from `from` on: src's summary item of key
 * (left null without one, or with a null one). */
static void set_merge_cells(struct pm_table *dst, size_t dcol,
			    const struct pm_table *src, const char *key,
			    size_t from)
{
	const struct pm_summary_item *it = pm_summary__find(&src->summary, key);

	for (size_t r = from; it && r < dst->nr_rows; r++) {
		switch (it->type) {
		case PM_VAL_STR:
			if (it->v.s)
				pm_table__set_str(dst, r, dcol, it->v.s);
			break;
		case PM_VAL_U64:
			pm_table__set_u64(dst, r, dcol, it->v.u);
			break;
		case PM_VAL_I64:
			pm_table__set_i64(dst, r, dcol, it->v.i);
			break;
		case PM_VAL_DOUBLE:
			pm_table__set_double(dst, r, dcol, it->v.d);
			break;
		default:
			break;
		}
	}
}

static bool merging(const struct pm_report *rep)
{
	return rep->nr_merges && (rep->merge_always || rep->nr_tables > 1);
}

static struct pm_table *stack(const struct pm_report *rep)
{
	bool merge = merging(rep);
	struct pm_table *t;
	struct joined jn = { 0 };
	size_t max = 0, first = merge ? rep->nr_merges : 0;
	int *map;

	for (size_t i = 0; i < rep->nr_tables; i++)
		max += rep->tables[i]->nr_cols;
	join_columns(&jn, rep, max);
	t = pm_table__new();
	for (size_t i = 0; i < first; i++)
		pm_table__add_column(t, &rep->merges[i]);
	for (size_t i = 0; i < jn.nr; i++) {
		struct pm_table_column c = jn.cols[i]->desc;

		c.show = 0;
		c.group = c.subgroup = NULL;
		pm_table__add_column(t, &c);
	}
	map = pm_calloc(t->nr_cols + 1, sizeof(*map));
	for (size_t i = 0; i < rep->nr_tables; i++) {
		const struct pm_table *src = rep->tables[i];
		size_t from = t->nr_rows;

		for (size_t c = 0; c < jn.nr; c++)
			map[c + first] = nth_key(src, jn.cols[c]->key, jn.nth[c]);
		for (size_t r = 0; r < src->nr_rows; r++)
			copy_row(t, src, r, map, first);
		for (size_t m = 0; m < first; m++)
			set_merge_cells(t, m, src, rep->merges[m].key, from);
	}
	free(map);
	free(jn.cols);
	free(jn.nth);
	return t;
}

/* The report as the tabular formats see it: without its JSON-only
 * tables. A shallow copy sharing all else; free view->tables. */
static void tabular_view(const struct pm_report *rep, struct pm_report *view)
{
	*view = *rep;
	view->tables = pm_calloc(rep->nr_tables + 1, sizeof(*view->tables));
	view->nr_tables = 0;
	for (size_t i = 0; i < rep->nr_tables; i++)
		if (!(rep->tables[i]->flags & PM_TABLE_JSON_ONLY))
			view->tables[view->nr_tables++] = rep->tables[i];
}

struct pm_table *pm_report__stacked(const struct pm_report *rep,
				    const struct pm_table **single)
{
	struct pm_report view;
	struct pm_table *t = NULL;
	bool merge;

	*single = NULL;
	tabular_view(rep, &view);
	merge = merging(&view);
	if (view.nr_tables == 1 && !merge)
		*single = view.tables[0];
	else if (view.nr_tables || merge)	/* always: the header alone */
		t = stack(&view);
	free(view.tables);
	return t;
}

struct pm_table *pm_report__merged(const struct pm_report *rep)
{
	struct pm_report view;
	struct pm_table *t;

	tabular_view(rep, &view);
	t = view.nr_tables || merging(&view) ? stack(&view) : NULL;
	free(view.tables);
	return t;
}
