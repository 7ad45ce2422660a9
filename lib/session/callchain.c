// SPDX-License-Identifier: GPL-2.0
/*
 * A sample's call chain, as perf builds it (thread__resolve_callchain,
 * callee order): the entries of PERF_SAMPLE_CALLCHAIN with their context
 * markers applied, then, when the sample carries user registers and stack
 * bytes (--call-graph dwarf), the user frames unwound from them (the
 * unwinder, unwind.h), resolved in user mode. With inline frames on, each
 * entry that DWARF says holds inlined functions becomes one entry per
 * function (pm_dso__inline_frames()), innermost first.
 *
 * One unwinder serves every process: it is told each sample's mappings
 * through the process's map list.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "pmprof/records.h"
#include "pmprof/util.h"
#include "session/internal.h"

static void push(struct pm_chain *c, const struct pm_addr_loc *loc)
{
	PM_GROW(c->v, c->alloc, c->nr + 1);
	c->v[c->nr++] = *loc;
}

/*
 * The sampled entries; false when one is a context marker perf does not
 * know (the kernel has been seen to end a chain with -1): perf then
 * drops the whole chain, sampled and unwound, and so does this, so that
 * Children and the trees count such samples as perf does (self only).
 */
static bool add_sampled(struct pm_chain *c, struct pm_session *s,
			const struct pm_sample *smp, const struct pm_thread *t)
{
	uint8_t cpumode = PM_MISC_USER;

	/* room for every entry at once, each resolved in its slot: a
	 * frame-pointer chain is most of a sample's cost in the stack
	 * formats */
	PM_GROW(c->v, c->alloc, c->nr + smp->callchain_nr);
	for (uint64_t i = 0; i < smp->callchain_nr; i++) {
		uint64_t ip = smp->callchain[i];

		if (ip >= PM_CONTEXT_MAX) {
			switch (ip) {
			case PM_CONTEXT_HV:
				cpumode = PM_MISC_HYPERVISOR; break;
			case PM_CONTEXT_KERNEL:
				cpumode = PM_MISC_KERNEL; break;
			case PM_CONTEXT_USER:
				cpumode = PM_MISC_USER; break;
			case PM_CONTEXT_GUEST_KERNEL:
				cpumode = PM_MISC_GUEST_KERNEL; break;
			case PM_CONTEXT_GUEST_USER:
				cpumode = PM_MISC_GUEST_USER; break;
			default:
				c->nr = 0;
				return false;
			}
			continue;
		}
		pm_session__resolve(s, t, cpumode, ip, &c->v[c->nr++]);
	}
	return true;
}

static int find_map(void *arg, uint64_t addr, struct pm_unwind_map *out)
{
	const struct pm_map *m = pm_maps__find(arg, addr);

	if (!m) {
		pm_maps__hole(arg, addr, &out->start, &out->end);
		return -ENOENT;
	}
	out->start = m->start;
	out->end = m->end;
	out->pgoff = m->pgoff;
	out->dso = m->dso;
	out->exec = (m->prot & PROT_EXEC) != 0;
	return 0;
}

static bool one_bias(void *arg, struct pm_dso *dso)
{
	return arg && pm_maps__one_bias(arg, dso);
}

/* perf unwinds when the event samples both and the sample has both. */
static bool has_dwarf_stack(const struct pm_sample *smp)
{
	return (smp->sample_type & PM_SAMPLE_REGS_USER) &&
	       (smp->sample_type & PM_SAMPLE_STACK_USER) &&
	       smp->regs_user.abi && smp->regs_user.nr &&
	       smp->stack_user && smp->stack_user_dyn_size;
}

static void add_unwound(struct pm_chain *c, struct pm_session *s,
			const struct pm_sample *smp,
			const struct pm_thread_int *t,
			const struct pm_session_opts *o)
{
	struct pm_reader *r = pm_session__reader(s);
	struct pm_unwind_input in = {
		.big_endian = pm_reader__big_endian(r),
		.regs = &smp->regs_user,
		.stack = smp->stack_user,
		.stack_size = PM_MIN(smp->stack_user_dyn_size,
				     smp->stack_user_size),
		.tid = t->pub.tid,
		.maps_version = t->maps ? t->maps->version : 0,
		.one_bias = one_bias,
	};
	struct pm_addr_loc loc;
	size_t n;

	if (!c->uw) {
		c->uw = pm_unwinder__new();
		pm_unwinder__set_mode(c->uw, o->unwind_mode);
		c->machine = pm_unwind__machine(pm_reader__features(r)->arch);
	}
	in.machine = c->machine;
	n = pm_unwinder__unwind(c->uw, find_map, t->maps, &in, c->frames,
				PM_UNWIND_MAX_FRAMES, NULL);
	for (size_t i = 0; i < n; i++) {
		pm_session__resolve(s, &t->pub, PM_MISC_USER, c->frames[i].ip,
				    &loc);
		push(c, &loc);
	}
}

/* Replace entries holding inlined functions by one entry per function. */
static void expand_inlines(struct pm_chain *c)
{
	size_t nr = c->nr, sampled = c->nr_sampled;

	if (!nr)
		return;
	PM_GROW(c->tmp, c->alloc_tmp, nr);
	memcpy(c->tmp, c->v, nr * sizeof(*c->v));
	c->nr = 0;
	for (size_t i = 0; i < nr; i++) {
		struct pm_addr_loc loc = c->tmp[i];
		const struct pm_symbol *const *f;
		size_t n = 0;

		if (i == sampled)	/* where the unwound ones start now */
			c->nr_sampled = c->nr;
		if (loc.dso && loc.sym)
			n = pm_dso__inline_frames(loc.dso, loc.addr, loc.sym, &f);
		if (!n) {
			push(c, &loc);
			continue;
		}
		for (size_t k = 0; k < n; k++) {
			loc.sym = f[k];
			push(c, &loc);
		}
	}
	if (sampled == nr)
		c->nr_sampled = c->nr;
}

void pm_chain__build(struct pm_chain *c, struct pm_session *s,
		     const struct pm_sample *smp,
		     const struct pm_thread_int *t,
		     const struct pm_session_opts *o)
{
	c->nr = 0;
	c->done = true;
	c->nr_sampled = 0;
	if (!add_sampled(c, s, smp, &t->pub))
		return;
	c->nr_sampled = c->nr;
	if (has_dwarf_stack(smp))
		add_unwound(c, s, smp, t, o);
	if (o->inline_frames)
		expand_inlines(c);
}

bool pm_session__chain_maps(const struct pm_session *s, uint64_t *user,
			    uint64_t *kernel)
{
	const struct pm_thread_int *t = s->last;

	if (has_dwarf_stack(&s->sample))
		return false;
	*user = t && t->maps ? t->maps->version : 0;
	*kernel = s->kmaps ? s->kmaps->version : 0;
	return true;
}

const struct pm_unwind_stats *pm_chain__stats(const struct pm_chain *c)
{
	return c->uw ? pm_unwinder__stats(c->uw) : NULL;
}

void pm_chain__free(struct pm_chain *c)
{
	pm_unwinder__delete(c->uw);
	free(c->v);
	free(c->tmp);
	memset(c, 0, sizeof(*c));
}
