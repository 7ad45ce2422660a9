// SPDX-License-Identifier: GPL-2.0
/*
 * The folded format (Brendan Gregg's FlameGraph input, which speedscope,
 * Pyroscope and the Firefox Profiler read too): the report's "stacks"
 * table (pmprof/stacks.h), one "frame;frame;frame N" line per stack;
 * pmprof diff's stacks as "frame;frame;frame BASE NEW" (difffolded).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "pmprof/error.h"
#include "pmprof/strbuf.h"
#include "table/internal.h"

/* Stack, Samples, Period, then one column per event. */
enum { COL_STACK, COL_SAMPLES, COL_PERIOD, COL_EVENTS };

static const struct pm_table *stacks_table(const struct pm_report *rep)
{
	const struct pm_table *t = pm_report__find_table(rep, "stacks");

	if (!t || t->nr_cols < COL_EVENTS || t->cols[COL_STACK].type != PM_COL_STRING)
		return NULL;
	return t;
}

/* The column a weight names, or -1. */
static int weight_column(const struct pm_table *t, const char *weight)
{
	if (!weight || !strcmp(weight, "samples"))
		return COL_SAMPLES;
	if (!strcmp(weight, "period"))
		return COL_PERIOD;
	for (size_t c = COL_EVENTS; c < t->nr_cols; c++)
		if (!strcmp(t->cols[c].name, weight))
			return (int)c;
	return -1;
}

static int folded_check(const struct pm_report *rep,
			const struct pm_render_opts *opts, struct pm_error *err)
{
	const struct pm_table *t = stacks_table(rep);
	struct pm_strbuf sb = PM_STRBUF_INIT;
	int ret;

	if (!t)
		return pm_error__fmt(err, PM_EUSAGE,
				     "--format folded: this command keeps no call stacks (report and metrics do)");
	if (weight_column(t, opts->weight) >= 0 ||
	    pm_summary__find(&t->summary, "differential"))
		return 0;
	pm_strbuf__adds(&sb, "samples, period");
	for (size_t c = COL_EVENTS; c < t->nr_cols; c++)
		pm_strbuf__addf(&sb, ", %s", t->cols[c].name);
	ret = pm_error__fmt(err, PM_EUSAGE,
			    "--weight: no event '%s' in this recording (it has %s)",
			    opts->weight, pm_strbuf__str(&sb));
	pm_strbuf__release(&sb);
	return ret;
}

/* pmprof diff's stacks (Stack, base, new): FlameGraph's difffolded
 * lines, "stack base new", a stack either side has. */
static int differential(const struct pm_table *t, FILE *out)
{
	for (size_t r = 0; r < t->nr_rows; r++) {
		uint64_t b = pm_table__get_u64(t, r, 1), n = pm_table__get_u64(t, r, 2);
		const char *stack = pm_table__get_str(t, r, COL_STACK);

		if ((b || n) && stack)
			fprintf(out, "%s %" PRIu64 " %" PRIu64 "\n", stack, b, n);
	}
	return ferror(out) ? -EIO : 0;
}

static int folded_render(const struct pm_report *rep, FILE *out,
			 const struct pm_render_opts *opts)
{
	const struct pm_table *t = stacks_table(rep);
	int col;

	if (t && pm_summary__find(&t->summary, "differential"))
		return differential(t, out);
	if (!t || (col = weight_column(t, opts->weight)) < 0)
		return -EINVAL;
	for (size_t r = 0; r < t->nr_rows; r++) {
		uint64_t w = pm_table__get_u64(t, r, (size_t)col);
		const char *stack = pm_table__get_str(t, r, COL_STACK);

		if (w && stack)
			fprintf(out, "%s %" PRIu64 "\n", stack, w);
	}
	return ferror(out) ? -EIO : 0;
}

const struct pm_renderer pm_render_folded = {
	.name = "folded",
	.help = "call stacks for flame graphs: frame;frame;frame N",
	.render = folded_render,
	.needs = PM_RENDER_NEEDS_STACKS,
	.check = folded_check,
};
