// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof annotate: a function's disassembly with what was sampled at each
 * instruction, as perf annotate and DCPI's dcpilist show it. The annotate
 * analysis (lib/analysis/annotate*.c) accumulates and builds one table
 * per function; this file wires it to the session and prints.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/annotate.h"
#include "pmprof/json.h"
#include "pmprof/session.h"
#include "pmprof/table.h"

struct annotate_run {
	struct pm_annotate *an;
	struct pm_error *err;
};

static int on_sample(struct pm_session *s, const struct pm_sample_ctx *ctx,
		     void *arg)
{
	struct annotate_run *run = arg;

	return pm_annotate__add(run->an, s, ctx, run->err) ? -1 : 0;
}

static int on_record(struct pm_session *s, const struct pm_record *rec,
		     void *arg)
{
	struct annotate_run *run = arg;

	return pm_annotate__record(run->an, s, rec, run->err) ? -1 : 0;
}

static void print_text(const struct pm_annotate *an)
{
	const struct pm_annotate_summary *sum = pm_annotate__summary(an);
	size_t i;

	printf("# %" PRIu64 " samples, %zu annotated function%s\n", sum->samples,
	       pm_annotate__nr(an), pm_annotate__nr(an) == 1 ? "" : "s");
	for (i = 0; i < pm_annotate__nr_notes(an); i++)
		printf("# %s\n", pm_annotate__note(an, i));
	for (i = 0; i < pm_annotate__nr(an); i++) {
		const struct pm_annotation *x = pm_annotate__at(an, i);

		putchar('\n');
		/* perf's "# " header and dots line, as perf annotate's */
		pm_table__set_flags(x->table, pm_table__flags(x->table) | PM_TABLE_PERF_HEADER);
		pm_table__render(x->table, stdout, pm_renderer__find("table"), NULL);
	}
}

static void json_annotation(struct pm_json *j, const struct pm_annotation *x)
{
	pm_json__begin_object(j);
	pm_json__kv_string(j, "event", x->event);
	pm_json__kv_string(j, "dso", x->dso);
	pm_json__kv_string(j, "symbol", x->symbol);
	pm_json__kv_string(j, "file", x->path);
	pm_json__kv_hex(j, "start", x->start);
	pm_json__kv_hex(j, "end", x->end);
	pm_json__key(j, "sl1");
	if (x->sl1 >= 0)
		pm_json__i64(j, x->sl1);
	else
		pm_json__null(j);
	pm_json__kv_string(j, "pctr1", x->pctr1);
	pm_json__kv_u64(j, "samples", x->samples);
	pm_json__kv_u64(j, "period", x->period);
	pm_json__kv_u64(j, "windows", x->windows);
	pm_json__kv_u64(j, "discarded", x->discarded);
	pm_json__kv_string(j, "disasm_error", x->disasm_error);
	pm_json__key(j, "rows");
	pm_table__json_rows(x->table, j);
	pm_json__end_object(j);
}

static void print_json(const struct pm_annotate *an)
{
	const struct pm_annotate_summary *sum = pm_annotate__summary(an);
	struct pm_json j;
	size_t i;

	pm_json__init(&j, stdout);
	pm_json__begin_object(&j);
	pm_json__kv_u64(&j, "samples", sum->samples);
	pm_json__kv_u64(&j, "unresolved", sum->unresolved);
	pm_json__kv_u64(&j, "profileme", sum->profileme);
	pm_json__kv_u64(&j, "pal", sum->pal);
	pm_json__key(&j, "notes");
	pm_json__begin_array(&j);
	for (i = 0; i < pm_annotate__nr_notes(an); i++)
		pm_json__string(&j, pm_annotate__note(an, i));
	pm_json__end_array(&j);
	pm_json__key(&j, "functions");
	pm_json__begin_array(&j);
	for (i = 0; i < pm_annotate__nr(an); i++)
		json_annotation(&j, pm_annotate__at(an, i));
	pm_json__end_array(&j);
	pm_json__end_object(&j);
	putchar('\n');
}

/* Copy one cell between tables with the same column types. */
static void copy_cell(struct pm_table *dst, size_t drow, size_t dcol,
		      const struct pm_table *src, size_t srow, size_t scol)
{
	if (pm_table__is_null(src, srow, scol))
		return;
	switch (pm_table__column(src, scol)->type) {
	case PM_COL_STRING:
		pm_table__set_str(dst, drow, dcol, pm_table__get_str(src, srow, scol));
		break;
	case PM_COL_DOUBLE:
	case PM_COL_PERCENT:
		pm_table__set_double(dst, drow, dcol,
				     pm_table__get_double(src, srow, scol));
		break;
	default:
		pm_table__set_u64(dst, drow, dcol, pm_table__get_u64(src, srow, scol));
		break;
	}
}

/* CSV and TSV: one table, the function's event, DSO, symbol (and SL1)
 * first, then the columns of the first table (all have the same ones
 * within one recording, but for the ProfileMe ones). */
static void print_delimited(const struct pm_annotate *an, const struct pm_renderer *f)
{
	struct pm_table *t = pm_table__new();
	const struct pm_table *widest = NULL;
	size_t i, r, c, nc = 0;

	for (i = 0; i < pm_annotate__nr(an); i++) {
		const struct pm_table *x = pm_annotate__at(an, i)->table;

		if (pm_table__nr_columns(x) > nc) {
			nc = pm_table__nr_columns(x);
			widest = x;
		}
	}
	pm_table__add_col(t, "Event", "event", PM_COL_STRING);
	pm_table__add_col(t, "DSO", "dso", PM_COL_STRING);
	pm_table__add_col(t, "Symbol", "symbol", PM_COL_STRING);
	pm_table__add_col(t, "SL1", "sl1", PM_COL_I64);
	for (c = 0; c < nc; c++)
		pm_table__add_column(t, pm_table__column(widest, c));
	for (i = 0; i < pm_annotate__nr(an); i++) {
		const struct pm_annotation *x = pm_annotate__at(an, i);

		for (r = 0; r < pm_table__nr_rows(x->table); r++) {
			size_t row = pm_table__add_row(t);

			pm_table__set_str(t, row, 0, x->event);
			pm_table__set_str(t, row, 1, x->dso);
			pm_table__set_str(t, row, 2, x->symbol);
			if (x->sl1 >= 0)
				pm_table__set_i64(t, row, 3, x->sl1);
			for (c = 0; c < pm_table__nr_columns(x->table); c++) {
				const char *key = pm_table__column(x->table, c)->key;
				int dc = pm_table__find_column(widest, key);

				if (dc >= 0)
					copy_cell(t, row, (size_t)dc + 4, x->table, r, c);
			}
		}
	}
	pm_table__render(t, stdout, f, NULL);
	pm_table__delete(t);
}

static const char *const annotate_usage[] = {
	"pmprof annotate [-i FILE] [SYMBOL] [-d DSO] [--top N] [--no-source] [--objdump PATH] [--format FMT]",
	NULL,
};

int cmd_annotate(int argc, const char **argv)
{
	struct pm_cmd c = PM_CMD_INIT("annotate");
	const char *mode = NULL, *symbol = NULL;
	struct pm_annotate_opts ao = { .sz = sizeof(ao) };
	const struct pm_option options[] = {
		OPT_INPUT(&c),
		OPT_STRING('s', "symbol", &symbol, "symbol",
			   "the function to annotate (as the SYMBOL argument)"),
		OPT_STRING('d', "dsos", &ao.dso, "dso",
			   "only functions of this DSO (its name or path)"),
		OPT_U64(0, "top", &c.top, "n", "annotate the N functions with most samples"),
		OPT_BOOLEAN(0, "no-source", &ao.no_source,
			    "no source lines between the instructions"),
		OPT_STRING(0, "objdump", &ao.disasm.objdump, "path",
			   "the objdump to disassemble with"),
		OPT_STRING(0, "mode", &mode, "none|discard",
			   "windows whose ends are in different functions: discard them or charge them (metrics recordings)"),
		OPT_SYMBOL_SOURCES(&c),
		OPT_FORMAT(&c),
		OPT_END(),
	};
	struct pm_error err = { 0 };
	struct annotate_run run = { .err = &err };
	struct pm_session *s;
	int nargs, status;

	status = pm_cmd__parse(&c, argc, argv, options, annotate_usage, &nargs);
	if (status >= 0)
		return status;
	if (nargs > 1 || (nargs == 1 && symbol))
		return pm_cli_errorf(PM_EXIT_USAGE, c.name, "unexpected argument '%s'",
				     argv[nargs - 1]);
	if (nargs == 1)
		symbol = argv[0];
	if (mode && pm_metrics_mode__parse(mode, &ao.mode))
		return pm_cli_errorf(PM_EXIT_USAGE, "--mode", "takes none or discard, not '%s'",
				     mode);
	ao.symbol = symbol;
	ao.top = (size_t)c.top;
	ao.disasm.no_demangle = c.sopts.no_demangle;
	if (pm_session__open(&s, c.input, &c.sopts, &err))
		return pm_cli_error(PM_EXIT_INPUT, c.input, &err);
	run.an = pm_annotate__new(&ao);
	status = pm_session__run(s, on_sample, on_record, &run, &err);
	if (!status)
		status = pm_annotate__finish(run.an, s, &err);
	if (status) {
		status = pm_cli_error(PM_EXIT_INPUT, c.input, &err);
		goto out;
	}
	if (symbol && !pm_annotate__nr(run.an))
		pm_cli_warn(c.input, "no samples in a function named '%s'", symbol);
	if (c.format == pm_renderer__find("json"))
		print_json(run.an);
	else if (c.format == pm_renderer__find("table"))
		print_text(run.an);
	else
		print_delimited(run.an, c.format);
	status = pm_cli_finish_stdout(PM_EXIT_OK);
out:
	pm_annotate__delete(run.an);
	pm_session__delete(s);
	return status;
}
