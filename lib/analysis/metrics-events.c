// SPDX-License-Identifier: GPL-2.0
/*
 * What an event is to `pmprof metrics`: its role in the named metrics
 * (from its name, a generic hardware config, or a raw PMU code) and the
 * short-window period it declares. Names come first because a recording
 * made on another machine may use a dynamic PMU type number that means
 * nothing here, while its EVENT_DESC name still does.
 */
#include <stdlib.h>
#include <string.h>

#include "pmprof/metrics.h"
#include "pmprof/pmu_events.h"

int pm_metrics_mode__parse(const char *s, enum pm_metrics_mode *out)
{
	if (!strcmp(s, "none"))
		*out = PM_METRICS_NONE;
	else if (!strcmp(s, "discard"))
		*out = PM_METRICS_DISCARD;
	else
		return -1;
	return 0;
}

int pm_metrics_match__parse(const char *s, enum pm_metrics_match *out)
{
	if (!strcmp(s, "sym"))
		*out = PM_METRICS_MATCH_SYM;
	else if (!strcmp(s, "callchain"))
		*out = PM_METRICS_MATCH_CALLCHAIN;
	else
		return -1;
	return 0;
}

const char *pm_metrics_mode__name(enum pm_metrics_mode m)
{
	switch (m) {
	case PM_METRICS_NONE:
		return "none";
	case PM_METRICS_DISCARD:
		return "discard";
	default:
		return "auto";
	}
}

static const struct {
	const char *alias;
	enum pm_metrics_role role;
} aliases[] = {
	{ "cycles", PM_ROLE_CYCLES },
	{ "cpu-cycles", PM_ROLE_CYCLES },
	{ "cpu_cycles", PM_ROLE_CYCLES },
	{ "ls_not_halted_cyc", PM_ROLE_CYCLES },
	{ "instructions", PM_ROLE_INSTR },
	{ "inst_retired", PM_ROLE_INSTR },
	{ "inst_retired.any", PM_ROLE_INSTR },
	{ "ex_ret_instr", PM_ROLE_INSTR },
	{ "branch-misses", PM_ROLE_BRANCH_MISS },
	{ "br_mis_pred", PM_ROLE_BRANCH_MISS },
	{ "br_mis_pred_retired", PM_ROLE_BRANCH_MISS },
	{ "ex_ret_brn_misp", PM_ROLE_BRANCH_MISS },
	{ "cache-references", PM_ROLE_L1D_ACCESS },
	{ "l1d_cache", PM_ROLE_L1D_ACCESS },
	{ "l1-dcache-loads", PM_ROLE_L1D_ACCESS },
	{ "cache-misses", PM_ROLE_L1D_MISS },
	{ "l1d_cache_refill", PM_ROLE_L1D_MISS },
	{ "l1-dcache-load-misses", PM_ROLE_L1D_MISS },
	{ "inst_spec", PM_ROLE_INSTR_SPEC },
	{ "branch-instructions", PM_ROLE_BRANCH },
	{ "branches", PM_ROLE_BRANCH },
	{ "br_retired", PM_ROLE_BRANCH },
	{ "ex_ret_brn", PM_ROLE_BRANCH },
	{ "l1i_cache", PM_ROLE_L1I_ACCESS },
	{ "l1-icache-loads", PM_ROLE_L1I_ACCESS },
	{ "l1i_cache_refill", PM_ROLE_L1I_MISS },
	{ "l1-icache-load-misses", PM_ROLE_L1I_MISS },
	{ "l2d_cache", PM_ROLE_L2D_ACCESS },
	{ "l2d_cache_refill", PM_ROLE_L2D_MISS },
	{ "ll_cache_rd", PM_ROLE_LLC_ACCESS },
	{ "llc-loads", PM_ROLE_LLC_ACCESS },
	{ "ll_cache_miss_rd", PM_ROLE_LLC_MISS },
	{ "llc-load-misses", PM_ROLE_LLC_MISS },
	{ "l1d_tlb", PM_ROLE_DTLB_ACCESS },
	{ "dtlb-loads", PM_ROLE_DTLB_ACCESS },
	{ "l1d_tlb_refill", PM_ROLE_DTLB_MISS },
	{ "dtlb-load-misses", PM_ROLE_DTLB_MISS },
	{ "l1i_tlb", PM_ROLE_ITLB_ACCESS },
	{ "itlb-loads", PM_ROLE_ITLB_ACCESS },
	{ "l1i_tlb_refill", PM_ROLE_ITLB_MISS },
	{ "itlb-load-misses", PM_ROLE_ITLB_MISS },
	{ "slots", PM_ROLE_SLOTS },
	{ "stall_slot_frontend", PM_ROLE_TD_FRONTEND },
	{ "topdown-fe-bound", PM_ROLE_TD_FRONTEND },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend", PM_ROLE_TD_FRONTEND },
	{ "stall_slot_backend", PM_ROLE_TD_BACKEND },
	{ "topdown-be-bound", PM_ROLE_TD_BACKEND },
	{ "de_no_dispatch_per_slot.backend_stalls", PM_ROLE_TD_BACKEND },
	{ "stall_slot", PM_ROLE_TD_STALL },
	{ "op_spec", PM_ROLE_TD_ISSUED },
	{ "de_src_op_disp.all", PM_ROLE_TD_ISSUED },
	{ "op_retired", PM_ROLE_TD_RETIRED },
	{ "topdown-retiring", PM_ROLE_TD_RETIRED },
	{ "ex_ret_ops", PM_ROLE_TD_RETIRED },
	{ "topdown-bad-spec", PM_ROLE_TD_BAD_SPEC },
	{ "de_no_dispatch_per_slot.smt_contention", PM_ROLE_TD_SMT },
	{ "stall_frontend", PM_ROLE_STALL_FE_CYCLES },
	{ "stall_backend", PM_ROLE_STALL_BE_CYCLES },
};

/* Case-insensitive, '-' and '_' alike: perf spells aliases both ways. */
static enum pm_metrics_role role_of_word(const char *w, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (pm_event_name__eq(w, n, aliases[i].alias))
			return aliases[i].role;
	return PM_ROLE_NONE;
}

/*
 * "cycles:u", "armv8_pmuv3_0/inst_retired/", "cycles/period=9,hf-period=3/":
 * the word before the first '/' or ':', then each term without '='.
 */
static enum pm_metrics_role role_of_name(const char *name)
{
	const char *p = name, *slash;
	enum pm_metrics_role role;
	size_t n = strcspn(name, "/:");

	role = role_of_word(name, n);
	if (role != PM_ROLE_NONE)
		return role;
	slash = strchr(name, '/');
	if (!slash)
		return PM_ROLE_NONE;
	p = slash + 1;
	while (*p && *p != '/') {
		n = strcspn(p, ",/");
		if (!memchr(p, '=', n)) {
			role = role_of_word(p, n);
			if (role != PM_ROLE_NONE)
				return role;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return PM_ROLE_NONE;
}

/* A raw code of the recording's architecture, by its documented name. */
static enum pm_metrics_role role_of_raw(uint64_t config, const char *arch)
{
	const char *name = pm_pmu_event__name(pm_pmu_family(arch), config);

	return name ? role_of_word(name, strlen(name)) : PM_ROLE_NONE;
}

/* PERF_TYPE_HW_CACHE: id | op << 8 | result << 16, reads only. */
static enum pm_metrics_role role_of_cache(uint64_t config)
{
	static const enum pm_metrics_role role[5][2] = {
		{ PM_ROLE_L1D_ACCESS, PM_ROLE_L1D_MISS },
		{ PM_ROLE_L1I_ACCESS, PM_ROLE_L1I_MISS },
		{ PM_ROLE_LLC_ACCESS, PM_ROLE_LLC_MISS },
		{ PM_ROLE_DTLB_ACCESS, PM_ROLE_DTLB_MISS },
		{ PM_ROLE_ITLB_ACCESS, PM_ROLE_ITLB_MISS },
	};
	uint64_t id = config & 0xff, op = (config >> 8) & 0xff,
		 result = (config >> 16) & 0xff;

	if (id >= 5 || op != 0 || result > 1 || config >> 24)
		return PM_ROLE_NONE;
	return role[id][result];
}

enum pm_metrics_role pm_metrics__role(const struct pm_attr *attr,
				      const char *name, const char *arch)
{
	enum pm_metrics_role role = PM_ROLE_NONE;

	if (name && *name)
		role = role_of_name(name);
	if (role != PM_ROLE_NONE || !attr)
		return role;
	switch (attr->type) {
	case PM_TYPE_HARDWARE:
		switch (attr->config & 0xffffffff) {
		case 0: return PM_ROLE_CYCLES;
		case 1: return PM_ROLE_INSTR;
		case 2: return PM_ROLE_L1D_ACCESS;
		case 3: return PM_ROLE_L1D_MISS;
		case 4: return PM_ROLE_BRANCH;
		case 5: return PM_ROLE_BRANCH_MISS;
		}
		return PM_ROLE_NONE;
	case PM_TYPE_HW_CACHE:
		return role_of_cache(attr->config & 0xffffffff);
	case PM_TYPE_SOFTWARE:
	case PM_TYPE_TRACEPOINT:
	case PM_TYPE_BREAKPOINT:
		return PM_ROLE_NONE;
	default:
		/* RAW, or a dynamic PMU type (armv8_pmuv3_0, cpu_core, ...). */
		return role_of_raw(attr->config, arch);
	}
}

/* The value of term `key=` inside the name's "/.../" terms, or 0. */
static uint64_t name_term(const char *name, const char *key)
{
	const char *p = strchr(name, '/');
	size_t klen = strlen(key);

	if (!p)
		return 0;
	p++;
	while (*p && *p != '/') {
		size_t n = strcspn(p, ",/");

		if (n > klen && !strncmp(p, key, klen) && p[klen] == '=')
			return strtoull(p + klen + 1, NULL, 0);
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

uint64_t pm_metrics__short_period(const struct pm_attr *attr,
				  const char *name)
{
	if (attr && attr->hf_sample_period)
		return attr->hf_sample_period;
	if (name)
		return name_term(name, "hf-period");
	return 0;
}
