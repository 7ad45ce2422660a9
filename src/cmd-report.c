// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof report: the hotspot profile, as `perf report --stdio` shows it:
 * the hotspot analysis (lib/analysis/hotspot.c) over the recording.
 */
#include <stdio.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/hotspot.h"

static const char *const report_usage[] = {
	"pmprof report [-i FILE] [--sort KEYS] [--format FMT] [options]",
	NULL,
};

int cmd_report(int argc, const char **argv)
{
	struct pm_cmd c = PM_CMD_INIT("report");
	const char *sort = "dso,sym";
	bool quiet = false;
	struct pm_hotspot_opts ho = { .sz = sizeof(ho) };
	const struct pm_option options[] = {
		OPT_INPUT(&c),
		OPT_STRING('s', "sort", &sort, "keys",
			   "sort by keys: dso, sym, comm, pid, tid, cpu, pc (default dso,sym)"),
		OPT_FORMAT(&c),
		OPT_WEIGHT(&c),
		OPT_TOP(&c),
		OPT_DOUBLE(0, "percent-limit", &ho.percent_limit, "percent",
			   "hide rows below this overhead"),
		OPT_BOOLEAN(0, "group", &ho.group,
			    "one section per event group, a column per member"),
		OPT_BOOLEAN(0, "children", &ho.children,
			    "add callers' shares from callchains (Children, Self)"),
		OPT_BOOLEAN(0, "inline", &c.sopts.inline_frames,
			    "inlined functions as callchain entries of their own"),
		OPT_SYMBOL_SOURCES(&c),
		OPT_BOOLEAN('q', "quiet", &quiet,
			    "rows only: no header or comment lines"),
		OPT_END(),
	};
	struct pm_error err = { 0 };
	struct pm_hotspot *h;
	int status;

	status = pm_cmd__parse(&c, argc, argv, options, report_usage, NULL);
	if (status >= 0)
		return status;
	if (pm_hot_keys__parse(sort, ho.keys, &ho.nr_keys, &err))
		return pm_cli_error(PM_EXIT_USAGE, "--sort", &err);
	if (ho.percent_limit < 0 || ho.percent_limit > 100)
		return pm_cli_errorf(PM_EXIT_USAGE, "--percent-limit", "takes 0 to 100");
	c.ropts.no_header = c.ropts.no_comments = quiet;
	ho.stacks = pm_cmd__needs(&c) & PM_RENDER_NEEDS_STACKS;
	ho.profile = pm_cmd__needs(&c) & PM_RENDER_NEEDS_PROFILE;
	h = pm_hotspot__new(&ho);
	status = pm_cmd__run(&c, &pm_hotspot_analysis, h);
	pm_hotspot__delete(h);
	return status;
}
