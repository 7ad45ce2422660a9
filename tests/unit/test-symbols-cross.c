// SPDX-License-Identifier: GPL-2.0
/*
 * Symbols of foreign ELF files: Alpha (little-endian, 64-bit, EM_ALPHA)
 * and s390x (big-endian, EM_S390), built here with the Debian cross
 * compilers when they are installed (gcc-12-alpha-linux-gnu,
 * gcc-12-s390x-linux-gnu; skipped otherwise). Expected values come from
 * readelf (which reads every architecture): symbol values and sizes, and
 * section addresses/offsets for the file-offset -> address mapping.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <elf.h>

#include "pmprof/dso.h"
#include "pmprof/error.h"
#include "unit/symtest.h"

static const char src[] =
	"int counter = 5;\n"
	"int data_arr[16] = { 1 };\n"
	"__attribute__((noinline)) int leaf(int x)\n"
	"{\n"
	"	return x * 7 + data_arr[x & 15];\n"
	"}\n"
	"__attribute__((noinline)) static int helper(int x)\n"
	"{\n"
	"	return leaf(x) ^ counter;\n"
	"}\n"
	"__attribute__((noinline)) int middle(int x)\n"
	"{\n"
	"	return helper(x) + leaf(x + 1);\n"
	"}\n"
	"void _start(void)\n"
	"{\n"
	"	volatile int r = middle(3);\n"
	"	(void)r;\n"
	"	for (;;)\n"
	"		;\n"
	"}\n";

struct arch {
	const char *triplet;	/* alpha-linux-gnu */
	uint16_t machine;
	uint8_t data;
};

static const struct arch alpha = { "alpha-linux-gnu", EM_ALPHA, ELFDATA2LSB };
static const struct arch s390x = { "s390x-linux-gnu", EM_S390, ELFDATA2MSB };

struct cross {
	const struct arch *arch;
	char *dir;
	char exe[600], so[600];
};

static int setup(void **state, const struct arch *a)
{
	struct cross *c = pm_zalloc(sizeof(*c));
	char gcc[128], path[700], *r;

	*state = c;
	c->arch = a;
	snprintf(gcc, sizeof(gcc), "%s-gcc-12", a->triplet);
	if (!st_have(gcc))
		return 0;		/* the tests skip */
	c->dir = st_mkdtemp();
	snprintf(path, sizeof(path), "%s/x.c", c->dir);
	st_write(path, src);
	snprintf(c->exe, sizeof(c->exe), "%s/x.elf", c->dir);
	snprintf(c->so, sizeof(c->so), "%s/libx.so", c->dir);
	r = st_run("cd '%s' && %s -O1 -g -nostdlib -static -o x.elf x.c && "
		   "%s -O1 -g -nostdlib -shared -fPIC -o libx.so x.c && echo ok",
		   c->dir, gcc, gcc);
	free(r);
	return r ? 0 : -1;
}

static int setup_alpha(void **state) { return setup(state, &alpha); }
static int setup_s390x(void **state) { return setup(state, &s390x); }

static int teardown(void **state)
{
	struct cross *c = *state;

	if (c->dir)
		st_rmdir(c->dir);
	free(c);
	return 0;
}

/* Every FUNC/OBJECT symbol readelf lists is found, at its address. */
static void check_file(const struct cross *c, const char *file,
		       const char *name, const struct pm_symconf *conf)
{
	struct pm_dsos *dsos = pm_dsos__new(conf);
	struct pm_dso *dso = pm_dsos__findnew(dsos, name);
	struct pm_elf_info info;
	struct st_sym *v = NULL;
	size_t n = st_readelf_syms("readelf", file, ".symtab", &v);
	size_t funcs = 0, objs = 0;
	uint64_t text_addr, text_off;

	assert_int_equal(pm_dso__load(dso, NULL), 0);
	assert_int_equal(pm_dso__elf_info(dso, &info), 0);
	assert_int_equal(info.machine, c->arch->machine);
	assert_int_equal(info.data, c->arch->data);
	assert_int_equal(info.elfclass, ELFCLASS64);
	assert_true(st_section("readelf", file, ".text", &text_addr, &text_off));
	for (size_t i = 0; i < n; i++) {
		const struct st_sym *e = &v[i];
		const struct pm_symbol *s;
		uint64_t off;

		if (!strcmp(e->ndx, "UND") || !strcmp(e->ndx, "ABS") ||
		    e->size == 0)
			continue;
		if (!strcmp(e->type, "FUNC")) {
			s = pm_dso__find_symbol(dso, e->value + e->size - 1);
			assert_non_null(s);
			assert_int_equal(s->start, e->value);
			assert_true(st_alias(v, n, e->value, s->name));
			/* a sample at the file offset readelf's section
			 * table gives, in a mapping of the whole file */
			off = e->value - text_addr + text_off;
			assert_int_equal(pm_dso__map_ip(dso, 0x7f0000000000ULL,
							0, 0x7f0000000000ULL + off),
					 e->value);
			/* and in a mapping of its page only */
			assert_int_equal(pm_dso__map_ip(dso, 0x7f0000010000ULL,
							off & ~0xfffULL,
							0x7f0000010000ULL +
							(off & 0xfff)),
					 e->value);
			funcs++;
		} else if (!strcmp(e->type, "OBJECT")) {
			s = pm_dso__find_data(dso, e->value + e->size - 1);
			assert_non_null(s);
			assert_int_equal(s->start, e->value);
			objs++;
		}
	}
	/* leaf, helper, middle, _start; counter, data_arr */
	assert_true(funcs >= 4);
	assert_true(objs >= 2);
	assert_string_equal(pm_dso__find_symbol(dso,
		pm_symtab__find_name(pm_dso__symtab(dso), "helper")->start)->name,
		"helper");
	free(v);
	pm_dso__put(dso);
	pm_dsos__delete(dsos);
}

static void test_exe(void **state)
{
	struct cross *c = *state;

	if (!c->dir)
		skip();
	check_file(c, c->exe, c->exe, NULL);
}

static void test_shared(void **state)
{
	struct cross *c = *state;

	if (!c->dir)
		skip();
	check_file(c, c->so, c->so, NULL);
}

static void test_symfs(void **state)
{
	struct cross *c = *state;
	struct pm_symconf conf = { .sz = sizeof(conf), .no_buildid_cache = true };
	char symfs[700], *r;

	if (!c->dir)
		skip();
	snprintf(symfs, sizeof(symfs), "%s/root", c->dir);
	r = st_run("mkdir -p '%s/usr/bin' && cp '%s' '%s/usr/bin/xprog' && echo ok",
		   symfs, c->exe, symfs);
	free(r);
	conf.symfs = symfs;
	check_file(c, c->exe, "/usr/bin/xprog", &conf);
}

/*
 * Stripped, no build id, a .gnu_debuglink: its CRC is stored in the
 * target's byte order, so a big-endian file checks our byte swapping.
 */
static void test_debuglink(void **state)
{
	struct cross *c = *state;
	struct pm_dsos *dsos;
	struct pm_dso *dso;
	char gcc[128], bin[700], dbg[700], *r;

	if (!c->dir)
		skip();
	snprintf(gcc, sizeof(gcc), "%s-gcc-12", c->arch->triplet);
	snprintf(bin, sizeof(bin), "%s/nobid", c->dir);
	snprintf(dbg, sizeof(dbg), "%s/nobid.dbg", c->dir);
	r = st_run("cd '%s' && %s -O1 -g -nostdlib -static -Wl,--build-id=none "
		   "-o nobid x.c && %s-objcopy --only-keep-debug nobid nobid.dbg && "
		   "%s-strip --strip-all nobid && "
		   "%s-objcopy --add-gnu-debuglink=nobid.dbg nobid && echo ok",
		   c->dir, gcc, c->arch->triplet, c->arch->triplet,
		   c->arch->triplet);
	if (!r)
		skip();
	free(r);
	dsos = pm_dsos__new(NULL);
	dso = pm_dsos__findnew(dsos, bin);
	assert_int_equal(pm_dso__load(dso, NULL), 0);
	assert_string_equal(pm_dso__symbol_path(dso), dbg);
	assert_non_null(pm_symtab__find_name(pm_dso__symtab(dso), "helper"));
	pm_dso__put(dso);
	pm_dsos__delete(dsos);
	/* check_file compares with readelf on the unstripped debug file */
	check_file(c, dbg, bin, NULL);
}

static void test_srcline(void **state)
{
	struct cross *c = *state;
	struct pm_dsos *dsos;
	struct pm_dso *dso;
	struct pm_srcline sl;
	const struct pm_symbol *s;

	if (!c->dir)
		skip();
	dsos = pm_dsos__new(NULL);
	dso = pm_dsos__findnew(dsos, c->exe);
	s = pm_symtab__find_name(pm_dso__symtab(dso), "middle");
	assert_non_null(s);
	/* the target's addr2line says where "middle" starts and ends */
	for (uint64_t a = s->start; a < s->end; a += 4) {
		char *want = st_run("%s-addr2line -e '%s' %#" PRIx64,
				    c->arch->triplet, c->exe, a), *colon;

		if (!want)
			skip();
		want[strcspn(want, "\n")] = '\0';
		colon = strrchr(want, ':');
		assert_non_null(colon);
		*colon = '\0';
		if (atoi(colon + 1) > 0) {
			assert_int_equal(pm_dso__srcline(dso, a, &sl), 0);
			assert_string_equal(sl.file, want);
			assert_int_equal(sl.line, atoi(colon + 1));
		}
		free(want);
	}
	pm_dso__put(dso);
	pm_dsos__delete(dsos);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exe),
		cmocka_unit_test(test_shared),
		cmocka_unit_test(test_symfs),
		cmocka_unit_test(test_debuglink),
		cmocka_unit_test(test_srcline),
	};
	int r = 0;

	r |= cmocka_run_group_tests_name("alpha", tests, setup_alpha, teardown);
	r |= cmocka_run_group_tests_name("s390x", tests, setup_s390x, teardown);
	return r;
}
