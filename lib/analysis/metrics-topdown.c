// SPDX-License-Identifier: GPL-2.0
/*
 * Top-down level 1 per function, in % of the pipeline's slots, from the
 * events each CPU family documents (the formulas and their sources are in
 * docs/pmprof-metrics.1):
 *
 *   Intel (slots, topdown-*; the PERF_METRICS fields Linux scales to
 *   slots): X% = 100 x topdown-X / slots.
 *   Arm (Arm's top-down methodology for Neoverse, as perf's sbsa.json
 *   has it): with W = the PMU's slots per cycle (caps/slots, PMU_CAPS),
 *     FE% = 100 x STALL_SLOT_FRONTEND / (W x CPU_CYCLES)
 *     BE% = 100 x STALL_SLOT_BACKEND / (W x CPU_CYCLES)
 *     RET% = 100 x OP_RETIRED / OP_SPEC x (1 - STALL_SLOT / (W x CPU_CYCLES))
 *     BAD% = 100 x (1 - OP_RETIRED / OP_SPEC) x (1 - STALL_SLOT / (W x CPU_CYCLES))
 *   with STALL_SLOT the frontend's plus the backend's when not recorded.
 *   AMD Zen 4 and later (the PPR's pipeline utilization), W = 6 dispatch
 *   slots (family 19h), 8 (family 1Ah):
 *     FE% = 100 x no_ops_from_frontend / (W x ls_not_halted_cyc), BE% the
 *     same of backend_stalls, SMT% of smt_contention, RET% of ex_ret_ops,
 *     BAD% = 100 x (de_src_op_disp.all - ex_ret_ops) / (W x cycles).
 *   Arm without slot events (Neoverse N1's cycle accounting):
 *     FEcy% = 100 x STALL_FRONTEND / CPU_CYCLES, BEcy% of STALL_BACKEND.
 *
 * Each event is read as a rate of its own group's cycles (slots for
 * Intel), so a formula may combine groups the recorder had to split: each
 * rate is a ratio of sums over that group's windows of the function. The
 * 95% interval is the delta method's over every group (taken as
 * independent) with the gradient taken numerically: the formula is of
 * degree 0 in each group's sums, so each group's variance is
 * n / (n - 1) x grad' G grad, grad by the group's sums and G the sums of
 * its windows' products (for a ratio that is the ratio estimator's
 * sum((y - R x)^2) / (n (n - 1) xbar^2)).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics-internal.h"
#include "pmprof/pmu_events.h"
#include "pmprof/util.h"

#define Z95 1.959963984540054

enum td_input { IN_FE, IN_BE, IN_STALL, IN_ISSUED, IN_RETIRED, IN_BAD, IN_SMT,
		IN_FE_CYC, IN_BE_CYC, IN__NR };

static const enum pm_metrics_role input_role[IN__NR] = {
	[IN_FE] = PM_ROLE_TD_FRONTEND, [IN_BE] = PM_ROLE_TD_BACKEND,
	[IN_STALL] = PM_ROLE_TD_STALL, [IN_ISSUED] = PM_ROLE_TD_ISSUED,
	[IN_RETIRED] = PM_ROLE_TD_RETIRED, [IN_BAD] = PM_ROLE_TD_BAD_SPEC,
	[IN_SMT] = PM_ROLE_TD_SMT, [IN_FE_CYC] = PM_ROLE_STALL_FE_CYCLES,
	[IN_BE_CYC] = PM_ROLE_STALL_BE_CYCLES,
};

enum td_recipe { TD_INTEL, TD_ARM, TD_AMD, TD_ARM_CYCLES };
enum td_value { V_FE, V_BAD, V_BE, V_RET, V_SMT, V_FE_CYC, V_BE_CYC };

/*
 * The counters a value reads: each input's counter and the base (cycles
 * or slots) of its group, as indices into `counter`, the distinct ones.
 */
struct mx_formula {
	enum td_recipe recipe;
	enum td_value value;
	double width;			/* slots per cycle (Arm, AMD) */
	int in[IN__NR], base[IN__NR];	/* into counter[], -1: absent */
	int counter[2 * IN__NR];
	int nr;
};

/* The value from the involved counters' sums v (by formula index). */
static double eval(const struct mx_formula *x, const double *v)
{
	double r[IN__NR], fe, be, stall, ret;
	int i;

	for (i = 0; i < IN__NR; i++)
		r[i] = x->in[i] >= 0 ? v[x->in[i]] / v[x->base[i]] : NAN;
	switch (x->recipe) {
	case TD_INTEL:
		switch (x->value) {
		case V_FE: return 100 * r[IN_FE];
		case V_BE: return 100 * r[IN_BE];
		case V_RET: return 100 * r[IN_RETIRED];
		case V_BAD: return 100 * (x->in[IN_BAD] >= 0 ? r[IN_BAD] :
				1 - r[IN_FE] - r[IN_BE] - r[IN_RETIRED]);
		default: return NAN;
		}
	case TD_ARM:
		fe = r[IN_FE] / x->width;
		be = r[IN_BE] / x->width;
		stall = x->in[IN_STALL] >= 0 ? r[IN_STALL] / x->width : fe + be;
		ret = r[IN_RETIRED] / r[IN_ISSUED];
		switch (x->value) {
		case V_FE: return 100 * fe;
		case V_BE: return 100 * be;
		case V_RET: return 100 * ret * (1 - stall);
		case V_BAD: return 100 * (1 - ret) * (1 - stall);
		default: return NAN;
		}
	case TD_AMD:
		switch (x->value) {
		case V_FE: return 100 * r[IN_FE] / x->width;
		case V_BE: return 100 * r[IN_BE] / x->width;
		case V_SMT: return 100 * r[IN_SMT] / x->width;
		case V_RET: return 100 * r[IN_RETIRED] / x->width;
		case V_BAD: return 100 * (r[IN_ISSUED] - r[IN_RETIRED]) / x->width;
		default: return NAN;
		}
	case TD_ARM_CYCLES:
		return 100 * (x->value == V_FE_CYC ? r[IN_FE_CYC] : r[IN_BE_CYC]);
	}
	return NAN;
}

/* The first counter of a role whose group also counts the base role;
 * its base through *base. -1 if none. */
static int with_base(const struct pm_metrics *m, enum pm_metrics_role role,
		     enum pm_metrics_role base_role, int *base)
{
	size_t c;

	for (c = 0; c < m->nr_counters; c++) {
		int b;

		if (m->counters[c].role != role)
			continue;
		b = mx_role_in_group(m, m->counters[c].group, base_role);
		if (b >= 0) {
			*base = b;
			return (int)c;
		}
	}
	return -1;
}

static int involve(struct mx_formula *x, int counter)
{
	int i;

	for (i = 0; i < x->nr; i++)
		if (x->counter[i] == counter)
			return i;
	x->counter[x->nr] = counter;
	return x->nr++;
}

static void add_value(struct pm_metrics *m, const struct mx_formula *proto,
		      const int *cnt, const int *base, enum td_value v,
		      const char *name)
{
	struct mx_formula *x = pm_zalloc(sizeof(*x));
	struct mx_metric *mm;
	int i;

	*x = *proto;
	x->value = v;
	x->nr = 0;
	for (i = 0; i < IN__NR; i++) {
		x->in[i] = x->base[i] = -1;
		if (cnt[i] < 0)
			continue;
		x->in[i] = involve(x, cnt[i]);
		x->base[i] = involve(x, base[i]);
	}
	mm = mx_add_metric(m, name, cnt[0] >= 0 ? cnt[0] : x->counter[0], -1,
			   1, 100);
	mm->formula = x;
}

/* Slots per cycle of an AMD core from the CPUID feature
 * ("AuthenticAMD,25,17,1": vendor, family, model, stepping). */
static double amd_width(const char *cpuid)
{
	unsigned int family, model;
	char vendor[32];

	if (pm_cpuid__x86(cpuid, vendor, sizeof(vendor), &family, &model) ||
	    strcmp(vendor, "AuthenticAMD"))
		return 0;
	if (family == 0x19)
		return 6;	/* Zen 4: 6-wide dispatch */
	if (family == 0x1a)
		return 8;	/* Zen 5: 8-wide dispatch */
	return 0;
}

void mx_add_topdown(struct pm_metrics *m)
{
	enum pm_pmu_family fam = pm_pmu_family(m->arch);
	int cnt[IN__NR], base[IN__NR], i;
	struct mx_formula proto = { 0 };
	enum pm_metrics_role base_role;

	m->td_note[0] = 0;
	if (with_base(m, PM_ROLE_TD_FRONTEND, PM_ROLE_SLOTS, &i) >= 0) {
		proto.recipe = TD_INTEL;
		base_role = PM_ROLE_SLOTS;
	} else {
		proto.recipe = fam == PM_PMU_FAMILY_X86 ? TD_AMD : TD_ARM;
		base_role = PM_ROLE_CYCLES;
	}
	for (i = 0; i < IN__NR; i++)
		cnt[i] = with_base(m, input_role[i], base_role, &base[i]);
	if (cnt[IN_FE] >= 0 && cnt[IN_BE] >= 0 && cnt[IN_RETIRED] >= 0 &&
	    (proto.recipe == TD_INTEL || cnt[IN_ISSUED] >= 0)) {
		proto.width = m->opts.slots > 0 ? m->opts.slots :
			      proto.recipe == TD_ARM ? m->slots : amd_width(m->cpuid);
		if (proto.recipe != TD_INTEL && !(proto.width > 0)) {
			snprintf(m->td_note, sizeof(m->td_note),
				 "top-down events without the slots per cycle: %s",
				 proto.recipe == TD_ARM ?
				 "the recording has no PMU_CAPS slots (the PMU's caps/slots); give --slots N" :
				 "not a Zen 4 or later CPUID; give --slots N");
		} else {
			int keep[IN__NR];

			/* each recipe reads only its own inputs */
			for (i = 0; i < IN__NR; i++)
				keep[i] = cnt[i];
			keep[IN_FE_CYC] = keep[IN_BE_CYC] = -1;
			if (proto.recipe != TD_AMD)
				keep[IN_SMT] = -1;
			if (proto.recipe != TD_ARM)
				keep[IN_STALL] = -1;
			if (proto.recipe != TD_INTEL)
				keep[IN_BAD] = -1;
			if (proto.recipe == TD_INTEL)
				keep[IN_ISSUED] = -1;
			add_value(m, &proto, keep, base, V_FE, "FE%");
			add_value(m, &proto, keep, base, V_BAD, "BAD%");
			add_value(m, &proto, keep, base, V_BE, "BE%");
			add_value(m, &proto, keep, base, V_RET, "RET%");
			if (keep[IN_SMT] >= 0)
				add_value(m, &proto, keep, base, V_SMT, "SMT%");
			if (proto.recipe == TD_INTEL)
				snprintf(m->td_note, sizeof(m->td_note),
					 "top-down: Intel's, in %% of the slots event");
			else
				snprintf(m->td_note, sizeof(m->td_note),
					 "top-down: %s, %g slots per cycle%s",
					 proto.recipe == TD_ARM ? "Arm's" : "AMD's",
					 proto.width, m->opts.slots > 0 ? " (--slots)" :
					 proto.recipe == TD_ARM ? " (PMU_CAPS)" : " (CPUID)");
		}
	}
	if (fam == PM_PMU_FAMILY_ARM || fam == PM_PMU_FAMILY_UNKNOWN) {
		int one[IN__NR];

		proto.recipe = TD_ARM_CYCLES;
		for (i = 0; i < IN__NR; i++)
			one[i] = -1;
		for (i = IN_FE_CYC; i <= IN_BE_CYC; i++) {
			int b, c = with_base(m, input_role[i], PM_ROLE_CYCLES, &b);

			if (c < 0)
				continue;
			one[i] = c;
			base[i] = b;
			add_value(m, &proto, one, base,
				  i == IN_FE_CYC ? V_FE_CYC : V_BE_CYC,
				  i == IN_FE_CYC ? "FEcy%" : "BEcy%");
			one[i] = -1;
		}
	}
}

/* The value and the 95% half-width (NaN: none) of a formula metric. */
int mx_formula_value(const struct pm_metrics *m, const struct mx_func *f,
		     const struct mx_metric *mm, double *value, double *half)
{
	const struct mx_formula *x = mm->formula;
	double v[2 * IN__NR], var = 0;
	int i, j, g;

	*half = NAN;
	for (i = 0; i < x->nr; i++)
		v[i] = (double)f->sums[x->counter[i]];
	for (i = 0; i < IN__NR; i++)
		if (x->in[i] >= 0 && v[x->base[i]] == 0) {
			*value = NAN;
			return -EDOM;
		}
	*value = eval(x, v);
	if (!m->opts.ci || !isfinite(*value))
		return 0;
	/* d value / d sum, numerically; then each group's part */
	{
		double grad[2 * IN__NR];

		for (i = 0; i < x->nr; i++) {
			double h = v[i] > 1e6 ? v[i] * 1e-6 : 0.5, save = v[i];
			double hi, lo;

			v[i] = save + h;
			hi = eval(x, v);
			v[i] = save - h > 0 ? save - h : save;
			lo = eval(x, v);
			grad[i] = (hi - lo) / (save + h - v[i]);
			v[i] = save;
		}
		for (g = 0; g < (int)m->nr_groups; g++) {
			const struct mx_fgroup *fg = &f->fg[g];
			size_t nr = m->groups[g].nr;
			double part = 0;
			bool in = false;

			for (i = 0; i < x->nr; i++) {
				const struct mx_counter *a = &m->counters[x->counter[i]];

				if (a->group != g)
					continue;
				in = true;
				for (j = 0; j < x->nr; j++) {
					const struct mx_counter *b = &m->counters[x->counter[j]];

					if (b->group == g && fg->gram)
						part += grad[i] * grad[j] *
							fg->gram[(size_t)a->pos * nr + (size_t)b->pos];
				}
			}
			if (!in)
				continue;
			if (fg->n < 2)
				return 0;
			var += part * (double)fg->n / (double)(fg->n - 1);
		}
	}
	*half = Z95 * sqrt(var > 0 ? var : 0);
	return 0;
}

uint64_t mx_formula_windows(const struct pm_metrics *m, const struct mx_func *f,
			    const struct mx_metric *x)
{
	uint64_t n = UINT64_MAX;

	for (int i = 0; i < x->formula->nr; i++) {
		uint64_t k = f->fg[m->counters[x->formula->counter[i]].group].n;

		if (k < n)
			n = k;
	}
	return n == UINT64_MAX ? 0 : n;
}
