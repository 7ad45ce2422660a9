/* SPDX-License-Identifier: GPL-2.0 */
/* pmprof record --dry-run's output (src/dry-run.c). */
#ifndef PMPROF_SRC_DRY_RUN_H
#define PMPROF_SRC_DRY_RUN_H

#include <stdint.h>

#include "pmprof/evspec.h"
#include "pmprof/record.h"

/* The hf mode line, then each event's attr fields and its first nplan
 * windows (the period model's, jitter from seed). */
void pm_dry_run__text(const struct pm_evspec_list *l, int nplan, uint64_t seed,
		      const struct pm_hf_plan *plan);
/* The same as a JSON array of events. */
void pm_dry_run__json(const struct pm_evspec_list *l, int nplan, uint64_t seed,
		      const struct pm_hf_plan *plan);

#endif
