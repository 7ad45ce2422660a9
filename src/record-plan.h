/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --dry-run's output: each event's attr as perf record would
 * configure it, and its first windows as the period model runs them.
 */
#ifndef PMPROF_RECORD_PLAN_H
#define PMPROF_RECORD_PLAN_H

#include <stdint.h>

#include "pmprof/evspec.h"

/* plan: windows shown per event; seed: the model's jitter seed. */
void pm_record_plan__text(const struct pm_evspec_list *l, int plan, uint64_t seed);
void pm_record_plan__json(const struct pm_evspec_list *l, int plan, uint64_t seed);

#endif
