// SPDX-License-Identifier: GPL-2.0
/* Renderers: aligned text, CSV, TSV, JSON and HTML from one table. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/json.h"
#include "pmprof/util.h"
#include "table/internal.h"

static const struct pm_table_render_opts default_opts;

/* Columns in text take the width of their widest cell, in characters. */
static size_t display_width(const char *s)
{
	size_t w = 0;

	/* Count UTF-8 lead bytes, not continuation bytes (10xxxxxx). */
	for (; *s; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	}
	return w;
}

/* Text shows a control character as an escape so rows stay on one line. */
static void add_text_escaped(struct pm_strbuf *sb, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n')
			pm_strbuf__adds(sb, "\\n");
		else if (c == '\t')
			pm_strbuf__adds(sb, "\\t");
		else if (c == '\r')
			pm_strbuf__adds(sb, "\\r");
		else if (c < 0x20 || c == 0x7f)
			pm_strbuf__addf(sb, "\\x%02x", c);
		else
			pm_strbuf__addc(sb, (char)c);
	}
}

static bool right_aligned(const struct pm_table_col *c)
{
	if (c->align == PM_ALIGN_AUTO)
		return pm_table_col__numeric(c);
	return c->align == PM_ALIGN_RIGHT;
}

static char *text_header(const struct pm_table_col *c)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;

	add_text_escaped(&sb, c->name);
	if (c->unit)
		pm_strbuf__addf(&sb, " (%s)", c->unit);
	if (!sb.buf)
		return pm_strdup("");
	return pm_strbuf__detach(&sb);
}

/* marked: the column has marks (pm_table__set_mark): a cell without one
 * ends in a blank, so the digits stay aligned. */
static char *text_cell(const struct pm_table *t, size_t row, size_t col,
		       bool marked)
{
	struct pm_strbuf sb = PM_STRBUF_INIT, raw = PM_STRBUF_INIT;
	const struct pm_table_cell *cell = pm_table__cell(t, row, col);

	if (!cell->set)
		return pm_strdup(marked ? "- " : "-");
	pm_table__format_cell(t, row, col, true, &raw);
	add_text_escaped(&sb, pm_strbuf__str(&raw));
	pm_strbuf__release(&raw);
	if (marked)
		pm_strbuf__addc(&sb, cell->mark ? cell->mark : ' ');
	if (!sb.buf)
		return pm_strdup("");
	return pm_strbuf__detach(&sb);
}

static bool column_marked(const struct pm_table *t, size_t col)
{
	for (size_t r = 0; r < t->nr_rows; r++)
		if (pm_table__cell(t, r, col)->mark)
			return true;
	return false;
}

static void add_padded(struct pm_strbuf *sb, const char *s, size_t width,
		       bool right)
{
	size_t w = display_width(s), pad = width > w ? width - w : 0;

	if (right)
		pm_strbuf__addf(sb, "%*s", (int)pad, "");
	pm_strbuf__adds(sb, s);
	if (!right)
		pm_strbuf__addf(sb, "%*s", (int)pad, "");
}

/* One line of cells; no trailing blanks, even after an empty last cell. */
static void put_line(FILE *out, const struct pm_table *t, char **cells,
		     const size_t *width, const char *prefix)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	size_t c;

	pm_strbuf__adds(&sb, prefix);
	for (c = 0; c < t->nr_cols; c++) {
		if (c)
			pm_strbuf__adds(&sb, "  ");
		add_padded(&sb, cells[c], width[c], right_aligned(&t->cols[c]));
	}
	while (sb.len && sb.buf[sb.len - 1] == ' ')
		sb.buf[--sb.len] = '\0';
	fputs(pm_strbuf__str(&sb), out);
	putc('\n', out);
	pm_strbuf__release(&sb);
}

static void render_text(const struct pm_table *t, FILE *out,
			const struct pm_table_render_opts *o)
{
	size_t nr_cols = t->nr_cols, r, c, i;
	size_t *width = pm_calloc(nr_cols ? nr_cols : 1, sizeof(*width));
	char **header = pm_calloc(nr_cols ? nr_cols : 1, sizeof(*header));
	size_t nr_cells = t->nr_rows * nr_cols;
	char **cells = pm_calloc(nr_cells ? nr_cells : 1, sizeof(*cells));
	const char *row_prefix = o->hash_header && !o->no_header ? "  " : "";
	bool *marked = pm_calloc(nr_cols ? nr_cols : 1, sizeof(*marked));

	for (c = 0; c < nr_cols; c++) {
		header[c] = text_header(&t->cols[c]);
		if (!o->no_header)
			width[c] = display_width(header[c]);
	}
	for (c = 0; c < nr_cols; c++)
		marked[c] = column_marked(t, c);
	for (r = 0; r < t->nr_rows; r++) {
		for (c = 0; c < nr_cols; c++) {
			char *s = text_cell(t, r, c, marked[c]);
			size_t w = display_width(s);

			cells[r * nr_cols + c] = s;
			if (w > width[c])
				width[c] = w;
		}
	}

	if (!o->no_comments && (t->title || t->nr_comments)) {
		if (t->title)
			fprintf(out, "# %s\n", t->title);
		for (i = 0; i < t->nr_comments; i++)
			fprintf(out, "# %s\n", t->comments[i]);
		fputs("#\n", out);
	}
	if (!o->no_header && nr_cols) {
		put_line(out, t, header, width, o->hash_header ? "# " : "");
		if (o->hash_header) {
			fputs("# ", out);
			for (c = 0; c < nr_cols; c++) {
				fputs(c ? "  " : "", out);
				for (i = 0; i < width[c]; i++)
					putc('.', out);
			}
			fputs("\n#\n", out);
		}
	}
	for (r = 0; r < t->nr_rows && nr_cols; r++)
		put_line(out, t, &cells[r * nr_cols], width, row_prefix);

	for (i = 0; i < t->nr_rows * nr_cols; i++)
		free(cells[i]);
	for (c = 0; c < nr_cols; c++)
		free(header[c]);
	free(cells);
	free(header);
	free(width);
	free(marked);
}

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

static void render_delimited(const struct pm_table *t, FILE *out,
			     const struct pm_table_render_opts *o, bool csv)
{
	void (*put)(FILE *, const char *) = csv ? put_csv_field : put_tsv_field;
	char sep = csv ? ',' : '\t';
	struct pm_strbuf sb = PM_STRBUF_INIT;
	size_t r, c;

	if (!t->nr_cols)
		return;
	if (!o->no_header) {
		for (c = 0; c < t->nr_cols; c++) {
			if (c)
				putc(sep, out);
			put(out, t->cols[c].name);
		}
		putc('\n', out);
	}
	for (r = 0; r < t->nr_rows; r++) {
		for (c = 0; c < t->nr_cols; c++) {
			if (c)
				putc(sep, out);
			if (!pm_table__cell(t, r, c)->set)
				continue;
			pm_strbuf__reset(&sb);
			pm_table__format_cell(t, r, c, false, &sb);
			put(out, pm_strbuf__str(&sb));
		}
		putc('\n', out);
	}
	pm_strbuf__release(&sb);
}

void pm_table__json_row_fields(const struct pm_table *t, size_t row,
			       struct pm_json *j)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	size_t c;

	for (c = 0; c < t->nr_cols; c++) {
		const struct pm_table_cell *cell = pm_table__cell(t, row, c);

		pm_json__key(j, t->cols[c].key);
		if (!cell->set) {
			pm_json__null(j);
			continue;
		}
		switch (t->cols[c].type) {
		case PM_COL_STRING:
			pm_json__string(j, cell->v.s);
			break;
		case PM_COL_U64:
			pm_json__u64(j, cell->v.u);
			break;
		case PM_COL_I64:
			pm_json__i64(j, cell->v.i);
			break;
		case PM_COL_DOUBLE:
		case PM_COL_PERCENT:
			pm_json__double(j, cell->v.d);
			break;
		case PM_COL_HEX:
			/* Same digits as the other formats: "0x" + 16 by default. */
			pm_strbuf__reset(&sb);
			pm_table__format_cell(t, row, c, false, &sb);
			pm_json__string(j, pm_strbuf__str(&sb));
			break;
		}
	}
	pm_strbuf__release(&sb);
}

void pm_table__json_rows(const struct pm_table *t, struct pm_json *j)
{
	size_t r;

	pm_json__begin_array(j);
	for (r = 0; r < t->nr_rows; r++) {
		pm_json__begin_object(j);
		pm_table__json_row_fields(t, r, j);
		pm_json__end_object(j);
	}
	pm_json__end_array(j);
}

static void render_json(const struct pm_table *t, FILE *out)
{
	struct pm_json j;

	pm_json__init(&j, out);
	pm_table__json_rows(t, &j);
	putc('\n', out);
}

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

static void render_html(const struct pm_table *t, FILE *out,
			const struct pm_table_render_opts *o)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	size_t r, c, i;

	fputs("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>", out);
	put_html(out, t->title ? t->title : "pmprof");
	fputs("</title>\n<style>\ntable { border-collapse: collapse; }\n"
	      "th, td { padding: 0 0.5em; }\n.r { text-align: right; }\n"
	      "</style>\n</head>\n<body>\n", out);
	for (i = 0; i < t->nr_comments && !o->no_comments; i++) {
		fputs("<p>", out);
		put_html(out, t->comments[i]);
		fputs("</p>\n", out);
	}
	fputs("<table>\n", out);
	if (t->title) {
		fputs("<caption>", out);
		put_html(out, t->title);
		fputs("</caption>\n", out);
	}
	fputs("<thead>\n<tr>", out);
	for (c = 0; c < t->nr_cols; c++) {
		fputs(right_aligned(&t->cols[c]) ? "<th class=\"r\">" : "<th>", out);
		put_html(out, t->cols[c].name);
		if (t->cols[c].unit) {
			fputs(" (", out);
			put_html(out, t->cols[c].unit);
			putc(')', out);
		}
		fputs("</th>", out);
	}
	fputs("</tr>\n</thead>\n<tbody>\n", out);
	for (r = 0; r < t->nr_rows; r++) {
		fputs("<tr>", out);
		for (c = 0; c < t->nr_cols; c++) {
			fputs(right_aligned(&t->cols[c]) ? "<td class=\"r\">" :
			      "<td>", out);
			if (pm_table__cell(t, r, c)->set) {
				pm_strbuf__reset(&sb);
				pm_table__format_cell(t, r, c, true, &sb);
				put_html(out, pm_strbuf__str(&sb));
			}
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n</body>\n</html>\n", out);
	pm_strbuf__release(&sb);
}

int pm_table__render(const struct pm_table *t, FILE *out,
		     enum pm_table_format format,
		     const struct pm_table_render_opts *opts)
{
	const struct pm_table_render_opts *o = opts ? opts : &default_opts;

	switch (format) {
	case PM_TABLE_TEXT:
		render_text(t, out, o);
		break;
	case PM_TABLE_CSV:
		render_delimited(t, out, o, true);
		break;
	case PM_TABLE_TSV:
		render_delimited(t, out, o, false);
		break;
	case PM_TABLE_JSON:
		render_json(t, out);
		break;
	case PM_TABLE_HTML:
		render_html(t, out, o);
		break;
	default:
		return -EINVAL;
	}
	return ferror(out) ? -EIO : 0;
}
