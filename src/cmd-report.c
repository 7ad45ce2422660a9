// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof report: the hotspot profile, as `perf report --stdio` shows it:
 * the hotspot analysis (lib/analysis/hotspot.c) over the recording, with
 * perf's call-graph view (-g), filters and options.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/filter.h"
#include "pmprof/hotspot.h"
#include "pmprof/thread_counts.h"
#include "pmprof/unwind.h"

static const char *const report_usage[] = {
	"pmprof report [-i FILE] [--sort KEYS] [--format FMT] [-g [MODE,ORDER,LIMIT]] [options]",
	NULL,
};

/* --unwind-check's one line (two with a difference), on stderr. */
static void print_unwind_check(const struct pm_session *s)
{
	const struct pm_unwind_stats *st = pm_session__unwind_stats(s);
	const char *diff = pm_session__unwind_mismatch(s);

	if (!st) {
		fprintf(stderr, "pmprof: unwind check: no dwarf samples\n");
		return;
	}
	fprintf(stderr, "pmprof: unwind check: %" PRIu64 " samples, %" PRIu64
		" unwound both ways, %" PRIu64 " differ, %" PRIu64 " through libdwfl only\n",
		st->samples, st->checked, st->mismatched,
		st->samples - st->no_input - st->checked);
	if (diff)
		fprintf(stderr, "pmprof: unwind check: first difference: %s\n", diff);
}

/* The hotspot analysis, with the unwinder's comparison said at its end. */
static int checked_finish(void *x, struct pm_session *s, struct pm_report **out,
			  struct pm_error *err)
{
	print_unwind_check(s);
	return pm_hotspot_analysis.finish(x, s, out, err);
}

/* -g, --call-graph [SPEC]: the view on, SPEC's words applied. */
static int graph_cb(const struct pm_option *opt, const char *arg)
{
	struct pm_hotspot_opts *ho = opt->value;
	struct pm_error err = { 0 };

	ho->callgraph = true;
	if (arg && pm_cg_opts__parse(&ho->cg, arg, &err)) {
		pm_cli_error(PM_EXIT_USAGE, "--call-graph", &err);
		return -1;
	}
	return 0;
}

/*
 * --percent-limit PCT: rows under PCT go, and, as perf's, the call
 * graph's threshold is PCT too unless a -g after it gives its own (the
 * last one given wins). perf reads it as a float.
 */
static int percent_limit_cb(const struct pm_option *opt, const char *arg)
{
	struct pm_hotspot_opts *ho = opt->value;
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || *end || end == arg || !isfinite(v))
		return pm_opt_error(opt, "expects a number, not '%s'", arg);
	ho->percent_limit = (float)v;
	ho->cg.threshold = (float)v;
	ho->cg.threshold_set = true;
	return 0;
}

/* -G: the view in caller order. */
static int inverted_cb(const struct pm_option *opt, const char *arg)
{
	struct pm_hotspot_opts *ho = opt->value;

	(void)arg;
	ho->callgraph = true;
	ho->cg.order = PM_CG_CALLER;
	ho->cg.order_set = true;
	return 0;
}

/*
 * perf takes -g's words as the next argument too ("-g caller"): report
 * has no arguments of its own, so a word after -g is -g's. A copy of argv
 * with such pairs joined ("--call-graph=caller"); the joined strings are
 * in own[] (a pair takes two slots: there is room).
 */
struct args {
	const char **v;
	char **own;
	int n, nr_own;
};

static int join_graph_words(int argc, const char **argv, struct args *a)
{
	a->v = calloc((size_t)argc + 1, sizeof(*a->v));
	a->own = calloc((size_t)argc + 1, sizeof(*a->own));
	a->n = a->nr_own = 0;
	if (!a->v || !a->own)
		return -1;
	for (int i = 0; i < argc; i++) {
		bool g = !strcmp(argv[i], "-g") || !strcmp(argv[i], "--call-graph");

		if (i && g && i + 1 < argc && argv[i + 1][0] != '-') {
			size_t len = strlen(argv[i + 1]) + sizeof("--call-graph=");
			char *s = malloc(len);

			if (!s)
				return -1;
			snprintf(s, len, "--call-graph=%s", argv[++i]);
			a->v[a->n++] = a->own[a->nr_own++] = s;
			continue;
		}
		a->v[a->n++] = argv[i];
	}
	return 0;
}

static void args_release(struct args *a)
{
	for (int i = 0; i < a->nr_own; i++)
		free(a->own[i]);
	free(a->own);
	free(a->v);
}

int cmd_report(int argc, const char **argv)
{
	struct pm_cmd c = PM_CMD_INIT("report");
	const char *sort = NULL, *percentage = "absolute";
	bool quiet = false, unwind_check = false, ignored = false, threads = false;
	uint64_t max_stack = PM_UNWIND_MAX_FRAMES;	/* perf's default */
	struct pm_hotspot_opts ho = { .sz = sizeof(ho) };
	struct pm_filter_opts fo = { .sz = sizeof(fo) };
	struct pm_analysis checked = pm_hotspot_analysis;
	const struct pm_option options[] = {
		OPT_INPUTS(&c),
		OPT_STRING('s', "sort", &sort, "keys",
			   "sort by keys: dso, sym, comm, pid, tid, cpu, pc (default dso,sym)"),
		OPT_STRING('F', "fields", &ho.fields, "fields",
			   "show these, in this order: overhead, overhead_children, sample, period, sort keys"),
		OPT_FORMAT(&c),
		OPT_WEIGHT(&c),
		OPT_TOP(&c),
		OPT_CALLBACK(0, "percent-limit", &ho, "percent",
			     "hide rows below this overhead (and call-graph branches, unless -g sets its own threshold after)",
			     percent_limit_cb),
		OPT_BOOLEAN(0, "group", &ho.group,
			    "one section per event group, a column per member"),
		OPT_BOOLEAN(0, "children", &ho.children,
			    "add callers' shares from callchains (Children, Self); --no-children: not"),
		{ .type = PM_OPT_CALLBACK, .short_name = 'g', .long_name = "call-graph",
		  .value = &ho, .argh = "mode,order,threshold", .flags = PM_OPT_OPTARG, .cb = graph_cb,
		  .help = "the call graph under each row: graph|fractal|flat|folded|none, "
			  "caller|callee, a threshold % (default graph,0.5,callee)" },
		OPT_CALLBACK_NOARG('G', "inverted", &ho,
				   "the call graph, in caller order (-g caller)", inverted_cb),
		OPT_U64(0, "max-stack", &max_stack, "n",
			"use at most N call chain entries (default 127, as perf)"),
		OPT_BOOLEAN(0, "inline", &c.sopts.inline_frames,
			    "inlined functions as callchain entries of their own"),
		OPT_STRING('C', "cpu", &fo.cpus, "cpus", "only samples of these CPUs (0-3,8)"),
		OPT_STRING(0, "time", &fo.time, "spec",
			   "only samples in these times: START,STOP seconds or percent slices (10%/2)"),
		OPT_STRING(0, "pid", &fo.pids, "pids", "only these processes"),
		OPT_STRING(0, "tid", &fo.tids, "tids", "only these threads"),
		OPT_STRING(0, "comm", &fo.comms, "comms", "only these commands"),
		OPT_STRING(0, "dsos", &fo.dsos, "dsos", "only rows of these shared objects"),
		OPT_STRING(0, "symbols", &fo.symbols, "syms", "only rows of these symbols"),
		OPT_BOOLEAN('U', "hide-unresolved", &fo.hide_unresolved,
			    "leave out samples and chain entries without a symbol"),
		OPT_STRING(0, "percentage", &percentage, "relative|absolute",
			   "shares of what the filters keep, or of everything (default)"),
		OPT_STRING('t', "field-separator", &c.ropts.separator, "sep",
			   "text: cells apart by SEP, laid out as perf -t"),
		OPT_BOOLEAN('T', "threads", &threads,
			    "after the report, each thread's counts (READ records of record -s)"),
		OPT_BOOLEAN(0, "stdio", &ignored, "text output (what pmprof prints)"),
		OPT_BOOLEAN('n', "show-nr-samples", &ignored,
			    "the Samples column (pmprof always shows it)"),
		OPT_SYMBOL_SOURCES(&c),
		OPT_BOOLEAN(0, "unwind-check", &unwind_check,
			    "unwind dwarf samples on cached rules and through libdwfl, compare"),
		OPT_BOOLEAN('q', "quiet", &quiet,
			    "rows only: no header or comment lines"),
		OPT_END(),
	};
	struct pm_error err = { 0 };
	struct pm_filter *probe;
	struct pm_hotspot *h;
	struct args args;
	int status;

	pm_cg_opts__init(&ho.cg);
	if (join_graph_words(argc, argv, &args)) {
		args_release(&args);
		return pm_cli_errorf(PM_EXIT_INPUT, NULL, "out of memory");
	}
	status = pm_cmd__parse(&c, args.n, args.v, options, report_usage, NULL);
	args_release(&args);
	if (status >= 0)
		return status;
	c.same_groups = ho.group;
	/* perf's: --sort's keys, then -F's (the rows sort on them in that
	 * order, hotspot.h); dso,sym when neither names one */
	if (sort && pm_hot_keys__parse(sort, ho.keys, &ho.nr_keys, &err))
		return pm_cli_error(PM_EXIT_USAGE, "--sort", &err);
	ho.nr_sort_keys = ho.nr_keys;
	if (ho.fields && pm_hot_fields__parse(ho.fields, ho.keys, &ho.nr_keys, &err))
		return pm_cli_error(PM_EXIT_USAGE, "--fields", &err);
	/* the Children column is -F's overhead_children */
	if (ho.fields && pm_hot_fields__has(ho.fields, "overhead_children"))
		ho.children = true;
	if (!ho.nr_keys && pm_hot_keys__parse("dso,sym", ho.keys, &ho.nr_keys, &err))
		return pm_cli_error(PM_EXIT_USAGE, "--sort", &err);
	if (ho.percent_limit < 0 || ho.percent_limit > 100)
		return pm_cli_errorf(PM_EXIT_USAGE, "--percent-limit", "takes 0 to 100");
	if (strcmp(percentage, "absolute") && strcmp(percentage, "relative"))
		return pm_cli_errorf(PM_EXIT_USAGE, "--percentage",
				     "'%s': relative or absolute", percentage);
	ho.relative = !strcmp(percentage, "relative");
	/* (JSON nests a tree two levels a frame: PM_JSON_MAX_DEPTH) */
	if (!max_stack || max_stack > 1000)
		return pm_cli_errorf(PM_EXIT_USAGE, "--max-stack", "takes 1 to 1000");
	ho.max_stack = (unsigned int)max_stack;
	/* the filters' syntax now (times: any recording's), usage errors */
	if (pm_filter__new(&probe, &fo, 1, 2, &err))
		return pm_cli_error(PM_EXIT_USAGE, NULL, &err);
	pm_filter__delete(probe);
	ho.filter = &fo;
	c.ropts.no_header = c.ropts.no_comments = quiet;
	if (c.ropts.separator && !*c.ropts.separator)
		return pm_cli_errorf(PM_EXIT_USAGE, "--field-separator", "is empty");
	if (unwind_check) {
		c.sopts.unwind_mode = PM_UNWIND_CHECK;
		checked.finish = checked_finish;
	}
	ho.stacks = pm_cmd__needs(&c) & PM_RENDER_NEEDS_STACKS;
	ho.profile = pm_cmd__needs(&c) & PM_RENDER_NEEDS_PROFILE;
	h = pm_hotspot__new(&ho);
	if (threads) {
		struct pm_with_threads wt = { &checked, h, pm_thread_counts__new() };

		status = pm_cmd__run(&c, &pm_with_threads_analysis, &wt);
		pm_thread_counts__delete(wt.tc);
	} else {
		status = pm_cmd__run(&c, &checked, h);
	}
	pm_hotspot__delete(h);
	return status;
}
