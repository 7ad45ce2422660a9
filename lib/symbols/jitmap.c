// SPDX-License-Identifier: GPL-2.0
/*
 * perf map files written by JITs (/tmp/perf-PID.map): one symbol a line,
 * "START SIZE NAME", START and SIZE in hex with or without 0x, NAME to the
 * end of the line (it may hold spaces).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/error.h"
#include "pmprof/symbols.h"
#include "pmprof/util.h"
#include "symbols/internal.h"

/* Parse a hex number at *p (0x optional); false if there is none. */
static bool hex(const char **p, const char *end, uint64_t *v)
{
	const char *q = *p;
	int digits = 0;

	if (end - q > 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
		q += 2;
	*v = 0;
	for (; q < end && isxdigit((unsigned char)*q); q++) {
		int c = tolower((unsigned char)*q);

		if (++digits > 16)
			return false;
		*v = *v << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
	}
	if (!digits)
		return false;
	*p = q;
	return true;
}

int pm_jitmap__parse(const char *buf, size_t len, const char *what,
		     struct pm_symtab *tab, struct pm_error *err)
{
	const char *p = buf, *end = buf + len;
	size_t lineno = 0;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *q = p, *ne;
		uint64_t start, size;
		char *name;

		if (!eol)
			eol = end;
		lineno++;
		ne = eol;
		while (ne > q && isspace((unsigned char)ne[-1]))
			ne--;
		if (q == ne) {
			p = eol + 1;
			continue;
		}
		if (!hex(&q, ne, &start) || q >= ne || *q != ' ')
			goto bad;
		while (q < ne && *q == ' ')
			q++;
		if (!hex(&q, ne, &size) || q >= ne || *q != ' ')
			goto bad;
		while (q < ne && *q == ' ')
			q++;
		if (q == ne)
			goto bad;
		name = pm_strndup(q, (size_t)(ne - q));
		pm_symtab__add(tab, start, size, PM_SYM_FUNC, PM_BIND_GLOBAL,
			       name);
		free(name);
		p = eol + 1;
		continue;
bad:
		return pm_error__at(err, PM_EFORMAT, lineno,
				    "%s: line %zu: expected \"START SIZE NAME\"",
				    what, lineno);
	}
	return 0;
}

int pm_jitmap__load(const char *path, struct pm_symtab *tab,
		    struct pm_error *err)
{
	char *buf;
	size_t len;
	int r = pm_read_file(path, &buf, &len, err);

	if (r < 0)
		return r;
	r = pm_jitmap__parse(buf, len, path, tab, err);
	free(buf);
	return r;
}
