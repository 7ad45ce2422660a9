// SPDX-License-Identifier: GPL-2.0
/*
 * Sorted symbol tables. Symbols are collected unsorted, then finish()
 * sorts them once, folds aliases (several names at one address) into the
 * best one, and gives zero-size symbols the room up to the next symbol, so
 * a lookup is one binary search.
 */
#include <stdlib.h>
#include <string.h>

#include "pmprof/symbols.h"
#include "pmprof/util.h"

struct pm_symtab {
	struct pm_symbol *syms;
	size_t nr, alloc;
	bool demangle;
	bool finished;
};

/* How far a lookup walks back for a symbol that encloses a smaller one. */
#define PM_SYMTAB_NEST 16
#define PM_PAGE 4096ULL

struct pm_symtab *pm_symtab__new(bool demangle)
{
	struct pm_symtab *tab = pm_zalloc(sizeof(*tab));

	tab->demangle = demangle;
	return tab;
}

static void free_names(struct pm_symbol *s)
{
	if (s->name != s->raw_name)
		free((char *)s->name);
	free((char *)s->raw_name);
	s->name = s->raw_name = NULL;
}

void pm_symtab__delete(struct pm_symtab *tab)
{
	if (!tab)
		return;
	for (size_t i = 0; i < tab->nr; i++)
		free_names(&tab->syms[i]);
	free(tab->syms);
	free(tab);
}

void pm_symtab__add(struct pm_symtab *tab, uint64_t start, uint64_t size,
		    enum pm_sym_type type, enum pm_sym_bind bind,
		    const char *name)
{
	struct pm_symbol *s;

	if (tab->finished)
		return;
	PM_GROW(tab->syms, tab->alloc, tab->nr + 1);
	s = &tab->syms[tab->nr++];
	s->start = start;
	/* end == start marks "size unknown" until finish(); clamp overflow */
	s->end = start + size < start ? UINT64_MAX : start + size;
	s->sized = size != 0;
	s->raw_name = pm_strdup(name ? name : "");
	s->name = s->raw_name;
	s->type = (uint8_t)type;
	s->bind = (uint8_t)bind;
}

static int cmp_start(const void *a, const void *b)
{
	const struct pm_symbol *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* Rank of a binding: perf prefers non-weak, then global. */
static int bind_rank(uint8_t bind)
{
	switch (bind) {
	case PM_BIND_GLOBAL: return 2;
	case PM_BIND_LOCAL: return 1;
	default: return 0;
	}
}

/* True if a is a better name than b for the same address. */
static bool better(const struct pm_symbol *a, const struct pm_symbol *b)
{
	size_t ua, ub, la, lb;

	if (a->sized != b->sized)
		return a->sized;
	if (bind_rank(a->bind) != bind_rank(b->bind))
		return bind_rank(a->bind) > bind_rank(b->bind);
	ua = underscores(a->raw_name);
	ub = underscores(b->raw_name);
	if (ua != ub)
		return ua < ub;
	la = strlen(a->raw_name);
	lb = strlen(b->raw_name);
	if (la != lb)
		return la > lb;
	return strcmp(a->raw_name, b->raw_name) < 0;
}

static bool mangled(const char *s)
{
	return (s[0] == '_' && (s[1] == 'Z' || s[1] == 'R')) ||
	       (s[0] == '_' && s[1] == '_' && s[2] == 'Z');
}

void pm_symtab__finish(struct pm_symtab *tab)
{
	size_t i, out;

	if (tab->finished)
		return;
	tab->finished = true;
	if (!tab->nr)
		return;
	qsort(tab->syms, tab->nr, sizeof(*tab->syms), cmp_start);

	/* fold aliases: one symbol per start address */
	out = 0;
	for (i = 1; i < tab->nr; i++) {
		struct pm_symbol *keep = &tab->syms[out], *s = &tab->syms[i];

		if (s->start != keep->start) {
			tab->syms[++out] = *s;
			continue;
		}
		if (better(s, keep)) {
			struct pm_symbol t = *keep;

			*keep = *s;
			*s = t;
		}
		/* the loser may still know the size */
		if (!keep->sized && s->sized) {
			keep->end = s->end;
			keep->sized = true;
		}
		free_names(s);
	}
	tab->nr = out + 1;

	for (i = 0; i < tab->nr; i++) {
		struct pm_symbol *s = &tab->syms[i];

		if (s->end == s->start) {
			if (i + 1 < tab->nr)
				s->end = tab->syms[i + 1].start;
			else
				s->end = ((s->start + PM_PAGE - 1) & ~(PM_PAGE - 1)) +
					 PM_PAGE;
			if (s->end <= s->start)
				s->end = s->start + 1;
		}
		if (tab->demangle && mangled(s->raw_name)) {
			char *d = pm_demangle(s->raw_name);

			if (d)
				s->name = d;
		}
	}
}

const struct pm_symbol *pm_symtab__find(const struct pm_symtab *tab,
					uint64_t addr)
{
	size_t lo = 0, hi = tab->nr, i, k;

	/* find the last symbol with start <= addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tab->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	i = lo - 1;
	/* innermost first; an enclosing symbol (rare) a few entries back */
	for (k = 0; k < PM_SYMTAB_NEST && k <= i; k++) {
		const struct pm_symbol *s = &tab->syms[i - k];

		if (addr < s->end)
			return s;
	}
	return NULL;
}

const struct pm_symbol *pm_symtab__find_name(const struct pm_symtab *tab,
					     const char *name)
{
	for (size_t i = 0; i < tab->nr; i++)
		if (!strcmp(tab->syms[i].raw_name, name) ||
		    !strcmp(tab->syms[i].name, name))
			return &tab->syms[i];
	return NULL;
}

size_t pm_symtab__nr(const struct pm_symtab *tab)
{
	return tab->nr;
}

const struct pm_symbol *pm_symtab__at(const struct pm_symtab *tab, size_t i)
{
	return i < tab->nr ? &tab->syms[i] : NULL;
}

void pm_symtab__shift(struct pm_symtab *tab, int64_t delta)
{
	for (size_t i = 0; i < tab->nr; i++) {
		tab->syms[i].start += (uint64_t)delta;
		tab->syms[i].end += (uint64_t)delta;
	}
}
