/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Disassembly of an address range of an ELF file, for any architecture
 * on any host, by GNU objdump as perf annotate does it.
 *
 * Why objdump and not libopcodes: pmprof is GPL-2.0 and libopcodes
 * (binutils) GPL-3.0-or-later, which a GPL-2.0-only program may not link;
 * its API (init_disassemble_info, disassembler()) also changes between
 * binutils releases. Debian's binutils-multiarch makes /usr/bin/objdump
 * read every architecture binutils knows, Alpha included, and its text is
 * by definition what `objdump -d` prints. Without it the target's own
 * objdump (alpha-linux-gnu-objdump, ...) is tried.
 *
 *	struct pm_disasm d;
 *
 *	if (pm_disasm__range(&d, path, &info, start, end, &opts, &err))
 *		... err says why (no objdump, not an ELF file, ...) ...
 *	for (i = 0; i < d.nr; i++)
 *		printf("%" PRIx64 ": %s\n", d.insns[i].addr, d.insns[i].text);
 *	pm_disasm__release(&d);
 */
#ifndef PMPROF_DISASM_H
#define PMPROF_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/dso.h"

struct pm_error;

struct pm_insn {
	uint64_t addr;		/* the file's own (ELF virtual) address */
	uint64_t size;		/* to the next instruction; the last one's
				   to the range's end */
	char *text;		/* as objdump prints it after "addr:\t" */
};

struct pm_disasm {
	struct pm_insn *insns;	/* in address order */
	size_t nr;
	char *tool;		/* the objdump that disassembled */
};

struct pm_disasm_opts {
	size_t sz;		/* sizeof(struct pm_disasm_opts); 0: this size */
	const char *objdump;	/* only this program; NULL: "objdump", then
				   the target's (pm_disasm__target_objdump) */
	bool no_demangle;	/* names in operands as in the file (no -C) */
};

/*
 * Disassemble [start, end) of the ELF file at path, whose machine and
 * byte order info gives (to find the target's objdump): objdump -d -z
 * --no-show-raw-insn (-C) --start-address start --stop-address end.
 * 0 and d filled, or a negative code and err: -ENOENT when no objdump
 * could be run, -PM_EFORMAT when objdump failed (its message in err).
 */
int pm_disasm__range(struct pm_disasm *d, const char *path,
		     const struct pm_elf_info *info, uint64_t start,
		     uint64_t end, const struct pm_disasm_opts *opts,
		     struct pm_error *err);
void pm_disasm__release(struct pm_disasm *d);

/* The instruction holding addr (binary search), or NULL. */
const struct pm_insn *pm_disasm__find(const struct pm_disasm *d, uint64_t addr);

/*
 * The objdump of Debian's cross binutils for a machine ("alpha-linux-gnu-
 * objdump" for EM_ALPHA), written into buf; NULL when there is none.
 */
const char *pm_disasm__target_objdump(const struct pm_elf_info *info,
				      char *buf, size_t size);

/*
 * Parse objdump -d output: every "ADDR:\tTEXT" line inside [start, end)
 * becomes an instruction (for tests and fuzzing; pm_disasm__range uses
 * it). Returns 0, or -PM_EFORMAT when an address goes backwards.
 */
int pm_disasm__parse(struct pm_disasm *d, const char *out, size_t len,
		     uint64_t start, uint64_t end, struct pm_error *err);

#endif
