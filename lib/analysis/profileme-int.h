/* SPDX-License-Identifier: GPL-2.0 */
/* The ProfileMe accumulator's state, shared with its session view. */
#ifndef PMPROF_PROFILEME_INT_H
#define PMPROF_PROFILEME_INT_H

#include "pmprof/keymap.h"
#include "pmprof/profileme_acc.h"
#include "pmprof/strbuf.h"

struct pm_profileme_acc {
	char *arch;
	bool arch_set;		/* by the options or set_arch */
	struct pm_profileme_opts opts;
	struct pm_keymap sets[4];	/* per SL1: struct pm_profileme_row * */
	uint64_t samples;
	uint64_t skipped[PM_PROFILEME__NR_STATUS];
	size_t seq;
	/* For profileme-view.c: the pc view's names of the sample at hand. */
	struct pm_strbuf sym, src;
};

#endif
