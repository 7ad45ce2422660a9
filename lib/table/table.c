// SPDX-License-Identifier: GPL-2.0
/* The table object: columns, rows of typed cells, trees, sorting, truncation. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/util.h"
#include "table/internal.h"

struct pm_table *pm_table__new(void)
{
	return pm_zalloc(sizeof(struct pm_table));
}

static void free_cells(const struct pm_table *t, struct pm_table_cell *cells)
{
	size_t c;

	for (c = 0; c < t->nr_cols; c++) {
		if (t->cols[c].type == PM_COL_STRING &&
		    cells[c].state == PM_CELL_VALUE)
			free(cells[c].v.s);
	}
	free(cells);
}

static void free_row(struct pm_table *t, size_t row)
{
	free_cells(t, t->rows[row]);
	pm_table__delete(t->kids[row]);
}

void pm_table_col__release(struct pm_table_col *c)
{
	free(c->name);
	free(c->key);
	free(c->unit);
	free(c->null_text);
	free(c->group);
	free(c->subgroup);
}

void pm_table__delete(struct pm_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_rows; i++)
		free_row(t, i);
	free(t->rows);
	free(t->kids);
	if (!t->shared_cols) {
		for (i = 0; i < t->nr_cols; i++)
			pm_table_col__release(&t->cols[i]);
		free(t->cols);
	}
	for (i = 0; i < t->nr_comments; i++)
		free(t->comments[i]);
	free(t->comments);
	free(t->title);
	free(t->caption);
	free(t->name);
	free(t->tree_key);
	pm_summary__release(&t->summary);
	free(t);
}

static char *dup_or_null(const char *s)
{
	return s && *s ? pm_strdup(s) : NULL;
}

int pm_table__add_column(struct pm_table *t, const struct pm_table_column *c)
{
	struct pm_table_col *col;
	size_t i;

	/* Rows are fixed-width arrays: the shape is set before the data. */
	if (t->nr_rows || t->shared_cols)
		return -EBUSY;
	if (!c->name || (unsigned)c->type > PM_COL_RANGE ||
	    (unsigned)c->align > PM_ALIGN_RIGHT)
		return -EINVAL;
	PM_GROW(t->cols, t->alloc_cols, t->nr_cols + 1);
	col = &t->cols[t->nr_cols];
	memset(col, 0, sizeof(*col));
	col->name = pm_strdup(c->name);
	col->key = pm_strdup(c->key ? c->key : c->name);
	col->unit = dup_or_null(c->unit);
	col->null_text = c->null_text ? pm_strdup(c->null_text) : NULL;
	col->group = dup_or_null(c->group);
	col->subgroup = col->group ? dup_or_null(c->subgroup) : NULL;
	col->type = c->type;
	col->align = c->align;
	col->digits = c->digits;
	col->show = c->show;
	col->flags = c->flags;
	col->perf_width = c->perf_width;
	t->nr_cols++;
	/* The array may have moved: refresh every descriptor's pointers. */
	for (i = 0; i < t->nr_cols; i++) {
		struct pm_table_col *p = &t->cols[i];

		p->desc = (struct pm_table_column){
			.name = p->name, .key = p->key, .type = p->type,
			.unit = p->unit, .align = p->align, .digits = p->digits,
			.show = p->show, .flags = p->flags,
			.null_text = p->null_text, .group = p->group,
			.subgroup = p->subgroup, .perf_width = p->perf_width,
		};
	}
	return (int)(t->nr_cols - 1);
}

int pm_table__add_col(struct pm_table *t, const char *name, const char *key,
		      enum pm_table_type type)
{
	struct pm_table_column c = { .name = name, .key = key, .type = type };

	return pm_table__add_column(t, &c);
}

char *pm_table__vformat(const char *fmt, va_list ap)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;

	pm_strbuf__vaddf(&sb, fmt, ap);
	return pm_strbuf__detach(&sb);
}

void pm_table__set_title(struct pm_table *t, const char *fmt, ...)
{
	va_list ap;

	free(t->title);
	va_start(ap, fmt);
	t->title = pm_table__vformat(fmt, ap);
	va_end(ap);
}

void pm_table__set_caption(struct pm_table *t, const char *fmt, ...)
{
	va_list ap;

	free(t->caption);
	va_start(ap, fmt);
	t->caption = pm_table__vformat(fmt, ap);
	va_end(ap);
}

void pm_table__add_comment(struct pm_table *t, const char *fmt, ...)
{
	va_list ap;

	PM_GROW(t->comments, t->alloc_comments, t->nr_comments + 1);
	va_start(ap, fmt);
	t->comments[t->nr_comments++] = pm_table__vformat(fmt, ap);
	va_end(ap);
}

void pm_table__set_name(struct pm_table *t, const char *name)
{
	free(t->name);
	t->name = name ? pm_strdup(name) : NULL;
}

void pm_table__set_tree_key(struct pm_table *t, const char *key)
{
	free(t->tree_key);
	t->tree_key = key ? pm_strdup(key) : NULL;
}

const char *pm_table__name(const struct pm_table *t)
{
	return t->name ? t->name : "rows";
}

struct pm_summary *pm_table__summary(struct pm_table *t)
{
	return &t->summary;
}

void pm_table__set_flags(struct pm_table *t, unsigned int flags)
{
	t->flags = flags;
}

unsigned int pm_table__flags(const struct pm_table *t)
{
	return t->flags;
}

size_t pm_table__add_row(struct pm_table *t)
{
	size_t alloc = t->alloc_rows;

	PM_GROW(t->rows, t->alloc_rows, t->nr_rows + 1);
	if (t->alloc_rows != alloc) {
		t->kids = pm_reallocarray(t->kids, t->alloc_rows, sizeof(*t->kids));
		memset(t->kids + alloc, 0, (t->alloc_rows - alloc) * sizeof(*t->kids));
	}
	/* At least one cell so a table without columns still has rows. */
	t->rows[t->nr_rows] = pm_calloc(t->nr_cols ? t->nr_cols : 1,
					sizeof(struct pm_table_cell));
	t->kids[t->nr_rows] = NULL;
	return t->nr_rows++;
}

struct pm_table *pm_table__children(struct pm_table *t, size_t row)
{
	struct pm_table *k;

	if (row >= t->nr_rows)
		return NULL;
	if (t->kids[row])
		return t->kids[row];
	k = pm_table__new();
	k->cols = t->cols;
	k->nr_cols = t->nr_cols;
	k->shared_cols = true;
	if (t->tree_key)
		k->tree_key = pm_strdup(t->tree_key);
	t->kids[row] = k;
	return k;
}

const struct pm_table *pm_table__children_of(const struct pm_table *t,
					     size_t row)
{
	if (row >= t->nr_rows || !t->kids[row] || !t->kids[row]->nr_rows)
		return NULL;
	return t->kids[row];
}

static struct pm_table_cell *cell_at(struct pm_table *t, size_t row, size_t col)
{
	if (row >= t->nr_rows || col >= t->nr_cols)
		return NULL;
	return &t->rows[row][col];
}

static void clear_cell(struct pm_table *t, size_t col, struct pm_table_cell *c)
{
	if (t->cols[col].type == PM_COL_STRING && c->state == PM_CELL_VALUE)
		free(c->v.s);
	memset(c, 0, sizeof(*c));
}

int pm_table__set_str(struct pm_table *t, size_t row, size_t col, const char *s)
{
	struct pm_table_cell *c = cell_at(t, row, col);

	if (!c || t->cols[col].type != PM_COL_STRING)
		return -EINVAL;
	clear_cell(t, col, c);
	if (s) {
		c->v.s = pm_strdup(s);
		c->state = PM_CELL_VALUE;
	} else {
		c->state = PM_CELL_NULL;
	}
	return 0;
}

int pm_table__set_strf(struct pm_table *t, size_t row, size_t col,
		       const char *fmt, ...)
{
	struct pm_table_cell *c = cell_at(t, row, col);
	va_list ap;

	if (!c || t->cols[col].type != PM_COL_STRING)
		return -EINVAL;
	clear_cell(t, col, c);
	va_start(ap, fmt);
	c->v.s = pm_table__vformat(fmt, ap);
	va_end(ap);
	c->state = PM_CELL_VALUE;
	return 0;
}

/* Store a number given as one of three kinds in the column's own type. */
enum num_kind { NUM_U, NUM_I, NUM_D };

static int set_number(struct pm_table *t, size_t row, size_t col,
		      enum num_kind kind, uint64_t u, int64_t i, double d)
{
	struct pm_table_cell *c = cell_at(t, row, col);

	if (!c)
		return -EINVAL;
	switch (t->cols[col].type) {
	case PM_COL_U64:
	case PM_COL_HEX:
		c->v.u = kind == NUM_U ? u : kind == NUM_I ? (uint64_t)i :
			 (uint64_t)d;
		break;
	case PM_COL_I64:
		c->v.i = kind == NUM_U ? (int64_t)u : kind == NUM_I ? i :
			 (int64_t)d;
		break;
	case PM_COL_DOUBLE:
	case PM_COL_PERCENT:
		c->v.d = kind == NUM_U ? (double)u : kind == NUM_I ? (double)i : d;
		break;
	default:
		return -EINVAL;
	}
	c->state = PM_CELL_VALUE;
	c->mark = 0;
	return 0;
}

int pm_table__set_u64(struct pm_table *t, size_t row, size_t col, uint64_t v)
{
	return set_number(t, row, col, NUM_U, v, 0, 0);
}

int pm_table__set_i64(struct pm_table *t, size_t row, size_t col, int64_t v)
{
	return set_number(t, row, col, NUM_I, 0, v, 0);
}

int pm_table__set_double(struct pm_table *t, size_t row, size_t col, double v)
{
	return set_number(t, row, col, NUM_D, 0, 0, v);
}

int pm_table__set_bool(struct pm_table *t, size_t row, size_t col, bool v)
{
	struct pm_table_cell *c = cell_at(t, row, col);

	if (!c || t->cols[col].type != PM_COL_BOOL)
		return -EINVAL;
	c->v.b = v;
	c->state = PM_CELL_VALUE;
	return 0;
}

int pm_table__set_range(struct pm_table *t, size_t row, size_t col, double lo,
			double hi)
{
	struct pm_table_cell *c = cell_at(t, row, col);

	if (!c || t->cols[col].type != PM_COL_RANGE)
		return -EINVAL;
	c->v.r[0] = lo;
	c->v.r[1] = hi;
	c->state = PM_CELL_VALUE;
	return 0;
}

int pm_table__set_null(struct pm_table *t, size_t row, size_t col)
{
	struct pm_table_cell *c = cell_at(t, row, col);

	if (!c)
		return -EINVAL;
	clear_cell(t, col, c);
	c->state = PM_CELL_NULL;
	return 0;
}

size_t pm_table__nr_rows(const struct pm_table *t)
{
	return t->nr_rows;
}

size_t pm_table__nr_columns(const struct pm_table *t)
{
	return t->nr_cols;
}

const struct pm_table_column *pm_table__column(const struct pm_table *t,
					       size_t col)
{
	return col < t->nr_cols ? &t->cols[col].desc : NULL;
}

int pm_table__find_column(const struct pm_table *t, const char *s)
{
	size_t i;

	for (i = 0; i < t->nr_cols; i++) {
		if (!strcmp(t->cols[i].key, s))
			return (int)i;
	}
	for (i = 0; i < t->nr_cols; i++) {
		if (!strcmp(t->cols[i].name, s))
			return (int)i;
	}
	return -1;
}

static const struct pm_table_cell *get(const struct pm_table *t, size_t row,
				       size_t col)
{
	if (row >= t->nr_rows || col >= t->nr_cols ||
	    t->rows[row][col].state != PM_CELL_VALUE)
		return NULL;
	return &t->rows[row][col];
}

bool pm_table__is_null(const struct pm_table *t, size_t row, size_t col)
{
	return get(t, row, col) == NULL;
}

const char *pm_table__get_str(const struct pm_table *t, size_t row, size_t col)
{
	const struct pm_table_cell *c = get(t, row, col);

	return c && t->cols[col].type == PM_COL_STRING ? c->v.s : NULL;
}

/* A number cell as a double, u64 or i64: one conversion table for all. */
static double cell_double(const struct pm_table_col *col,
			  const struct pm_table_cell *c)
{
	switch (col->type) {
	case PM_COL_U64:
	case PM_COL_HEX:
		return (double)c->v.u;
	case PM_COL_I64:
		return (double)c->v.i;
	case PM_COL_DOUBLE:
	case PM_COL_PERCENT:
		return c->v.d;
	case PM_COL_BOOL:
		return c->v.b;
	default:
		return 0;
	}
}

uint64_t pm_table__get_u64(const struct pm_table *t, size_t row, size_t col)
{
	const struct pm_table_cell *c = get(t, row, col);

	if (!c)
		return 0;
	if (t->cols[col].type == PM_COL_U64 || t->cols[col].type == PM_COL_HEX)
		return c->v.u;
	if (t->cols[col].type == PM_COL_I64)
		return (uint64_t)c->v.i;
	return (uint64_t)cell_double(&t->cols[col], c);
}

int64_t pm_table__get_i64(const struct pm_table *t, size_t row, size_t col)
{
	const struct pm_table_cell *c = get(t, row, col);

	if (!c)
		return 0;
	if (t->cols[col].type == PM_COL_U64 || t->cols[col].type == PM_COL_HEX)
		return (int64_t)c->v.u;
	if (t->cols[col].type == PM_COL_I64)
		return c->v.i;
	return (int64_t)cell_double(&t->cols[col], c);
}

double pm_table__get_double(const struct pm_table *t, size_t row, size_t col)
{
	const struct pm_table_cell *c = get(t, row, col);

	return c ? cell_double(&t->cols[col], c) : 0;
}

bool pm_table__get_range(const struct pm_table *t, size_t row, size_t col,
			 double *lo, double *hi)
{
	const struct pm_table_cell *c = get(t, row, col);

	if (!c || t->cols[col].type != PM_COL_RANGE)
		return false;
	*lo = c->v.r[0];
	*hi = c->v.r[1];
	return true;
}

/*
 * Merge sort of row indices: stable by construction, and the comparator
 * sees the rows where they were before the sort started.
 */
static void merge_sort(size_t *idx, size_t *tmp, size_t n,
		       const struct pm_table *t, pm_table_cmp_fn cmp, void *arg)
{
	size_t mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	merge_sort(idx, tmp, mid, t, cmp, arg);
	merge_sort(idx + mid, tmp, n - mid, t, cmp, arg);
	while (i < mid && j < n) {
		/* Take from the right only when strictly smaller: stability. */
		if (cmp(t, idx[j], idx[i], arg) < 0)
			tmp[k++] = idx[j++];
		else
			tmp[k++] = idx[i++];
	}
	while (i < mid)
		tmp[k++] = idx[i++];
	while (j < n)
		tmp[k++] = idx[j++];
	memcpy(idx, tmp, n * sizeof(*idx));
}

void pm_table__sort_by(struct pm_table *t, pm_table_cmp_fn cmp, void *arg)
{
	struct pm_table_cell **rows;
	struct pm_table **kids;
	size_t *idx, *tmp, i;

	if (t->nr_rows < 2)
		return;
	idx = pm_calloc(t->nr_rows, sizeof(*idx));
	tmp = pm_calloc(t->nr_rows, sizeof(*tmp));
	for (i = 0; i < t->nr_rows; i++)
		idx[i] = i;
	merge_sort(idx, tmp, t->nr_rows, t, cmp, arg);
	rows = pm_calloc(t->nr_rows, sizeof(*rows));
	kids = pm_calloc(t->nr_rows, sizeof(*kids));
	for (i = 0; i < t->nr_rows; i++) {
		rows[i] = t->rows[idx[i]];
		kids[i] = t->kids[idx[i]];
	}
	memcpy(t->rows, rows, t->nr_rows * sizeof(*rows));
	memcpy(t->kids, kids, t->nr_rows * sizeof(*kids));
	free(kids);
	free(rows);
	free(tmp);
	free(idx);
}

struct col_sort {
	size_t col;
	bool descending;
};

static int cmp_values(const struct pm_table *t, size_t col,
		      const struct pm_table_cell *a, const struct pm_table_cell *b)
{
	switch (t->cols[col].type) {
	case PM_COL_STRING:
		return strcmp(a->v.s, b->v.s);
	case PM_COL_U64:
	case PM_COL_HEX:
		return pm_cmp_u64(a->v.u, b->v.u);
	case PM_COL_I64:
		return a->v.i < b->v.i ? -1 : a->v.i > b->v.i;
	case PM_COL_RANGE:
		return a->v.r[0] < b->v.r[0] ? -1 : a->v.r[0] > b->v.r[0];
	default: {
		double x = cell_double(&t->cols[col], a);
		double y = cell_double(&t->cols[col], b);

		return x < y ? -1 : x > y;
	}
	}
}

static int cmp_column(const struct pm_table *t, size_t a, size_t b, void *arg)
{
	const struct col_sort *s = arg;
	const struct pm_table_cell *ca = pm_table__cell(t, a, s->col);
	const struct pm_table_cell *cb = pm_table__cell(t, b, s->col);
	bool va = ca->state == PM_CELL_VALUE, vb = cb->state == PM_CELL_VALUE;
	int r;

	/* Null cells go last whichever way the values run. */
	if (!va || !vb)
		return (int)vb - (int)va;
	r = cmp_values(t, s->col, ca, cb);
	return s->descending ? -r : r;
}

int pm_table__sort(struct pm_table *t, size_t col, bool descending)
{
	struct col_sort s = { col, descending };

	if (col >= t->nr_cols)
		return -EINVAL;
	pm_table__sort_by(t, cmp_column, &s);
	return 0;
}

void pm_table__truncate(struct pm_table *t, size_t n)
{
	while (t->nr_rows > n)
		free_row(t, --t->nr_rows);
}

size_t pm_table__table_columns(const struct pm_table *t, size_t *out)
{
	size_t c, n = 0;

	for (c = 0; c < t->nr_cols; c++)
		if (pm_table_col__in_table(&t->cols[c]))
			out[n++] = c;
	return n;
}

void pm_table__format_cell(const struct pm_table *t, size_t row, size_t col,
			   bool sign, struct pm_strbuf *sb)
{
	const struct pm_table_col *c = &t->cols[col];
	const struct pm_table_cell *cell = pm_table__cell(t, row, col);
	int digits = c->digits == PM_TABLE_DIGITS_NONE ? 0 :
		     c->digits > 0 ? c->digits : -1;

	switch (c->type) {
	case PM_COL_STRING:
		pm_strbuf__adds(sb, cell->v.s);
		break;
	case PM_COL_U64:
		pm_strbuf__addf(sb, "%" PRIu64, cell->v.u);
		break;
	case PM_COL_I64:
		pm_strbuf__addf(sb, "%" PRId64, cell->v.i);
		break;
	case PM_COL_HEX:
		pm_strbuf__addf(sb, "0x%0*" PRIx64, digits < 0 ? 16 : digits,
				cell->v.u);
		break;
	case PM_COL_DOUBLE:
	case PM_COL_PERCENT:
		pm_strbuf__addf(sb, "%.*f", digits < 0 ? 2 : digits, cell->v.d);
		if (sign && c->type == PM_COL_PERCENT)
			pm_strbuf__addc(sb, '%');
		break;
	case PM_COL_BOOL:
		pm_strbuf__adds(sb, cell->v.b ? "yes" : "no");
		break;
	case PM_COL_RANGE:
		pm_strbuf__addf(sb, "%.*f..%.*f", digits < 0 ? 2 : digits,
				cell->v.r[0], digits < 0 ? 2 : digits, cell->v.r[1]);
		break;
	}
}
