// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof report: the hotspot profile, as `perf report --stdio` shows it.
 * Wires the reader, the session and the hotspot accumulator together and
 * renders its tables.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/hotspot.h"
#include "pmprof/json.h"
#include "pmprof/records.h"
#include "pmprof/session.h"
#include "pmprof/table.h"

struct report_opts {
	const char *input;
	const char *sort;
	enum pm_output_format format;
	uint64_t top;
	double percent_limit;
	bool group;
	bool children;
	bool quiet;
};

struct report {
	struct pm_hotspot *hot;		/* made at the first sample */
	struct pm_hotspot_opts ho;
	const char *input;
	uint64_t lost;
};

/* Call chains come from PERF_SAMPLE_CALLCHAIN or a dwarf stack. */
static bool has_callchains(struct pm_reader *r)
{
	for (size_t i = 0; i < pm_reader__nr_events(r); i++) {
		uint64_t st = pm_reader__event(r, i)->attr.sample_type;

		if ((st & PM_SAMPLE_CALLCHAIN) ||
		    ((st & PM_SAMPLE_REGS_USER) && (st & PM_SAMPLE_STACK_USER)))
			return true;
	}
	return false;
}

/* Once the events are known (a pipe names them as it goes). */
static void start_hotspot(struct report *rep, struct pm_reader *r)
{
	if (rep->ho.children && !has_callchains(r)) {
		fprintf(stderr, "pmprof: %s: no call chains in this recording (record with -g or --call-graph): --children ignored\n",
			strcmp(rep->input, "-") ? rep->input : "(standard input)");
		rep->ho.children = false;
	}
	rep->hot = pm_hotspot__new(&rep->ho);
}

static int on_sample(struct pm_session *s, const struct pm_sample_ctx *ctx,
		     void *arg)
{
	struct report *rep = arg;

	if (!rep->hot)
		start_hotspot(rep, pm_session__reader(s));
	pm_hotspot__add(rep->hot, s, ctx);
	return 0;
}

static int on_record(struct pm_session *s, const struct pm_record *rec,
		     void *arg)
{
	struct report *rep = arg;

	if (rec->type == PM_RECORD_LOST) {
		struct pm_rec_lost l;

		if (!pm_rec__lost(pm_session__reader(s), rec, &l, NULL))
			rep->lost += l.lost;
	} else if (rec->type == PM_RECORD_LOST_SAMPLES) {
		struct pm_rec_lost_samples l;

		if (!pm_rec__lost_samples(pm_session__reader(s), rec, &l, NULL))
			rep->lost += l.lost;
	}
	return 0;
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
	case PM_COL_I64:
		pm_table__set_i64(dst, drow, dcol, pm_table__get_i64(src, srow, scol));
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

/* CSV and TSV: one table, an Event column first when there are several. */
static struct pm_table *merge_tables(const struct pm_hotspot_report *reps,
				     size_t n)
{
	struct pm_table *t = pm_table__new();
	const struct pm_table *first = reps[0].table;
	size_t ncol = pm_table__nr_columns(first);

	pm_table__add_col(t, "Event", "event", PM_COL_STRING);
	for (size_t c = 0; c < ncol; c++)
		pm_table__add_column(t, pm_table__column(first, c));
	for (size_t i = 0; i < n; i++) {
		const struct pm_table *src = reps[i].table;

		for (size_t r = 0; r < pm_table__nr_rows(src); r++) {
			size_t row = pm_table__add_row(t);

			pm_table__set_str(t, row, 0, reps[i].name);
			for (size_t c = 0; c < ncol && c < pm_table__nr_columns(src); c++)
				copy_cell(t, row, c + 1, src, r, c);
		}
	}
	return t;
}

static int print_json(const struct pm_hotspot_report *reps, size_t n,
		      uint64_t lost, const char *ksyms)
{
	struct pm_json j;

	pm_json__init(&j, stdout);
	pm_json__begin_object(&j);
	pm_json__kv_u64(&j, "lost_samples", lost);
	if (ksyms)
		pm_json__kv_string(&j, "kernel_symbols", ksyms);
	pm_json__key(&j, "events");
	pm_json__begin_array(&j);
	for (size_t i = 0; i < n; i++) {
		pm_json__begin_object(&j);
		pm_json__kv_string(&j, "event", reps[i].name);
		pm_json__kv_u64(&j, "samples", reps[i].samples);
		pm_json__kv_u64(&j, "event_count", reps[i].period);
		pm_json__key(&j, "rows");
		pm_table__json_rows(reps[i].table, &j);
		pm_json__end_object(&j);
	}
	pm_json__end_array(&j);
	pm_json__end_object(&j);
	fputc('\n', stdout);
	return 0;
}

static void print_text(const struct pm_hotspot_report *reps, size_t n,
		       uint64_t lost, const char *ksyms, bool quiet)
{
	struct pm_table_render_opts ro = {
		.hash_header = true,
		.no_header = quiet,
		.no_comments = quiet,
	};

	if (!quiet)
		printf("#\n# Total Lost Samples: %" PRIu64 "\n#\n", lost);
	if (!quiet && ksyms)
		printf("# Kernel symbols: %s\n#\n", ksyms);
	for (size_t i = 0; i < n; i++) {
		pm_table__render(reps[i].table, stdout, PM_TABLE_TEXT, &ro);
		if (i + 1 < n)
			putchar('\n');
	}
}

static const char *const report_usage[] = {
	"pmprof report [-i FILE] [--sort KEYS] [--format FMT] [options]",
	NULL,
};

int cmd_report(int argc, const char **argv)
{
	struct report_opts o = {
		.input = "perf.data",
		.sort = "dso,sym",
	};
	struct pm_session_opts so = { .sz = sizeof(so) };
	char ksyms[512];
	bool have_ksyms;
	const struct pm_option options[] = {
		OPT_STRING('i', "input", &o.input, "file",
			   "input file name (default perf.data; - for stdin)"),
		OPT_STRING('s', "sort", &o.sort, "keys",
			   "sort by keys: dso, sym, comm, pid, tid, cpu, pc (default dso,sym)"),
		OPT_FORMAT(&o.format),
		OPT_U64(0, "top", &o.top, "n", "show the first N rows of each event"),
		OPT_DOUBLE(0, "percent-limit", &o.percent_limit, "percent",
			   "hide rows below this overhead"),
		OPT_BOOLEAN(0, "group", &o.group,
			    "one section per event group, a column per member"),
		OPT_BOOLEAN(0, "children", &o.children,
			    "add callers' shares from callchains (Children, Self)"),
		OPT_BOOLEAN(0, "inline", &so.inline_frames,
			    "inlined functions as callchain entries of their own"),
		OPT_SYMBOL_SOURCES(&so),
		OPT_BOOLEAN('q', "quiet", &o.quiet,
			    "rows only: no header or comment lines"),
		OPT_END(),
	};
	const struct pm_hotspot_report *reps;
	struct report rep = { .ho.sz = sizeof(rep.ho) };
	struct pm_hotspot_opts *ho = &rep.ho;
	struct pm_session *s = NULL;
	struct pm_error err = { 0 };
	int ret, status = PM_EXIT_OK;
	size_t n;

	ret = pm_parse_options(argc, argv, options, report_usage, 0);
	if (pm_cli_parse_status(ret) >= 0)
		return pm_cli_parse_status(ret);
	if (ret > 0)
		return pm_cli_usage_error("report: unexpected argument '%s'", argv[0]);
	if (pm_hot_keys__parse(o.sort, ho->keys, &ho->nr_keys, &err))
		return pm_cli_usage_error("report: --sort: %s", err.msg);
	if (o.percent_limit < 0 || o.percent_limit > 100)
		return pm_cli_usage_error("report: --percent-limit takes 0 to 100");
	ho->children = o.children;
	ho->group = o.group;
	ho->percent_limit = o.percent_limit;
	ho->top = (size_t)o.top;
	ho->bare_symbols = o.format == PM_FORMAT_JSON;
	ho->all_columns = o.format == PM_FORMAT_JSON;
	rep.input = o.input;

	if (pm_session__open(&s, o.input, &so, &err))
		return pm_cli_input_error(o.input, &err);
	ret = pm_session__run(s, on_sample, on_record, &rep, &err);
	if (ret < 0) {
		status = pm_cli_input_error(o.input, &err);
		goto out;
	}
	if (!rep.hot)
		start_hotspot(&rep, pm_session__reader(s));
	n = pm_hotspot__finish(rep.hot, pm_session__reader(s), &reps);
	have_ksyms = pm_session__kernel_symbols(s, ksyms, sizeof(ksyms));
	switch (o.format) {
	case PM_FORMAT_JSON:
		print_json(reps, n, rep.lost, have_ksyms ? ksyms : NULL);
		break;
	case PM_FORMAT_CSV:
	case PM_FORMAT_TSV:
		if (n == 1) {
			pm_table__render(reps[0].table, stdout,
					 (enum pm_table_format)o.format, NULL);
		} else if (n > 1) {
			struct pm_table *t = merge_tables(reps, n);

			pm_table__render(t, stdout, (enum pm_table_format)o.format,
					 NULL);
			pm_table__delete(t);
		}
		break;
	default:
		print_text(reps, n, rep.lost, have_ksyms ? ksyms : NULL, o.quiet);
		break;
	}
out:
	pm_hotspot__delete(rep.hot);
	pm_session__delete(s);
	return status;
}
