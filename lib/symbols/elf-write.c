// SPDX-License-Identifier: GPL-2.0
/*
 * A minimal ELF64 writer: any e_machine, either byte order, the symbols
 * the caller chose, so that a test or the simulator knows every address
 * without trusting the symbol code that reads it back.
 *
 * Layout: ELF header, program headers, .text at a page-congruent offset,
 * [.note.gnu.build-id], .symtab, .strtab, .shstrtab, section headers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/bytebuf.h"
#include "pmprof/bytes.h"
#include "pmprof/outfile.h"
#include "pmprof/symbols.h"
#include "pmprof/util.h"

#define PAGE 0x1000ULL

/* The image being built, and the byte order it is written in. */
struct obuf {
	struct pm_bytebuf b;
	bool swap;
};

static uint8_t *at(struct obuf *b, size_t off, size_t n)
{
	return pm_bytebuf__at(&b->b, off, n);
}

static void put16(struct obuf *b, size_t off, uint16_t v) { pm_store16(at(b, off, 2), v, b->swap); }
static void put32(struct obuf *b, size_t off, uint32_t v) { pm_store32(at(b, off, 4), v, b->swap); }
static void put64(struct obuf *b, size_t off, uint64_t v) { pm_store64(at(b, off, 8), v, b->swap); }

/* Append a NUL-terminated name to a string table; its offset. */
static uint32_t add_str(struct obuf *t, const char *s)
{
	size_t off = t->b.len, n = strlen(s) + 1;

	memcpy(at(t, off, n), s, n);
	return (uint32_t)off;
}

static void shdr(struct obuf *b, size_t off, uint32_t name, uint32_t type,
		 uint64_t flags, uint64_t addr, uint64_t offset, uint64_t size,
		 uint32_t link, uint32_t info, uint64_t align, uint64_t entsize)
{
	put32(b, off, name);
	put32(b, off + 4, type);
	put64(b, off + 8, flags);
	put64(b, off + 16, addr);
	put64(b, off + 24, offset);
	put64(b, off + 32, size);
	put32(b, off + 40, link);
	put32(b, off + 44, info);
	put64(b, off + 48, align);
	put64(b, off + 56, entsize);
}

static void phdr(struct obuf *b, size_t off, uint32_t type, uint32_t flags,
		 uint64_t offset, uint64_t vaddr, uint64_t size, uint64_t align)
{
	put32(b, off, type);
	put32(b, off + 4, flags);
	put64(b, off + 8, offset);
	put64(b, off + 16, vaddr);
	put64(b, off + 24, vaddr);
	put64(b, off + 32, size);
	put64(b, off + 40, size);
	put64(b, off + 48, align);
}

void *pm_elf__image(const struct pm_elf_image *e, size_t *len)
{
	struct obuf b = { .swap = e->big_endian != PM_HOST_BIG_ENDIAN };
	struct obuf strtab = { 0 }, shstr = { 0 };
	bool note = e->build_id && e->build_id_size;
	uint16_t phnum = note ? 2 : 1, shnum = note ? 6 : 5, sec;
	size_t text_off, note_off = 0, note_size = 0, sym_off, str_off,
	       shstr_off, sh_off, i, off;
	uint32_t n_text, n_note = 0, n_sym, n_str, n_shstr, nlocal = 0;

	/* e_ident */
	memcpy(at(&b, 0, 4), "\177ELF", 4);
	*at(&b, 4, 1) = 2;				/* ELFCLASS64 */
	*at(&b, 5, 1) = e->big_endian ? 2 : 1;		/* ELFDATA2MSB/LSB */
	*at(&b, 6, 1) = 1;				/* EV_CURRENT */

	/* .text sits where a PT_LOAD may map it: offset = vaddr (mod page). */
	text_off = PAGE + (e->text_addr & (PAGE - 1));
	at(&b, text_off, e->text_size);			/* zeros */
	if (e->text && e->text_size)
		memcpy(at(&b, text_off, e->text_size), e->text, e->text_size);
	off = text_off + e->text_size;

	if (note) {
		/* {namesz, descsz, type NT_GNU_BUILD_ID}, "GNU\0", desc */
		note_off = pm_align8(off);
		note_size = 16 + ((e->build_id_size + 3) & ~(size_t)3);
		put32(&b, note_off, 4);
		put32(&b, note_off + 4, (uint32_t)e->build_id_size);
		put32(&b, note_off + 8, 3);
		memcpy(at(&b, note_off + 12, 4), "GNU", 4);
		memcpy(at(&b, note_off + 16, e->build_id_size), e->build_id,
		       e->build_id_size);
		at(&b, note_off, note_size);
		off = note_off + note_size;
	}

	/* Symbols: locals first (the ELF rule sh_info relies on). */
	add_str(&strtab, "");
	sym_off = pm_align8(off);
	at(&b, sym_off, 24);				/* the null symbol */
	off = sym_off + 24;
	for (int pass = 0; pass < 2; pass++) {
		for (i = 0; i < e->nr_syms; i++) {
			const struct pm_elf_sym *s = &e->syms[i];
			uint8_t bind = s->local ? 0 : 1, type = s->object ? 1 : 2;

			if (s->local != (pass == 0))
				continue;
			put32(&b, off, add_str(&strtab, s->name));
			*at(&b, off + 4, 1) = (uint8_t)(bind << 4 | type);
			*at(&b, off + 5, 1) = 0;
			put16(&b, off + 6, 1);		/* .text */
			put64(&b, off + 8, s->addr);
			put64(&b, off + 16, s->size);
			off += 24;
			if (s->local)
				nlocal++;
		}
	}
	str_off = off;
	memcpy(at(&b, str_off, strtab.b.len), strtab.b.data, strtab.b.len);
	off = str_off + strtab.b.len;

	add_str(&shstr, "");
	n_text = add_str(&shstr, ".text");
	if (note)
		n_note = add_str(&shstr, ".note.gnu.build-id");
	n_sym = add_str(&shstr, ".symtab");
	n_str = add_str(&shstr, ".strtab");
	n_shstr = add_str(&shstr, ".shstrtab");
	shstr_off = off;
	memcpy(at(&b, shstr_off, shstr.b.len), shstr.b.data, shstr.b.len);
	off = shstr_off + shstr.b.len;

	sh_off = pm_align8(off);
	at(&b, sh_off, (size_t)shnum * 64);		/* the null section */
	sec = 1;
	shdr(&b, sh_off + 64 * sec++, n_text, 1 /* PROGBITS */,
	     0x6 /* ALLOC|EXECINSTR */, e->text_addr, text_off, e->text_size,
	     0, 0, 16, 0);
	if (note)
		shdr(&b, sh_off + 64 * sec++, n_note, 7 /* NOTE */, 0x2, 0,
		     note_off, note_size, 0, 0, 4, 0);
	shdr(&b, sh_off + 64 * sec, n_sym, 2 /* SYMTAB */, 0, 0, sym_off,
	     str_off - sym_off, sec + 1, nlocal + 1, 8, 24);
	sec++;
	shdr(&b, sh_off + 64 * sec++, n_str, 3 /* STRTAB */, 0, 0, str_off,
	     strtab.b.len, 0, 0, 1, 0);
	shdr(&b, sh_off + 64 * sec++, n_shstr, 3, 0, 0, shstr_off, shstr.b.len,
	     0, 0, 1, 0);

	/* The ELF header proper. */
	put16(&b, 16, e->type ? e->type : 2);
	put16(&b, 18, e->machine);
	put32(&b, 20, 1);
	put64(&b, 24, e->text_addr);
	put64(&b, 32, 64);				/* e_phoff */
	put64(&b, 40, sh_off);
	put32(&b, 48, 0);
	put16(&b, 52, 64);
	put16(&b, 54, 56);
	put16(&b, 56, phnum);
	put16(&b, 58, 64);
	put16(&b, 60, shnum);
	put16(&b, 62, shnum - 1);			/* .shstrtab */
	phdr(&b, 64, 1 /* PT_LOAD */, 5 /* R|X */, text_off, e->text_addr,
	     e->text_size, PAGE);
	if (note)
		phdr(&b, 64 + 56, 4 /* PT_NOTE */, 4, note_off, 0, note_size, 4);

	pm_bytebuf__release(&strtab.b);
	pm_bytebuf__release(&shstr.b);
	*len = b.b.len;
	return b.b.data;
}

int pm_elf__write(int fd, const char *name, const struct pm_elf_image *e,
		  struct pm_error *err)
{
	size_t len;
	void *buf = pm_elf__image(e, &len);
	int ret = pm_write_all(fd, buf, len, name, err);

	free(buf);
	return ret;
}
