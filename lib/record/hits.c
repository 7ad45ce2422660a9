// SPDX-License-Identifier: GPL-2.0
/*
 * (Not the symbols layer's pm_dsos: this one only marks hits while
 * recording.) The DSOs samples hit, as perf record's build-id pass finds them: every
 * process's maps are followed from MMAP/MMAP2, FORK and COMM-exec records;
 * a sample's ip marks the DSO it falls in (the kernel for kernel-mode
 * samples). At the end the build ids of the hit DSOs go into the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record-int.h"
#include "pmprof/abi.h"
#include "pmprof/hash.h"
#include "pmprof/symbols.h"
#include "pmprof/util.h"

struct map {
	uint64_t start, end;
	int dso;
};

struct proc {
	uint32_t pid;
	struct map *maps;
	size_t nr, alloc;
	size_t last;		/* the map the previous sample hit */
};

struct dso {
	char *path;
	bool hit;
};

struct pm_hits {
	struct proc *procs;
	size_t nr_procs, alloc_procs;
	struct pm_hash proc_index;	/* by pid */
	size_t last_proc;
	struct dso *dsos;
	size_t nr_dsos, alloc_dsos;
	struct pm_hash dso_index;	/* by path */
	bool kernel_hit;
};

struct pm_hits *pm_hits__new(void)
{
	return pm_zalloc(sizeof(struct pm_hits));
}

void pm_hits__delete(struct pm_hits *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->nr_procs; i++)
		free(d->procs[i].maps);
	for (i = 0; i < d->nr_dsos; i++)
		free(d->dsos[i].path);
	free(d->procs);
	free(d->dsos);
	pm_hash__release(&d->proc_index);
	pm_hash__release(&d->dso_index);
	free(d);
}

static uint64_t proc_hash(const void *arg, size_t i)
{
	return pm_hash64(((const struct proc *)arg)[i].pid);
}

static struct proc *find_proc(struct pm_hits *d, uint32_t pid, bool create)
{
	size_t s;

	if (d->last_proc < d->nr_procs && d->procs[d->last_proc].pid == pid)
		return &d->procs[d->last_proc];
	s = PM_HASH_FIND(&d->proc_index, pm_hash64(pid), i, d->procs[i].pid == pid);
	if (!pm_hash__empty(&d->proc_index, s)) {
		d->last_proc = pm_hash__at(&d->proc_index, s);
		return &d->procs[d->last_proc];
	}
	if (!create)
		return NULL;
	pm_hash__reserve(&d->proc_index, d->nr_procs, proc_hash, d->procs);
	s = PM_HASH_FIND(&d->proc_index, pm_hash64(pid), i, false);
	PM_GROW(d->procs, d->alloc_procs, d->nr_procs + 1);
	memset(&d->procs[d->nr_procs], 0, sizeof(struct proc));
	d->procs[d->nr_procs].pid = pid;
	pm_hash__set(&d->proc_index, s, d->nr_procs);
	d->last_proc = d->nr_procs;
	return &d->procs[d->nr_procs++];
}

static uint64_t dso_hash(const void *arg, size_t i)
{
	return pm_hash_str(((const struct dso *)arg)[i].path);
}

static int dso_index(struct pm_hits *d, const char *path)
{
	uint64_t h = pm_hash_str(path);
	size_t s = PM_HASH_FIND(&d->dso_index, h, i, !strcmp(d->dsos[i].path, path));

	if (!pm_hash__empty(&d->dso_index, s))
		return (int)pm_hash__at(&d->dso_index, s);
	pm_hash__reserve(&d->dso_index, d->nr_dsos, dso_hash, d->dsos);
	s = PM_HASH_FIND(&d->dso_index, h, i, false);
	PM_GROW(d->dsos, d->alloc_dsos, d->nr_dsos + 1);
	d->dsos[d->nr_dsos].path = pm_strdup(path);
	d->dsos[d->nr_dsos].hit = false;
	pm_hash__set(&d->dso_index, s, d->nr_dsos);
	return (int)d->nr_dsos++;
}

void pm_hits__mmap(struct pm_hits *d, uint32_t pid, uint64_t start,
		   uint64_t len, const char *path)
{
	struct proc *p;
	struct map *m;
	size_t i, k;

	/* only files and the vdso have build ids: [heap], anon: skip */
	if (!path || (path[0] != '/' && strcmp(path, "[vdso]")))
		return;
	p = find_proc(d, pid, true);
	/* a new map replaces what it overlaps */
	for (i = 0, k = 0; i < p->nr; i++)
		if (p->maps[i].end <= start || p->maps[i].start >= start + len)
			p->maps[k++] = p->maps[i];
	p->nr = k;
	PM_GROW(p->maps, p->alloc, p->nr + 1);
	m = &p->maps[p->nr++];
	m->start = start;
	m->end = start + len;
	m->dso = dso_index(d, path);
	p->last = 0;
}

void pm_hits__fork(struct pm_hits *d, uint32_t pid, uint32_t ppid)
{
	struct proc *parent, *child;

	if (pid == ppid || !find_proc(d, ppid, false))
		return;
	child = find_proc(d, pid, true);
	parent = find_proc(d, ppid, false);
	child = find_proc(d, pid, false);
	child->nr = 0;
	PM_GROW(child->maps, child->alloc, parent->nr ? parent->nr : 1);
	if (parent->nr)
		memcpy(child->maps, parent->maps, parent->nr * sizeof(struct map));
	child->nr = parent->nr;
	child->last = 0;
}

void pm_hits__exec(struct pm_hits *d, uint32_t pid)
{
	struct proc *p = find_proc(d, pid, false);

	if (p) {
		p->nr = 0;
		p->last = 0;
	}
}

void pm_hits__hit(struct pm_hits *d, uint32_t pid, uint64_t ip, int cpumode)
{
	struct proc *p;
	size_t i;

	if (cpumode == PM_MISC_KERNEL) {
		d->kernel_hit = true;
		return;
	}
	p = find_proc(d, pid, false);
	if (!p)
		return;
	if (p->last < p->nr && ip >= p->maps[p->last].start && ip < p->maps[p->last].end) {
		d->dsos[p->maps[p->last].dso].hit = true;
		return;
	}
	for (i = 0; i < p->nr; i++) {
		if (ip >= p->maps[i].start && ip < p->maps[i].end) {
			d->dsos[p->maps[i].dso].hit = true;
			p->last = i;
			return;
		}
	}
}

void pm_hits__clear_hits(struct pm_hits *d)
{
	size_t i;

	d->kernel_hit = false;
	for (i = 0; i < d->nr_dsos; i++)
		d->dsos[i].hit = false;
}

/* A file's build id, or for "[vdso]" this process's image's: the
 * recorded processes run on this host, where the kernel maps one vdso
 * into every process of an ABI. */
static int dso_build_id(const char *path, struct pm_build_id_entry *e)
{
	void *image;
	size_t len;
	int r;

	if (path[0] == '/')
		return pm_build_id__read(path, e->build_id, &e->size);
	if (pm_vdso__self_image(&image, &len, NULL) < 0)
		return -1;
	r = pm_build_id__from_image(image, len, e->build_id, &e->size);
	free(image);
	return r;
}

size_t pm_hits__build_ids(struct pm_hits *d, struct pm_build_id_entry **out)
{
	struct pm_build_id_entry *v = pm_calloc(d->nr_dsos + 1, sizeof(*v));
	size_t i, n = 0;

	if (d->kernel_hit) {
		int len = pm_kernel__host_build_id(NULL, v[n].build_id, sizeof(v[n].build_id), NULL);

		if (len > 0) {
			v[n].size = (uint8_t)len;
			v[n].misc = PM_MISC_KERNEL;
			v[n].pid = -1;
			v[n++].filename = (char *)"[kernel.kallsyms]";
		}
	}
	for (i = 0; i < d->nr_dsos; i++) {
		if (!d->dsos[i].hit || dso_build_id(d->dsos[i].path, &v[n]))
			continue;
		v[n].misc = PM_MISC_USER;
		v[n].pid = -1;
		v[n++].filename = d->dsos[i].path;
	}
	*out = v;
	return n;
}

int pm_hits__write_build_ids(struct pm_hits *d, struct pm_writer *w,
			     struct pm_error *err)
{
	struct pm_build_id_entry *v;
	size_t n = pm_hits__build_ids(d, &v), i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++)
		ret = pm_writer__add_build_id(w, &v[i], err);
	free(v);
	return ret;
}
