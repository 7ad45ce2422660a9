/* SPDX-License-Identifier: GPL-2.0 */
/* Internals of the unwinder, shared by lib/unwind's files only. */
#ifndef PMPROF_UNWIND_INTERNAL_H
#define PMPROF_UNWIND_INTERNAL_H

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "pmprof/unwind.h"

/* A PT_LOAD segment of a reported file, for reads outside the stack. */
struct uw_load {
	uint64_t vaddr, filesz, offset;
};

/* One ELF file reported to libdwfl in one address space. */
struct uw_module {
	struct pm_dso *dso;		/* a reference */
	uint64_t bias;			/* runtime address - ELF address */
	uint64_t lo, hi;		/* the runtime range reported */
	Dwfl_Module *mod;
	char *path;			/* what was opened ("[vdso]": memory) */
	void *image;			/* the bytes of an in-memory file */
	Elf *elf;			/* handed to libdwfl by find_elf */
	int fd;				/* likewise (-1: in memory) */
	bool handed;			/* libdwfl owns elf and fd now */
	struct uw_load *loads;
	size_t nr_loads;
};

/* (dso, bias) pairs that could not be reported: not tried again. */
struct uw_bad {
	const struct pm_dso *dso;
	uint64_t bias;
};

/* One address space: a Dwfl with the files mapped into it. */
struct uw_space {
	const void *key;
	uint16_t machine;
	Dwfl *dwfl;
	struct uw_module **mods;	/* sorted by lo, never overlapping */
	size_t nr_mods, alloc_mods;
	struct uw_bad *bad;
	size_t nr_bad, alloc_bad;
	uint64_t used;			/* LRU clock */
};

/* What the sample being unwound needs inside libdwfl's callbacks. */
struct uw_current {
	struct uw_space *space;
	pm_unwind_find_map_fn find_map;
	void *arg;
	const struct pm_unwind_input *in;
	uint64_t sp;			/* where the stack bytes start */
	struct pm_unwind_frame *frames;
	size_t nr, max;
	bool stale;			/* the space's maps moved: rebuild */
	bool limit;
	bool failed;
	struct pm_error err;
};

struct pm_unwinder {
	struct pm_unwind_opts opts;
	struct uw_space **spaces;
	size_t nr_spaces;
	uint64_t clock;
	struct uw_current cur;
	struct pm_unwind_stats stats;
	/* ELF headers naming a machine, for libdwfl's backend choice */
	struct uw_arch_elf {
		uint16_t machine;
		bool big_endian;
		unsigned char ehdr[64];
		Elf *elf;
	} arch[4];
	size_t nr_arch;
};

/* ---- registers (regs.c) ---- */

/* The value of perf register `idx` in a sample: true and *val, or false. */
bool pm_uw_reg(const struct pm_regs *regs, unsigned int idx, uint64_t *val);
/* The sampled pc and sp: false if the sample lacks either. */
bool pm_uw_pc_sp(const struct pm_unwind_input *in, uint64_t *pc,
		 uint64_t *sp);
/* Hand the sample's registers to libdwfl (set_initial_registers). */
bool pm_uw_set_registers(Dwfl_Thread *thread,
			 const struct pm_unwind_input *in);
/* A word of the stack bytes at addr (the stack starts at sp). */
bool pm_uw_stack_word(const struct pm_unwind_input *in, uint64_t sp,
		      uint64_t addr, uint64_t *val);

/* ---- modules (modules.c) ---- */

extern const Dwfl_Callbacks pm_uw_dwfl_callbacks;

/*
 * Make sure the file mapped at addr is reported (if it is an ELF file the
 * unwinder can open). Returns 0, or -1 when the space's modules no
 * longer agree with its maps (cur->stale is then set).
 */
int pm_uw_ensure_module(struct pm_unwinder *u, uint64_t addr);
/* A word of a reported file's contents at runtime address addr. */
bool pm_uw_file_word(struct pm_unwinder *u, uint64_t addr, uint64_t *val);
/* Free a space's modules (after dwfl_end). */
void pm_uw_free_modules(struct uw_space *sp);

#endif
