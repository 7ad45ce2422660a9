// SPDX-License-Identifier: GPL-2.0
/*
 * The memory view over a session: each sample's code address resolves to
 * its symbol and, when the sample has PERF_SAMPLE_ADDR, its data address
 * to a data object; the accumulator (mem.c) counts.
 */
#include "pmprof/mem_acc.h"
#include "pmprof/session.h"

static int sample(void *x, struct pm_session *s, const struct pm_sample_ctx *ctx,
		  struct pm_error *err)
{
	const struct pm_sample *smp = ctx->sample;
	struct pm_mem_sample ms = {
		.has_data_src = smp->sample_type & PM_SAMPLE_DATA_SRC,
		.data_src = smp->data_src,
		.dso = ctx->ip.dso ? pm_dso__short_name(ctx->ip.dso) : NULL,
		.symbol = ctx->ip.sym ? ctx->ip.sym->name : NULL,
		.has_addr = smp->sample_type & PM_SAMPLE_ADDR,
	};
	struct pm_addr_loc data;

	(void)err;
	if (ms.has_data_src && ms.has_addr) {
		/* A data address is in the sample's mode: the kernel's
		 * addresses for a kernel-mode sample. */
		pm_session__resolve_data(s, ctx->thread, ctx->ip.cpumode,
					 smp->addr, &data);
		ms.data_dso = data.dso ? pm_dso__short_name(data.dso) : NULL;
		ms.data_symbol = data.sym ? data.sym->name : NULL;
	}
	pm_mem_acc__add(x, &ms);
	return 0;
}

static int finish(void *x, struct pm_session *s, struct pm_report **out,
		  struct pm_error *err)
{
	(void)s;
	(void)err;
	return pm_mem_acc__finish(x, out);
}

const struct pm_analysis pm_mem_analysis = {
	.name = "mem",
	.sample = sample,
	.finish = finish,
};
