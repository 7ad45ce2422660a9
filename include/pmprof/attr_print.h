/* SPDX-License-Identifier: GPL-2.0 */
/* perf_event_attr as text (perf evlist -v style) and as JSON. */
#ifndef PMPROF_ATTR_PRINT_H
#define PMPROF_ATTR_PRINT_H

#include "pmprof/attr.h"
#include "pmprof/json.h"
#include "pmprof/strbuf.h"

/* How a field's value reads. */
enum pm_attr_field_kind {
	PM_AF_DEC,		/* a count or size */
	PM_AF_HEX,		/* a config or a mask */
	PM_AF_SIGNED,		/* clockid */
	PM_AF_SAMPLE_TYPE,	/* PM_SAMPLE_* bits */
	PM_AF_READ_FORMAT,	/* PM_FORMAT_* bits */
	PM_AF_FLAG,		/* a 0/1 bitfield (precise_ip: 0-3) */
};

struct pm_attr_field {
	const char *name;	/* perf's */
	uint64_t value;
	enum pm_attr_field_kind kind;
};

#define PM_ATTR_MAX_FIELDS 80

/*
 * Every field of the attr by perf's name, in the order of the struct:
 * both sample_period and sample_freq (one of them 0), each flag, and the
 * proposed hf_sample_period and hf_sample_rand. The one list behind
 * `pmprof info`, `pmprof dump` and `pmprof record --dry-run`.
 */
size_t pm_attr__fields(const struct pm_attr *attr,
		       struct pm_attr_field out[PM_ATTR_MAX_FIELDS]);

/* "IP|TID|TIME|PERIOD" */
void pm_sample_type__str(struct pm_strbuf *sb, uint64_t sample_type);
/* "TOTAL_TIME_ENABLED|ID|GROUP" */
void pm_read_format__str(struct pm_strbuf *sb, uint64_t read_format);

/* perf's "field = value, ..." listing of the fields that are not zero,
 * plus the hf_sample fields when set. */
void pm_attr__describe(struct pm_strbuf *sb, const struct pm_attr *attr);

/* Every field of pm_attr__fields() as members of the JSON object the
 * caller has open, plus sample_type_names and read_format_names. */
void pm_attr__json_fields(struct pm_json *j, const struct pm_attr *attr);
/* The same, as an object of its own. */
void pm_attr__json(struct pm_json *j, const struct pm_attr *attr);

#endif
