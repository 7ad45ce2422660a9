// SPDX-License-Identifier: GPL-2.0
/*
 * Raw event codes by name (see include/pmprof/pmu_events.h for where each
 * table comes from). Only the events some part of pmprof uses: the
 * metrics' roles, the simulator's streams, the recorder's choices.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/pmu_events.h"
#include "pmprof/util.h"

struct code {
	const char *name;
	uint64_t config;
};

/* Arm ARM "Common event numbers"; Neoverse telemetry specifications. */
static const struct code arm_events[] = {
	{ "l1i_cache_refill", 0x01 },
	{ "l1i_tlb_refill", 0x02 },
	{ "l1d_cache_refill", 0x03 },
	{ "l1d_cache", 0x04 },
	{ "l1d_tlb_refill", 0x05 },
	{ "inst_retired", 0x08 },
	{ "br_mis_pred", 0x10 },
	{ "cpu_cycles", 0x11 },
	{ "br_pred", 0x12 },
	{ "l1i_cache", 0x14 },
	{ "l2d_cache", 0x16 },
	{ "l2d_cache_refill", 0x17 },
	{ "inst_spec", 0x1b },
	{ "br_retired", 0x21 },
	{ "br_mis_pred_retired", 0x22 },
	{ "stall_frontend", 0x23 },
	{ "stall_backend", 0x24 },
	{ "l1d_tlb", 0x25 },
	{ "l1i_tlb", 0x26 },
	{ "dtlb_walk", 0x34 },
	{ "itlb_walk", 0x35 },
	{ "ll_cache_rd", 0x36 },
	{ "ll_cache_miss_rd", 0x37 },
	{ "op_retired", 0x3a },
	{ "op_spec", 0x3b },
	{ "stall", 0x3c },
	{ "stall_slot_backend", 0x3d },
	{ "stall_slot_frontend", 0x3e },
	{ "stall_slot", 0x3f },
};

/*
 * Intel: architectural events (event | umask << 8) and the top-down
 * pseudo-events. AMD Zen 4+: event[7:0] | umask << 8 | event[11:8] << 32.
 * The two vendors' codes here do not collide.
 */
#define AMD(ev, umask) (((uint64_t)(ev) & 0xff) | (uint64_t)(umask) << 8 | \
			((uint64_t)(ev) >> 8) << 32)
static const struct code x86_events[] = {
	{ "cycles", 0x003c },
	{ "instructions", 0x00c0 },
	{ "ref-cycles", 0x013c },
	{ "cache-references", 0x4f2e },
	{ "cache-misses", 0x412e },
	{ "branch-instructions", 0x00c4 },
	{ "branch-misses", 0x00c5 },
	{ "slots", 0x0400 },
	{ "topdown-retiring", 0x8000 },
	{ "topdown-bad-spec", 0x8100 },
	{ "topdown-fe-bound", 0x8200 },
	{ "topdown-be-bound", 0x8300 },
	{ "ls_not_halted_cyc", AMD(0x076, 0) },
	{ "ex_ret_ops", AMD(0x0c1, 0) },
	{ "ex_ret_brn", AMD(0x0c2, 0) },
	{ "ex_ret_brn_misp", AMD(0x0c3, 0) },
	{ "de_src_op_disp.all", AMD(0x0aa, 0x07) },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend", AMD(0x1a0, 0x01) },
	{ "de_no_dispatch_per_slot.backend_stalls", AMD(0x1a0, 0x1e) },
	{ "de_no_dispatch_per_slot.smt_contention", AMD(0x1a0, 0x60) },
};

enum pm_pmu_family pm_pmu_family(const char *arch)
{
	static const char *const arm[] = { "arm64", "aarch64", "arm", NULL };
	static const char *const x86[] = { "x86_64", "x86", "i386", "i686", NULL };
	size_t i;

	if (!arch)
		return PM_PMU_FAMILY_ARM;
	for (i = 0; arm[i]; i++)
		if (!strcmp(arch, arm[i]))
			return PM_PMU_FAMILY_ARM;
	for (i = 0; x86[i]; i++)
		if (!strcmp(arch, x86[i]))
			return PM_PMU_FAMILY_X86;
	return PM_PMU_FAMILY_UNKNOWN;
}

static const struct code *table(enum pm_pmu_family fam, size_t *nr,
				uint64_t *mask)
{
	switch (fam) {
	case PM_PMU_FAMILY_ARM:
		*nr = PM_ARRAY_SIZE(arm_events);
		*mask = 0xffff;
		return arm_events;
	case PM_PMU_FAMILY_X86:
		*nr = PM_ARRAY_SIZE(x86_events);
		*mask = 0xf0000ffffULL;
		return x86_events;
	default:
		*nr = 0;
		*mask = 0;
		return NULL;
	}
}

const char *pm_pmu_event__name(enum pm_pmu_family fam, uint64_t config)
{
	uint64_t mask;
	size_t nr, i;
	const struct code *t = table(fam, &nr, &mask);

	for (i = 0; i < nr; i++)
		if ((config & mask) == t[i].config)
			return t[i].name;
	return NULL;
}

bool pm_event_name__eq(const char *a, size_t n, const char *b)
{
	size_t i;

	for (i = 0; i < n && b[i]; i++) {
		char x = (char)tolower((unsigned char)a[i]);
		char y = (char)tolower((unsigned char)b[i]);

		if (x == '_')
			x = '-';
		if (y == '_')
			y = '-';
		if (x != y)
			return false;
	}
	return i == n && !b[i];
}

int pm_pmu_event__config(enum pm_pmu_family fam, const char *name,
			 uint64_t *config)
{
	uint64_t mask;
	size_t nr, i;
	const struct code *t = table(fam, &nr, &mask);

	for (i = 0; i < nr; i++)
		if (pm_event_name__eq(name, strlen(name), t[i].name)) {
			*config = t[i].config;
			return 0;
		}
	return -1;
}

int pm_cpuid__x86(const char *cpuid, char *vendor, size_t size,
		  unsigned int *family, unsigned int *model)
{
	size_t n = cpuid ? strcspn(cpuid, ",-") : 0;
	const char *p;
	char *end;
	char sep;

	if (!n || !cpuid[n] || n >= size)
		return -1;
	sep = cpuid[n];
	memcpy(vendor, cpuid, n);
	vendor[n] = 0;
	p = cpuid + n + 1;
	*family = (unsigned int)strtoul(p, &end, 10);
	if (end == p || *end != sep)
		return -1;
	p = end + 1;
	*model = (unsigned int)strtoul(p, &end, sep == ',' ? 10 : 16);
	if (end == p || (*end && *end != sep))
		return -1;
	return 0;
}
