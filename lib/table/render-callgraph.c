// SPDX-License-Identifier: GPL-2.0
/*
 * The trees under rows in text as perf --stdio prints call graphs
 * (PM_TABLE_CALL_GRAPH) and flat call chains (PM_TABLE_CALL_CHAINS); the
 * layout is perf's, so that what reads perf's text reads this: a left
 * margin of 12 columns, each depth 11 wide, '|' where a level goes on
 * below, "--VALUE--" where a branch starts, "---" before the one chain a
 * row starts with, a remainder node (PM_COLF_TREE_REST) last among its
 * siblings with no separator line before it, the pipe of a level going
 * on past its last node when more is left (PM_COLF_TREE_MORE). Lines end
 * without blanks.
 */
#include <string.h>

#include "pmprof/util.h"
#include "table/internal.h"

struct graph {
	const struct pm_table *root;
	int name_col, value_col, weight_col, rest_col, more_col;
	struct pm_strbuf *sb;
	struct pm_strbuf line;
};

static int flagged_col(const struct pm_table *t, unsigned int flag)
{
	for (size_t c = 0; c < t->nr_cols; c++)
		if (t->cols[c].flags & flag)
			return (int)c;
	return -1;
}

static void cell_text(const struct graph *g, const struct pm_table *t,
		      size_t row, int col, struct pm_strbuf *sb)
{
	if (col < 0 || pm_table__cell(t, row, (size_t)col)->state != PM_CELL_VALUE)
		pm_strbuf__adds(sb, "-");
	else
		pm_table__format_cell(t, row, (size_t)col, true, sb);
	(void)g;
}

/* The line built so far, without trailing blanks, then a newline. */
static void end_line(struct graph *g)
{
	struct pm_strbuf *l = &g->line;

	while (l->len && l->buf[l->len - 1] == ' ')
		l->buf[--l->len] = '\0';
	pm_strbuf__adds(g->sb, pm_strbuf__str(l));
	pm_strbuf__addc(g->sb, '\n');
	pm_strbuf__reset(l);
}

static void margin(struct graph *g, int left)
{
	pm_strbuf__addf(&g->line, "%*s", 12 + left, "");
}

/* The separator perf puts before each branch: the levels' pipes. */
static void pipes_line(struct graph *g, int depth, unsigned long mask, int left)
{
	margin(g, left);
	for (int i = 0; i < depth; i++)
		pm_strbuf__adds(&g->line, mask & (1UL << i) ? "|          "
							    : "           ");
	end_line(g);
}

/* A bool cell of column col that is true. */
static bool is_set(const struct pm_table *t, size_t r, int col)
{
	const struct pm_table_cell *c;

	if (col < 0)
		return false;
	c = pm_table__cell(t, r, (size_t)col);
	return c->state == PM_CELL_VALUE && c->v.b;
}

static uint64_t weight(const struct graph *g, const struct pm_table *t, size_t r)
{
	return g->weight_col < 0 ? 0 : pm_table__get_u64(t, r, (size_t)g->weight_col);
}

/*
 * The node at (t, r) and the nodes that continue its line of frames: its
 * only child as heavy as it, and so on. Returns the last one's table and
 * row in *lt, *lr.
 */
static void chain_end(const struct graph *g, const struct pm_table *t, size_t r,
		      const struct pm_table **lt, size_t *lr)
{
	for (;;) {
		const struct pm_table *k = pm_table__children_of(t, r);

		if (!k || k->nr_rows != 1 || g->weight_col < 0 ||
		    weight(g, k, 0) != weight(g, t, r))
			break;
		t = k;
		r = 0;
	}
	*lt = t;
	*lr = r;
}

static void frame_line(struct graph *g, const struct pm_table *t, size_t r,
		       int depth, unsigned long mask, bool first, int left)
{
	margin(g, left);
	for (int i = 0; i < depth; i++) {
		pm_strbuf__addc(&g->line, mask & (1UL << i) ? '|' : ' ');
		if (first && i == depth - 1) {
			pm_strbuf__adds(&g->line, "--");
			cell_text(g, t, r, g->value_col, &g->line);
			pm_strbuf__adds(&g->line, "--");
		} else {
			pm_strbuf__adds(&g->line, "          ");
		}
	}
	cell_text(g, t, r, g->name_col, &g->line);
	end_line(g);
}

/* A node's frames, the first on its branch line. Returns the last node's
 * children. */
static const struct pm_table *frames(struct graph *g, const struct pm_table *t,
				     size_t r, int depth, unsigned long mask,
				     int left)
{
	const struct pm_table *lt;
	size_t lr;
	bool first = true;

	chain_end(g, t, r, &lt, &lr);
	for (;;) {
		frame_line(g, t, r, depth, mask, first, left);
		first = false;
		if (t == lt && r == lr)
			break;
		t = pm_table__children_of(t, r);
		r = 0;
	}
	return pm_table__children_of(lt, lr);
}

static void branches(struct graph *g, const struct pm_table *kids, int depth,
		     unsigned long mask, int left)
{
	/* deeper than the mask has bits: the pipes of the far levels go */
	if (depth >= (int)(8 * sizeof(mask)))
		return;
	for (size_t r = 0; r < kids->nr_rows; r++) {
		unsigned long m = mask;
		const struct pm_table *sub;

		/* the last keeps the pipe when more of the parent is left */
		if (r + 1 == kids->nr_rows && !is_set(kids, r, g->more_col))
			m &= ~(1UL << (depth - 1));
		if (!is_set(kids, r, g->rest_col))
			pipes_line(g, depth, mask, left);
		sub = frames(g, kids, r, depth, m, left);
		if (sub)
			branches(g, sub, depth + 1, m | (1UL << depth), left);
	}
}

static void graph_text(struct graph *g, size_t row, const struct pm_table *kids)
{
	int left = 0;

	/* one chain through all of the row: no share to show (perf's) */
	if (kids->nr_rows == 1 && g->weight_col >= 0 &&
	    weight(g, kids, 0) == weight(g, g->root, row)) {
		/* a single chain at the top: "---" and its frames */
		const struct pm_table *lt, *t = kids;
		size_t lr, r = 0;

		bool skip = g->root->flags & PM_TABLE_CALL_OWN_FRAME;

		chain_end(g, t, r, &lt, &lr);
		for (;;) {
			if (skip) {	/* the row names it already */
				skip = false;
			} else if (!left) {
				margin(g, 0);
				pm_strbuf__addc(&g->line, '|');
				end_line(g);
				margin(g, 0);
				pm_strbuf__adds(&g->line, "---");
				left = 3;
			} else {
				margin(g, left);
			}
			if (pm_strbuf__str(&g->line)[0]) {
				cell_text(g, t, r, g->name_col, &g->line);
				end_line(g);
			}
			if (t == lt && r == lr)
				break;
			t = pm_table__children_of(t, r);
			r = 0;
		}
		kids = pm_table__children_of(lt, lr);
	}
	if (kids)
		branches(g, kids, 1, 1, left);
	pm_strbuf__addc(g->sb, '\n');
}

/* Each node a chain: its value, then its frames (folded: on its line). */
static void chains_text(struct graph *g, const struct pm_table *kids,
			bool folded)
{
	for (size_t r = 0; r < kids->nr_rows; r++) {
		const char *names;

		if (folded) {
			cell_text(g, kids, r, g->value_col, &g->line);
			pm_strbuf__addc(&g->line, ' ');
			cell_text(g, kids, r, g->name_col, &g->line);
			end_line(g);
			continue;
		}
		pm_strbuf__adds(&g->line, "           ");
		cell_text(g, kids, r, g->value_col, &g->line);
		end_line(g);
		names = g->name_col < 0 ? NULL : pm_table__get_str(kids, r, (size_t)g->name_col);
		while (names && *names) {
			const char *semi = strchr(names, ';');
			size_t n = semi ? (size_t)(semi - names) : strlen(names);

			pm_strbuf__addf(&g->line, "                %.*s", (int)n, names);
			end_line(g);
			names += n + (semi ? 1 : 0);
		}
		pm_strbuf__addc(g->sb, '\n');
	}
}

void pm_table__call_graph_text(const struct pm_table *t, size_t row,
			       const struct pm_table *kids, struct pm_strbuf *sb)
{
	struct graph g = {
		.root = t, .sb = sb, .line = PM_STRBUF_INIT,
		.name_col = flagged_col(t, PM_COLF_TREE),
		.value_col = flagged_col(t, PM_COLF_TREE_VALUE),
		.weight_col = flagged_col(t, PM_COLF_TREE_WEIGHT),
		.rest_col = flagged_col(t, PM_COLF_TREE_REST),
		.more_col = flagged_col(t, PM_COLF_TREE_MORE),
	};

	if (!kids || !kids->nr_rows)
		return;
	if (t->flags & PM_TABLE_CALL_GRAPH)
		graph_text(&g, row, kids);
	else if (t->flags & (PM_TABLE_CALL_CHAINS | PM_TABLE_CALL_FOLDED))
		chains_text(&g, kids, t->flags & PM_TABLE_CALL_FOLDED);
	pm_strbuf__release(&g.line);
}
