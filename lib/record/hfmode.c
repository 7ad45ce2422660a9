// SPDX-License-Identifier: GPL-2.0
/*
 * Which way a recording gets its short windows (--hf-mode): the kernel's
 * hf_sample ABI, Arm's strobing PMU, bursts, every window short, or none.
 * auto takes the first that works, in that order. Without I/O beyond
 * sysfs reads and the kernel probe (pmprof/hfprobe.h), so --dry-run shows
 * the same choice the recording makes.
 *
 * Strobe: Arm's prototype kernel patch for Streamline ("arm_pmuv3: Add
 * config bits for sample period strobing", Jan 2024) gives armv8_pmuv3 a
 * format term strobe_period (config2:0-31): the counter then alternates
 * between sample_period and strobe_period. So an hf event opens with
 * sample_period = period - hf-period (the long period) and strobe_period =
 * hf-period, and its file attr says the total period with the hf terms in
 * its name, as burst mode's does. The patch refuses frequency mode and a
 * strobe_period not below sample_period, and has neither bursts nor
 * jitter.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/hfprobe.h"
#include "pmprof/record.h"
#include "pmprof/util.h"
#include "record-int.h"
#include "sampling/evspec-int.h"

/* The PMU a hardware or raw event opens on that strobes: its name in
 * pmu, or false. An event of a dynamic PMU type is that PMU's. */
static bool strobe_pmu(const char *root, const struct pm_attr *a, char *pmu,
		       size_t size, int *field, uint64_t *mask)
{
	char **names;
	size_t nr, i;
	bool found = false;

	names = pm_sysfs_pmus(root, &nr);
	for (i = 0; i < nr && !found; i++) {
		uint32_t type;

		if (pm_sysfs_pmu_format(root, names[i], "strobe_period", field, mask))
			continue;
		if (a->type == PM_TYPE_HARDWARE || a->type == PM_TYPE_RAW ||
		    (!pm_sysfs_pmu_type(root, names[i], &type) && type == a->type)) {
			snprintf(pmu, size, "%s", names[i]);
			found = true;
		}
	}
	pm_sysfs_free_list(names, nr);
	return found;
}

/* Why an hf event cannot strobe ("" when it can). */
static void strobe_unfit(const struct pm_evspec_event *e, char *why, size_t size)
{
	uint64_t s = e->attr.hf_sample_period;

	why[0] = 0;
	if (e->hf_burst > 1 || e->hf_jitter || e->attr.hf_sample_rand)
		snprintf(why, size, "%s: the strobe alternates two fixed periods "
			 "(no hf-burst, hf-rand or hf-jitter)", e->name);
	else if (pm_attr__flag(&e->attr, PM_ATTR_FREQ))
		snprintf(why, size, "%s: the strobe takes no frequency mode", e->name);
	else if (!e->attr.sample_period || 2 * s >= e->attr.sample_period)
		snprintf(why, size, "%s: the strobe needs hf-period below half the "
			 "period (its long period is the rest)", e->name);
}

int pm_hf_mode__plan(const struct pm_evspec_list *l, enum pm_hf_mode want,
		     const struct pm_hf_env *env, struct pm_hf_plan *plan,
		     struct pm_error *err)
{
	bool has_hf = false, kernel_ok = true, burst_ok = true, strobe_ok = true;
	char why_burst[256] = "", why_kernel[320] = "", why_strobe[256] = "";
	const struct pm_evspec_event *first_hf = NULL;
	struct pm_hf_probe probe;
	uint32_t ptype;
	uint64_t pconfig;
	size_t i;

	memset(plan, 0, sizeof(*plan));
	for (i = 0; i < l->nr; i++) {
		const struct pm_evspec_event *e = &l->ev[i];

		if (!e->attr.hf_sample_period)
			continue;
		has_hf = true;
		if (!first_hf)
			first_hf = e;
		if ((e->hf_burst > 1 || e->hf_jitter) && kernel_ok) {
			kernel_ok = false;
			snprintf(why_kernel, sizeof(why_kernel),
				 "%s: hf-burst and hf-jitter have no kernel ABI", e->name);
		}
		if (e->group_leader != (int)i && burst_ok) {
			burst_ok = false;
			snprintf(why_burst, sizeof(why_burst),
				 "%s: a group member with hf-period cannot be armed alone "
				 "(put hf-period on the group leader)", e->name);
		}
		if (!e->attr.sample_period && burst_ok) {
			burst_ok = false;
			snprintf(why_burst, sizeof(why_burst), "%s does not sample", e->name);
		}
		if (strobe_ok) {
			strobe_unfit(e, why_strobe, sizeof(why_strobe));
			if (!why_strobe[0] &&
			    !strobe_pmu(env->sysfs_root, &e->attr, plan->strobe_pmu,
					sizeof(plan->strobe_pmu), &plan->strobe_field,
					&plan->strobe_mask))
				snprintf(why_strobe, sizeof(why_strobe),
					 "no PMU here has a strobe_period format (Arm's strobing patch)");
			if (!why_strobe[0] &&
			    pm_evspec_format_value(plan->strobe_mask, e->attr.hf_sample_period,
						   &pconfig))
				snprintf(why_strobe, sizeof(why_strobe),
					 "%s: hf-period does not fit %s's strobe_period", e->name,
					 plan->strobe_pmu);
			strobe_ok = !why_strobe[0];
		}
	}
	if (!has_hf) {
		plan->mode = PM_HF_NONE;
		if (want == PM_HF_KERNEL || want == PM_HF_BURST || want == PM_HF_STROBE)
			snprintf(plan->note, sizeof(plan->note),
				 "--hf-mode %s: no event has an hf-period term; recording plainly",
				 pm_hf_mode__name(want));
		return 0;
	}
	if (want == PM_HF_AUTO || want == PM_HF_KERNEL) {
		/* by behaviour: taking the 144 bytes is not alternating periods */
		if (kernel_ok && env->probe_kernel) {
			pm_hf_probe__event_for(first_hf->attr.type, first_hf->attr.config,
					       &ptype, &pconfig);
			pm_hf_probe__kernel(ptype, pconfig, &probe);
			if (probe.verdict != PM_HF_PRESENT) {
				kernel_ok = false;
				snprintf(why_kernel, sizeof(why_kernel), "%s", probe.why);
			}
		} else if (kernel_ok) {
			kernel_ok = false;
			snprintf(why_kernel, sizeof(why_kernel),
				 "the kernel's hf ABI is not probed for a --sysfs tree");
		}
		if (want == PM_HF_KERNEL && !kernel_ok)
			return pm_error__fmt(err, PM_EUSAGE,
					     "--hf-mode kernel: %s; use --hf-mode burst (or auto)",
					     why_kernel);
		if (kernel_ok) {
			plan->mode = PM_HF_KERNEL;
			return 0;
		}
	}
	if (want == PM_HF_AUTO || want == PM_HF_STROBE) {
		if (want == PM_HF_STROBE && !strobe_ok)
			return pm_error__fmt(err, PM_EUSAGE, "--hf-mode strobe: %s", why_strobe);
		if (strobe_ok) {
			plan->mode = PM_HF_STROBE;
			snprintf(plan->note, sizeof(plan->note),
				 "hf mode: strobe (%s's format/strobe_period%s%s)", plan->strobe_pmu,
				 want == PM_HF_AUTO ? "; " : "", want == PM_HF_AUTO ? why_kernel : "");
			return 0;
		}
	}
	memset(plan->strobe_pmu, 0, sizeof(plan->strobe_pmu));
	if (want == PM_HF_AUTO || want == PM_HF_BURST) {
		if (want == PM_HF_BURST && !burst_ok)
			return pm_error__fmt(err, PM_EUSAGE, "--hf-mode burst: %s", why_burst);
		if (burst_ok) {
			plan->mode = PM_HF_BURST;
			if (want == PM_HF_AUTO)
				snprintf(plan->note, sizeof(plan->note), "hf mode: burst (%s)",
					 why_kernel);
			return 0;
		}
		snprintf(plan->note, sizeof(plan->note), "hf mode: fixed (burst impossible: %s)",
			 why_burst);
		plan->mode = PM_HF_FIXED;
		return 0;
	}
	plan->mode = want;
	return 0;
}

int pm_hf_plan__strobe_attr(const struct pm_hf_plan *plan, struct pm_attr *a,
			    struct pm_error *err)
{
	uint64_t s = a->hf_sample_period, bits, *field;

	field = plan->strobe_field == 0 ? &a->config :
		plan->strobe_field == 1 ? &a->config1 :
		plan->strobe_field == 2 ? &a->config2 : &a->config3;
	if (pm_evspec_format_value(plan->strobe_mask, s, &bits))
		return pm_error__fmt(err, PM_EUSAGE,
				     "hf-period %llu does not fit %s's strobe_period field",
				     (unsigned long long)s, plan->strobe_pmu);
	*field = (*field & ~plan->strobe_mask) | bits;
	a->sample_period -= s;
	a->hf_sample_period = 0;
	a->hf_sample_rand = 0;
	a->size = PM_ATTR_SIZE_VER7;
	return 0;
}
