// SPDX-License-Identifier: GPL-2.0
/*
 * A row of ProfileMe status counts: what `profileme` sums per symbol or
 * instruction and `annotate` per instruction, counted and named once.
 */
#include <inttypes.h>

#include "pmprof/profileme_acc.h"
#include "pmprof/strbuf.h"

void pm_profileme_row__add(struct pm_profileme_row *r,
			   const struct pm_profileme_class *cls)
{
	r->samples++;
	r->killed += cls->killed;
	r->invalid += cls->invalid;
	r->mispredicted += cls->mispredicted;
	r->taken += cls->taken;
	r->stalled += cls->stalled;
	r->pctr1_sum += cls->pctr1;
	if (cls->trap != PM_TRAP_NONE)
		r->traps[cls->trap]++;
}

void pm_profileme_row__merge(struct pm_profileme_row *r,
			     const struct pm_profileme_row *o)
{
	size_t i;

	if (!o)
		return;
	r->samples += o->samples;
	r->killed += o->killed;
	r->invalid += o->invalid;
	r->mispredicted += o->mispredicted;
	r->taken += o->taken;
	r->stalled += o->stalled;
	r->pctr1_sum += o->pctr1_sum;
	for (i = 0; i < PM_TRAP__NR; i++)
		r->traps[i] += o->traps[i];
}

void pm_profileme_row__traps(const struct pm_profileme_row *r,
			     struct pm_strbuf *sb)
{
	bool done[PM_TRAP__NR] = { false };
	size_t start = sb->len, k, i;

	for (k = 0; k < PM_TRAP__NR; k++) {
		size_t best = PM_TRAP__NR;

		for (i = 0; i < PM_TRAP__NR; i++) {
			if (!done[i] && r->traps[i] &&
			    (best == PM_TRAP__NR || r->traps[i] > r->traps[best]))
				best = i;
		}
		if (best == PM_TRAP__NR)
			break;
		done[best] = true;
		pm_strbuf__addf(sb, "%s%s=%" PRIu64, sb->len > start ? " " : "",
				pm_profileme_trap__name((enum pm_profileme_trap)best),
				r->traps[best]);
	}
}
