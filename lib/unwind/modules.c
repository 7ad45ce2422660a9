// SPDX-License-Identifier: GPL-2.0
/*
 * The files of an address space, as libdwfl modules. A file is reported
 * the first time a frame's address lands in a mapping of it: opened
 * through the symbols layer's choice of file (so build-id cache, --symfs
 * and debug directories apply), its PT_LOAD range placed at the bias the
 * mapping gives it (runtime address - ELF address, as pm_dso__map_ip()
 * computes it for symbols), and handed to libdwfl through find_elf. The
 * debug file, for .debug_frame, comes through find_debuginfo.
 *
 * libdwfl places a module by its lowest address: main_bias = low_addr -
 * (first PT_LOAD's p_vaddr rounded down to its alignment). Reporting
 * [bias + that, bias + end of the last PT_LOAD) gives back our bias.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmprof/bytes.h"
#include "pmprof/dso.h"
#include "pmprof/util.h"
#include "unwind/internal.h"

static int find_elf(Dwfl_Module *mod, void **userdata, const char *name,
		    Dwarf_Addr base, char **file_name, Elf **elfp)
{
	struct uw_module *m = *userdata;

	(void)mod;
	(void)name;
	(void)base;
	if (!m || m->handed || !m->elf)
		return -1;
	m->handed = true;
	*elfp = m->elf;
	*file_name = strdup(m->path);
	return m->fd;
}

static int find_debuginfo(Dwfl_Module *mod, void **userdata,
			  const char *name, Dwarf_Addr base,
			  const char *file_name, const char *debuglink,
			  GElf_Word crc, char **debug_name)
{
	struct uw_module *m = *userdata;
	const char *path;
	int fd;

	(void)mod;
	(void)name;
	(void)base;
	(void)debuglink;
	(void)crc;
	if (!m)
		return -1;
	path = pm_dso__debug_path(m->dso);
	if (!path || (file_name && !strcmp(path, file_name)))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		*debug_name = strdup(path);
	return fd;
}

const Dwfl_Callbacks pm_uw_dwfl_callbacks = {
	.find_elf = find_elf,
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static void module_free(struct uw_module *m)
{
	if (!m)
		return;
	if (!m->handed) {
		if (m->elf)
			elf_end(m->elf);
		if (m->fd >= 0)
			close(m->fd);
	}
	free(m->image);
	free(m->path);
	free(m->loads);
	pm_dso__put(m->dso);
	free(m);
}

void pm_uw_free_modules(struct uw_space *sp)
{
	for (size_t i = 0; i < sp->nr_mods; i++)
		module_free(sp->mods[i]);
	free(sp->mods);
	free(sp->bad);
	sp->mods = NULL;
	sp->bad = NULL;
	sp->nr_mods = sp->alloc_mods = sp->nr_bad = sp->alloc_bad = 0;
}

/* The module whose range holds addr, or NULL; *pos: where it would go. */
static struct uw_module *module_at(const struct uw_space *sp, uint64_t addr,
				   size_t *pos)
{
	size_t lo = 0, hi = sp->nr_mods;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sp->mods[mid]->hi <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (pos)
		*pos = lo;
	if (lo < sp->nr_mods && sp->mods[lo]->lo <= addr)
		return sp->mods[lo];
	return NULL;
}

static bool is_bad(const struct uw_space *sp, const struct pm_dso *dso,
		   uint64_t bias)
{
	for (size_t i = 0; i < sp->nr_bad; i++)
		if (sp->bad[i].dso == dso && sp->bad[i].bias == bias)
			return true;
	return false;
}

static void add_bad(struct uw_space *sp, const struct pm_dso *dso,
		    uint64_t bias)
{
	PM_GROW(sp->bad, sp->alloc_bad, sp->nr_bad + 1);
	sp->bad[sp->nr_bad].dso = dso;
	sp->bad[sp->nr_bad].bias = bias;
	sp->nr_bad++;
}

/* Open the file libdwfl should read for dso: its runtime binary, the
 * vdso image, or (when the binary is missing) its debug file. */
static int open_file(struct uw_module *m)
{
	const char *path = pm_dso__path(m->dso);
	const void *img;
	size_t len;

	m->fd = -1;
	if (pm_dso__image(m->dso, &img, &len) == 0) {
		m->image = pm_malloc(len);
		memcpy(m->image, img, len);
		m->elf = elf_memory(m->image, len);
		m->path = pm_strdup(pm_dso__name(m->dso));
		return m->elf ? 0 : -1;
	}
	if (!path)
		path = pm_dso__debug_path(m->dso);
	if (!path)
		return -1;
	m->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (m->fd < 0)
		return -1;
	m->elf = elf_begin(m->fd, ELF_C_READ_MMAP, NULL);
	m->path = pm_strdup(path);
	return m->elf ? 0 : -1;
}

/* The PT_LOAD range [*lo, *hi) as libdwfl sees it, and the segments. */
static int load_range(struct uw_module *m, uint64_t *lo, uint64_t *hi)
{
	size_t n;
	bool first = true;

	if (elf_kind(m->elf) != ELF_K_ELF || elf_getphdrnum(m->elf, &n))
		return -1;
	*lo = *hi = 0;
	m->loads = pm_calloc(n ? n : 1, sizeof(*m->loads));
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(m->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (first) {
			uint64_t align = ph.p_align ? ph.p_align : 1;

			*lo = ph.p_vaddr & ~(align - 1);
			first = false;
		}
		if (ph.p_vaddr + ph.p_memsz > *hi)
			*hi = ph.p_vaddr + ph.p_memsz;
		m->loads[m->nr_loads].vaddr = ph.p_vaddr;
		m->loads[m->nr_loads].filesz = ph.p_filesz;
		m->loads[m->nr_loads].offset = ph.p_offset;
		m->nr_loads++;
	}
	return first || *hi <= *lo ? -1 : 0;
}

/* Report dso at bias; NULL when it cannot be (the caller remembers). */
static struct uw_module *report(struct pm_unwinder *u, struct uw_space *sp,
				struct pm_dso *dso, uint64_t bias, size_t pos)
{
	struct uw_module *m = pm_zalloc(sizeof(*m));
	uint64_t lo, hi;
	void **userdata;

	m->dso = pm_dso__get(dso);
	m->bias = bias;
	if (open_file(m) || load_range(m, &lo, &hi))
		goto fail;
	m->lo = lo + bias;
	m->hi = hi + bias;
	/* Neighbours' ranges win: libdwfl must see one module per address. */
	if (pos > 0 && sp->mods[pos - 1]->hi > m->lo)
		goto fail;
	if (pos < sp->nr_mods && sp->mods[pos]->lo < m->hi)
		m->hi = sp->mods[pos]->lo;
	if (m->hi <= m->lo)
		goto fail;
	dwfl_report_begin_add(sp->dwfl);
	m->mod = dwfl_report_module(sp->dwfl, pm_dso__name(dso), m->lo, m->hi);
	dwfl_report_end(sp->dwfl, NULL, NULL);
	if (!m->mod)
		goto fail;
	dwfl_module_info(m->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	*userdata = m;
	PM_GROW(sp->mods, sp->alloc_mods, sp->nr_mods + 1);
	memmove(sp->mods + pos + 1, sp->mods + pos,
		(sp->nr_mods - pos) * sizeof(*sp->mods));
	sp->mods[pos] = m;
	sp->nr_mods++;
	u->stats.modules++;
	return m;
fail:
	module_free(m);
	return NULL;
}

/* Files libdwfl can unwind through: ELF files and the vdso. */
static bool reportable(struct pm_dso *dso)
{
	enum pm_dso_kind k = pm_dso__kind(dso);

	return k == PM_DSO_ELF || k == PM_DSO_VDSO;
}

int pm_uw_ensure_module(struct pm_unwinder *u, uint64_t addr)
{
	struct uw_current *c = &u->cur;
	struct uw_space *sp = c->space;
	struct pm_unwind_map map;
	struct uw_module *m;
	uint64_t bias;
	size_t pos;

	m = module_at(sp, addr, &pos);
	/*
	 * Nothing mapped here: a wild address (libdw will fail or fall back
	 * to frame pointers). Something libdw cannot read (JIT code,
	 * anonymous memory) where a file of another process of the space,
	 * or of an earlier mapping, was: that file's CFI must not be used.
	 */
	if (c->find_map(c->arg, sp->key, addr, &map))
		return 0;
	if (!map.dso || !reportable(map.dso)) {
		if (!m)
			return 0;
		c->stale = true;
		return -1;
	}
	bias = map.start - pm_dso__map_ip(map.dso, map.start, map.pgoff,
					  map.start);
	if (m) {
		if (m->dso == map.dso && m->bias == bias)
			return 0;
		c->stale = true;	/* another file is mapped there now */
		return -1;
	}
	if (!is_bad(sp, map.dso, bias) && !report(u, sp, map.dso, bias, pos))
		add_bad(sp, map.dso, bias);
	return 0;
}

bool pm_uw_file_word(struct pm_unwinder *u, uint64_t addr, uint64_t *val)
{
	struct uw_module *m;
	const char *img;
	size_t size;
	uint64_t a;

	if (pm_uw_ensure_module(u, addr) || addr > UINT64_MAX - 8)
		return false;
	m = module_at(u->cur.space, addr, NULL);
	if (!m || !m->elf)
		return false;
	img = elf_rawfile(m->elf, &size);
	if (!img)
		return false;
	a = addr - m->bias;
	for (size_t i = 0; i < m->nr_loads; i++) {
		const struct uw_load *l = &m->loads[i];

		if (a < l->vaddr || a - l->vaddr > l->filesz ||
		    l->filesz - (a - l->vaddr) < 8)
			continue;
		if (l->offset + (a - l->vaddr) > size - 8 || size < 8)
			return false;
		*val = pm_load64(img + l->offset + (a - l->vaddr),
				 u->cur.in->big_endian != PM_HOST_BIG_ENDIAN);
		return true;
	}
	return false;
}
