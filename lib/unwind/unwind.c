// SPDX-License-Identifier: GPL-2.0
/*
 * The unwinder: one Dwfl per address space, kept between samples (the
 * expensive part of libdw's unwinding is opening files and parsing CFI,
 * and libdw keeps both per module), a sample's registers and stack bytes
 * given to it through thread callbacks.
 *
 * libdwfl picks its architecture backend from an ELF header; the Dwfl is
 * attached with a header made for the recording's machine, so that
 * unwinding does not depend on the host or on which file comes first.
 *
 * Each frame's module is reported (pm_uw_ensure_module) before libdw
 * unwinds out of it, as the frame callback runs before the next step: for
 * a caller frame libdw looks its CFI up at pc - 1, so that address is
 * checked too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/util.h"
#include "unwind/internal.h"

#define DEFAULT_SPACES 32
#define ELFMAG_BYTES "\177ELF"

/* ---- libdwfl's thread callbacks ---- */

static pid_t next_thread(Dwfl *dwfl, void *dwfl_arg, void **thread_argp)
{
	struct pm_unwinder *u = dwfl_arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return u->cur.in->tid > 0 ? u->cur.in->tid : 1;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *dwfl_arg,
		       void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = dwfl_arg;
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			void *dwfl_arg)
{
	struct pm_unwinder *u = dwfl_arg;
	uint64_t v;

	(void)dwfl;
	if (!pm_uw_stack_word(u->cur.in, u->cur.sp, addr, &v) &&
	    !pm_uw_file_word(u, addr, &v))
		return false;
	*result = v;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	struct pm_unwinder *u = thread_arg;

	return pm_uw_set_registers(thread, u->cur.in);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* ---- address spaces ---- */

/* An ELF header for machine: all libdwfl needs to choose a backend. */
static Elf *arch_elf(struct pm_unwinder *u, uint16_t machine, bool big)
{
	struct uw_arch_elf *a;
	unsigned char *h;

	for (size_t i = 0; i < u->nr_arch; i++)
		if (u->arch[i].machine == machine &&
		    u->arch[i].big_endian == big)
			return u->arch[i].elf;
	if (u->nr_arch == PM_ARRAY_SIZE(u->arch))
		return NULL;
	a = &u->arch[u->nr_arch];
	h = a->ehdr;
	memset(h, 0, sizeof(a->ehdr));
	memcpy(h, ELFMAG_BYTES, 4);
	h[EI_CLASS] = ELFCLASS64;
	h[EI_DATA] = big ? ELFDATA2MSB : ELFDATA2LSB;
	h[EI_VERSION] = EV_CURRENT;
	/* e_type ET_EXEC, e_machine, e_version, e_ehsize 64 */
	h[big ? 17 : 16] = ET_EXEC;
	h[big ? 19 : 18] = (unsigned char)(machine & 0xff);
	h[big ? 18 : 19] = (unsigned char)(machine >> 8);
	h[big ? 23 : 20] = EV_CURRENT;
	h[big ? 53 : 52] = 64;
	a->elf = elf_memory((char *)h, sizeof(a->ehdr));
	if (!a->elf)
		return NULL;
	a->machine = machine;
	a->big_endian = big;
	u->nr_arch++;
	return a->elf;
}

static void space_clear(struct uw_space *sp)
{
	if (sp->dwfl)
		dwfl_end(sp->dwfl);
	sp->dwfl = NULL;
	pm_uw_free_modules(sp);
}

/* A fresh Dwfl for sp, attached for the input's machine. */
static int space_init(struct pm_unwinder *u, struct uw_space *sp,
		      const struct pm_unwind_input *in, struct pm_error *err)
{
	Elf *elf = arch_elf(u, in->machine, in->big_endian);

	space_clear(sp);
	sp->machine = in->machine;
	sp->dwfl = dwfl_begin(&pm_uw_dwfl_callbacks);
	if (!sp->dwfl || !elf ||
	    !dwfl_attach_state(sp->dwfl, elf, in->tid > 0 ? in->tid : 1,
			       &thread_callbacks, u)) {
		pm_error__fmt(err, PM_EUNSUP, "libdwfl cannot unwind for e_machine %u: %s",
			      in->machine, dwfl_errmsg(-1));
		space_clear(sp);
		return -1;
	}
	u->stats.spaces++;
	return 0;
}

static struct uw_space *space_get(struct pm_unwinder *u, const void *key,
				  const struct pm_unwind_input *in,
				  struct pm_error *err)
{
	struct uw_space *sp = NULL;
	size_t oldest = 0;

	for (size_t i = 0; i < u->nr_spaces; i++) {
		if (u->spaces[i]->key == key) {
			sp = u->spaces[i];
			break;
		}
		if (u->spaces[i]->used < u->spaces[oldest]->used)
			oldest = i;
	}
	if (!sp) {
		if (u->nr_spaces < u->opts.max_spaces) {
			sp = pm_zalloc(sizeof(*sp));
			u->spaces[u->nr_spaces++] = sp;
		} else {
			sp = u->spaces[oldest];
			space_clear(sp);
		}
		sp->key = key;
	}
	sp->used = ++u->clock;
	if ((!sp->dwfl || sp->machine != in->machine) &&
	    space_init(u, sp, in, err))
		return NULL;
	return sp;
}

void pm_unwinder__forget(struct pm_unwinder *u, const void *space)
{
	for (size_t i = 0; i < u->nr_spaces; i++) {
		if (u->spaces[i]->key != space)
			continue;
		space_clear(u->spaces[i]);
		free(u->spaces[i]);
		u->spaces[i] = u->spaces[--u->nr_spaces];
		return;
	}
}

/* ---- unwinding ---- */

static int on_frame(Dwfl_Frame *state, void *arg)
{
	struct pm_unwinder *u = arg;
	struct uw_current *c = &u->cur;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, NULL))
		goto failed;
	if (!pc)		/* a zeroed return address ends the stack */
		return DWARF_CB_ABORT;
	if (pm_uw_ensure_module(u, pc) ||
	    (c->nr && pm_uw_ensure_module(u, pc - 1)))
		return DWARF_CB_ABORT;
	/* (finding out whether this is an activation unwinds one step) */
	if (!dwfl_frame_pc(state, &pc, &activation))
		goto failed;
	c->frames[c->nr].ip = activation ? pc : pc - 1;
	c->frames[c->nr].activation = activation;
	if (++c->nr == c->max) {
		c->limit = true;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
failed:
	c->failed = true;
	pm_error__fmt(&c->err, PM_EFORMAT, "%s", dwfl_errmsg(-1));
	return DWARF_CB_ABORT;
}

/* One attempt; false when the space went stale and must be rebuilt. */
static bool unwind_once(struct pm_unwinder *u, struct uw_space *sp)
{
	struct uw_current *c = &u->cur;
	int ret;

	c->space = sp;
	c->nr = 0;
	c->stale = c->limit = c->failed = false;
	pm_error__clear(&c->err);
	ret = dwfl_getthread_frames(sp->dwfl, c->in->tid > 0 ? c->in->tid : 1,
				    on_frame, u);
	if (c->stale)
		return false;
	if (ret < 0 && !c->failed) {
		c->failed = true;
		pm_error__fmt(&c->err, PM_EFORMAT, "%s", dwfl_errmsg(-1));
	}
	return true;
}

static size_t no_input(struct pm_unwinder *u, struct pm_unwind_result *res,
		       const char *why)
{
	u->stats.no_input++;
	if (res) {
		res->stop = PM_UNWIND_NO_INPUT;
		pm_error__fmt(&res->err, PM_EUNSUP, "%s", why);
	}
	return 0;
}

size_t pm_unwinder__unwind(struct pm_unwinder *u, const void *space,
			   pm_unwind_find_map_fn find_map, void *arg,
			   const struct pm_unwind_input *in,
			   struct pm_unwind_frame *frames, size_t max,
			   struct pm_unwind_result *res)
{
	struct uw_current *c = &u->cur;
	struct pm_error err = { 0 };
	struct uw_space *sp;
	uint64_t pc, sp_reg;

	u->stats.samples++;
	if (!max)
		return no_input(u, res, "no room for frames");
	if (!in->stack || !in->stack_size)
		return no_input(u, res, "the sample has no stack bytes");
	if (!pm_uw_pc_sp(in, &pc, &sp_reg))
		return no_input(u, res, in->machine == PM_EM_X86_64 ||
					in->machine == PM_EM_AARCH64 ?
				"the sample lacks the pc or sp register, or is not of a 64-bit task" :
				"unwinding knows x86-64 and arm64 recordings only");
	memset(c, 0, sizeof(*c));
	c->find_map = find_map;
	c->arg = arg;
	c->in = in;
	c->sp = sp_reg;
	c->frames = frames;
	c->max = max;
	sp = space_get(u, space, in, &err);
	if (!sp)
		return no_input(u, res, err.msg);
	if (!unwind_once(u, sp)) {
		/* maps changed under the space (exec, dlclose): start over */
		if (space_init(u, sp, in, &err))
			return no_input(u, res, err.msg);
		if (!unwind_once(u, sp))
			c->failed = true;
	}
	u->stats.frames += c->nr;
	if (c->failed)
		u->stats.failed++;
	if (res) {
		res->stop = c->limit ? PM_UNWIND_LIMIT :
			    c->failed ? PM_UNWIND_FAILED : PM_UNWIND_END;
		res->err = c->err;
	}
	return c->nr;
}

struct pm_unwinder *pm_unwinder__new(const struct pm_unwind_opts *opts)
{
	struct pm_unwinder *u = pm_zalloc(sizeof(*u));

	if (opts) {
		size_t sz = opts->sz ? PM_MIN(opts->sz, sizeof(u->opts))
				     : sizeof(u->opts);

		memcpy(&u->opts, opts, sz);
	}
	u->opts.sz = sizeof(u->opts);
	if (!u->opts.max_spaces)
		u->opts.max_spaces = DEFAULT_SPACES;
	u->spaces = pm_calloc(u->opts.max_spaces, sizeof(*u->spaces));
	elf_version(EV_CURRENT);
	return u;
}

void pm_unwinder__delete(struct pm_unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->nr_spaces; i++) {
		space_clear(u->spaces[i]);
		free(u->spaces[i]);
	}
	free(u->spaces);
	for (size_t i = 0; i < u->nr_arch; i++)
		elf_end(u->arch[i].elf);
	free(u);
}

const struct pm_unwind_stats *pm_unwinder__stats(const struct pm_unwinder *u)
{
	return &u->stats;
}
