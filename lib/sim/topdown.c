// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator's pipeline slots: a model with "slots" gives every cycle
 * that many issue slots, and every call splits its slots into four
 * exclusive parts, the top-down level 1 (frontend bound, backend bound,
 * bad speculation, retiring) drawn from the function's "topdown". The
 * events the vendors define over slots are then exact sums of those
 * parts, so the truth of every top-down metric is known:
 *
 *   slots                    all slots (Intel's slots event)
 *   stall_slot_frontend      frontend (Arm; Intel topdown-fe-bound; AMD
 *                            de_no_dispatch_per_slot.no_ops_from_frontend)
 *   stall_slot_backend       backend (topdown-be-bound; AMD backend_stalls)
 *   stall_slot               frontend + backend
 *   op_spec                  issued: retiring + bad speculation (AMD
 *                            de_src_op_disp.all)
 *   op_retired               retiring (topdown-retiring; AMD ex_ret_ops)
 *   topdown-bad-spec         bad speculation
 *   stall_frontend, stall_backend
 *                            cycles: the frontend and backend fractions
 *                            of the call's cycles (whole cycles stall)
 */
#include <math.h>
#include <string.h>

#include "pmprof/util.h"
#include "sim-int.h"

const char *const pm_sim_td_stream_names[PM_SIM_TDS__NR] = {
	[PM_SIM_TDS_SLOTS] = "slots",
	[PM_SIM_TDS_FE] = "stall_slot_frontend",
	[PM_SIM_TDS_BE] = "stall_slot_backend",
	[PM_SIM_TDS_STALL] = "stall_slot",
	[PM_SIM_TDS_SPEC] = "op_spec",
	[PM_SIM_TDS_RETIRED] = "op_retired",
	[PM_SIM_TDS_BAD] = "topdown-bad-spec",
	[PM_SIM_TDS_STALL_FE_CYCLES] = "stall_frontend",
	[PM_SIM_TDS_STALL_BE_CYCLES] = "stall_backend",
};

bool pm_sim_td__is_stream(const char *name)
{
	size_t i;

	for (i = 0; i < PM_SIM_TDS__NR; i++)
		if (!strcmp(name, pm_sim_td_stream_names[i]))
			return true;
	return false;
}

static void set(const struct pm_sim_model *m, uint64_t *total,
		enum pm_sim_td_stream s, uint64_t v)
{
	if (m->td_stream[s] >= 0)
		total[m->td_stream[s]] = v;
}

/*
 * f NULL: an after-interrupt episode, whose cycles wait for what the
 * handler evicted: every slot backend bound. Draws nothing then, and
 * nothing at all for a model without slots, so that models without
 * top-down keep their random sequences.
 */
void pm_sim_td__call(const struct pm_sim_model *m, const struct pm_sim_func *f,
		     uint64_t cycles, uint64_t *rng, uint64_t *total)
{
	double fr[3] = { 0, f ? 0 : 1, 0 }, sum;
	uint64_t all, part[3] = { 0 }, ret;
	size_t k;

	if (!m->slots)
		return;
	for (k = 0; f && f->has_topdown && k < 3; k++)
		fr[k] = pm_sim_dist__draw(&f->topdown[k], rng);
	sum = fr[0] + fr[1] + fr[2];
	for (k = 0; sum > 1 && k < 3; k++)	/* a draw past the whole */
		fr[k] /= sum;
	all = cycles * m->slots;
	for (k = 0; k < 3; k++) {
		uint64_t left = all - (k ? part[0] : 0) - (k > 1 ? part[1] : 0);

		part[k] = f ? pm_sim__round((double)all * fr[k], rng)
			    : (uint64_t)llround((double)all * fr[k]);
		if (part[k] > left)
			part[k] = left;
	}
	ret = all - part[0] - part[1] - part[2];
	set(m, total, PM_SIM_TDS_SLOTS, all);
	set(m, total, PM_SIM_TDS_FE, part[0]);
	set(m, total, PM_SIM_TDS_BE, part[1]);
	set(m, total, PM_SIM_TDS_STALL, part[0] + part[1]);
	set(m, total, PM_SIM_TDS_SPEC, ret + part[2]);
	set(m, total, PM_SIM_TDS_RETIRED, ret);
	set(m, total, PM_SIM_TDS_BAD, part[2]);
	set(m, total, PM_SIM_TDS_STALL_FE_CYCLES,
	    f ? pm_sim__round((double)cycles * fr[0], rng) : 0);
	set(m, total, PM_SIM_TDS_STALL_BE_CYCLES,
	    f ? pm_sim__round((double)cycles * fr[1], rng) : cycles);
}
