// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof diff's row matching (diff-match.h): both sides' keys in one
 * array, sorted, then equal neighbours from opposite sides joined.
 */
#include <stdlib.h>
#include <string.h>

#include "diff-match.h"
#include "pmprof/strbuf.h"
#include "pmprof/table.h"
#include "pmprof/util.h"

struct entry {
	const char *key;
	int side;	/* 0 base, 1 new */
	long row;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	if (x->side != y->side)
		return x->side - y->side;
	return (x->row > y->row) - (x->row < y->row);
}

/* The row's key: its key columns' text, '\x1f' apart. */
static char *row_key(const struct pm_table *t, size_t r, int key_col)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	size_t nr = pm_table__nr_columns(t);

	if (key_col >= 0) {
		const char *s = pm_table__get_str(t, r, (size_t)key_col);

		return pm_strdup(s ? s : "");
	}
	for (size_t c = 0; c < nr; c++) {
		const struct pm_table_column *col = pm_table__column(t, c);
		const char *s;

		if (!(col->flags & PM_COLF_KEY))
			continue;
		if (col->type == PM_COL_STRING) {
			s = pm_table__get_str(t, r, c);
			pm_strbuf__adds(&sb, s ? s : "");
		} else {
			pm_strbuf__addf(&sb, "%.17g", pm_table__get_double(t, r, c));
		}
		pm_strbuf__addc(&sb, '\x1f');
	}
	return pm_strbuf__detach(&sb);
}

void pm_diff_match__run(struct pm_diff_match *m, const struct pm_table *base,
			const struct pm_table *new, int key_col)
{
	const struct pm_table *side[2] = { base, new };
	size_t n = pm_table__nr_rows(base) + pm_table__nr_rows(new), k = 0;
	struct entry *e = pm_calloc(n + 1, sizeof(*e));

	memset(m, 0, sizeof(*m));
	m->keys = pm_calloc(n + 1, sizeof(*m->keys));
	m->pairs = pm_calloc(n + 1, sizeof(*m->pairs));
	for (int s = 0; s < 2; s++)
		for (size_t r = 0; r < pm_table__nr_rows(side[s]); r++) {
			m->keys[m->nr_keys] = row_key(side[s], r, key_col);
			e[k++] = (struct entry){ m->keys[m->nr_keys++], s, (long)r };
		}
	qsort(e, n, sizeof(*e), entry_cmp);
	for (size_t i = 0; i < n; i++) {
		struct pm_diff_pair *p = &m->pairs[m->nr++];

		*p = (struct pm_diff_pair){ e[i].key, -1, -1 };
		/* a key twice on one side (should not be): rows of their own */
		if (e[i].side == 0 && i + 1 < n && e[i + 1].side == 1 &&
		    !strcmp(e[i].key, e[i + 1].key)) {
			p->base = e[i].row;
			p->new = e[++i].row;
		} else if (e[i].side == 0) {
			p->base = e[i].row;
		} else {
			p->new = e[i].row;
		}
	}
	free(e);
}

void pm_diff_match__release(struct pm_diff_match *m)
{
	for (size_t i = 0; i < m->nr_keys; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->pairs);
	memset(m, 0, sizeof(*m));
}
