// SPDX-License-Identifier: GPL-2.0
/*
 * Filling the build-id cache (see symbols.h for the layout). The reading
 * side is load.c's cache_path(); both follow perf, which creates every
 * directory 0755 and names the kernel's entry "[kernel.kallsyms]".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmprof/error.h"
#include "pmprof/strbuf.h"
#include "pmprof/symbols.h"
#include "pmprof/util.h"

#define KERNEL_NAME "[kernel.kallsyms]"

char *pm_buildid_cache__default_dir(void)
{
	const char *home = getenv("HOME");
	struct pm_strbuf sb = PM_STRBUF_INIT;

	if (!home || !*home)
		return NULL;
	pm_strbuf__addf(&sb, "%s/.debug", home);
	return pm_strbuf__detach(&sb);
}

/* mkdir -p, each new directory 0755. */
static int make_dirs(const char *path, struct pm_error *err)
{
	char *p = pm_strdup(path), *s;
	int ret = 0;

	for (s = p + 1; ; s++) {
		if (*s != '/' && *s)
			continue;
		{
			char c = *s;

			*s = 0;
			if (mkdir(p, 0755) && errno != EEXIST)
				ret = pm_error__fmt(err, -errno, "%s: cannot create: %s", p,
						    strerror(errno));
			*s = c;
		}
		if (ret || !*s)
			break;
	}
	free(p);
	return ret;
}

/* Copy src to a temporary beside dst, then rename: a reader never sees
 * half a file. */
static int copy_file(const char *src, const char *dst, mode_t mode, struct pm_error *err)
{
	struct pm_strbuf tmp = PM_STRBUF_INIT;
	char buf[65536];
	int in, out, ret = 0;
	ssize_t n;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return pm_error__fmt(err, -errno, "%s: %s", src, strerror(errno));
	pm_strbuf__addf(&tmp, "%s.tmp%d", dst, (int)getpid());
	out = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (out < 0) {
		ret = pm_error__fmt(err, -errno, "%s: %s", tmp.buf, strerror(errno));
		goto out;
	}
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		char *q = buf;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = pm_error__fmt(err, -errno, "%s: %s", src, strerror(errno));
			break;
		}
		while (n > 0) {
			ssize_t w = write(out, q, (size_t)n);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				ret = pm_error__fmt(err, w < 0 ? -errno : -ENOSPC, "%s: %s", tmp.buf,
						    strerror(w < 0 ? errno : ENOSPC));
				break;
			}
			q += w;
			n -= w;
		}
		if (ret)
			break;
	}
	if (close(out) && !ret)
		ret = pm_error__fmt(err, -errno, "%s: %s", tmp.buf, strerror(errno));
	if (!ret && rename(tmp.buf, dst))
		ret = pm_error__fmt(err, -errno, "%s: %s", dst, strerror(errno));
	if (ret)
		unlink(tmp.buf);
out:
	close(in);
	pm_strbuf__release(&tmp);
	return ret;
}

int pm_buildid_cache__add(const char *dir, const char *name, const char *src,
			  const uint8_t *id, size_t id_size, struct pm_error *err)
{
	struct pm_strbuf entry = PM_STRBUF_INIT, file = PM_STRBUF_INIT;
	struct pm_strbuf link = PM_STRBUF_INIT, target = PM_STRBUF_INIT;
	bool kernel = !strcmp(name, KERNEL_NAME);
	char hex[129];
	struct stat st;
	int ret;

	if (!dir || !id_size || id_size > 64)
		return pm_error__fmt(err, -EINVAL, "%s: no build id to cache", name);
	if (!kernel && name[0] != '/')
		return pm_error__fmt(err, -EINVAL, "%s: not an absolute path", name);
	pm_build_id__hex(id, id_size, hex);
	if (!src)
		src = kernel ? "/proc/kallsyms" : name;
	/* DIR/PATH/HEX: a path with "/../" could climb out of DIR */
	if (strstr(name, "/../") || strstr(name, "/./")) {
		pm_error__fmt(err, -EINVAL, "%s: not a plain path", name);
		return -EINVAL;
	}
	pm_strbuf__addf(&entry, "%s%s%s/%s", dir, kernel ? "/" : "", name, hex);
	pm_strbuf__addf(&file, "%s/%s", entry.buf, kernel ? "kallsyms" : "elf");
	pm_strbuf__addf(&link, "%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	pm_strbuf__addf(&target, "../..%s%s/%s", kernel ? "/" : "", name, hex);
	ret = 0;
	if (lstat(file.buf, &st)) {
		if (stat(src, &st)) {
			ret = pm_error__fmt(err, -errno, "%s: %s", src, strerror(errno));
			goto out;
		}
		ret = make_dirs(entry.buf, err);
		if (!ret)
			ret = copy_file(src, file.buf, kernel ? 0644 : (st.st_mode & 0777), err);
		if (ret)
			goto out;
		ret = 1;
	}
	if (lstat(link.buf, &st)) {
		char *slash;
		int r;

		slash = strrchr(link.buf, '/');
		*slash = 0;
		r = make_dirs(link.buf, err);
		*slash = '/';
		if (!r && symlink(target.buf, link.buf) && errno != EEXIST)
			r = pm_error__fmt(err, -errno, "%s: %s", link.buf, strerror(errno));
		if (r)
			ret = r;
		else if (!ret)
			ret = 1;
	}
out:
	pm_strbuf__release(&entry);
	pm_strbuf__release(&file);
	pm_strbuf__release(&link);
	pm_strbuf__release(&target);
	return ret;
}
