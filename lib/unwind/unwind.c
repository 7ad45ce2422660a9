// SPDX-License-Identifier: GPL-2.0
/*
 * The unwinder: one Dwfl per architecture for the whole recording, the
 * files of every process placed in it once (modules.c), a sample's
 * registers and stack bytes handed to it through thread callbacks. The
 * expensive part of libdw's unwinding is opening files and parsing their
 * CFI; libdw keeps both per module, so they are paid once per file.
 *
 * libdwfl picks its architecture backend from an ELF header; the Dwfl is
 * attached with a header made for the recording's machine, so that
 * unwinding does not depend on the host or on which file comes first.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/util.h"
#include "unwind/internal.h"

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

/*
 * A word of the sample's memory: its stack bytes, else a file's contents
 * (at a placed address, or at a runtime one in a file's mapping). The
 * value is placed in turn: it may be a return address.
 */
bool pm_uw_memory_read(struct pm_unwinder *u, uint64_t addr, uint64_t *val)
{
	struct uw_current *c = &u->cur;
	const struct uw_module *m;
	uint64_t v;

	if (!pm_uw_stack_word(c->in, c->sp, addr, &v)) {
		m = pm_uw_module_at(c->space, addr);
		if (!m) {
			addr = pm_uw_place(u, addr);
			m = pm_uw_module_at(c->space, addr);
		}
		if (!pm_uw_file_word(m, addr, c->in->big_endian, &v))
			return false;
	}
	*val = pm_uw_place(u, v);
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			void *dwfl_arg)
{
	uint64_t v;

	(void)dwfl;
	if (!pm_uw_memory_read(dwfl_arg, addr, &v))
		return false;
	*result = v;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	return pm_uw_set_registers(thread_arg, thread);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* ---- one Dwfl per architecture ---- */

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

static void space_free(struct uw_space *sp)
{
	if (!sp)
		return;
	if (sp->dwfl)
		dwfl_end(sp->dwfl);
	pm_uw_free_rules(sp);
	pm_uw_free_modules(sp);
	free(sp);
}

/* The Dwfl for the input's architecture, made on first use. */
static struct uw_space *space_get(struct pm_unwinder *u,
				  const struct pm_unwind_input *in,
				  struct pm_error *err)
{
	struct uw_space *sp;
	Elf *elf;

	for (size_t i = 0; i < u->nr_spaces; i++)
		if (u->spaces[i]->machine == in->machine &&
		    u->spaces[i]->big_endian == in->big_endian)
			return u->spaces[i];
	if (u->nr_spaces == PM_ARRAY_SIZE(u->spaces)) {
		pm_error__fmt(err, PM_EUNSUP, "a recording of more than %zu architectures",
			      PM_ARRAY_SIZE(u->spaces));
		return NULL;
	}
	sp = pm_zalloc(sizeof(*sp));
	sp->machine = in->machine;
	sp->big_endian = in->big_endian;
	sp->next_place = UW_PLACE_BASE;
	elf = arch_elf(u, in->machine, in->big_endian);
	sp->dwfl = dwfl_begin(&pm_uw_dwfl_callbacks);
	if (!sp->dwfl || !elf ||
	    !dwfl_attach_state(sp->dwfl, elf, in->tid > 0 ? in->tid : 1,
			       &thread_callbacks, u)) {
		pm_error__fmt(err, PM_EUNSUP, "libdwfl cannot unwind for e_machine %u: %s",
			      in->machine, dwfl_errmsg(-1));
		space_free(sp);
		return NULL;
	}
	u->spaces[u->nr_spaces++] = sp;
	return sp;
}

/* ---- unwinding ---- */

static int on_frame(Dwfl_Frame *state, void *arg)
{
	struct pm_unwinder *u = arg;
	struct uw_current *c = &u->cur;
	Dwarf_Addr pc;
	bool activation;

	/* (finding out whether this is an activation unwinds one step) */
	if (!dwfl_frame_pc(state, &pc, &activation)) {
		c->failed = true;
		pm_error__fmt(&c->err, PM_EFORMAT, "%s", dwfl_errmsg(-1));
		return DWARF_CB_ABORT;
	}
	if (!pc)		/* a zeroed return address ends the stack */
		return DWARF_CB_ABORT;
	pc = pm_uw_unplace(u, pc);
	c->frames[c->nr].ip = activation ? pc : pc - 1;
	c->frames[c->nr].activation = activation;
	if (++c->nr == c->max) {
		c->limit = true;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
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

/* A fresh start for the sample in u->cur. */
static void start(struct pm_unwinder *u, struct uw_space *space,
		  pm_unwind_find_map_fn find_map, void *arg,
		  const struct pm_unwind_input *in, uint64_t sp,
		  struct pm_unwind_frame *frames, size_t max)
{
	struct uw_current *c = &u->cur;
	struct uw_seen seen[PM_ARRAY_SIZE(c->seen)];
	size_t nr_seen = c->nr_seen, next_seen = c->next_seen;
	bool keep = in->maps_version && in->maps_version == u->seen_version &&
		    c->space == space;

	/* the mappings found stay true while the maps do */
	if (keep)
		memcpy(seen, c->seen, nr_seen * sizeof(*seen));
	memset(c, 0, sizeof(*c));
	if (keep) {
		memcpy(c->seen, seen, nr_seen * sizeof(*seen));
		c->nr_seen = nr_seen;
		c->next_seen = next_seen;
	}
	u->seen_version = in->maps_version;
	c->space = space;
	c->find_map = find_map;
	c->arg = arg;
	c->in = in;
	c->sp = sp;
	c->frames = frames;
	c->max = max;
}

/* The sample in u->cur, step by step through libdwfl. */
static void unwind_libdwfl(struct pm_unwinder *u)
{
	struct uw_current *c = &u->cur;
	int ret;

	ret = dwfl_getthread_frames(c->space->dwfl,
				    c->in->tid > 0 ? c->in->tid : 1, on_frame, u);
	if (ret < 0 && !c->failed) {
		c->failed = true;
		pm_error__fmt(&c->err, PM_EFORMAT, "%s", dwfl_errmsg(-1));
	}
}

/* On cached rules where every step has plain ones, else libdwfl. */
static void unwind_cached(struct pm_unwinder *u)
{
	struct uw_current saved;

	if (pm_uw_memo_find(u)) {
		u->stats.cached++;
		u->stats.memo++;
		return;
	}
	saved = u->cur;
	pm_uw_memo_record(u);
	if (pm_uw_unwind_cached(u)) {
		pm_uw_memo_add(u);
		u->stats.cached++;
		return;
	}
	u->tape.on = false;
	u->cur = saved;
	unwind_libdwfl(u);
}

/* The frames of two unwinds of one sample: how many agree from the top. */
static size_t same_frames(const struct uw_current *a, const struct uw_current *b)
{
	size_t i = 0;

	while (i < a->nr && i < b->nr && a->frames[i].ip == b->frames[i].ip &&
	       a->frames[i].activation == b->frames[i].activation)
		i++;
	return i;
}

static void describe(char *buf, size_t size, const char *what,
		     const struct uw_current *a, const struct uw_current *b)
{
	size_t i = same_frames(a, b);

	snprintf(buf, size,
		 "tid %d, pc %#" PRIx64 ": %s: %zu frames (%s) on cached rules, %zu (%s) through libdwfl; first difference at frame %zu: %#" PRIx64 " against %#" PRIx64,
		 (int)a->in->tid, a->nr ? a->frames[0].ip : 0, what,
		 a->nr, a->limit ? "limit" : a->failed ? "failed" : "end", b->nr,
		 b->limit ? "limit" : b->failed ? "failed" : "end", i,
		 i < a->nr ? a->frames[i].ip : 0, i < b->nr ? b->frames[i].ip : 0);
}

/* Both ways; the libdwfl frames are returned, the cached ones compared. */
static void unwind_check(struct pm_unwinder *u)
{
	struct pm_unwind_frame mine[PM_UNWIND_MAX_FRAMES];
	struct uw_current saved = u->cur, cached;
	bool same;

	u->cur.frames = mine;
	u->cur.max = PM_MIN(saved.max, PM_ARRAY_SIZE(mine));
	if (!pm_uw_unwind_cached(u)) {
		u->cur = saved;
		unwind_libdwfl(u);
		return;
	}
	cached = u->cur;
	u->cur = saved;
	unwind_libdwfl(u);
	u->stats.cached++;
	u->stats.checked++;
	same = cached.nr == u->cur.nr && cached.limit == u->cur.limit &&
	       cached.failed == u->cur.failed &&
	       same_frames(&cached, &u->cur) == cached.nr;
	if (!same) {
		u->stats.mismatched++;
		if (!u->mismatch[0])
			describe(u->mismatch, sizeof(u->mismatch), "differ",
				 &cached, &u->cur);
	}
}

size_t pm_unwinder__unwind(struct pm_unwinder *u,
			   pm_unwind_find_map_fn find_map, void *arg,
			   const struct pm_unwind_input *in,
			   struct pm_unwind_frame *frames, size_t max,
			   struct pm_unwind_result *res)
{
	struct uw_current *c = &u->cur;
	struct pm_error err = { 0 };
	struct uw_space *space;
	uint64_t pc, sp;

	u->stats.samples++;
	u->sample_no++;
	if (!max)
		return no_input(u, res, "no room for frames");
	if (!in->stack || !in->stack_size)
		return no_input(u, res, "the sample has no stack bytes");
	if (!pm_uw_pc_sp(in, &pc, &sp))
		return no_input(u, res, in->machine == PM_EM_X86_64 ||
					in->machine == PM_EM_AARCH64 ?
				"the sample lacks the pc or sp register, or is not of a 64-bit task" :
				"unwinding knows x86-64 and arm64 recordings only");
	space = space_get(u, in, &err);
	if (!space)
		return no_input(u, res, err.msg);
	start(u, space, find_map, arg, in, sp, frames, max);
	switch (u->mode) {
	case PM_UNWIND_LIBDWFL:
		unwind_libdwfl(u);
		break;
	case PM_UNWIND_CHECK:
		unwind_check(u);
		break;
	default:
		unwind_cached(u);
		break;
	}
	u->stats.frames += c->nr;
	u->stats.rules = 0;
	for (size_t i = 0; i < u->nr_spaces; i++)
		u->stats.rules += u->spaces[i]->nr_rules;
	if (c->failed)
		u->stats.failed++;
	if (res) {
		res->stop = c->limit ? PM_UNWIND_LIMIT :
			    c->failed ? PM_UNWIND_FAILED : PM_UNWIND_END;
		res->err = c->err;
	}
	return c->nr;
}

void pm_unwinder__set_mode(struct pm_unwinder *u, enum pm_unwind_mode mode)
{
	u->mode = mode;
}

void pm_unwinder__set_memo(struct pm_unwinder *u, bool on)
{
	u->no_memo = !on;
}

const char *pm_unwinder__mismatch(const struct pm_unwinder *u)
{
	return u->mismatch[0] ? u->mismatch : NULL;
}

struct pm_unwinder *pm_unwinder__new(void)
{
	elf_version(EV_CURRENT);
	return pm_zalloc(sizeof(struct pm_unwinder));
}

void pm_unwinder__delete(struct pm_unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->nr_spaces; i++)
		space_free(u->spaces[i]);
	for (size_t i = 0; i < u->nr_arch; i++)
		elf_end(u->arch[i].elf);
	pm_uw_memo_free(u);
	free(u);
}

const struct pm_unwind_stats *pm_unwinder__stats(const struct pm_unwinder *u)
{
	return &u->stats;
}
