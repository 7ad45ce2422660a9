// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof mem: the memory view of samples that carry PERF_SAMPLE_DATA_SRC,
 * on any architecture: the memory analysis (lib/analysis/mem*.c) over the
 * recording.
 */
#include <stdio.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/mem_acc.h"

static const char *const mem_usage[] = {
	"pmprof mem [-i FILE] [--sort KEY] [--top N] [--symfs DIR] [--format FMT]",
	NULL,
};

int cmd_mem(int argc, const char **argv)
{
	struct pm_cmd c = PM_CMD_INIT("mem");
	const char *sort = "samples";
	const struct pm_option options[] = {
		OPT_INPUT(&c),
		OPT_STRING('s', "sort", &sort, "key",
			   "samples, symbol, op, tlb, level or data"),
		OPT_TOP(&c),
		OPT_SYMBOL_SOURCES(&c),
		OPT_FORMAT(&c),
		OPT_END(),
	};
	struct pm_mem_opts mo = { .sz = sizeof(mo) };
	struct pm_mem_acc *acc;
	int status;

	status = pm_cmd__parse(&c, argc, argv, options, mem_usage, NULL);
	if (status >= 0)
		return status;
	if (pm_mem_sort__parse(sort, &mo.sort))
		return pm_cli_errorf(PM_EXIT_USAGE, "--sort", "unknown key '%s'", sort);
	acc = pm_mem_acc__new(&mo);
	status = pm_cmd__run(&c, &pm_mem_analysis, acc);
	pm_mem_acc__delete(acc);
	return status;
}
