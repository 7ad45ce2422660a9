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

char *pm_demangle(const char *name)
{
	if (!name || name[0] != '_')
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);
}
