// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the simulator's JSON workload model loader
 * (pm_sim_model__parse). Besides "no crash, no leak", a model it accepts
 * must be one the simulator can run as sim.h describes it: at least one
 * function, unique names that are not the driver's, streams 0 and 1
 * cycles and instructions and every stream named once, the documented
 * ranges (sim.h's PM_SIM_MAX_*), and distributions whose parameters and
 * draws are numbers from 0 to the field's maximum.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/sim.h"

static void check_dist(const struct pm_sim_dist *d, double max)
{
	uint64_t rng = 1;
	int i;

	if (!(d->a >= 0) || !(d->b >= 0) || !(d->a <= max) || !(d->b <= max))
		abort();
	switch (d->kind) {
	case PM_SIM_CONST:
	case PM_SIM_NORMAL:
		break;
	case PM_SIM_LOGNORMAL:
		if (!(d->a > 0))
			abort();
		break;
	case PM_SIM_UNIFORM:
		if (d->b < d->a)
			abort();
		break;
	default:
		abort();
	}
	if (isnan(pm_sim_dist__mean(d)))
		abort();
	for (i = 0; i < 4; i++) {
		double v = pm_sim_dist__draw(d, &rng);

		if (!(v >= 0 && v <= max))	/* negative, NaN, inf, too big */
			abort();
	}
}

static void check_model(const struct pm_sim_model *m)
{
	size_t i, j, s;

	if (!m->name || !m->name[0] || strchr(m->name, '/') || !m->arch ||
	    !m->cpu || !m->description)
		abort();
	if (!(m->ghz >= 0.01 && m->ghz <= 100) || m->iterations < 1 ||
	    m->threads < 1 || m->threads > 256 || m->cpus < 1 || m->cpus > 256 ||
	    !(m->timeslice_ms >= 0.01 && m->timeslice_ms <= PM_SIM_MAX_TIMESLICE_MS))
		abort();
	if (m->nest_min < 1 || m->nest_min > m->nest_max || m->nest_max > 3)
		abort();
	if (!(m->irq_cycles >= 0 && m->irq_cycles <= PM_SIM_MAX_IRQ_CYCLES))
		abort();
	check_dist(&m->skid, PM_SIM_MAX_SKID);
	if (m->nr_streams < 2 || strcmp(m->streams[PM_SIM_CYCLES], "cycles") ||
	    strcmp(m->streams[PM_SIM_INSTRUCTIONS], "instructions"))
		abort();
	for (s = 0; s < m->nr_streams; s++)
		if (pm_sim_model__stream(m, m->streams[s]) != (int)s)
			abort();
	if (!m->nr_funcs)
		abort();
	for (i = 0; i < m->nr_funcs; i++) {
		const struct pm_sim_func *f = &m->funcs[i];

		if (!f->name || !f->name[0] || !strcmp(f->name, "main") ||
		    !strncmp(f->name, "nest_", 5) || !strcmp(f->name, "run_one") ||
		    !strcmp(f->name, "run_behaviours"))
			abort();
		for (j = 0; j < i; j++)
			if (!strcmp(f->name, m->funcs[j].name))
				abort();
		if (f->size < 16 || f->calls < 1)
			abort();
		check_dist(&f->instructions, PM_SIM_MAX_INSTRUCTIONS);
		check_dist(&f->cpi, PM_SIM_MAX_CPI);
		if (pm_sim_dist__mean(&f->instructions) < 1 ||
		    !(pm_sim_dist__mean(&f->cpi) > 0))
			abort();
		for (s = 0; s < m->nr_streams; s++) {
			if (f->has_rate[s]) {
				if (s == PM_SIM_CYCLES || s == PM_SIM_INSTRUCTIONS)
					abort();
				check_dist(&f->per_ki[s], PM_SIM_MAX_PER_KI);
			}
			if (!(f->after_irq[s] >= 0 && f->after_irq[s] <= PM_SIM_MAX_EVENTS))
				abort();
		}
		if (f->after_irq[PM_SIM_INSTRUCTIONS] != 0)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pm_sim_model *m = NULL;
	struct pm_error err;
	int ret;

	memset(&err, 0, sizeof(err));
	ret = pm_sim_model__parse(&m, (const char *)data, size, "fuzz", &err);
	if (ret) {
		/* Refused: no model, and a message that says why. */
		if (m || ret > 0 || !err.msg[0])
			abort();
		return 0;
	}
	if (!m)
		abort();
	check_model(m);
	pm_sim_model__delete(m);
	return 0;
}
