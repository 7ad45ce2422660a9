// SPDX-License-Identifier: GPL-2.0
/*
 * The files libdwfl unwinds through, and where it sees them. A file is
 * reported the first time a value of a sample lands in a mapping of it:
 * opened through the symbols layer's choice of file (so build-id cache,
 * --symfs and debug directories apply) and placed in a slot of its own
 * above UW_PLACE_BASE, the same for every process. The debug file, for
 * .debug_frame, comes through find_debuginfo.
 *
 * Values of the sample (registers, stack words, words read from files)
 * are moved into the slots: a runtime address becomes its ELF address
 * (pm_dso__map_ip(), as symbols do) plus the slot's bias. Only addresses
 * in a file's mappings move, so stack addresses, data and anything libdw
 * uses as a base for the CFA keep their values; return addresses land in
 * the file's slot, where libdw finds its CFI. Frames found come back with
 * the bias of the mapping their values came from.
 *
 * libdwfl places a module by its lowest address: main_bias = low_addr -
 * (first PT_LOAD's p_vaddr rounded down to its alignment). Reporting
 * [slot + that, slot + end of the last PT_LOAD) makes the slot the bias.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmprof/bytes.h"
#include "pmprof/dso.h"
#include "pmprof/keymap.h"
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

/* Has the file an .eh_frame (with contents: not a debug file's)? */
static bool has_eh_frame(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".eh_frame") && sh.sh_size)
			return true;
	}
	return false;
}

/*
 * The debug file, for its .debug_frame, when the file has no .eh_frame:
 * where a file has one, it covers all of its code, and libdw would read
 * (and decompress) every DWARF section of a debug file only to look for a
 * frame that is not there, at the end of a stack for instance.
 */
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
	if (!m || m->has_eh_frame)
		return -1;
	path = pm_dso__debug_path(m->ref);
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
	pm_dso__put(m->ref);
	free(m);
}

void pm_uw_free_modules(struct uw_space *sp)
{
	for (size_t i = 0; i < sp->by_dso.nr; i++)
		module_free(sp->by_dso.values[i]);
	pm_keymap__release(&sp->by_dso);
	free(sp->by_addr);
	sp->by_addr = NULL;
	sp->nr_addr = sp->alloc_addr = 0;
}

struct uw_module *pm_uw_module_at(const struct uw_space *sp, uint64_t addr)
{
	size_t lo = 0, hi = sp->nr_addr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sp->by_addr[mid]->hi <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < sp->nr_addr && sp->by_addr[lo]->lo <= addr)
		return sp->by_addr[lo];
	return NULL;
}

/* Open the file libdwfl should read for dso: its runtime binary, the
 * vdso image, or (when the binary is missing) its debug file. */
static int open_file(struct uw_module *m)
{
	const char *path;
	const void *img;
	size_t len;

	m->fd = -1;
	pm_dso__load(m->ref, NULL);	/* finds the files (may fail: no symbols) */
	path = pm_dso__path(m->ref);
	if (pm_dso__image(m->ref, &img, &len) == 0) {
		m->image = pm_malloc(len);
		memcpy(m->image, img, len);
		m->elf = elf_memory(m->image, len);
		m->path = pm_strdup(pm_dso__name(m->ref));
		return m->elf ? 0 : -1;	/* no debug file to look for */
	}
	if (!path)
		path = pm_dso__debug_path(m->ref);
	if (!path)
		return -1;
	m->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (m->fd < 0)
		return -1;
	m->elf = elf_begin(m->fd, ELF_C_READ_MMAP, NULL);
	m->path = pm_strdup(path);
	if (!m->elf)
		return -1;
	m->has_eh_frame = has_eh_frame(m->elf);
	return 0;
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
	return first || *hi <= *lo || *hi - *lo > (1ULL << 40) ? -1 : 0;
}

/* Give m its slot and report it; false when it cannot be. */
static bool report(struct pm_unwinder *u, struct uw_space *sp,
		   struct uw_module *m)
{
	uint64_t lo, hi, slot;
	void **userdata;
	size_t pos;

	if (open_file(m) || load_range(m, &lo, &hi))
		return false;
	slot = sp->next_place;
	m->bias = slot - lo;
	m->lo = slot;
	m->hi = slot + (hi - lo);
	dwfl_report_begin_add(sp->dwfl);
	m->mod = dwfl_report_module(sp->dwfl, pm_dso__name(m->ref), m->lo, m->hi);
	dwfl_report_end(sp->dwfl, NULL, NULL);
	if (!m->mod)
		return false;
	dwfl_module_info(m->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	*userdata = m;
	sp->next_place = slot + ((hi - lo + UW_PLACE_ALIGN) & ~(UW_PLACE_ALIGN - 1));
	/* slots only grow: the new one goes last */
	pos = sp->nr_addr;
	PM_GROW(sp->by_addr, sp->alloc_addr, sp->nr_addr + 1);
	sp->by_addr[pos] = m;
	sp->nr_addr++;
	u->stats.modules++;
	return true;
}

/* Files libdwfl can unwind through: ELF files and the vdso. */
static bool reportable(struct pm_dso *dso)
{
	enum pm_dso_kind k = pm_dso__kind(dso);

	return k == PM_DSO_ELF || k == PM_DSO_VDSO;
}

struct uw_module *pm_uw_module(struct pm_unwinder *u, struct uw_space *sp,
			       struct pm_dso *dso)
{
	struct uw_module *m;
	bool is_new;

	m = pm_keymap__findnew_zeroed(&sp->by_dso, &dso, sizeof(dso),
				      sizeof(*m), &is_new);
	if (!is_new)
		return m->mod ? m : NULL;
	m->ref = pm_dso__get(dso);
	m->fd = -1;
	/* a file that cannot be reported stays, without mod: not tried again */
	if (!reportable(dso) || !report(u, sp, m))
		return NULL;
	return m;
}

/* Remember with which bias the process maps m (most recent first). */
static void note_moved(struct uw_current *c, const struct uw_module *m,
		       uint64_t runtime_bias)
{
	size_t i;

	for (i = 0; i < c->nr_moved; i++)
		if (c->moved[i].m == m && c->moved[i].runtime_bias == runtime_bias)
			break;
	if (i == c->nr_moved && c->nr_moved < PM_ARRAY_SIZE(c->moved))
		c->nr_moved++;
	if (i == PM_ARRAY_SIZE(c->moved))
		i--;
	memmove(c->moved + 1, c->moved, i * sizeof(*c->moved));
	c->moved[0].m = m;
	c->moved[0].runtime_bias = runtime_bias;
}

/*
 * The mapping holding addr: the sample's values land in a few mappings
 * again and again, and they do not change during a sample.
 */
/*
 * The mapping holding addr and its file's module (NULL: none to move
 * into): the sample's values land in a few mappings again and again, and
 * they do not change during a sample.
 */
static const struct uw_seen *find_map(struct pm_unwinder *u, uint64_t addr)
{
	struct uw_current *c = &u->cur;
	struct uw_seen *e;

	/* values come in runs: the stack's words, then code addresses */
	e = &c->seen[c->last_seen];
	if (c->nr_seen && e->map.start <= addr && addr < e->map.end)
		return e->hole ? NULL : e;
	for (size_t i = 0; i < c->nr_seen; i++)
		if (c->seen[i].map.start <= addr && addr < c->seen[i].map.end) {
			c->last_seen = i;
			return c->seen[i].hole ? NULL : &c->seen[i];
		}
	e = &c->seen[c->next_seen];
	memset(&e->map, 0, sizeof(e->map));
	e->hole = c->find_map(c->arg, addr, &e->map) != 0;
	if (e->hole && !(e->map.start <= addr && addr < e->map.end))
		return NULL;	/* no hole told: nothing to remember */
	e->m = !e->hole && e->map.dso ? pm_uw_module(u, c->space, e->map.dso) : NULL;
	c->last_seen = c->next_seen;
	c->next_seen = (c->next_seen + 1) % PM_ARRAY_SIZE(c->seen);
	if (c->nr_seen < PM_ARRAY_SIZE(c->seen))
		c->nr_seen++;
	return e->hole ? NULL : e;
}

uint64_t pm_uw_place(struct pm_unwinder *u, uint64_t v)
{
	const struct uw_seen *e = find_map(u, v);
	uint64_t elf;

	/*
	 * The mapping holding v; else, for a return address just past the
	 * end of a mapping (a call that never returns, last in a file's
	 * code), the mapping it returns from.
	 */
	if (!e || !e->m) {
		e = v ? find_map(u, v - 1) : NULL;
		if (!e || !e->m || e->map.end != v)
			return v;
	}
	elf = pm_dso__map_ip(e->map.dso, e->map.start, e->map.pgoff, v);
	note_moved(&u->cur, e->m, v - elf);
	if (e->map.exec) {
		e->m->exec_bias = v - elf;
		e->m->exec_sample = u->sample_no;
	}
	return elf + e->m->bias;
}

/* Remember that a frame was moved back through m (for the memo). */
static void note_framed(struct uw_current *c, const struct uw_module *m,
			bool by_exec)
{
	size_t i;

	if (!by_exec) {
		c->framed_odd = true;
		return;
	}
	for (i = 0; i < c->nr_framed && c->framed[i] != m; i++)
		;
	if (i == c->nr_framed) {
		if (i == PM_ARRAY_SIZE(c->framed))
			c->framed_odd = true;
		else
			c->framed[c->nr_framed++] = m;
	}
}

uint64_t pm_uw_unplace(struct pm_unwinder *u, uint64_t v)
{
	struct uw_current *c = &u->cur;
	const struct uw_module *m = pm_uw_module_at(c->space, v);

	if (!m)
		return v;	/* never moved: a runtime address already */
	/* code is in executable mappings: the bias of the latest value in
	 * one, else of the latest value anywhere in the file */
	if (m->exec_sample == u->sample_no) {
		note_framed(c, m, true);
		return v - m->bias + m->exec_bias;
	}
	note_framed(c, m, false);
	for (size_t i = 0; i < c->nr_moved; i++)
		if (c->moved[i].m == m)
			return v - m->bias + c->moved[i].runtime_bias;
	return v;
}

bool pm_uw_file_word(const struct uw_module *m, uint64_t addr, bool big,
		     uint64_t *val)
{
	const char *img;
	size_t size;
	uint64_t a;

	if (!m || !m->elf || addr < m->bias)
		return false;
	img = elf_rawfile(m->elf, &size);
	if (!img || size < 8)
		return false;
	a = addr - m->bias;
	for (size_t i = 0; i < m->nr_loads; i++) {
		const struct uw_load *l = &m->loads[i];
		uint64_t off;

		if (a < l->vaddr || a - l->vaddr > l->filesz ||
		    l->filesz - (a - l->vaddr) < 8)
			continue;
		off = l->offset + (a - l->vaddr);
		if (off > size - 8)
			return false;
		*val = pm_load64(img + off, big != PM_HOST_BIG_ENDIAN);
		return true;
	}
	return false;
}
