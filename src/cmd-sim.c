// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof sim: run a workload model through the sampling model, write
 * perf.data (and the ELF its samples resolve in) and the truth; with
 * --compare, analyse the recording as `pmprof metrics` does and print each
 * metric beside its truth.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"
#include "table-opts.h"
#include "pmprof/metrics.h"
#include "pmprof/report.h"
#include "pmprof/sim.h"

static const char *const sim_usage[] = {
	"pmprof sim MODEL -e SPEC [-o FILE] [--seed N] [--truth FILE] [--compare [--mode none|discard] [--wide] [--columns LIST]]",
	"pmprof sim --list",
	NULL,
};

static int compare(const char *output, const struct pm_sim_result *res,
		   const char *mode, const struct pm_cmd *c,
		   const struct pm_table_cli *tc)
{
	enum pm_metrics_mode mm = PM_METRICS_AUTO;
	struct pm_report *rep;
	struct pm_metrics *m;
	struct pm_error err = { 0 };
	int status;

	if (mode && pm_metrics_mode__parse(mode, &mm))
		return pm_cli_errorf(PM_EXIT_USAGE, "--mode",
				     "takes none or discard, not '%s'", mode);
	if (pm_sim__analyse(output, (int)mm, &m, &err))
		return pm_cli_error(PM_EXIT_INPUT, output, &err);
	pm_sim__compare(m, res, output, &rep);
	/* Symbol, #, DIS% stay; JSON has every column */
	status = c->format == pm_renderer__find("json") ? 0 :
		 pm_table_cli__apply(tc, pm_report__find_table(rep, "functions"),
				     c->format == pm_renderer__find("table"), 3, 0);
	if (!status)
		status = pm_cmd__render(c, rep);
	pm_report__delete(rep);
	pm_metrics__delete(m);
	return status;
}

/* --max-size: bytes, or with perf's suffixes B, K, M, G, T (powers of
 * 1024). */
static int parse_max_size(const struct pm_option *opt, const char *arg)
{
	static const char suffixes[] = "BKMGT";
	uint64_t *out = opt->value, v;
	const char *p;
	char *end;
	int shift;

	errno = 0;
	if (!arg || !(*arg >= '0' && *arg <= '9'))
		return pm_opt_error(opt, "takes a size (bytes, or N with B, K, M, G or T), not '%s'", arg ? arg : "");
	v = strtoull(arg, &end, 10);
	p = *end ? strchr(suffixes, toupper((unsigned char)*end)) : NULL;
	if (errno || (*end && (!p || end[1])))
		return pm_opt_error(opt, "takes a size (bytes, or N with B, K, M, G or T), not '%s'", arg);
	shift = p ? 10 * (int)(p - suffixes) : 0;
	if (!v || v > UINT64_MAX >> shift)
		return pm_opt_error(opt, "'%s' is out of range (1 byte to 16 EiB)", arg);
	*out = v << shift;
	return 0;
}

static void print_summary(const struct pm_sim_opts *o,
			  const struct pm_sim_result *r)
{
	fprintf(stderr, "pmprof sim: %s: %" PRIu64 " bytes, %" PRIu64 " samples (%" PRIu64
		" overflows, %" PRIu64 " throttles), %.3f s simulated; symbols in %s\n",
		o->output, r->bytes, r->samples, r->overflows, r->throttles,
		(double)r->duration_ns / 1e9, r->elf_path);
}

int cmd_sim(int argc, const char **argv)
{
	const char *spec = NULL, *output = "perf.data", *truth_path = NULL;
	const char *elf = NULL, *mode = NULL;
	uint64_t seed = 1, iterations = 0, hz = 0, max_rate = 0, max_size = 0;
	bool do_compare = false, no_throttle = false, list = false, quiet = false;
	struct pm_cmd c = PM_CMD_INIT("sim");
	struct pm_table_cli tc = { 0 };
	const struct pm_option options[] = {
		OPT_STRING('e', "event", &spec, "spec",
			   "events and sampling, perf's syntax (period, freq, hf-period, hf-rand, hf-burst, hf-jitter terms)"),
		OPT_STRING('o', "output", &output, "file", "perf.data to write (default perf.data)"),
		OPT_U64(0, "seed", &seed, "N", "seed of every random draw (default 1)"),
		OPT_STRING(0, "truth", &truth_path, "file", "write the truth as JSON (- for stdout)"),
		OPT_STRING(0, "elf", &elf, "file", "where to write the program's ELF (default: beside the output, named after the model)"),
		OPT_U64(0, "iterations", &iterations, "N", "override the model's iterations"),
		OPT_U64(0, "hz", &hz, "N", "scheduler ticks per second (default 250)"),
		OPT_U64(0, "max-sample-rate", &max_rate, "N", "kernel.perf_event_max_sample_rate (default 100000)"),
		OPT_BOOLEAN(0, "no-throttle", &no_throttle, "never throttle"),
		OPT_CALLBACK(0, "max-size", &max_size, "size",
			     "stop with an error when the output would pass this many bytes (K, M, G suffixes; default 2G)",
			     parse_max_size),
		OPT_BOOLEAN(0, "compare", &do_compare, "analyse the result and print each metric beside its truth"),
		OPT_STRING(0, "mode", &mode, "none|discard", "--compare's window mode (default: discard with short windows)"),
		OPT_TABLE_FIT(&tc),
		OPT_BOOLEAN('q', "quiet", &quiet, "no summary line on stderr"),
		OPT_BOOLEAN(0, "list", &list, "list the builtin models"),
		OPT_FORMAT(&c),
		OPT_END(),
	};
	struct pm_sim_opts o = { .sz = sizeof(o) };
	struct pm_sim_result res;
	struct pm_sim_model *m;
	struct pm_error err = { 0 };
	int ret, status;
	size_t i;

	status = pm_cmd__parse(&c, argc, argv, options, sim_usage, &ret);
	if (status >= 0)
		return status;
	if (list) {
		for (i = 0; pm_sim_builtin_names[i]; i++)
			printf("%s\n", pm_sim_builtin_names[i]);
		return pm_cli_finish_stdout(PM_EXIT_OK);
	}
	if (ret == 0)
		return pm_cli_errorf(PM_EXIT_USAGE, "sim", "which model? (a JSON file, or a builtin: pmprof sim --list)");
	if (ret != 1)
		return pm_cli_errorf(PM_EXIT_USAGE, "sim", "one model, not %d", ret);
	if (!spec)
		return pm_cli_errorf(PM_EXIT_USAGE, "sim", "-e SPEC is needed, e.g. -e '{cycles/period=1000000,hf-period=300/,instructions}:uS'");
	if (hz > 100000 || max_rate > UINT32_MAX)
		return pm_cli_errorf(PM_EXIT_USAGE, "sim", "--hz at most 100000, --max-sample-rate at most %u", UINT32_MAX);
	if (do_compare && !strcmp(output, "-"))
		return pm_cli_errorf(PM_EXIT_USAGE, "sim", "--compare needs a file output");
	if (truth_path && !strcmp(truth_path, "-") && (do_compare || !strcmp(output, "-")))
		return pm_cli_errorf(PM_EXIT_USAGE, "sim", "--truth - shares stdout with another output");
	if (pm_sim_model__load(&m, argv[0], &err))
		return pm_cli_error(PM_EXIT_INPUT, argv[0], &err);
	o.spec = spec;
	o.output = output;
	o.elf_path = elf;
	o.truth_path = truth_path;
	o.seed = seed;
	o.iterations = iterations;
	o.hz = (uint32_t)hz;
	o.max_sample_rate = max_rate;
	o.no_throttle = no_throttle;
	o.max_size = max_size;
	o.model_origin = argv[0];
	ret = pm_sim__run(m, &o, &res, &err);
	if (ret) {
		/* a system error is an output's (the model is read by now):
		 * its message names the file; an EFBIG is the output's
		 * --max-size; the rest is the model's */
		if (err.code == -PM_EUSAGE)
			status = pm_cli_error(PM_EXIT_USAGE, "sim", &err);
		else if (err.code == -EFBIG)
			status = pm_cli_error(PM_EXIT_INPUT, output, &err);
		else if (-err.code < PM_EFORMAT)
			status = pm_cli_error(PM_EXIT_INPUT, NULL, &err);
		else
			status = pm_cli_error(PM_EXIT_INPUT, argv[0], &err);
		goto out;
	}
	if (!quiet)
		print_summary(&o, &res);
	status = do_compare ? compare(output, &res, mode, &c, &tc) : PM_EXIT_OK;
	status = pm_cli_finish_stdout(status);
out:
	pm_sim_result__exit(&res);
	pm_sim_model__delete(m);
	return status;
}
