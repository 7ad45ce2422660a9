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
#include "pmprof/json.h"
#include "pmprof/metrics.h"
#include "pmprof/sim.h"
#include "pmprof/table.h"
#include "pmprof/util.h"

static const char *const sim_usage[] = {
	"pmprof sim MODEL -e SPEC [-o FILE] [--seed N] [--truth FILE] [--compare [-s none|discard] [--wide] [--columns LIST]]",
	"pmprof sim --list",
	NULL,
};

/* What --compare shows, in order; "%#" is the share of samples, whose
 * truth is the share of cycles. The top-down ones with a model that has
 * slots. */
static const char *const all_metrics[] = {
	"FE%", "BAD%", "BE%", "RET%", "CPI", "BMKI", "CMKI", "%CM", "%CY", "%#",
};
static const char *compare_metrics[PM_ARRAY_SIZE(all_metrics)];
static size_t nr_compare;

/* The top-down parts are shares of a whole: their error is a difference,
 * in percentage points. */
static bool in_points(const char *name)
{
	size_t k;

	for (k = 0; k < 4; k++)
		if (!strcmp(name, all_metrics[k]))
			return true;
	return false;
}

static void choose_metrics(const struct pm_sim_result *res)
{
	double v;
	size_t k;

	nr_compare = 0;
	for (k = 0; k < PM_ARRAY_SIZE(all_metrics); k++)
		if (k >= 4 || !pm_sim_result__metric(res, -1, all_metrics[k], &v))
			compare_metrics[nr_compare++] = all_metrics[k];
}

struct compare_row {
	size_t truth;			/* index in the result */
	const struct pm_metrics_func *mf;
	size_t mi;			/* index in the metrics */
};

static bool measured(struct pm_metrics *m, const struct compare_row *r,
		     const char *name, double *v)
{
	const struct pm_metrics_summary *sum = pm_metrics__summary(m);

	if (!r->mf)
		return false;
	if (!strcmp(name, "%#")) {
		if (!sum->windows)
			return false;
		*v = 100.0 * (double)r->mf->samples / (double)sum->windows;
		return true;
	}
	return pm_metrics__metric(m, r->mi, name, v, NULL, NULL) == 0;
}

static bool truth(const struct pm_sim_result *res, const struct compare_row *r,
		  const char *name, double *v)
{
	if (!strcmp(name, "%#"))
		name = "%CY";
	return pm_sim_result__metric(res, (long)r->truth, name, v) == 0;
}

/* The measured value, the truth and the error where it can be measured. */
static void compared(struct pm_metrics *m, const struct pm_sim_result *res,
		     const struct compare_row *r, const char *name,
		     struct pm_sim_compared *c)
{
	double mv = NAN, tv = NAN;
	bool hm = measured(m, r, name, &mv), ht = truth(res, r, name, &tv);

	pm_sim__compare(m, r->mf ? r->mi : SIZE_MAX, mv, hm, tv, ht, name, c);
}

static int by_cycles(const void *a, const void *b, void *arg)
{
	const struct pm_sim_result *res = arg;
	const struct compare_row *x = a, *y = b;
	uint64_t cx = res->funcs[x->truth].counts[PM_SIM_CYCLES];
	uint64_t cy = res->funcs[y->truth].counts[PM_SIM_CYCLES];

	if (cx != cy)
		return cx > cy ? -1 : 1;
	return strcmp(res->funcs[x->truth].name, res->funcs[y->truth].name);
}

static void compare_json(struct pm_metrics *m, const struct pm_sim_result *res,
			 const char *output, const struct compare_row *rows,
			 size_t n)
{
	const struct pm_metrics_summary *sum = pm_metrics__summary(m);
	struct pm_json j;
	size_t i, k;

	pm_json__init(&j, stdout);
	pm_json__begin_object(&j);
	pm_json__kv_string(&j, "file", output);
	pm_json__kv_u64(&j, "bytes", res->bytes);
	pm_json__kv_u64(&j, "samples", res->samples);
	pm_json__kv_u64(&j, "throttles", res->throttles);
	pm_json__kv_string(&j, "mode", pm_metrics_mode__name(sum->mode));
	pm_json__kv_u64(&j, "windows", sum->windows);
	pm_json__kv_u64(&j, "kept", sum->kept);
	pm_json__kv_u64(&j, "discarded", sum->discarded);
	pm_json__kv_u64(&j, "opening", sum->opening);
	pm_json__key(&j, "functions");
	pm_json__begin_array(&j);
	for (i = 0; i < n; i++) {
		pm_json__begin_object(&j);
		pm_json__kv_string(&j, "symbol", res->funcs[rows[i].truth].name);
		pm_json__kv_u64(&j, "samples", rows[i].mf ? rows[i].mf->samples : 0);
		pm_json__kv_u64(&j, "discarded", rows[i].mf ? rows[i].mf->discarded : 0);
		pm_json__key(&j, "metrics");
		pm_json__begin_object(&j);
		for (k = 0; k < nr_compare; k++) {
			const char *name = compare_metrics[k];
			struct pm_sim_compared c;

			compared(m, res, &rows[i], name, &c);
			pm_json__key(&j, name);
			pm_json__begin_object(&j);
			pm_json__key(&j, "measured");
			if (c.has_measured)
				pm_json__double(&j, c.measured);
			else
				pm_json__null(&j);
			pm_json__key(&j, "truth");
			if (c.has_truth)
				pm_json__double(&j, c.truth);
			else
				pm_json__null(&j);
			pm_json__key(&j, "error");
			if (c.has_error)
				pm_json__double(&j, c.error);
			else
				pm_json__null(&j);
			pm_json__key(&j, "difference");
			if (c.has_measured && c.has_truth)
				pm_json__double(&j, c.measured - c.truth);
			else
				pm_json__null(&j);
			pm_json__kv_bool(&j, "measurable", c.measurable);
			pm_json__key(&j, "expected_events");
			if (isnan(c.expected))
				pm_json__null(&j);
			else
				pm_json__double(&j, c.expected);
			pm_json__end_object(&j);
		}
		pm_json__end_object(&j);
		pm_json__end_object(&j);
	}
	pm_json__end_array(&j);
	pm_json__end_object(&j);
	putchar('\n');
}

static int compare_table(struct pm_metrics *m, const struct pm_sim_result *res,
			 const char *output, const struct compare_row *rows,
			 size_t n, enum pm_output_format format,
			 const struct pm_table_cli *tc)
{
	const struct pm_metrics_summary *sum = pm_metrics__summary(m);
	struct pm_table *t = pm_table__new();
	char small[2][96];
	size_t i, k, nr_small = 0;
	int status;

	pm_table__set_title(t, "%s: measured (pmprof metrics -s %s) beside the truth; err = (measured - truth) / truth, pp = measured - truth",
			    output, pm_metrics_mode__name(sum->mode));
	pm_table__add_comment(t, "%" PRIu64 " bytes, %" PRIu64 " samples, %" PRIu64 " windows: %" PRIu64 " kept, %" PRIu64 " discarded, %" PRIu64 " opening, %" PRIu64 " throttles",
			      res->bytes, res->samples, sum->windows, sum->kept,
			      sum->discarded, sum->opening, res->throttles);
	pm_table__add_col(t, "Symbol", "symbol", PM_COL_STRING);
	pm_table__add_col(t, "#", "samples", PM_COL_U64);
	pm_table__add_col(t, "DIS%", "dis", PM_COL_PERCENT);
	for (k = 0; k < nr_compare; k++) {
		char name[32], key[2][40];

		/* keys "CPI:true", "CPI:err": they go with CPI (--columns) */
		pm_table__add_col(t, compare_metrics[k], NULL, PM_COL_DOUBLE);
		snprintf(name, sizeof(name), "true %s", compare_metrics[k]);
		snprintf(key[0], sizeof(key[0]), "%s:true", compare_metrics[k]);
		pm_table__add_col(t, name, key[0], PM_COL_DOUBLE);
		snprintf(key[1], sizeof(key[1]), "%s:%s", compare_metrics[k],
			 in_points(compare_metrics[k]) ? "pp" : "err");
		if (in_points(compare_metrics[k]))
			pm_table__add_col(t, "pp", key[1], PM_COL_DOUBLE);
		else
			pm_table__add_col(t, "err", key[1], PM_COL_PERCENT);
	}
	for (i = 0; i < n; i++) {
		size_t row = pm_table__add_row(t), col = 0;

		pm_table__set_str(t, row, col++, res->funcs[rows[i].truth].name);
		if (rows[i].mf) {
			pm_table__set_u64(t, row, col, rows[i].mf->samples);
			if (rows[i].mf->samples)
				pm_table__set_double(t, row, col + 1,
					100.0 * (double)rows[i].mf->discarded /
					(double)rows[i].mf->samples);
		}
		col += 2;
		for (k = 0; k < nr_compare; k++) {
			struct pm_sim_compared c;

			compared(m, res, &rows[i], compare_metrics[k], &c);
			if (c.has_measured)
				pm_table__set_double(t, row, col, c.measured);
			if (c.has_truth)
				pm_table__set_double(t, row, col + 1, c.truth);
			if (c.has_error)
				pm_table__set_double(t, row, col + 2, in_points(compare_metrics[k]) ?
						     c.measured - c.truth : c.error);
			if (!c.measurable && c.has_measured && c.has_truth) {
				if (nr_small < PM_ARRAY_SIZE(small))
					snprintf(small[nr_small], sizeof(small[0]), "%s %s: %.1f",
						 res->funcs[rows[i].truth].name,
						 compare_metrics[k], c.expected);
				nr_small++;
			}
			col += 3;
		}
	}
	if (nr_small) {
		char line[1024] = "";
		size_t z;

		for (z = 0; z < nr_small && z < PM_ARRAY_SIZE(small); z++)
			snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s",
				 z ? ", " : "", small[z]);
		pm_table__add_comment(t, "err left out in %zu cells where the truth puts under %d events in the function's windows, whose own noise is larger (e.g. %s expected)",
				      nr_small, PM_SIM_MEASURABLE, line);
	}
	/* Symbol, #, DIS% stay */
	status = pm_table_cli__apply(tc, t, format == PM_FORMAT_TABLE, 3, 0);
	if (!status)
		pm_table__render(t, stdout, (enum pm_table_format)format, NULL);
	pm_table__delete(t);
	return status;
}

static int compare(const char *output, const struct pm_sim_result *res,
		   const char *mode, enum pm_output_format format,
		   const struct pm_table_cli *tc)
{
	enum pm_metrics_mode mm = PM_METRICS_AUTO;
	struct pm_metrics *m;
	struct pm_error err = { 0 };
	struct compare_row *rows;
	size_t i, k, n = res->nr_funcs;
	int status = PM_EXIT_OK;

	if (mode && pm_metrics_mode__parse(mode, &mm))
		return pm_cli_usage_error("sim: -s takes none or discard, not '%s'", mode);
	if (pm_sim__analyse(output, (int)mm, &m, &err))
		return pm_cli_input_error(output, &err);
	rows = pm_calloc(n, sizeof(*rows));
	for (i = 0; i < n; i++) {
		rows[i].truth = i;
		for (k = 0; k < pm_metrics__nr_funcs(m); k++) {
			const struct pm_metrics_func *f = pm_metrics__func(m, k);

			if (f->sym_name && !strcmp(f->sym_name, res->funcs[i].name)) {
				rows[i].mf = f;
				rows[i].mi = k;
				break;
			}
		}
	}
	qsort_r(rows, n, sizeof(*rows), by_cycles, (void *)res);
	choose_metrics(res);
	if (format == PM_FORMAT_JSON)
		compare_json(m, res, output, rows, n);
	else
		status = compare_table(m, res, output, rows, n, format, tc);
	free(rows);
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
	enum pm_output_format format = PM_FORMAT_TABLE;
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
		OPT_STRING('s', "mode", &mode, "none|discard", "--compare's window mode (default: discard with short windows)"),
		OPT_TABLE_FIT(&tc),
		OPT_BOOLEAN('q', "quiet", &quiet, "no summary line on stderr"),
		OPT_BOOLEAN(0, "list", &list, "list the builtin models"),
		OPT_FORMAT(&format),
		OPT_END(),
	};
	struct pm_sim_opts o = { .sz = sizeof(o) };
	struct pm_sim_result res;
	struct pm_sim_model *m;
	struct pm_error err = { 0 };
	int ret, status;
	size_t i;

	ret = pm_parse_options(argc, argv, options, sim_usage, 0);
	if (pm_cli_parse_status(ret) >= 0)
		return pm_cli_parse_status(ret);
	if (list) {
		for (i = 0; pm_sim_builtin_names[i]; i++)
			printf("%s\n", pm_sim_builtin_names[i]);
		return pm_cli_finish_stdout(PM_EXIT_OK);
	}
	if (ret == 0)
		return pm_cli_usage_error("sim: which model? (a JSON file, or a builtin: pmprof sim --list)");
	if (ret != 1)
		return pm_cli_usage_error("sim: one model, not %d", ret);
	if (!spec)
		return pm_cli_usage_error("sim: -e SPEC is needed, e.g. -e '{cycles/period=1000000,hf-period=300/,instructions}:uS'");
	if (hz > 100000 || max_rate > UINT32_MAX)
		return pm_cli_usage_error("sim: --hz at most 100000, --max-sample-rate at most %u", UINT32_MAX);
	if (do_compare && !strcmp(output, "-"))
		return pm_cli_usage_error("sim: --compare needs a file output");
	if (truth_path && !strcmp(truth_path, "-") && (do_compare || !strcmp(output, "-")))
		return pm_cli_usage_error("sim: --truth - shares stdout with another output");
	if (pm_sim_model__load(&m, argv[0], &err))
		return pm_cli_input_error(argv[0], &err);
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
		/* a system error is an output's (the model is read by now);
		 * the message names the file */
		if (err.code == -PM_EUSAGE)
			status = pm_cli_usage_error("sim: %s", err.msg);
		else if (err.code == -EFBIG)
			status = pm_cli_input_error(output, &err);
		else if (-err.code < PM_EFORMAT)
			status = pm_cli_output_error(&err);
		else
			status = pm_cli_input_error(argv[0], &err);
		goto out;
	}
	if (!quiet)
		print_summary(&o, &res);
	status = do_compare ? compare(output, &res, mode, format, &tc) : PM_EXIT_OK;
	status = pm_cli_finish_stdout(status);
out:
	pm_sim_result__exit(&res);
	pm_sim_model__delete(m);
	return status;
}
