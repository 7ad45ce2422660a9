// SPDX-License-Identifier: GPL-2.0
/*
 * Whether perf_event_open takes a cgroup v2 directory, and what to do
 * when it does not. Linux (6.1 here) gives a cgroup perf_event state only
 * once the default hierarchy has propagated its controllers, which the
 * first change of the root's cgroup.subtree_control does; systemd makes
 * one at boot, a bare init does not, and until then perf_event_open on
 * any cgroup fails with ENOENT (which reads like a missing event).
 * Enabling a controller at the root and disabling it again propagates
 * the implicit perf_event controller for good and leaves
 * cgroup.subtree_control as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "record-int.h"
#include "pmprof/attr.h"

/* 0 when a disabled software event opens on the cgroup, else -errno. */
static int probe_cgroup(int dir_fd, int cpu)
{
	struct pm_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.size = PM_ATTR_SIZE_VER7;
	pm_attr__set_flag(&a, PM_ATTR_DISABLED, true);
	fd = pm_perf_event_open(&a, dir_fd, cpu, -1, PERF_FLAG_PID_CGROUP, "dummy", NULL);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static int read_line(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int write_word(const char *path, const char *word)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;
	size_t n = strlen(word);

	if (fd < 0)
		return -errno;
	if (write(fd, word, n) != (ssize_t)n)
		ret = -errno;
	close(fd);
	return ret;
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
		p += n;
	}
	return false;
}

/* A controller the root offers but has not enabled (pids if it can), in
 * name (empty: none). */
static void pick_controller(const char *offered, const char *enabled, char *name, size_t size)
{
	char copy[512], *tok, *save = NULL;

	*name = 0;
	if (has_word(offered, "pids") && !has_word(enabled, "pids")) {
		snprintf(name, size, "pids");
		return;
	}
	snprintf(copy, sizeof(copy), "%s", offered);
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!has_word(enabled, tok)) {
			snprintf(name, size, "%s", tok);
			return;
		}
	}
}

int pm_rec_cgroup__perf_ready(const char *root, int dir_fd, int cpu, char *did, size_t did_size,
			      char *why, size_t why_size)
{
	char ctl[400], offered[512] = "", enabled[512] = "", name[64], word[80];
	int ret, e;

	*did = *why = 0;
	ret = probe_cgroup(dir_fd, cpu);
	if (ret && ret != -ENOENT)
		snprintf(why, why_size, "the workload's cgroup takes no perf events (perf_event_open: %s)",
			 strerror(-ret));
	if (ret != -ENOENT)
		return ret;
	snprintf(ctl, sizeof(ctl), "%s/cgroup.subtree_control", root);
	if ((e = read_line(ctl, enabled, sizeof(enabled))) < 0) {
		snprintf(why, why_size, "the workload's cgroup takes no perf events (perf_event_open: %s) "
			 "and %s cannot be read (%s)", strerror(ENOENT), ctl, strerror(-e));
		return ret;
	}
	snprintf(word, sizeof(word), "%s/cgroup.controllers", root);
	read_line(word, offered, sizeof(offered));
	pick_controller(offered, enabled, name, sizeof(name));
	if (!*name) {
		snprintf(why, why_size, "the workload's cgroup takes no perf events (perf_event_open: %s): "
			 "this kernel gives cgroups none until a controller is first enabled in %s, "
			 "and it has none to enable (%s/cgroup.controllers: '%s')",
			 strerror(ENOENT), ctl, root, offered);
		return ret;
	}
	snprintf(word, sizeof(word), "+%s", name);
	if ((e = write_word(ctl, word)) < 0) {
		snprintf(why, why_size, "the workload's cgroup takes no perf events (perf_event_open: %s) "
			 "and writing %s to %s, which would give it some, failed: %s",
			 strerror(ENOENT), word, ctl, strerror(-e));
		return ret;
	}
	word[0] = '-';
	e = write_word(ctl, word);
	ret = probe_cgroup(dir_fd, cpu);
	if (e < 0)
		snprintf(did, did_size, "wrote +%s to %s (taking it back with -%s failed: %s): "
			 "this kernel gives cgroups no perf_event state until a controller is first "
			 "enabled there (a fresh boot without systemd)", name, ctl, name, strerror(-e));
	else
		snprintf(did, did_size, "wrote +%s then -%s to %s: this kernel gives cgroups no "
			 "perf_event state until a controller is first enabled there (a fresh boot "
			 "without systemd)", name, name, ctl);
	if (ret)
		snprintf(why, why_size, "the workload's cgroup takes no perf events even so "
			 "(perf_event_open: %s)", strerror(-ret));
	return ret;
}
