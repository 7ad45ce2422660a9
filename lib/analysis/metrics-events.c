// SPDX-License-Identifier: GPL-2.0
/*
 * What an event is to `pmprof metrics`: its role in the named metrics
 * (from its name, a generic hardware config, or a raw PMU code) and the
 * short-window period it declares. Names come first because a recording
 * made on another machine may use a dynamic PMU type number that means
 * nothing here, while its EVENT_DESC name still does.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/metrics.h"

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
	{ "instructions", PM_ROLE_INSTR },
	{ "inst_retired", PM_ROLE_INSTR },
	{ "inst_retired.any", PM_ROLE_INSTR },
	{ "branch-misses", PM_ROLE_BRANCH_MISS },
	{ "br_mis_pred", PM_ROLE_BRANCH_MISS },
	{ "br_mis_pred_retired", PM_ROLE_BRANCH_MISS },
	{ "cache-references", PM_ROLE_L1D_ACCESS },
	{ "l1d_cache", PM_ROLE_L1D_ACCESS },
	{ "l1-dcache-loads", PM_ROLE_L1D_ACCESS },
	{ "cache-misses", PM_ROLE_L1D_MISS },
	{ "l1d_cache_refill", PM_ROLE_L1D_MISS },
	{ "l1-dcache-load-misses", PM_ROLE_L1D_MISS },
	{ "inst_spec", PM_ROLE_INSTR_SPEC },
};

/* Case-insensitive, '-' and '_' alike: perf spells aliases both ways. */
static bool alias_eq(const char *a, size_t n, const char *alias)
{
	size_t i;

	if (strlen(alias) != n)
		return false;
	for (i = 0; i < n; i++) {
		char x = (char)tolower((unsigned char)a[i]);
		char y = alias[i];

		if (x == '_')
			x = '-';
		if (y == '_')
			y = '-';
		if (x != y)
			return false;
	}
	return true;
}

static enum pm_metrics_role role_of_word(const char *w, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (alias_eq(w, n, aliases[i].alias))
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

static bool arch_is(const char *arch, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(arch, *list))
			return true;
	return false;
}

static enum pm_metrics_role role_of_raw(uint64_t config, const char *arch)
{
	static const char *const arm[] = { "arm64", "aarch64", "arm", NULL };
	static const char *const x86[] = { "x86_64", "x86", "i386", "i686", NULL };

	if (!arch || arch_is(arch, arm)) {
		switch (config & 0xffff) {
		case 0x11: return PM_ROLE_CYCLES;
		case 0x08: return PM_ROLE_INSTR;
		case 0x10: return PM_ROLE_BRANCH_MISS;
		case 0x03: return PM_ROLE_L1D_MISS;
		case 0x04: return PM_ROLE_L1D_ACCESS;
		case 0x1b: return PM_ROLE_INSTR_SPEC;
		}
	} else if (arch_is(arch, x86)) {
		/* Intel's architectural events, event | umask << 8. */
		switch (config & 0xffff) {
		case 0x003c: return PM_ROLE_CYCLES;
		case 0x00c0: return PM_ROLE_INSTR;
		case 0x00c5: return PM_ROLE_BRANCH_MISS;
		case 0x4f2e: return PM_ROLE_L1D_ACCESS;
		case 0x412e: return PM_ROLE_L1D_MISS;
		}
	}
	return PM_ROLE_NONE;
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
		case 5: return PM_ROLE_BRANCH_MISS;
		}
		return PM_ROLE_NONE;
	case PM_TYPE_HW_CACHE:
		/* L1D (0), op read (0), result access (0) or miss (1). */
		if ((attr->config & 0xffffffff) == 0)
			return PM_ROLE_L1D_ACCESS;
		if ((attr->config & 0xffffffff) == 0x10000)
			return PM_ROLE_L1D_MISS;
		return PM_ROLE_NONE;
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
