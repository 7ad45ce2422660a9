// SPDX-License-Identifier: GPL-2.0
/*
 * --metrics: the counter groups to record for per-function metrics, from
 * what this machine's PMU has.
 *
 *   default  cycles leading, with instructions, branch-instructions,
 *            branch-misses, cache-references and cache-misses (those that
 *            open), user only; without a hardware PMU, software events.
 *   topdown  the top-down level 1 events the CPU family documents (see
 *            docs/pmprof-record.1 for each), with cycles leading and
 *            instructions: Arm's STALL_SLOT_FRONTEND, STALL_SLOT_BACKEND,
 *            OP_SPEC and OP_RETIRED with the PMU's caps/slots; Intel's
 *            slots and topdown-* group (led by slots, sampled by the
 *            cycles after it, as the kernel requires); AMD Zen 4 and
 *            later's dispatch-slot events. What the PMU's events/ lacks
 *            is named, and the choice falls back: Arm's cycle accounting
 *            (STALL_FRONTEND, STALL_BACKEND), then the default group.
 *
 * Groups fit the PMU's counters: on this machine each group is opened to
 * see that the kernel can schedule it (a group that does not fit fails to
 * open), and what does not fit goes into another group with its own
 * cycles; for a --sysfs tree (another machine) the family's documented
 * number of counters stands in.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmprof/attr.h"
#include "pmprof/evspec.h"
#include "pmprof/pmu_events.h"
#include "pmprof/record.h"
#include "pmprof/util.h"
#include "record-int.h"

#define CYCLES_SHORT 300		/* cycles in a short window */
#define CYCLES_LONG 1000000
/*
 * Burst mode (a stock kernel) wakes the recorder twice a burst, whatever
 * its windows, and that is most of what it costs (the lab's icount guest:
 * 1,000,000 + 1 x 300 7.7% of the workload's time, 8,000,000 + 8 x 300
 * 1.7%, the same windows a second: bench/lab.sh). The kernel's hf ABI has
 * one window a period and no wakeups: it keeps CYCLES_LONG.
 */
#define BURST_WINDOWS 8
/*
 * cpu-clock's hrtimer takes periods from 10 us, but on virtual machines
 * it fires tens of microseconds late (measured here: 10 us windows come
 * out 50 us long, 100 us ones within a few percent), so the windows are
 * 100 us, every 10 ms.
 */
#define CLOCK_SHORT 100000
#define CLOCK_LONG 10000000

static void add(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void put(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Text into a fixed buffer, cut at its end: put replaces, add appends. */
static void put(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

static void add(char *buf, size_t size, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, size - n, fmt, ap);
	va_end(ap);
}

/* "period=P" or "freq=F" for the leader's terms. */
static int long_terms(const struct pm_metrics_request *rq, bool clock,
		      char *out, size_t size, struct pm_error *err)
{
	uint64_t s = clock ? CLOCK_SHORT : CYCLES_SHORT;

	if (rq->freq) {
		/* the kernel sets the long period from the frequency; the
		 * windows stay S events (a 1 GHz clock at least for cycles) */
		uint64_t per = 1000000000ULL / rq->freq;

		if (per < 2 * s)
			return pm_error__fmt(err, PM_EUSAGE,
					     "-F %" PRIu64 " with --metrics: the long period (%" PRIu64 " %s) must hold at least 2 short windows of %" PRIu64 "; at most -F %" PRIu64,
					     rq->freq, per, clock ? "ns" : "cycles at 1 GHz", s,
					     (uint64_t)(1000000000ULL / (2 * s)));
		snprintf(out, size, "freq=%" PRIu64 ",hf-period=%" PRIu64, rq->freq, s);
		return 0;
	}
	if (rq->period && rq->period < 2 * s)
		return pm_error__fmt(err, PM_EUSAGE,
				     "-c %" PRIu64 " with --metrics: the long period must hold at least 2 short windows of %" PRIu64 " %s",
				     rq->period, s, clock ? "ns" : "cycles");
	if (rq->bursts && !clock && !rq->period) {
		snprintf(out, size, "period=%llu,hf-period=%" PRIu64 ",hf-burst=%d",
			 BURST_WINDOWS * (unsigned long long)CYCLES_LONG, s, BURST_WINDOWS);
		return 0;
	}
	snprintf(out, size, "period=%" PRIu64 ",hf-period=%" PRIu64,
		 rq->period ? rq->period : clock ? CLOCK_LONG : CYCLES_LONG, s);
	return 0;
}

static int software_group(const struct pm_metrics_request *rq,
			  struct pm_metrics_choice *c, struct pm_error *err)
{
	char terms[96];

	if (long_terms(rq, true, terms, sizeof(terms), err))
		return -PM_EUSAGE;
	snprintf(c->spec, sizeof(c->spec),
		 "{cpu-clock/%s/,task-clock,page-faults,context-switches}:S", terms);
	put(c->why, sizeof(c->why),
		 "no hardware PMU here (cycles cannot be opened): recording %s, each function's share of CPU time, page faults and context switches; CPI, branch, cache and top-down metrics need a PMU (`pmprof sim` shows them on a modelled CPU)",
		 c->spec);
	c->nr_groups = 1;
	return 0;
}

/* ---- groups that fit the counters ---------------------------------------- */

struct member {
	const char *spec;	/* as it goes in the group */
	const char *name;	/* as the user reads it */
};

/* How many of the members fit beside the leader in one group, here
 * (opened, counting, on this thread): the first that fails to open where
 * it opens alone marks the end. */
static size_t fit_here(const char *leader, const struct member *m, size_t nr,
		       const char *root)
{
	struct pm_evspec_opts eo = { .sysfs_root = root };
	struct pm_evspec_list l;
	struct pm_error err;
	int fds[32];
	size_t n = 0, i;

	pm_evspec_list__init(&l);
	if (nr > 30 || pm_evspec__parse(&l, leader, &eo, &err))
		goto out;
	for (i = 0; i < nr; i++)
		if (pm_evspec__parse(&l, m[i].spec, &eo, &err))
			goto out;
	for (i = 0; i < l.nr; i++) {
		struct pm_attr a = l.ev[i].attr;

		a.size = PM_ATTR_SIZE_VER7;
		a.sample_period = 0;
		a.hf_sample_period = 0;
		a.hf_sample_rand = 0;
		pm_attr__set_flag(&a, PM_ATTR_FREQ, false);
		pm_attr__set_flag(&a, PM_ATTR_DISABLED, i == 0);
		pm_attr__set_flag(&a, PM_ATTR_EXCLUDE_KERNEL, true);
		pm_attr__set_flag(&a, PM_ATTR_EXCLUDE_HV, true);
		fds[i] = pm_perf_event_open(&a, 0, -1, i ? fds[0] : -1, 8UL, "probe", &err);
		if (fds[i] < 0)
			break;
	}
	n = i ? i - 1 : 0;
	while (i-- > 0)
		close(fds[i]);
out:
	pm_evspec_list__exit(&l);
	return n;
}

/* The groups: each led by `leader` (and `head` before it: Intel's slots),
 * members in order, as many per group as fit. */
static void make_groups(struct pm_metrics_choice *c, const char *head,
			const char *leader, const struct member *m, size_t nr,
			size_t per_group, const char *root, bool probe)
{
	size_t i = 0;

	c->spec[0] = 0;
	c->nr_groups = 0;
	while (i < nr || !c->nr_groups) {
		size_t n = nr - i < per_group ? nr - i : per_group, k;
		char lead[160];

		snprintf(lead, sizeof(lead), "%s%s%s", head ? head : "", head ? "," : "",
			 leader);
		if (probe && n) {
			size_t f = fit_here(lead, m + i, n, root);

			n = f ? f : 1;	/* one always goes: its error tells */
		}
		add(c->spec, sizeof(c->spec), "%s{%s", c->nr_groups ? "," : "", lead);
		for (k = 0; k < n; k++)
			add(c->spec, sizeof(c->spec), ",%s", m[i + k].spec);
		add(c->spec, sizeof(c->spec), "}:uS");
		c->nr_groups++;
		i += n;
	}
}

/* ---- default -------------------------------------------------------------- */

static int default_group(const struct pm_metrics_request *rq,
			 struct pm_metrics_choice *c, struct pm_error *err)
{
	static const char *const members[] = {
		"instructions", "branch-instructions", "branch-misses",
		"cache-references", "cache-misses",
	};
	struct pm_core_pmu pmu;
	char terms[96], why[256] = "";
	size_t i;
	int e, why_errno = 0;
	bool have = rq->sysfs_root ? !pm_core_pmu__find(rq->sysfs_root, rq->cpuid, &pmu)
				   : pm_recorder__probe_event(0, 0 /* cycles */);

	if (!have)
		return software_group(rq, c, err);
	c->hw = true;
	if (long_terms(rq, false, terms, sizeof(terms), err))
		return -PM_EUSAGE;
	snprintf(c->spec, sizeof(c->spec), "{cycles/%s/", terms);
	for (i = 0; i < PM_ARRAY_SIZE(members); i++) {
		uint32_t type;
		uint64_t config;

		/* perf's names, from the one table of them */
		pm_event_name__lookup(members[i], strlen(members[i]), &type, &config);
		e = rq->sysfs_root ? 0 : pm_rec_probe_errno(type, config);
		if (!e) {
			add(c->spec, sizeof(c->spec), ",%s", members[i]);
		} else {
			add(why, sizeof(why), "%s%s", why[0] ? ", " : "left out ",
			    members[i]);
			why_errno = why_errno ? why_errno : e;
		}
	}
	add(c->spec, sizeof(c->spec), "}:uS");
	c->nr_groups = 1;
	put(c->why, sizeof(c->why), "hardware PMU found%s%s", why[0] ? "; " : "", why);
	if (why_errno)
		add(c->why, sizeof(c->why), ": %s (perf_event_open: %s)",
		    why_errno == ENOENT || why_errno == EOPNOTSUPP ?
		    "this PMU does not count them" : "they cannot be opened here",
		    strerror(why_errno));
	return 0;
}

/* ---- topdown --------------------------------------------------------------- */

/* The events a list needs that the PMU's events/ lacks, into why. */
static bool lacks(const struct pm_metrics_request *rq, const struct pm_core_pmu *p,
		  const char *const *names, size_t nr, char *why, size_t size)
{
	size_t i, n = 0;

	why[0] = 0;
	for (i = 0; i < nr; i++)
		if (!pm_core_pmu__has_event(rq->sysfs_root, p, names[i]))
			add(why, size, "%s%s", n++ ? ", " : "", names[i]);
	return n > 0;
}

static int arm_topdown(const struct pm_metrics_request *rq, const struct pm_core_pmu *p,
		       struct pm_metrics_choice *c, struct pm_error *err)
{
	static const char *const slot_events[] = {
		"stall_slot_frontend", "stall_slot_backend", "op_spec", "op_retired",
	};
	static const char *const cycle_events[] = { "stall_frontend", "stall_backend" };
	char terms[96], lead[128], missing[256], missing2[128], spec[4][96];
	struct member m[5];
	size_t i;

	if (long_terms(rq, false, terms, sizeof(terms), err))
		return -PM_EUSAGE;
	snprintf(lead, sizeof(lead), "cycles/%s/", terms);
	m[0] = (struct member){ "instructions", "instructions" };
	if (!lacks(rq, p, slot_events, 4, missing, sizeof(missing))) {
		for (i = 0; i < 4; i++) {
			snprintf(spec[i], sizeof(spec[i]), "%s/%s/", p->name, slot_events[i]);
			m[i + 1] = (struct member){ spec[i], slot_events[i] };
		}
		/* six event counters and the cycle counter (Neoverse TRMs) */
		make_groups(c, NULL, lead, m, 5, 6, rq->sysfs_root, !rq->sysfs_root);
		if (p->slots > 0)
			put(c->why, sizeof(c->why),
				 "top-down: Arm's level 1 on %s, %g slots per cycle (caps/slots), %d group%s",
				 p->name, p->slots, c->nr_groups, c->nr_groups > 1 ? "s" : "");
		else
			put(c->why, sizeof(c->why),
				 "top-down: Arm's level 1 on %s, %d group%s; %s does not say its slots per cycle (no caps/slots: PMUv3p4's PMMIR): give `pmprof metrics --slots N`",
				 p->name, c->nr_groups, c->nr_groups > 1 ? "s" : "", p->name);
		return 0;
	}
	if (!lacks(rq, p, cycle_events, 2, missing2, sizeof(missing2))) {
		for (i = 0; i < 2; i++) {
			snprintf(spec[i], sizeof(spec[i]), "%s/%s/", p->name, cycle_events[i]);
			m[i + 1] = (struct member){ spec[i], cycle_events[i] };
		}
		make_groups(c, NULL, lead, m, 3, 6, rq->sysfs_root, !rq->sysfs_root);
		put(c->why, sizeof(c->why),
			 "top-down: %s lacks %s: Arm's cycle accounting instead (stall_frontend, stall_backend: FEcy%%, BEcy%%)",
			 p->name, missing);
		return 0;
	}
	if (default_group(rq, c, err))
		return -PM_EUSAGE;
	{
		char d[512];

		snprintf(d, sizeof(d), "%s", c->why);
		put(c->why, sizeof(c->why),
			 "top-down: %s lacks %s, %s: the default group instead; %s",
			 p->name, missing, missing2, d);
	}
	return 0;
}

static int intel_topdown(const struct pm_metrics_request *rq, const struct pm_core_pmu *p,
			 struct pm_metrics_choice *c, struct pm_error *err)
{
	static const char *const events[] = {
		"slots", "topdown-retiring", "topdown-bad-spec", "topdown-fe-bound",
		"topdown-be-bound",
	};
	char terms[96], lead[128], head[64], missing[256], d[512];
	struct member m[5];
	size_t i;

	if (lacks(rq, p, events, 5, missing, sizeof(missing))) {
		if (default_group(rq, c, err))
			return -PM_EUSAGE;
		snprintf(d, sizeof(d), "%s", c->why);
		put(c->why, sizeof(c->why),
			 "top-down: %s lacks %s (Ice Lake and later have them): the default group instead; %s",
			 p->name, missing, d);
		return 0;
	}
	if (long_terms(rq, false, terms, sizeof(terms), err))
		return -PM_EUSAGE;
	/* slots leads and does not sample, the cycles after it samples
	 * (the kernel's rule for metric events, perf's for :S) */
	put(head, sizeof(head), "%s/slots/", p->name);
	snprintf(lead, sizeof(lead), "cycles/%s/", terms);
	m[0] = (struct member){ "instructions", "instructions" };
	for (i = 1; i < 5; i++)
		m[i] = (struct member){ events[i], events[i] };
	/* slots and cycles, instructions on fixed counters; the metrics
	 * read PERF_METRICS: no general counter at all */
	make_groups(c, head, lead, m, 5, 5, rq->sysfs_root, false);
	put(c->why, sizeof(c->why),
		 "top-down: Intel's level 1 (slots and PERF_METRICS) on %s; its short windows need the kernel's hf ABI or --hf-mode fixed, as a group that slots leads is sampled by its second event, which bursts cannot arm",
		 p->name);
	return 0;
}

/* AMD: Zen 5 (family 1Ah) and Zen 4 (19h models 10h-1Fh, 60h-7Fh,
 * A0h-AFh) have the dispatch-slot events; Zen 3 (19h, other models) not. */
static const char *amd_generation(const struct pm_core_pmu *p)
{
	unsigned int m = p->model;

	if (p->family == 0x1a)
		return "Zen 5";
	if (p->family == 0x19 && ((m >= 0x10 && m <= 0x1f) || (m >= 0x60 && m <= 0x7f) ||
				  (m >= 0xa0 && m <= 0xaf)))
		return "Zen 4";
	return NULL;
}

static int amd_topdown(const struct pm_metrics_request *rq, const struct pm_core_pmu *p,
		       struct pm_metrics_choice *c, struct pm_error *err)
{
	static const char *const events[] = {
		"de_src_op_disp.all", "ex_ret_ops",
		"de_no_dispatch_per_slot.no_ops_from_frontend",
		"de_no_dispatch_per_slot.backend_stalls",
		"de_no_dispatch_per_slot.smt_contention",
	};
	const char *gen = amd_generation(p);
	char terms[96], lead[128], spec[5][128], d[512];
	struct member m[6];
	size_t i;

	if (!gen) {
		if (default_group(rq, c, err))
			return -PM_EUSAGE;
		snprintf(d, sizeof(d), "%s", c->why);
		put(c->why, sizeof(c->why),
			 "top-down: %s%s is no Zen 4 or later: no dispatch-slot events, the default group instead; %s",
			 p->cpuid[0] ? "CPUID " : "an AMD CPU without a CPUID (set PERF_CPUID)",
			 p->cpuid, d);
		return 0;
	}
	if (long_terms(rq, false, terms, sizeof(terms), err))
		return -PM_EUSAGE;
	snprintf(lead, sizeof(lead), "cycles/%s/", terms);
	m[0] = (struct member){ "instructions", "instructions" };
	for (i = 0; i < 5; i++) {
		uint64_t config = 0;

		pm_pmu_event__config(PM_PMU_FAMILY_X86, events[i], &config);
		snprintf(spec[i], sizeof(spec[i]), "%s/event=%#" PRIx64 ",umask=%#" PRIx64 ",name=%s/",
			 p->name, (config & 0xff) | ((config >> 32) & 0xf) << 8,
			 (config >> 8) & 0xff, events[i]);
		m[i + 1] = (struct member){ spec[i], events[i] };
	}
	/* six core counters (PPR), the cycles one of them */
	make_groups(c, NULL, lead, m, 6, 5, rq->sysfs_root, !rq->sysfs_root);
	put(c->why, sizeof(c->why),
		 "top-down: AMD's pipeline utilization (%s, %d dispatch slots per cycle), %d groups of at most 6 counters",
		 gen, !strcmp(gen, "Zen 5") ? 8 : 6, c->nr_groups);
	return 0;
}

int pm_recorder__choose_metrics(const struct pm_metrics_request *rq,
				struct pm_metrics_choice *c, struct pm_error *err)
{
	struct pm_core_pmu pmu;

	memset(c, 0, sizeof(*c));
	if (!rq->set || !strcmp(rq->set, "default"))
		return default_group(rq, c, err);
	if (strcmp(rq->set, "topdown"))
		return pm_error__fmt(err, PM_EUSAGE,
				     "--metrics %s: the groups are default and topdown", rq->set);
	if (!rq->sysfs_root && !pm_recorder__probe_event(0, 0))
		return software_group(rq, c, err);
	if (pm_core_pmu__find(rq->sysfs_root, rq->cpuid, &pmu)) {
		if (rq->sysfs_root)
			return software_group(rq, c, err);
		return default_group(rq, c, err);
	}
	c->hw = true;
	switch (pmu.vendor) {
	case PM_CORE_ARM:
		return arm_topdown(rq, &pmu, c, err);
	case PM_CORE_INTEL:
		return intel_topdown(rq, &pmu, c, err);
	default:
		return amd_topdown(rq, &pmu, c, err);
	}
}
