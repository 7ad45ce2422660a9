/* SPDX-License-Identifier: GPL-2.0 */
/* Internals of lib/sim shared between its files. */
#ifndef PMPROF_SIM_INT_H
#define PMPROF_SIM_INT_H

#include "pmprof/outfile.h"
#include "pmprof/sim.h"

/* ---- outputs.c: the run's files, committed together ---- */

struct pm_sim_outputs {
	char *elf_path;			/* absolute; the result takes it */
	struct pm_outfile *elf, *data, *truth;	/* truth: NULL if none */
};

/*
 * Derive the ELF's path, refuse collisions (two outputs at one file, an
 * output over the model's file: -PM_EUSAGE) and a non-ELF at the ELF's
 * path, then open every output (partial files until commit).
 */
int pm_sim_outputs__open(struct pm_sim_outputs *out,
			 const struct pm_sim_opts *o, const char *model_name,
			 struct pm_error *err);
/* Rename every output into place: the ELF, the data, the truth. */
int pm_sim_outputs__commit(struct pm_sim_outputs *out, struct pm_error *err);
/* Remove every partial output. */
void pm_sim_outputs__abort(struct pm_sim_outputs *out);

/* ---- model.c, topdown.c: the CPU's counts ---- */

/* x rounded up or down with the probability of its fraction (unbiased
 * counts). */
uint64_t pm_sim__round(double x, uint64_t *rng);
/* A name that is one of the top-down streams (after canonical aliases). */
bool pm_sim_td__is_stream(const char *name);
/* A call of `cycles` cycles of f: its top-down streams' totals into total
 * (by model stream). Nothing when the model has no slots. */
void pm_sim_td__call(const struct pm_sim_model *m, const struct pm_sim_func *f,
		     uint64_t cycles, uint64_t *rng, uint64_t *total);

#endif
