// SPDX-License-Identifier: GPL-2.0
/*
 * Tables that fit (pmprof/table-fit.h): marks, the columns asked for, and
 * text no wider than the terminal. Widths are counted as the text
 * renderer prints: a UTF-8 character is one, an escaped control character
 * its escape ("\n" two, "\x01" four).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmprof/table-fit.h"
#include "pmprof/util.h"
#include "table/internal.h"

#define ELLIPSIS "\xe2\x80\xa6"	/* U+2026 */

/* One character's width in text: its escape's, or 1 (0 for a UTF-8
 * continuation byte). */
static size_t char_width(unsigned char c)
{
	if (c == '\n' || c == '\t' || c == '\r')
		return 2;
	if (c < 0x20 || c == 0x7f)
		return 4;
	return (c & 0xc0) != 0x80;
}

static size_t text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += char_width((unsigned char)*s);
	return w;
}

int pm_table__set_mark(struct pm_table *t, size_t row, size_t col, char mark)
{
	if (row >= t->nr_rows || col >= t->nr_cols ||
	    t->rows[row][col].state != PM_CELL_VALUE)
		return -EINVAL;
	t->rows[row][col].mark = mark;
	return 0;
}

static bool has_marks(const struct pm_table *t, size_t col)
{
	for (size_t r = 0; r < t->nr_rows; r++)
		if (t->rows[r][col].mark)
			return true;
	return false;
}

static size_t cell_width(const struct pm_table *t, size_t row, size_t col)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	uint8_t state = t->rows[row][col].state;
	size_t w;

	if (state == PM_CELL_NULL && t->cols[col].null_text)
		return text_width(t->cols[col].null_text);
	if (state != PM_CELL_VALUE)
		return 1;	/* "-" */
	pm_table__format_cell(t, row, col, true, &sb);
	w = text_width(pm_strbuf__str(&sb));
	pm_strbuf__release(&sb);
	return w;
}

/* The column's width in text: its header's or its widest cell's; 0 for
 * a column text does not show (JSON only). */
static size_t column_width(const struct pm_table *t, size_t col)
{
	const struct pm_table_col *c = &t->cols[col];
	size_t w = text_width(c->name), r, mark = has_marks(t, col);

	if (!pm_table_col__in_table(c))
		return 0;
	if (c->unit)
		w += 3 + text_width(c->unit);	/* " (unit)" */
	for (r = 0; r < t->nr_rows; r++) {
		size_t cw = cell_width(t, r, col) + mark;

		if (cw > w)
			w = cw;
	}
	return w;
}

/* The line's width: the shown columns' and two blanks between them
 * (and perf's row indent). */
static size_t line_width(const struct pm_table *t, const size_t *width, size_t n)
{
	size_t w = t->flags & PM_TABLE_PERF_HEADER ? 2 : 0, shown = 0;

	for (size_t c = 0; c < n; c++)
		if (pm_table_col__in_table(&t->cols[c])) {
			w += width[c];
			shown++;
		}
	return w + (shown ? 2 * (shown - 1) : 0);
}

size_t pm_table__text_width(const struct pm_table *t)
{
	size_t *width = pm_calloc(t->nr_cols + 1, sizeof(*width)), w;

	for (size_t c = 0; c < t->nr_cols; c++)
		width[c] = column_width(t, c);
	w = line_width(t, width, t->nr_cols);
	free(width);
	return w;
}

/* Column col's cells out of t's rows and their trees (which share t's
 * columns: they see the new ones). */
static void remove_cells(struct pm_table *t, const struct pm_table_col *cols,
			 size_t nr_cols, size_t col)
{
	for (size_t r = 0; r < t->nr_rows; r++) {
		struct pm_table_cell *cells = t->rows[r];

		if (cols[col].type == PM_COL_STRING && cells[col].state == PM_CELL_VALUE)
			free(cells[col].v.s);
		memmove(&cells[col], &cells[col + 1],
			(nr_cols - col - 1) * sizeof(*cells));
		if (t->kids[r]) {
			remove_cells(t->kids[r], cols, nr_cols, col);
			t->kids[r]->nr_cols = nr_cols - 1;
		}
	}
}

void pm_table__remove_column(struct pm_table *t, size_t col)
{
	struct pm_table_col *c;
	size_t n;

	if (col >= t->nr_cols)
		return;
	c = &t->cols[col];
	remove_cells(t, t->cols, t->nr_cols, col);
	pm_table_col__release(c);
	n = t->nr_cols - col - 1;
	memmove(c, c + 1, n * sizeof(*c));
	t->nr_cols--;
}

/* The index of the column after the first n that text shows (columns
 * for JSON only do not count), or nr_cols. */
static size_t after_shown(const struct pm_table *t, size_t n)
{
	size_t c;

	for (c = 0; c < t->nr_cols && n; c++)
		n -= pm_table_col__in_table(&t->cols[c]);
	return c;
}

/* Is `want` this column: its key or its name, in any case? */
static bool names(const struct pm_table_col *c, const char *want, size_t len)
{
	return (strlen(c->key) == len && !strncasecmp(c->key, want, len)) ||
	       (strlen(c->name) == len && !strncasecmp(c->name, want, len));
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* A column whose key is "KEY:what" (an interval) goes with the column
 * whose key is KEY; a column in a JSON subgroup (a metric's truth and
 * error) with the subgroup's first column. */
static const struct pm_table_col *owner(const struct pm_table *t, size_t col)
{
	const char *key = t->cols[col].key, *colon = strchr(key, ':');

	if (t->cols[col].subgroup) {
		for (size_t i = 0; i < col; i++)
			if (same_str(t->cols[i].group, t->cols[col].group) &&
			    same_str(t->cols[i].subgroup, t->cols[col].subgroup))
				return &t->cols[i];
		return &t->cols[col];
	}
	if (!colon)
		return &t->cols[col];
	for (size_t i = 0; i < t->nr_cols; i++)
		if (i != col && strlen(t->cols[i].key) == (size_t)(colon - key) &&
		    !strncmp(t->cols[i].key, key, (size_t)(colon - key)))
			return &t->cols[i];
	return &t->cols[col];
}

static bool listed(const struct pm_table_col *c, const char *list)
{
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");

		if (len && names(c, p, len))
			return true;
		p += len;
		if (*p)
			p++;
	}
	return false;
}

int pm_table__keep_columns(struct pm_table *t, size_t fixed, const char *list,
			   struct pm_error *err)
{
	const char *p = list;
	size_t c;

	fixed = after_shown(t, fixed);
	while (*p) {
		size_t len = strcspn(p, ",");
		bool found = false;

		for (c = 0; c < t->nr_cols && len; c++)
			found |= pm_table_col__in_table(&t->cols[c]) &&
				 names(&t->cols[c], p, len);
		if (len && !found) {
			struct pm_strbuf sb = PM_STRBUF_INIT;
			int ret;

			for (c = 0; c < t->nr_cols; c++)
				if (pm_table_col__in_table(&t->cols[c]) &&
				    owner(t, c) == &t->cols[c])
					pm_strbuf__addf(&sb, "%s%s", sb.len ? ", " : "",
							t->cols[c].name);
			ret = pm_error__fmt(err, PM_EUSAGE, "no column '%.*s' here; "
					    "the columns are: %s", (int)len, p,
					    pm_strbuf__str(&sb));
			pm_strbuf__release(&sb);
			return ret;
		}
		p += len;
		if (*p)
			p++;
	}
	/* from the right: an owner goes after the columns that go with it;
	 * JSON's columns stay */
	for (c = t->nr_cols; c-- > fixed;)
		if (pm_table_col__in_table(&t->cols[c]) && !listed(owner(t, c), list))
			pm_table__remove_column(t, c);
	return 0;
}

/* The string cut to `width` characters, the last one an ellipsis. */
static char *cut(const char *s, size_t width)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	size_t w = 0;

	for (; *s; s++) {
		size_t cw = char_width((unsigned char)*s);

		if (w + cw > width - 1)
			break;
		w += cw;
		pm_strbuf__addc(&sb, *s);
	}
	/* no half of a UTF-8 character before the ellipsis */
	while (*s && ((unsigned char)*s & 0xc0) == 0x80)
		pm_strbuf__addc(&sb, *s++);
	pm_strbuf__adds(&sb, ELLIPSIS);
	return pm_strbuf__detach(&sb);
}

static void shrink(struct pm_table *t, size_t col, size_t width)
{
	for (size_t r = 0; r < t->nr_rows; r++) {
		struct pm_table_cell *cell = &t->rows[r][col];

		if (cell->state == PM_CELL_VALUE && text_width(cell->v.s) > width) {
			char *s = cut(cell->v.s, width);

			free(cell->v.s);
			cell->v.s = s;
		}
	}
}

size_t pm_table__fit(struct pm_table *t, const struct pm_table_fit *f,
		     struct pm_strbuf *left_out)
{
	size_t n = t->nr_cols, *width, total, gone = 0, c, e = 0, to = 0;
	size_t min = f->min_elastic ? f->min_elastic : 16, shown = 0;
	size_t fixed = after_shown(t, f->fixed);
	bool elastic = false;

	if (!f->width || !n)
		return 0;
	if (f->elastic >= 0) {
		e = after_shown(t, (size_t)f->elastic);
		while (e < n && !pm_table_col__in_table(&t->cols[e]))
			e++;
		elastic = e < n && t->cols[e].type == PM_COL_STRING;
	}
	width = pm_calloc(n, sizeof(*width));
	for (c = 0; c < n; c++)
		width[c] = column_width(t, c);
	total = line_width(t, width, n);
	if (elastic) {
		/* as narrow as it may be while columns go; then as wide as
		 * the room left */
		to = text_width(t->cols[e].name);
		to = to > min ? to : min;
		to = to < width[e] ? to : width[e];
		total -= width[e] - to;
	}
	/* a metric goes with its interval, truth and error */
	while (total > f->width && n - gone > fixed && n - gone > 1 &&
	       (!elastic || n - gone - 1 != e)) {
		size_t last = n - gone - 1;
		size_t first = (size_t)(owner(t, last) - t->cols);

		if (first > last || first < fixed || (elastic && first <= e))
			first = last;
		for (c = first; c <= last; c++)
			if (pm_table_col__in_table(&t->cols[c]))
				total -= width[c] + 2;
		gone += last - first + 1;
	}
	if (elastic) {
		size_t room = f->width > total ? f->width - total : 0;

		to = to + room < width[e] ? to + room : width[e];
		if (to < width[e])
			shrink(t, e, to);
	}
	for (c = n - gone; c < n; c++) {
		if (!pm_table_col__in_table(&t->cols[c]))
			continue;
		if (left_out)
			pm_strbuf__addf(left_out, "%s%s", shown ? ", " : "",
					t->cols[c].name);
		shown++;
	}
	for (c = 0; c < gone; c++)
		pm_table__remove_column(t, t->nr_cols - 1);
	free(width);
	return shown;
}
