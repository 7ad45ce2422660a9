// SPDX-License-Identifier: GPL-2.0
/*
 * The hf probe's per-boot cache: a small text file of the user's, one
 * answer a line,
 *
 *	BOOT_ID TYPE CONFIG present|absent WHY...
 *
 * Only lines of the current boot count (an answer is about the running
 * kernel); writing one drops the other boots'. The file is replaced by
 * rename, so a reader never sees half of it, and it is read only when it
 * is a regular file owned by the user and writable by nobody else: a
 * planted file cannot make pmprof trust a kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmprof/hfprobe.h"
#include "pmprof/util.h"

#define CACHE_MAX	65536	/* a few lines; anything bigger is not ours */

int pm_hf_probe__cache_path(char *buf, size_t size)
{
	const char *env = getenv("PMPROF_HF_PROBE_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (env)
		n = !*env || !strcmp(env, "none") ? -1 : snprintf(buf, size, "%s", env);
	else if (xdg && xdg[0] == '/')
		n = snprintf(buf, size, "%s/pmprof/hf-probe", xdg);
	else if (home && home[0] == '/')
		n = snprintf(buf, size, "%s/.cache/pmprof/hf-probe", home);
	else
		n = -1;
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* The file's bytes (NUL-terminated) when it is safe to trust; NULL. */
static char *read_trusted(const char *path)
{
	struct stat st;
	char *buf;
	ssize_t got;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)) || st.st_size > CACHE_MAX) {
		close(fd);
		return NULL;
	}
	buf = pm_malloc((size_t)st.st_size + 1);
	got = read(fd, buf, (size_t)st.st_size);
	close(fd);
	if (got < 0) {
		free(buf);
		return NULL;
	}
	buf[got] = 0;
	return buf;
}

struct cache_line {
	char boot[64];
	uint32_t type;
	uint64_t config;
	enum pm_hf_verdict verdict;
	const char *why;		/* points into the line */
};

/* Parse "BOOT TYPE CONFIG VERDICT WHY"; 0 or -1. */
static int parse_line(const char *line, struct cache_line *l)
{
	unsigned long t;
	unsigned long long c;
	char verdict[16];
	int used = 0;

	if (sscanf(line, "%63s %lu %llu %15s %n", l->boot, &t, &c, verdict, &used) != 4 ||
	    !used || t > UINT32_MAX)
		return -1;
	if (!strcmp(verdict, "present"))
		l->verdict = PM_HF_PRESENT;
	else if (!strcmp(verdict, "absent"))
		l->verdict = PM_HF_ABSENT;
	else
		return -1;
	l->type = (uint32_t)t;
	l->config = c;
	l->why = line + used;
	return 0;
}

int pm_hf_probe__cache_get(const char *path, const char *boot_id, uint32_t type,
			   uint64_t config, struct pm_hf_probe *out)
{
	char *text = read_trusted(path), *line, *save = NULL;
	int found = 0;

	if (!text)
		return 0;
	for (line = strtok_r(text, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		struct cache_line l;

		if (parse_line(line, &l) || strcmp(l.boot, boot_id) || l.type != type ||
		    l.config != config)
			continue;
		out->verdict = l.verdict;
		out->type = l.type;
		out->config = l.config;
		out->definite = true;
		snprintf(out->why, sizeof(out->why), "%s", l.why);
		found = 1;
	}
	free(text);
	return found;
}

/* mkdir -p for the cache's directory, 0700 for what it creates; the
 * directory itself must be the user's and not writable by others. */
static int make_dir(const char *file)
{
	char dir[4096], *p;
	struct stat st;

	if (snprintf(dir, sizeof(dir), "%s", file) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return -EINVAL;
	*p = 0;
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(dir, 0700) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	if (lstat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))
		return -EPERM;
	return 0;
}

int pm_hf_probe__cache_put(const char *path, const char *boot_id,
			   const struct pm_hf_probe *p)
{
	char tmp[4200], *old, *line, *save = NULL;
	FILE *f;
	int fd, ret;

	if (strchr(boot_id, ' ') || strchr(boot_id, '\n') || !*boot_id)
		return -EINVAL;
	ret = make_dir(path);
	if (ret)
		return ret;
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		unlink(tmp);
		return ret;
	}
	/* this boot's answers for other events stay */
	old = read_trusted(path);
	for (line = old ? strtok_r(old, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct cache_line l;

		if (!parse_line(line, &l) && !strcmp(l.boot, boot_id) &&
		    (l.type != p->type || l.config != p->config))
			fprintf(f, "%s\n", line);
	}
	free(old);
	fprintf(f, "%s %u %llu %s ", boot_id, p->type, (unsigned long long)p->config,
		p->verdict == PM_HF_PRESENT ? "present" : "absent");
	for (const char *w = p->why; *w; w++)
		fputc(*w == '\n' ? ' ' : *w, f);
	fputc('\n', f);
	if (fclose(f)) {
		ret = -errno;
		unlink(tmp);
		return ret;
	}
	if (rename(tmp, path)) {
		ret = -errno;
		unlink(tmp);
		return ret;
	}
	return 0;
}
