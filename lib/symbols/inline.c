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
 *
 * Where perf differs, binutils does: it names a function of an assembly
 * file after its own pick among the symbol's aliases (__GI_madvise for
 * __madvise), and the first address it is asked about in a C++ function
 * without a linkage name (a static inline one) after the symbol holding
 * it, the following ones after the function: an answer that depends on
 * the order of questions is not copied here.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/dso.h"
#include "pmprof/keymap.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"
#include "symbols/dso-internal.h"

/* The frames of one address, in the per-DSO cache. */
struct inline_addr {
	size_t nr;
	const struct pm_symbol **frames;
};

struct pm_inlines {
	struct pm_keymap addrs;		/* address -> struct inline_addr */
	struct pm_keymap syms;		/* (base, name) -> struct pm_symbol */
};

/* The symbol standing for `name` inlined into base: base itself when
 * DWARF names it the same, else one made (once) for the pair. */
static const struct pm_symbol *inline_symbol(struct pm_inlines *in,
					     const struct pm_symbol *base,
					     const char *name)
{
	struct pm_strbuf key = PM_STRBUF_INIT;
	struct pm_symbol *s;
	bool is_new;

	if (!strcmp(name, base->name))
		return base;
	pm_strbuf__add(&key, (const char *)&base, sizeof(base));
	pm_strbuf__adds(&key, name);
	s = pm_keymap__findnew_zeroed(&in->syms, key.buf, key.len, sizeof(*s),
				      &is_new);
	pm_strbuf__release(&key);
	if (is_new) {
		s->start = base->start;
		s->end = base->end;
		s->name = s->raw_name = pm_strdup(name);
		s->type = PM_SYM_FUNC;
		s->bind = base->bind;
		s->sized = base->sized;
		s->seq = base->seq;
		s->inlined = true;
	}
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
	struct inline_addr *e;
	bool is_new;

	*out = NULL;
	if (!base || pm_dso__kind(dso) != PM_DSO_ELF)
		return 0;
	if (!dso->inlines)
		dso->inlines = pm_zalloc(sizeof(*dso->inlines));
	e = pm_keymap__findnew_zeroed(&dso->inlines->addrs, &addr, sizeof(addr),
				      sizeof(*e), &is_new);
	if (is_new) {
		const struct pm_symbol **v;

		e->nr = compute(dso, dso->inlines, addr, base, &v);
		e->frames = v;
	}
	*out = e->frames;
	return e->nr;
}

void pm_inlines__release(struct pm_dso *dso)
{
	struct pm_inlines *in = dso->inlines;

	if (!in)
		return;
	for (size_t i = 0; i < in->addrs.nr; i++) {
		struct inline_addr *e = in->addrs.values[i];

		free(e->frames);
		free(e);
	}
	for (size_t i = 0; i < in->syms.nr; i++) {
		struct pm_symbol *sym = in->syms.values[i];

		free((char *)sym->name);
		free(sym);
	}
	pm_keymap__release(&in->addrs);
	pm_keymap__release(&in->syms);
	free(in);
	dso->inlines = NULL;
}
