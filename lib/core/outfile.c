// SPDX-License-Identifier: GPL-2.0
/*
 * Output files written whole or not at all (see include/pmprof/outfile.h):
 * a temporary file beside the final name, renamed into place when
 * complete; standard output and devices written in place.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmprof/outfile.h"
#include "pmprof/util.h"

#define MAX_LINKS 40			/* the kernel's limit, for our own walk */
#define PARTIAL_SUFFIX ".partial"

struct pm_outfile {
	char *name;			/* as given */
	char *target;			/* the file replaced: links followed */
	char *partial;			/* the temporary file; NULL: in place */
	int fd;
	bool own_fd;
	bool keep_old;
};

int pm_write_all(int fd, const void *buf, size_t len, const char *name,
		 struct pm_error *err)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* write() returns 0 only where nothing can go */
			int e = n < 0 ? errno : EIO;

			return pm_error__fmt(err, e, "%s: write failed: %s",
					     name, strerror(e));
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* ---- names ---- */

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return pm_strdup(".");
	if (slash == path)
		return pm_strdup("/");
	return pm_strndup(path, (size_t)(slash - path));
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static char *join(const char *a, const char *sep, const char *b)
{
	size_t n = strlen(a) + strlen(sep) + strlen(b) + 1;
	char *s = pm_malloc(n);

	snprintf(s, n, "%s%s%s", a, sep, b);
	return s;
}

/*
 * PATH with a symlink at its last component followed to the end of the
 * chain: the file that open(2) would write. Directories on the way need
 * no following (the temporary file sits in the same one either way).
 */
static char *follow_links(const char *path, struct pm_error *err)
{
	char *cur = pm_strdup(path);
	int i;

	for (i = 0; i < MAX_LINKS; i++) {
		char buf[PATH_MAX], *next;
		struct stat st;
		ssize_t n;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, buf, sizeof(buf) - 1);
		if (n < 0)
			return cur;
		buf[n] = '\0';
		if (buf[0] == '/' || !strchr(cur, '/')) {
			next = pm_strdup(buf);
		} else {
			char *dir = dir_of(cur);

			next = join(dir, "/", buf);
			free(dir);
		}
		free(cur);
		cur = next;
	}
	free(cur);
	pm_error__fmt(err, ELOOP, "%s: %s", path, strerror(ELOOP));
	return NULL;
}

/* ---- same file ---- */

static bool same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The directory resolved, then the name: for files that do not exist. */
static char *canonical(const char *path)
{
	char *target = follow_links(path, NULL), *dir, *real, *out;

	if (!target)
		return pm_strdup(path);
	dir = dir_of(target);
	real = realpath(dir, NULL);
	out = real ? join(real, "/", base_of(target)) : pm_strdup(target);
	free(real);
	free(dir);
	free(target);
	return out;
}

bool pm_path__same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	bool ea, eb, same;
	char *ca, *cb;

	if (!strcmp(a, "-") || !strcmp(b, "-"))
		return !strcmp(a, b);
	ea = !stat(a, &sa);
	eb = !stat(b, &sb);
	if (ea && eb)
		return same_inode(&sa, &sb);
	if (ea != eb)
		return false;
	ca = canonical(a);
	cb = canonical(b);
	same = !strcmp(ca, cb);
	free(ca);
	free(cb);
	return same;
}

/* Refuse to write over the input: reading a file being truncated or
 * rewritten under a mapping dies or reads garbage. Regular files only. */
static int check_not_input(const char *name, const struct stat *out,
			   const char *input, struct pm_error *err)
{
	struct stat in;
	int ok = !strcmp(input, "-") ? fstat(STDIN_FILENO, &in) : stat(input, &in);

	if (ok || !S_ISREG(in.st_mode) || !S_ISREG(out->st_mode) ||
	    !same_inode(&in, out))
		return 0;
	return pm_error__fmt(err, PM_EUSAGE,
			     "%s is the input file %s (the same device and inode): write the output to another file",
			     name, !strcmp(input, "-") ? "(standard input)" : input);
}

/* ---- open ---- */

static void outfile_free(struct pm_outfile *f)
{
	if (f->own_fd && f->fd >= 0)
		close(f->fd);
	free(f->name);
	free(f->target);
	free(f->partial);
	free(f);
}

/* TARGET.PID.partial, or TARGET.PID-N.partial if a process with our pid
 * left one behind earlier: never reuse (and so destroy) another's file. */
static int create_partial(struct pm_outfile *f, struct pm_error *err)
{
	char *name;
	size_t n;
	int i;

	n = strlen(f->target) + 64;
	name = pm_malloc(n);
	for (i = 0; i < 1000; i++) {
		if (i)
			snprintf(name, n, "%s.%d-%d%s", f->target, (int)getpid(),
				 i, PARTIAL_SUFFIX);
		else
			snprintf(name, n, "%s.%d%s", f->target, (int)getpid(),
				 PARTIAL_SUFFIX);
		f->fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (f->fd >= 0) {
			f->partial = name;
			f->own_fd = true;
			return 0;
		}
		if (errno != EEXIST)
			break;
	}
	pm_error__fmt(err, errno, "%s: cannot create the temporary file %s: %s",
		      f->name, name, strerror(errno));
	free(name);
	return -1;
}

int pm_outfile__open(struct pm_outfile **out, const char *path,
		     const struct pm_outfile_opts *opts,
		     struct pm_error *err)
{
	static const struct pm_outfile_opts defaults;
	struct pm_outfile_opts o;
	struct pm_outfile *f;
	struct stat st;
	bool exists;

	*out = NULL;
	PM_OPTS_COPY(&o, opts, defaults);
	f = pm_zalloc(sizeof(*f));
	f->fd = -1;
	f->keep_old = o.keep_old;
	if (!strcmp(path, "-")) {
		f->name = pm_strdup("(standard output)");
		f->fd = STDOUT_FILENO;
		if (o.input && !fstat(STDOUT_FILENO, &st) &&
		    check_not_input(f->name, &st, o.input, err))
			goto fail;
		*out = f;
		return 0;
	}
	f->name = pm_strdup(path);
	f->target = follow_links(path, err);
	if (!f->target)
		goto fail;
	exists = !stat(f->target, &st);
	if (!exists && errno != ENOENT) {
		pm_error__fmt(err, errno, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (exists && S_ISDIR(st.st_mode)) {
		pm_error__fmt(err, EISDIR, "%s: is a directory", path);
		goto fail;
	}
	if (exists && o.input && check_not_input(path, &st, o.input, err))
		goto fail;
	if (exists && !S_ISREG(st.st_mode)) {
		/* a device, FIFO or socket: nothing to replace */
		f->fd = open(f->target, O_WRONLY | O_CLOEXEC);
		if (f->fd < 0) {
			pm_error__fmt(err, errno, "%s: %s", path, strerror(errno));
			goto fail;
		}
		f->own_fd = true;
		*out = f;
		return 0;
	}
	if (create_partial(f, err))
		goto fail;
	if (exists && !o.keep_old) {
		/* replaced: keep what the file was allowed to be */
		if (fchmod(f->fd, st.st_mode & 0777)) {
			/* not ours to change: 0600 stays */
		}
		if (geteuid() == 0 && (st.st_uid != 0 || st.st_gid != 0) &&
		    fchown(f->fd, st.st_uid, st.st_gid)) {
			/* a filesystem without owners: root keeps it */
		}
	}
	*out = f;
	return 0;
fail:
	outfile_free(f);
	return err ? err->code : -EINVAL;
}

int pm_outfile__fd(const struct pm_outfile *f)
{
	return f->fd;
}

const char *pm_outfile__name(const struct pm_outfile *f)
{
	return f->name;
}

const char *pm_outfile__partial(const struct pm_outfile *f)
{
	return f->partial;
}

/* ---- close ---- */

/* perf record's backup: TARGET.old, hard-linked so that TARGET never
 * goes missing between the two renames (renamed where links fail). */
static int keep_old(struct pm_outfile *f, struct pm_error *err)
{
	struct stat st;
	char *old;
	int ret = 0;

	if (stat(f->target, &st) || !S_ISREG(st.st_mode) || !st.st_size)
		return 0;
	old = join(f->target, "", ".old");
	if (unlink(old) && errno != ENOENT)
		ret = -1;
	else if (link(f->target, old) && rename(f->target, old))
		ret = -1;
	if (ret)
		pm_error__fmt(err, errno, "%s: cannot keep the old file as %s: %s (the new one is %s)",
			      f->name, old, strerror(errno), f->partial);
	free(old);
	return ret;
}

int pm_outfile__commit(struct pm_outfile *f, struct pm_error *err)
{
	int ret = 0;

	if (f->own_fd && f->fd >= 0) {
		/* NFS and others report a failed write at close */
		if (close(f->fd))
			ret = pm_error__fmt(err, errno, "%s: %s", f->name,
					    strerror(errno));
		f->fd = -1;
	}
	if (f->partial && ret) {
		unlink(f->partial);
	} else if (f->partial) {
		if (f->keep_old)
			ret = keep_old(f, err);
		if (!ret && rename(f->partial, f->target))
			ret = pm_error__fmt(err, errno, "%s: cannot rename %s into place: %s (the data stays in %s)",
					    f->name, f->partial, strerror(errno),
					    f->partial);
	}
	outfile_free(f);
	return ret;
}

void pm_outfile__abort(struct pm_outfile *f)
{
	if (!f)
		return;
	if (f->partial)
		unlink(f->partial);
	outfile_free(f);
}

void pm_outfile__leave(struct pm_outfile *f)
{
	if (f)
		outfile_free(f);
}

/* ---- what killed writers left ---- */

/* "PID.partial" or "PID-N.partial": the pid, else 0. */
static int partial_pid(const char *s)
{
	long pid = 0;

	if (*s < '1' || *s > '9')
		return 0;
	while (*s >= '0' && *s <= '9' && pid < INT_MAX / 10)
		pid = pid * 10 + (*s++ - '0');
	if (*s == '-') {
		if (*++s < '1' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return strcmp(s, PARTIAL_SUFFIX) ? 0 : (int)pid;
}

int pm_outfile__partials(const char *path,
			 void (*fn)(void *ctx, const char *partial, int pid),
			 void *ctx)
{
	char *target, *dir;
	const char *base;
	size_t blen;
	struct dirent *de;
	DIR *d;
	int count = 0;

	if (!strcmp(path, "-") || !(target = follow_links(path, NULL)))
		return 0;
	dir = dir_of(target);
	base = base_of(target);
	blen = strlen(base);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		int pid;
		char *p;

		if (strncmp(de->d_name, base, blen) || de->d_name[blen] != '.')
			continue;
		pid = partial_pid(de->d_name + blen + 1);
		/* gone: no such process (EPERM means it runs as another user) */
		if (!pid || pid == getpid() || !kill(pid, 0) || errno != ESRCH)
			continue;
		p = strchr(target, '/') ? join(dir, "/", de->d_name)
					: pm_strdup(de->d_name);
		fn(ctx, p, pid);
		free(p);
		count++;
	}
	if (d)
		closedir(d);
	free(dir);
	free(target);
	return count;
}
