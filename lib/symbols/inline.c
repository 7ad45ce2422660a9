// SPDX-License-Identifier: GPL-2.0
/*
 * Inlined functions at an address, from DWARF through libdw: the scopes
 * holding the address, innermost first, keeping the
 * inlined subroutines and the function they all sit in, as
 * `addr2line -i` lists them and perf's --inline shows them. A function is
 * named as addr2line names it: its linkage name (demangled) if it has
 * one, else its DW_AT_name, following abstract origins.
 *
 * The frames of an address are cached per DSO (hot addresses come back
 * sample after sample), and so are the symbols made for inlined
 * functions: one per (containing symbol, name), so that pointer identity
 * means "the same function" as it does for the symbol table's.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/dso.h"
#include "pmprof/util.h"
#include "symbols/dso-internal.h"

struct inline_addr {
	uint64_t addr;
	bool used;
	size_t nr;
	const struct pm_symbol **frames;
};

struct inline_sym {
	const struct pm_symbol *base;
	struct pm_symbol *sym;
};

struct pm_inlines {
	struct inline_addr *addrs;	/* open addressing by addr */
	size_t nslots, nr;
	struct inline_sym *syms;	/* open addressing by (base, name) */
	size_t nsym_slots, nr_syms;
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static void addrs_grow(struct pm_inlines *in)
{
	size_t n = in->nslots ? in->nslots * 2 : 256;
	struct inline_addr *old = in->addrs;
	size_t nold = in->nslots;

	in->addrs = pm_calloc(n, sizeof(*in->addrs));
	in->nslots = n;
	for (size_t i = 0; i < nold; i++) {
		size_t j;

		if (!old[i].used)
			continue;
		j = mix(old[i].addr) & (n - 1);
		while (in->addrs[j].used)
			j = (j + 1) & (n - 1);
		in->addrs[j] = old[i];
	}
	free(old);
}

static void syms_grow(struct pm_inlines *in)
{
	size_t n = in->nsym_slots ? in->nsym_slots * 2 : 64;
	struct inline_sym *old = in->syms;
	size_t nold = in->nsym_slots;

	in->syms = pm_calloc(n, sizeof(*in->syms));
	in->nsym_slots = n;
	for (size_t i = 0; i < nold; i++) {
		size_t j;

		if (!old[i].sym)
			continue;
		j = (mix((uintptr_t)old[i].base) ^ str_hash(old[i].sym->name)) &
		    (n - 1);
		while (in->syms[j].sym)
			j = (j + 1) & (n - 1);
		in->syms[j] = old[i];
	}
	free(old);
}

/* The symbol standing for `name` inlined into base: base itself when
 * DWARF names it the same, else one made (once) for the pair. */
static const struct pm_symbol *inline_symbol(struct pm_inlines *in,
					     const struct pm_symbol *base,
					     const char *name)
{
	struct pm_symbol *s;
	size_t j;

	if (!strcmp(name, base->name))
		return base;
	if (2 * (in->nr_syms + 1) > in->nsym_slots)
		syms_grow(in);
	j = (mix((uintptr_t)base) ^ str_hash(name)) & (in->nsym_slots - 1);
	for (; in->syms[j].sym; j = (j + 1) & (in->nsym_slots - 1))
		if (in->syms[j].base == base && !strcmp(in->syms[j].sym->name, name))
			return in->syms[j].sym;
	s = pm_zalloc(sizeof(*s));
	s->start = base->start;
	s->end = base->end;
	s->name = s->raw_name = pm_strdup(name);
	s->type = PM_SYM_FUNC;
	s->bind = base->bind;
	s->sized = base->sized;
	s->seq = base->seq;
	s->inlined = true;
	in->syms[j].base = base;
	in->syms[j].sym = s;
	in->nr_syms++;
	return s;
}

/* The name addr2line gives a function DIE: malloc()ed, or NULL. */
static char *die_name(Dwarf_Die *die, bool demangle)
{
	Dwarf_Attribute mem, *a;
	const char *n;
	char *d;

	a = dwarf_attr_integrate(die, DW_AT_linkage_name, &mem);
	if (!a)
		a = dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &mem);
	n = a ? dwarf_formstring(a) : NULL;
	if (n) {
		d = demangle ? pm_demangle(n) : NULL;
		return d ? d : pm_strdup(n);
	}
	a = dwarf_attr_integrate(die, DW_AT_name, &mem);
	n = a ? dwarf_formstring(a) : NULL;
	return n ? pm_strdup(n) : NULL;
}

/* Look addr up in DWARF: the frames, innermost first. */
static size_t compute(struct pm_dso *dso, struct pm_inlines *in,
		      uint64_t addr, const struct pm_symbol *base,
		      const struct pm_symbol ***out)
{
	Dwarf *dw = pm_dso__dwarf(dso);
	bool demangle = !dso->ctx->conf.no_demangle;
	const struct pm_symbol **v = NULL;
	Dwarf_Die cu, *scopes = NULL;
	size_t nr = 0, alloc = 0;
	int n;

	*out = NULL;
	if (!dw || !dwarf_addrdie(dw, addr, &cu))
		return 0;
	/*
	 * Assembly has no inlining; what DWARF says of its functions (an
	 * assembler's made-up DIEs, or none) is not a better name than the
	 * symbol's, and binutils keeps the symbol's there too.
	 */
	if (dwarf_srclang(&cu) == DW_LANG_Mips_Assembler)
		return 0;
	/*
	 * dwarf_getscopes() finds the innermost scope holding addr, but past
	 * an inlined instance it goes on with its abstract origin's
	 * parents; the DIEs physically holding that scope are the chain of
	 * callers (what eu-addr2line -i walks too).
	 */
	n = dwarf_getscopes(&cu, addr, &scopes);
	if (n > 0) {
		Dwarf_Die inner = scopes[0];

		free(scopes);
		scopes = NULL;
		n = dwarf_getscopes_die(&inner, &scopes);
	}
	for (int i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);
		char *name;

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		name = die_name(&scopes[i], demangle);
		PM_GROW(v, alloc, nr + 1);
		v[nr++] = inline_symbol(in, base, name ? name : "??");
		free(name);
		if (tag == DW_TAG_subprogram)
			break;	/* the function all of them are inlined into */
	}
	free(scopes);
	*out = v;
	return nr;
}

size_t pm_dso__inline_frames(struct pm_dso *dso, uint64_t addr,
			     const struct pm_symbol *base,
			     const struct pm_symbol *const **out)
{
	struct pm_inlines *in;
	struct inline_addr *e;
	size_t j;

	*out = NULL;
	if (!base || pm_dso__kind(dso) != PM_DSO_ELF)
		return 0;
	if (!dso->inlines)
		dso->inlines = pm_zalloc(sizeof(*dso->inlines));
	in = dso->inlines;
	if (2 * (in->nr + 1) > in->nslots)
		addrs_grow(in);
	j = mix(addr) & (in->nslots - 1);
	for (; in->addrs[j].used; j = (j + 1) & (in->nslots - 1))
		if (in->addrs[j].addr == addr)
			break;
	e = &in->addrs[j];
	if (!e->used) {
		const struct pm_symbol **v;

		e->nr = compute(dso, in, addr, base, &v);
		e->frames = v;
		e->addr = addr;
		e->used = true;
		in->nr++;
	}
	*out = e->frames;
	return e->nr;
}

void pm_inlines__release(struct pm_dso *dso)
{
	struct pm_inlines *in = dso->inlines;

	if (!in)
		return;
	for (size_t i = 0; i < in->nslots; i++)
		if (in->addrs[i].used)
			free(in->addrs[i].frames);
	for (size_t i = 0; i < in->nsym_slots; i++) {
		if (!in->syms[i].sym)
			continue;
		free((char *)in->syms[i].sym->name);
		free(in->syms[i].sym);
	}
	free(in->addrs);
	free(in->syms);
	free(in);
	dso->inlines = NULL;
}
