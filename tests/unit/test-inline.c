// SPDX-License-Identifier: GPL-2.0
/*
 * Inlined functions as frames (pm_dso__inline_frames) on a program built
 * here with two levels of always-inline functions: at every address of
 * the function they are inlined into, the frames must be the functions
 * `addr2line -f -i` (binutils, what perf --inline reads) lists there,
 * innermost first. The containing function is the symbol itself, the
 * inlined ones are symbols of their own, one per name, marked inlined;
 * without DWARF there are none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "pmprof/dso.h"
#include "unit/symtest.h"

static const char src[] =
	"volatile int sink;\n"
	"static inline __attribute__((always_inline)) int sq(int x)\n"
	"{\n"
	"	return x * x + sink;\n"
	"}\n"
	"static inline __attribute__((always_inline)) int twice(int x)\n"
	"{\n"
	"	return sq(x) + sq(x + sink);\n"
	"}\n"
	"__attribute__((noinline)) int outer(int n)\n"
	"{\n"
	"	int s = 0;\n"
	"	for (int i = 0; i < n; i++)\n"
	"		s += twice(i) * sink;\n"
	"	return s;\n"
	"}\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	(void)argv;\n"
	"	return outer(argc);\n"
	"}\n";

static char *dir;
static char prog[256], stripped[256];
static uint64_t outer_start, outer_size;

static int setup(void **state)
{
	struct st_sym *syms = NULL;
	size_t n;
	char *r, path[300];

	(void)state;
	dir = st_mkdtemp();
	snprintf(path, sizeof(path), "%s/inl.c", dir);
	st_write(path, src);
	snprintf(prog, sizeof(prog), "%s/inl", dir);
	snprintf(stripped, sizeof(stripped), "%s/inl.stripped", dir);
	r = st_run("gcc -O2 -g -o '%s' '%s' && strip -g -o '%s' '%s' && echo ok",
		   prog, path, stripped, prog);
	if (!r)
		return -1;
	free(r);
	n = st_readelf_syms("readelf", prog, ".symtab", &syms);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(syms[i].name, "outer")) {
			outer_start = syms[i].value;
			outer_size = syms[i].size;
		}
	free(syms);
	return outer_size ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	st_rmdir(dir);
	return 0;
}

/* addr2line's function names for each address: one line per address,
 * the names separated by spaces, innermost first. */
static char **addr2line(uint64_t start, size_t n)
{
	struct pm_strbuf cmd = PM_STRBUF_INIT;
	char **out = calloc(n, sizeof(*out)), *txt, *line, *save = NULL;
	size_t i = (size_t)-1;

	/* a sentinel after each address marks where its records end */
	pm_strbuf__addf(&cmd, "addr2line -f -i -e '%s'", prog);
	for (size_t k = 0; k < n; k++)
		pm_strbuf__addf(&cmd, " %#" PRIx64 " 0", start + k);
	txt = st_run("%s", cmd.buf);
	assert_non_null(txt);
	for (line = strtok_r(txt, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *file = strtok_r(NULL, "\n", &save);

		assert_non_null(file);
		if (!strcmp(line, "??") && !strcmp(file, "??:0")) {
			i++;		/* the sentinel: the next address follows */
			continue;
		}
		if (i == (size_t)-1)
			i = 0;
		if (i >= n)
			break;
		if (out[i]) {
			char *j = malloc(strlen(out[i]) + strlen(line) + 2);

			sprintf(j, "%s %s", out[i], line);
			free(out[i]);
			out[i] = j;
		} else {
			out[i] = strdup(line);
		}
	}
	free(txt);
	pm_strbuf__release(&cmd);
	return out;
}

static void test_against_addr2line(void **state)
{
	struct pm_symconf conf = { .sz = sizeof(conf), .no_buildid_cache = true };
	struct pm_dsos *dsos = pm_dsos__new(&conf);
	struct pm_dso *dso = pm_dsos__findnew(dsos, prog);
	char **want = addr2line(outer_start, (size_t)outer_size);
	const struct pm_symbol *sq = NULL;
	size_t deepest = 0, compared = 0;

	(void)state;
	for (uint64_t a = outer_start; a < outer_start + outer_size; a++) {
		const struct pm_symbol *base = pm_dso__find_symbol(dso, a);
		const struct pm_symbol *const *f;
		size_t n = pm_dso__inline_frames(dso, a, base, &f);
		struct pm_strbuf got = PM_STRBUF_INIT;
		const char *w = want[a - outer_start];

		assert_non_null(base);
		assert_string_equal(base->name, "outer");
		if (!w || !strncmp(w, "??", 2))
			continue;	/* no line information here */
		for (size_t k = 0; k < n; k++) {
			pm_strbuf__addf(&got, "%s%s", k ? " " : "", f[k]->name);
			/* the containing function is the symbol itself */
			assert_int_equal(f[k] == base, !f[k]->inlined);
			assert_int_equal(f[k]->inlined, strcmp(f[k]->name, "outer") != 0);
			if (f[k]->inlined) {
				assert_int_equal(f[k]->start, base->start);
				assert_int_equal(f[k]->end, base->end);
			}
			if (!strcmp(f[k]->name, "sq")) {
				/* one symbol per (function, name) */
				if (sq)
					assert_ptr_equal(f[k], sq);
				sq = f[k];
			}
		}
		if (strcmp(got.len ? got.buf : "", w))
			fail_msg("%#" PRIx64 ": pmprof \"%s\", addr2line \"%s\"",
				 a, got.len ? got.buf : "", w);
		if (n > deepest)
			deepest = n;
		compared++;
		pm_strbuf__release(&got);
	}
	if (getenv("PMPROF_TEST_VERBOSE"))
		fprintf(stderr, "%zu of %" PRIu64 " addresses, %zu frames deep\n",
			compared, outer_size, deepest);
	/* sq in twice in outer: both levels were seen, at many addresses */
	assert_int_equal(deepest, 3);
	assert_true(compared > outer_size / 2);
	for (size_t k = 0; k < outer_size; k++)
		free(want[k]);
	free(want);
	pm_dso__put(dso);
	pm_dsos__delete(dsos);
}

static void test_no_dwarf(void **state)
{
	struct pm_symconf conf = { .sz = sizeof(conf), .no_buildid_cache = true,
				   .no_debuginfo = true };
	struct pm_dsos *dsos = pm_dsos__new(&conf);
	struct pm_dso *dso = pm_dsos__findnew(dsos, stripped);
	const struct pm_symbol *base = pm_dso__find_symbol(dso, outer_start + 8);
	const struct pm_symbol *const *f;

	(void)state;
	assert_non_null(base);
	assert_int_equal(pm_dso__inline_frames(dso, outer_start + 8, base, &f), 0);
	assert_int_equal(pm_dso__inline_frames(dso, outer_start + 8, NULL, &f), 0);
	pm_dso__put(dso);
	pm_dsos__delete(dsos);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_against_addr2line),
		cmocka_unit_test(test_no_dwarf),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
