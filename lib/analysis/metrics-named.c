// SPDX-License-Identifier: GPL-2.0
/*
 * The named metrics over the counters, in column order: the top-down
 * level 1 (metrics-topdown.c), CPI and IPC, each miss type's MPKI and
 * rate, the shares, then per kilo-instruction and share of every other
 * counter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics-internal.h"
#include "pmprof/util.h"

int mx_role_in_group(const struct pm_metrics *m, int g,
		     enum pm_metrics_role role)
{
	size_t p;

	for (p = 0; p < m->groups[g].nr; p++) {
		int c = m->events[m->groups[g].member[p]].counter;

		if (c >= 0 && m->counters[c].role == role)
			return c;
	}
	return -1;
}

struct mx_metric *mx_add_metric(struct pm_metrics *m, const char *name,
				int num, int den, double scale, int arm_rank)
{
	struct mx_metric *x;

	m->metrics = pm_reallocarray(m->metrics, m->nr_metrics + 1,
				     sizeof(*m->metrics));
	x = &m->metrics[m->nr_metrics++];
	memset(x, 0, sizeof(*x));
	x->name = pm_strdup(name);
	x->num = num;
	x->den = den;
	x->scale = scale;
	x->arm_rank = arm_rank;
	return x;
}

/* A ratio from the first group (in event order) that counts both roles.
 * The numerator's counter, or -1 when no group does. */
static int add_ratio(struct pm_metrics *m, const char *name,
		     enum pm_metrics_role num, enum pm_metrics_role den,
		     double scale, int arm_rank)
{
	bool *tried = pm_calloc(m->nr_groups + 1, sizeof(*tried));
	int found = -1;
	size_t c;

	for (c = 0; c < m->nr_counters; c++) {
		int g = m->counters[c].group;
		int a = mx_role_in_group(m, g, num);
		int b = mx_role_in_group(m, g, den);

		if (tried[g])
			continue;
		tried[g] = true;
		if (a >= 0 && b >= 0) {
			mx_add_metric(m, name, a, b, scale, arm_rank);
			found = a;
			break;
		}
	}
	free(tried);
	return found;
}

/*
 * The miss types: misses per kilo-instruction and per access (the rate,
 * in %). Branch and L1D keep the names Arm's table gives them (BMKI,
 * CMKI, %CM); the others are named after the structure.
 */
static const struct {
	enum pm_metrics_role miss, access;
	const char *mpki, *rate;
	int arm_rank_mpki, arm_rank_rate;
} miss_types[] = {
	{ PM_ROLE_BRANCH_MISS, PM_ROLE_BRANCH, "BMKI", "BM%", 2, 100 },
	{ PM_ROLE_L1D_MISS, PM_ROLE_L1D_ACCESS, "CMKI", "%CM", 3, 4 },
	{ PM_ROLE_L1I_MISS, PM_ROLE_L1I_ACCESS, "L1IMKI", "L1IM%", 100, 100 },
	{ PM_ROLE_L2D_MISS, PM_ROLE_L2D_ACCESS, "L2DMKI", "L2DM%", 100, 100 },
	{ PM_ROLE_LLC_MISS, PM_ROLE_LLC_ACCESS, "LLCMKI", "LLCM%", 100, 100 },
	{ PM_ROLE_DTLB_MISS, PM_ROLE_DTLB_ACCESS, "DTLBMKI", "DTLBM%", 100, 100 },
	{ PM_ROLE_ITLB_MISS, PM_ROLE_ITLB_ACCESS, "ITLBMKI", "ITLBM%", 100, 100 },
};

/*
 * The name a counter's own metrics ("%NAME", "NAME/KI") go by: its event's
 * name without the sampling terms ("cpu-clock/period=10000000,
 * hf-period=100000/" -> "cpu-clock"), which say how it was sampled, not
 * what it counts, and would take a table's width. The whole name when
 * another term is there or another counter would go by the same.
 */
static bool sampling_term(const char *t, size_t n)
{
	static const char *const keys[] = {
		"period", "freq", "hf-period", "hf-rand", "hf-burst", "hf-jitter",
	};
	size_t k = strcspn(t, "=");

	if (k > n)
		k = n;
	for (size_t i = 0; i < PM_ARRAY_SIZE(keys); i++)
		if (strlen(keys[i]) == k && !strncmp(t, keys[i], k))
			return true;
	return false;
}

static size_t short_len(const char *name)
{
	const char *a = strchr(name, '/'), *b, *t;

	if (!a || !(b = strchr(a + 1, '/')) || b[1] || a == name)
		return strlen(name);
	for (t = a + 1; t < b; t += strcspn(t, ",/") + (t[strcspn(t, ",/")] == ',')) {
		if (!sampling_term(t, strcspn(t, ",/")))
			return strlen(name);
	}
	return (size_t)(a - name);
}

static void own_name(const struct pm_metrics *m, size_t c, char *buf, size_t size)
{
	const char *name = m->counters[c].name;
	size_t n = short_len(name);

	for (size_t i = 0; i < m->nr_counters && n < strlen(name); i++) {
		const char *o = m->counters[i].name;

		if (i != c && short_len(o) == n && !strncmp(o, name, n))
			n = strlen(name);
	}
	snprintf(buf, size, "%.*s", (int)n, name);
}

/* Counters the top-down metrics read: no columns of their own. */
static bool topdown_role(enum pm_metrics_role r)
{
	return r >= PM_ROLE_SLOTS && r < PM_ROLE__NR;
}

void mx_build_metrics(struct pm_metrics *m)
{
	static const char *const share_names[PM_ROLE__SHARED] = {
		"%CY", "%I", "%BM", "%L1DA", "%L1DM", "%IS",
	};
	static const int share_rank[PM_ROLE__SHARED] = { 5, 6, 7, 8, 9, 100 };
	int share_counter[PM_ROLE__SHARED];
	bool *has_mpki = pm_calloc(m->nr_counters + 1, sizeof(*has_mpki));
	char name[300], own[256];
	size_t c, t;
	int r, k;

	mx_add_topdown(m);
	add_ratio(m, "CPI", PM_ROLE_CYCLES, PM_ROLE_INSTR, 1, 1);
	add_ratio(m, "IPC", PM_ROLE_INSTR, PM_ROLE_CYCLES, 1, 100);
	for (t = 0; t < PM_ARRAY_SIZE(miss_types); t++) {
		k = add_ratio(m, miss_types[t].mpki, miss_types[t].miss,
			      PM_ROLE_INSTR, 1000, miss_types[t].arm_rank_mpki);
		if (k >= 0)
			has_mpki[k] = true;
		add_ratio(m, miss_types[t].rate, miss_types[t].miss,
			  miss_types[t].access, 100, miss_types[t].arm_rank_rate);
	}
	add_ratio(m, "%RI", PM_ROLE_INSTR, PM_ROLE_INSTR_SPEC, 100, 100);
	for (r = 0; r < PM_ROLE__SHARED; r++) {
		share_counter[r] = -1;
		for (c = 0; c < m->nr_counters; c++)
			if ((int)m->counters[c].role == r) {
				share_counter[r] = (int)c;
				mx_add_metric(m, share_names[r], (int)c, -1, 100,
					      share_rank[r]);
				break;
			}
	}
	/* Every other counter: per kilo-instruction (same group) and share. */
	for (c = 0; c < m->nr_counters; c++) {
		const struct mx_counter *x = &m->counters[c];
		int instr;

		if (x->role != PM_ROLE_NONE && x->role < PM_ROLE__SHARED &&
		    share_counter[x->role] == (int)c)
			continue;
		if (topdown_role(x->role))
			continue;
		instr = mx_role_in_group(m, x->group, PM_ROLE_INSTR);
		own_name(m, c, own, sizeof(own));
		if (instr >= 0 && instr != (int)c && !has_mpki[c]) {
			snprintf(name, sizeof(name), "%s/KI", own);
			mx_add_metric(m, name, (int)c, instr, 1000, 100);
		}
		snprintf(name, sizeof(name), "%%%s", own);
		mx_add_metric(m, name, (int)c, -1, 100, 100);
	}
	free(has_mpki);
	/* Software events only (no PMU where it was recorded): the shares
	 * are the profile's, say what is missing instead of leaving it to
	 * the reader to notice. */
	m->software_only = m->nr_counters > 0;
	for (c = 0; c < m->nr_counters; c++)
		if (m->events[m->counters[c].event].attr.type != PM_TYPE_SOFTWARE)
			m->software_only = false;
}
