// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof metrics: per-function top-down level 1, CPI, misses per
 * kilo-instruction and per access, and shares from the windows between
 * consecutive group samples: the windows analysis (lib/analysis/metrics*.c)
 * over the recording, its table fitted to the terminal.
 */
#include <stdio.h>
#include <stdlib.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/filter.h"
#include "pmprof/metrics.h"
#include "pmprof/strbuf.h"
#include "table-opts.h"

static const char *const metrics_usage[] = {
	"pmprof metrics [-i FILE] [--mode none|discard] [--match sym|callchain] [--top N] [--ci] [--slots N]\n"
	"               [--sort METRIC] [--percent-limit PCT] [--min-windows N] [--columns LIST] [--wide]\n"
	"               [--format FMT]",
	NULL,
};

struct shape {
	struct pm_metrics *m;
	const struct pm_metrics_opts *mo;
	struct pm_table_cli tc;
};

/* After the analysis: --sort names a metric this recording has; then
 * --columns and the fit of the functions' table. */
static int shape(struct pm_cmd *c, struct pm_report *rep, void *arg)
{
	struct shape *sh = arg;
	struct pm_table *t = pm_report__find_table(rep, "functions");
	bool arm = sh->mo->layout == PM_METRICS_LAYOUT_ARM;

	if (sh->mo->sort && pm_metrics__find_metric(sh->m, sh->mo->sort) < 0) {
		struct pm_strbuf sb = PM_STRBUF_INIT;
		int status;

		for (size_t i = 0; i < pm_metrics__nr_metrics(sh->m); i++)
			pm_strbuf__addf(&sb, ", %s", pm_metrics__metric_name(sh->m, i));
		status = pm_cli_errorf(PM_EXIT_USAGE, "--sort",
				       "no metric '%s' in this recording; it has #%s",
				       sh->mo->sort, pm_strbuf__str(&sb));
		pm_strbuf__release(&sb);
		return status;
	}
	/* JSON has every column, whatever --columns says */
	if (!t || c->format == pm_renderer__find("json"))
		return 0;
	/* Symbol, DSO, #, DIS% stay (Arm's order: Symbol, #) */
	return pm_table_cli__apply(&sh->tc, t, c->format == pm_renderer__find("table"),
				   arm ? 2 : 4, 0);
}

int cmd_metrics(int argc, const char **argv)
{
	struct pm_cmd c = PM_CMD_INIT("metrics");
	struct pm_filter_opts fo = { .sz = sizeof(fo) };
	const char *mode = NULL, *match = "sym", *slots = NULL;
	struct pm_metrics_opts mo = { .sz = sizeof(mo), .need_reads = true };
	struct shape sh = { .mo = &mo };
	const struct pm_option options[] = {
		OPT_INPUTS(&c),
		OPT_STRING(0, "mode", &mode, "none|discard",
			   "windows whose ends are in different functions: discard them (default with short windows) or charge them to the closing sample's (none)"),
		OPT_STRING(0, "match", &match, "sym|callchain",
			   "discard also compares the caller (callchain)"),
		OPT_TOP(&c),
		OPT_BOOLEAN(0, "ci", &mo.ci, "95% confidence interval of each metric"),
		OPT_STRING(0, "slots", &slots, "N",
			   "top-down: slots per cycle (default: the recording's PMU_CAPS, or an AMD CPUID's width)"),
		OPT_STRING(0, "sort", &mo.sort, "metric",
			   "order the functions by this metric, greatest first (default: by samples, #)"),
		OPT_DOUBLE(0, "percent-limit", &mo.percent_limit, "pct",
			   "leave out functions with less than this % of the samples"),
		OPT_U64(0, "min-windows", &mo.min_windows, "N",
			"leave out functions with fewer kept windows (metrics from fewer than 30 are marked ?)"),
		OPT_TABLE_FIT(&sh.tc),
		OPT_SAMPLE_FILTERS(&fo),
		OPT_SYMBOL_SOURCES(&c),
		OPT_FORMAT(&c),
		OPT_WEIGHT(&c),
		OPT_END(),
	};
	int status;

	status = pm_cmd__parse(&c, argc, argv, options, metrics_usage, NULL);
	if (status >= 0)
		return status;
	if (mode && pm_metrics_mode__parse(mode, &mo.mode))
		return pm_cli_errorf(PM_EXIT_USAGE, "--mode",
				     "takes none or discard, not '%s'", mode);
	if (pm_metrics_match__parse(match, &mo.match))
		return pm_cli_errorf(PM_EXIT_USAGE, "--match",
				     "takes sym or callchain, not '%s'", match);
	if (slots) {
		char *end;

		mo.slots = strtod(slots, &end);
		if (end == slots || *end || !(mo.slots >= 1 && mo.slots <= 64))
			return pm_cli_errorf(PM_EXIT_USAGE, "--slots",
					     "takes the pipeline's slots per cycle, 1 to 64, not '%s'",
					     slots);
	}
	/* TSV is for Arm's tools: their column order. */
	mo.layout = c.format == pm_renderer__find("tsv") ? PM_METRICS_LAYOUT_ARM
							 : PM_METRICS_LAYOUT_TEXT;
	mo.stacks = pm_cmd__needs(&c) & PM_RENDER_NEEDS_STACKS;
	mo.profile = pm_cmd__needs(&c) & PM_RENDER_NEEDS_PROFILE;
	mo.top = c.top;
	sh.m = pm_metrics__new(&mo);
	c.shape = shape;
	c.shape_arg = &sh;
	status = pm_cmd__run_filtered(&c, &pm_metrics_analysis, sh.m, &fo);
	pm_metrics__delete(sh.m);
	return status;
}
