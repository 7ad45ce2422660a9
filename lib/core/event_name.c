// SPDX-License-Identifier: GPL-2.0
/* An event's name from its attr alone, for recordings without EVENT_DESC. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pmprof/attr.h"
#include "pmprof/util.h"

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

static const char *const cache_names[] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};

static const char *const cache_ops[][2] = {
	{ "load", "loads" }, { "store", "stores" }, { "prefetch", "prefetches" },
};

static void cache_name(uint64_t config, char *buf, size_t size)
{
	unsigned int id = config & 0xff, op = (config >> 8) & 0xff,
		     res = (config >> 16) & 0xff;

	if (id >= PM_ARRAY_SIZE(cache_names) || op >= PM_ARRAY_SIZE(cache_ops) ||
	    res > 1) {
		snprintf(buf, size, "unknown-cache-event 0x%" PRIx64, config);
		return;
	}
	if (res == 0)
		snprintf(buf, size, "%s-%s", cache_names[id], cache_ops[op][1]);
	else
		snprintf(buf, size, "%s-%s-misses", cache_names[id], cache_ops[op][0]);
}

/* perf's modifier suffix: which privilege levels and how precise. */
static void add_modifiers(const struct pm_attr *a, char *buf, size_t size)
{
	bool eu = pm_attr__flag(a, PM_ATTR_EXCLUDE_USER);
	bool ek = pm_attr__flag(a, PM_ATTR_EXCLUDE_KERNEL);
	bool eh = pm_attr__flag(a, PM_ATTR_EXCLUDE_HV);
	unsigned int precise = pm_attr__precise_ip(a);
	char mod[16];
	size_t n = 0;

	if (eu || ek || eh) {
		if (!eu)
			mod[n++] = 'u';
		if (!ek)
			mod[n++] = 'k';
		if (!eh)
			mod[n++] = 'h';
	}
	while (precise-- > 0)
		mod[n++] = 'p';
	mod[n] = '\0';
	if (n) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len, ":%s", mod);
	}
}

char *pm_attr__name(const struct pm_attr *a, char *buf, size_t size)
{
	switch (a->type) {
	case PM_TYPE_HARDWARE:
		if (a->config < PM_ARRAY_SIZE(hw_names))
			snprintf(buf, size, "%s", hw_names[a->config]);
		else
			snprintf(buf, size, "unknown-hardware:0x%" PRIx64, a->config);
		break;
	case PM_TYPE_SOFTWARE:
		if (a->config < PM_ARRAY_SIZE(sw_names))
			snprintf(buf, size, "%s", sw_names[a->config]);
		else
			snprintf(buf, size, "unknown-software:0x%" PRIx64, a->config);
		break;
	case PM_TYPE_HW_CACHE:
		cache_name(a->config, buf, size);
		break;
	case PM_TYPE_RAW:
		snprintf(buf, size, "raw 0x%" PRIx64, a->config);
		break;
	case PM_TYPE_TRACEPOINT:
		snprintf(buf, size, "tracepoint:%" PRIu64, a->config);
		break;
	case PM_TYPE_BREAKPOINT:
		snprintf(buf, size, "mem:0x%" PRIx64, a->config1);
		break;
	default:
		snprintf(buf, size, "type%u/0x%" PRIx64 "/", a->type, a->config);
		break;
	}
	add_modifiers(a, buf, size);
	return buf;
}
