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

#endif
