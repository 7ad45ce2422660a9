// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-architecture symbols: an Alpha program built with the cross
 * compiler, an Alpha recording written with the fixture kit, and
 * `--symfs`. pmprof's session must resolve every sample to the symbol and
 * offset that `nm` implies and that `perf script --symfs` (perf 6.1 reads
 * Alpha recordings) prints for the same file.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fixture/kit.h"
#include "pmprof/error.h"
#include "pmprof/session.h"

static const char src[] =
	"long counter;\n"
	"__attribute__((noinline)) long helper(long n)\n"
	"{ long s = 0; while (n--) s += n ^ counter; return s; }\n"
	"__attribute__((noinline)) long work(long n)\n"
	"{ long s = 0; while (n--) s += helper(n) * counter; return s; }\n"
	"void _start(void) { counter = work(1000); for (;;) ; }\n";

/* The first PT_LOAD's offset and address, as readelf reports them. */
static int first_load(const char *path, uint64_t *off, uint64_t *vaddr,
		      uint64_t *size)
{
	char cmd[512], line[512];
	FILE *p;
	int found = -1;

	snprintf(cmd, sizeof(cmd), "readelf -lW '%s'", path);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		if (found && sscanf(line, " LOAD 0x%" SCNx64 " 0x%" SCNx64
				    " 0x%*x 0x%*x 0x%" SCNx64, off, vaddr, size) == 3)
			found = 0;
	pclose(p);
	return found;
}

struct expect {
	uint64_t ip;
	const char *sym;	/* NULL: no symbol */
	uint64_t off;
};

static void test_alpha_symfs(void **state)
{
	char dir[] = "/tmp/pmprof-alpha-XXXXXX";
	char symfs[64], bin[96], data[96], cmd[512], line[512];
	uint64_t work, helper, start, off, vaddr, size;
	struct pm_session_opts o = { .sz = sizeof(o), .host = PM_HOST_NO,
				     .no_buildid_cache = true };
	struct pm_error err = { 0 };
	struct expect ex[4];
	struct pm_session *s;
	struct pm_record rec;
	struct pm_kit *k;
	FILE *p;
	int ev, n = 0, ret;

	(void)state;
	if (!pm_kit__have_alpha_gcc())
		skip();	/* scripts/deps.sh installs gcc-12-alpha-linux-gnu */
	assert_non_null(mkdtemp(dir));
	snprintf(symfs, sizeof(symfs), "%s/root", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/bin'", symfs);
	assert_int_equal(system(cmd), 0);
	snprintf(bin, sizeof(bin), "%s/bin/prog", symfs);
	snprintf(data, sizeof(data), "%s/alpha.data", dir);
	assert_int_equal(pm_kit__alpha_build(src, bin), 0);
	assert_int_equal(pm_kit__nm(PM_KIT_ALPHA_NM, bin, "work", &work), 0);
	assert_int_equal(pm_kit__nm(PM_KIT_ALPHA_NM, bin, "helper", &helper), 0);
	assert_int_equal(pm_kit__nm(PM_KIT_ALPHA_NM, bin, "_start", &start), 0);
	assert_int_equal(first_load(bin, &off, &vaddr, &size), 0);

	ex[0] = (struct expect){ work + 4, "work", 4 };
	ex[1] = (struct expect){ helper + 8, "helper", 8 };
	ex[2] = (struct expect){ start, "_start", 0 };
	ex[3] = (struct expect){ work + 12, "work", 12 };

	k = pm_kit__new("alpha", false);
	ev = pm_kit__event(k, "cpu-clock", 1 /* software */, 0,
			   PM_KIT_SAMPLE_DEFAULT, 4000);
	pm_kit__comm(k, 7, 7, "prog");
	/* the file's first segment where the program header puts it */
	pm_kit__mmap(k, 7, vaddr & ~0xfffULL, size + (vaddr & 0xfff),
		     off & ~0xfffULL, "/bin/prog");
	for (int i = 0; i < 4; i++)
		pm_kit__sample(k, ev, 7, ex[i].ip, 100 + (uint64_t)i, 4000);
	pm_kit__save(k, data);

	/* pmprof */
	o.symfs = symfs;
	assert_int_equal(pm_session__open(&s, data, &o, &err), 0);
	while ((ret = pm_reader__next(pm_session__reader(s), &rec, &err)) > 0) {
		const struct pm_sample_ctx *c;

		ret = pm_session__process(s, &rec, &err);
		assert_true(ret >= 0);
		if (ret != 1)
			continue;
		c = pm_session__sample(s);
		assert_true(n < 4);
		assert_int_equal(c->ip.ip, ex[n].ip);
		assert_non_null(c->ip.sym);
		assert_string_equal(c->ip.sym->name, ex[n].sym);
		assert_int_equal(c->ip.sym_off, ex[n].off);
		assert_string_equal(pm_addr_loc__dso_name(&c->ip), "prog");
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, 4);
	pm_session__delete(s);

	/* perf script on the same file and symfs */
	snprintf(cmd, sizeof(cmd),
		 "perf script -i '%s' --symfs '%s' -F ip,sym,symoff,dso 2>/dev/null",
		 data, symfs);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = 0;
	while (fgets(line, sizeof(line), p)) {
		char want[256];

		if (n >= 4)
			break;
		snprintf(want, sizeof(want), "%" PRIx64 " %s+0x%" PRIx64 " (/bin/prog)",
			 ex[n].ip, ex[n].sym, ex[n].off);
		line[strcspn(line, "\n")] = '\0';
		if (!strstr(line, want))
			fail_msg("perf script: '%s', expected '%s'", line, want);
		n++;
	}
	ret = pclose(p);
	if (n == 0 && ret != 0)
		skip();		/* no perf here */
	assert_int_equal(n, 4);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alpha_symfs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
