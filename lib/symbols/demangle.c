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

/*
 * A PLT entry is named after its callee, "callee@plt": perf demangles
 * the callee and appends "@plt". libiberty would take "@plt" for a symbol
 * version and drop it, naming the stub as the function it calls, so that
 * samples in the stub join the function's row.
 */
static char *demangle(const char *name, int flags)
{
	static const char plt[] = "@plt";
	size_t len, n = sizeof(plt) - 1;
	char *callee, *d, *out;

	if (!name || name[0] != '_')
		return NULL;
	len = strlen(name);
	if (len <= n || strcmp(name + len - n, plt))
		return cplus_demangle(name, flags | DMGL_AUTO);
	callee = pm_strndup(name, len - n);
	d = cplus_demangle(callee, flags | DMGL_AUTO);
	free(callee);
	if (!d)
		return NULL;
	out = pm_malloc(strlen(d) + n + 1);
	memcpy(out, d, strlen(d));
	memcpy(out + strlen(d), plt, n + 1);
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
