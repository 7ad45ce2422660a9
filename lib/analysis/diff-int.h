/* SPDX-License-Identifier: GPL-2.0 */
/* Inside pmprof diff (lib/analysis/diff*.c). */
#ifndef PMPROF_DIFF_INT_H
#define PMPROF_DIFF_INT_H

#include "pmprof/diff.h"

/* The stacks table of base and new into out, when both have stacks. */
int pm_diff__stacks(const struct pm_report *base, const struct pm_report *new,
		    const struct pm_diff_opts *o, struct pm_report *out,
		    struct pm_error *err);

#endif
