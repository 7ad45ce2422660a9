// SPDX-License-Identifier: GPL-2.0
/*
 * HTML: a standalone page (no links): the report's title, comments, notes
 * and labelled summary items, then each table with its caption, comments
 * and title; tree nodes follow their row, indented. A report with stacks
 * (pmprof/stacks.h) is an interactive page, still one file: its flame
 * graph and sortable tables (lib/table/flamegraph.js and .css, inlined),
 * the stacks as JSON in the page; without stacks the page has no script.
 */
#include <errno.h>
#include <inttypes.h>
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
			 const struct pm_render_opts *o, bool sortable)
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
	fputs(sortable ? "<table class=\"pm-sortable\">\n" : "<table>\n", out);
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

/* A JSON string that is safe inside <script>: no '<', '>' or '&'. */
static void put_json_str(FILE *out, const char *s)
{
	putc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == '<' || c == '>' || c == '&')
			fprintf(out, "\\u%04x", c);
		else
			putc(c, out);
	}
	putc('"', out);
}

/* The stacks table (Stack, then the value columns) as the script's data. */
static void put_stacks(FILE *out, const struct pm_table *t)
{
	fputs("<script type=\"application/json\" id=\"pm-stacks\">\n{\"columns\":[", out);
	for (size_t c = 1; c < t->nr_cols; c++) {
		if (c > 1)
			putc(',', out);
		put_json_str(out, t->cols[c].key);
	}
	/* pmprof diff's: widths from new, colours by the change */
	if (pm_summary__find(&t->summary, "differential"))
		fputs("],\n\"differential\":true", out);
	else
		putc(']', out);
	fputs(",\n\"stacks\":[", out);
	for (size_t r = 0; r < t->nr_rows; r++) {
		const char *stack = pm_table__get_str(t, r, 0);

		fputs(r ? ",\n[" : "\n[", out);
		put_json_str(out, stack ? stack : "");
		fputs(",[", out);
		for (size_t c = 1; c < t->nr_cols; c++)
			fprintf(out, "%s%" PRIu64, c > 1 ? "," : "",
				pm_table__get_u64(t, r, c));
		fputs("]]", out);
	}
	fputs("]}\n</script>\n", out);
}

static void put_flame(FILE *out, const struct pm_table *stacks)
{
	fputs("<h2>Flame graph</h2>\n<div id=\"pm-controls\">"
	      "<label>weight <select id=\"pm-weight\"></select></label> "
	      "<label>search <input id=\"pm-search\" type=\"search\"></label> "
	      "<button id=\"pm-reset\" type=\"button\">reset zoom</button> "
	      "<span id=\"pm-status\"></span></div>\n"
	      "<div id=\"pm-fg\"></div>\n<div id=\"pm-tip\" hidden></div>\n"
	      "<pre id=\"pm-errors\"></pre>\n", out);
	put_stacks(out, stacks);
}

static int render(const struct pm_report *rep, FILE *out,
		  const struct pm_render_opts *o)
{
	const struct pm_table *stacks = pm_report__find_table(rep, "stacks");
	const char *title = rep->title;
	struct pm_strbuf sb = PM_STRBUF_INIT;
	size_t i;

	if (!title && rep->nr_tables)
		title = rep->tables[0]->title;
	fputs("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>", out);
	put_html(out, title ? title : "pmprof");
	if (stacks)
		fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n",
			pm_asset_flamegraph_css);
	else
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
	if (stacks)
		put_flame(out, stacks);
	for (i = 0; i < rep->nr_tables; i++) {
		const struct pm_table *t = rep->tables[i];

		/* whole pictures (stacks, profiles) are drawn, not listed */
		if (stacks && (t->flags & PM_TABLE_WHOLE))
			continue;
		if (!(t->flags & PM_TABLE_JSON_ONLY) &&
		    (t->nr_rows || !(t->flags & PM_TABLE_OMIT_EMPTY)))
			render_table(t, out, o, stacks != NULL);
	}
	if (stacks)
		fprintf(out, "<script>\n%s</script>\n", pm_asset_flamegraph_js);
	fputs("</body>\n</html>\n", out);
	pm_strbuf__release(&sb);
	return ferror(out) ? -EIO : 0;
}

const struct pm_renderer pm_render_html = {
	.name = "html",
	.help = "a standalone page (with stacks: a flame graph, sortable tables)",
	.render = render,
	.needs = PM_RENDER_NEEDS_STACKS,
};
