// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof mem: the memory view of samples that carry PERF_SAMPLE_DATA_SRC,
 * on any architecture: the memory analysis (lib/analysis/mem*.c) over the
 * recording.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/filter.h"
#include "pmprof/evspec.h"
#include "pmprof/mem_acc.h"

static const char *const mem_usage[] = {
	"pmprof mem [-i FILE] [--sort KEY] [--top N] [--symfs DIR] [--format FMT]",
	"pmprof mem record [RECORD OPTIONS] [-- COMMAND [ARG]...]",
	NULL,
};

/*
 * pmprof mem record: pmprof record with the events perf mem record picks
 * here (pm_mem_events__choose, from the same --sysfs as record's) and
 * perf mem's -W -d: the weight, data addresses and data sources that
 * pmprof mem reads. Every other option goes to record.
 */
static int mem_record(int argc, const char **argv)
{
	const char *sysfs = NULL, **rargv;
	struct pm_mem_events me;
	int i, n = 0, ret;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--sysfs") && i + 1 < argc)
			sysfs = argv[i + 1];
		else if (!strncmp(argv[i], "--sysfs=", 8))
			sysfs = argv[i] + 8;
		else if (!strcmp(argv[i], "-e") || !strncmp(argv[i], "--event", 7) ||
			 (argv[i][0] == '-' && argv[i][1] == 'e'))
			return pm_cli_errorf(PM_EXIT_USAGE, argv[i], "mem record chooses the events "
					     "(see pmprof mem --help); for others use pmprof record -e");
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return cmd_record(argc, argv);
	}
	if (pm_mem_events__choose(sysfs, &me)) {
		return pm_cli_errorf(PM_EXIT_USAGE, NULL, "mem record: no PMU under %s samples "
				     "memory operations (Alpha ProfileMe, AMD IBS Op, Arm SPE or "
				     "Intel mem-loads), as perf mem needs", sysfs ? sysfs : "/sys");
	}
	fprintf(stderr, "pmprof mem record: %s: -e %s%s%s\n", me.what, me.ev[0],
		me.nr > 1 ? " -e " : "", me.nr > 1 ? me.ev[1] : "");
	rargv = calloc((size_t)argc + 8, sizeof(char *));
	rargv[n++] = "record";
	rargv[n++] = "-W";
	rargv[n++] = "-d";
	for (i = 0; i < me.nr; i++) {
		rargv[n++] = "-e";
		rargv[n++] = me.ev[i];
	}
	for (i = 1; i < argc; i++)
		rargv[n++] = argv[i];
	ret = cmd_record(n, rargv);
	free(rargv);
	return ret;
}

int cmd_mem(int argc, const char **argv)
{
	struct pm_cmd c = PM_CMD_INIT("mem");
	struct pm_filter_opts fo = { .sz = sizeof(fo) };
	const char *sort = "samples";
	const struct pm_option options[] = {
		OPT_INPUT(&c),
		OPT_STRING('s', "sort", &sort, "key",
			   "samples, symbol, op, tlb, level or data"),
		OPT_TOP(&c),
		OPT_SAMPLE_FILTERS(&fo),
		OPT_SYMBOL_SOURCES(&c),
		OPT_FORMAT(&c),
		OPT_END(),
	};
	struct pm_mem_opts mo = { .sz = sizeof(mo) };
	struct pm_mem_acc *acc;
	int status;

	if (argc > 1 && !strcmp(argv[1], "record"))
		return mem_record(argc - 1, argv + 1);
	status = pm_cmd__parse(&c, argc, argv, options, mem_usage, NULL);
	if (status >= 0)
		return status;
	if (pm_mem_sort__parse(sort, &mo.sort))
		return pm_cli_errorf(PM_EXIT_USAGE, "--sort", "unknown key '%s'", sort);
	acc = pm_mem_acc__new(&mo);
	status = pm_cmd__run_filtered(&c, &pm_mem_analysis, acc, &fo);
	pm_mem_acc__delete(acc);
	return status;
}
