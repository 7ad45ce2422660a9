// SPDX-License-Identifier: GPL-2.0
/*
 * Sampled registers to libdwfl's. A sample's regs_user holds the
 * registers whose bits are set in the attr's sample_regs_user, in bit
 * order, numbered as the kernel's perf_regs.h for the architecture; the
 * unwinder wants them by DWARF register number.
 *
 *   x86-64 perf:  AX BX CX DX SI DI BP SP IP FLAGS CS SS DS ES FS GS R8..R15
 *                 0  1  2  3  4  5  6  7  8  9     ...          16..23
 *   x86-64 DWARF: RAX RDX RCX RBX RSI RDI RBP RSP R8..R15 RIP(return address)
 *                 0   1   2   3   4   5   6   7   8..15   16
 *   arm64 perf:   X0..X30 SP PC = 0..30 31 32; DWARF: X0..X30 SP = 0..31,
 *                 the pc is set apart (libdwfl would take it from x30).
 */
#include <string.h>
#include <sys/utsname.h>

#include "pmprof/bytes.h"
#include "unwind/internal.h"

/* PERF_SAMPLE_REGS_ABI_64: the registers of a 64-bit task. */
#define REGS_ABI_64 2

#define X86_IP 8
#define X86_SP 7
#define ARM64_SP PM_UW_ARM64_SP
#define ARM64_PC PM_UW_ARM64_PC

/* perf register of each x86-64 DWARF register 0..16. */
static const unsigned char x86_64_dwarf[17] = {
	0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, X86_IP,
};

unsigned int pm_uw_x86_64_perf_reg(unsigned int dwarf)
{
	return dwarf < sizeof(x86_64_dwarf) ? x86_64_dwarf[dwarf] : 64;
}

uint16_t pm_unwind__machine(const char *arch)
{
	struct utsname u;

	if (!arch) {
		if (uname(&u))
			return 0;
		arch = u.machine;
	}
	if (!strcmp(arch, "x86_64") || !strcmp(arch, "amd64"))
		return PM_EM_X86_64;
	if (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"))
		return PM_EM_AARCH64;
	return 0;
}

bool pm_uw_reg(const struct pm_regs *regs, unsigned int idx, uint64_t *val)
{
	uint64_t below;
	unsigned int pos;

	if (!regs || !regs->regs || idx >= 64 || !(regs->mask >> idx & 1))
		return false;
	below = idx ? regs->mask & ((1ULL << idx) - 1) : 0;
	pos = (unsigned int)__builtin_popcountll(below);
	if (pos >= regs->nr)
		return false;
	*val = regs->regs[pos];
	return true;
}

bool pm_uw_pc_sp(const struct pm_unwind_input *in, uint64_t *pc,
		 uint64_t *sp)
{
	if (!in->regs || in->regs->abi != REGS_ABI_64)
		return false;
	switch (in->machine) {
	case PM_EM_X86_64:
		return pm_uw_reg(in->regs, X86_IP, pc) &&
		       pm_uw_reg(in->regs, X86_SP, sp);
	case PM_EM_AARCH64:
		return pm_uw_reg(in->regs, ARM64_PC, pc) &&
		       pm_uw_reg(in->regs, ARM64_SP, sp);
	default:
		return false;
	}
}

/*
 * Registers the sample lacks stay unset: the CFI may not need them. Each
 * value is moved to where libdwfl sees the file it points into.
 */
static bool set_one(struct pm_unwinder *u, Dwfl_Thread *thread, int dwarf,
		    unsigned int idx)
{
	Dwarf_Word w;
	uint64_t v;

	if (!pm_uw_reg(u->cur.in->regs, idx, &v))
		return true;
	w = pm_uw_place(u, v);
	return dwfl_thread_state_registers(thread, dwarf, 1, &w);
}

bool pm_uw_set_registers(struct pm_unwinder *u, Dwfl_Thread *thread)
{
	const struct pm_unwind_input *in = u->cur.in;
	uint64_t pc;

	switch (in->machine) {
	case PM_EM_X86_64:
		for (int i = 0; i < 17; i++)
			if (!set_one(u, thread, i, x86_64_dwarf[i]))
				return false;
		return true;
	case PM_EM_AARCH64:
		for (int i = 0; i <= ARM64_SP; i++)
			if (!set_one(u, thread, i, (unsigned int)i))
				return false;
		if (!pm_uw_reg(in->regs, ARM64_PC, &pc))
			return false;
		dwfl_thread_state_register_pc(thread, pm_uw_place(u, pc));
		return true;
	default:
		return false;
	}
}

bool pm_uw_stack_word(const struct pm_unwind_input *in, uint64_t sp,
		      uint64_t addr, uint64_t *val)
{
	uint64_t off;

	if (addr < sp || addr - sp > in->stack_size ||
	    in->stack_size - (addr - sp) < 8)
		return false;
	off = addr - sp;
	*val = pm_load64(in->stack + off, in->big_endian != PM_HOST_BIG_ENDIAN);
	return true;
}
