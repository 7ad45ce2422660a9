// SPDX-License-Identifier: GPL-2.0
/*
 * Alpha ProfileMe decoding and the DCPI-style accumulator. Payloads are
 * built byte by byte in little endian here; bit positions come from the
 * register tables of the reference (I_STAT bits 40:30, PCTR_CTL 47:0) and
 * every expected value was worked out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmprof/json.h"
#include "pmprof/profileme_acc.h"
#include "pmprof/report.h"
#include "pmprof/strbuf.h"
#include "pmprof/table.h"

/* Register bits, from the reference's tables. */
#define OVR(v)		((uint64_t)(v) << 30)
#define ICM		(1ull << 33)
#define TT(v)		((uint64_t)(v) << 34)
#define LSO		(1ull << 38)
#define TRP		(1ull << 39)
#define MIS		(1ull << 40)
#define TAK		(1ull << 0)
#define VAL		(1ull << 1)
#define SL1(v)		((uint64_t)(v) << 2)
#define SL0		(1ull << 4)
#define PCTR1(v)	((uint64_t)(v) << 6)
#define KILLED		(1ull << 26)
#define STALLED		(1ull << 27)
#define PCTR0(v)	((uint64_t)(v) << 28)

#define HW	0	/* PERF_TYPE_HARDWARE */
#define SW	1	/* PERF_TYPE_SOFTWARE */
#define TP	2	/* PERF_TYPE_TRACEPOINT */
#define RAW	4	/* PERF_TYPE_RAW */

static void put_le(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A version-1 payload (28 bytes) at p. */
static void payload(uint8_t *p, uint32_t version, uint64_t pmpc,
		    uint64_t i_stat, uint64_t ctl)
{
	put_le(p, version, 4);
	put_le(p + 4, pmpc, 8);
	put_le(p + 12, i_stat, 8);
	put_le(p + 20, ctl, 8);
}

/*
 * PMPC 0x120001a34 (user), I_STAT with OVR 5, ICM, TRAP_TYPE 6, LSO, TRP:
 * 0x1_4000_0000 + 0x2_0000_0000 + 0x18_0000_0000 + 0x40_0000_0000 +
 * 0x80_0000_0000 = 0xdb_4000_0000. PCTR_CTL with TAK, VAL, SL1 2, SL0,
 * PCTR1 0x12345 (<< 6 = 0x48d140), STALLED, PCTR0 0xabcde (<< 28 =
 * 0xabcde_000_0000): 0xabcde848d15b.
 */
static const uint8_t sample1[28] = {
	0x01, 0x00, 0x00, 0x00,
	0x34, 0x1a, 0x00, 0x20, 0x01, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x40, 0xdb, 0x00, 0x00, 0x00,
	0x5b, 0xd1, 0x48, 0xe8, 0xcd, 0xab, 0x00, 0x00,
};

static void test_fields(void **state)
{
	/* At an odd address, as no alignment can be assumed. */
	uint8_t buf[40];
	struct pm_profileme pm;
	struct pm_profileme_class cls;

	(void)state;
	memcpy(buf + 1, sample1, sizeof(sample1));
	assert_int_equal(pm_profileme__parse(&pm, buf + 1, 28), PM_PROFILEME_OK);
	assert_int_equal(pm.version, 1);
	assert_true(pm.pmpc == 0x120001a34ull);
	assert_true(pm.i_stat == 0xdb40000000ull);
	assert_true(pm.pctr_ctl == 0xabcde848d15bull);

	assert_int_equal(pm_profileme__ovr(&pm), 5);
	assert_int_equal(pm_profileme__icm(&pm), 1);
	assert_int_equal(pm_profileme__trap_type(&pm), 6);
	assert_int_equal(pm_profileme__lso(&pm), 1);
	assert_int_equal(pm_profileme__trp(&pm), 1);
	assert_int_equal(pm_profileme__mis(&pm), 0);
	assert_int_equal(pm_profileme__tak(&pm), 1);
	assert_int_equal(pm_profileme__val(&pm), 1);
	assert_int_equal(pm_profileme__sl1(&pm), 2);
	assert_int_equal(pm_profileme__sl0(&pm), 1);
	assert_int_equal(pm_profileme__pctr1(&pm), 0x12345);
	assert_int_equal(pm_profileme__killed(&pm), 0);
	assert_int_equal(pm_profileme__stalled(&pm), 1);
	assert_int_equal(pm_profileme__pctr0(&pm), 0xabcde);
	assert_true(pm_profileme__pc(&pm) == 0x120001a34ull);
	assert_false(pm_profileme__is_pal(&pm));
	assert_false(pm_profileme__is_kernel(&pm));

	pm_profileme__classify(&pm, &cls);
	assert_false(cls.killed);
	assert_true(cls.trapped);
	assert_false(cls.invalid);
	assert_false(cls.mispredicted);
	assert_true(cls.taken);
	assert_true(cls.stalled);
	assert_int_equal(cls.sl1, 2);
	assert_int_equal(cls.pctr1, 74565);
	assert_int_equal(cls.trap, PM_TRAP_DTB1);
}

static void test_fields_builder_agrees(void **state)
{
	uint8_t buf[28];

	(void)state;
	/* The byte table above and the bit macros describe the same sample. */
	payload(buf, 1, 0x120001a34ull, OVR(5) | ICM | TT(6) | LSO | TRP,
		TAK | VAL | SL1(2) | SL0 | PCTR1(0x12345) | STALLED |
		PCTR0(0xabcde));
	assert_memory_equal(buf, sample1, 28);
}

static void check_dump(const uint8_t *raw, size_t n, const char *want)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	struct pm_profileme pm;

	assert_int_equal(pm_profileme__parse(&pm, raw, n), PM_PROFILEME_OK);
	pm_profileme__dump(&pm, &sb);
	assert_string_equal(pm_strbuf__str(&sb), want);
	pm_strbuf__release(&sb);
}

static void test_dump(void **state)
{
	uint8_t buf[28];

	(void)state;
	/* 0xabcde = 703710, 0x12345 = 74565; SL1 2 counts bcache misses. */
	check_dump(sample1, 28,
		   "ProfileMe PMPC:\t0000000120001a34 user trap DTB single miss\n"
		   "ProfileMe I_STAT:\t000000db40000000 TRP 1 MIS 0 LSO 1"
		   " TrapType 6 ICM 1 OVR 5\n"
		   "ProfileMe PCTR_CTL:\t0000abcde848d15b VAL 1 TAK 1 Stalled 1"
		   " Killed 0 SL0 1 SL1 2 PCTR0 703710 PCTR1 74565"
		   " (bcache misses)\n");

	/* Kernel PC, a live mispredict: no trap-type name, "mispredicted".
	 * I_STAT TRP|MIS = 0x180_0000_0000; PCTR_CTL SL0|SL1 1|PCTR1 3 =
	 * 0x10 + 0x4 + 0xc0 = 0xd4. */
	payload(buf, 1, 0xfffffc0000312340ull, TRP | MIS, SL0 | SL1(1) | PCTR1(3));
	check_dump(buf, 28,
		   "ProfileMe PMPC:\tfffffc0000312340 kernel trap none mispredicted\n"
		   "ProfileMe I_STAT:\t0000018000000000 TRP 1 MIS 1 LSO 0"
		   " TrapType 0 ICM 0 OVR 0\n"
		   "ProfileMe PCTR_CTL:\t00000000000000d4 VAL 0 TAK 0 Stalled 0"
		   " Killed 0 SL0 1 SL1 1 PCTR0 0 PCTR1 3 (retire delay)\n");

	/* Killed: TRP, MIS and TRAP_TYPE are stale, so neither a trap name
	 * nor "mispredicted". TT(6) | TRP | MIS = 0x198_0000_0000; KILLED |
	 * SL1 3 = 0x400_000c. */
	payload(buf, 1, 0x120001a40ull, TT(6) | TRP | MIS, KILLED | SL1(3));
	check_dump(buf, 28,
		   "ProfileMe PMPC:\t0000000120001a40 user trap none\n"
		   "ProfileMe I_STAT:\t0000019800000000 TRP 1 MIS 1 LSO 0"
		   " TrapType 6 ICM 0 OVR 0\n"
		   "ProfileMe PCTR_CTL:\t000000000400000c VAL 0 TAK 0 Stalled 0"
		   " Killed 1 SL0 0 SL1 3 PCTR0 0 PCTR1 0 (mbox replays)\n");

	/* A PAL address at the ITB miss entry: named from PMPC. */
	payload(buf, 1, 0x18581ull, 0, 0);
	check_dump(buf, 28,
		   "ProfileMe PMPC:\t0000000000018581 PAL trap ITB miss\n"
		   "ProfileMe I_STAT:\t0000000000000000 TRP 0 MIS 0 LSO 0"
		   " TrapType 0 ICM 0 OVR 0\n"
		   "ProfileMe PCTR_CTL:\t0000000000000000 VAL 0 TAK 0 Stalled 0"
		   " Killed 0 SL0 0 SL1 0 PCTR0 0 PCTR1 0 (cycles)\n");
}

static void classify(uint64_t pmpc, uint64_t i_stat, uint64_t ctl,
		     struct pm_profileme_class *cls)
{
	uint8_t buf[28];
	struct pm_profileme pm;

	payload(buf, 1, pmpc, i_stat, ctl);
	assert_int_equal(pm_profileme__parse(&pm, buf, 28), PM_PROFILEME_OK);
	pm_profileme__classify(&pm, cls);
}

static void test_killed_stale_bits(void **state)
{
	struct pm_profileme_class c;

	(void)state;
	/* Killed with stale TRP and MIS: killed and invalid, nothing else. */
	classify(0x120001000ull, TRP | MIS | TT(6), KILLED, &c);
	assert_true(c.killed);
	assert_false(c.trapped);
	assert_true(c.invalid);
	assert_false(c.mispredicted);
	assert_int_equal(c.trap, PM_TRAP_NONE);

	/* Killed with a stale TRP and trap type only. */
	classify(0x120001000ull, TRP | TT(12), KILLED | VAL, &c);
	assert_false(c.trapped);
	assert_false(c.invalid);	/* VAL set */
	assert_int_equal(c.trap, PM_TRAP_NONE);

	/* The same bits without KILLED: a live mispredict ... */
	classify(0x120001000ull, TRP | MIS | TT(6), 0, &c);
	assert_false(c.killed);
	assert_true(c.trapped);
	assert_false(c.invalid);
	assert_true(c.mispredicted);
	assert_int_equal(c.trap, PM_TRAP_NONE);
	/* ... and a live arithmetic trap. */
	classify(0x120001000ull, TRP | TT(12), 0, &c);
	assert_int_equal(c.trap, PM_TRAP_ARITH);
	assert_false(c.mispredicted);

	/* MIS without TRP means nothing. */
	classify(0x120001000ull, MIS, VAL, &c);
	assert_false(c.mispredicted);
	assert_false(c.trapped);
	assert_false(c.invalid);
}

static void test_redirect_traps(void **state)
{
	struct pm_profileme_class c;

	(void)state;
	/* 0x18481 & 0x7fff = 0x481 with bit 0 set: Istream access violation. */
	classify(0x18481ull, 0, 0, &c);
	assert_int_equal(c.trap, PM_TRAP_IACV);
	assert_false(c.trapped);
	assert_true(c.invalid);
	/* With TRP, MIS and a trap type: the redirect wins, no mispredict. */
	classify(0x18481ull, TRP | MIS | TT(6), 0, &c);
	assert_int_equal(c.trap, PM_TRAP_IACV);
	assert_true(c.trapped);
	assert_false(c.mispredicted);
	classify(0x28581ull, TRP | TT(6), VAL, &c);
	assert_int_equal(c.trap, PM_TRAP_ITBMISS);
	classify(0x8681ull, 0, VAL, &c);		/* 0x8681 & 0x7fff = 0x681 */
	assert_int_equal(c.trap, PM_TRAP_INTR);
	classify(0x7681ull, 0, VAL, &c);		/* entry 0x7681: none */
	assert_int_equal(c.trap, PM_TRAP_NONE);
	/* Killed at a redirect entry: still the redirect. */
	classify(0x18681ull, TRP, KILLED, &c);
	assert_int_equal(c.trap, PM_TRAP_INTR);
	assert_true(c.killed);

	/* Another PAL entry is no redirect: TRAP_TYPE names it if trapped. */
	classify(0x10101ull, TRP | TT(7), 0, &c);
	assert_int_equal(c.trap, PM_TRAP_DFAULT);
	classify(0x10101ull, 0, 0, &c);
	assert_int_equal(c.trap, PM_TRAP_NONE);
	/* 0x481 without the PAL bit is an ordinary (odd-looking) PC. */
	classify(0x18480ull, 0, VAL, &c);
	assert_int_equal(c.trap, PM_TRAP_NONE);
}

static void test_trap_names(void **state)
{
	/* TRAP_TYPE 0-15 as the reference's table names them. */
	static const char *const want[16] = {
		"replay", "other", "dtb2-3l", "dtb2-4l", "fen", "unalign",
		"dtb1", "dfault", "opcdec", "other", "mchk", "other", "arith",
		"other", "mt_fpcr", "reset",
	};
	static const char *const want_long[16] = {
		"replay", "other", "DTB double miss 3-level",
		"DTB double miss 4-level", "FP disabled", "unaligned",
		"DTB single miss", "Dstream fault", "OPCDEC", "other",
		"machine check", "other", "arithmetic", "other", "MT_FPCR",
		"reset",
	};
	struct pm_profileme_class c;
	unsigned t;

	(void)state;
	for (t = 0; t < 16; t++) {
		classify(0x120001000ull, TRP | TT(t), 0, &c);
		assert_string_equal(pm_profileme_trap__name(c.trap), want[t]);
		assert_string_equal(pm_profileme_trap__long_name(c.trap),
				    want_long[t]);
	}
	assert_string_equal(pm_profileme_trap__name(PM_TRAP_IACV), "iacv");
	assert_string_equal(pm_profileme_trap__name(PM_TRAP_ITBMISS), "itbmiss");
	assert_string_equal(pm_profileme_trap__name(PM_TRAP_INTR), "intr");
	assert_string_equal(pm_profileme_trap__long_name(PM_TRAP_IACV),
			    "Istream access violation");
	assert_string_equal(pm_profileme_trap__name(PM_TRAP_NONE), "none");
	assert_string_equal(pm_profileme_pctr1__name(0), "cycles");
	assert_string_equal(pm_profileme_pctr1__name(1), "retire delay");
	assert_string_equal(pm_profileme_pctr1__name(2), "bcache misses");
	assert_string_equal(pm_profileme_pctr1__name(3), "mbox replays");
}

static void test_skip_reasons(void **state)
{
	uint8_t buf[40];
	struct pm_profileme pm;

	(void)state;
	payload(buf, 1, 0x120001000ull, TRP | TT(6), VAL);
	assert_int_equal(pm_profileme__decode(&pm, "alpha", HW, buf, 28),
			 PM_PROFILEME_OK);
	assert_int_equal(pm_profileme__decode(&pm, "alpha", RAW, buf, 28),
			 PM_PROFILEME_OK);
	/* A tracepoint's or a software event's raw data that looks valid. */
	assert_int_equal(pm_profileme__decode(&pm, "alpha", TP, buf, 28),
			 PM_PROFILEME_NOT_CPU_EVENT);
	assert_int_equal(pm_profileme__decode(&pm, "alpha", SW, buf, 28),
			 PM_PROFILEME_NOT_CPU_EVENT);
	assert_int_equal(pm_profileme__decode(&pm, "alpha", 8, buf, 28),
			 PM_PROFILEME_NOT_CPU_EVENT);
	/* Not recorded on Alpha. */
	assert_int_equal(pm_profileme__decode(&pm, "x86_64", HW, buf, 28),
			 PM_PROFILEME_NOT_ALPHA);
	assert_int_equal(pm_profileme__decode(&pm, NULL, HW, buf, 28),
			 PM_PROFILEME_NOT_ALPHA);
	assert_int_equal(pm_profileme__decode(&pm, "alphaev67", HW, buf, 28),
			 PM_PROFILEME_NOT_ALPHA);
	/* No raw data, raw data under 28 bytes. */
	assert_int_equal(pm_profileme__decode(&pm, "alpha", HW, NULL, 0),
			 PM_PROFILEME_NO_RAW);
	assert_int_equal(pm_profileme__decode(&pm, "alpha", HW, buf, 0),
			 PM_PROFILEME_NO_RAW);
	assert_int_equal(pm_profileme__decode(&pm, "alpha", HW, buf, 27),
			 PM_PROFILEME_SHORT);
	assert_int_equal(pm_profileme__decode(&pm, "alpha", HW, buf, 4),
			 PM_PROFILEME_SHORT);
	/* Version 0. */
	payload(buf, 0, 0x120001000ull, TRP, VAL);
	assert_int_equal(pm_profileme__decode(&pm, "alpha", HW, buf, 28),
			 PM_PROFILEME_VERSION0);
	/* Version 2, 36 bytes: the extra 8 bytes are ignored. */
	payload(buf, 2, 0x120001004ull, TRP | TT(5), VAL | SL1(3));
	memset(buf + 28, 0xff, 8);
	assert_int_equal(pm_profileme__decode(&pm, "alpha", HW, buf, 36),
			 PM_PROFILEME_OK);
	assert_int_equal(pm.version, 2);
	assert_true(pm.pmpc == 0x120001004ull);
	assert_int_equal(pm_profileme__trap_type(&pm), 5);
	assert_int_equal(pm_profileme__sl1(&pm), 3);
	/* A big version number is a later version too. */
	put_le(buf, 0x01000000, 4);
	assert_int_equal(pm_profileme__parse(&pm, buf, 28), PM_PROFILEME_OK);

	assert_string_equal(pm_profileme_status__str(PM_PROFILEME_SHORT),
			    "raw data under 28 bytes");
}

static void test_pc_key(void **state)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	uint8_t buf[28];
	struct pm_profileme pm;

	(void)state;
	/* Bit 1 is below the PC: 0x...a36 is the instruction at 0x...a34. */
	payload(buf, 1, 0x120001a36ull, 0, 0);
	pm_profileme__parse(&pm, buf, 28);
	pm_profileme__pc_key(&pm, &sb);
	assert_string_equal(pm_strbuf__str(&sb), "0x0000000120001a34");
	pm_strbuf__reset(&sb);
	payload(buf, 1, 0xfffffc0000312341ull, 0, 0);	/* PAL and bit 63 */
	pm_profileme__parse(&pm, buf, 28);
	assert_true(pm_profileme__is_pal(&pm));
	assert_true(pm_profileme__is_kernel(&pm));
	pm_profileme__pc_key(&pm, &sb);
	assert_string_equal(pm_strbuf__str(&sb), "PAL+0x2341");
	pm_strbuf__release(&sb);
}

/* ---- The accumulator ---- */

struct feed {
	uint8_t buf[64];
	struct pm_profileme_sample s;
};

static enum pm_profileme_status add(struct pm_profileme_acc *acc,
				    uint32_t type, const char *dso,
				    const char *sym, uint64_t pmpc,
				    uint64_t i_stat, uint64_t ctl)
{
	struct feed f;

	memset(&f, 0, sizeof(f));
	payload(f.buf, 1, pmpc, i_stat, ctl);
	f.s.raw = f.buf;
	f.s.raw_size = 28;
	f.s.attr_type = type;
	f.s.dso = dso;
	f.s.symbol = sym;
	return pm_profileme_acc__add(acc, &f.s);
}

/* An accumulator for a recording of this arch (opts may be NULL). */
static struct pm_profileme_acc *acc_new(const char *arch,
					const struct pm_profileme_opts *opts)
{
	struct pm_profileme_opts o = { .sz = sizeof(o) };

	if (opts)
		o = *opts;
	o.arch = arch;
	return pm_profileme_acc__new(&o);
}

static struct pm_report *finish(struct pm_profileme_acc *acc)
{
	struct pm_report *rep;

	assert_int_equal(pm_profileme_acc__finish(acc, &rep), 0);
	return rep;
}

static char *render(struct pm_profileme_acc *acc, const char *format)
{
	struct pm_report *rep = finish(acc);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(pm_report__render(rep, out, pm_renderer__find(format),
					   NULL), 0);
	fclose(out);
	pm_report__delete(rep);
	return buf;
}

/* The index of the n-th column the table formats show (JSON has more). */
static size_t shown(const struct pm_table *t, size_t n)
{
	size_t c;

	for (c = 0; c < pm_table__nr_columns(t); c++)
		if (pm_table__column(t, c)->show != PM_SHOW_JSON && !n--)
			return c;
	fail_msg("no shown column %zu", n);
	return 0;
}

/*
 * The small recording of the text and JSON tests:
 *   prog main, SL1 0: retired taken (pctr1 10); live mispredict (20);
 *     killed with stale TRP dtb1 (30); live dtb1, stalled (40)
 *   unknown, SL1 0: PAL ITB miss entry, VAL clear (5)
 *   libc.so.6 memcpy, SL1 1: retired with TRP type 9 "other" (7)
 *   skipped: a tracepoint, a 20-byte payload.
 */
static struct pm_profileme_acc *small_acc(void)
{
	struct pm_profileme_acc *acc = acc_new("alpha", NULL);
	struct pm_profileme_sample s;
	uint8_t buf[28];

	add(acc, HW, "prog", "main", 0x120001000ull, 0, VAL | TAK | PCTR1(10));
	add(acc, HW, "prog", "main", 0x120001004ull, TRP | MIS, PCTR1(20));
	add(acc, HW, "prog", "main", 0x120001008ull, TRP | TT(6),
	    KILLED | PCTR1(30));
	add(acc, RAW, "prog", "main", 0x12000100cull, TRP | TT(6),
	    STALLED | PCTR1(40));
	add(acc, HW, NULL, NULL, 0x18581ull, 0, PCTR1(5));
	add(acc, HW, "libc.so.6", "memcpy", 0x200100000ull, TRP | TT(9),
	    VAL | SL1(1) | PCTR1(7));
	assert_int_equal(add(acc, TP, "prog", "main", 0x120001000ull, 0, VAL),
			 PM_PROFILEME_NOT_CPU_EVENT);
	payload(buf, 1, 0x120001000ull, 0, VAL);
	memset(&s, 0, sizeof(s));
	s.raw = buf;
	s.raw_size = 20;
	s.dso = "prog";
	assert_int_equal(pm_profileme_acc__add(acc, &s), PM_PROFILEME_SHORT);
	return acc;
}

static void test_acc_text(void **state)
{
	struct pm_profileme_acc *acc = small_acc();
	char *got;

	(void)state;
	assert_int_equal(pm_profileme_acc__samples(acc), 6);
	assert_int_equal(pm_profileme_acc__skipped(acc), 2);
	assert_int_equal(pm_profileme_acc__skipped_by(acc,
				PM_PROFILEME_NOT_CPU_EVENT), 1);
	assert_int_equal(pm_profileme_acc__skipped_by(acc, PM_PROFILEME_SHORT), 1);
	assert_int_equal(pm_profileme_acc__skipped_by(acc, PM_PROFILEME_VERSION0), 0);

	/* main: 4 samples, one each killed, invalid (the killed one),
	 * mispredicted, taken, stalled: 25.0%; pctr1 (10+20+30+40)/4.
	 * The PAL sample: not trapped, VAL clear: 100% invalid. */
	got = render(acc, "text");
	assert_string_equal(got,
		"6 ProfileMe samples, 2 without ProfileMe data\n"
		"\n"
		"pctr1 counts cycles:\n"
		"samples  killed%  invalid%  mispr%  taken%  stall%  pctr1"
		"  dso        symbol     traps\n"
		"      4    25.0%     25.0%   25.0%   25.0%   25.0%   25.0"
		"  prog       main       dtb1=1\n"
		"      1     0.0%    100.0%    0.0%    0.0%    0.0%    5.0"
		"  [unknown]  [unknown]  itbmiss=1\n"
		"\n"
		"pctr1 counts retire delay:\n"
		"samples  killed%  invalid%  mispr%  taken%  stall%  pctr1"
		"  dso        symbol  traps\n"
		"      1     0.0%      0.0%    0.0%    0.0%    0.0%    7.0"
		"  libc.so.6  memcpy  other=1\n");
	free(got);
	pm_profileme_acc__delete(acc);
}

static void test_acc_json(void **state)
{
	struct pm_profileme_acc *acc = small_acc();
	char *got;

	(void)state;
	got = render(acc, "json");
	assert_string_equal(got,
		"{\"samples\":6,\"skipped\":2,\"view\":\"symbol\",\"tables\":["
		"{\"sl1\":0,\"pctr1\":\"cycles\",\"rows\":["
		"{\"dso\":\"prog\",\"symbol\":\"main\",\"samples\":4,\"killed\":1,"
		"\"invalid\":1,\"mispredicted\":1,\"taken\":1,\"stalled\":1,"
		"\"pctr1_sum\":100,\"pctr1_mean\":25,\"traps\":{\"dtb1\":1}},"
		"{\"dso\":null,\"symbol\":null,\"samples\":1,\"killed\":0,"
		"\"invalid\":1,\"mispredicted\":0,\"taken\":0,\"stalled\":0,"
		"\"pctr1_sum\":5,\"pctr1_mean\":5,\"traps\":{\"itbmiss\":1}}]},"
		"{\"sl1\":1,\"pctr1\":\"retire delay\",\"rows\":["
		"{\"dso\":\"libc.so.6\",\"symbol\":\"memcpy\",\"samples\":1,"
		"\"killed\":0,\"invalid\":0,\"mispredicted\":0,\"taken\":0,"
		"\"stalled\":0,\"pctr1_sum\":7,\"pctr1_mean\":7,"
		"\"traps\":{\"other\":1}}]}]}\n");
	free(got);

	/* CSV: one table, an sl1 column first, percentages without '%'. */
	got = render(acc, "csv");
	assert_string_equal(got,
		"sl1,samples,killed%,invalid%,mispr%,taken%,stall%,pctr1,dso,"
		"symbol,traps\n"
		"0,4,25.0,25.0,25.0,25.0,25.0,25.0,prog,main,dtb1=1\n"
		"0,1,0.0,100.0,0.0,0.0,0.0,5.0,[unknown],[unknown],itbmiss=1\n"
		"1,1,0.0,0.0,0.0,0.0,0.0,7.0,libc.so.6,memcpy,other=1\n");
	free(got);
	pm_profileme_acc__delete(acc);
}

static void test_acc_sl1_tables(void **state)
{
	struct pm_profileme_acc *acc = acc_new("alpha", NULL);
	const struct pm_profileme_row **rows;
	struct pm_table *t;
	size_t nr;
	unsigned s;

	(void)state;
	/* The same instruction under four SL1 values: four tables. */
	for (s = 0; s < 4; s++)
		add(acc, HW, "prog", "f", 0x120001000ull, 0,
		    VAL | SL1(s) | PCTR1(100 * (s + 1)));
	add(acc, HW, "prog", "f", 0x120001000ull, 0, VAL | SL1(2) | PCTR1(1));
	for (s = 0; s < 4; s++) {
		rows = pm_profileme_acc__rows(acc, s, &nr);
		assert_int_equal(nr, 1);
		assert_int_equal(rows[0]->samples, s == 2 ? 2 : 1);
		/* Each mean is of its own SL1's counts: 100, 200, 301/2, 400. */
		assert_int_equal(rows[0]->pctr1_sum, s == 2 ? 301 : 100 * (s + 1));
		free(rows);
		t = pm_profileme_acc__table(acc, s);
		assert_non_null(t);
		assert_int_equal(pm_table__nr_rows(t), 1);
		pm_table__delete(t);
	}
	{
		/* CSV and TSV: one table of every SL1, sl1 first. */
		struct pm_report *rep = finish(acc);

		t = pm_report__merged(rep);
		pm_report__delete(rep);
	}
	assert_int_equal(pm_table__nr_rows(t), 4);
	assert_int_equal(pm_table__get_u64(t, 2, 0), 2);
	assert_true(pm_table__get_double(t, 2, 7) == 150.5);
	pm_table__delete(t);
	pm_profileme_acc__delete(acc);

	/* Only SL1 0 and 3 seen: no table for 1 or 2. */
	acc = acc_new("alpha", NULL);
	add(acc, HW, "prog", "f", 0x120001000ull, 0, SL1(0));
	add(acc, HW, "prog", "f", 0x120001000ull, 0, SL1(3));
	assert_null(pm_profileme_acc__table(acc, 1));
	assert_null(pm_profileme_acc__table(acc, 2));
	assert_null(pm_profileme_acc__table(acc, 4));
	rows = pm_profileme_acc__rows(acc, 1, &nr);
	assert_null(rows);
	assert_int_equal(nr, 0);
	pm_profileme_acc__delete(acc);
}

static void test_acc_pc_view(void **state)
{
	struct pm_profileme_opts o = { .view = PM_PROFILEME_BY_PC,
				       .sort = PM_PROFILEME_SORT_PC };
	struct pm_profileme_acc *acc = acc_new("alpha", &o);
	struct pm_profileme_sample s;
	uint8_t buf[28];
	char *got;

	(void)state;
	/* 0x...a34 and 0x...a36 are one instruction. */
	add(acc, HW, "prog", "main+0x34", 0x120001a34ull, 0, VAL);
	payload(buf, 1, 0x120001a36ull, TRP | TT(0), 0);
	memset(&s, 0, sizeof(s));
	s.raw = buf;
	s.raw_size = 28;
	s.dso = "prog";
	s.symbol = "main+0x34";
	s.srcline = "main.c:12";
	assert_int_equal(pm_profileme_acc__add(acc, &s), PM_PROFILEME_OK);
	/* Two PAL samples at the interrupt entry, whatever their IP: one row. */
	add(acc, HW, "[kernel.kallsyms]", "a", 0x10681ull, 0, 0);
	add(acc, HW, NULL, NULL, 0x20681ull, TRP, VAL);
	/* A kernel PC. */
	add(acc, HW, "[kernel.kallsyms]", "memset+0x10", 0xfffffc0000312340ull,
	    0, VAL | TAK);
	/* Same PC in another program: another row. */
	add(acc, HW, "other", "g", 0x120001a34ull, 0, VAL);

	got = render(acc, "json");
	assert_string_equal(got,
		"{\"samples\":6,\"skipped\":0,\"view\":\"pc\",\"tables\":["
		"{\"sl1\":0,\"pctr1\":\"cycles\",\"rows\":["
		"{\"dso\":\"prog\",\"symbol\":\"main+0x34\","
		"\"pc\":\"0x0000000120001a34\",\"srcline\":\"main.c:12\","
		"\"samples\":2,\"killed\":0,\"invalid\":0,\"mispredicted\":0,"
		"\"taken\":0,\"stalled\":0,\"pctr1_sum\":0,\"pctr1_mean\":0,"
		"\"traps\":{\"replay\":1}},"
		"{\"dso\":\"other\",\"symbol\":\"g\","
		"\"pc\":\"0x0000000120001a34\",\"srcline\":null,"
		"\"samples\":1,\"killed\":0,\"invalid\":0,\"mispredicted\":0,"
		"\"taken\":0,\"stalled\":0,\"pctr1_sum\":0,\"pctr1_mean\":0,"
		"\"traps\":{}},"
		"{\"dso\":\"[kernel.kallsyms]\",\"symbol\":\"memset+0x10\","
		"\"pc\":\"0xfffffc0000312340\",\"srcline\":null,"
		"\"samples\":1,\"killed\":0,\"invalid\":0,\"mispredicted\":0,"
		"\"taken\":1,\"stalled\":0,\"pctr1_sum\":0,\"pctr1_mean\":0,"
		"\"traps\":{}},"
		"{\"dso\":\"[kernel.kallsyms]\",\"symbol\":\"a\","
		"\"pc\":\"PAL+0x681\",\"srcline\":null,"
		"\"samples\":2,\"killed\":0,\"invalid\":1,\"mispredicted\":0,"
		"\"taken\":0,\"stalled\":0,\"pctr1_sum\":0,\"pctr1_mean\":0,"
		"\"traps\":{\"intr\":2}}]}]}\n");
	free(got);

	/* Text: pc column, srcline column since one row has it. */
	got = render(acc, "text");
	assert_string_equal(got,
		"6 ProfileMe samples, 0 without ProfileMe data\n"
		"\n"
		"pctr1 counts cycles:\n"
		"samples  killed%  invalid%  mispr%  taken%  stall%  pctr1"
		"  pc                  dso                symbol       srcline    traps\n"
		"      2     0.0%      0.0%    0.0%    0.0%    0.0%    0.0"
		"  0x0000000120001a34  prog               main+0x34    main.c:12  replay=1\n"
		"      1     0.0%      0.0%    0.0%    0.0%    0.0%    0.0"
		"  0x0000000120001a34  other              g            -\n"
		"      1     0.0%      0.0%    0.0%  100.0%    0.0%    0.0"
		"  0xfffffc0000312340  [kernel.kallsyms]  memset+0x10  -\n"
		"      2     0.0%     50.0%    0.0%    0.0%    0.0%    0.0"
		"  PAL+0x681           [kernel.kallsyms]  a            -          intr=2\n");
	free(got);
	pm_profileme_acc__delete(acc);
}

/* n samples of one kind at a branch. */
static void add_n(struct pm_profileme_acc *acc, const char *sym, uint64_t pc,
		  int n, uint64_t i_stat, uint64_t ctl)
{
	int i;

	for (i = 0; i < n; i++)
		add(acc, HW, "loop", sym, pc, i_stat, ctl);
}

static void test_published_observation(void **state)
{
	struct pm_profileme_opts o = { .view = PM_PROFILEME_BY_PC };
	struct pm_profileme_acc *acc = acc_new("alpha", &o);
	struct pm_table *t;

	(void)state;
	/*
	 * The branch of a loop testing random data, 1000 samples: 210 live
	 * mispredicts (TRP and MIS), 40 killed with stale TRP and MIS that
	 * must not count, 750 retired (about half taken). With sorted data,
	 * 1000 samples with no mispredict and 30 stale killed ones.
	 */
	add_n(acc, "random+0x20", 0x120000a20ull, 210, TRP | MIS, TAK);
	add_n(acc, "random+0x20", 0x120000a20ull, 40, TRP | MIS, KILLED);
	add_n(acc, "random+0x20", 0x120000a20ull, 375, 0, VAL | TAK);
	add_n(acc, "random+0x20", 0x120000a20ull, 375, 0, VAL);
	add_n(acc, "sorted+0x20", 0x120000b20ull, 30, TRP | MIS, KILLED);
	add_n(acc, "sorted+0x20", 0x120000b20ull, 970, 0, VAL | TAK);

	t = pm_profileme_acc__table(acc, 0);
	assert_int_equal(pm_table__nr_rows(t), 2);
	/* Equal samples: first seen first. Columns 3 and 1: mispr%, killed%;
	 * 9 is the symbol (pc view: pc 7, dso 8). */
	assert_string_equal(pm_table__get_str(t, 0, shown(t, 9)), "random+0x20");
	assert_true(pm_table__get_double(t, 0, shown(t, 3)) == 21.0);
	assert_true(pm_table__get_double(t, 0, shown(t, 1)) == 4.0);
	assert_string_equal(pm_table__get_str(t, 1, shown(t, 9)), "sorted+0x20");
	assert_true(pm_table__get_double(t, 1, shown(t, 3)) == 0.0);
	assert_true(pm_table__get_double(t, 1, shown(t, 1)) == 3.0);
	pm_table__delete(t);
	pm_profileme_acc__delete(acc);

	/*
	 * The ES40 recordings: 644 samples with PM_KILLED_BM and TRP, 10 of
	 * them with MIS. None is a trap or a mispredict.
	 */
	acc = acc_new("alpha", NULL);
	add_n(acc, "f", 0x120000a20ull, 634, TRP | TT(6), KILLED);
	add_n(acc, "f", 0x120000a20ull, 10, TRP | MIS | TT(6), KILLED);
	{
		const struct pm_profileme_row **rows;
		size_t nr, k;

		rows = pm_profileme_acc__rows(acc, 0, &nr);
		assert_int_equal(nr, 1);
		assert_int_equal(rows[0]->samples, 644);
		assert_int_equal(rows[0]->killed, 644);
		assert_int_equal(rows[0]->invalid, 644);
		assert_int_equal(rows[0]->mispredicted, 0);
		for (k = 0; k < PM_TRAP__NR; k++)
			assert_int_equal(rows[0]->traps[k], 0);
		free(rows);
	}
	pm_profileme_acc__delete(acc);
}

static void test_acc_sort_top(void **state)
{
	struct pm_profileme_opts o = { .sort = PM_PROFILEME_SORT_MISPREDICTED };
	struct pm_profileme_acc *acc = acc_new("alpha", &o);
	enum pm_profileme_sort key;
	struct pm_report *rep;
	struct pm_table *t;

	(void)state;
	/* a: 1/10 mispredicted, b: 1/2, c: 1/4, d: 0/20. */
	add_n(acc, "a", 0x120000000ull, 1, TRP | MIS, 0);
	add_n(acc, "a", 0x120000000ull, 9, 0, VAL);
	add_n(acc, "b", 0x120000100ull, 1, TRP | MIS, 0);
	add_n(acc, "b", 0x120000100ull, 1, 0, VAL);
	add_n(acc, "c", 0x120000200ull, 1, TRP | MIS, 0);
	add_n(acc, "c", 0x120000200ull, 3, 0, VAL);
	add_n(acc, "d", 0x120000300ull, 20, 0, VAL);
	/* --top 2: the report keeps two rows of each table. */
	rep = finish(acc);
	pm_report__truncate(rep, 2);
	t = pm_report__table(rep, 0);
	assert_int_equal(pm_table__nr_rows(t), 2);
	assert_string_equal(pm_table__get_str(t, 0, shown(t, 8)), "b");
	assert_string_equal(pm_table__get_str(t, 1, shown(t, 8)), "c");
	pm_report__delete(rep);
	pm_profileme_acc__delete(acc);

	o.sort = PM_PROFILEME_SORT_SAMPLES;
	acc = acc_new("alpha", &o);
	add_n(acc, "a", 0x120000000ull, 2, 0, VAL);
	add_n(acc, "b", 0x120000100ull, 3, 0, VAL);
	add_n(acc, "c", 0x120000200ull, 2, 0, VAL);
	t = pm_profileme_acc__table(acc, 0);
	assert_string_equal(pm_table__get_str(t, 0, shown(t, 8)), "b");
	assert_string_equal(pm_table__get_str(t, 1, shown(t, 8)), "a");
	assert_string_equal(pm_table__get_str(t, 2, shown(t, 8)), "c");
	pm_table__delete(t);
	pm_profileme_acc__delete(acc);

	assert_int_equal(pm_profileme_sort__parse("mispr", &key), 0);
	assert_int_equal(key, PM_PROFILEME_SORT_MISPREDICTED);
	assert_int_equal(pm_profileme_sort__parse("stalled", &key), 0);
	assert_int_equal(key, PM_PROFILEME_SORT_STALLED);
	assert_int_equal(pm_profileme_sort__parse("bogus", &key), -1);
}

static void test_acc_not_alpha(void **state)
{
	struct pm_profileme_acc *acc = acc_new("x86_64", NULL);
	char *got;

	(void)state;
	assert_int_equal(add(acc, HW, "p", "f", 0x120001000ull, 0, VAL),
			 PM_PROFILEME_NOT_ALPHA);
	assert_int_equal(pm_profileme_acc__samples(acc), 0);
	assert_int_equal(pm_profileme_acc__skipped(acc), 1);
	got = render(acc, "text");
	assert_string_equal(got, "0 ProfileMe samples, 1 without ProfileMe data\n");
	free(got);
	got = render(acc, "json");
	assert_string_equal(got, "{\"samples\":0,\"skipped\":1,\"view\":\"symbol\","
			    "\"tables\":[]}\n");
	free(got);
	pm_profileme_acc__delete(acc);
	pm_profileme_acc__delete(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_fields_builder_agrees),
		cmocka_unit_test(test_dump),
		cmocka_unit_test(test_killed_stale_bits),
		cmocka_unit_test(test_redirect_traps),
		cmocka_unit_test(test_trap_names),
		cmocka_unit_test(test_skip_reasons),
		cmocka_unit_test(test_pc_key),
		cmocka_unit_test(test_acc_text),
		cmocka_unit_test(test_acc_json),
		cmocka_unit_test(test_acc_sl1_tables),
		cmocka_unit_test(test_acc_pc_view),
		cmocka_unit_test(test_published_observation),
		cmocka_unit_test(test_acc_sort_top),
		cmocka_unit_test(test_acc_not_alpha),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
