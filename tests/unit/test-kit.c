// SPDX-License-Identifier: GPL-2.0
/*
 * The fixture kit itself: its ELF files as binutils' readelf sees them,
 * the Alpha cross compiler's output as nm sees it, and its recordings as
 * the reader sees them.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixture/kit.h"
#include "pmprof/perfdata.h"

static char *run(const char *fmt, const char *arg)
{
	char cmd[1024], *out = calloc(1, 65536);
	size_t n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), fmt, arg);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, 65535, p);
	out[n] = 0;
	pclose(p);
	return out;
}

static void check_elf(uint16_t machine, bool big, const char *machine_name)
{
	static const uint8_t bid[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3 };
	const struct pm_elf_sym syms[] = {
		{ "alpha_fn", 0x120001000, 0x40 },
		{ "beta_fn", 0x120001040, 0x80 },
		{ "local_fn", 0x1200010c0, 0x10, .local = true },
		{ "a_table", 0x120001100, 0x20, .object = true },
	};
	struct pm_elf_image e = {
		.machine = machine, .big_endian = big, .text_addr = 0x120001000,
		.text_size = 0x200, .syms = syms, .nr_syms = 4,
		.build_id = bid, .build_id_size = 20,
	};
	char path[] = "/tmp/pmprof-kit-elf-XXXXXX";
	char *out;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(pm_kit__write_elf(path, &e), 0);
	out = run("readelf -W -h -s -n -l '%s' 2>&1", path);
	if (!strstr(out, machine_name) ||
	    !strstr(out, big ? "big endian" : "little endian") ||
	    !strstr(out, "0000000120001000    64 FUNC    GLOBAL DEFAULT    1 alpha_fn") ||
	    !strstr(out, "0000000120001040   128 FUNC    GLOBAL DEFAULT    1 beta_fn") ||
	    !strstr(out, "00000001200010c0    16 FUNC    LOCAL  DEFAULT    1 local_fn") ||
	    !strstr(out, "0000000120001100    32 OBJECT  GLOBAL DEFAULT    1 a_table") ||
	    !strstr(out, "deadbeef01020300") ||
	    !strstr(out, "LOAD           0x001000 0x0000000120001000") ||
	    strstr(out, "Warning") || strstr(out, "Error"))
		fail_msg("readelf sees:\n%s", out);
	free(out);
	unlink(path);
}

static void test_elf_writer(void **state)
{
	(void)state;
	check_elf(PM_KIT_EM_X86_64, false, "Advanced Micro Devices X86-64");
	check_elf(PM_KIT_EM_ALPHA, false, "Alpha");
	check_elf(PM_KIT_EM_S390, true, "IBM S/390");
	check_elf(PM_KIT_EM_PPC64, true, "PowerPC64");
}

/* A freestanding Alpha program, as the ProfileMe fixtures build them. */
static void test_alpha_build(void **state)
{
	static const char src[] =
		"long counter;\n"
		"__attribute__((noinline)) long work(long n)\n"
		"{ long s = 0; while (n--) s += n * counter; return s; }\n"
		"void _start(void) { counter = work(1000); for (;;) ; }\n";
	char path[] = "/tmp/pmprof-kit-alpha-XXXXXX";
	uint64_t work = 0, start = 0;
	char *out;
	int fd;

	(void)state;
	if (!pm_kit__have_alpha_gcc())
		skip();	/* scripts/deps.sh installs gcc-12-alpha-linux-gnu */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(pm_kit__alpha_build(src, path), 0);
	assert_int_equal(pm_kit__nm(PM_KIT_ALPHA_NM, path, "work", &work), 0);
	assert_int_equal(pm_kit__nm(PM_KIT_ALPHA_NM, path, "_start", &start), 0);
	assert_true(work != 0 && start != 0 && work != start);
	assert_int_equal(pm_kit__nm(PM_KIT_ALPHA_NM, path, "no_such", &work), -1);
	out = run("readelf -h '%s' 2>&1", path);
	assert_non_null(strstr(out, "Alpha"));
	assert_non_null(strstr(out, "little endian"));
	free(out);
	unlink(path);
}

/* A big-endian Alpha-arch recording as the reader sees it. */
static void test_kit_recording(void **state)
{
	struct pm_error err = { 0 };
	struct pm_reader *r;
	struct pm_record rec;
	struct pm_sample s;
	struct pm_kit *k;
	const struct pm_event *e;
	int a, b, n = 0;
	void *buf;
	size_t len;

	(void)state;
	k = pm_kit__new("alpha", true);
	a = pm_kit__event(k, "cycles", PM_TYPE_HARDWARE, 0,
			  PM_KIT_SAMPLE_DEFAULT, 4000);
	b = pm_kit__event(k, "instructions", PM_TYPE_HARDWARE, 1,
			  PM_KIT_SAMPLE_DEFAULT, 4000);
	pm_kit__group(k, a, 2, "{cycles,instructions}");
	pm_kit__comm(k, 7, 7, "prog");
	pm_kit__mmap(k, 7, 0x120000000, 0x2000, 0, "/bin/prog");
	pm_kit__sample(k, a, 7, 0x120000010, 100, 4000);
	pm_kit__sample(k, b, 7, 0x120000020, 200, 4001);
	buf = pm_kit__finish(k, &len);

	assert_int_equal(pm_reader__open_mem(&r, buf, len, "kit", &err), 0);
	assert_true(pm_reader__big_endian(r));
	assert_string_equal(pm_reader__features(r)->arch, "alpha");
	assert_int_equal(pm_reader__nr_events(r), 2);
	e = pm_reader__event(r, 1);
	assert_string_equal(e->name, "instructions");
	assert_int_equal(e->leader_idx, 0);
	assert_int_equal(e->nr_members, 2);
	assert_int_equal(e->ids[0], 1010);
	while (pm_reader__next(r, &rec, &err) > 0) {
		if (rec.type != PM_RECORD_SAMPLE)
			continue;
		assert_int_equal(pm_reader__parse_sample(r, &rec, &s, &err), 0);
		assert_int_equal(s.event->idx, n);
		assert_int_equal(s.ip, n ? 0x120000020 : 0x120000010);
		assert_int_equal(s.period, 4000 + n);
		assert_int_equal(s.pid, 7);
		n++;
	}
	assert_int_equal(n, 2);
	pm_reader__delete(r);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elf_writer),
		cmocka_unit_test(test_alpha_build),
		cmocka_unit_test(test_kit_recording),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
