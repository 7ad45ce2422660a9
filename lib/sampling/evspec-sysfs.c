// SPDX-License-Identifier: GPL-2.0
/*
 * The sysfs and tracefs files the event parser reads: a PMU's type,
 * format/ bit fields and events/ aliases, and tracepoint ids. Every path
 * is under a caller-given root so tests can describe PMUs this machine
 * does not have (an Alpha `cpu` PMU with a profileme bit).
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/evspec.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"
#include "sampling/evspec-int.h"

#define PMU_DIR "bus/event_source/devices"

static char *read_path(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[4096];
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return pm_strdup(buf);
}

char *pm_sysfs_read(const char *root, const char *fmt, ...)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	va_list ap;
	char *s;

	pm_strbuf__adds(&sb, root ? root : "/sys");
	pm_strbuf__addc(&sb, '/');
	va_start(ap, fmt);
	pm_strbuf__vaddf(&sb, fmt, ap);
	va_end(ap);
	s = read_path(pm_strbuf__str(&sb));
	pm_strbuf__release(&sb);
	return s;
}

/* A name that cannot climb out of the directory it names a file in. */
static bool safe_name(const char *s, size_t len)
{
	size_t i;

	if (!len || (len <= 2 && s[0] == '.'))
		return false;
	for (i = 0; i < len; i++)
		if (s[i] == '/' || s[i] == 0)
			return false;
	return true;
}

bool pm_sysfs_pmu_exists(const char *root, const char *pmu, size_t len)
{
	char *t;

	if (!safe_name(pmu, len))
		return false;
	t = pm_sysfs_read(root, PMU_DIR "/%.*s/type", (int)len, pmu);
	free(t);
	return t != NULL;
}

int pm_sysfs_pmu_type(const char *root, const char *pmu, uint32_t *type)
{
	char *t, *end;
	unsigned long v;

	if (!safe_name(pmu, strlen(pmu)))
		return -1;
	t = pm_sysfs_read(root, PMU_DIR "/%s/type", pmu);
	if (!t)
		return -1;
	errno = 0;
	v = strtoul(t, &end, 10);
	if (errno || end == t || *end || v > UINT32_MAX) {
		free(t);
		return -1;
	}
	free(t);
	*type = (uint32_t)v;
	return 0;
}

int pm_evspec_parse_format(const char *spec, int *field, uint64_t *mask)
{
	const char *p = spec;
	uint64_t m = 0;

	if (!strncmp(p, "config", 6)) {
		p += 6;
		if (*p >= '1' && *p <= '3')
			*field = *p++ - '0';
		else
			*field = 0;
	} else {
		return -1;
	}
	if (*p++ != ':')
		return -1;
	for (;;) {
		char *end;
		unsigned long lo, hi;

		lo = strtoul(p, &end, 10);
		if (end == p || lo > 63)
			return -1;
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			hi = strtoul(p, &end, 10);
			if (end == p || hi > 63 || hi < lo)
				return -1;
			p = end;
		}
		for (unsigned long b = lo; b <= hi; b++)
			m |= 1ULL << b;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == 0 || *p == '\n')
			break;
		return -1;
	}
	*mask = m;
	return 0;
}

int pm_evspec_format_value(uint64_t mask, uint64_t value, uint64_t *out)
{
	uint64_t r = 0, v = value;
	unsigned int b;

	for (b = 0; b < 64; b++) {
		if (!(mask >> b & 1))
			continue;
		if (v & 1)
			r |= 1ULL << b;
		v >>= 1;
	}
	if (v)
		return -1;	/* bits left over: the value is too big */
	*out = r;
	return 0;
}

int pm_sysfs_pmu_format(const char *root, const char *pmu, const char *term,
			int *field, uint64_t *mask)
{
	char *spec;
	int ret;

	if (!safe_name(term, strlen(term)))
		return -1;
	spec = pm_sysfs_read(root, PMU_DIR "/%s/format/%s", pmu, term);
	if (!spec)
		return -1;
	ret = pm_evspec_parse_format(spec, field, mask);
	free(spec);
	return ret;
}

char *pm_sysfs_pmu_alias(const char *root, const char *pmu, const char *name)
{
	if (!safe_name(name, strlen(name)))
		return NULL;
	return pm_sysfs_read(root, PMU_DIR "/%s/events/%s", pmu, name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of a directory, sorted (readdir order is arbitrary). */
char **pm_sysfs_list_dir(const char *path, size_t *nr)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, alloc = 0;

	*nr = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		PM_GROW(v, alloc, n + 1);
		v[n++] = pm_strdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	*nr = n;
	return v;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void pm_sysfs_free_list(char **v, size_t nr)
{
	free_list(v, nr);
}

char **pm_sysfs_pmus(const char *root, size_t *nr)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	char **v;

	pm_strbuf__addf(&sb, "%s/" PMU_DIR, root ? root : "/sys");
	v = pm_sysfs_list_dir(pm_strbuf__str(&sb), nr);
	pm_strbuf__release(&sb);
	return v;
}

char **pm_sysfs_pmu_dir(const char *root, const char *pmu, const char *sub, size_t *nr)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	char **v;

	*nr = 0;
	if (!safe_name(pmu, strlen(pmu)) || !safe_name(sub, strlen(sub)))
		return NULL;
	pm_strbuf__addf(&sb, "%s/" PMU_DIR "/%s/%s", root ? root : "/sys", pmu, sub);
	v = pm_sysfs_list_dir(pm_strbuf__str(&sb), nr);
	pm_strbuf__release(&sb);
	return v;
}

bool pm_sysfs_pmu_is_core(const char *root, const char *pmu)
{
	char *cpus;

	if (!strcmp(pmu, "cpu") || !strcmp(pmu, "cpum_cf"))
		return true;
	if (!safe_name(pmu, strlen(pmu)))
		return false;
	cpus = pm_sysfs_read(root, PMU_DIR "/%s/cpus", pmu);
	free(cpus);
	return cpus != NULL;
}

int pm_sysfs_nr_core_pmus(const char *root)
{
	size_t n, i;
	char **v = pm_sysfs_pmus(root, &n);
	int cores = 0;

	for (i = 0; i < n; i++)
		cores += pm_sysfs_pmu_is_core(root, v[i]);
	free_list(v, n);
	return cores;
}

char *pm_sysfs_find_alias_pmu(const char *root, const char *name)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	char **pmus, *found = NULL;
	size_t n, i;

	pm_strbuf__addf(&sb, "%s/" PMU_DIR, root ? root : "/sys");
	pmus = pm_sysfs_list_dir(pm_strbuf__str(&sb), &n);
	pm_strbuf__release(&sb);
	for (i = 0; i < n && !found; i++) {
		char *a = pm_sysfs_pmu_alias(root, pmus[i], name);

		if (a) {
			found = pm_strdup(pmus[i]);
			free(a);
		}
	}
	free_list(pmus, n);
	return found;
}

char *pm_sysfs_pmu_format_names(const char *root, const char *pmu)
{
	struct pm_strbuf sb = PM_STRBUF_INIT, out = PM_STRBUF_INIT;
	char **v;
	size_t n, i;

	pm_strbuf__addf(&sb, "%s/" PMU_DIR "/%s/format", root ? root : "/sys", pmu);
	v = pm_sysfs_list_dir(pm_strbuf__str(&sb), &n);
	pm_strbuf__release(&sb);
	for (i = 0; i < n; i++) {
		if (i)
			pm_strbuf__addc(&out, ',');
		pm_strbuf__adds(&out, v[i]);
	}
	free_list(v, n);
	pm_strbuf__str(&out);
	return out.buf ? pm_strbuf__detach(&out) : pm_strdup("");
}

int pm_sysfs_tracepoint_id(const char *root, const char *sys, const char *name,
			   uint64_t *id)
{
	static const char *const bases[] = {
		"kernel/tracing/events", "kernel/debug/tracing/events",
	};
	size_t i;

	if (!safe_name(sys, strlen(sys)) || !safe_name(name, strlen(name)))
		return -1;
	for (i = 0; i < PM_ARRAY_SIZE(bases); i++) {
		char *t = pm_sysfs_read(root, "%s/%s/%s/id", bases[i], sys, name);
		char *end;

		if (!t)
			continue;
		*id = strtoull(t, &end, 10);
		if (end == t || *end) {
			free(t);
			return -1;
		}
		free(t);
		return 0;
	}
	return -1;
}
