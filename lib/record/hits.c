// SPDX-License-Identifier: GPL-2.0
/*
 * (Not the symbols layer's pm_dsos: this one only marks hits while
 * recording.) The DSOs samples hit, as perf record's build-id pass finds them: every
 * process's maps are followed from MMAP/MMAP2, FORK and COMM-exec records;
 * a sample's ip marks the DSO it falls in (the kernel for kernel-mode
 * samples). At the end the build ids of the hit DSOs go into the file.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record-int.h"
#include "pmprof/abi.h"
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
	size_t last_proc;
	struct dso *dsos;
	size_t nr_dsos, alloc_dsos;
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
	free(d);
}

static struct proc *find_proc(struct pm_hits *d, uint32_t pid, bool create)
{
	size_t i;

	if (d->last_proc < d->nr_procs && d->procs[d->last_proc].pid == pid)
		return &d->procs[d->last_proc];
	for (i = 0; i < d->nr_procs; i++) {
		if (d->procs[i].pid == pid) {
			d->last_proc = i;
			return &d->procs[i];
		}
	}
	if (!create)
		return NULL;
	PM_GROW(d->procs, d->alloc_procs, d->nr_procs + 1);
	memset(&d->procs[d->nr_procs], 0, sizeof(struct proc));
	d->procs[d->nr_procs].pid = pid;
	d->last_proc = d->nr_procs;
	return &d->procs[d->nr_procs++];
}

static int dso_index(struct pm_hits *d, const char *path)
{
	size_t i;

	for (i = 0; i < d->nr_dsos; i++)
		if (!strcmp(d->dsos[i].path, path))
			return (int)i;
	PM_GROW(d->dsos, d->alloc_dsos, d->nr_dsos + 1);
	d->dsos[d->nr_dsos].path = pm_strdup(path);
	d->dsos[d->nr_dsos].hit = false;
	return (int)d->nr_dsos++;
}

void pm_hits__mmap(struct pm_hits *d, uint32_t pid, uint64_t start,
		   uint64_t len, const char *path)
{
	struct proc *p;
	struct map *m;
	size_t i, k;

	/* only files can have build ids: [vdso], [heap], anon: skip */
	if (!path || path[0] != '/')
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

/* ---- build ids ---- */

static int note_build_id(Elf_Data *data, uint8_t id[20], uint8_t *size)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((const char *)data->d_buf + name_off, "GNU", 4) &&
		    nh.n_descsz > 0) {
			*size = (uint8_t)(nh.n_descsz > 20 ? 20 : nh.n_descsz);
			memcpy(id, (const char *)data->d_buf + desc_off, *size);
			return 0;
		}
	}
	return -1;
}

int pm_read_build_id(const char *path, uint8_t id[20], uint8_t *size)
{
	Elf *e;
	Elf_Scn *scn = NULL;
	int fd, ret = -1;
	size_t i, nph;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF)
		goto out;
	while (ret && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (data)
			ret = note_build_id(data, id, size);
	}
	if (ret && !elf_getphdrnum(e, &nph)) {
		for (i = 0; ret && i < nph; i++) {
			GElf_Phdr ph;
			Elf_Data *data;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_NOTE)
				continue;
			data = elf_getdata_rawchunk(e, (int64_t)ph.p_offset, ph.p_filesz,
						    ELF_T_NHDR);
			if (data)
				ret = note_build_id(data, id, size);
		}
	}
out:
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

void pm_hits__clear_hits(struct pm_hits *d)
{
	size_t i;

	d->kernel_hit = false;
	for (i = 0; i < d->nr_dsos; i++)
		d->dsos[i].hit = false;
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
		if (!d->dsos[i].hit || pm_read_build_id(d->dsos[i].path, v[n].build_id, &v[n].size))
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
