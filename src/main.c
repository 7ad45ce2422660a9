// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof: per-function and per-instruction hardware metrics from Linux
 * perf samples. main() only dispatches; each command lives in cmd-*.c.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"
#include "suggest.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *summary;
};

static const struct cmd commands[] = {
	{ "record", cmd_record, "record a workload or the system into perf.data" },
	{ "report", cmd_report, "the hotspot profile: samples by symbol, DSO, thread" },
	{ "top", cmd_top, "the hotspot profile or metrics, live, redrawn every few seconds" },
	{ "metrics", cmd_metrics, "per-function metrics (CPI, misses per kilo-instruction) from sample windows" },
	{ "diff", cmd_diff, "two recordings compared function by function, changes tested (perf diff)" },
	{ "annotate", cmd_annotate, "a function's disassembly and source with samples per instruction" },
	{ "profileme", cmd_profileme, "Alpha ProfileMe status by symbol or instruction (DCPI style)" },
	{ "mem", cmd_mem, "samples by data source: memory op, TLB, level, data object" },
	{ "script", cmd_script, "every sample as perf script prints it" },
	{ "sim", cmd_sim, "a modelled CPU through the kernel's sampling logic, with the truth" },
	{ "info", cmd_info, "show the header, features and events of a recording" },
	{ "dump", cmd_dump, "print every record, decoded" },
	{ "inject", cmd_inject, "rewrite a recording (pipe to file, byte order)" },
	{ "list", cmd_list, "the events this machine can open, and what --metrics would record" },
	{ "help", cmd_help, "show the manual page of a command" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: pmprof [--version] [--help] COMMAND [ARGS]\n\n"
		"The commands are:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "   %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nSee 'pmprof help COMMAND' for more on a command.\n");
}

int main(int argc, const char **argv)
{
	size_t i;

	/* A closed pipe (pmprof dump | head) ends output quietly. */
	signal(SIGPIPE, SIG_DFL);
	pm_cli_init();
	if (argc < 2) {
		usage(stderr);
		return PM_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("pmprof version %s\n", PMPROF_VERSION);
		return pm_cli_finish_stdout(0);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return pm_cli_finish_stdout(0);
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return pm_cli_finish_stdout(commands[i].fn(argc - 1, argv + 1));
	{
		const char *names[sizeof(commands) / sizeof(commands[0])];
		const char *best;

		for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			names[i] = commands[i].name;
		best = pm_suggest(argv[1], strlen(argv[1]), names, i);
		if (best)
			return pm_cli_errorf(PM_EXIT_USAGE, NULL,
					     "'%s' is not a pmprof command; did you mean '%s'?",
					     argv[1], best);
	}
	return pm_cli_errorf(PM_EXIT_USAGE, NULL,
			     "'%s' is not a pmprof command. See 'pmprof --help'.",
			     argv[1]);
}
