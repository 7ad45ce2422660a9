// SPDX-License-Identifier: GPL-2.0
/*
 * The ProfileMe analysis over a session: the session resolves each
 * sample (its IP for the symbol view, the profiled PC for the instruction
 * view) and the accumulator (profileme.c) decodes, classifies and sums.
 */
#include <inttypes.h>
#include <string.h>

#include "profileme-int.h"
#include "pmprof/report.h"
#include "pmprof/session.h"

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
		       const struct pm_profileme *pm, struct pm_profileme_acc *v,
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
	pm_strbuf__reset(&v->sym);
	pm_strbuf__addf(&v->sym, "%s+0x%" PRIx64, loc.sym->name, loc.sym_off);
	ps->symbol = pm_strbuf__str(&v->sym);
	if (loc.dso && pm_dso__srcline(loc.dso, loc.addr, &sl) == 0 && sl.file) {
		const char *base = strrchr(sl.file, '/');

		pm_strbuf__reset(&v->src);
		pm_strbuf__addf(&v->src, "%s:%d", base ? base + 1 : sl.file,
				sl.line);
		ps->srcline = pm_strbuf__str(&v->src);
	}
}

/* A pipe names its arch once its ARCH feature went by: before any sample. */
static void learn_arch(struct pm_profileme_acc *v, struct pm_session *s)
{
	pm_profileme_acc__set_arch(v, pm_reader__features(pm_session__reader(s))->arch);
}

static int sample(void *x, struct pm_session *s, const struct pm_sample_ctx *ctx,
		  struct pm_error *err)
{
	struct pm_profileme_acc *v = x;
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

	(void)err;
	learn_arch(v, s);
	if (v->opts.view == PM_PROFILEME_BY_PC && ps.raw &&
	    pm_profileme__parse(&pm, ps.raw, ps.raw_size) == PM_PROFILEME_OK)
		resolve_pc(s, ctx, &pm, v, &ps);
	pm_profileme_acc__add(v, &ps);
	return 0;
}

static int finish(void *x, struct pm_session *s, struct pm_report **out,
		  struct pm_error *err)
{
	struct pm_profileme_acc *v = x;
	const char *arch;
	int ret;

	(void)err;
	learn_arch(v, s);
	arch = pm_reader__features(pm_session__reader(s))->arch;
	ret = pm_profileme_acc__finish(v, out);
	/* Say why every sample was skipped, rather than print empty tables. */
	if (!ret && !pm_profileme__arch_ok(arch) &&
	    pm_profileme_acc__skipped(v))
		pm_report__add_warning(*out, "not an Alpha recording (ARCH %s): "
				       "no ProfileMe data", arch ? arch : "not set");
	return ret;
}

const struct pm_analysis pm_profileme_analysis = {
	.name = "profileme",
	.sample = sample,
	.finish = finish,
};
