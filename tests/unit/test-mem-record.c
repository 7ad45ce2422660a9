// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof mem record on an Alpha with ProfileMe (the fixture sysfs tree),
 * then pmprof mem on a recording the writer makes with exactly the attr
 * mem record configured: the event is cpu/cycles,profileme/ as modern
 * perf encodes it (a hardware event, config = cycles | the profileme
 * bit 32), with what pmprof mem needs (ADDR, DATA_SRC) and perf mem's
 * weight; the DTB hits and misses come out per code symbol, and a data
 * source of N/A is counted apart.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "builtin.h"
#include "fixture/kit.h"
#include "fixture/runcmd.h"
#include "pmprof/attr.h"
#include "pmprof/util.h"

#define ALPHA_SYSFS "tests/data/sysfs-alpha"
#define PID 100

/* perf_mem_data_src by its fields, computed here from the uapi layout:
 * op at bit 0, lvl 5, snoop 19, lock 24, dtlb 26, blk 40. */
#define SRC(op, dtlb) ((uint64_t)(op) | 0x1ULL << 5 | 0x1ULL << 19 | 0x1ULL << 24 | \
		       (uint64_t)(dtlb) << 26 | 0x1ULL << 40)
#define OP_LOAD 0x2
#define OP_STORE 0x4
#define TLB_HIT 0x2
#define TLB_MISS 0x4
#define MEM_NA 0x5080021ULL	/* the kernel's PERF_MEM_NA */


static uint64_t num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (!json_is_integer(v))
		fail_msg("no integer '%s'", k);
	return (uint64_t)json_integer_value(v);
}

static void test_mem_record_alpha(void **state)
{
	const char *rec[] = { "mem", "record", "--sysfs", ALPHA_SYSFS, "--dry-run",
			      "--format", "json", NULL };
	static const struct { int fn; uint64_t src; } smp[] = {
		{ 0, SRC(OP_LOAD, TLB_HIT) }, { 0, SRC(OP_LOAD, TLB_HIT) },
		{ 0, SRC(OP_LOAD, TLB_HIT) }, { 0, SRC(OP_LOAD, TLB_MISS) },
		{ 1, SRC(OP_LOAD, TLB_MISS) }, { 1, SRC(OP_STORE, TLB_HIT) },
		{ 1, MEM_NA },
	};
	char path[] = "/tmp/pmprof-memrec-data-XXXXXX";
	struct pm_kit_opts ko = { .arch = "alpha" };
	struct pm_kit *k;
	struct pm_attr *a;
	json_t *doc, *ev, *rows;
	size_t i;
	int fd, idx;
	uint64_t load_hit = 0, load_miss = 0, store_hit = 0;

	(void)state;
	doc = pm_test__run_json(cmd_mem, rec, 0);
	assert_int_equal(json_array_size(doc), 1);
	ev = json_array_get(doc, 0);
	assert_string_equal(json_string_value(json_object_get(ev, "name")), "cpu/cycles,profileme/");
	/* a hardware event of the cpu PMU: cycles (0) with the profileme bit */
	assert_int_equal(num(ev, "type"), 0);
	assert_int_equal(num(ev, "config"), 1ULL << 32);
	/* -W -d: IP TID TIME ADDR PERIOD DATA_SRC WEIGHT_STRUCT */
	assert_int_equal(num(ev, "sample_type"), 0x1 | 0x2 | 0x4 | 0x8 | 0x100 | 0x8000 | 0x1000000);
	assert_int_equal(num(ev, "mmap_data"), 1);

	/* the recording an Alpha would make with that attr */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	ko.path = path;
	k = pm_kit__new_opts(&ko);
	idx = pm_kit__event(k, "cpu/cycles,profileme/", (uint32_t)num(ev, "type"), num(ev, "config"),
			    num(ev, "sample_type"), 4000);
	a = pm_kit__attr(k, idx);
	pm_attr__set_flag(a, PM_ATTR_FREQ, num(ev, "freq"));
	pm_attr__set_flag(a, PM_ATTR_MMAP_DATA, true);
	a->sample_period = num(ev, "sample_freq");
	pm_kit__comm(k, PID, PID, "prog");
	pm_kit__mmap(k, PID, 0x120000000ULL, 0x10000, 0, "/bin/prog");
	for (i = 0; i < PM_ARRAY_SIZE(smp); i++) {
		struct pm_sample s = { 0 };

		s.misc = PM_MISC_USER;
		s.ip = 0x120000100ULL + (uint64_t)smp[i].fn * 0x1000;
		s.pid = s.tid = PID;
		s.time = 1000 + i;
		s.period = 4000;
		s.addr = 0x7ff000000000ULL + i * 64;
		s.weight = 10 + i;
		s.data_src = smp[i].src;
		pm_kit__sample_full(k, idx, &s);
	}
	pm_kit__save(k, NULL);
	json_decref(doc);

	{
		const char *mem[] = { "mem", "-i", path, "--format", "json", NULL };

		doc = pm_test__run_json(cmd_mem, mem, 0);
	}
	unlink(path);
	/* 6 with a data source; the N/A one apart; none without */
	assert_int_equal(num(doc, "samples"), 6);
	assert_int_equal(num(doc, "na"), 1);
	assert_int_equal(num(doc, "skipped"), 0);
	rows = json_object_get(doc, "rows");
	for (i = 0; i < json_array_size(rows); i++) {
		json_t *r = json_array_get(rows, i);
		const char *op = json_string_value(json_object_get(r, "op"));
		const char *tlb = json_string_value(json_object_get(r, "tlb"));

		if (!strcmp(op, "load") && !strcmp(tlb, "hit"))
			load_hit += num(r, "samples");
		else if (!strcmp(op, "load") && !strcmp(tlb, "miss"))
			load_miss += num(r, "samples");
		else if (!strcmp(op, "store") && !strcmp(tlb, "hit"))
			store_hit += num(r, "samples");
		else
			fail_msg("unexpected row %s %s", op, tlb);
	}
	assert_int_equal(load_hit, 3);
	assert_int_equal(load_miss, 2);
	assert_int_equal(store_hit, 1);
	json_decref(doc);
}

/* Without a memory-sampling PMU (the hybrid fixture has none) mem record
 * refuses, as perf mem does, rather than record something else. */
static void test_mem_record_none(void **state)
{
	const char *rec[] = { "mem", "record", "--sysfs", "tests/data/sysfs-hybrid", "--dry-run", NULL };

	(void)state;
	assert_int_equal(cmd_mem(5, rec), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mem_record_alpha),
		cmocka_unit_test(test_mem_record_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
