// SPDX-License-Identifier: GPL-2.0
/*
 * The annotate analysis (pmprof/analysis.h): its functions' tables as a
 * report, one table per annotated function, each with what the function
 * is in its summary, so that every format comes from lib/table:
 *
 *   text  the header ("# N samples, M annotated functions" and the notes
 *         as "# " lines), then each function's table apart by a blank
 *         line, perf annotate's "# " header and dots line above it;
 *   json  {samples, unresolved, profileme, pal, notes, functions: [{event,
 *         dso, symbol, file, start, end, sl1, pctr1, samples, period,
 *         windows, discarded, disasm_error, rows}]};
 *   csv, tsv  the tables stacked, Event, DSO, Symbol and SL1 first.
 */
#include <inttypes.h>

#include "pmprof/analysis.h"
#include "pmprof/annotate.h"
#include "pmprof/report.h"
#include "pmprof/table.h"
#include "pmprof/util.h"
#include "annotate-int.h"

/* The columns CSV and TSV put before each function's rows: its summary's
 * items of these keys. */
static const struct pm_table_column merge_cols[] = {
	{ .name = "Event", .key = "event", .type = PM_COL_STRING },
	{ .name = "DSO", .key = "dso", .type = PM_COL_STRING },
	{ .name = "Symbol", .key = "symbol", .type = PM_COL_STRING },
	{ .name = "SL1", .key = "sl1", .type = PM_COL_I64 },
};

static void add_hex(struct pm_summary *s, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	pm_summary__add_str(s, key, NULL, buf);
}

/* What the function is, as the table's summary (JSON's members, the
 * merge columns' cells). */
static void function_summary(struct pm_summary *s, const struct pm_annotation *x)
{
	pm_summary__add_str(s, "event", NULL, x->event);
	pm_summary__add_str(s, "dso", NULL, x->dso);
	pm_summary__add_str(s, "symbol", NULL, x->symbol);
	pm_summary__add_str(s, "file", NULL, x->path);
	add_hex(s, "start", x->start);
	add_hex(s, "end", x->end);
	if (x->sl1 >= 0)
		pm_summary__add_i64(s, "sl1", NULL, x->sl1);
	else
		pm_summary__add_str(s, "sl1", NULL, NULL);
	pm_summary__add_str(s, "pctr1", NULL, x->pctr1);
	pm_summary__add_u64(s, "samples", NULL, x->samples);
	pm_summary__add_u64(s, "period", NULL, x->period);
	pm_summary__add_u64(s, "windows", NULL, x->windows);
	pm_summary__add_u64(s, "discarded", NULL, x->discarded);
	pm_summary__add_str(s, "disasm_error", NULL, x->disasm_error);
}

int pm_annotate__report(struct pm_annotate *a, struct pm_report **out)
{
	const struct pm_annotate_summary *sum = &a->sum;
	struct pm_report *rep = pm_report__new();
	struct pm_summary *rs = pm_report__summary(rep);
	size_t i;

	/* The header's lines are the report's notes: text prints them as
	 * they are, before the tables and a blank line apart from them. */
	pm_report__add_note(rep, "# %" PRIu64 " samples, %zu annotated function%s",
			    sum->samples, a->nr_out, a->nr_out == 1 ? "" : "s");
	for (i = 0; i < a->nr_notes; i++)
		pm_report__add_note(rep, "# %s", a->notes[i]);
	pm_summary__add_u64(rs, "samples", NULL, sum->samples);
	pm_summary__add_u64(rs, "unresolved", NULL, sum->unresolved);
	pm_summary__add_u64(rs, "profileme", NULL, sum->profileme);
	pm_summary__add_u64(rs, "pal", NULL, sum->pal);
	pm_summary__add_strs(rs, "notes", NULL, (const char *const *)a->notes,
			     a->nr_notes);
	pm_report__set_tables_key(rep, "functions");
	for (i = 0; i < PM_ARRAY_SIZE(merge_cols); i++)
		pm_report__add_merge_column(rep, &merge_cols[i], true);
	for (i = 0; i < a->nr_out; i++) {
		struct pm_annotation *x = &a->out[i];
		struct pm_table *t = x->table;

		/* the report has the table from now on */
		x->table = NULL;
		pm_table__set_name(t, "rows");
		pm_table__set_flags(t, pm_table__flags(t) | PM_TABLE_PERF_HEADER);
		function_summary(pm_table__summary(t), x);
		pm_report__add_table(rep, t);
	}
	if (a->opts.symbol && !a->nr_out)
		pm_report__add_warning(rep, "no samples in a function named '%s'",
				       a->opts.symbol);
	*out = rep;
	return 0;
}

static int sample(void *x, struct pm_session *s,
		  const struct pm_sample_ctx *ctx, struct pm_error *err)
{
	return pm_annotate__add(x, s, ctx, err);
}

static int record(void *x, struct pm_session *s, const struct pm_record *rec,
		  struct pm_error *err)
{
	return pm_annotate__record(x, s, rec, err);
}

static int finish(void *x, struct pm_session *s, struct pm_report **out,
		  struct pm_error *err)
{
	int ret = pm_annotate__finish(x, s, err);

	return ret ? ret : pm_annotate__report(x, out);
}

const struct pm_analysis pm_annotate_analysis = {
	.name = "annotate",
	.sample = sample,
	.record = record,
	.finish = finish,
};
