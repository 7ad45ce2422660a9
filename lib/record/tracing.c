// SPDX-License-Identifier: GPL-2.0
/*
 * HEADER_TRACING_DATA: what `perf report` and `perf script` need to
 * decode a tracepoint's raw data, in the layout perf's trace-event-info
 * writes (version 0.6), every number in this machine's byte order:
 *
 *   "\x17\x08\x44" "tracing" "0.6\0"  endian (0 little)  sizeof(long)
 *   u32 page size
 *   "header_page\0"  u64 size, events/header_page
 *   "header_event\0" u64 size, events/header_event
 *   u32 count, then per ftrace-system event:      u64 size, its format
 *   u32 systems, per system: "name\0" u32 count, per event: u64 size, format
 *   u32 size, kallsyms (0: perf 6.1 writes none)
 *   u32 size, printk_formats
 *   u64 size, saved_cmdlines
 *
 * Only the events recorded are described, grouped by system in the order
 * they first appear.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record-int.h"
#include "pmprof/tracefs.h"
#include "pmprof/util.h"

struct tp {
	char *sys, *name;
};

static void put32(struct pm_strbuf *b, uint32_t v)
{
	pm_strbuf__add(b, (const char *)&v, 4);
}

static void put64(struct pm_strbuf *b, uint64_t v)
{
	pm_strbuf__add(b, (const char *)&v, 8);
}

/* A tracefs file with its size before it (4 or 8 bytes). */
static int put_file(struct pm_strbuf *b, const char *dir, const char *rel,
		    int size_bytes, bool optional, struct pm_error *err)
{
	char path[4200], *buf = NULL;
	size_t len = 0;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	ret = pm_read_file(path, &buf, &len, err);
	if (ret && !optional)
		return ret;
	if (size_bytes == 4)
		put32(b, (uint32_t)len);
	else
		put64(b, len);
	pm_strbuf__add(b, buf ? buf : "", len);
	free(buf);
	return 0;
}

static bool id_is(const char *dir, const char *sys, const char *name, uint64_t id)
{
	char path[4200], *buf;
	size_t len;
	bool same;

	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys, name);
	if (pm_read_file(path, &buf, &len, NULL))
		return false;
	same = strtoull(buf, NULL, 10) == id;
	free(buf);
	return same;
}

/* The system and name of tracepoint `id`: from the event's name when it
 * is "sys:name[...]" with that id, else by looking through events/. */
static int find_tp(const char *dir, const char *evname, uint64_t id, struct tp *out)
{
	const char *colon = strchr(evname, ':');
	char events[4200];
	struct dirent *s, *e;
	DIR *sd, *ed;

	if (colon) {
		size_t n = strcspn(colon + 1, ":/");

		out->sys = pm_strndup(evname, (size_t)(colon - evname));
		out->name = pm_strndup(colon + 1, n);
		if (id_is(dir, out->sys, out->name, id))
			return 0;
		free(out->sys);
		free(out->name);
	}
	snprintf(events, sizeof(events), "%s/events", dir);
	sd = opendir(events);
	if (!sd)
		return -ENOENT;
	while ((s = readdir(sd))) {
		char sysdir[4200 + 256];

		if (s->d_name[0] == '.')
			continue;
		snprintf(sysdir, sizeof(sysdir), "%s/%s", events, s->d_name);
		ed = opendir(sysdir);
		if (!ed)
			continue;
		while ((e = readdir(ed)))
			if (e->d_name[0] != '.' && id_is(dir, s->d_name, e->d_name, id)) {
				out->sys = pm_strdup(s->d_name);
				out->name = pm_strdup(e->d_name);
				closedir(ed);
				closedir(sd);
				return 0;
			}
		closedir(ed);
	}
	closedir(sd);
	return -ENOENT;
}

static int put_formats(struct pm_strbuf *b, const char *dir, const struct tp *tps,
		       size_t n, const char *sys, struct pm_error *err)
{
	char rel[600];
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		if (strcmp(tps[i].sys, sys))
			continue;
		snprintf(rel, sizeof(rel), "events/%s/%s/format", tps[i].sys, tps[i].name);
		ret = put_file(b, dir, rel, 8, false, err);
		if (ret)
			return ret;
	}
	return 0;
}

static uint32_t count_in(const struct tp *tps, size_t n, const char *sys)
{
	uint32_t c = 0;
	size_t i;

	for (i = 0; i < n; i++)
		c += !strcmp(tps[i].sys, sys);
	return c;
}

int pm_tracing_data__build(const struct pm_tracepoint_ref *evs, size_t nr,
			   struct pm_strbuf *out, struct pm_error *err)
{
	struct tp *tps = pm_calloc(nr ? nr : 1, sizeof(*tps));
	const char **systems = pm_calloc(nr ? nr : 1, sizeof(*systems));
	uint32_t nsys = 0;
	char dir[256];
	size_t i, n = 0, k;
	int ret;

	ret = pm_tracefs__find(NULL, dir, sizeof(dir));
	if (ret) {
		ret = pm_error__fmt(err, ret, "tracing data: tracefs is not mounted");
		goto out;
	}
	for (i = 0; i < nr; i++) {
		bool dup = false;

		ret = find_tp(dir, evs[i].name, evs[i].id, &tps[n]);
		if (ret) {
			ret = pm_error__fmt(err, ret, "tracing data: %s: no tracepoint with id %llu "
					    "under %s/events", evs[i].name,
					    (unsigned long long)evs[i].id, dir);
			goto out;
		}
		for (k = 0; k < n && !dup; k++)
			dup = !strcmp(tps[k].sys, tps[n].sys) && !strcmp(tps[k].name, tps[n].name);
		if (dup) {
			free(tps[n].sys);
			free(tps[n].name);
			continue;
		}
		for (k = 0; k < nsys && strcmp(systems[k], tps[n].sys); k++)
			;
		if (k == nsys && strcmp(tps[n].sys, "ftrace"))
			systems[nsys++] = tps[n].sys;
		n++;
	}
	pm_strbuf__add(out, "\x17\x08\x44" "tracing" "0.6", 13);
	pm_strbuf__addc(out, 0);
	pm_strbuf__addc(out, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	pm_strbuf__addc(out, (char)sizeof(long));
	put32(out, (uint32_t)sysconf(_SC_PAGESIZE));
	pm_strbuf__add(out, "header_page", 12);
	if ((ret = put_file(out, dir, "events/header_page", 8, false, err)))
		goto out;
	pm_strbuf__add(out, "header_event", 13);
	if ((ret = put_file(out, dir, "events/header_event", 8, false, err)))
		goto out;
	/* the ftrace system's events have a list of their own */
	put32(out, count_in(tps, n, "ftrace"));
	if ((ret = put_formats(out, dir, tps, n, "ftrace", err)))
		goto out;
	put32(out, nsys);
	for (k = 0; k < nsys; k++) {
		pm_strbuf__add(out, systems[k], strlen(systems[k]) + 1);
		put32(out, count_in(tps, n, systems[k]));
		if ((ret = put_formats(out, dir, tps, n, systems[k], err)))
			goto out;
	}
	put32(out, 0);		/* kallsyms: perf reads kernel symbols elsewhere */
	if ((ret = put_file(out, dir, "printk_formats", 4, true, err)))
		goto out;
	ret = put_file(out, dir, "saved_cmdlines", 8, true, err);
out:
	for (i = 0; i < n; i++) {
		free(tps[i].sys);
		free(tps[i].name);
	}
	free(tps);
	free(systems);
	return ret;
}
