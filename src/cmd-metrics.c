// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof metrics: per-function CPI, misses per kilo-instruction, miss
 * ratios and shares from the windows between consecutive group samples:
 * the windows analysis (lib/analysis/metrics*.c) over the recording.
 */
#include <stdio.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/metrics.h"

static const char *const metrics_usage[] = {
	"pmprof metrics [-i FILE] [--mode none|discard] [--match sym|callchain] [--top N] [--ci] [--format FMT]",
	NULL,
};

int cmd_metrics(int argc, const char **argv)
{
	struct pm_cmd c = PM_CMD_INIT("metrics");
	const char *mode = NULL, *match = "sym";
	struct pm_metrics_opts mo = { .sz = sizeof(mo), .need_reads = true };
	const struct pm_option options[] = {
		OPT_INPUT(&c),
		OPT_STRING(0, "mode", &mode, "none|discard",
			   "windows whose ends are in different functions: discard them (default with short windows) or charge them to the closing sample's (none)"),
		OPT_STRING(0, "match", &match, "sym|callchain",
			   "discard also compares the caller (callchain)"),
		OPT_TOP(&c),
		OPT_BOOLEAN(0, "ci", &mo.ci, "95% confidence interval of each metric"),
		OPT_SYMBOL_SOURCES(&c),
		OPT_FORMAT(&c),
		OPT_WEIGHT(&c),
		OPT_END(),
	};
	struct pm_metrics *m;
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
	/* TSV is for Arm's tools: their column order. */
	mo.layout = c.format == pm_renderer__find("tsv") ? PM_METRICS_LAYOUT_ARM
							 : PM_METRICS_LAYOUT_TEXT;
	mo.stacks = pm_cmd__needs(&c) & PM_RENDER_NEEDS_STACKS;
	mo.profile = pm_cmd__needs(&c) & PM_RENDER_NEEDS_PROFILE;
	m = pm_metrics__new(&mo);
	status = pm_cmd__run(&c, &pm_metrics_analysis, m);
	pm_metrics__delete(m);
	return status;
}
