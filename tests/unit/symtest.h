/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the symbols tests: a scratch directory, running tools
 * (gcc, readelf, nm, addr2line, objcopy) and parsing what they print, so
 * expected values come from binutils, not from the code under test.
 */
#ifndef PMPROF_TESTS_SYMTEST_H
#define PMPROF_TESTS_SYMTEST_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmprof/strbuf.h"
#include "pmprof/util.h"

/* Run a shell command; its stdout in a malloc()ed string, NULL on failure. */
static inline char *st_run(const char *fmt, ...)
{
	struct pm_strbuf cmd = PM_STRBUF_INIT, out = PM_STRBUF_INIT;
	char buf[4096];
	va_list ap;
	FILE *p;
	size_t n;
	int rc;

	va_start(ap, fmt);
	pm_strbuf__vaddf(&cmd, fmt, ap);
	va_end(ap);
	p = popen(cmd.buf, "r");
	if (!p) {
		pm_strbuf__release(&cmd);
		return NULL;
	}
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		pm_strbuf__add(&out, buf, n);
	rc = pclose(p);
	if (rc != 0) {
		fprintf(stderr, "command failed (%d): %s\n", rc, cmd.buf);
		pm_strbuf__release(&cmd);
		pm_strbuf__release(&out);
		return NULL;
	}
	pm_strbuf__release(&cmd);
	pm_strbuf__addc(&out, '\0');
	out.len--;
	return pm_strbuf__detach(&out);
}

static inline bool st_have(const char *tool)
{
	char *r = st_run("command -v %s >/dev/null 2>&1 && echo yes || true",
			 tool);
	bool ok = r && !strncmp(r, "yes", 3);

	free(r);
	return ok;
}

static inline void st_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		abort();
	}
	fputs(text, f);
	fclose(f);
}

/* A scratch directory, removed by st_rmdir. */
static inline char *st_mkdtemp(void)
{
	char *d = pm_strdup("/tmp/pmprof-symtest.XXXXXX");

	if (!mkdtemp(d))
		abort();
	return d;
}

static inline void st_rmdir(char *d)
{
	free(st_run("rm -rf '%s'", d));
	free(d);
}

/* One symbol as readelf -sW shows it. */
struct st_sym {
	uint64_t value, size;
	char type[16], bind[16], ndx[16];
	char name[256];
};

/*
 * Parse `readelf -sW FILE` (all tables, or only .symtab / .dynsym when
 * `table` is given). Version suffixes ("@GLIBC_2.2.5") are cut.
 */
static inline size_t st_readelf_syms(const char *readelf, const char *file,
				     const char *table, struct st_sym **out)
{
	char *txt = st_run("%s -sW '%s'", readelf, file);
	char *line, *save = NULL;
	struct st_sym *v = NULL;
	size_t n = 0, alloc = 0;
	bool in = table == NULL;

	if (!txt)
		return 0;
	for (line = strtok_r(txt, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct st_sym s;
		unsigned num;
		char *at;

		if (strstr(line, "Symbol table '")) {
			in = !table || strstr(line, table);
			continue;
		}
		/* st_other notes such as Alpha's "[STD GPLOAD]": drop them */
		for (char *b = strstr(line, " ["), *e; b && (e = strchr(b, ']'));
		     b = strstr(line, " ["))
			memmove(b, e + 1, strlen(e + 1) + 1);
		memset(&s, 0, sizeof(s));
		if (!in || sscanf(line, " %u: %" SCNx64 " %" SCNu64 " %15s %15s %*s %15s %255s",
				  &num, &s.value, &s.size, s.type, s.bind,
				  s.ndx, s.name) != 7)
			continue;
		if ((at = strchr(s.name, '@')))
			*at = '\0';
		PM_GROW(v, alloc, n + 1);
		v[n++] = s;
	}
	free(txt);
	*out = v;
	return n;
}

/* Is `name` among the readelf symbols at `value` (aliases)? */
static inline bool st_alias(const struct st_sym *v, size_t n, uint64_t value,
			    const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].value == value && !strcmp(v[i].name, name))
			return true;
	return false;
}

/* A section's address and file offset from `readelf -SW`. */
static inline bool st_section(const char *readelf, const char *file,
			      const char *sec, uint64_t *addr, uint64_t *off)
{
	char *txt = st_run("%s -SW '%s'", readelf, file);
	char *line, *save = NULL, name[128], type[64];
	bool ok = false;

	if (!txt)
		return false;
	for (line = strtok_r(txt, "\n", &save); line && !ok;
	     line = strtok_r(NULL, "\n", &save)) {
		char *b = strchr(line, ']');

		if (!strchr(line, '[') || !b)
			continue;
		if (sscanf(b + 1, " %127s %63s %" SCNx64 " %" SCNx64, name,
			   type, addr, off) == 4 && !strcmp(name, sec))
			ok = true;
	}
	free(txt);
	return ok;
}

#endif
