// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof profileme: Alpha ProfileMe status summed per symbol or per
 * instruction, DCPI style. The session resolves each sample (the sample's
 * IP for the symbol view, the profiled PC for the instruction view); the
 * ProfileMe accumulator decodes, classifies and sums; this file only
 * wires them together and prints.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/profileme.h"
#include "pmprof/session.h"
#include "pmprof/strbuf.h"

struct pm_opts {
	const char *input;
	const char *sort;
	enum pm_output_format format;
	uint64_t top;
	bool by_pc;
};

struct pm_run {
	struct pm_profileme_acc *acc;
	struct pm_profileme_opts opts;
	bool by_pc;
	struct pm_strbuf sym;
	struct pm_strbuf src;
};

/* perf's "Symbol" of a location: its name, or NULL when unknown. */
static const char *sym_name(const struct pm_addr_loc *loc)
{
	return loc->sym ? loc->sym->name : NULL;
}

static const char *dso_name(const struct pm_addr_loc *loc)
{
	return loc->dso ? pm_dso__short_name(loc->dso) : NULL;
}

/*
 * The instruction view names the profiled instruction itself: the PC in
 * PMPC (which is what the kernel reports as the IP, but PMPC is the
 * authority), as symbol+offset and, when DWARF has it, file:line.
 */
static void resolve_pc(struct pm_session *s, const struct pm_sample_ctx *ctx,
		       const struct pm_profileme *pm, struct pm_run *run,
		       struct pm_profileme_sample *ps)
{
	struct pm_addr_loc loc;
	struct pm_srcline sl;
	uint8_t mode = pm_profileme__is_kernel(pm) ? PM_MISC_KERNEL :
						      PM_MISC_USER;

	ps->dso = ps->symbol = ps->srcline = NULL;
	/* A PAL row gathers samples from anywhere: no single symbol. */
	if (pm_profileme__is_pal(pm))
		return;
	pm_session__resolve(s, ctx->thread, mode, pm_profileme__pc(pm), &loc);
	ps->dso = dso_name(&loc);
	if (!loc.sym)
		return;
	pm_strbuf__reset(&run->sym);
	pm_strbuf__addf(&run->sym, "%s+0x%" PRIx64, loc.sym->name, loc.sym_off);
	ps->symbol = pm_strbuf__str(&run->sym);
	if (loc.dso && pm_dso__srcline(loc.dso, loc.addr, &sl) == 0 && sl.file) {
		const char *base = strrchr(sl.file, '/');

		pm_strbuf__reset(&run->src);
		pm_strbuf__addf(&run->src, "%s:%d", base ? base + 1 : sl.file,
				sl.line);
		ps->srcline = pm_strbuf__str(&run->src);
	}
}

static int on_sample(struct pm_session *s, const struct pm_sample_ctx *ctx,
		     void *arg)
{
	struct pm_run *run = arg;
	const struct pm_sample *smp = ctx->sample;
	struct pm_profileme_sample ps = {
		.raw = (smp->sample_type & PM_SAMPLE_RAW) ? smp->raw : NULL,
		.raw_size = (smp->sample_type & PM_SAMPLE_RAW) ? smp->raw_size : 0,
		/* No attr: not known to be a cpu PMU event, so skipped. */
		.attr_type = ctx->event ? ctx->event->attr.type : UINT32_MAX,
		.dso = dso_name(&ctx->ip),
		.symbol = sym_name(&ctx->ip),
	};
	struct pm_profileme pm;

	/* Made at the first sample: a pipe brings its ARCH feature late. */
	if (!run->acc)
		run->acc = pm_profileme_acc__new(
			pm_reader__features(pm_session__reader(s))->arch,
			&run->opts);
	if (run->by_pc && ps.raw &&
	    pm_profileme__parse(&pm, ps.raw, ps.raw_size) == PM_PROFILEME_OK)
		resolve_pc(s, ctx, &pm, run, &ps);
	pm_profileme_acc__add(run->acc, &ps);
	return 0;
}

static const char *const profileme_usage[] = {
	"pmprof profileme [-i FILE] [--pc] [--top N] [--sort KEY] [--symfs DIR] [--format FMT]",
	NULL,
};

int cmd_profileme(int argc, const char **argv)
{
	struct pm_opts o = { .input = "perf.data", .sort = "samples" };
	struct pm_session_opts so = { .sz = sizeof(so) };
	const struct pm_option options[] = {
		OPT_STRING('i', "input", &o.input, "file",
			   "input file name (default perf.data; - for stdin)"),
		OPT_BOOLEAN(0, "pc", &o.by_pc,
			    "rows by instruction (PC) instead of by symbol"),
		OPT_U64(0, "top", &o.top, "n", "show the first N rows of each table"),
		OPT_STRING('s', "sort", &o.sort, "key",
			   "samples, killed, invalid, mispr, taken, stall, pctr1, pc or symbol"),
		OPT_SYMBOL_SOURCES(&so),
		OPT_FORMAT(&o.format),
		OPT_END(),
	};
	struct pm_profileme_opts po = { 0 };
	struct pm_run run = { .sym = PM_STRBUF_INIT, .src = PM_STRBUF_INIT };
	struct pm_session *s = NULL;
	struct pm_error err = { 0 };
	const char *arch;
	int ret, status = PM_EXIT_OK;

	ret = pm_parse_options(argc, argv, options, profileme_usage, 0);
	if (pm_cli_parse_status(ret) >= 0)
		return pm_cli_parse_status(ret);
	if (ret > 0)
		return pm_cli_usage_error("profileme: unexpected argument '%s'",
					  argv[0]);
	if (pm_profileme_sort__parse(o.sort, &po.sort))
		return pm_cli_usage_error("profileme: --sort: unknown key '%s'",
					  o.sort);
	if (po.sort == PM_PROFILEME_SORT_PC && !o.by_pc)
		return pm_cli_usage_error("profileme: --sort pc needs --pc");
	po.view = o.by_pc ? PM_PROFILEME_BY_PC : PM_PROFILEME_BY_SYMBOL;
	po.top = (size_t)o.top;

	if (pm_session__open(&s, o.input, &so, &err))
		return pm_cli_input_error(o.input, &err);
	run.by_pc = o.by_pc;
	run.opts = po;
	ret = pm_session__run(s, on_sample, NULL, &run, &err);
	if (ret < 0) {
		status = pm_cli_input_error(o.input, &err);
		goto out;
	}
	arch = pm_reader__features(pm_session__reader(s))->arch;
	if (!run.acc)
		run.acc = pm_profileme_acc__new(arch, &po);
	/* Say why every sample was skipped, rather than print empty tables. */
	if (!pm_profileme__arch_ok(arch) && pm_profileme_acc__skipped(run.acc))
		fprintf(stderr, "pmprof: %s: not an Alpha recording (ARCH %s): "
			"no ProfileMe data\n", o.input, arch ? arch : "not set");
	pm_profileme_acc__render(run.acc, stdout, (enum pm_table_format)o.format);
	fflush(stdout);
out:
	pm_profileme_acc__delete(run.acc);
	pm_strbuf__release(&run.sym);
	pm_strbuf__release(&run.src);
	pm_session__delete(s);
	return status;
}
