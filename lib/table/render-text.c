// SPDX-License-Identifier: GPL-2.0
/*
 * The text format: aligned columns (numbers right, strings left, the last
 * column unpadded), null as "-" (or the column's null_text), trees drawn
 * under their rows, and the report's "# " lines, notes and captions.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/util.h"
#include "table/internal.h"

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
	return pm_strbuf__detach(&sb);
}

/* marked: the column has marks (pm_table__set_mark): a cell without one
 * ends in a blank, so the digits stay aligned. */
static char *text_cell(const struct pm_table *t, size_t row, size_t col,
		       const char *tree_prefix, bool marked)
{
	struct pm_strbuf sb = PM_STRBUF_INIT, raw = PM_STRBUF_INIT;
	const struct pm_table_cell *cell = pm_table__cell(t, row, col);

	if (tree_prefix)
		pm_strbuf__adds(&sb, tree_prefix);
	if (cell->state == PM_CELL_VALUE)
		pm_table__format_cell(t, row, col, true, &raw);
	else if (cell->state == PM_CELL_NULL && t->cols[col].null_text)
		pm_strbuf__adds(&raw, t->cols[col].null_text);
	else
		pm_strbuf__adds(&raw, "-");
	add_text_escaped(&sb, pm_strbuf__str(&raw));
	pm_strbuf__release(&raw);
	if (marked)
		pm_strbuf__addc(&sb, cell->mark ? cell->mark : ' ');
	return pm_strbuf__detach(&sb);
}

static bool column_marked(const struct pm_table *t, size_t col)
{
	for (size_t r = 0; r < t->nr_rows; r++)
		if (pm_table__cell(t, r, col)->mark)
			return true;
	return false;
}

/* The lines of a table: every row, and under each its tree. */
struct lines {
	char **cells;		/* nr x ncols */
	size_t nr, alloc, ncols;
	const size_t *cols;	/* shown column indices */
	const bool *marked;	/* per shown column: it has marks */
	size_t tree_col;	/* position in cols of the tree column */
};

static void add_line(struct lines *l, const struct pm_table *t, size_t row,
		     const char *prefix)
{
	size_t c;

	PM_GROW(l->cells, l->alloc, (l->nr + 1) * l->ncols);
	for (c = 0; c < l->ncols; c++)
		l->cells[l->nr * l->ncols + c] =
			text_cell(t, row, l->cols[c], c == l->tree_col ? prefix : NULL,
				  l->marked[c]);
	l->nr++;
}

static void add_tree(struct lines *l, const struct pm_table *kids,
		     struct pm_strbuf *indent)
{
	size_t r, len = indent->len;

	for (r = 0; r < kids->nr_rows; r++) {
		bool last = r + 1 == kids->nr_rows;
		const struct pm_table *sub = pm_table__children_of(kids, r);
		struct pm_strbuf pre = PM_STRBUF_INIT;

		pm_strbuf__adds(&pre, pm_strbuf__str(indent));
		pm_strbuf__adds(&pre, last ? "`-- " : "|-- ");
		add_line(l, kids, r, pm_strbuf__str(&pre));
		pm_strbuf__release(&pre);
		if (sub) {
			pm_strbuf__adds(indent, last ? "    " : "|   ");
			add_tree(l, sub, indent);
			indent->len = len;
			indent->buf[len] = '\0';
		}
	}
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

/* The cell with each separator in it made a '.'. */
static void add_unseparated(struct pm_strbuf *sb, const char *s, const char *sep)
{
	size_t seplen = strlen(sep);

	while (*s) {
		if (seplen && !strncmp(s, sep, seplen)) {
			pm_strbuf__addc(sb, '.');
			s += seplen;
		} else {
			pm_strbuf__addc(sb, *s++);
		}
	}
}

/* One line of cells; no trailing blanks, even after an empty last cell. */
/* -t: the cells apart by the separator, which no cell then holds. */
static void put_separated(struct pm_strbuf *sb, char **cells, size_t n,
			  const char *sep)
{
	for (size_t c = 0; c < n; c++) {
		if (c)
			pm_strbuf__adds(sb, sep);
		add_unseparated(sb, cells[c], sep);
	}
}

/*
 * -t in perf's tables, laid out as perf's --stdio -t: every column
 * padded to its width (at least perf's), the header's numbers to the
 * right after "# ", a row's numbers a blank and then to the left, no
 * trailing blanks on a row.
 */
static void put_perf_separated(FILE *out, const struct pm_table *t, char **cells,
			       const struct lines *l, const size_t *width,
			       bool header, const char *sep)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;

	pm_strbuf__adds(&sb, header ? "# " : "");
	for (size_t c = 0; c < l->ncols; c++) {
		bool right = right_aligned(&t->cols[l->cols[c]]);
		struct pm_strbuf cell = PM_STRBUF_INIT;
		size_t w = width[c];

		if (c)
			pm_strbuf__adds(&sb, sep);
		if (right && !header) {
			pm_strbuf__addc(&sb, ' ');
			w = w ? w - 1 : 0;
		}
		add_unseparated(&cell, cells[c], sep);
		add_padded(&sb, pm_strbuf__str(&cell), w, right && header);
		pm_strbuf__release(&cell);
	}
	while (!header && sb.len && sb.buf[sb.len - 1] == ' ')
		sb.buf[--sb.len] = '\0';
	fputs(pm_strbuf__str(&sb), out);
	putc('\n', out);
	pm_strbuf__release(&sb);
}

static void put_line(FILE *out, const struct pm_table *t, char **cells,
		     const struct lines *l, const size_t *width,
		     const char *prefix, const char *sep)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	size_t c;

	pm_strbuf__adds(&sb, prefix);
	if (sep) {
		put_separated(&sb, cells, l->ncols, sep);
		fputs(pm_strbuf__str(&sb), out);
		putc('\n', out);
		pm_strbuf__release(&sb);
		return;
	}
	for (c = 0; c < l->ncols; c++) {
		if (c)
			pm_strbuf__adds(&sb, "  ");
		add_padded(&sb, cells[c], width[c],
			   right_aligned(&t->cols[l->cols[c]]));
	}
	while (sb.len && sb.buf[sb.len - 1] == ' ')
		sb.buf[--sb.len] = '\0';
	fputs(pm_strbuf__str(&sb), out);
	putc('\n', out);
	pm_strbuf__release(&sb);
}

static size_t tree_column(const struct pm_table *t, const size_t *cols,
			  size_t n)
{
	for (size_t c = 0; c < n; c++)
		if (t->cols[cols[c]].flags & PM_COLF_TREE)
			return c;
	return n ? n - 1 : 0;
}

static void render_table(const struct pm_table *t, FILE *out,
			 const struct pm_render_opts *o)
{
	size_t *cols = pm_calloc(t->nr_cols + 1, sizeof(*cols));
	size_t ncols = pm_table__table_columns(t, cols), r, c, i;
	size_t *width = pm_calloc(ncols + 1, sizeof(*width));
	char **header = pm_calloc(ncols + 1, sizeof(*header));
	bool *marked = pm_calloc(ncols + 1, sizeof(*marked));
	bool perf = t->flags & PM_TABLE_PERF_HEADER;
	const char *row_prefix = perf && !o->no_header ? "  " : "";
	struct lines l = { .ncols = ncols, .cols = cols, .marked = marked,
			   .tree_col = tree_column(t, cols, ncols) };
	struct pm_strbuf indent = PM_STRBUF_INIT;
	bool graphs = t->flags & (PM_TABLE_CALL_GRAPH | PM_TABLE_CALL_CHAINS |
				  PM_TABLE_CALL_FOLDED);
	char **after = NULL;	/* graphs: the text under each row */

	for (c = 0; c < ncols; c++) {
		marked[c] = column_marked(t, cols[c]);
		header[c] = text_header(&t->cols[cols[c]]);
		if (!o->no_header)
			width[c] = display_width(header[c]);
	}
	if (graphs)
		after = pm_calloc(t->nr_rows + 1, sizeof(*after));
	for (r = 0; r < t->nr_rows && ncols; r++) {
		const struct pm_table *kids = pm_table__children_of(t, r);

		add_line(&l, t, r, NULL);
		if (kids && graphs) {
			struct pm_strbuf g = PM_STRBUF_INIT;

			pm_table__call_graph_text(t, r, kids, &g);
			after[r] = pm_strbuf__detach(&g);
		} else if (kids) {
			add_tree(&l, kids, &indent);
		}
	}
	for (i = 0; i < l.nr; i++)
		for (c = 0; c < ncols; c++) {
			size_t w = display_width(l.cells[i * ncols + c]);

			if (w > width[c])
				width[c] = w;
		}

	if (perf && o->separator)	/* perf's widths; a blank before a number */
		for (c = 0; c < ncols; c++) {
			const struct pm_table_col *col = &t->cols[cols[c]];

			for (i = 0; i < l.nr && right_aligned(col); i++)
				if (display_width(l.cells[i * ncols + c]) + 1 > width[c])
					width[c] = display_width(l.cells[i * ncols + c]) + 1;
			if (col->perf_width > width[c])
				width[c] = col->perf_width;
		}
	if (!o->no_comments && (t->title || t->nr_comments)) {
		if (t->title)
			fprintf(out, "# %s\n", t->title);
		for (i = 0; i < t->nr_comments; i++)
			fprintf(out, "# %s\n", t->comments[i]);
		fputs("#\n", out);
	}
	if (!o->no_header && ncols && perf && o->separator) {
		put_perf_separated(out, t, header, &l, width, true, o->separator);
	} else if (!o->no_header && ncols) {
		put_line(out, t, header, &l, width, perf ? "# " : "", o->separator);
		if (perf && !o->separator) {
			fputs("# ", out);
			for (c = 0; c < ncols; c++) {
				fputs(c ? "  " : "", out);
				for (i = 0; i < width[c]; i++)
					putc('.', out);
			}
			fputs("\n#\n", out);
		}
	}
	for (i = 0; i < l.nr; i++) {
		if (perf && o->separator)
			put_perf_separated(out, t, &l.cells[i * ncols], &l, width, false,
					   o->separator);
		else
			put_line(out, t, &l.cells[i * ncols], &l, width,
				 o->separator ? "" : row_prefix, o->separator);
		if (after && after[i]) {	/* graphs: a line per row */
			fputs(after[i], out);
			free(after[i]);
		}
	}
	free(after);

	for (i = 0; i < l.nr * ncols; i++)
		free(l.cells[i]);
	for (c = 0; c < ncols; c++)
		free(header[c]);
	free(l.cells);
	free(header);
	free(width);
	free(cols);
	free(marked);
	pm_strbuf__release(&indent);
}

static bool shown(const struct pm_table *t)
{
	return !(t->flags & PM_TABLE_JSON_ONLY) &&
	       (t->nr_rows || !(t->flags & PM_TABLE_OMIT_EMPTY));
}

/* "# line", or a bare "#" for an empty one. */
static void hash_line(FILE *out, const char *s)
{
	fprintf(out, *s ? "# %s\n" : "#\n", s);
}

static int render(const struct pm_report *rep, FILE *out,
		  const struct pm_render_opts *o)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	bool block = false, apart;
	size_t i;

	if (!o->no_comments) {
		/* perf's header: each item a "# " line and a bare "#" after. */
		if (rep->title) {
			hash_line(out, rep->title);
			block = true;
		}
		for (i = 0; i < rep->nr_comments; i++, block = true)
			hash_line(out, rep->comments[i]);
		for (i = 0; i < rep->summary.nr; i++) {
			if (!pm_summary_item__labelled(&rep->summary.items[i], &sb))
				continue;
			hash_line(out, pm_strbuf__str(&sb));
			fputs("#\n", out);
			block = false;
		}
		if (block)
			fputs("#\n", out);
		for (i = 0; i < rep->nr_notes; i++)
			fprintf(out, "%s\n", rep->notes[i]);
	}
	/* A blank line after the notes and between tables. */
	apart = !o->no_comments && rep->nr_notes;
	for (i = 0; i < rep->nr_tables; i++) {
		const struct pm_table *t = rep->tables[i];

		if (!shown(t))
			continue;
		if (apart)
			putc('\n', out);
		apart = true;
		if (t->caption && !o->no_comments)
			fprintf(out, "%s\n", t->caption);
		render_table(t, out, o);
	}
	pm_strbuf__release(&sb);
	return ferror(out) ? -EIO : 0;
}

const struct pm_renderer pm_render_text = {
	.name = "table",
	.help = "aligned columns (also: text)",
	.render = render,
};
