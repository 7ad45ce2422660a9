// SPDX-License-Identifier: GPL-2.0
/*
 * Reading one ELF file through libelf: identity, PT_LOAD segments, build
 * id, debuglink, and its function and data symbols. libelf translates
 * every structure to host order, so files of any class, machine and byte
 * order read the same way; the one untranslated byte section we read
 * (.gnu_debuglink) goes through pm_load32.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmprof/bytes.h"
#include "pmprof/error.h"
#include "pmprof/symbols.h"
#include "pmprof/util.h"
#include "symbols/internal.h"

#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC 10
#endif
#ifndef EM_ARM
#define EM_ARM 40
#endif
#ifndef EM_AARCH64
#define EM_AARCH64 183
#endif

struct elf_handle {
	int fd;
	Elf *elf;
};

static int elf_open(struct elf_handle *h, const char *path, const void *buf,
		    size_t len, struct pm_error *err)
{
	static bool inited;

	if (!inited) {
		if (elf_version(EV_CURRENT) == EV_NONE)
			return pm_error__fmt(err, PM_EUNSUP,
					     "libelf: %s", elf_errmsg(-1));
		inited = true;
	}
	h->fd = -1;
	if (buf) {
		h->elf = elf_memory((char *)buf, len);
	} else {
		h->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (h->fd < 0)
			return pm_error__fmt(err, errno, "%s: %s", path,
					     strerror(errno));
		h->elf = elf_begin(h->fd, ELF_C_READ_MMAP, NULL);
	}
	if (!h->elf || elf_kind(h->elf) != ELF_K_ELF) {
		int r = pm_error__fmt(err, PM_EFORMAT, "%s: not an ELF file%s%s",
				      path, h->elf ? "" : ": ",
				      h->elf ? "" : elf_errmsg(-1));

		if (h->elf)
			elf_end(h->elf);
		if (h->fd >= 0)
			close(h->fd);
		return r;
	}
	return 0;
}

static void elf_close(struct elf_handle *h)
{
	elf_end(h->elf);
	if (h->fd >= 0)
		close(h->fd);
}

/* The GNU build id note of a NOTE section, if it has one. *budget is
 * what is left of the bytes all notes of the file may take (libelf
 * converts each section it is asked for). */
static void read_build_id(struct pm_elf_file *f, Elf_Scn *scn,
			  const GElf_Shdr *sh, size_t *budget)
{
	Elf_Data *d;
	size_t n;

	if (sh->sh_size > *budget)
		return;
	*budget -= sh->sh_size;
	d = elf_getdata(scn, NULL);
	n = d ? pm_elf_data__build_id(d, f->build_id, sizeof(f->build_id)) : 0;
	if (n)
		f->build_id_size = n;
}

static void read_debuglink(struct pm_elf_file *f, Elf_Scn *scn, bool swap)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	const char *p;
	size_t n, crc_off;

	if (!d || !d->d_buf || d->d_size < 5)
		return;
	p = d->d_buf;
	n = strnlen(p, d->d_size);
	crc_off = (n + 4) & ~(size_t)3;	/* name, NUL, pad to 4 */
	if (n == 0 || n == d->d_size || crc_off + 4 > d->d_size)
		return;
	f->debuglink = pm_strndup(p, n);
	f->debuglink_crc = pm_load32(p + crc_off, swap);
}

static void load_symbols(Elf *elf, const struct pm_elf_file *f,
			 struct pm_symtab *funcs, struct pm_symtab *data);
static void synthesize_plt(Elf *elf, uint16_t machine, size_t shstrndx,
			   struct pm_symtab *funcs);

int pm_elf_file__open(struct pm_elf_file *f, const char *path,
		      const void *buf, size_t len, struct pm_symtab *funcs,
		      struct pm_symtab *data, struct pm_error *err)
{
	struct elf_handle h = { -1, NULL };
	GElf_Ehdr eh;
	size_t nph = 0, shstrndx = 0, alloc = 0, note_budget = 0;
	unsigned int seen_symtab = 0, seen_dynsym = 0;
	Elf_Scn *scn = NULL;
	const char *ident;
	bool swap;
	int r;

	memset(f, 0, sizeof(*f));
	r = elf_open(&h, path, buf, len, err);
	if (r < 0)
		return r;
	ident = elf_getident(h.elf, NULL);
	if (!gelf_getehdr(h.elf, &eh) || !ident) {
		elf_close(&h);
		return pm_error__fmt(err, PM_EFORMAT, "%s: bad ELF header: %s",
				     path, elf_errmsg(-1));
	}
	f->path = pm_strdup(path);
	f->info.machine = eh.e_machine;
	f->info.type = eh.e_type;
	f->info.elfclass = (uint8_t)ident[EI_CLASS];
	f->info.data = (uint8_t)ident[EI_DATA];
	swap = (f->info.data == ELFDATA2MSB) != PM_HOST_BIG_ENDIAN;

	if (elf_getphdrnum(h.elf, &nph) == 0) {
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;
			struct pm_segment *s;

			if (!gelf_getphdr(h.elf, (int)i, &ph) ||
			    ph.p_type != PT_LOAD)
				continue;
			PM_GROW(f->segs, alloc, f->nr_segs + 1);
			s = &f->segs[f->nr_segs++];
			s->offset = ph.p_offset;
			s->vaddr = ph.p_vaddr;
			s->filesz = ph.p_filesz;
			s->memsz = ph.p_memsz;
			s->align = ph.p_align;
			s->exec = ph.p_flags & PF_X;
		}
	}

	/* Notes are searched for a build id; sections may overlap, so
	 * bound the bytes searched by the size of the file. */
	if (!elf_rawfile(h.elf, &note_budget))
		note_budget = 0;
	if (elf_getshdrstrndx(h.elf, &shstrndx) != 0)
		shstrndx = 0;
	while ((scn = elf_nextscn(h.elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = shstrndx ? elf_strptr(h.elf, shstrndx, sh.sh_name) : NULL;
		if (!name)
			name = "";
		switch (sh.sh_type) {
		case SHT_SYMTAB:
			/* the first of each kind is the one load_symbols reads */
			if (!seen_symtab++ && sh.sh_entsize &&
			    sh.sh_size / sh.sh_entsize > 1)
				f->has_symtab = true;
			break;
		case SHT_DYNSYM:
			if (!seen_dynsym++ && sh.sh_entsize &&
			    sh.sh_size / sh.sh_entsize > 1)
				f->has_dynsym = true;
			break;
		case SHT_NOTE:
			if (!f->build_id_size)
				read_build_id(f, scn, &sh, &note_budget);
			break;
		case SHT_PROGBITS:
			if (!strcmp(name, ".gnu_debuglink"))
				read_debuglink(f, scn, swap);
			else if (!strcmp(name, ".debug_line") ||
				 !strcmp(name, ".zdebug_line"))
				f->has_debug_line = true;
			break;
		default:
			break;
		}
	}
	if (funcs && (f->has_symtab || f->has_dynsym))
		load_symbols(h.elf, f, funcs, data);
	if (funcs && shstrndx)
		synthesize_plt(h.elf, f->info.machine, shstrndx, funcs);
	elf_close(&h);
	return 0;
}

void pm_elf_file__release(struct pm_elf_file *f)
{
	free(f->path);
	free(f->debuglink);
	free(f->segs);
	memset(f, 0, sizeof(*f));
}

/* Section flags by index, so each symbol's section is one lookup. */
struct sec_flags {
	uint64_t *flags;
	uint32_t *type;
	size_t nr;
};

static void load_sec_flags(Elf *elf, struct sec_flags *sf)
{
	Elf_Scn *scn = NULL;
	size_t n = 0;

	if (elf_getshdrnum(elf, &n) != 0)
		n = 0;
	sf->nr = n;
	sf->flags = pm_calloc(n ? n : 1, sizeof(*sf->flags));
	sf->type = pm_calloc(n ? n : 1, sizeof(*sf->type));
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		size_t i = elf_ndxscn(scn);

		if (i < n && gelf_getshdr(scn, &sh)) {
			sf->flags[i] = sh.sh_flags;
			sf->type[i] = sh.sh_type;
		}
	}
}

static enum pm_sym_bind bind_of(unsigned char b)
{
	switch (b) {
	case STB_GLOBAL: return PM_BIND_GLOBAL;
	case STB_WEAK: return PM_BIND_WEAK;
	case STB_GNU_UNIQUE: return PM_BIND_GLOBAL;
	default: return PM_BIND_LOCAL;
	}
}

/* Names that are not functions even in code: ARM/AArch64 mapping symbols. */
static bool mapping_symbol(const char *name)
{
	return name[0] == '$' || (name[0] == '.' && name[1] == 'L');
}

static void add_table(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
		      Elf_Scn *xscn, const struct sec_flags *sf,
		      uint16_t machine, struct pm_symtab *funcs,
		      struct pm_symtab *data)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	Elf_Data *xd = xscn ? elf_getdata(xscn, NULL) : NULL;
	size_t n;

	if (!d || !d->d_buf || !sh->sh_entsize || sh->sh_type == SHT_NOBITS)
		return;
	n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		Elf32_Word xndx = 0;
		const char *name;
		size_t shndx;
		unsigned char type;
		uint64_t value;

		if (!gelf_getsymshndx(d, xd, (int)i, &sym, &xndx))
			continue;
		if (sym.st_name == 0 || sym.st_shndx == SHN_UNDEF ||
		    sym.st_shndx == SHN_ABS || sym.st_shndx == SHN_COMMON)
			continue;
		shndx = sym.st_shndx == SHN_XINDEX ? xndx : sym.st_shndx;
		if (shndx >= sf->nr || !(sf->flags[shndx] & SHF_ALLOC))
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		value = sym.st_value;
		if (sf->flags[shndx] & SHF_EXECINSTR) {
			enum pm_sym_type t;

			if (type == STT_FUNC)
				t = PM_SYM_FUNC;
			else if (type == STT_GNU_IFUNC)
				t = PM_SYM_IFUNC;
			else if (type == STT_NOTYPE && !mapping_symbol(name))
				t = PM_SYM_NOTYPE;
			else
				continue;
			if (machine == EM_ARM)
				value &= ~1ULL;	/* Thumb bit */
			pm_symtab__add(funcs, value, sym.st_size, t,
				       bind_of(GELF_ST_BIND(sym.st_info)), name);
		} else if (data && type == STT_OBJECT) {
			pm_symtab__add(data, value, sym.st_size, PM_SYM_OBJECT,
				       bind_of(GELF_ST_BIND(sym.st_info)), name);
		}
	}
}

/*
 * PLT entries as perf names them, "callee@plt" ("@plt" for IRELATIVE
 * slots without a symbol), so samples in a PLT stub are not charged to
 * the function before it. The n-th .rela.plt/.rel.plt relocation belongs
 * to the n-th PLT entry: in .plt.sec when present (IBT), else in .plt
 * after its header. Only for layouts known here: x86 and AArch64.
 */
static void synthesize_plt(Elf *elf, uint16_t machine, size_t shstrndx,
			   struct pm_symtab *funcs)
{
	Elf_Scn *scn = NULL, *rel = NULL, *plt = NULL, *pltsec = NULL;
	GElf_Shdr rsh, psh, ssh, dsh;
	Elf_Data *rd, *sd;
	uint64_t base, hdr, ent;
	size_t n;

	if (machine == EM_X86_64 || machine == EM_386)
		hdr = 16, ent = 16;
	else if (machine == EM_AARCH64)
		hdr = 32, ent = 16;
	else
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			continue;
		if (!strcmp(name, ".rela.plt") || !strcmp(name, ".rel.plt"))
			rel = scn;
		else if (!strcmp(name, ".plt"))
			plt = scn;
		else if (!strcmp(name, ".plt.sec"))
			pltsec = scn;
	}
	if (!rel || !plt || !gelf_getshdr(rel, &rsh) || !gelf_getshdr(plt, &psh) ||
	    psh.sh_type == SHT_NOBITS || !rsh.sh_entsize)
		return;
	if (pltsec && gelf_getshdr(pltsec, &ssh) && ssh.sh_type != SHT_NOBITS) {
		base = ssh.sh_addr;
		ent = ssh.sh_entsize ? ssh.sh_entsize : ent;
	} else {
		base = psh.sh_addr + hdr;
	}
	scn = elf_getscn(elf, rsh.sh_link);	/* the dynamic symbols */
	if (!scn || !gelf_getshdr(scn, &dsh))
		return;
	rd = elf_getdata(rel, NULL);
	sd = elf_getdata(scn, NULL);
	if (!rd || !rd->d_buf || !sd || !sd->d_buf)
		return;
	n = rsh.sh_size / rsh.sh_entsize;
	for (size_t i = 0; i < n; i++) {
		uint64_t info, addr = base + i * ent;
		const char *name = NULL;
		GElf_Sym sym;
		char buf[512];

		if (rsh.sh_type == SHT_RELA) {
			GElf_Rela r;

			if (!gelf_getrela(rd, (int)i, &r))
				break;
			info = r.r_info;
		} else {
			GElf_Rel r;

			if (!gelf_getrel(rd, (int)i, &r))
				break;
			info = r.r_info;
		}
		if (addr + ent > psh.sh_addr + psh.sh_size && !pltsec)
			break;
		if (GELF_R_SYM(info) && gelf_getsym(sd, (int)GELF_R_SYM(info), &sym))
			name = elf_strptr(elf, dsh.sh_link, sym.st_name);
		snprintf(buf, sizeof(buf), "%s@plt", name ? name : "");
		pm_symtab__add(funcs, addr, ent, PM_SYM_FUNC, PM_BIND_GLOBAL, buf);
	}
}

/* The first section of a type after `from` (NULL: from the start). */
static Elf_Scn *next_of_type(Elf *elf, Elf_Scn *from, GElf_Word type,
			     GElf_Shdr *sh)
{
	Elf_Scn *scn = from;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type == type)
			return scn;
	return NULL;
}

/*
 * Symbols of an open file: .symtab when it has one (it holds everything
 * .dynsym has and the local symbols), else .dynsym. Only the first table
 * of that type is read, as perf does: a real file has one, and a hostile
 * one with thousands would have each loaded. Finding it and its extended
 * section indexes (the SYMTAB_SHNDX linked to it) is a pass over the
 * section headers each, so the work is linear in their number.
 */
static void load_symbols(Elf *elf, const struct pm_elf_file *f,
			 struct pm_symtab *funcs, struct pm_symtab *data)
{
	Elf_Scn *table, *x = NULL;
	struct sec_flags sf;
	GElf_Shdr sh, xh;
	size_t idx;

	table = next_of_type(elf, NULL, f->has_symtab ? SHT_SYMTAB : SHT_DYNSYM,
			     &sh);
	if (!table)
		return;
	idx = elf_ndxscn(table);
	while ((x = next_of_type(elf, x, SHT_SYMTAB_SHNDX, &xh)))
		if (xh.sh_link == idx)
			break;
	load_sec_flags(elf, &sf);
	add_table(elf, table, &sh, x, &sf, f->info.machine, funcs, data);
	free(sf.flags);
	free(sf.type);
}

uint64_t pm_segments__offset_to_addr(const struct pm_segment *segs, size_t nr,
				     uint64_t offset)
{
	const struct pm_segment *best = NULL;

	for (size_t i = 0; i < nr; i++) {
		const struct pm_segment *s = &segs[i];

		if (offset >= s->offset && offset - s->offset < s->filesz)
			return s->vaddr + (offset - s->offset);
		/* else: the last segment starting before it (gaps, bss) */
		if (s->offset <= offset && (!best || s->offset >= best->offset))
			best = s;
	}
	if (best)
		return best->vaddr + (offset - best->offset);
	return offset;
}

uint64_t pm_segments__addr_to_offset(const struct pm_segment *segs, size_t nr,
				     uint64_t addr)
{
	const struct pm_segment *best = NULL;

	for (size_t i = 0; i < nr; i++) {
		const struct pm_segment *s = &segs[i];

		if (addr >= s->vaddr && addr - s->vaddr < PM_MAX(s->memsz, s->filesz))
			return s->offset + (addr - s->vaddr);
		if (s->vaddr <= addr && (!best || s->vaddr >= best->vaddr))
			best = s;
	}
	if (best)
		return best->offset + (addr - best->vaddr);
	return addr;
}

/* The CRC-32 of .gnu_debuglink (reflected, polynomial 0xedb88320). */
int pm_file_crc32(const char *path, uint32_t *crc)
{
	static uint32_t table[256];
	unsigned char buf[65536];
	uint32_t c = 0xffffffffu;
	ssize_t n;
	int fd;

	if (!table[1]) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t v = i;

			for (int k = 0; k < 8; k++)
				v = v & 1 ? 0xedb88320u ^ (v >> 1) : v >> 1;
			table[i] = v;
		}
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			c = table[(c ^ buf[i]) & 0xff] ^ (c >> 8);
	close(fd);
	if (n < 0)
		return -EIO;
	*crc = c ^ 0xffffffffu;
	return 0;
}
