// SPDX-License-Identifier: GPL-2.0
/*
 * perf's generic event names, in one place: the hardware and software
 * symbols and the cache events (type-op-result) with every spelling perf
 * accepts, for the event parser (name -> attr) and for naming an attr
 * that came without a name (attr -> name, perf's canonical spelling).
 * Names are case sensitive.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pmprof/attr.h"
#include "pmprof/util.h"

/*
 * In perf list's order: an event's first name, then its aliases. The
 * name perf gives an attr is the first, or the one marked `named` (perf
 * lists "cpu-cycles OR cycles" but names the event "cycles").
 */
struct sym {
	const char *name;
	uint32_t type;
	uint64_t config;
	bool named;
};

static const struct sym symbols[] = {
	{ "cpu-cycles", 0, 0 }, { "cycles", 0, 0, true },
	{ "instructions", 0, 1 },
	{ "cache-references", 0, 2 },
	{ "cache-misses", 0, 3 },
	{ "branch-instructions", 0, 4 }, { "branches", 0, 4, true },
	{ "branch-misses", 0, 5 },
	{ "bus-cycles", 0, 6 },
	{ "stalled-cycles-frontend", 0, 7 }, { "idle-cycles-frontend", 0, 7 },
	{ "stalled-cycles-backend", 0, 8 }, { "idle-cycles-backend", 0, 8 },
	{ "ref-cycles", 0, 9 },
	{ "cpu-clock", 1, 0 },
	{ "task-clock", 1, 1 },
	{ "page-faults", 1, 2 }, { "faults", 1, 2 },
	{ "context-switches", 1, 3 }, { "cs", 1, 3 },
	{ "cpu-migrations", 1, 4 }, { "migrations", 1, 4 },
	{ "minor-faults", 1, 5 },
	{ "major-faults", 1, 6 },
	{ "alignment-faults", 1, 7 },
	{ "emulation-faults", 1, 8 },
	{ "dummy", 1, 9 },
	{ "bpf-output", 1, 10 },
	{ "cgroup-switches", 1, 11 },
};

static bool eq(const char *a, size_t len, const char *b)
{
	return strlen(b) == len && !memcmp(a, b, len);
}

int pm_event_name__lookup(const char *name, size_t len, uint32_t *type,
			    uint64_t *config)
{
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(symbols); i++) {
		if (eq(name, len, symbols[i].name)) {
			*type = symbols[i].type;
			*config = symbols[i].config;
			return 0;
		}
	}
	return -1;
}

const char *pm_event_name__symbol_at(size_t i, uint32_t *type, uint64_t *config)
{
	if (i >= PM_ARRAY_SIZE(symbols))
		return NULL;
	*type = symbols[i].type;
	*config = symbols[i].config;
	return symbols[i].name;
}

/* Cache ids, ops and results, with every spelling perf accepts. */
static const char *const cache_types[][5] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data", NULL },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction", NULL },
	{ "LLC", "L2", NULL },
	{ "dTLB", "d-tlb", "Data-TLB", NULL },
	{ "iTLB", "i-tlb", "Instruction-TLB", NULL },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node", NULL },
};

static const char *const cache_ops[][5] = {
	{ "load", "loads", "read", NULL },
	{ "store", "stores", "write", NULL },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load", NULL },
};

static const char *const cache_results[][5] = {
	{ "refs", "Reference", "ops", "access", NULL },
	{ "misses", "miss", NULL },
};

/* Which ops each cache supports (bit = op): perf rejects the others. */
static const unsigned int cache_valid_ops[] = {
	[0] = 7, [1] = 5, [2] = 7, [3] = 7, [4] = 1, [5] = 1, [6] = 7,
};

static int find_word(const char *const (*tab)[5], size_t nr, const char *s,
		     size_t len)
{
	size_t i, j;

	for (i = 0; i < nr; i++)
		for (j = 0; j < 5 && tab[i][j]; j++)
			if (eq(s, len, tab[i][j]))
				return (int)i;
	return -1;
}

/*
 * The cache type may itself contain '-' (L1-dcache, d-tlb), so try every
 * prefix that names a type, then read up to two op/result words. As in
 * perf, a word is taken as the op if it names one and no op was given
 * yet, otherwise as the result.
 */
int pm_event_name__cache(const char *name, size_t len, uint64_t *config)
{
	size_t cut;

	for (cut = 1; cut <= len; cut++) {
		int type, op = -1, res = -1, words = 0;
		const char *p;
		bool bad = false;

		if (cut < len && name[cut] != '-')
			continue;
		type = find_word(cache_types, PM_ARRAY_SIZE(cache_types), name, cut);
		if (type < 0)
			continue;
		p = name + cut;
		while (p < name + len && !bad) {
			const char *w = p + 1, *e;
			int o, r;

			if (*p != '-' || ++words > 2) {
				bad = true;
				break;
			}
			/* words have no '-' except speculative-read/-load */
			e = memchr(w, '-', (size_t)(name + len - w));
			if (!e)
				e = name + len;
			if (e < name + len &&
			    find_word(cache_ops, 3, w, (size_t)(e - w)) < 0 &&
			    find_word(cache_results, 2, w, (size_t)(e - w)) < 0) {
				const char *e2 = memchr(e + 1, '-', (size_t)(name + len - e - 1));

				if (!e2)
					e2 = name + len;
				if (find_word(cache_ops, 3, w, (size_t)(e2 - w)) >= 0)
					e = e2;
			}
			o = find_word(cache_ops, 3, w, (size_t)(e - w));
			r = find_word(cache_results, 2, w, (size_t)(e - w));
			if (o >= 0 && op < 0)
				op = o;
			else if (r >= 0 && res < 0)
				res = r;
			else
				bad = true;
			p = e;
		}
		if (bad)
			continue;
		if (op < 0)
			op = 0;
		if (res < 0)
			res = 0;
		if (!(cache_valid_ops[type] & (1u << op)))
			return -1;
		*config = (uint64_t)type | (uint64_t)op << 8 | (uint64_t)res << 16;
		return 0;
	}
	return -1;
}

const char *pm_event_name__of(uint32_t type, uint64_t config)
{
	const char *first = NULL;
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(symbols); i++) {
		if (symbols[i].type != type || symbols[i].config != config)
			continue;
		if (symbols[i].named)
			return symbols[i].name;
		if (!first)
			first = symbols[i].name;
	}
	return first;
}

const char *pm_event_name__canonical(const char *name)
{
	uint32_t type;
	uint64_t config;

	if (pm_event_name__lookup(name, strlen(name), &type, &config))
		return name;
	return pm_event_name__of(type, config);
}

/* An L1-dcache-loads style name: perf's first spellings. */
static void cache_name(uint64_t config, char *buf, size_t size)
{
	unsigned int id = config & 0xff, op = (config >> 8) & 0xff,
		     res = (config >> 16) & 0xff;

	if (id >= PM_ARRAY_SIZE(cache_types) || op >= PM_ARRAY_SIZE(cache_ops) ||
	    res > 1) {
		snprintf(buf, size, "unknown-cache-event 0x%" PRIx64, config);
		return;
	}
	if (res == 0)
		snprintf(buf, size, "%s-%s", cache_types[id][0], cache_ops[op][1]);
	else
		snprintf(buf, size, "%s-%s-misses", cache_types[id][0], cache_ops[op][0]);
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
		if (pm_event_name__of(a->type, a->config))
			snprintf(buf, size, "%s", pm_event_name__of(a->type, a->config));
		else
			snprintf(buf, size, "unknown-hardware:0x%" PRIx64, a->config);
		break;
	case PM_TYPE_SOFTWARE:
		if (pm_event_name__of(a->type, a->config))
			snprintf(buf, size, "%s", pm_event_name__of(a->type, a->config));
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

int pm_event_name__cache_at(size_t i, char *buf, size_t size, uint64_t *config)
{
	size_t type, op, res, k = 0;

	for (type = 0; type < PM_ARRAY_SIZE(cache_types); type++)
		for (op = 0; op < 3; op++) {
			if (!(cache_valid_ops[type] & (1u << op)))
				continue;
			for (res = 0; res < 2; res++) {
				if (k++ != i)
					continue;
				*config = (uint64_t)type | (uint64_t)op << 8 | (uint64_t)res << 16;
				cache_name(*config, buf, size);
				return 0;
			}
		}
	return -1;
}
