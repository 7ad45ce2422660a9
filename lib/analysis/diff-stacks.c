// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof diff's stacks (pmprof/diff.h): the two sides' "stacks" tables
 * as one of Stack, base, new, for the differential flame graph (folded's
 * "stack base new", HTML's colours).
 */
#include <string.h>

#include "diff-int.h"
#include "diff-match.h"
#include "pmprof/report.h"
#include "pmprof/table.h"

/* The stacks column weight names (samples, period, an event), or -1. */
static int weight_col(const struct pm_table *t, const char *weight)
{
	if (!weight)
		weight = "samples";
	for (size_t c = 1; c < pm_table__nr_columns(t); c++) {
		const struct pm_table_column *col = pm_table__column(t, c);

		if (!strcasecmp(col->name, weight) ||
		    (col->key && !strcasecmp(col->key, weight)))
			return (int)c;
	}
	return -1;
}

int pm_diff__stacks(const struct pm_report *base, const struct pm_report *new,
		    const struct pm_diff_opts *o, struct pm_report *out,
		    struct pm_error *err)
{
	const struct pm_table *b = pm_report__find_table(base, "stacks");
	const struct pm_table *n = pm_report__find_table(new, "stacks");
	struct pm_diff_match m;
	struct pm_table *t;
	int wb, wn;

	if (!b || !n)
		return 0;
	wb = weight_col(b, o->weight);
	wn = weight_col(n, o->weight);
	if (wb < 0 || wn < 0)
		return pm_error__fmt(err, PM_EUSAGE,
				     "--weight: no '%s' in the %s recording's stacks",
				     o->weight, wb < 0 ? "base" : "new");
	t = pm_table__new();
	pm_table__set_name(t, "stacks");
	pm_table__set_flags(t, PM_TABLE_WHOLE | PM_TABLE_JSON_ONLY);
	pm_table__add_col(t, "Stack", "stack", PM_COL_STRING);
	pm_table__add_col(t, "base", NULL, PM_COL_U64);
	pm_table__add_col(t, "new", NULL, PM_COL_U64);
	pm_summary__add_bool(pm_table__summary(t), "differential", NULL, true);
	pm_diff_match__run(&m, b, n, 0);
	for (size_t i = 0; i < m.nr; i++) {
		const struct pm_diff_pair *p = &m.pairs[i];
		size_t r = pm_table__add_row(t);

		pm_table__set_str(t, r, 0, p->key);
		pm_table__set_u64(t, r, 1, p->base < 0 ? 0 :
				  pm_table__get_u64(b, (size_t)p->base, (size_t)wb));
		pm_table__set_u64(t, r, 2, p->new < 0 ? 0 :
				  pm_table__get_u64(n, (size_t)p->new, (size_t)wn));
	}
	pm_diff_match__release(&m);
	pm_report__add_table(out, t);
	return 0;
}
