// SPDX-License-Identifier: GPL-2.0
/*
 * HTML: a standalone page (no scripts, no links): the report's title,
 * comments, notes and labelled summary items, then each table with its
 * caption, comments and title; tree nodes follow their row, indented.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/util.h"
#include "table/internal.h"

static void put_html(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: putc(*s, out);
		}
	}
}

static void put_p(FILE *out, const char *s)
{
	fputs("<p>", out);
	put_html(out, s);
	fputs("</p>\n", out);
}

static bool right_aligned(const struct pm_table_col *c)
{
	if (c->align == PM_ALIGN_AUTO)
		return pm_table_col__numeric(c);
	return c->align == PM_ALIGN_RIGHT;
}

struct html {
	FILE *out;
	const size_t *cols;
	size_t ncols, tree_col;
	struct pm_strbuf sb;
};

static void put_rows(struct html *h, const struct pm_table *t, unsigned depth)
{
	for (size_t r = 0; r < t->nr_rows; r++) {
		const struct pm_table *kids = pm_table__children_of(t, r);

		fputs("<tr>", h->out);
		for (size_t c = 0; c < h->ncols; c++) {
			const struct pm_table_col *col = &t->cols[h->cols[c]];
			const struct pm_table_cell *cell =
				pm_table__cell(t, r, h->cols[c]);

			fputs(right_aligned(col) ? "<td class=\"r\"" : "<td", h->out);
			if (depth && c == h->tree_col)
				fprintf(h->out, " style=\"padding-left: %uem\"",
					depth * 2);
			putc('>', h->out);
			if (cell->state == PM_CELL_VALUE) {
				pm_strbuf__reset(&h->sb);
				pm_table__format_cell(t, r, h->cols[c], true, &h->sb);
				put_html(h->out, pm_strbuf__str(&h->sb));
			} else if (cell->state == PM_CELL_NULL && col->null_text) {
				put_html(h->out, col->null_text);
			}
			fputs("</td>", h->out);
		}
		fputs("</tr>\n", h->out);
		if (kids)
			put_rows(h, kids, depth + 1);
	}
}

static void render_table(const struct pm_table *t, FILE *out,
			 const struct pm_render_opts *o)
{
	size_t *cols = pm_calloc(t->nr_cols + 1, sizeof(*cols));
	struct html h = { .out = out, .cols = cols, .sb = PM_STRBUF_INIT };
	size_t c, i;

	h.ncols = pm_table__table_columns(t, cols);
	h.tree_col = h.ncols ? h.ncols - 1 : 0;
	for (c = 0; c < h.ncols; c++)
		if (t->cols[cols[c]].flags & PM_COLF_TREE)
			h.tree_col = c;
	if (t->caption && !o->no_comments) {
		fputs("<h2>", out);
		put_html(out, t->caption);
		fputs("</h2>\n", out);
	}
	for (i = 0; i < t->nr_comments && !o->no_comments; i++)
		put_p(out, t->comments[i]);
	fputs("<table>\n", out);
	if (t->title) {
		fputs("<caption>", out);
		put_html(out, t->title);
		fputs("</caption>\n", out);
	}
	fputs("<thead>\n<tr>", out);
	for (c = 0; c < h.ncols; c++) {
		const struct pm_table_col *col = &t->cols[cols[c]];

		fputs(right_aligned(col) ? "<th class=\"r\">" : "<th>", out);
		put_html(out, col->name);
		if (col->unit) {
			fputs(" (", out);
			put_html(out, col->unit);
			putc(')', out);
		}
		fputs("</th>", out);
	}
	fputs("</tr>\n</thead>\n<tbody>\n", out);
	put_rows(&h, t, 0);
	fputs("</tbody>\n</table>\n", out);
	pm_strbuf__release(&h.sb);
	free(cols);
}

static int render(const struct pm_report *rep, FILE *out,
		  const struct pm_render_opts *o)
{
	const char *title = rep->title;
	struct pm_strbuf sb = PM_STRBUF_INIT;
	size_t i;

	if (!title && rep->nr_tables)
		title = rep->tables[0]->title;
	fputs("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>", out);
	put_html(out, title ? title : "pmprof");
	fputs("</title>\n<style>\ntable { border-collapse: collapse; }\n"
	      "th, td { padding: 0 0.5em; }\n.r { text-align: right; }\n"
	      "</style>\n</head>\n<body>\n", out);
	if (rep->title) {
		fputs("<h1>", out);
		put_html(out, rep->title);
		fputs("</h1>\n", out);
	}
	for (i = 0; i < rep->nr_comments && !o->no_comments; i++)
		if (rep->comments[i][0])
			put_p(out, rep->comments[i]);
	for (i = 0; i < rep->summary.nr && !o->no_comments; i++)
		if (pm_summary_item__labelled(&rep->summary.items[i], &sb))
			put_p(out, pm_strbuf__str(&sb));
	for (i = 0; i < rep->nr_notes && !o->no_comments; i++)
		put_p(out, rep->notes[i]);
	for (i = 0; i < rep->nr_tables; i++) {
		const struct pm_table *t = rep->tables[i];

		if (!(t->flags & PM_TABLE_JSON_ONLY) &&
		    (t->nr_rows || !(t->flags & PM_TABLE_OMIT_EMPTY)))
			render_table(t, out, o);
	}
	fputs("</body>\n</html>\n", out);
	pm_strbuf__release(&sb);
	return ferror(out) ? -EIO : 0;
}

const struct pm_renderer pm_render_html = {
	.name = "html",
	.help = "a standalone page",
	.render = render,
};
