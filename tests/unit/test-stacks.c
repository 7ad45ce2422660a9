// SPDX-License-Identifier: GPL-2.0
/*
 * The stack formats' accumulators (stacks.h, profile.h) keep what they
 * made of a raw call chain for the next sample with the same chain
 * (lib/analysis/chain-memo.c). Here the same raw chain comes back meaning
 * something else each time, and every sample must still be resolved as
 * if seen first: names and ids below are worked out by hand from the
 * files' symbols and the order of the records.
 *
 *   progA: main 0x1000-0x1100, work 0x1100-0x1300, leaf 0x1300-0x1400
 *   progB: alpha, beta, gamma at the same offsets; 0x1400 on: no symbol
 *   both mapped at BASE + 0x1000 (file offset 0x1000), 0x1000 long
 *   kallsyms: do_work at KTEXT + 0x100, other_work at KTEXT + 0x200
 *
 *   t  record                                       stack (outermost first)
 *   10 pid 100 (progA) chain C                      main;work;leaf
 *   11 pid 100 chain C                              main;work;leaf
 *   12 pid 300 (progB) chain C: another process     alpha;beta;gamma
 *   13 pid 100 maps progB over progA
 *   14 pid 100 chain C: its maps changed            alpha;beta;gamma
 *   15 pid 100 chain C                              alpha;beta;gamma
 *   16 pid 100 kernel chain K, no kernel map yet    two bare addresses
 *   17 the kernel map
 *   18 pid 100 kernel chain K: the kernel's changed other_work;do_work
 *   19 pid 300 ip X, chain {X, main's}: X has no symbol, so the leaf is
 *      named by its file offset                     alpha;0x...1500
 *   20 pid 300 chain {X, main's} again, another ip: the leaf is named by
 *      its address (as the report's self rows)      alpha;0x...555555555500
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fixture/kit.h"
#include "pmprof/analysis.h"
#include "pmprof/hotspot.h"
#include "pmprof/report.h"
#include "pmprof/session.h"
#include "pmprof/table.h"

#define BASE	0x555555554000ULL
#define TEXT	(BASE + 0x1000)	/* where both files' text is mapped */
#define KTEXT	0xffffffff81000000ULL

static char dir[64], prog_a[128], prog_b[128], ksyms[128];

static int setup(void **state)
{
	static const struct pm_elf_sym a_syms[] = {
		{ "main", 0x1000, 0x100 },
		{ "work", 0x1100, 0x200 },
		{ "leaf", 0x1300, 0x100 },
	};
	static const struct pm_elf_sym b_syms[] = {
		{ "alpha", 0x1000, 0x100 },
		{ "beta", 0x1100, 0x200 },
		{ "gamma", 0x1300, 0x100 },
	};
	struct pm_elf_image e = { .machine = PM_KIT_EM_X86_64, .type = 3,
				.text_addr = 0x1000, .text_size = 0x1000,
				.syms = a_syms, .nr_syms = 3 };
	FILE *f;

	(void)state;
	strcpy(dir, "/tmp/pmprof-stacks.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(prog_a, sizeof(prog_a), "%s/progA", dir);
	snprintf(prog_b, sizeof(prog_b), "%s/progB", dir);
	snprintf(ksyms, sizeof(ksyms), "%s/kallsyms", dir);
	assert_int_equal(pm_kit__write_elf(prog_a, &e), 0);
	e.syms = b_syms;
	assert_int_equal(pm_kit__write_elf(prog_b, &e), 0);
	f = fopen(ksyms, "w");
	assert_non_null(f);
	fputs("ffffffff81000000 T _text\n"
	      "ffffffff81000100 T do_work\n"
	      "ffffffff81000200 T other_work\n"
	      "ffffffff81100000 T _etext\n", f);
	fclose(f);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(prog_a);
	unlink(prog_b);
	unlink(ksyms);
	return rmdir(dir);
}

static void sample(struct pm_kit *k, int ev, uint32_t pid, uint16_t misc,
		   uint64_t ip, uint64_t t, const uint64_t *cc, uint64_t nr)
{
	struct pm_sample s = { 0 };

	s.misc = misc;
	s.ip = ip;
	s.pid = s.tid = pid;
	s.time = t;
	s.period = 1000;
	s.id = pm_kit__id(k, ev);
	s.callchain = cc;
	s.callchain_nr = nr;
	pm_kit__sample_full(k, ev, &s);
}

/* The recording of the file comment; its bytes (free them). */
static void *recording(size_t *len)
{
	const uint64_t c[] = { BASE + 0x1310, BASE + 0x1120, BASE + 0x1010 };
	const uint64_t kc[] = { PM_CONTEXT_KERNEL, KTEXT + 0x110, KTEXT + 0x250 };
	const uint64_t xc[] = { BASE + 0x1500, BASE + 0x1010 };
	struct pm_kit *k = pm_kit__new("x86_64", false);
	int ev = pm_kit__event(k, "cpu-clock", 1, 0,
			       PM_KIT_SAMPLE_DEFAULT | PM_SAMPLE_CALLCHAIN, 1000);

	pm_kit__comm(k, 100, 100, "a");
	pm_kit__comm(k, 300, 300, "b");
	pm_kit__mmap_at(k, PM_MISC_USER, 100, TEXT, 0x1000, 0x1000, prog_a, 1);
	pm_kit__mmap_at(k, PM_MISC_USER, 300, TEXT, 0x1000, 0x1000, prog_b, 1);
	sample(k, ev, 100, PM_MISC_USER, c[0], 10, c, 3);
	sample(k, ev, 100, PM_MISC_USER, c[0], 11, c, 3);
	sample(k, ev, 300, PM_MISC_USER, c[0], 12, c, 3);
	pm_kit__mmap_at(k, PM_MISC_USER, 100, TEXT, 0x1000, 0x1000, prog_b, 13);
	sample(k, ev, 100, PM_MISC_USER, c[0], 14, c, 3);
	sample(k, ev, 100, PM_MISC_USER, c[0], 15, c, 3);
	sample(k, ev, 100, PM_MISC_KERNEL, KTEXT + 0x110, 16, kc, 3);
	pm_kit__mmap_at(k, PM_MISC_KERNEL, (uint32_t)-1, KTEXT, 0x100000, KTEXT,
		"[kernel.kallsyms]_text", 17);
	sample(k, ev, 100, PM_MISC_KERNEL, KTEXT + 0x110, 18, kc, 3);
	sample(k, ev, 300, PM_MISC_USER, xc[0], 19, xc, 2);
	sample(k, ev, 300, PM_MISC_USER, xc[0] + 4, 20, xc, 2);
	return pm_kit__finish(k, len);
}

static struct pm_report *report(const struct pm_hotspot_opts *o)
{
	struct pm_session_opts so = { .sz = sizeof(so), .host = PM_HOST_NO,
				      .kallsyms = ksyms, .tmp_dir = dir,
				      .no_buildid_cache = true };
	size_t len;
	void *buf = recording(&len);
	struct pm_report *rep = pm_kit__hotspot(buf, len, &so, o);

	free(buf);
	return rep;
}

static uint64_t u64(const struct pm_table *t, size_t row, const char *name)
{
	return pm_table__get_u64(t, row, pm_kit__column(t, name));
}

/* The stacks, each resolved in its own sample's maps. */
static void test_stacks(void **state)
{
	struct pm_hotspot_opts o = { .sz = sizeof(o), .stacks = true };
	struct pm_report *rep = report(&o);
	const struct pm_table *t = pm_report__find_table(rep, "stacks");
	struct pm_render_opts ro = { .sz = sizeof(ro) };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	(void)state;
	assert_non_null(t);
	assert_int_equal(pm_report__render(rep, out, pm_renderer__find("folded"),
					   &ro), 0);
	fclose(out);
	assert_string_equal(text,
			    "0xffffffff81000250;0xffffffff81000110 1\n"
			    "alpha;0x0000000000001500 1\n"
			    "alpha;0x0000555555555500 1\n"
			    "alpha;beta;gamma 3\n"
			    "main;work;leaf 2\n"
			    "other_work;do_work 1\n");
	free(text);
	pm_report__delete(rep);
}

/*
 * The profile: a location is a map's address, so the chain's three
 * addresses are three locations in each of the three maps they were
 * seen in (progA in 100, progB in 300, progB in 100: ids 1-3, 4-6, 7-9,
 * leaf first), then the kernel's addresses without a map (10, 11) and
 * in the kernel map (12, 13), then X in 300's map (14) under main's
 * address there (5). Functions by first sight: leaf 1, work 2, main 3,
 * gamma 4, beta 5, alpha 6, do_work 7, other_work 8.
 */
static void test_profile(void **state)
{
	static const struct {
		const char *locs;
		uint64_t pid, samples;
	} want[] = {
		{ "1;2;3", 100, 2 },
		{ "4;5;6", 300, 1 },
		{ "7;8;9", 100, 2 },
		{ "10;11", 100, 1 },
		{ "12;13", 100, 1 },
		{ "14;6", 300, 2 },	/* X's location is its address */
	};
	static const uint64_t loc_func[] = { 1, 2, 3, 4, 5, 6, 4, 5, 6, 0, 0, 7, 8, 0 };
	static const char *const func_name[] = {
		"leaf", "work", "main", "gamma", "beta", "alpha", "do_work", "other_work",
	};
	struct pm_hotspot_opts o = { .sz = sizeof(o), .profile = true };
	struct pm_report *rep = report(&o);
	const struct pm_table *s = pm_report__find_table(rep, "profile_samples");
	const struct pm_table *l = pm_report__find_table(rep, "profile_locations");
	const struct pm_table *f = pm_report__find_table(rep, "profile_functions");

	(void)state;
	assert_non_null(s);
	assert_non_null(l);
	assert_non_null(f);
	assert_int_equal(pm_table__nr_rows(s), 6);
	for (size_t i = 0; i < 6; i++) {
		assert_string_equal(pm_table__get_str(s, i, pm_kit__column(s, "locations")),
				    want[i].locs);
		assert_int_equal(u64(s, i, "pid"), want[i].pid);
		assert_int_equal(u64(s, i, "samples"), want[i].samples);
	}
	assert_int_equal(pm_table__nr_rows(l), 14);
	for (size_t i = 0; i < 14; i++) {
		assert_int_equal(u64(l, i, "id"), i + 1);
		assert_int_equal(u64(l, i, "function"), loc_func[i]);
	}
	assert_int_equal(u64(l, 9, "address"), KTEXT + 0x110);
	assert_int_equal(u64(l, 9, "mapping"), 0);
	assert_int_equal(u64(l, 13, "address"), BASE + 0x1500);
	assert_int_equal(pm_table__nr_rows(f), 8);
	for (size_t i = 0; i < 8; i++)
		assert_string_equal(pm_table__get_str(f, i, pm_kit__column(f, "name")),
				    func_name[i]);
	pm_report__delete(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stacks),
		cmocka_unit_test(test_profile),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
