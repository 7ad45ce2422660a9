// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel does not tell a recorder that starts late: the
 * processes already running (COMM, FORK for their threads, MMAP2 for their
 * executable maps, from /proc), the kernel's text map, and the system
 * description features.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "record-int.h"
#include "pmprof/abi.h"
#include "pmprof/records.h"
#include "pmprof/util.h"

#ifndef PMPROF_VERSION
#define PMPROF_VERSION "0"
#endif

/* The value of "key : value" lines of /proc/cpuinfo (first CPU). */
bool pm_cpuinfo_value(const char *key, char *out, size_t size)
{
	char line[512];
	size_t klen = strlen(key);
	FILE *f = fopen("/proc/cpuinfo", "r");
	bool found = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + klen, *v;
		size_t n;

		if (strncmp(line, key, klen) || (*p != ' ' && *p != '\t' && *p != ':'))
			continue;
		v = strchr(line, ':');
		if (!v)
			continue;
		v++;
		while (*v == ' ' || *v == '\t')
			v++;
		n = strcspn(v, "\n");
		/* collapse runs of blanks, as perf does for CPUDESC */
		{
			size_t i, k = 0;

			for (i = 0; i < n && k + 1 < size; i++) {
				if (isspace((unsigned char)v[i]) && k && out[k - 1] == ' ')
					continue;
				out[k++] = isspace((unsigned char)v[i]) ? ' ' : v[i];
			}
			while (k && out[k - 1] == ' ')
				k--;
			out[k] = 0;
		}
		found = true;
		break;
	}
	fclose(f);
	return found;
}

int pm_synth__system_features(struct pm_writer *w, struct pm_error *err)
{
	struct utsname u;
	char buf[512], vendor[128], fam[32], model[32], step[32];
	long conf = sysconf(_SC_NPROCESSORS_CONF), onln = sysconf(_SC_NPROCESSORS_ONLN);
	FILE *f;
	int ret;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	if ((ret = pm_writer__set_string(w, PM_FEAT_HOSTNAME, u.nodename, err)) ||
	    (ret = pm_writer__set_string(w, PM_FEAT_OSRELEASE, u.release, err)) ||
	    (ret = pm_writer__set_string(w, PM_FEAT_VERSION, PMPROF_VERSION " (pmprof)", err)) ||
	    (ret = pm_writer__set_string(w, PM_FEAT_ARCH, u.machine, err)) ||
	    (ret = pm_writer__set_nrcpus(w, (uint32_t)(conf > 0 ? conf : 1),
					 (uint32_t)(onln > 0 ? onln : 1), err)))
		return ret;
	if (pm_cpuinfo_value("model name", buf, sizeof(buf)) ||
	    pm_cpuinfo_value("cpu model", buf, sizeof(buf)) ||
	    pm_cpuinfo_value("cpu", buf, sizeof(buf))) {
		if ((ret = pm_writer__set_string(w, PM_FEAT_CPUDESC, buf, err)))
			return ret;
	}
	/* perf's x86 CPUID string: vendor,family,model,stepping */
	if (pm_cpuinfo_value("vendor_id", vendor, sizeof(vendor)) &&
	    pm_cpuinfo_value("cpu family", fam, sizeof(fam)) &&
	    pm_cpuinfo_value("model", model, sizeof(model)) &&
	    pm_cpuinfo_value("stepping", step, sizeof(step))) {
		snprintf(buf, sizeof(buf), "%s,%s,%s,%s", vendor, fam, model, step);
		if ((ret = pm_writer__set_string(w, PM_FEAT_CPUID, buf, err)))
			return ret;
	}
	f = fopen("/proc/meminfo", "r");
	if (f) {
		unsigned long long kb = 0;

		while (fgets(buf, sizeof(buf), f))
			if (sscanf(buf, "MemTotal: %llu kB", &kb) == 1)
				break;
		fclose(f);
		if (kb && (ret = pm_writer__set_total_mem(w, kb, err)))
			return ret;
	}
	return 0;
}

int pm_synth__kernel_mmap(struct pm_writer *w, struct pm_hits *d,
			  struct pm_error *err)
{
	char line[512];
	unsigned long long text = 0, etext = 0;
	struct pm_rec_mmap m;
	FILE *f = fopen("/proc/kallsyms", "r");

	(void)d;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char t, name[256];

		if (sscanf(line, "%llx %c %255s", &a, &t, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			text = a;
		else if (!strcmp(name, "_etext"))
			etext = a;
		if (text && etext)
			break;
	}
	fclose(f);
	if (!text)		/* kptr_restrict hides the addresses */
		return 0;
	memset(&m, 0, sizeof(m));
	m.pid = (uint32_t)-1;
	m.tid = 0;
	m.start = text;
	m.len = etext > text ? etext - text : ~0ULL - text;
	m.pgoff = text;
	m.filename = "[kernel.kallsyms]_text";
	return pm_writer__mmap(w, PM_MISC_KERNEL, &m, NULL, err);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int pm_proc_threads(int pid, int **tids)
{
	char path[64];
	struct dirent *de;
	DIR *dir;
	int *v = NULL, n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		v = pm_reallocarray(v, (size_t)n + 1, sizeof(int));
		v[n++] = atoi(de->d_name);
	}
	closedir(dir);
	qsort(v, (size_t)n, sizeof(int), cmp_int);
	*tids = v;
	return n;
}

static bool read_comm(int pid, int tid, char *out, size_t size)
{
	char path[96];
	FILE *f;
	bool ok = false;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(out, (int)size, f)) {
		out[strcspn(out, "\n")] = 0;
		ok = true;
	}
	fclose(f);
	return ok;
}

static int synth_maps(struct pm_writer *w, struct pm_hits *d, int pid,
		      struct pm_error *err)
{
	char path[64], line[4096 + 256];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff, ino;
		unsigned int maj, min;
		char perms[8];
		int off = 0;
		struct pm_rec_mmap m;
		const char *name;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms,
			   &pgoff, &maj, &min, &ino, &off) < 7)
			continue;
		if (perms[2] != 'x')
			continue;	/* perf synthesizes executable maps */
		name = line + off;
		line[strcspn(line, "\n")] = 0;
		if (!*name)
			name = "//anon";
		memset(&m, 0, sizeof(m));
		m.is_mmap2 = true;
		m.pid = m.tid = (uint32_t)pid;
		m.start = start;
		m.len = end - start;
		m.pgoff = pgoff;
		m.maj = maj;
		m.min = min;
		m.ino = ino;
		m.prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
			 PROT_EXEC;
		m.flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		m.filename = name;
		ret = pm_writer__mmap(w, PM_MISC_USER, &m, NULL, err);
		if (ret)
			break;
		pm_hits__mmap(d, (uint32_t)pid, start, end - start, name);
	}
	fclose(f);
	return ret;
}

int pm_synth__process(struct pm_writer *w, struct pm_hits *d, int pid,
		      struct pm_error *err)
{
	int *tids = NULL, n, i, ret = 0;
	char comm[64];

	n = pm_proc_threads(pid, &tids);
	if (n <= 0)
		return 0;	/* gone: nothing to say */
	for (i = 0; i < n && !ret; i++) {
		struct pm_rec_comm c;

		if (!read_comm(pid, tids[i], comm, sizeof(comm)))
			continue;
		if (tids[i] != pid) {
			struct pm_rec_task t = {
				.pid = (uint32_t)pid, .ppid = (uint32_t)pid,
				.tid = (uint32_t)tids[i], .ptid = (uint32_t)pid,
			};

			ret = pm_writer__task(w, PM_RECORD_FORK, 0, &t, NULL, err);
			if (ret)
				break;
		}
		memset(&c, 0, sizeof(c));
		c.pid = (uint32_t)pid;
		c.tid = (uint32_t)tids[i];
		c.comm = comm;
		ret = pm_writer__comm(w, 0, &c, NULL, err);
	}
	free(tids);
	if (!ret)
		ret = synth_maps(w, d, pid, err);
	return ret;
}

int pm_synth__all(struct pm_writer *w, struct pm_hits *d, struct pm_error *err)
{
	struct dirent *de;
	DIR *dir = opendir("/proc");
	int ret = 0;

	if (!dir)
		return 0;
	while (!ret && (de = readdir(dir))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		ret = pm_synth__process(w, d, atoi(de->d_name), err);
	}
	closedir(dir);
	return ret;
}
