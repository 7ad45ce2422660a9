// SPDX-License-Identifier: GPL-2.0
/*
 * A measured metric beside its truth (`pmprof sim --compare`, the accuracy
 * study): the error, where the truth is large enough for the recording to
 * measure it (pmprof/sim.h).
 */
#include <math.h>
#include <stdint.h>

#include "pmprof/metrics.h"
#include "pmprof/sim.h"

void pm_sim__compare(const struct pm_metrics *m, size_t func, double measured,
		     bool has_measured, double truth, bool has_truth,
		     const char *name, struct pm_sim_compared *out)
{
	size_t num, den;
	double scale;

	out->has_measured = has_measured;
	out->measured = measured;
	out->has_truth = has_truth;
	out->truth = truth;
	out->measurable = true;
	out->expected = NAN;
	if (has_truth && func != SIZE_MAX &&
	    !pm_metrics__metric_ratio(m, name, &num, &den, &scale)) {
		const struct pm_metrics_func *f = pm_metrics__func(m, func);

		out->expected = truth / scale * (double)f->sums[den];
		out->measurable = out->expected >= PM_SIM_MEASURABLE;
	}
	out->has_error = has_measured && has_truth && truth != 0 && out->measurable;
	out->error = out->has_error ? 100.0 * (measured - truth) / truth : NAN;
}
