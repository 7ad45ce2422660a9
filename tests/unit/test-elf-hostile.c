// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile ELF files cost work bounded by their size (issue 13, item 19).
 * The inputs are regression files (tests/data/hostile/, written by
 * tests/tools/make-hostile-elf.py): 20,000 SYMTAB section headers over one
 * set of four symbols with a SYMTAB_SHNDX for the first, and 20,000 NOTE
 * sections over the same 64 KiB of notes that hold no build id.
 *
 * The work is counted, not timed: this program defines gelf_getshdr and
 * gelf_getnote itself, so the library's calls land here (the executable's
 * definition wins over libelf's) and are counted before going on to
 * libelf's own through dlsym(RTLD_NEXT).
 */
#include <dlfcn.h>
#include <gelf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmprof/error.h"
#include "pmprof/symbols.h"
#include "pmprof/util.h"
#include "symbols/internal.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

static unsigned long nr_getshdr, nr_getnote;

GElf_Shdr *gelf_getshdr(Elf_Scn *scn, GElf_Shdr *dst)
{
	static GElf_Shdr *(*real)(Elf_Scn *, GElf_Shdr *);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "gelf_getshdr");
	nr_getshdr++;
	return real(scn, dst);
}

size_t gelf_getnote(Elf_Data *data, size_t offset, GElf_Nhdr *result,
		    size_t *name_offset, size_t *desc_offset)
{
	static size_t (*real)(Elf_Data *, size_t, GElf_Nhdr *, size_t *,
			      size_t *);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "gelf_getnote");
	nr_getnote++;
	return real(data, offset, result, name_offset, desc_offset);
}

/*
 * Counting needs libelf's own functions behind these, which only a
 * shared libelf has: where it is linked in statically (the cross builds
 * of scripts/lab/cross-build.sh: Debian ships libelf.a, and the linker
 * takes no gelf_getshdr.o from it beside this file's), there is nothing
 * to go on to and the tests skip, saying so.
 */
static int libelf_interposable(void)
{
	if (dlsym(RTLD_NEXT, "gelf_getshdr") && dlsym(RTLD_NEXT, "gelf_getnote"))
		return 1;
	print_message("libelf is linked in statically: its calls cannot be counted here\n");
	return 0;
}

/* A gzip'ed regression file, inflated into memory by gzip(1). */
static uint8_t *load_gz(const char *name, size_t *len)
{
	char cmd[600];
	uint8_t *buf = NULL;
	size_t alloc = 0, n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "gzip -dc '%s/tests/data/hostile/%s'",
		 getenv("TOP") ? getenv("TOP") : TOP_SRCDIR, name);
	p = popen(cmd, "r");
	assert_non_null(p);
	*len = 0;
	do {
		PM_GROW(buf, alloc, *len + 65536);
		n = fread(buf + *len, 1, 65536, p);
		*len += n;
	} while (n > 0);
	assert_int_equal(pclose(p), 0);
	assert_true(*len > 0);
	return buf;
}

/* e_shnum of an ELF64 little-endian image. */
static unsigned int shnum(const uint8_t *elf)
{
	return elf[60] | (unsigned int)elf[61] << 8;
}

static void test_many_symtabs(void **state)
{
	struct pm_symtab *funcs = pm_symtab__new(false);
	struct pm_elf_file f;
	struct pm_error err;
	size_t len, i;
	uint8_t *img = load_gz("elf-20000-symtab.gz", &len);
	unsigned int n = shnum(img);
	static const char *const names[] = { "f0", "f1", "f2", "f3" };

	(void)state;
	if (!libelf_interposable()) {
		free(img);
		pm_symtab__delete(funcs);
		skip();
		return;
	}
	assert_int_equal(n, 20005);
	nr_getshdr = 0;
	assert_int_equal(pm_elf_file__open(&f, "elf-20000-symtab", img, len,
					   funcs, NULL, &err), 0);
	pm_symtab__finish(funcs);
	/* a few passes over the headers, not one per symbol table */
	assert_true(nr_getshdr <= 8ul * n);
	/* the first table's symbols, once each; f3 is in .text only by
	 * the SYMTAB_SHNDX entry of that table */
	assert_int_equal(pm_symtab__nr(funcs), 4);
	for (i = 0; i < 4; i++) {
		const struct pm_symbol *s = pm_symtab__find(funcs, 0x401000 + 0x40 * i + 1);

		assert_non_null(s);
		assert_string_equal(s->name, names[i]);
	}
	pm_elf_file__release(&f);
	pm_symtab__delete(funcs);
	free(img);
}

static void test_many_notes(void **state)
{
	struct pm_symtab *funcs = pm_symtab__new(false);
	struct pm_elf_file f;
	struct pm_error err;
	size_t len;
	uint8_t *img = load_gz("elf-20000-notes.gz", &len);

	(void)state;
	if (!libelf_interposable()) {
		free(img);
		pm_symtab__delete(funcs);
		skip();
		return;
	}
	nr_getnote = 0;
	assert_int_equal(pm_elf_file__open(&f, "elf-20000-notes", img, len,
					   funcs, NULL, &err), 0);
	/* Searching notes for a build id reads at most the file's size in
	 * notes (16 bytes each), not 4,096 notes in each of 20,000 sections. */
	assert_true(nr_getnote <= len / 16 + 20000);
	assert_int_equal(f.build_id_size, 0);
	pm_symtab__finish(funcs);
	assert_int_equal(pm_symtab__nr(funcs), 4);
	pm_elf_file__release(&f);
	pm_symtab__delete(funcs);
	free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_symtabs),
		cmocka_unit_test(test_many_notes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
