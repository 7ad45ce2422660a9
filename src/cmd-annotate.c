// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof annotate: a function's disassembly with what was sampled at each
 * instruction, as perf annotate and DCPI's dcpilist show it. The annotate
 * analysis (lib/analysis/annotate*.c) accumulates and builds one table
 * per function, into a report (pm_annotate_analysis); this file reads
 * the options and runs it (src/cli.h).
 */
#include "builtin.h"
#include "cli.h"
#include "pmprof/annotate.h"

static const char *const annotate_usage[] = {
	"pmprof annotate [-i FILE] [SYMBOL] [-d DSO] [--top N] [--no-source] [--objdump PATH] [--format FMT]",
	NULL,
};

int cmd_annotate(int argc, const char **argv)
{
	struct pm_cmd c = PM_CMD_INIT("annotate");
	const char *mode = NULL, *symbol = NULL;
	struct pm_annotate_opts ao = { .sz = sizeof(ao) };
	struct pm_annotate *an;
	const struct pm_option options[] = {
		OPT_INPUT(&c),
		OPT_STRING('s', "symbol", &symbol, "symbol",
			   "the function to annotate (as the SYMBOL argument)"),
		OPT_STRING('d', "dsos", &ao.dso, "dso",
			   "only functions of this DSO (its name or path)"),
		OPT_U64(0, "top", &c.top, "n", "annotate the N functions with most samples"),
		OPT_BOOLEAN(0, "no-source", &ao.no_source,
			    "no source lines between the instructions"),
		OPT_STRING(0, "objdump", &ao.disasm.objdump, "path",
			   "the objdump to disassemble with"),
		OPT_STRING(0, "mode", &mode, "none|discard",
			   "windows whose ends are in different functions: discard them or charge them (metrics recordings)"),
		OPT_SYMBOL_SOURCES(&c),
		OPT_FORMAT(&c),
		OPT_END(),
	};
	int nargs, status;

	status = pm_cmd__parse(&c, argc, argv, options, annotate_usage, &nargs);
	if (status >= 0)
		return status;
	if (nargs > 1 || (nargs == 1 && symbol))
		return pm_cli_errorf(PM_EXIT_USAGE, c.name, "unexpected argument '%s'",
				     argv[nargs - 1]);
	if (nargs == 1)
		symbol = argv[0];
	if (mode && pm_metrics_mode__parse(mode, &ao.mode))
		return pm_cli_errorf(PM_EXIT_USAGE, "--mode", "takes none or discard, not '%s'",
				     mode);
	ao.symbol = symbol;
	ao.top = (size_t)c.top;
	ao.disasm.no_demangle = c.sopts.no_demangle;
	/* --top counts functions, which the analysis keeps: not rows */
	c.top = 0;
	an = pm_annotate__new(&ao);
	status = pm_cmd__run(&c, &pm_annotate_analysis, an);
	pm_annotate__delete(an);
	return status;
}
