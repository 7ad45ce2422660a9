// SPDX-License-Identifier: GPL-2.0
/*
 * perf_mem_data_src decoding. Each value is added up by hand from the
 * field layout (op 4:0, lvl 18:5, snoop 23:19, lock 25:24, dtlb 32:26,
 * lvl_num 36:33, remote 37, snoopx 39:38, blk 42:40, hops 45:43), and
 * checked a second way against the kernel's own union from the host's
 * <linux/perf_event.h>.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/perf_event.h>

#include "pmprof/json.h"
#include "pmprof/mem.h"
#include "pmprof/strbuf.h"

/* An x86 L1 load hit: op LOAD 0x2, lvl HIT|L1 0xa (<< 5 = 0x140),
 * snoop NONE 0x2 (<< 19 = 0x100000), lock NA 0x1 (<< 24 = 0x1000000),
 * dtlb L1|HIT 0xa (<< 26 = 0x28000000), lvl_num L1 (<< 33 = 0x200000000). */
#define L1_LOAD_HIT	0x229100142ull

/* Alpha: a store that missed the DTB (op 0x4, dtlb MISS 0x4 << 26) and a
 * prefetch that hit it (op 0x8, dtlb HIT 0x2 << 26). */
#define ALPHA_STORE_MISS	0x10000004ull
#define ALPHA_PFETCH_HIT	0x08000008ull

/* Everything at once: LOAD; lvl HIT (0x40); snoop HITM (0x800000); lock
 * LOCKED (0x2000000); dtlb WK|MISS 0x24 (0x90000000); lvl_num RAM 0xd
 * (0x1a00000000); remote (0x2000000000); snoopx FWD (0x4000000000); blk
 * DATA|ADDR 0x6 (0x60000000000); hops 2 (0x100000000000). */
#define REMOTE_ALL	0x167a92800042ull

static void check_str(void (*fn)(const struct pm_mem_src *, struct pm_strbuf *),
		      const struct pm_mem_src *m, const char *want)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;

	fn(m, &sb);
	assert_string_equal(pm_strbuf__str(&sb), want);
	pm_strbuf__release(&sb);
}

static void test_kernel_union_agrees(void **state)
{
	union perf_mem_data_src u;

	(void)state;
	memset(&u, 0, sizeof(u));
	u.mem_op = PERF_MEM_OP_LOAD;
	u.mem_lvl = PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1;
	u.mem_snoop = PERF_MEM_SNOOP_NONE;
	u.mem_lock = PERF_MEM_LOCK_NA;
	u.mem_dtlb = PERF_MEM_TLB_L1 | PERF_MEM_TLB_HIT;
	u.mem_lvl_num = PERF_MEM_LVLNUM_L1;
	assert_true(u.val == L1_LOAD_HIT);

	memset(&u, 0, sizeof(u));
	u.mem_op = PERF_MEM_OP_LOAD;
	u.mem_lvl = PERF_MEM_LVL_HIT;
	u.mem_snoop = PERF_MEM_SNOOP_HITM;
	u.mem_lock = PERF_MEM_LOCK_LOCKED;
	u.mem_dtlb = PERF_MEM_TLB_WK | PERF_MEM_TLB_MISS;
	u.mem_lvl_num = PERF_MEM_LVLNUM_RAM;
	u.mem_remote = 1;
	u.mem_snoopx = PERF_MEM_SNOOPX_FWD;
	u.mem_blk = PERF_MEM_BLK_DATA | PERF_MEM_BLK_ADDR;
	u.mem_hops = PERF_MEM_HOPS_1;
	assert_true(u.val == REMOTE_ALL);
}

static void test_l1_load_hit(void **state)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	struct pm_mem_src m;

	(void)state;
	pm_mem_src__decode(&m, L1_LOAD_HIT);
	assert_int_equal(m.op, 0x2);
	assert_int_equal(m.lvl, 0xa);
	assert_int_equal(m.snoop, 0x2);
	assert_int_equal(m.lock, 0x1);
	assert_int_equal(m.dtlb, 0xa);
	assert_int_equal(m.lvl_num, 1);
	assert_int_equal(m.remote, 0);
	assert_int_equal(m.snoopx, 0);
	assert_int_equal(m.blk, 0);
	assert_int_equal(m.hops, 0);
	assert_true(pm_mem_src__encode(&m) == L1_LOAD_HIT);

	assert_string_equal(pm_mem_src__op(&m), "load");
	assert_string_equal(pm_mem_src__tlb(&m), "hit");
	assert_string_equal(pm_mem_src__lock(&m), "N/A");
	check_str(pm_mem_src__tlb_str, &m, "L1 hit");
	check_str(pm_mem_src__level_str, &m, "L1 hit");
	check_str(pm_mem_src__snoop_str, &m, "None");
	check_str(pm_mem_src__blk_str, &m, "N/A");
	pm_mem_src__format(&m, &sb);
	assert_string_equal(pm_strbuf__str(&sb),
			    "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK N/A|BLK N/A");
	pm_strbuf__release(&sb);
}

static void test_alpha_dtb(void **state)
{
	struct pm_mem_src m;

	(void)state;
	pm_mem_src__decode(&m, ALPHA_STORE_MISS);
	assert_int_equal(m.op, 0x4);
	assert_int_equal(m.dtlb, 0x4);
	assert_string_equal(pm_mem_src__op(&m), "store");
	assert_string_equal(pm_mem_src__tlb(&m), "miss");
	check_str(pm_mem_src__tlb_str, &m, "N/A miss");
	check_str(pm_mem_src__level_str, &m, "N/A");
	check_str(pm_mem_src__snoop_str, &m, "N/A");
	assert_string_equal(pm_mem_src__lock(&m), "No");

	pm_mem_src__decode(&m, ALPHA_PFETCH_HIT);
	assert_string_equal(pm_mem_src__op(&m), "prefetch");
	assert_string_equal(pm_mem_src__tlb(&m), "hit");
	check_str(pm_mem_src__tlb_str, &m, "N/A hit");

	/* A load with a DTB hit in the first-level TLB:
	 * op 0x2, dtlb L1|HIT 0xa << 26 = 0x28000000. */
	pm_mem_src__decode(&m, 0x28000002ull);
	assert_string_equal(pm_mem_src__op(&m), "load");
	check_str(pm_mem_src__tlb_str, &m, "L1 hit");
}

static void test_remote_all_fields(void **state)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	struct pm_mem_src m;
	struct pm_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	pm_mem_src__decode(&m, REMOTE_ALL);
	assert_int_equal(m.op, 0x2);
	assert_int_equal(m.lvl, 0x2);
	assert_int_equal(m.snoop, 0x10);
	assert_int_equal(m.lock, 0x2);
	assert_int_equal(m.dtlb, 0x24);
	assert_int_equal(m.lvl_num, 0xd);
	assert_int_equal(m.remote, 1);
	assert_int_equal(m.snoopx, 1);
	assert_int_equal(m.blk, 6);
	assert_int_equal(m.hops, 2);
	assert_true(pm_mem_src__encode(&m) == REMOTE_ALL);

	check_str(pm_mem_src__level_str, &m, "Remote node, same socket RAM hit");
	check_str(pm_mem_src__snoop_str, &m, "HitM or Fwd");
	check_str(pm_mem_src__tlb_str, &m, "Walker miss");
	check_str(pm_mem_src__blk_str, &m, "Data Addr");
	assert_string_equal(pm_mem_src__lock(&m), "Yes");
	assert_string_equal(pm_mem_src__tlb(&m), "miss");
	pm_mem_src__format(&m, &sb);
	assert_string_equal(pm_strbuf__str(&sb),
			    "|OP LOAD|LVL Remote node, same socket RAM hit"
			    "|SNP HitM or Fwd|TLB Walker miss|LCK Yes|BLK Data Addr");
	pm_strbuf__release(&sb);

	out = open_memstream(&buf, &len);
	pm_json__init(&j, out);
	pm_json__begin_object(&j);
	pm_mem_src__json_fields(&m, &j);
	pm_json__end_object(&j);
	fclose(out);
	assert_string_equal(buf,
		"{\"op\":\"load\",\"tlb\":\"miss\",\"dtlb\":\"Walker miss\","
		"\"level\":\"Remote node, same socket RAM hit\",\"lvl_num\":\"RAM\","
		"\"snoop\":\"HitM or Fwd\",\"lock\":\"Yes\",\"blk\":\"Data Addr\","
		"\"hops\":\"node, same socket\",\"remote\":true}");
	free(buf);
}

static void test_old_levels(void **state)
{
	struct pm_mem_src m;

	(void)state;
	/* lvl MISS|L2|L3 = 0x64 (<< 5 = 0xc80), nothing else. */
	pm_mem_src__decode(&m, 0xc80ull);
	check_str(pm_mem_src__level_str, &m, "L2 or L3 miss");
	assert_string_equal(pm_mem_src__op(&m), "N/A");
	assert_string_equal(pm_mem_src__tlb(&m), "N/A");
	check_str(pm_mem_src__tlb_str, &m, "N/A");

	/* lvl_num N/A (0xf << 33 = 0x1e00000000) falls back to lvl:
	 * HIT|REM_CCE1 = 0x402 (<< 5 = 0x8040). */
	pm_mem_src__decode(&m, 0x1e00008040ull);
	check_str(pm_mem_src__level_str, &m, "Remote Cache (1 hop) hit");
	/* LFB|HIT 0x12 (<< 5 = 0x240), Local RAM|HIT 0x82 (0x1040),
	 * Uncached|HIT 0x2002 (0x40040). */
	pm_mem_src__decode(&m, 0x240ull);
	check_str(pm_mem_src__level_str, &m, "LFB/MAB hit");
	pm_mem_src__decode(&m, 0x1040ull);
	check_str(pm_mem_src__level_str, &m, "Local RAM hit");
	pm_mem_src__decode(&m, 0x40040ull);
	check_str(pm_mem_src__level_str, &m, "Uncached hit");
	/* Only NA, or only HIT: no level to name. */
	pm_mem_src__decode(&m, 0x20ull);
	check_str(pm_mem_src__level_str, &m, "N/A");
	pm_mem_src__decode(&m, 0x40ull);
	check_str(pm_mem_src__level_str, &m, "N/A");
	/* lvl_num L2 (0x400000000) without hit or miss; not remote. */
	pm_mem_src__decode(&m, 0x400000000ull);
	check_str(pm_mem_src__level_str, &m, "L2");
}

static void test_names(void **state)
{
	struct pm_mem_src m;

	(void)state;
	pm_mem_src__decode(&m, 0x10ull);	/* EXEC */
	assert_string_equal(pm_mem_src__op(&m), "exec");
	pm_mem_src__decode(&m, 0x03ull);	/* NA wins over LOAD */
	assert_string_equal(pm_mem_src__op(&m), "N/A");
	pm_mem_src__decode(&m, 0x0ull);
	assert_string_equal(pm_mem_src__op(&m), "N/A");
	assert_string_equal(pm_mem_src__lock(&m), "No");

	assert_null(pm_mem_lvl_num__name(0));
	assert_string_equal(pm_mem_lvl_num__name(1), "L1");
	assert_string_equal(pm_mem_lvl_num__name(4), "L4");
	assert_string_equal(pm_mem_lvl_num__name(5), "L2 MHB");
	assert_string_equal(pm_mem_lvl_num__name(7), "L7");
	assert_string_equal(pm_mem_lvl_num__name(9), "CXL");
	assert_string_equal(pm_mem_lvl_num__name(12), "LFB/MAB");
	assert_string_equal(pm_mem_lvl_num__name(15), "N/A");
	assert_null(pm_mem_hops__name(0));
	assert_string_equal(pm_mem_hops__name(1), "core, same node");
	assert_string_equal(pm_mem_hops__name(4), "board");
	assert_null(pm_mem_hops__name(5));

	/* dtlb L1|L2|OS|HIT = 0x5a (<< 26 = 0x168000000). */
	pm_mem_src__decode(&m, 0x168000000ull);
	check_str(pm_mem_src__tlb_str, &m, "L1 or L2 or Fault hit");
	/* snoop NA|HIT = 0x5 (<< 19 = 0x280000), snoopx PEER (0x8000000000). */
	pm_mem_src__decode(&m, 0x8000280000ull);
	check_str(pm_mem_src__snoop_str, &m, "N/A or Hit or Peer");
	/* blk ADDR (0x4 << 40 = 0x40000000000); blk NA|DATA (0x3 << 40). */
	pm_mem_src__decode(&m, 0x40000000000ull);
	check_str(pm_mem_src__blk_str, &m, "Addr");
	pm_mem_src__decode(&m, 0x30000000000ull);
	check_str(pm_mem_src__blk_str, &m, "N/A");
	/* The reserved top 18 bits are ignored. */
	pm_mem_src__decode(&m, 0xffffc00000000000ull | L1_LOAD_HIT);
	assert_true(pm_mem_src__encode(&m) == L1_LOAD_HIT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_union_agrees),
		cmocka_unit_test(test_l1_load_hit),
		cmocka_unit_test(test_alpha_dtb),
		cmocka_unit_test(test_remote_all_fields),
		cmocka_unit_test(test_old_levels),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
