// SPDX-License-Identifier: GPL-2.0
/*
 * Demangling through libiberty (the GNU demangler binutils uses): Itanium
 * C++ names and both Rust schemes. DMGL_AUTO lets libiberty try Rust
 * first (legacy "_ZN...17h<hash>E", printed without the hash, and v0
 * "_R...") and fall back to C++.
 */
#include <libiberty/demangle.h>
#include <stdlib.h>

#include "pmprof/symbols.h"

static char *demangle(const char *name, int flags)
{
	if (!name || name[0] != '_')
		return NULL;
	return cplus_demangle(name, flags | DMGL_AUTO);
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
