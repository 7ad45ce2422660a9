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
#define VDSO_NAME "[vdso]"

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

/* All of buf to fd, through short writes and signals. */
static int write_all(int fd, const char *what, const void *buf, size_t n,
		     struct pm_error *err)
{
	const char *q = buf;

	while (n > 0) {
		ssize_t w = write(fd, q, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return pm_error__fmt(err, w < 0 ? -errno : -ENOSPC, "%s: %s", what,
					     strerror(w < 0 ? errno : ENOSPC));
		q += w;
		n -= (size_t)w;
	}
	return 0;
}

/* What goes into the cache: a file's bytes, or an image in memory. */
struct cache_source {
	const char *path;	/* NULL: image */
	const void *image;
	size_t image_len;
};

static int write_source(int out, const char *what, const struct cache_source *src,
			struct pm_error *err)
{
	char buf[65536];
	ssize_t n;
	int in, ret = 0;

	if (!src->path)
		return write_all(out, what, src->image, src->image_len, err);
	in = open(src->path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return pm_error__fmt(err, -errno, "%s: %s", src->path, strerror(errno));
	while (!ret && (n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ret = pm_error__fmt(err, -errno, "%s: %s", src->path, strerror(errno));
		else
			ret = write_all(out, what, buf, (size_t)n, err);
	}
	close(in);
	return ret;
}

/* Write src to a temporary beside dst, then rename: a reader never sees
 * half a file. */
static int copy_file(const struct cache_source *src, const char *dst, mode_t mode,
		     struct pm_error *err)
{
	struct pm_strbuf tmp = PM_STRBUF_INIT;
	int out, ret;

	pm_strbuf__addf(&tmp, "%s.tmp%d", dst, (int)getpid());
	out = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (out < 0) {
		ret = pm_error__fmt(err, -errno, "%s: %s", tmp.buf, strerror(errno));
		pm_strbuf__release(&tmp);
		return ret;
	}
	ret = write_source(out, tmp.buf, src, err);
	if (close(out) && !ret)
		ret = pm_error__fmt(err, -errno, "%s: %s", tmp.buf, strerror(errno));
	if (!ret && rename(tmp.buf, dst))
		ret = pm_error__fmt(err, -errno, "%s: %s", dst, strerror(errno));
	if (ret)
		unlink(tmp.buf);
	pm_strbuf__release(&tmp);
	return ret;
}

/* The three kinds of entry: a file under its path, and the two perf
 * names in brackets, each with its own leaf file name. */
static const char *entry_leaf(const char *name, bool *bracketed)
{
	*bracketed = true;
	if (!strcmp(name, KERNEL_NAME))
		return "kallsyms";
	if (!strcmp(name, VDSO_NAME))
		return "vdso";
	*bracketed = false;
	return "elf";
}

static int add_entry(const char *dir, const char *name, const char *hex,
		     const struct cache_source *src, struct pm_error *err)
{
	struct pm_strbuf entry = PM_STRBUF_INIT, file = PM_STRBUF_INIT;
	struct pm_strbuf link = PM_STRBUF_INIT, target = PM_STRBUF_INIT;
	bool bracketed;
	const char *leaf = entry_leaf(name, &bracketed);
	const char *sep = bracketed ? "/" : "";
	struct stat st;
	int ret = 0;

	pm_strbuf__addf(&entry, "%s%s%s/%s", dir, sep, name, hex);
	pm_strbuf__addf(&file, "%s/%s", entry.buf, leaf);
	pm_strbuf__addf(&link, "%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	pm_strbuf__addf(&target, "../..%s%s/%s", sep, name, hex);
	if (lstat(file.buf, &st)) {
		mode_t mode = 0644;

		/* a program keeps its permissions; kallsyms and the vdso are data */
		if (src->path && stat(src->path, &st)) {
			ret = pm_error__fmt(err, -errno, "%s: %s", src->path, strerror(errno));
			goto out;
		}
		if (!bracketed)
			mode = st.st_mode & 0777;
		ret = make_dirs(entry.buf, err);
		if (!ret)
			ret = copy_file(src, file.buf, mode, err);
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

int pm_buildid_cache__add(const char *dir, const char *name, const char *src,
			  const uint8_t *id, size_t id_size, struct pm_error *err)
{
	struct cache_source from = { .path = src };
	void *image = NULL;
	bool bracketed;
	char hex[129];
	int ret;

	if (!dir || !id_size || id_size > 64)
		return pm_error__fmt(err, -EINVAL, "%s: no build id to cache", name);
	entry_leaf(name, &bracketed);
	if (!bracketed && name[0] != '/')
		return pm_error__fmt(err, -EINVAL, "%s: not an absolute path", name);
	/* DIR/PATH/HEX: a path with "/../" could climb out of DIR */
	if (strstr(name, "/../") || strstr(name, "/./"))
		return pm_error__fmt(err, -EINVAL, "%s: not a plain path", name);
	pm_build_id__hex(id, id_size, hex);
	if (!from.path && !strcmp(name, VDSO_NAME)) {
		uint8_t got[20], got_size;

		ret = pm_vdso__self_image(&image, &from.image_len, err);
		if (ret < 0)
			return ret;
		from.image = image;
		/* only the image the recording names: a 32-bit process's vdso
		 * is not this one */
		if (pm_build_id__from_image(image, from.image_len, got, &got_size) ||
		    got_size != id_size || memcmp(got, id, id_size)) {
			free(image);
			return pm_error__fmt(err, -ENOENT,
					     "[vdso]: this process's image has another build id");
		}
	} else if (!from.path) {
		from.path = !strcmp(name, KERNEL_NAME) ? "/proc/kallsyms" : name;
	}
	ret = add_entry(dir, name, hex, &from, err);
	free(image);
	return ret;
}
