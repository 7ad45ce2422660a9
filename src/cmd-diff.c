// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof diff BASE NEW: two recordings compared function by function, as
 * perf diff (either side may be a directory of *.data recordings, a
 * fleet, added up before the comparison): each side's analysis (hotspot, or metrics with --metrics)
 * run through the command helper that opens every recording, then the
 * comparison of the two finished reports (lib/analysis/diff.c).
 */
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/diff.h"
#include "pmprof/hotspot.h"
#include "pmprof/metrics.h"
#include "pmprof/util.h"

static const char *const diff_usage[] = {
	"pmprof diff [-c delta,ratio,wdiff:B,N] [-s KEYS] [--confidence PCT] [--metrics]\n"
	"            [--format FMT] [--top N] BASE NEW",
	NULL,
};

/* What each side runs: a new analysis per recording. */
struct side_opts {
	bool metrics;
	struct pm_hotspot_opts ho;
	struct pm_metrics_opts mo;
};

static int side_report(struct pm_cmd *c, const struct side_opts *so,
		       const char *input, struct pm_report **rep)
{
	int status;

	if (so->metrics) {
		struct pm_metrics *m = pm_metrics__new(&so->mo);

		status = pm_cmd__report_inputs(c, &input, 1, &pm_metrics_analysis, m, rep);
		pm_metrics__delete(m);
	} else {
		struct pm_hotspot *h = pm_hotspot__new(&so->ho);

		status = pm_cmd__report_inputs(c, &input, 1, &pm_hotspot_analysis, h, rep);
		pm_hotspot__delete(h);
	}
	return status;
}

int cmd_diff(int argc, const char **argv)
{
	struct pm_cmd c = PM_CMD_INIT("diff");
	const char *compute = "delta", *sort = "dso,sym", *percentage = "absolute";
	double confidence = 95;
	bool quiet = false;
	struct side_opts so = { .ho = { .sz = sizeof(so.ho) },
				.mo = { .sz = sizeof(so.mo), .need_reads = true, .ci = true } };
	struct pm_diff_opts dopts = { .sz = sizeof(dopts), .w_base = 1, .w_new = 1 };
	const struct pm_option options[] = {
		OPT_STRING('c', "compute", &compute, "delta,ratio,wdiff:B,N",
			   "what to compute of each change (perf diff's): New - Baseline, New / Baseline, "
			   "New's period * N - Baseline's * B (default delta)"),
		OPT_STRING('s', "sort", &sort, "keys",
			   "match functions by these keys: dso, sym, comm, pid, tid, cpu (default dso,sym)"),
		OPT_DOUBLE(0, "confidence", &confidence, "pct",
			   "mark share changes significant at this two-sided confidence (default 95): "
			   "a two-proportion z test of the samples, pooled, normal approximation"),
		OPT_BOOLEAN(0, "metrics", &so.metrics,
			    "compare metrics recordings' functions (CPI, IPC, miss rates; their 95% intervals)"),
		OPT_STRING(0, "percentage", &percentage, "relative|absolute",
			   "shares of what the filters keep, or of everything (default)"),
		OPT_FORMAT(&c),
		OPT_WEIGHT(&c),
		OPT_TOP(&c),
		OPT_SYMBOL_SOURCES(&c),
		OPT_BOOLEAN('q', "quiet", &quiet, "rows only: no header or comment lines"),
		OPT_END(),
	};
	struct pm_report *base = NULL, *new = NULL, *rep = NULL;
	struct pm_error err = { 0 };
	int status, nargs;
	size_t nr_symfs;

	status = pm_cmd__parse(&c, argc, argv, options, diff_usage, &nargs);
	if (status >= 0)
		return status;
	if (nargs != 2)
		return pm_cli_errorf(PM_EXIT_USAGE, "diff",
				     "takes two recordings, BASE and NEW (%d given)", nargs);
	if (pm_diff_compute__parse(compute, &dopts, &err))
		return pm_cli_error(PM_EXIT_USAGE, "--compute", &err);
	if (!(confidence > 0 && confidence < 100))
		return pm_cli_errorf(PM_EXIT_USAGE, "--confidence",
				     "takes a percentage between 0 and 100");
	dopts.confidence = confidence / 100;
	dopts.weight = c.ropts.weight;
	if (strcmp(percentage, "absolute") && strcmp(percentage, "relative"))
		return pm_cli_errorf(PM_EXIT_USAGE, "--percentage",
				     "'%s': relative or absolute", percentage);
	so.ho.relative = !strcmp(percentage, "relative");
	pm_cg_opts__init(&so.ho.cg);
	so.ho.max_stack = 127;
	if (pm_hot_keys__parse(sort, so.ho.keys, &so.ho.nr_keys, &err))
		return pm_cli_error(PM_EXIT_USAGE, "--sort", &err);
	so.ho.stacks = so.mo.stacks = pm_cmd__needs(&c) & PM_RENDER_NEEDS_STACKS;
	if (pm_cmd__needs(&c) & PM_RENDER_NEEDS_PROFILE)
		return pm_cli_errorf(PM_EXIT_USAGE, "--format",
				     "pprof has no differential profile; pick another");
	c.ropts.no_header = c.ropts.no_comments = quiet;
	/* the folded lines are "stack base new": no one weight to pick */
	c.ropts.weight = NULL;
	/* --symfs twice: BASE's, then NEW's */
	if (c.nr_symfs > 2)
		return pm_cli_errorf(PM_EXIT_USAGE, "--symfs",
				     "given %zu times: once, or BASE's and NEW's", c.nr_symfs);
	status = PM_EXIT_OK;
	nr_symfs = c.nr_symfs;
	c.nr_symfs = PM_MIN(c.nr_symfs, 1);
	for (int i = 0; i < 2 && !status; i++) {
		if (nr_symfs == 2)
			c.sopts.symfs = c.symfs[i];
		status = side_report(&c, &so, argv[i], i ? &new : &base);
	}
	if (!status && pm_diff__reports(base, new, &dopts, &rep, &err))
		status = pm_cli_error(PM_EXIT_USAGE, NULL, &err);
	if (!status) {
		pm_report__truncate(rep, (size_t)c.top);
		status = pm_cmd__render(&c, rep);
	}
	pm_report__delete(rep);
	pm_report__delete(new);
	pm_report__delete(base);
	return status;
}
