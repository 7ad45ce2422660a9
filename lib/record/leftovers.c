// SPDX-License-Identifier: GPL-2.0
/*
 * What a recording that did not finish leaves behind, and what the next
 * one does about it: the partial perf.data (kept, and pointed out), the
 * burst cgroup of a recorder that was killed (removed), and how much of
 * a partial file is readable (what reached the disk).
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

#include "record-int.h"
#include "pmprof/outfile.h"
#include "pmprof/perfdata.h"
#include "pmprof/records.h"

struct note_ctx {
	void (*note)(void *ctx, const char *msg);
	void *ctx;
};

static void say_partial(void *ctx, const char *partial, int pid)
{
	const struct note_ctx *n = ctx;
	char msg[PATH_MAX + 256];

	snprintf(msg, sizeof(msg),
		 "%s: left by recorder %d, which did not finish; it reads up to its last complete record (pmprof report -i %s)",
		 partial, pid, partial);
	n->note(n->ctx, msg);
}

void pm_rec_leftovers__partials(const char *output,
				void (*note)(void *ctx, const char *msg),
				void *ctx)
{
	struct note_ctx n = { note, ctx };

	if (note)
		pm_outfile__partials(output, say_partial, &n);
}

/* pmprof-record-PID: the PID of the recorder that made it, else 0. */
static int cgroup_owner(const char *name)
{
	const char *prefix = PM_REC_CGROUP_PREFIX;
	size_t n = strlen(prefix);
	char *end;
	long pid;

	if (strncmp(name, prefix, n) || name[n] < '1' || name[n] > '9')
		return 0;
	pid = strtol(name + n, &end, 10);
	return *end || pid > INT32_MAX ? 0 : (int)pid;
}

/* Move whatever the killed workload left running to the parent cgroup:
 * an empty cgroup can go, and the processes are not ours to kill. */
static void empty_cgroup(const char *root, const char *dir)
{
	char path[PATH_MAX + 32], line[32];
	FILE *in;
	int out;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	in = fopen(path, "r");
	if (!in)
		return;
	snprintf(path, sizeof(path), "%s/cgroup.procs", root);
	out = open(path, O_WRONLY | O_CLOEXEC);
	while (out >= 0 && fgets(line, sizeof(line), in))
		if (write(out, line, strlen(line)) < 0)
			break;	/* gone meanwhile, or not movable: rmdir says */
	if (out >= 0)
		close(out);
	fclose(in);
}

int pm_rec_leftovers__cgroups(const char *root,
			      void (*note)(void *ctx, const char *msg),
			      void *ctx)
{
	struct dirent *de;
	DIR *d = opendir(root);
	int removed = 0;

	while (d && (de = readdir(d))) {
		char dir[PATH_MAX], msg[PATH_MAX + 128];
		int pid = cgroup_owner(de->d_name);

		/* ESRCH only: EPERM means a recorder of another user runs */
		if (!pid || pid == getpid() || !kill(pid, 0) || errno != ESRCH)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", root, de->d_name);
		empty_cgroup(root, dir);
		if (rmdir(dir)) {
			snprintf(msg, sizeof(msg),
				 "%s: left by recorder %d, which is gone; cannot remove it: %s",
				 dir, pid, strerror(errno));
		} else {
			removed++;
			snprintf(msg, sizeof(msg),
				 "removed %s, left by recorder %d, which is gone", dir, pid);
		}
		if (note)
			note(ctx, msg);
	}
	if (d)
		closedir(d);
	return removed;
}

int pm_rec_leftovers__count(const char *path, uint64_t *bytes,
			    uint64_t *samples)
{
	struct pm_reader *r;
	struct pm_record rec;
	struct pm_error err;
	struct stat st;

	*bytes = *samples = 0;
	if (stat(path, &st))
		return -errno;
	*bytes = (uint64_t)st.st_size;
	if (pm_reader__open(&r, path, NULL, &err))
		return err.code;
	/* the reader stops at the last complete record of a cut-off file */
	while (pm_reader__next(r, &rec, &err) > 0)
		if (rec.type == PM_RECORD_SAMPLE)
			(*samples)++;
	pm_reader__delete(r);
	return 0;
}
