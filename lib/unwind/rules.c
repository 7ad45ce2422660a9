// SPDX-License-Identifier: GPL-2.0
/*
 * Unwinding on cached frame rules. libdw's cost is per frame: each step
 * through libdwfl finds the FDE, runs its CFI program to the pc
 * (dwarf_cfi_addrframe), asks for the rule of every register
 * (dwarf_frame_register) and evaluates each as a DWARF expression, with
 * allocations on the way. The rules depend on the pc only, and a
 * recording's samples pass the same few thousand pcs again and again; so
 * libdw's answer for a placed pc is kept, and a step whose rules are
 * plain (the CFA a register plus an offset; each register undefined,
 * unchanged, saved at CFA + N, CFA + N itself, or another register) is
 * taken here. libdw still reads and runs every CFI program: this applies
 * its results.
 *
 * A sample is unwound here only if every step is plain; otherwise
 * (a CFA or register given by a DWARF expression, a pc in no reported
 * file, no CFI where libdwfl would fall back to frame pointers) the
 * whole sample goes through libdwfl from its first frame, so a sample's
 * frames never mix the two. What is done here is what libdwfl 0.188's
 * dwfl_thread_getframes() does with libdw's rules (frame_unwind.c's
 * handle_cfi(), dwfl_frame_pc()'s activation test), step for step,
 * memory reads in the same order, so the frames are the same; the
 * PM_UNWIND_CHECK mode runs both and compares every frame.
 */
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>

#include <dwarf.h>

#include "pmprof/util.h"
#include "unwind/internal.h"

/* libdwfl's register file (ebl_frame_nregs) of each machine. */
static unsigned int frame_nregs(uint16_t machine)
{
	switch (machine) {
	case PM_EM_X86_64:
		return 17;
	case PM_EM_AARCH64:
		return 97;
	default:
		return 0;
	}
}

/* The return address register of the ABI's initial CFI (state_fetch_pc),
 * and the frame pointer. */
#define X86_64_RA 16
#define X86_64_RBP 6

enum uw_pc_state { PC_ERROR, PC_SET, PC_UNDEFINED };

/* A frame's registers as libdwfl keeps them (Dwfl_Frame), and for the
 * chain memo the input each value came from (-1: none, memo.c). */
struct uw_state {
	uint64_t regs[UW_MAX_REGS];
	int16_t src[UW_MAX_REGS];
	uint64_t set[(UW_MAX_REGS + 63) / 64];
	uint64_t pc;
	int pc_src;
	enum uw_pc_state pc_state;
	bool initial, signal;
};

static bool reg_isset(const struct uw_state *s, unsigned int r)
{
	return r < UW_MAX_REGS && (s->set[r / 64] >> (r % 64) & 1);
}

static void reg_set(struct uw_state *s, unsigned int r, uint64_t v, int src)
{
	s->set[r / 64] |= 1ULL << (r % 64);
	s->regs[r] = v;
	s->src[r] = (int16_t)src;
}

/* The input a stack word read at addr is, for the memo (memory_read
 * takes the stack bytes first; anything else is a file's, fixed). */
static int stack_src(struct pm_unwinder *u, uint64_t addr)
{
	const struct uw_current *c = &u->cur;
	uint64_t v;

	if (!u->tape.on || !pm_uw_stack_word(c->in, c->sp, addr, &v))
		return -1;
	return pm_uw_tape_add(u, true, (uint32_t)(addr - c->sp), v);
}

/* ---- libdw's rules, kept ---- */

/* One register's rule from libdw's expression for it; false: not plain. */
static bool plain_register(const Dwarf_Op *ops, size_t nops,
			   struct uw_reg_rule *out)
{
	size_t i = 0;

	if (nops == 1 && (ops[0].atom == DW_OP_regx ||
			  (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31))) {
		uint64_t r = ops[0].atom == DW_OP_regx ? ops[0].number :
			     (uint64_t)(ops[0].atom - DW_OP_reg0);

		out->kind = UW_RULE_REGISTER;
		out->value = r;
		return true;
	}
	if (!nops || ops[i++].atom != DW_OP_call_frame_cfa)
		return false;
	out->kind = UW_RULE_AT_CFA;
	out->value = 0;
	if (i < nops && ops[i].atom == DW_OP_plus_uconst)
		out->value = ops[i++].number;
	if (i < nops && ops[i].atom == DW_OP_stack_value) {
		out->kind = UW_RULE_CFA_PLUS;
		i++;
	}
	return i == nops;
}

/* The CFA rule: false when it is an expression (not plain). */
static bool plain_cfa(Dwarf_Frame *frame, struct uw_frame_rule *r)
{
	Dwarf_Op *ops;
	size_t nops;

	r->cfa_ok = false;
	if (dwarf_frame_cfa(frame, &ops, &nops))
		return true;		/* invalid: every CFA-based rule fails */
	if (!nops)
		return true;		/* undefined: likewise */
	if (nops != 1)
		return false;
	if (ops[0].atom == DW_OP_bregx) {
		r->cfa_reg = ops[0].number;
		r->cfa_off = ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		r->cfa_reg = (uint64_t)(ops[0].atom - DW_OP_breg0);
		r->cfa_off = ops[0].number;
	} else {
		return false;
	}
	r->cfa_ok = true;
	return true;
}

/* libdw's rules at the frame, as handle_cfi() would apply them. */
static struct uw_frame_rule *rule_from_frame(Dwarf_Frame *frame,
					     unsigned int nregs)
{
	struct uw_frame_rule *r;
	bool signal = false;
	int ra;

	r = pm_zalloc(sizeof(*r) + nregs * sizeof(r->regs[0]));
	ra = dwarf_frame_info(frame, NULL, NULL, &signal);
	if (ra < 0 || (unsigned int)ra >= nregs || !plain_cfa(frame, r))
		return r;		/* not plain */
	r->ra = (unsigned int)ra;
	r->signal = signal;
	for (unsigned int regno = 0; regno < nregs; regno++) {
		Dwarf_Op mem[3], *ops;
		size_t nops;
		struct uw_reg_rule *e = &r->regs[r->nr];

		if (dwarf_frame_register(frame, (int)regno, mem, &ops, &nops))
			continue;	/* libdwfl leaves it unset */
		e->regno = regno;
		if (!nops) {
			if (ops == mem) {		/* undefined */
				if (regno == r->ra)
					r->ra_undefined = true;
				continue;
			}
			if (ops)			/* libdwfl: invalid */
				continue;
			e->kind = UW_RULE_SAME;
		} else if (!plain_register(ops, nops, e)) {
			return r;		/* an expression: not plain */
		}
		r->nr++;
	}
	r->plain = true;
	return r;
}

/*
 * The rule for placed pc, computed once: from .eh_frame, else from
 * .debug_frame, as libdwfl looks; a pc without CFI gets a rule that is
 * not plain (libdwfl would try frame pointers).
 */
static const struct uw_frame_rule *rule_at(struct uw_space *sp,
					   const struct uw_module *m,
					   uint64_t pc)
{
	struct uw_frame_rule **slot, *r = NULL;
	unsigned int nregs = frame_nregs(sp->machine);
	Dwarf_CFI *cfi;
	Dwarf_Frame *frame;
	Dwarf_Addr bias;
	bool is_new;

	slot = (struct uw_frame_rule **)pm_keymap__findnew(&sp->rules, &pc,
							   sizeof(pc), &is_new);
	if (!is_new)
		return *slot;
	cfi = dwfl_module_eh_cfi(m->mod, &bias);
	if (cfi && !dwarf_cfi_addrframe(cfi, pc - bias, &frame)) {
		r = rule_from_frame(frame, nregs);
		free(frame);
	}
	if (!r) {
		cfi = dwfl_module_dwarf_cfi(m->mod, &bias);
		if (cfi && !dwarf_cfi_addrframe(cfi, pc - bias, &frame)) {
			r = rule_from_frame(frame, nregs);
			free(frame);
		}
	}
	if (!r) {
		r = pm_zalloc(sizeof(*r));
		r->no_cfi = true;
	}
	/* the keymap may have moved the slot while libdw reported files */
	slot = (struct uw_frame_rule **)pm_keymap__findnew(&sp->rules, &pc,
							   sizeof(pc), &is_new);
	*slot = r;
	sp->nr_rules++;
	return r;
}

void pm_uw_free_rules(struct uw_space *sp)
{
	for (size_t i = 0; i < sp->rules.nr; i++)
		free(sp->rules.values[i]);
	pm_keymap__release(&sp->rules);
}

/* ---- one step ---- */

enum step_result {
	STEP_DONE,		/* t is the caller's frame */
	STEP_FAILED,		/* libdwfl finds no caller: an error */
	STEP_LIBDWFL,		/* libdwfl must unwind this sample */
};

/*
 * A pc without CFI: libdwfl tries the architecture's frame-pointer
 * unwinder. x86-64's gives up at once without a frame pointer (rbp unset
 * or 0, as at a program's entry point), and the chain ends in an error;
 * anything else is libdwfl's to do.
 */
static enum step_result no_cfi(struct pm_unwinder *u, const struct uw_state *s)
{
	if (reg_isset(s, X86_64_RBP))
		pm_uw_tape_use(u, s->src[X86_64_RBP]);
	if (u->cur.in->machine == PM_EM_X86_64 &&
	    (!reg_isset(s, X86_64_RBP) || !s->regs[X86_64_RBP]))
		return STEP_FAILED;
	return STEP_LIBDWFL;
}

/* Unwind s into t with the rule at its pc. */
static enum step_result step(struct pm_unwinder *u, const struct uw_state *s,
			     struct uw_state *t, unsigned int nregs)
{
	struct uw_space *sp = u->cur.space;
	const struct uw_frame_rule *r;
	const struct uw_module *m;
	uint64_t pc = s->pc, cfa = 0;
	bool cfa_ok;

	pm_uw_tape_use(u, s->pc_src);
	if (!s->initial && !s->signal)
		pc--;
	m = pm_uw_module_at(sp, pc);
	if (!m)
		return STEP_LIBDWFL;
	r = rule_at(sp, m, pc);
	if (r->no_cfi)
		return no_cfi(u, s);
	if (!r->plain)
		return STEP_LIBDWFL;
	memset(t->set, 0, sizeof(t->set));
	t->pc_src = -1;
	t->initial = false;
	t->signal = r->signal;
	t->pc_state = r->ra_undefined ? PC_UNDEFINED : PC_ERROR;
	cfa_ok = r->cfa_ok && r->cfa_reg < nregs && reg_isset(s, (unsigned int)r->cfa_reg);
	if (cfa_ok) {
		cfa = s->regs[r->cfa_reg] + r->cfa_off;
		pm_uw_tape_use(u, s->src[r->cfa_reg]);
	}
	for (size_t i = 0; i < r->nr; i++) {
		const struct uw_reg_rule *e = &r->regs[i];
		uint64_t v;

		switch (e->kind) {
		case UW_RULE_SAME:
			if (reg_isset(s, e->regno))
				reg_set(t, e->regno, s->regs[e->regno],
					s->src[e->regno]);
			break;
		case UW_RULE_AT_CFA:
			if (cfa_ok && pm_uw_memory_read(u, cfa + e->value, &v))
				reg_set(t, e->regno, v,
					stack_src(u, cfa + e->value));
			break;
		case UW_RULE_CFA_PLUS:
			if (cfa_ok)
				reg_set(t, e->regno, cfa + e->value, -1);
			break;
		case UW_RULE_REGISTER:
			if (e->value < nregs && reg_isset(s, (unsigned int)e->value))
				reg_set(t, e->regno, s->regs[e->value],
					s->src[e->value]);
			break;
		}
	}
	if (t->pc_state == PC_ERROR) {
		if (reg_isset(t, r->ra)) {
			t->pc = t->regs[r->ra];
			t->pc_src = t->src[r->ra];
			pm_uw_tape_use(u, t->pc_src);
			t->pc_state = t->pc ? PC_SET : PC_UNDEFINED;
		} else {
			t->pc_state = PC_UNDEFINED;
		}
	}
	return STEP_DONE;
}

/* ---- the sample ---- */

static bool initial_state(struct pm_unwinder *u, struct uw_state *s)
{
	const struct pm_unwind_input *in = u->cur.in;
	uint64_t v;

	memset(s->set, 0, sizeof(s->set));
	s->initial = true;
	s->signal = false;
	switch (in->machine) {
	case PM_EM_X86_64:
		for (unsigned int i = 0; i <= X86_64_RA; i++) {
			unsigned int perf = pm_uw_x86_64_perf_reg(i);

			if (pm_uw_reg(in->regs, perf, &v))
				reg_set(s, i, pm_uw_place(u, v),
					pm_uw_tape_add(u, false, perf, v));
		}
		if (!reg_isset(s, X86_64_RA))
			return false;
		s->pc = s->regs[X86_64_RA];
		s->pc_src = s->src[X86_64_RA];
		break;
	case PM_EM_AARCH64:
		for (unsigned int i = 0; i <= PM_UW_ARM64_SP; i++)
			if (pm_uw_reg(in->regs, i, &v))
				reg_set(s, i, pm_uw_place(u, v),
					pm_uw_tape_add(u, false, i, v));
		if (!pm_uw_reg(in->regs, PM_UW_ARM64_PC, &v))
			return false;
		s->pc = pm_uw_place(u, v);
		s->pc_src = pm_uw_tape_add(u, false, PM_UW_ARM64_PC, v);
		break;
	default:
		return false;
	}
	s->pc_state = PC_SET;
	return true;
}

/* on_frame() of unwind.c: false when the chain ends here. */
static bool emit(struct pm_unwinder *u, const struct uw_state *s,
		 bool activation)
{
	struct uw_current *c = &u->cur;
	uint64_t pc = s->pc;

	pm_uw_tape_use(u, s->pc_src);
	if (!pc)
		return false;
	pc = pm_uw_unplace(u, pc);
	c->frames[c->nr].ip = activation ? pc : pc - 1;
	c->frames[c->nr].activation = activation;
	if (++c->nr == c->max) {
		c->limit = true;
		return false;
	}
	return true;
}

bool pm_uw_unwind_cached(struct pm_unwinder *u)
{
	struct uw_current *c = &u->cur;
	unsigned int nregs = frame_nregs(c->in->machine);
	struct uw_state st[2], *s = &st[0], *t = &st[1], *tmp;

	if (!nregs || nregs > UW_MAX_REGS || !initial_state(u, s))
		return false;
	for (;;) {
		/*
		 * dwfl_frame_pc() tells an activation without unwinding for
		 * the first frame and a signal frame; for the others it
		 * unwinds first (the caller may be a signal frame), and so
		 * the frame is told after the step's memory reads.
		 */
		bool early = s->initial || s->signal;

		enum step_result res;

		if (early && !emit(u, s, true))
			return true;
		res = step(u, s, t, nregs);
		if (res == STEP_LIBDWFL)
			return false;
		if (!early && !emit(u, s, res == STEP_DONE &&
				    t->pc_state == PC_SET && t->signal))
			return true;
		if (res == STEP_FAILED) {
			c->failed = true;
			pm_error__fmt(&c->err, PM_EFORMAT,
				      "no CFI and no frame pointer at %#" PRIx64,
				      pm_uw_unplace(u, s->pc));
			return true;
		}
		if (t->pc_state != PC_SET)
			return true;	/* the outermost frame: the end */
		tmp = s;
		s = t;
		t = tmp;
	}
}
