// SPDX-License-Identifier: GPL-2.0
/*
 * Demangling through libiberty (the GNU demangler binutils uses): Itanium
 * C++ names and both Rust schemes. DMGL_AUTO lets libiberty try Rust
 * first (legacy "_ZN...17h<hash>E", printed without the hash, and v0
 * "_R...") and fall back to C++.
 */
#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/symbols.h"
#include "pmprof/util.h"

#define PLT_SUFFIX "@plt"

static char *demangle(const char *name, int flags)
{
	size_t n;
	char *base, *d, *out;

	if (!name || name[0] != '_')
		return NULL;
	/* A synthesized PLT entry, "callee@plt": libiberty would drop the
	 * suffix (as a symbol version); perf demangles the callee and keeps
	 * it, so the stub stays its own row. */
	n = strlen(name);
	if (n <= strlen(PLT_SUFFIX) || strcmp(name + n - strlen(PLT_SUFFIX), PLT_SUFFIX))
		return cplus_demangle(name, flags | DMGL_AUTO);
	base = pm_strndup(name, n - strlen(PLT_SUFFIX));
	d = cplus_demangle(base, flags | DMGL_AUTO);
	free(base);
	if (!d)
		return NULL;
	out = pm_zalloc(strlen(d) + sizeof(PLT_SUFFIX));
	strcpy(out, d);
	strcat(out, PLT_SUFFIX);
	free(d);
	return out;
}

/* As perf shows names by default: no parameter lists, so overloads share
 * a row, and reports compare equal with perf's. */
char *pm_demangle(const char *name)
{
	return demangle(name, DMGL_NO_OPTS);
}

char *pm_demangle_params(const char *name)
{
	return demangle(name, DMGL_PARAMS | DMGL_ANSI);
}
