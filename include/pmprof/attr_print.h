/* SPDX-License-Identifier: GPL-2.0 */
/* perf_event_attr as text (perf evlist -v style) and as JSON. */
#ifndef PMPROF_ATTR_PRINT_H
#define PMPROF_ATTR_PRINT_H

#include "pmprof/attr.h"
#include "pmprof/json.h"
#include "pmprof/strbuf.h"

/* "IP|TID|TIME|PERIOD" */
void pm_sample_type__str(struct pm_strbuf *sb, uint64_t sample_type);
/* "TOTAL_TIME_ENABLED|ID|GROUP" */
void pm_read_format__str(struct pm_strbuf *sb, uint64_t read_format);

/* perf's "field = value, ..." listing of the fields that are not zero,
 * plus the hf_sample fields when set. */
void pm_attr__describe(struct pm_strbuf *sb, const struct pm_attr *attr);

/* A JSON object with every field by its perf name, flags included (each
 * flag a 0/1 member), hf_sample_period and hf_sample_rand. */
void pm_attr__json(struct pm_json *j, const struct pm_attr *attr);

#endif
