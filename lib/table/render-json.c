// SPDX-License-Identifier: GPL-2.0
/*
 * JSON: the report as one object (its summary, then its tables), a
 * table's rows as objects keyed by the columns shown in JSON, numbers as
 * numbers, null as null, members grouped into the objects their columns
 * name, trees as "children" arrays.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/json.h"
#include "pmprof/util.h"
#include "table/internal.h"

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void put_cell(const struct pm_table *t, size_t row, size_t c,
		     struct pm_json *j, struct pm_strbuf *sb)
{
	const struct pm_table_cell *cell = pm_table__cell(t, row, c);

	if (cell->state != PM_CELL_VALUE) {
		pm_json__null(j);
		return;
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
	case PM_COL_BOOL:
		pm_json__bool(j, cell->v.b);
		break;
	case PM_COL_RANGE:
		pm_json__begin_array(j);
		pm_json__double(j, cell->v.r[0]);
		pm_json__double(j, cell->v.r[1]);
		pm_json__end_array(j);
		break;
	case PM_COL_HEX:
		/* Same digits as the other formats: "0x" + 16 by default. */
		pm_strbuf__reset(sb);
		pm_table__format_cell(t, row, c, false, sb);
		pm_json__string(j, pm_strbuf__str(sb));
		break;
	}
}

void pm_table__json_row_fields(const struct pm_table *t, size_t row,
			       struct pm_json *j)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	const char *group = NULL, *sub = NULL;
	const struct pm_table *kids;
	size_t c;

	for (c = 0; c < t->nr_cols; c++) {
		const struct pm_table_col *col = &t->cols[c];

		if (!pm_table_col__in_json(col))
			continue;
		/* Close and open the objects the column sits in. */
		if (sub && (!same(group, col->group) || !same(sub, col->subgroup))) {
			pm_json__end_object(j);
			sub = NULL;
		}
		if (group && !same(group, col->group)) {
			pm_json__end_object(j);
			group = NULL;
		}
		if (col->group && !group) {
			group = col->group;
			pm_json__key(j, group);
			pm_json__begin_object(j);
		}
		if (col->subgroup && !sub) {
			sub = col->subgroup;
			pm_json__key(j, sub);
			pm_json__begin_object(j);
		}
		if ((col->flags & PM_COLF_OPTIONAL) &&
		    pm_table__cell(t, row, c)->state == PM_CELL_ABSENT)
			continue;
		pm_json__key(j, col->key);
		put_cell(t, row, c, j, &sb);
	}
	if (sub)
		pm_json__end_object(j);
	if (group)
		pm_json__end_object(j);
	kids = pm_table__children_of(t, row);
	if (kids) {
		pm_json__key(j, t->tree_key ? t->tree_key : "children");
		pm_table__json_rows(kids, j);
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

static bool shown(const struct pm_table *t)
{
	return t->nr_rows || !(t->flags & PM_TABLE_OMIT_EMPTY);
}

static void table_members(const struct pm_table *t, struct pm_json *j)
{
	pm_summary__json(&t->summary, j);
	pm_json__key(j, pm_table__name(t));
	pm_table__json_rows(t, j);
}

static int render(const struct pm_report *rep, FILE *out,
		  const struct pm_render_opts *o)
{
	struct pm_json j;
	size_t i;

	(void)o;
	pm_json__init(&j, out);
	pm_json__begin_object(&j);
	pm_summary__json(&rep->summary, &j);
	if (rep->tables_key) {
		pm_json__key(&j, rep->tables_key);
		pm_json__begin_array(&j);
	}
	for (i = 0; i < rep->nr_tables; i++) {
		if (!shown(rep->tables[i]))
			continue;
		if (rep->tables_key)
			pm_json__begin_object(&j);
		table_members(rep->tables[i], &j);
		if (rep->tables_key)
			pm_json__end_object(&j);
	}
	if (rep->tables_key)
		pm_json__end_array(&j);
	pm_json__end_object(&j);
	putc('\n', out);
	return ferror(out) ? -EIO : 0;
}

const struct pm_renderer pm_render_json = {
	.name = "json",
	.help = "one JSON document",
	.render = render,
};
