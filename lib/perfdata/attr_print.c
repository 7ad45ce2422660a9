// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>

#include "pmprof/abi.h"
#include "pmprof/attr_print.h"

void pm_sample_type__str(struct pm_strbuf *sb, uint64_t st)
{
	const char *sep = "";
	unsigned int bit;

	for (bit = 0; bit < 64; bit++) {
		if (!((st >> bit) & 1))
			continue;
		if (pm_sample_bit_name(bit))
			pm_strbuf__addf(sb, "%s%s", sep, pm_sample_bit_name(bit));
		else
			pm_strbuf__addf(sb, "%s0x%llx", sep, 1ULL << bit);
		sep = "|";
	}
}

void pm_read_format__str(struct pm_strbuf *sb, uint64_t rf)
{
	static const char *const names[] = {
		"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
	};
	const char *sep = "";
	unsigned int bit;

	for (bit = 0; bit < 64; bit++) {
		if (!((rf >> bit) & 1))
			continue;
		if (bit < 5)
			pm_strbuf__addf(sb, "%s%s", sep, names[bit]);
		else
			pm_strbuf__addf(sb, "%s0x%llx", sep, 1ULL << bit);
		sep = "|";
	}
}

size_t pm_attr__fields(const struct pm_attr *a,
		       struct pm_attr_field out[PM_ATTR_MAX_FIELDS])
{
	bool freq = pm_attr__flag(a, PM_ATTR_FREQ);
	unsigned int bit;
	size_t n = 0;

#define FIELD(nm, v, k) (out[n++] = (struct pm_attr_field){ (nm), (uint64_t)(v), (k) })
	FIELD("type", a->type, PM_AF_DEC);
	FIELD("size", a->size, PM_AF_DEC);
	FIELD("config", a->config, PM_AF_HEX);
	FIELD("sample_period", freq ? 0 : a->sample_period, PM_AF_DEC);
	FIELD("sample_freq", freq ? a->sample_period : 0, PM_AF_DEC);
	FIELD("sample_type", a->sample_type, PM_AF_SAMPLE_TYPE);
	FIELD("read_format", a->read_format, PM_AF_READ_FORMAT);
	for (bit = 0; bit < PM_ATTR_NR_FLAG_BITS; bit++) {
		if (bit == PM_ATTR_PRECISE_IP + 1)
			continue;	/* precise_ip's second bit */
		if (bit == PM_ATTR_PRECISE_IP)
			FIELD("precise_ip", pm_attr__precise_ip(a), PM_AF_FLAG);
		else
			FIELD(pm_attr_flag_name(bit), pm_attr__flag(a, bit), PM_AF_FLAG);
	}
	FIELD("wakeup_events", a->wakeup_events, PM_AF_DEC);
	FIELD("bp_type", a->bp_type, PM_AF_DEC);
	FIELD("config1", a->config1, PM_AF_HEX);
	FIELD("config2", a->config2, PM_AF_HEX);
	FIELD("branch_sample_type", a->branch_sample_type, PM_AF_HEX);
	FIELD("sample_regs_user", a->sample_regs_user, PM_AF_HEX);
	FIELD("sample_stack_user", a->sample_stack_user, PM_AF_DEC);
	FIELD("clockid", (int64_t)a->clockid, PM_AF_SIGNED);
	FIELD("sample_regs_intr", a->sample_regs_intr, PM_AF_HEX);
	FIELD("aux_watermark", a->aux_watermark, PM_AF_DEC);
	FIELD("sample_max_stack", a->sample_max_stack, PM_AF_DEC);
	FIELD("aux_sample_size", a->aux_sample_size, PM_AF_DEC);
	FIELD("sig_data", a->sig_data, PM_AF_HEX);
	FIELD("config3", a->config3, PM_AF_HEX);
	FIELD("hf_sample_period", a->hf_sample_period, PM_AF_DEC);
	FIELD("hf_sample_rand", a->hf_sample_rand, PM_AF_DEC);
#undef FIELD
	return n;
}

void pm_attr__describe(struct pm_strbuf *sb, const struct pm_attr *a)
{
	struct pm_attr_field f[PM_ATTR_MAX_FIELDS];
	size_t i, n = pm_attr__fields(a, f);
	const char *tname = pm_attr_type_name(a->type);

	pm_strbuf__addf(sb, "type = %u", a->type);
	if (tname)
		pm_strbuf__addf(sb, " (%s)", tname);
	pm_strbuf__addf(sb, ", size = %u", a->size);
	for (i = 2; i < n; i++) {	/* type and size are said */
		if (!f[i].value)
			continue;
		pm_strbuf__addf(sb, ", %s = ", f[i].name);
		switch (f[i].kind) {
		case PM_AF_HEX:
			pm_strbuf__addf(sb, "%#" PRIx64, f[i].value);
			break;
		case PM_AF_SIGNED:
			pm_strbuf__addf(sb, "%" PRId64, (int64_t)f[i].value);
			break;
		case PM_AF_SAMPLE_TYPE:
			pm_sample_type__str(sb, f[i].value);
			break;
		case PM_AF_READ_FORMAT:
			pm_read_format__str(sb, f[i].value);
			break;
		default:
			pm_strbuf__addf(sb, "%" PRIu64, f[i].value);
			break;
		}
	}
}

void pm_attr__json_fields(struct pm_json *j, const struct pm_attr *a)
{
	struct pm_attr_field f[PM_ATTR_MAX_FIELDS];
	struct pm_strbuf sb = PM_STRBUF_INIT;
	size_t i, n = pm_attr__fields(a, f);

	for (i = 0; i < n; i++) {
		if (f[i].kind == PM_AF_SIGNED)
			pm_json__kv_i64(j, f[i].name, (int64_t)f[i].value);
		else
			pm_json__kv_u64(j, f[i].name, f[i].value);
		if (f[i].kind != PM_AF_SAMPLE_TYPE && f[i].kind != PM_AF_READ_FORMAT)
			continue;
		pm_strbuf__reset(&sb);
		if (f[i].kind == PM_AF_SAMPLE_TYPE) {
			pm_sample_type__str(&sb, f[i].value);
			pm_json__kv_string(j, "sample_type_names", pm_strbuf__str(&sb));
		} else {
			pm_read_format__str(&sb, f[i].value);
			pm_json__kv_string(j, "read_format_names", pm_strbuf__str(&sb));
		}
	}
	pm_strbuf__release(&sb);
}

void pm_attr__json(struct pm_json *j, const struct pm_attr *a)
{
	pm_json__begin_object(j);
	pm_attr__json_fields(j, a);
	pm_json__end_object(j);
}
