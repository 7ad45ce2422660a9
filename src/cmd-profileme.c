// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof profileme: Alpha ProfileMe status summed per symbol or per
 * instruction, DCPI style: the ProfileMe analysis
 * (lib/analysis/profileme*.c) over the recording.
 */
#include <stdio.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/filter.h"
#include "pmprof/profileme_acc.h"

static const char *const profileme_usage[] = {
	"pmprof profileme [-i FILE] [--pc] [--top N] [--sort KEY] [--symfs DIR] [--format FMT]",
	NULL,
};

int cmd_profileme(int argc, const char **argv)
{
	struct pm_cmd c = PM_CMD_INIT("profileme");
	struct pm_filter_opts fo = { .sz = sizeof(fo) };
	const char *sort = "samples";
	bool by_pc = false;
	const struct pm_option options[] = {
		OPT_INPUT(&c),
		OPT_BOOLEAN(0, "pc", &by_pc,
			    "rows by instruction (PC) instead of by symbol"),
		OPT_TOP(&c),
		OPT_STRING('s', "sort", &sort, "key",
			   "samples, killed, invalid, mispr, taken, stall, pctr1, pc or symbol"),
		OPT_SAMPLE_FILTERS(&fo),
		OPT_SYMBOL_SOURCES(&c),
		OPT_FORMAT(&c),
		OPT_END(),
	};
	struct pm_profileme_opts po = { .sz = sizeof(po) };
	struct pm_profileme_acc *acc;
	int status;

	status = pm_cmd__parse(&c, argc, argv, options, profileme_usage, NULL);
	if (status >= 0)
		return status;
	if (pm_profileme_sort__parse(sort, &po.sort))
		return pm_cli_errorf(PM_EXIT_USAGE, "--sort", "unknown key '%s'", sort);
	if (po.sort == PM_PROFILEME_SORT_PC && !by_pc)
		return pm_cli_errorf(PM_EXIT_USAGE, "--sort", "pc needs --pc");
	po.view = by_pc ? PM_PROFILEME_BY_PC : PM_PROFILEME_BY_SYMBOL;
	acc = pm_profileme_acc__new(&po);
	status = pm_cmd__run_filtered(&c, &pm_profileme_analysis, acc, &fo);
	pm_profileme_acc__delete(acc);
	return status;
}
