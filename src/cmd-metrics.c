// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof metrics: per-function CPI, misses per kilo-instruction, miss
 * ratios and shares from the windows between consecutive group samples.
 * Wires the session (which function a sample is in) to the windows
 * accumulator (lib/analysis/metrics*.c) and a renderer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"
#include "table-opts.h"
#include "pmprof/json.h"
#include "pmprof/metrics.h"
#include "pmprof/session.h"
#include "pmprof/strbuf.h"
#include "pmprof/table.h"

struct metrics_run {
	struct pm_metrics *m;
	struct pm_reader *r;
	bool events_added;
	bool callchain;
	struct pm_error *err;
};

/* Events go in once they are all known: at once for a file, after the
 * pipe's HEADER_ATTR records for a pipe (they precede every sample). A
 * recording without counter reads has no metrics: say how to get them
 * rather than print an empty table. */
static int add_events(struct metrics_run *run)
{
	int ret;

	if (run->events_added)
		return 0;
	run->events_added = true;
	ret = pm_metrics__add_reader_events(run->m, run->r, run->err);
	if (ret)
		return ret;
	if (!pm_metrics__nr_readers(run->m))
		return pm_error__fmt(run->err, PM_EFORMAT,
				     "no event reads counter values with its samples (PERF_SAMPLE_READ), so there are no windows to measure; record with `pmprof record --metrics -- PROG` or a leader-sampled group, e.g. `perf record -e '{cycles,instructions}:S' -- PROG`");
	return 0;
}

static int on_sample(struct pm_session *s, const struct pm_sample_ctx *ctx,
		     void *arg)
{
	struct metrics_run *run = arg;
	struct pm_metrics_loc loc = {
		.dso = ctx->ip.dso,
		.sym = ctx->ip.sym,
		.dso_name = pm_addr_loc__dso_name(&ctx->ip),
		.sym_name = ctx->ip.sym ? ctx->ip.sym->name : NULL,
	};

	if (add_events(run))
		return -1;
	if (run->callchain) {
		const struct pm_addr_loc *cc;
		size_t n = pm_session__callchain(s, &cc);

		/* The caller: its symbol, else its DSO, else unknown. */
		if (n > 1)
			loc.caller = cc[1].sym ? (const void *)cc[1].sym
					       : (const void *)cc[1].dso;
	}
	if (pm_metrics__sample(run->m, ctx->sample, &loc, run->err)) {
		if (run->err) {
			run->err->has_offset = true;
			run->err->offset = ctx->record_offset;
		}
		return -1;
	}
	return 0;
}

static int on_record(struct pm_session *s, const struct pm_record *rec,
		     void *arg)
{
	struct metrics_run *run = arg;

	(void)s;
	if (rec->type != PM_RECORD_THROTTLE && rec->type != PM_RECORD_UNTHROTTLE &&
	    rec->type != PM_RECORD_LOST && rec->type != PM_RECORD_LOST_SAMPLES &&
	    rec->type != PM_RECORD_ID_INDEX)
		return 0;
	if (add_events(run))
		return -1;
	return pm_metrics__record(run->m, run->r, rec, run->err) ? -1 : 0;
}

static const char *const metrics_usage[] = {
	"pmprof metrics [-i FILE] [-s none|discard] [--match sym|callchain] [--top N] [--ci] [--slots N]\n"
	"               [--sort METRIC] [--percent-limit PCT] [--min-windows N] [--columns LIST] [--wide]\n"
	"               [--format table|csv|tsv|json]",
	NULL,
};

static int sort_error(const struct pm_metrics *m, const char *name)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	int ret;

	for (size_t i = 0; i < pm_metrics__nr_metrics(m); i++)
		pm_strbuf__addf(&sb, ", %s", pm_metrics__metric_name(m, i));
	ret = pm_cli_usage_error("metrics: --sort: no metric '%s' in this recording; it has #%s",
				 name, pm_strbuf__str(&sb));
	pm_strbuf__release(&sb);
	return ret;
}

int cmd_metrics(int argc, const char **argv)
{
	const char *input = "perf.data", *mode = NULL, *match = "sym";
	enum pm_output_format format = PM_FORMAT_TABLE;
	uint64_t top = 0;
	bool ci = false;
	const char *slots = NULL;
	struct pm_table_cli tc = { 0 };
	struct pm_metrics_opts mopts = { 0 };
	struct pm_session_opts sopts = { .sz = sizeof(sopts) };
	const struct pm_option options[] = {
		OPT_STRING('i', "input", &input, "file",
			   "input file name (- for standard input)"),
		OPT_STRING('s', "mode", &mode, "none|discard",
			   "windows whose ends are in different functions: discard them (default with short windows) or charge them to the closing sample's (none)"),
		OPT_STRING(0, "match", &match, "sym|callchain",
			   "discard also compares the caller (callchain)"),
		OPT_U64(0, "top", &top, "N", "show the N functions with most samples"),
		OPT_BOOLEAN(0, "ci", &ci, "95% confidence interval of each metric"),
		OPT_STRING(0, "slots", &slots, "N",
			   "top-down: slots per cycle (default: the recording's PMU_CAPS, or an AMD CPUID's width)"),
		OPT_STRING(0, "sort", &mopts.sort, "metric",
			   "order the functions by this metric, greatest first (default: by samples, #)"),
		OPT_DOUBLE(0, "percent-limit", &mopts.percent_limit, "pct",
			   "leave out functions with less than this % of the samples"),
		OPT_U64(0, "min-windows", &mopts.min_windows, "N",
			   "leave out functions with fewer kept windows (metrics from fewer than 30 are marked ?)"),
		OPT_TABLE_FIT(&tc),
		OPT_SYMBOL_SOURCES(&sopts),
		OPT_FORMAT(&format),
		OPT_END(),
	};
	struct pm_error err = { 0 };
	struct metrics_run run = { .err = &err };
	struct pm_session *s;
	int ret, status = PM_EXIT_OK;

	ret = pm_parse_options(argc, argv, options, metrics_usage, 0);
	if (pm_cli_parse_status(ret) >= 0)
		return pm_cli_parse_status(ret);
	if (ret > 0)
		return pm_cli_usage_error("metrics: unexpected argument '%s'", argv[0]);
	if (mode && pm_metrics_mode__parse(mode, &mopts.mode))
		return pm_cli_usage_error("metrics: -s takes none or discard, not '%s'", mode);
	if (pm_metrics_match__parse(match, &mopts.match))
		return pm_cli_usage_error("metrics: --match takes sym or callchain, not '%s'", match);
	mopts.ci = ci;
	if (slots) {
		char *end;

		mopts.slots = strtod(slots, &end);
		if (end == slots || *end || !(mopts.slots >= 1 && mopts.slots <= 64))
			return pm_cli_usage_error("metrics: --slots takes the pipeline's slots per cycle, 1 to 64, not '%s'",
						  slots);
	}
	if (pm_session__open(&s, input, &sopts, &err))
		return pm_cli_input_error(input, &err);
	run.r = pm_session__reader(s);
	run.m = pm_metrics__new(&mopts);
	run.callchain = mopts.match == PM_METRICS_MATCH_CALLCHAIN;
	ret = pm_session__run(s, on_sample, on_record, &run, &err);
	if (ret == 0)
		ret = add_events(&run);	/* a recording without samples */
	if (ret) {
		status = pm_cli_input_error(input, &err);
		goto out;
	}
	if (mopts.sort && pm_metrics__find_metric(run.m, mopts.sort) < 0) {
		status = sort_error(run.m, mopts.sort);
		goto out;
	}
	if (format == PM_FORMAT_JSON) {
		struct pm_json j;

		pm_json__init(&j, stdout);
		pm_metrics__json(run.m, &j, (size_t)top);
		putchar('\n');
	} else {
		bool arm = format == PM_FORMAT_TSV;
		struct pm_table *t = pm_metrics__table(run.m, arm ? PM_METRICS_LAYOUT_ARM
								  : PM_METRICS_LAYOUT_TEXT,
						       (size_t)top);

		/* Symbol, DSO, #, DIS% stay (Arm's order: Symbol, #) */
		status = pm_table_cli__apply(&tc, t, format == PM_FORMAT_TABLE, arm ? 2 : 4, 0);
		if (!status)
			pm_table__render(t, stdout, (enum pm_table_format)format, NULL);
		pm_table__delete(t);
	}
out:
	pm_metrics__delete(run.m);
	pm_session__delete(s);
	return status;
}
