// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator's program: a little ELF64 executable (ET_EXEC) whose .text
 * holds the model's functions as symbols, so that pmprof and perf resolve
 * the simulated IPs. The code bytes are zeros; only the symbols matter.
 *
 * Layout: ELF header, one PT_LOAD program header, .text at file offset
 * 0x1000 + (text_addr mod 0x1000), .symtab, .strtab, .shstrtab, the
 * section headers. Host byte order (the simulator's records are too).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/bytes.h"
#include "pmprof/outfile.h"
#include "pmprof/sim.h"
#include "pmprof/util.h"

#define PAGE 0x1000ULL

struct buf {
	uint8_t *data;
	size_t len, alloc;
};

static uint8_t *span(struct buf *b, size_t off, size_t n)
{
	if (off + n > b->len) {
		PM_GROW(b->data, b->alloc, off + n);
		memset(b->data + b->len, 0, off + n - b->len);
		b->len = off + n;
	}
	return b->data + off;
}

static void w16(struct buf *b, size_t off, uint16_t v) { pm_store16(span(b, off, 2), v, false); }
static void w32(struct buf *b, size_t off, uint32_t v) { pm_store32(span(b, off, 4), v, false); }
static void w64(struct buf *b, size_t off, uint64_t v) { pm_store64(span(b, off, 8), v, false); }

static uint32_t strtab_add(struct buf *t, const char *s)
{
	size_t off = t->len, n = strlen(s) + 1;

	memcpy(span(t, off, n), s, n);
	return (uint32_t)off;
}

static void section(struct buf *b, size_t off, uint32_t name, uint32_t type,
		    uint64_t flags, uint64_t addr, uint64_t offset,
		    uint64_t size, uint32_t link, uint32_t info, uint64_t align,
		    uint64_t entsize)
{
	w32(b, off, name);
	w32(b, off + 4, type);
	w64(b, off + 8, flags);
	w64(b, off + 16, addr);
	w64(b, off + 24, offset);
	w64(b, off + 32, size);
	w32(b, off + 40, link);
	w32(b, off + 44, info);
	w64(b, off + 48, align);
	w64(b, off + 56, entsize);
}

uint16_t pm_sim_elf__machine(const char *arch)
{
	static const struct { const char *arch; uint16_t em; } t[] = {
		{ "x86_64", 62 }, { "aarch64", 183 }, { "arm64", 183 },
		{ "riscv64", 243 }, { "ppc64le", 21 }, { "ppc64", 21 },
		{ "s390x", 22 }, { "alpha", 0x9026 },
	};
	size_t i;

	for (i = 0; arch && i < PM_ARRAY_SIZE(t); i++)
		if (!strcmp(arch, t[i].arch))
			return t[i].em;
	return 62;
}

int pm_sim_elf__write(int fd, const char *name, uint16_t machine,
		      uint64_t text_addr, uint64_t text_size,
		      const struct pm_sim_elf_sym *syms, size_t nr,
		      struct pm_error *err)
{
	struct buf b = { 0 }, strtab = { 0 }, shstr = { 0 };
	size_t text_off, sym_off, str_off, shstr_off, sh_off, off, i;
	uint32_t n_text, n_sym, n_str, n_shstr;
	int ret;

	memcpy(span(&b, 0, 4), "\177ELF", 4);
	*span(&b, 4, 1) = 2;			/* ELFCLASS64 */
	*span(&b, 5, 1) = PM_HOST_BIG_ENDIAN ? 2 : 1;
	*span(&b, 6, 1) = 1;			/* EV_CURRENT */

	text_off = PAGE + (text_addr & (PAGE - 1));
	span(&b, text_off, text_size);
	off = text_off + text_size;

	strtab_add(&strtab, "");
	sym_off = pm_align8(off);
	span(&b, sym_off, 24);			/* the null symbol */
	off = sym_off + 24;
	for (i = 0; i < nr; i++) {
		w32(&b, off, strtab_add(&strtab, syms[i].name));
		*span(&b, off + 4, 1) = 1 << 4 | 2;	/* GLOBAL FUNC */
		w16(&b, off + 6, 1);			/* in .text */
		w64(&b, off + 8, syms[i].addr);
		w64(&b, off + 16, syms[i].size);
		off += 24;
	}
	str_off = off;
	memcpy(span(&b, str_off, strtab.len), strtab.data, strtab.len);
	off = str_off + strtab.len;

	strtab_add(&shstr, "");
	n_text = strtab_add(&shstr, ".text");
	n_sym = strtab_add(&shstr, ".symtab");
	n_str = strtab_add(&shstr, ".strtab");
	n_shstr = strtab_add(&shstr, ".shstrtab");
	shstr_off = off;
	memcpy(span(&b, shstr_off, shstr.len), shstr.data, shstr.len);
	off = shstr_off + shstr.len;

	sh_off = pm_align8(off);
	span(&b, sh_off, 5 * 64);
	section(&b, sh_off + 64, n_text, 1 /* PROGBITS */, 0x6 /* AX */,
		text_addr, text_off, text_size, 0, 0, 16, 0);
	section(&b, sh_off + 128, n_sym, 2 /* SYMTAB */, 0, 0, sym_off,
		str_off - sym_off, 3, 1 /* first global */, 8, 24);
	section(&b, sh_off + 192, n_str, 3 /* STRTAB */, 0, 0, str_off,
		strtab.len, 0, 0, 1, 0);
	section(&b, sh_off + 256, n_shstr, 3, 0, 0, shstr_off, shstr.len, 0,
		0, 1, 0);

	w16(&b, 16, 2);				/* ET_EXEC */
	w16(&b, 18, machine);
	w32(&b, 20, 1);
	w64(&b, 24, text_addr);			/* e_entry */
	w64(&b, 32, 64);			/* e_phoff */
	w64(&b, 40, sh_off);
	w16(&b, 52, 64);			/* e_ehsize */
	w16(&b, 54, 56);			/* e_phentsize */
	w16(&b, 56, 1);
	w16(&b, 58, 64);			/* e_shentsize */
	w16(&b, 60, 5);
	w16(&b, 62, 4);				/* .shstrtab */
	/* PT_LOAD R|X of .text */
	w32(&b, 64, 1);
	w32(&b, 68, 5);
	w64(&b, 72, text_off);
	w64(&b, 80, text_addr);
	w64(&b, 88, text_addr);
	w64(&b, 96, text_size);
	w64(&b, 104, text_size);
	w64(&b, 112, PAGE);

	ret = pm_write_all(fd, b.data, b.len, name, err);
	free(b.data);
	free(strtab.data);
	free(shstr.data);
	return ret;
}
