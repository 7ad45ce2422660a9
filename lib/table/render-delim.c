// SPDX-License-Identifier: GPL-2.0
/*
 * CSV (RFC 4180 quoting, LF line ends) and TSV (tab, newline, CR and
 * backslash escaped as \t \n \r \\): one table, the report's tables
 * stacked. Null and absent cells are empty (or the column's null_text);
 * a tree's nodes follow their row, with a "depth" column first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/util.h"
#include "table/internal.h"

/* RFC 4180: quote a field holding a comma, quote, CR or LF; double quotes. */
static void put_csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	putc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', out);
		putc(*s, out);
	}
	putc('"', out);
}

/* TSV has no quoting: the characters that would break it are escaped. */
static void put_tsv_field(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '\t': fputs("\\t", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\\': fputs("\\\\", out); break;
		default: putc(*s, out);
		}
	}
}

struct delim {
	FILE *out;
	void (*put)(FILE *, const char *);
	char sep;
	const size_t *cols;
	size_t ncols;
	bool depth;		/* a depth column first: the table has trees */
	struct pm_strbuf sb;
};

static void put_rows(struct delim *d, const struct pm_table *t, unsigned depth)
{
	for (size_t r = 0; r < t->nr_rows; r++) {
		const struct pm_table *kids = pm_table__children_of(t, r);

		if (d->depth)
			fprintf(d->out, "%u%c", depth, d->sep);
		for (size_t c = 0; c < d->ncols; c++) {
			const struct pm_table_cell *cell =
				pm_table__cell(t, r, d->cols[c]);
			const char *null_text = t->cols[d->cols[c]].null_text;

			if (c)
				putc(d->sep, d->out);
			if (cell->state == PM_CELL_NULL && null_text) {
				d->put(d->out, null_text);
				continue;
			}
			if (cell->state != PM_CELL_VALUE)
				continue;
			pm_strbuf__reset(&d->sb);
			pm_table__format_cell(t, r, d->cols[c], false, &d->sb);
			d->put(d->out, pm_strbuf__str(&d->sb));
		}
		putc('\n', d->out);
		if (kids)
			put_rows(d, kids, depth + 1);
	}
}

static bool has_trees(const struct pm_table *t)
{
	for (size_t r = 0; r < t->nr_rows; r++)
		if (pm_table__children_of(t, r))
			return true;
	return false;
}

static void render_delimited(const struct pm_table *t, FILE *out,
			     const struct pm_render_opts *o, bool csv)
{
	size_t *cols = pm_calloc(t->nr_cols + 1, sizeof(*cols));
	struct delim d = {
		.out = out,
		.put = csv ? put_csv_field : put_tsv_field,
		.sep = csv ? ',' : '\t',
		.cols = cols,
		.ncols = pm_table__table_columns(t, cols),
		.depth = has_trees(t),
		.sb = PM_STRBUF_INIT,
	};

	if (d.ncols) {
		if (!o->no_header) {
			if (d.depth)
				fprintf(out, "depth%c", d.sep);
			for (size_t c = 0; c < d.ncols; c++) {
				if (c)
					putc(d.sep, out);
				d.put(out, t->cols[cols[c]].name);
			}
			putc('\n', out);
		}
		put_rows(&d, t, 0);
	}
	pm_strbuf__release(&d.sb);
	free(cols);
}

static int render(const struct pm_report *rep, FILE *out,
		  const struct pm_render_opts *o, bool csv)
{
	const struct pm_table *single;
	struct pm_table *stacked = pm_report__stacked(rep, &single);

	if (stacked || single)
		render_delimited(stacked ? stacked : single, out, o, csv);
	pm_table__delete(stacked);
	return ferror(out) ? -EIO : 0;
}

static int render_csv(const struct pm_report *rep, FILE *out,
		      const struct pm_render_opts *o)
{
	return render(rep, out, o, true);
}

static int render_tsv(const struct pm_report *rep, FILE *out,
		      const struct pm_render_opts *o)
{
	return render(rep, out, o, false);
}

const struct pm_renderer pm_render_csv = {
	.name = "csv",
	.help = "comma-separated values",
	.render = render_csv,
};

const struct pm_renderer pm_render_tsv = {
	.name = "tsv",
	.help = "tab-separated values",
	.render = render_tsv,
};
