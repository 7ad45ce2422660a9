/* SPDX-License-Identifier: GPL-2.0 */
/* Internals of the unwinder, shared by lib/unwind's files only. */
#ifndef PMPROF_UNWIND_INTERNAL_H
#define PMPROF_UNWIND_INTERNAL_H

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "pmprof/keymap.h"
#include "pmprof/unwind.h"

/*
 * Where files are placed for libdwfl: from here up, one slot per file.
 * No process of either architecture maps anything there (x86-64 user
 * space ends at 2^47, arm64's at 2^52; the kernel's starts at 2^64 -
 * 2^47 and above), so a value in a slot is never a real address.
 */
#define UW_PLACE_BASE	0x4000000000000000ULL
#define UW_PLACE_ALIGN	(1ULL << 32)

/* Registers libdwfl keeps for a frame, at most (arm64's 97). */
#define UW_MAX_REGS 128

/* A PT_LOAD segment of a reported file, for reads outside the stack. */
struct uw_load {
	uint64_t vaddr, filesz, offset;
};

/* One ELF file reported to libdwfl, for every process that maps it. */
struct uw_module {
	struct pm_dso *ref;		/* a reference */
	uint64_t bias;			/* placed address - ELF address */
	uint64_t lo, hi;		/* the placed range reported */
	Dwfl_Module *mod;
	char *path;			/* what was opened ("[vdso]": memory) */
	void *image;			/* the bytes of an in-memory file */
	Elf *elf;			/* handed to libdwfl by find_elf */
	int fd;				/* likewise (-1: in memory) */
	bool handed;			/* libdwfl owns elf and fd now */
	bool has_eh_frame;		/* then no debug file for .debug_frame */
	struct uw_load *loads;
	size_t nr_loads;
	/* the bias of the sample's latest value in an executable mapping
	 * of the file, when exec_sample is the sample's number */
	uint64_t exec_bias, exec_sample;
	/* for the memo: what in->one_bias said for these maps */
	uint64_t bias_version;
	bool one_bias;
};

/* The files of one architecture: a Dwfl and what was reported to it. */
struct uw_space {
	uint16_t machine;
	bool big_endian;
	Dwfl *dwfl;
	struct pm_keymap by_dso;	/* dso pointer -> struct uw_module; one
					   without mod could not be reported */
	struct uw_module **by_addr;	/* reported ones, sorted by lo */
	size_t nr_addr, alloc_addr;
	uint64_t next_place;
	struct pm_keymap rules;		/* placed pc -> struct uw_frame_rule */
	size_t nr_rules;
};

/* How libdw says a register of the caller is found (rules.c). */
enum uw_rule_kind {
	UW_RULE_SAME,		/* the callee's value, if it has one */
	UW_RULE_AT_CFA,		/* the word at CFA + value */
	UW_RULE_CFA_PLUS,	/* CFA + value itself */
	UW_RULE_REGISTER,	/* the callee's register `value` */
};

struct uw_reg_rule {
	unsigned int regno;
	enum uw_rule_kind kind;
	uint64_t value;
};

/*
 * libdw's answer for one placed pc. Not plain: a CFA or a register given
 * by a DWARF expression, or no CFI there; libdwfl unwinds such a sample.
 * Registers without a rule here end up unset (undefined, or libdw
 * refused them), as in libdwfl.
 */
struct uw_frame_rule {
	bool plain;
	bool no_cfi;		/* neither .eh_frame nor .debug_frame has pc */
	bool signal;		/* the CIE's 'S': a signal frame */
	bool ra_undefined;	/* the return address is undefined: the end */
	bool cfa_ok;		/* CFA = cfa_reg + cfa_off; false: none */
	unsigned int ra;	/* the return address register */
	uint64_t cfa_reg, cfa_off;
	size_t nr;
	struct uw_reg_rule regs[];	/* by register number */
};

/* A file the sample's process maps, as values were moved into it. */
struct uw_moved {
	const struct uw_module *m;
	uint64_t runtime_bias;		/* runtime address - ELF address */
};

/* A mapping of the sample's process and the module of its file. */
struct uw_seen {
	struct pm_unwind_map map;
	struct uw_module *m;		/* NULL: not a file to move into */
	bool hole;			/* map is a range nothing maps */
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
	struct uw_moved moved[32];	/* most recent first */
	size_t nr_moved;
	/* files frames were moved back from (by an executable mapping's
	 * bias), for the memo; odd: one was not */
	const struct uw_module *framed[8];
	size_t nr_framed;
	bool framed_odd;
	struct uw_seen seen[16];	/* mappings (and holes) found for this sample */
	size_t nr_seen, next_seen, last_seen;
	bool limit;
	bool failed;
	struct pm_error err;
};

/* ---- the chain memo (memo.c) ---- */

/* An input the cached unwinder read: a sampled register or a stack word. */
struct uw_input {
	bool stack;		/* a stack word at offset `at` from the sp;
				   else perf register `at` */
	bool used;		/* the unwind depended on its value */
	uint32_t at;
	uint64_t value;
};

#define UW_TAPE_MAX 512

/* What the sample being unwound on cached rules read, while recorded. */
struct uw_tape {
	bool on;
	bool full;		/* an input went unrecorded: no memo */
	size_t nr;
	struct uw_input v[UW_TAPE_MAX];
};

struct pm_unwinder {
	struct uw_space *spaces[2];	/* by machine and byte order */
	size_t nr_spaces;
	struct uw_current cur;
	uint64_t sample_no;		/* counts pm_unwinder__unwind() calls */
	struct uw_tape tape;
	struct pm_keymap memo;		/* struct uw_memo_key -> entries */
	size_t memo_bytes;
	bool no_memo;			/* pm_unwinder__set_memo(u, false) */
	uint64_t seen_version;		/* cur.seen holds for these maps */
	struct pm_unwind_stats stats;
	enum pm_unwind_mode mode;
	char mismatch[256];		/* the first, in PM_UNWIND_CHECK mode */
	/* ELF headers naming a machine, for libdwfl's backend choice */
	struct uw_arch_elf {
		uint16_t machine;
		bool big_endian;
		unsigned char ehdr[64];
		Elf *elf;
	} arch[2];
	size_t nr_arch;
};

/* ---- registers (regs.c) ---- */

/* arm64's perf registers for the sp and the pc. */
#define PM_UW_ARM64_SP 31
#define PM_UW_ARM64_PC 32

/* The perf register of x86-64 DWARF register 0..16. */
unsigned int pm_uw_x86_64_perf_reg(unsigned int dwarf);

/* The value of perf register `idx` in a sample: true and *val, or false. */
bool pm_uw_reg(const struct pm_regs *regs, unsigned int idx, uint64_t *val);
/* The sampled pc and sp: false if the sample lacks either. */
bool pm_uw_pc_sp(const struct pm_unwind_input *in, uint64_t *pc,
		 uint64_t *sp);
/* Hand the sample's registers, each moved by pm_uw_place(), to libdwfl. */
bool pm_uw_set_registers(struct pm_unwinder *u, Dwfl_Thread *thread);
/* A word of the stack bytes at addr (the stack starts at sp). */
bool pm_uw_stack_word(const struct pm_unwind_input *in, uint64_t sp,
		      uint64_t addr, uint64_t *val);

/* ---- memory (unwind.c) ---- */

/* A word of the sample's memory as libdwfl's memory_read gets it. */
bool pm_uw_memory_read(struct pm_unwinder *u, uint64_t addr, uint64_t *val);

/* ---- cached frame rules (rules.c) ---- */

/* Unwind u->cur's sample on cached rules into u->cur.frames; false:
 * libdwfl must unwind it (u->cur is then to be started afresh). */
bool pm_uw_unwind_cached(struct pm_unwinder *u);
void pm_uw_free_rules(struct uw_space *sp);

/* An input read: its index on the tape, or -1 (no tape, or it is full). */
int pm_uw_tape_add(struct pm_unwinder *u, bool stack, uint32_t at,
		   uint64_t value);
/* The unwind depends on input src's value (-1: on none). */
static inline void pm_uw_tape_use(struct pm_unwinder *u, int src)
{
	if (src >= 0)
		u->tape.v[src].used = true;
}
/* u->cur's sample as an earlier one with the same inputs unwound: true
 * and u->cur's frames, limit, failed and err set; false: unwind it. */
bool pm_uw_memo_find(struct pm_unwinder *u);
/* Start the tape for u->cur's sample. */
void pm_uw_memo_record(struct pm_unwinder *u);
/* Keep u->cur's result for the inputs on the tape, and stop it. */
void pm_uw_memo_add(struct pm_unwinder *u);
void pm_uw_memo_free(struct pm_unwinder *u);

/* ---- modules and places (modules.c) ---- */

extern const Dwfl_Callbacks pm_uw_dwfl_callbacks;

/* The module of a file, reported on first use; NULL if it cannot be. */
struct uw_module *pm_uw_module(struct pm_unwinder *u, struct uw_space *sp,
			       struct pm_dso *dso);
/* The reported module whose placed range holds addr, or NULL. */
struct uw_module *pm_uw_module_at(const struct uw_space *sp, uint64_t addr);
/* A word of a reported file's contents at placed address addr. */
bool pm_uw_file_word(const struct uw_module *m, uint64_t addr, bool big,
		     uint64_t *val);
void pm_uw_free_modules(struct uw_space *sp);

/*
 * A value of the sample's process moved to where libdwfl sees its file:
 * an address in a mapping of an ELF file becomes that file's placed
 * address (remembered, to move frames back); anything else stays.
 */
uint64_t pm_uw_place(struct pm_unwinder *u, uint64_t v);
/* A frame's address moved back into the sample's process. */
uint64_t pm_uw_unplace(struct pm_unwinder *u, uint64_t v);

#endif
