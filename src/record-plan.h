/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --dry-run's output: each event's attr as perf record would
 * configure it, and its first windows as the period model runs them.
 */
#ifndef PMPROF_RECORD_PLAN_H
#define PMPROF_RECORD_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "pmprof/evspec.h"
#include "pmprof/record.h"

/* plan: windows shown per event; seed: the model's jitter seed; hf: the
 * hf mode the recording would get (the text says it first; strobe shows
 * the attrs as opened). */
void pm_record_plan__text(const struct pm_evspec_list *l, int plan, uint64_t seed,
			  const struct pm_hf_plan *hf);
void pm_record_plan__json(const struct pm_evspec_list *l, int plan, uint64_t seed,
			  const struct pm_hf_plan *hf);

/* --dry-run: the plan with the hf mode the recording would get (hf_mode:
 * --hf-mode's value or NULL; a --sysfs tree is another machine, whose
 * kernel is not here to ask). 0 or an exit code after a message. */
int pm_record_plan__print(const struct pm_evspec_list *l, int plan, uint64_t seed,
			  const char *hf_mode, const char *sysfs, bool json);

#endif
