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

/* The u64 fields after the flags, by perf name, in attr order. */
struct u64_field {
	const char *name;
	uint64_t (*get)(const struct pm_attr *a);
	bool hex;
};

#define GETTER(f) static uint64_t get_##f(const struct pm_attr *a) { return (uint64_t)a->f; }
GETTER(wakeup_events) GETTER(bp_type) GETTER(config1) GETTER(config2)
GETTER(branch_sample_type) GETTER(sample_regs_user) GETTER(sample_stack_user)
GETTER(sample_regs_intr) GETTER(aux_watermark) GETTER(sample_max_stack)
GETTER(aux_sample_size) GETTER(sig_data) GETTER(config3)
GETTER(hf_sample_period) GETTER(hf_sample_rand)

static const struct u64_field tail_fields[] = {
	{ "wakeup_events", get_wakeup_events, false },
	{ "bp_type", get_bp_type, false },
	{ "config1", get_config1, true },
	{ "config2", get_config2, true },
	{ "branch_sample_type", get_branch_sample_type, true },
	{ "sample_regs_user", get_sample_regs_user, true },
	{ "sample_stack_user", get_sample_stack_user, false },
	{ "sample_regs_intr", get_sample_regs_intr, true },
	{ "aux_watermark", get_aux_watermark, false },
	{ "sample_max_stack", get_sample_max_stack, false },
	{ "aux_sample_size", get_aux_sample_size, false },
	{ "sig_data", get_sig_data, true },
	{ "config3", get_config3, true },
	{ "hf_sample_period", get_hf_sample_period, false },
	{ "hf_sample_rand", get_hf_sample_rand, false },
};

void pm_attr__describe(struct pm_strbuf *sb, const struct pm_attr *a)
{
	const char *tname = pm_attr_type_name(a->type);
	unsigned int bit;
	size_t i;

	pm_strbuf__addf(sb, "type = %u", a->type);
	if (tname)
		pm_strbuf__addf(sb, " (%s)", tname);
	pm_strbuf__addf(sb, ", size = %u", a->size);
	if (a->config)
		pm_strbuf__addf(sb, ", config = 0x%" PRIx64, a->config);
	if (a->sample_period)
		pm_strbuf__addf(sb, ", %s = %" PRIu64,
				pm_attr__flag(a, PM_ATTR_FREQ) ? "sample_freq"
							       : "sample_period",
				a->sample_period);
	if (a->sample_type) {
		pm_strbuf__adds(sb, ", sample_type = ");
		pm_sample_type__str(sb, a->sample_type);
	}
	if (a->read_format) {
		pm_strbuf__adds(sb, ", read_format = ");
		pm_read_format__str(sb, a->read_format);
	}
	for (bit = 0; bit < PM_ATTR_NR_FLAG_BITS; bit++) {
		if (bit == PM_ATTR_PRECISE_IP + 1)
			continue;
		if (bit == PM_ATTR_PRECISE_IP) {
			if (pm_attr__precise_ip(a))
				pm_strbuf__addf(sb, ", precise_ip = %u",
						pm_attr__precise_ip(a));
			continue;
		}
		if (pm_attr__flag(a, bit))
			pm_strbuf__addf(sb, ", %s = 1", pm_attr_flag_name(bit));
	}
	if (a->clockid && pm_attr__flag(a, PM_ATTR_USE_CLOCKID))
		pm_strbuf__addf(sb, ", clockid = %d", a->clockid);
	for (i = 0; i < sizeof(tail_fields) / sizeof(tail_fields[0]); i++) {
		uint64_t v = tail_fields[i].get(a);

		if (!v)
			continue;
		pm_strbuf__addf(sb, tail_fields[i].hex ? ", %s = 0x%" PRIx64
						      : ", %s = %" PRIu64,
				tail_fields[i].name, v);
	}
}

void pm_attr__json(struct pm_json *j, const struct pm_attr *a)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	unsigned int bit;
	size_t i;

	pm_json__begin_object(j);
	pm_json__kv_u64(j, "type", a->type);
	pm_json__kv_u64(j, "size", a->size);
	pm_json__kv_u64(j, "config", a->config);
	pm_json__kv_u64(j, pm_attr__flag(a, PM_ATTR_FREQ) ? "sample_freq"
							  : "sample_period",
			a->sample_period);
	pm_json__kv_u64(j, "sample_type", a->sample_type);
	pm_sample_type__str(&sb, a->sample_type);
	pm_json__kv_string(j, "sample_type_names", pm_strbuf__str(&sb));
	pm_json__kv_u64(j, "read_format", a->read_format);
	pm_strbuf__reset(&sb);
	pm_read_format__str(&sb, a->read_format);
	pm_json__kv_string(j, "read_format_names", pm_strbuf__str(&sb));
	for (bit = 0; bit < PM_ATTR_NR_FLAG_BITS; bit++) {
		if (bit == PM_ATTR_PRECISE_IP + 1)
			continue;
		if (bit == PM_ATTR_PRECISE_IP)
			pm_json__kv_u64(j, "precise_ip", pm_attr__precise_ip(a));
		else
			pm_json__kv_u64(j, pm_attr_flag_name(bit), pm_attr__flag(a, bit));
	}
	pm_json__kv_i64(j, "clockid", a->clockid);
	for (i = 0; i < sizeof(tail_fields) / sizeof(tail_fields[0]); i++)
		pm_json__kv_u64(j, tail_fields[i].name, tail_fields[i].get(a));
	pm_json__end_object(j);
	pm_strbuf__release(&sb);
}
