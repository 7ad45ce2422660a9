// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof mem: the memory view of samples that carry PERF_SAMPLE_DATA_SRC,
 * on any architecture. The session resolves the sample's IP to its code
 * symbol and, when the sample has PERF_SAMPLE_ADDR, the address to a data
 * object; the memory accumulator counts; this file wires and prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/evspec.h"
#include "pmprof/mem.h"
#include "pmprof/session.h"

struct mem_opts {
	const char *input;
	const char *sort;
	enum pm_output_format format;
	uint64_t top;
};

static int on_sample(struct pm_session *s, const struct pm_sample_ctx *ctx,
		     void *arg)
{
	struct pm_mem_acc *acc = arg;
	const struct pm_sample *smp = ctx->sample;
	struct pm_mem_sample ms = {
		.has_data_src = smp->sample_type & PM_SAMPLE_DATA_SRC,
		.data_src = smp->data_src,
		.dso = ctx->ip.dso ? pm_dso__short_name(ctx->ip.dso) : NULL,
		.symbol = ctx->ip.sym ? ctx->ip.sym->name : NULL,
		.has_addr = smp->sample_type & PM_SAMPLE_ADDR,
	};
	struct pm_addr_loc data;

	if (ms.has_data_src && ms.has_addr) {
		/* A data address is in the sample's mode: the kernel's
		 * addresses for a kernel-mode sample. */
		pm_session__resolve_data(s, ctx->thread, ctx->ip.cpumode,
					 smp->addr, &data);
		ms.data_dso = data.dso ? pm_dso__short_name(data.dso) : NULL;
		ms.data_symbol = data.sym ? data.sym->name : NULL;
	}
	pm_mem_acc__add(acc, &ms);
	return 0;
}

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
			return pm_cli_usage_error("mem record chooses the events (%s); "
						  "for others use pmprof record -e", "see pmprof mem --help");
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return cmd_record(argc, argv);
	}
	if (pm_mem_events__choose(sysfs, &me)) {
		fprintf(stderr, "pmprof mem record: no PMU under %s samples memory operations "
			"(Alpha ProfileMe, AMD IBS Op, Arm SPE or Intel mem-loads), as perf mem needs\n",
			sysfs ? sysfs : "/sys");
		return PM_EXIT_USAGE;
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
	struct mem_opts o = { .input = "perf.data", .sort = "samples" };
	struct pm_session_opts so = { .sz = sizeof(so) };
	const struct pm_option options[] = {
		OPT_STRING('i', "input", &o.input, "file",
			   "input file name (default perf.data; - for stdin)"),
		OPT_STRING('s', "sort", &o.sort, "key",
			   "samples, symbol, op, tlb, level or data"),
		OPT_U64(0, "top", &o.top, "n", "show the first N rows"),
		OPT_SYMBOL_SOURCES(&so),
		OPT_FORMAT(&o.format),
		OPT_END(),
	};
	struct pm_mem_opts mo = { 0 };
	struct pm_mem_acc *acc;
	struct pm_session *s = NULL;
	struct pm_error err = { 0 };
	int ret, status = PM_EXIT_OK;

	if (argc > 1 && !strcmp(argv[1], "record"))
		return mem_record(argc - 1, argv + 1);
	ret = pm_parse_options(argc, argv, options, mem_usage, 0);
	if (pm_cli_parse_status(ret) >= 0)
		return pm_cli_parse_status(ret);
	if (ret > 0)
		return pm_cli_usage_error("mem: unexpected argument '%s'", argv[0]);
	if (pm_mem_sort__parse(o.sort, &mo.sort))
		return pm_cli_usage_error("mem: --sort: unknown key '%s'", o.sort);
	mo.top = (size_t)o.top;

	if (pm_session__open(&s, o.input, &so, &err))
		return pm_cli_input_error(o.input, &err);
	acc = pm_mem_acc__new(&mo);
	ret = pm_session__run(s, on_sample, NULL, acc, &err);
	if (ret < 0) {
		status = pm_cli_input_error(o.input, &err);
		goto out;
	}
	pm_mem_acc__render(acc, stdout, (enum pm_table_format)o.format);
	fflush(stdout);
out:
	pm_mem_acc__delete(acc);
	pm_session__delete(s);
	return status;
}
