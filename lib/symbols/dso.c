// SPDX-License-Identifier: GPL-2.0
/*
 * DSO objects: a name, a kind, maybe a build id, and (after a lazy load)
 * symbol tables and the PT_LOAD segments that turn file offsets into the
 * addresses those symbols use. Finding the files is findfile.c's job;
 * this file decides what to load for each kind.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/dso.h"
#include "pmprof/error.h"
#include "pmprof/util.h"
#include "symbols/dso-internal.h"

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static bool has_suffix(const char *s, const char *x)
{
	size_t n = strlen(s), m = strlen(x);

	return n >= m && !strcmp(s + n - m, x);
}

/* "perf-1234.map" at the end of a path: the pid, else -1. */
static int jit_pid(const char *name)
{
	const char *b = strrchr(name, '/');
	char *end;
	long pid;

	b = b ? b + 1 : name;
	if (!has_prefix(b, "perf-") || !isdigit((unsigned char)b[5]))
		return -1;
	pid = strtol(b + 5, &end, 10);
	if (strcmp(end, ".map") || pid < 0 || pid > 0x7fffffff)
		return -1;
	return (int)pid;
}

static const char *const kmod_suffixes[] = {
	".ko", ".ko.xz", ".ko.gz", ".ko.zst", ".ko.bz2",
};

static bool kmod_path(const char *path)
{
	for (size_t i = 0; i < PM_ARRAY_SIZE(kmod_suffixes); i++)
		if (has_suffix(path, kmod_suffixes[i]))
			return true;
	return false;
}

enum pm_dso_kind pm_dso_classify(const char *f, bool kernel)
{
	static const char *const anon[] = {
		"//anon", "/dev/zero", "/anon_hugepage", "[anon:", "[heap]",
		"[stack", "/SYSV", "/memfd:",
	};
	static const char *const special[] = {
		"[vsyscall]", "[vvar]", "[uprobes]", "[vectors]", "[sigpage]",
	};

	if (has_prefix(f, "[kernel.kallsyms]"))
		return PM_DSO_KERNEL;
	if (!strcmp(f, "[vdso]") || !strcmp(f, "[vdso32]") ||
	    !strcmp(f, "[vdsox32]"))
		return PM_DSO_VDSO;
	for (size_t i = 0; i < PM_ARRAY_SIZE(anon); i++)
		if (has_prefix(f, anon[i]))
			return PM_DSO_ANON;
	for (size_t i = 0; i < PM_ARRAY_SIZE(special); i++)
		if (has_prefix(f, special[i]))
			return PM_DSO_SPECIAL;
	if (f[0] == '[' && has_suffix(f, "]"))
		return PM_DSO_KMODULE;
	if (jit_pid(f) >= 0)
		return PM_DSO_JIT;
	if (kernel && kmod_path(f))
		return PM_DSO_KMODULE;
	return PM_DSO_ELF;
}

char *pm_kmod_name(const char *path, char *buf, size_t size)
{
	const char *b = strrchr(path, '/');
	size_t n = 0;

	if (path[0] == '[' && has_suffix(path, "]")) {
		if (strlen(path) + 1 > size)
			return NULL;
		return strcpy(buf, path);
	}
	if (!kmod_path(path))
		return NULL;
	b = b ? b + 1 : path;
	n = (size_t)(strstr(b, ".ko") - b);
	for (size_t i = 0; i < PM_ARRAY_SIZE(kmod_suffixes); i++)
		if (has_suffix(b, kmod_suffixes[i]))
			n = strlen(b) - strlen(kmod_suffixes[i]);
	if (n == 0 || n + 3 > size)
		return NULL;
	buf[0] = '[';
	/* the kernel names modules with '_' where files may have '-' */
	for (size_t i = 0; i < n; i++)
		buf[i + 1] = b[i] == '-' ? '_' : b[i];
	buf[n + 1] = ']';
	buf[n + 2] = '\0';
	return buf;
}

struct pm_dso *pm_dso__new(struct pm_symctx *ctx, const char *name)
{
	struct pm_dso *dso = pm_zalloc(sizeof(*dso));
	const char *b;

	dso->refcnt = 1;
	dso->ctx = pm_symctx__get(ctx);
	dso->kind = pm_dso_classify(name, false);
	if (dso->kind == PM_DSO_KERNEL)
		name = "[kernel.kallsyms]";
	dso->name = pm_strdup(name);
	b = strrchr(name, '/');
	dso->pid = dso->kind == PM_DSO_JIT ? jit_pid(name) : -1;
	if (dso->kind == PM_DSO_JIT) {
		char jit[64];

		/* perf's name for the JIT code of a process */
		snprintf(jit, sizeof(jit), "[JIT] tid %d", dso->pid);
		dso->short_name = pm_strdup(jit);
	} else {
		dso->short_name = pm_strdup(b && name[0] != '[' ? b + 1 : name);
	}
	return dso;
}

struct pm_dso *pm_dso__get(struct pm_dso *dso)
{
	if (dso)
		dso->refcnt++;
	return dso;
}

void pm_dso__put(struct pm_dso *dso)
{
	if (!dso || --dso->refcnt > 0)
		return;
	if (!dso->borrowed_funcs)
		pm_symtab__delete(dso->funcs);
	if (!dso->borrowed_data)
		pm_symtab__delete(dso->data);
	pm_elf_file__release(&dso->bin);
	pm_elf_file__release(&dso->dbg);
	pm_srcline__release(dso);
	pm_inlines__release(dso);
	free(dso->image);
	free(dso->name);
	free(dso->short_name);
	pm_symctx__put(dso->ctx);
	free(dso);
}

const char *pm_dso__name(const struct pm_dso *dso)
{
	return dso->name;
}

const char *pm_dso__short_name(const struct pm_dso *dso)
{
	return dso->short_name;
}

enum pm_dso_kind pm_dso__kind(const struct pm_dso *dso)
{
	return dso->kind;
}

size_t pm_dso__seq(const struct pm_dso *dso)
{
	return dso->seq;
}

void pm_dso__set_build_id(struct pm_dso *dso, const uint8_t *id, size_t size)
{
	size = PM_MIN(size, sizeof(dso->build_id));
	memcpy(dso->build_id, id, size);
	dso->build_id_size = size;
}

size_t pm_dso__build_id(const struct pm_dso *dso, const uint8_t **id)
{
	if (dso->build_id_size) {
		*id = dso->build_id;
		return dso->build_id_size;
	}
	if (dso->bin.build_id_size) {
		*id = dso->bin.build_id;
		return dso->bin.build_id_size;
	}
	*id = NULL;
	return 0;
}

/* Give the DSO empty tables so lookups work before/without a load. */
static void ensure_tables(struct pm_dso *dso)
{
	bool demangle = !dso->ctx->conf.no_demangle;

	if (!dso->funcs) {
		dso->funcs = pm_symtab__new(demangle);
		dso->borrowed_funcs = false;
	}
	if (!dso->data) {
		dso->data = pm_symtab__new(demangle);
		dso->borrowed_data = false;
	}
}

int pm_dso__load(struct pm_dso *dso, struct pm_error *err)
{
	int r;

	if (dso->loaded) {
		if (dso->load_rc < 0 && err)
			*err = dso->load_err;
		return dso->load_rc;
	}
	dso->loaded = true;
	pm_error__clear(&dso->load_err);
	switch (dso->kind) {
	case PM_DSO_ELF:
		r = pm_dso__load_elf(dso, &dso->load_err);
		break;
	case PM_DSO_VDSO:
		r = pm_dso__load_vdso(dso, &dso->load_err);
		break;
	case PM_DSO_KERNEL:
	case PM_DSO_KMODULE:
		r = pm_dso__load_kernel(dso, &dso->load_err);
		break;
	case PM_DSO_JIT:
		ensure_tables(dso);
		r = pm_jitmap__load(dso->name, dso->funcs, &dso->load_err);
		break;
	default:
		r = pm_error__fmt(&dso->load_err, ENOENT,
				  "%s: no symbols for this kind of mapping",
				  dso->name);
		break;
	}
	ensure_tables(dso);
	/* finish() is idempotent: borrowed tables are finished already */
	pm_symtab__finish(dso->funcs);
	pm_symtab__finish(dso->data);
	dso->load_rc = r < 0 ? r : 0;
	if (r < 0 && err)
		*err = dso->load_err;
	return dso->load_rc;
}

bool pm_dso__loaded(const struct pm_dso *dso)
{
	return dso->loaded;
}

const struct pm_error *pm_dso__load_error(const struct pm_dso *dso)
{
	return dso->loaded && dso->load_rc < 0 ? &dso->load_err : NULL;
}

static const struct pm_elf_file *segments_file(const struct pm_dso *dso)
{
	if (dso->bin.nr_segs)
		return &dso->bin;
	if (dso->dbg.nr_segs)
		return &dso->dbg;
	return NULL;
}

static bool absolute(const struct pm_dso *dso)
{
	return dso->kind != PM_DSO_ELF && dso->kind != PM_DSO_VDSO;
}

uint64_t pm_dso__offset_to_addr(struct pm_dso *dso, uint64_t offset)
{
	const struct pm_elf_file *f;

	pm_dso__load(dso, NULL);
	f = segments_file(dso);
	return f ? pm_segments__offset_to_addr(f->segs, f->nr_segs, offset) :
		   offset;
}

uint64_t pm_dso__addr_to_offset(struct pm_dso *dso, uint64_t addr)
{
	const struct pm_elf_file *f;

	pm_dso__load(dso, NULL);
	f = segments_file(dso);
	return f ? pm_segments__addr_to_offset(f->segs, f->nr_segs, addr) :
		   addr;
}

/* offset_to_addr() - offset: the same from lo to hi? It can change only
 * where a segment starts or ends, so those are the places to look. */
bool pm_dso__offsets_linear(struct pm_dso *dso, uint64_t lo, uint64_t hi)
{
	const struct pm_elf_file *f;
	uint64_t delta;

	if (absolute(dso))
		return true;
	pm_dso__load(dso, NULL);
	f = segments_file(dso);
	if (!f || hi <= lo)
		return true;
	delta = pm_segments__offset_to_addr(f->segs, f->nr_segs, lo) - lo;
	for (size_t i = 0; i < f->nr_segs; i++) {
		uint64_t at[2] = { f->segs[i].offset,
				   f->segs[i].offset + f->segs[i].filesz };

		for (size_t k = 0; k < 2; k++)
			if (at[k] > lo && at[k] < hi &&
			    pm_segments__offset_to_addr(f->segs, f->nr_segs,
							at[k]) - at[k] != delta)
				return false;
	}
	return true;
}

uint64_t pm_dso__map_ip(struct pm_dso *dso, uint64_t map_start,
			uint64_t map_pgoff, uint64_t ip)
{
	if (absolute(dso))
		return ip;
	return pm_dso__offset_to_addr(dso, ip - map_start + map_pgoff);
}

uint64_t pm_dso__unmap_ip(struct pm_dso *dso, uint64_t map_start,
			  uint64_t map_pgoff, uint64_t addr)
{
	if (absolute(dso))
		return addr;
	return pm_dso__addr_to_offset(dso, addr) - map_pgoff + map_start;
}

const struct pm_symbol *pm_dso__find_symbol(struct pm_dso *dso, uint64_t addr)
{
	if (!dso->loaded)
		pm_dso__load(dso, NULL);
	return pm_symtab__find(dso->funcs, addr);
}

const struct pm_symbol *pm_dso__find_data(struct pm_dso *dso, uint64_t addr)
{
	if (!dso->loaded)
		pm_dso__load(dso, NULL);
	return pm_symtab__find(dso->data, addr);
}

struct pm_symtab *pm_dso__symtab(struct pm_dso *dso)
{
	pm_dso__load(dso, NULL);
	return dso->funcs;
}

const char *pm_dso__path(const struct pm_dso *dso)
{
	return dso->bin.path;
}

const char *pm_dso__symbol_path(const struct pm_dso *dso)
{
	return dso->sym_path;
}

const char *pm_dso__debug_path(struct pm_dso *dso)
{
	return pm_dso__find_debug(dso);
}

int pm_dso__image(const struct pm_dso *dso, const void **buf, size_t *len)
{
	if (!dso->image)
		return -ENOENT;
	*buf = dso->image;
	*len = dso->image_len;
	return 0;
}

int pm_dso__elf_info(const struct pm_dso *dso, struct pm_elf_info *info)
{
	if (dso->bin.path)
		*info = dso->bin.info;
	else if (dso->dbg.path)
		*info = dso->dbg.info;
	else
		return -ENOENT;
	return 0;
}
