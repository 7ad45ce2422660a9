// SPDX-License-Identifier: GPL-2.0
/*
 * `pmprof profileme`, `pmprof mem` and `pmprof annotate` end to end on
 * fixture recordings written with the fixture kit: an Alpha program's
 * samples in both byte orders, resolved with --symfs against an Alpha ELF.
 * Each command runs in-process; its JSON is compared with a document
 * written out by hand below (every count worked out from the sample list,
 * never from the accumulator).
 *
 * Run as `test-profileme-fixtures --write DIR` it only writes the fixture
 * files into DIR, for the CLI tests (tests/cli/profileme.sh and
 * profileme-bigendian.sh).
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "builtin.h"
#include "fixture/kit.h"
#include "fixture/runcmd.h"
#include "pmprof/util.h"

/* Register bits, from the reference's tables (I_STAT, PCTR_CTL). */
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

/* perf_event_attr.type values */
#define T_HARDWARE	0
#define T_SOFTWARE	1
#define T_TRACEPOINT	2
#define T_RAW		4

#define PID		100
#define PROG		"/bin/prog"
#define MAP_START	0x120000000ull
#define MAP_LEN		0x20000ull
#define TEXT		0x120001000ull
#define TEXT_SIZE	0x12000ull
#define MAIN		0x120001000ull	/* main: 0x100 bytes */
#define LOOP		0x120001100ull	/* loop: 0x100 bytes */
#define TABLE		0x120010000ull	/* data object, 0x1000 bytes */
#define BUFFER		0x120011000ull	/* data object, 0x1000 bytes */
#define KTEXT		0xfffffc0000310000ull
#define PAL(off)	(0x8000ull | (off))	/* PAL bit is in off (0x..1) */

/* The sample type of events with raw data; IDENTIFIER lets the events
 * differ (the software one has no RAW). */
#define ST_BASE	(PM_SAMPLE_IDENTIFIER | PM_SAMPLE_IP | PM_SAMPLE_TID | \
		 PM_SAMPLE_TIME | PM_SAMPLE_CPU | PM_SAMPLE_PERIOD)
#define ST_RAW	(ST_BASE | PM_SAMPLE_RAW)
#define ST_MEM	(ST_BASE | PM_SAMPLE_ADDR | PM_SAMPLE_DATA_SRC)

/* ---- helpers ---------------------------------------------------------- */

static void put_le(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A ProfileMe payload, little endian whatever the recording's order. */
static size_t payload(uint8_t *p, size_t size, uint32_t version,
		      uint64_t pmpc, uint64_t i_stat, uint64_t ctl)
{
	memset(p, 0xee, size);	/* what follows 28 bytes must be ignored */
	put_le(p, version, 4);
	put_le(p + 4, pmpc, 8);
	put_le(p + 12, i_stat, 8);
	put_le(p + 20, ctl, 8);
	return size;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void mkdir_p(const char *dir)
{
	char cmd[1100];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* symfs/bin/prog: an Alpha ELF with two functions, from the kit's own
 * ELF writer (which puts every symbol in .text: no data objects). */
static void write_prog(const char *symfs, uint16_t machine)
{
	static const struct pm_elf_sym syms[] = {
		{ "main", MAIN, 0x100, false, false },
		{ "loop", LOOP, 0x100, false, false },
	};
	struct pm_elf_image elf = {
		.machine = machine,
		.text_addr = TEXT,
		.text_size = TEXT_SIZE,
		.syms = syms,
		.nr_syms = 2,
	};
	char path[512];

	snprintf(path, sizeof(path), "%s/bin", symfs);
	mkdir_p(path);
	snprintf(path, sizeof(path), "%s" PROG, symfs);
	assert_int_equal(pm_kit__write_elf(path, &elf), 0);
}

static void kernel_mmap(struct pm_kit *k)
{
	struct pm_rec_mmap m = {
		.is_mmap2 = false,
		.pid = (uint32_t)-1, .tid = 0,
		.start = 0xfffffc0000300000ull, .len = 0x100000, .pgoff = 0,
		.filename = "[kernel.kallsyms]_text",
	};
	struct pm_error err = { 0 };

	assert_int_equal(pm_writer__mmap(pm_kit__writer(k), PM_MISC_KERNEL, &m,
					 NULL, &err), 0);
}

/* ---- the rules fixture ------------------------------------------------ */

struct pm_s {
	int ev;			/* 0 profileme (RAW), 1 instructions (HW),
				   2 tracepoint, 3 cpu-clock (no RAW) */
	uint64_t ip;
	bool kernel;
	uint32_t version;
	size_t size;		/* payload bytes */
	uint64_t pmpc, i_stat, ctl;
};

/*
 * Every rule once or more. The expected tables (EXPECT_* below) were
 * added up from this list by hand.
 */
static const struct pm_s rules[] = {
	/* main, SL1 0 */
	/* S1: PC with bit 1 set: the row is 0x120001010 */
	{ 0, MAIN + 0x10, false, 1, 28, MAIN + 0x12, 0, VAL | PCTR1(100) },
	/* S2: killed with stale TRP and MIS: killed, invalid, no mispredict */
	{ 0, MAIN + 0x10, false, 1, 28, MAIN + 0x10, TRP | MIS,
	  KILLED | PCTR1(20) },
	/* S3: killed with stale TRP and TRAP_TYPE 6, stalled */
	{ 0, MAIN + 0x14, false, 1, 28, MAIN + 0x14, TRP | TT(6),
	  KILLED | STALLED | PCTR1(4) },
	/* S4: DTB single miss */
	{ 0, MAIN + 0x18, false, 1, 28, MAIN + 0x18, TRP | TT(6), PCTR1(30) },
	/* S5, S6: unnamed trap types 1 and 13: "other"; S6 taken */
	{ 0, MAIN + 0x1c, false, 1, 28, MAIN + 0x1c, TRP | TT(1), PCTR1(10) },
	{ 0, MAIN + 0x1c, false, 1, 28, MAIN + 0x1c, TRP | TT(13),
	  TAK | PCTR1(10) },
	/* S7: a mispredicted taken branch */
	{ 0, MAIN + 0x20, false, 1, 28, MAIN + 0x20, TRP | MIS,
	  TAK | VAL | PCTR1(6) },
	/* S8: version 2, 36 bytes: unaligned trap */
	{ 0, MAIN + 0x24, false, 2, 36, MAIN + 0x24, TRP | TT(5),
	  VAL | SL0 | PCTR1(20) },
	/* loop, SL1 0: PAL redirects at the loop's instructions */
	/* S9: ITB miss redirect, TRP clear, VAL clear: invalid */
	{ 0, LOOP, false, 1, 28, PAL(0x581), 0, PCTR1(1) },
	/* S10: Istream access violation with TRP, MIS, TRAP_TYPE 7 set: the
	 * redirect wins, no mispredict, no dfault */
	{ 0, LOOP, false, 1, 28, PAL(0x481), TRP | MIS | TT(7), PCTR1(2) },
	/* S11: interrupt, VAL clear: invalid */
	{ 0, LOOP, false, 1, 28, PAL(0x681), 0, PCTR1(3) },
	/* S12: a PAL address that is no redirect entry */
	{ 0, LOOP, false, 1, 28, PAL(0x2c1), 0, VAL | PCTR1(4) },
	/* S13: kernel PC */
	{ 0, KTEXT + 0x40, true, 1, 28, KTEXT + 0x40, 0, VAL | PCTR1(8) },
	/* S14-S16: SL1 1, 2, 3 */
	{ 0, MAIN + 0x10, false, 1, 28, MAIN + 0x10, 0, VAL | SL1(1) | PCTR1(7) },
	{ 0, MAIN + 0x10, false, 1, 28, MAIN + 0x10, 0, VAL | SL1(2) | PCTR1(3) },
	{ 0, LOOP + 0x4, false, 1, 28, LOOP + 0x4, TRP | TT(0) | LSO,
	  SL1(3) | PCTR1(9) },
	/* S17-S20: skipped: version 0, 20 bytes, tracepoint, no raw data */
	{ 0, MAIN, false, 0, 28, MAIN, 0, VAL },
	{ 0, MAIN, false, 1, 20, MAIN, 0, VAL },
	{ 2, MAIN, false, 1, 28, MAIN, TRP | TT(6), VAL },
	{ 3, MAIN, false, 0, 0, 0, 0, 0 },
	/* S21: a PERF_TYPE_HARDWARE event counts too */
	{ 1, LOOP + 0x4, false, 1, 28, LOOP + 0x4, 0, TAK | VAL | PCTR1(5) },
};

static void build_rules(const char *path, bool big_endian)
{
	struct pm_kit_opts ko = { .arch = "alpha", .big_endian = big_endian,
				  .path = path };
	struct pm_kit *k = pm_kit__new_opts(&ko);
	uint8_t raw[64];
	size_t i;

	pm_kit__event(k, "cpu/instructions,profileme/", T_RAW, 0x1, ST_RAW, 4000);
	pm_kit__event(k, "instructions", T_HARDWARE, 1, ST_RAW, 4000);
	pm_kit__event(k, "sched:sched_switch", T_TRACEPOINT, 300, ST_RAW, 1);
	pm_kit__event(k, "cpu-clock", T_SOFTWARE, 0, ST_BASE, 4000);
	pm_kit__comm(k, PID, PID, "prog");
	kernel_mmap(k);
	pm_kit__mmap(k, PID, MAP_START, MAP_LEN, 0, PROG);
	for (i = 0; i < PM_ARRAY_SIZE(rules); i++) {
		const struct pm_s *r = &rules[i];
		struct pm_sample s = { 0 };

		s.misc = r->kernel ? PM_MISC_KERNEL : PM_MISC_USER;
		s.ip = r->ip;
		s.pid = s.tid = PID;
		s.time = 1000 + i;
		s.cpu = (uint32_t)(i & 1);	/* both CPUs */
		s.period = 4000;
		s.id = s.identifier = pm_kit__id(k, r->ev);
		if (r->size) {
			s.raw_size = (uint32_t)payload(raw, r->size, r->version,
						       r->pmpc, r->i_stat, r->ctl);
			s.raw = raw;
		}
		pm_kit__sample_full(k, r->ev, &s);
	}
	pm_kit__save(k, NULL);
}

static const char kallsyms[] =
	"fffffc0000310000 T do_page_fault\n"
	"fffffc0000310200 T handle_mm_fault\n";

/*
 * By symbol, SL1 0 (sample's IP):
 *   prog main  S1-S8: 8 samples; killed S2 S3; invalid S2 S3 (S4-S6
 *              trapped, S1 S7 S8 valid); mispredicted S7; taken S6 S7;
 *              stalled S3; pctr1 100+20+4+30+10+10+6+20 = 200 (mean 25);
 *              traps dtb1 (S4), unalign (S8), other 2 (S5 S6).
 *   prog loop  S9-S12, S21: 5 samples; invalid S9 S11; taken S21;
 *              pctr1 1+2+3+4+5 = 15 (mean 3); iacv, itbmiss, intr 1 each.
 *   kernel do_page_fault S13: 1 sample, pctr1 8.
 * SL1 1: main S14 (7). SL1 2: main S15 (3). SL1 3: loop S16: invalid
 * (not trapped? it trapped: TRP, not killed: not invalid), replay 1, 9.
 */
static const char expect_symbol[] =
"{\"samples\": 17, \"skipped\": 4, \"view\": \"symbol\", \"tables\": ["
" {\"sl1\": 0, \"pctr1\": \"cycles\", \"rows\": ["
"  {\"dso\": \"prog\", \"symbol\": \"main\", \"samples\": 8, \"killed\": 2,"
"   \"invalid\": 2, \"mispredicted\": 1, \"taken\": 2, \"stalled\": 1,"
"   \"pctr1_sum\": 200, \"pctr1_mean\": 25.0,"
"   \"traps\": {\"unalign\": 1, \"dtb1\": 1, \"other\": 2}},"
"  {\"dso\": \"prog\", \"symbol\": \"loop\", \"samples\": 5, \"killed\": 0,"
"   \"invalid\": 2, \"mispredicted\": 0, \"taken\": 1, \"stalled\": 0,"
"   \"pctr1_sum\": 15, \"pctr1_mean\": 3.0,"
"   \"traps\": {\"iacv\": 1, \"itbmiss\": 1, \"intr\": 1}},"
"  {\"dso\": \"[kernel.kallsyms]\", \"symbol\": \"do_page_fault\","
"   \"samples\": 1, \"killed\": 0, \"invalid\": 0, \"mispredicted\": 0,"
"   \"taken\": 0, \"stalled\": 0, \"pctr1_sum\": 8, \"pctr1_mean\": 8.0,"
"   \"traps\": {}}]},"
" {\"sl1\": 1, \"pctr1\": \"retire delay\", \"rows\": ["
"  {\"dso\": \"prog\", \"symbol\": \"main\", \"samples\": 1, \"killed\": 0,"
"   \"invalid\": 0, \"mispredicted\": 0, \"taken\": 0, \"stalled\": 0,"
"   \"pctr1_sum\": 7, \"pctr1_mean\": 7.0, \"traps\": {}}]},"
" {\"sl1\": 2, \"pctr1\": \"bcache misses\", \"rows\": ["
"  {\"dso\": \"prog\", \"symbol\": \"main\", \"samples\": 1, \"killed\": 0,"
"   \"invalid\": 0, \"mispredicted\": 0, \"taken\": 0, \"stalled\": 0,"
"   \"pctr1_sum\": 3, \"pctr1_mean\": 3.0, \"traps\": {}}]},"
" {\"sl1\": 3, \"pctr1\": \"mbox replays\", \"rows\": ["
"  {\"dso\": \"prog\", \"symbol\": \"loop\", \"samples\": 1, \"killed\": 0,"
"   \"invalid\": 0, \"mispredicted\": 0, \"taken\": 0, \"stalled\": 0,"
"   \"pctr1_sum\": 9, \"pctr1_mean\": 9.0, \"traps\": {\"replay\": 1}}]}"
"]}";

/* One instruction row of the pc view (dso/symbol null for PAL rows). */
#define PCROW(pc, dso, sym, n, k, inv, mis, tak, st, sum, mean, traps)	\
	"{\"pc\": \"" pc "\", \"dso\": " dso ", \"symbol\": " sym		\
	", \"srcline\": null, \"samples\": " #n ", \"killed\": " #k		\
	", \"invalid\": " #inv ", \"mispredicted\": " #mis ", \"taken\": "	\
	#tak ", \"stalled\": " #st ", \"pctr1_sum\": " #sum			\
	", \"pctr1_mean\": " #mean ", \"traps\": {" traps "}}"

/*
 * By instruction, SL1 0, most samples first, ties in order of first
 * sample: 0x120001010 (S1 S2), 0x12000101c (S5 S6), then one each in
 * file order. PAL rows have no symbol.
 */
static const char expect_pc[] =
"{\"samples\": 17, \"skipped\": 4, \"view\": \"pc\", \"tables\": ["
" {\"sl1\": 0, \"pctr1\": \"cycles\", \"rows\": ["
PCROW("0x0000000120001010", "\"prog\"", "\"main+0x10\"", 2, 1, 1, 0, 0, 0, 120, 60.0, "") ","
PCROW("0x000000012000101c", "\"prog\"", "\"main+0x1c\"", 2, 0, 0, 0, 1, 0, 20, 10.0, "\"other\": 2") ","
PCROW("0x0000000120001014", "\"prog\"", "\"main+0x14\"", 1, 1, 1, 0, 0, 1, 4, 4.0, "") ","
PCROW("0x0000000120001018", "\"prog\"", "\"main+0x18\"", 1, 0, 0, 0, 0, 0, 30, 30.0, "\"dtb1\": 1") ","
PCROW("0x0000000120001020", "\"prog\"", "\"main+0x20\"", 1, 0, 0, 1, 1, 0, 6, 6.0, "") ","
PCROW("0x0000000120001024", "\"prog\"", "\"main+0x24\"", 1, 0, 0, 0, 0, 0, 20, 20.0, "\"unalign\": 1") ","
PCROW("PAL+0x581", "null", "null", 1, 0, 1, 0, 0, 0, 1, 1.0, "\"itbmiss\": 1") ","
PCROW("PAL+0x481", "null", "null", 1, 0, 0, 0, 0, 0, 2, 2.0, "\"iacv\": 1") ","
PCROW("PAL+0x681", "null", "null", 1, 0, 1, 0, 0, 0, 3, 3.0, "\"intr\": 1") ","
PCROW("PAL+0x2c1", "null", "null", 1, 0, 0, 0, 0, 0, 4, 4.0, "") ","
PCROW("0xfffffc0000310040", "\"[kernel.kallsyms]\"", "\"do_page_fault+0x40\"", 1, 0, 0, 0, 0, 0, 8, 8.0, "") ","
PCROW("0x0000000120001104", "\"prog\"", "\"loop+0x4\"", 1, 0, 0, 0, 1, 0, 5, 5.0, "")
"]},"
" {\"sl1\": 1, \"pctr1\": \"retire delay\", \"rows\": ["
PCROW("0x0000000120001010", "\"prog\"", "\"main+0x10\"", 1, 0, 0, 0, 0, 0, 7, 7.0, "") "]},"
" {\"sl1\": 2, \"pctr1\": \"bcache misses\", \"rows\": ["
PCROW("0x0000000120001010", "\"prog\"", "\"main+0x10\"", 1, 0, 0, 0, 0, 0, 3, 3.0, "") "]},"
" {\"sl1\": 3, \"pctr1\": \"mbox replays\", \"rows\": ["
PCROW("0x0000000120001104", "\"prog\"", "\"loop+0x4\"", 1, 0, 0, 0, 0, 0, 9, 9.0, "\"replay\": 1") "]}"
"]}";

/*
 * annotate on the same recording: main's table of SL1 0 has a row per
 * instruction of main (64, 4 bytes each: the kit's text is zeros, which
 * objdump shows as "halt"); the sampled ones carry the status worked out
 * for the pc view above (same samples, at the same PCs, as rates of the
 * row's samples), and its period: 4000 a sample, of main's 8 * 4000.
 */
struct an_row {
	uint64_t pc;
	unsigned samples;
	double killed, invalid, mispr, taken, stall, pctr1;
	const char *traps;
};

static const struct an_row expect_annotate_main[] = {
	{ MAIN + 0x10, 2, 50.0, 50.0, 0.0, 0.0, 0.0, 60.0, "" },
	{ MAIN + 0x14, 1, 100.0, 100.0, 0.0, 0.0, 100.0, 4.0, "" },
	{ MAIN + 0x18, 1, 0.0, 0.0, 0.0, 0.0, 0.0, 30.0, "dtb1=1" },
	{ MAIN + 0x1c, 2, 0.0, 0.0, 0.0, 50.0, 0.0, 10.0, "other=2" },
	{ MAIN + 0x20, 1, 0.0, 0.0, 100.0, 100.0, 0.0, 6.0, "" },
	{ MAIN + 0x24, 1, 0.0, 0.0, 0.0, 0.0, 0.0, 20.0, "unalign=1" },
};

/*
 * The tables, most samples first (ties: event, DSO, symbol, SL1): the
 * profileme event's main SL1 0 (S1-S8), its main without ProfileMe data
 * (S17 S18: version 0, 20 bytes), then one sample each: its loop SL1 3
 * (S16), its main SL1 1 and 2 (S14 S15), do_page_fault (S13), the
 * instructions event's loop (S21), the tracepoint's main (S19) and
 * cpu-clock's main (S20). S9-S12 are at PAL addresses: in no function.
 */
static const char *const expect_annotate_tables[] = {
	"cpu/instructions,profileme/ prog main 0 8",
	"cpu/instructions,profileme/ prog main -1 2",
	"cpu/instructions,profileme/ [kernel.kallsyms] do_page_fault 0 1",
	"cpu/instructions,profileme/ prog loop 3 1",
	"cpu/instructions,profileme/ prog main 1 1",
	"cpu/instructions,profileme/ prog main 2 1",
	"instructions prog loop 0 1",
	"sched:sched_switch prog main -1 1",
	"cpu-clock prog main -1 1",
};

/* ---- the memory fixture ----------------------------------------------- */

/* data_src fields, from the uapi layout (shifts 0, 5, 19, 24, 26, 33, 37,
 * 38, 40, 43) and values. */
#define D_OP(v)		((uint64_t)(v))
#define D_LVL(v)	((uint64_t)(v) << 5)
#define D_SNOOP(v)	((uint64_t)(v) << 19)
#define D_LOCK(v)	((uint64_t)(v) << 24)
#define D_TLB(v)	((uint64_t)(v) << 26)
#define D_LVLNUM(v)	((uint64_t)(v) << 33)
#define D_REMOTE	(1ull << 37)
#define D_BLK(v)	((uint64_t)(v) << 40)
#define D_HOPS(v)	((uint64_t)(v) << 43)
/* Alpha's, as the kernel series reports them: op and DTB hit/miss only. */
#define ALPHA_LD_HIT	(D_OP(0x02) | D_LVL(0x01) | D_SNOOP(0x01) | \
			 D_LOCK(0x01) | D_TLB(0x02) | D_BLK(0x01))
#define ALPHA_LD_MISS	(D_OP(0x02) | D_LVL(0x01) | D_SNOOP(0x01) | \
			 D_LOCK(0x01) | D_TLB(0x04) | D_BLK(0x01))
#define ALPHA_ST_HIT	(D_OP(0x04) | D_LVL(0x01) | D_SNOOP(0x01) | \
			 D_LOCK(0x01) | D_TLB(0x02) | D_BLK(0x01))
#define ALPHA_PF	(D_OP(0x08) | D_LVL(0x01) | D_SNOOP(0x01) | \
			 D_LOCK(0x01) | D_TLB(0x01) | D_BLK(0x01))
/* An x86-style one: L3 hit, HitM, locked, L1 or L2 TLB hit, remote. */
#define X86_LD_L3	(D_OP(0x02) | D_LVL(0x02 | 0x40) | D_SNOOP(0x10) | \
			 D_LOCK(0x02) | D_TLB(0x02 | 0x08 | 0x10) | \
			 D_LVLNUM(0x03) | D_REMOTE | D_BLK(0x01) | D_HOPS(0x02))

/* ---- compiled programs: real data objects, DWARF lines, branches ----- */

/*
 * The kit's ELF writer has no data section, so the memory view and the
 * branch fixture use programs compiled for the target: Alpha with the
 * Debian cross compiler, x86-64 with the host's. -Wl,-N links one
 * segment (vaddr - offset constant), so one MMAP covers code and data.
 * -fno-if-conversion keeps the data-dependent branch a branch.
 */
static const char prog_src[] =
	"long table[512] = { 1 };\n"
	"long buffer[512] = { 2 };\n"
	"__attribute__((noinline)) long loop(long n)\n"
	"{\n"
	"\tlong s = 0;\n"
	"\tfor (long i = 0; i < n; i++)\n"
	"\t\ts += table[i & 511] + buffer[(i * 7) & 511];\n"
	"\treturn s;\n"
	"}\n"
	"__attribute__((noinline)) long count(const unsigned char *d, long n)\n"
	"{\n"
	"\tlong sum = 0;\n"
	"\tfor (long i = 0; i < n; i++)\n"
	"\t\tif (d[i] < 47)\n"			/* line 14 */
	"\t\t\tsum += d[i] * 3;\n"
	"\treturn sum;\n"
	"}\n"
	"__attribute__((noinline)) long main(void)\n"
	"{\n"
	"\treturn loop(1000) + count((const unsigned char *)buffer, 4096) + table[3];\n"
	"}\n"
	"void _start(void)\n"
	"{\n"
	"\tbuffer[0] = main();\n"
	"\tfor (;;)\n"
	"\t\t;\n"
	"}\n";

struct prog {
	bool alpha;
	uint64_t main, loop, count, table, buffer;
	uint64_t branch;	/* count's data-dependent conditional branch */
	char srcline[128];	/* the branch's file:line, from addr2line */
};

static int sh(const char *cmd, char *out, size_t size)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0;

	if (!p)
		return -1;
	if (out) {
		n = fread(out, 1, size - 1, p);
		out[n] = '\0';
	}
	return pclose(p) == 0 ? 0 : -1;
}

static bool have_tool(const char *tool)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

/*
 * symfs/bin/prog from prog_src, and its addresses from binutils (nm,
 * objdump, addr2line of the target): nothing from pmprof. Returns false
 * when the compiler is missing.
 */
static bool build_prog(const char *symfs, bool alpha, struct prog *pr)
{
	const char *cc = alpha ? PM_KIT_ALPHA_GCC : "cc";
	const char *nm = alpha ? PM_KIT_ALPHA_NM : "nm";
	const char *objdump = alpha ? "alpha-linux-gnu-objdump" : "objdump";
	const char *a2l = alpha ? "alpha-linux-gnu-addr2line" : "addr2line";
	char src[600], bin[600], cmd[2048], out[8192], *l, *base;
	FILE *f;

	if (!have_tool(cc) || !have_tool(objdump) || !have_tool(a2l))
		return false;
	memset(pr, 0, sizeof(*pr));
	pr->alpha = alpha;
	snprintf(bin, sizeof(bin), "%s/bin", symfs);
	mkdir_p(bin);
	snprintf(src, sizeof(src), "%s/prog.c", symfs);
	f = fopen(src, "w");
	assert_non_null(f);
	fputs(prog_src, f);
	assert_int_equal(fclose(f), 0);
	snprintf(bin, sizeof(bin), "%s" PROG, symfs);
	snprintf(cmd, sizeof(cmd),
		 "%s -O1 -g -fno-if-conversion -fno-if-conversion2 "
		 "-ffreestanding -nostdlib -static %s -Wl,-N -o '%s' '%s' 2>/dev/null",
		 cc, alpha ? "" : "-no-pie -fno-pic", bin, src);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(pm_kit__nm(nm, bin, "main", &pr->main), 0);
	assert_int_equal(pm_kit__nm(nm, bin, "loop", &pr->loop), 0);
	assert_int_equal(pm_kit__nm(nm, bin, "count", &pr->count), 0);
	assert_int_equal(pm_kit__nm(nm, bin, "table", &pr->table), 0);
	assert_int_equal(pm_kit__nm(nm, bin, "buffer", &pr->buffer), 0);
	if (!alpha)
		return true;
	/* The branch: the conditional branch right after the compare
	 * with 46 (d[i] < 47 is d[i] <= 0x2e). */
	snprintf(cmd, sizeof(cmd), "%s -d --no-show-raw-insn '%s' | "
		 "sed -n '/<count>:/,/^$/p' | grep -A1 ',0x2e,' | tail -1",
		 objdump, bin);
	assert_int_equal(sh(cmd, out, sizeof(out)), 0);
	assert_int_equal(sscanf(out, " %" SCNx64 ":", &pr->branch), 1);
	assert_true(strstr(out, "beq") || strstr(out, "bne"));
	snprintf(cmd, sizeof(cmd), "%s -e '%s' 0x%" PRIx64, a2l, bin, pr->branch);
	assert_int_equal(sh(cmd, out, sizeof(out)), 0);
	l = strtok(out, " \n");		/* drops " (discriminator N)" */
	assert_non_null(l);
	base = strrchr(l, '/');
	snprintf(pr->srcline, sizeof(pr->srcline), "%s", base ? base + 1 : l);
	assert_string_equal(pr->srcline, "prog.c:14");
	return true;
}

/* ---- the memory fixture, on a compiled program ------------------------ */

struct mem_s {
	bool has_src;
	int fn;			/* 0 main, 1 loop */
	int obj;		/* 0 table, 1 buffer, -1 unmapped */
	uint64_t off, src;
};

static const struct mem_s mem_samples[] = {
	{ true, 0, 0, 0x40, ALPHA_LD_HIT },	/* M1 */
	{ true, 0, 0, 0x80, ALPHA_LD_HIT },	/* M2: M1's row */
	{ true, 0, 1, 0x8, ALPHA_LD_MISS },	/* M3 */
	{ true, 1, -1, 0, ALPHA_ST_HIT },	/* M4: no map */
	{ true, 1, 0, 0, ALPHA_PF },		/* M5 */
	{ true, 1, 0, 0x10, ALPHA_PF },		/* M6: M5's row */
	{ true, 1, 0, 0x20, ALPHA_PF },		/* M7: M5's row */
	{ true, 0, 1, 0x100, X86_LD_L3 },	/* M8 */
	{ false, 0, 0, 0, 0 },			/* M9: skipped */
	/* M10, M11: a data source that says nothing, the kernel's
	 * PERF_MEM_NA (op, lvl, snoop, lock, tlb NA) and a plain 0: counted
	 * apart ("na"), neither a row nor in the shares */
	{ true, 0, 0, 0x40, 0x5080021 },
	{ true, 1, 0, 0x40, 0 },
};

static void build_mem(const char *path, const char *arch, bool big_endian,
		      const struct prog *pr)
{
	struct pm_kit_opts ko = { .arch = arch, .big_endian = big_endian,
				  .path = path };
	struct pm_kit *k = pm_kit__new_opts(&ko);
	size_t i;

	pm_kit__event(k, "cpu/cycles,profileme/", T_RAW, 0x2, ST_MEM, 4000);
	pm_kit__event(k, "cpu-clock", T_SOFTWARE, 0, ST_BASE, 4000);
	pm_kit__comm(k, PID, PID, "prog");
	/* Both programs link at a page boundary with file offset 0. */
	pm_kit__mmap(k, PID, pr->main & ~0xfffffull, 0x100000, 0, PROG);
	for (i = 0; i < PM_ARRAY_SIZE(mem_samples); i++) {
		const struct mem_s *m = &mem_samples[i];
		int ev = m->has_src ? 0 : 1;
		struct pm_sample s = { 0 };

		s.misc = PM_MISC_USER;
		s.ip = m->fn ? pr->loop : pr->main;
		s.pid = s.tid = PID;
		s.time = 1000 + i;
		s.cpu = (uint32_t)(i & 1);
		s.period = 4000;
		s.addr = m->obj < 0 ? 0x7ff000001000ull :
			 (m->obj ? pr->buffer : pr->table) + m->off;
		s.data_src = m->src;
		s.id = s.identifier = pm_kit__id(k, ev);
		pm_kit__sample_full(k, ev, &s);
	}
	pm_kit__save(k, NULL);
}

/* The Alpha fields: perf's names for NA level, snoop, lock, blk. */
#define ALPHA_FIELDS(op, tlb, dtlb)						\
	"\"op\": \"" op "\", \"tlb\": \"" tlb "\", \"dtlb\": \"" dtlb "\","	\
	" \"level\": \"N/A\", \"lvl_num\": null, \"snoop\": \"N/A\","		\
	" \"lock\": \"N/A\", \"blk\": \"N/A\", \"hops\": null,"		\
	" \"remote\": false"

/*
 * Rows, most samples first, ties by first sample: M5-M7 (3), M1-M2 (2),
 * M3, M4, M8. 8 samples: shares 37.5, 25, 12.5 each.
 */
static const char expect_mem[] =
"{\"samples\": 8, \"skipped\": 1, \"na\": 2, \"rows\": ["
" {\"dso\": \"prog\", \"symbol\": \"loop\", \"samples\": 3, \"share\": 37.5,"
"  \"data_src\": \"0x10005080028\", " ALPHA_FIELDS("prefetch", "N/A", "N/A") ","
"  \"data_dso\": \"prog\", \"data_symbol\": \"table\"},"
" {\"dso\": \"prog\", \"symbol\": \"main\", \"samples\": 2, \"share\": 25.0,"
"  \"data_src\": \"0x10009080022\", " ALPHA_FIELDS("load", "hit", "N/A hit") ","
"  \"data_dso\": \"prog\", \"data_symbol\": \"table\"},"
" {\"dso\": \"prog\", \"symbol\": \"main\", \"samples\": 1, \"share\": 12.5,"
"  \"data_src\": \"0x10011080022\", " ALPHA_FIELDS("load", "miss", "N/A miss") ","
"  \"data_dso\": \"prog\", \"data_symbol\": \"buffer\"},"
" {\"dso\": \"prog\", \"symbol\": \"loop\", \"samples\": 1, \"share\": 12.5,"
"  \"data_src\": \"0x10009080024\", " ALPHA_FIELDS("store", "hit", "N/A hit") ","
"  \"data_dso\": null, \"data_symbol\": null},"
" {\"dso\": \"prog\", \"symbol\": \"main\", \"samples\": 1, \"share\": 12.5,"
"  \"data_src\": \"0x11266a800842\", \"op\": \"load\", \"tlb\": \"hit\","
"  \"dtlb\": \"L1 or L2 hit\", \"level\": \"Remote node, same socket L3 hit\","
"  \"lvl_num\": \"L3\", \"snoop\": \"HitM\", \"lock\": \"Yes\","
"  \"blk\": \"N/A\", \"hops\": \"node, same socket\", \"remote\": true,"
"  \"data_dso\": \"prog\", \"data_symbol\": \"buffer\"}"
"]}";

/* ---- running a command in-process -------------------------------------- */

/* Run cmd with argv (NULL-terminated), stdout to a file; its JSON. */
static json_t *run_json(int (*cmd)(int, const char **), const char **argv)
{
	return pm_test__run_json(cmd, argv, JSON_DECODE_INT_AS_REAL);
}

static void assert_json_eq(json_t *got, const char *expect)
{
	json_error_t jerr;
	json_t *want = json_loads(expect, JSON_DECODE_INT_AS_REAL, &jerr);
	char *a, *b;

	if (!want)
		fail_msg("expected JSON: %s at %d", jerr.text, jerr.position);
	if (!json_equal(got, want)) {
		a = json_dumps(got, JSON_INDENT(1) | JSON_SORT_KEYS);
		b = json_dumps(want, JSON_INDENT(1) | JSON_SORT_KEYS);
		print_message("got:\n%s\nwant:\n%s\n", a, b);
		free(a);
		free(b);
		fail();
	}
	json_decref(want);
}

struct dirs {
	char root[64];
	char symfs[128], kallsyms[128], data[128];
};

static void make_root(struct dirs *d)
{
	strcpy(d->root, "/tmp/pmprof-pmfix-XXXXXX");
	assert_non_null(mkdtemp(d->root));
	snprintf(d->symfs, sizeof(d->symfs), "%s/symfs", d->root);
	snprintf(d->kallsyms, sizeof(d->kallsyms), "%s/kallsyms", d->root);
	snprintf(d->data, sizeof(d->data), "%s/perf.data", d->root);
}

static void rm_root(struct dirs *d)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->root);
	assert_int_equal(system(cmd), 0);
}

static void rules_case(bool big_endian, bool by_pc)
{
	struct dirs d;
	json_t *doc;

	make_root(&d);
	write_prog(d.symfs, PM_KIT_EM_ALPHA);
	write_file(d.kallsyms, kallsyms);
	build_rules(d.data, big_endian);
	{
		const char *argv[] = { "profileme", "-i", d.data, "--symfs",
				       d.symfs, "--kallsyms", d.kallsyms,
				       "--format", "json", by_pc ? "--pc" : NULL,
				       NULL };

		doc = run_json(cmd_profileme, argv);
	}
	assert_json_eq(doc, by_pc ? expect_pc : expect_symbol);
	json_decref(doc);
	rm_root(&d);
}

static void test_rules_le_symbol(void **state) { (void)state; rules_case(false, false); }
static void test_rules_be_symbol(void **state) { (void)state; rules_case(true, false); }
static void test_rules_le_pc(void **state) { (void)state; rules_case(false, true); }
static void test_rules_be_pc(void **state) { (void)state; rules_case(true, true); }

static void mem_case(bool alpha, bool big_endian)
{
	struct prog pr;
	struct dirs d;
	json_t *doc;

	make_root(&d);
	if (!build_prog(d.symfs, alpha, &pr)) {
		rm_root(&d);
		skip();	/* scripts/deps.sh installs gcc-12-alpha-linux-gnu */
	}
	build_mem(d.data, alpha ? "alpha" : "x86_64", big_endian, &pr);
	{
		const char *argv[] = { "mem", "-i", d.data, "--symfs", d.symfs,
				       "--format", "json", NULL };

		doc = run_json(cmd_mem, argv);
	}
	assert_json_eq(doc, expect_mem);
	json_decref(doc);
	rm_root(&d);
}

static void test_mem_alpha_le(void **state) { (void)state; mem_case(true, false); }
static void test_mem_alpha_be(void **state) { (void)state; mem_case(true, true); }
static void test_mem_x86(void **state) { (void)state; mem_case(false, false); }

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	assert_non_null(v);
	return json_number_value(v);
}

static void annotate_case(bool big_endian)
{
	struct dirs d;
	json_t *doc, *fns, *fn, *rows, *r;
	char line[160], pc[32];
	size_t i, j, n, sampled = 0;

	make_root(&d);
	write_prog(d.symfs, PM_KIT_EM_ALPHA);
	write_file(d.kallsyms, kallsyms);
	build_rules(d.data, big_endian);
	{
		const char *argv[] = { "annotate", "-i", d.data, "--symfs",
				       d.symfs, "--kallsyms", d.kallsyms,
				       "--format", "json", NULL };

		doc = run_json(cmd_annotate, argv);
	}
	assert_int_equal((uint64_t)num(doc, "samples"), PM_ARRAY_SIZE(rules));
	assert_int_equal((uint64_t)num(doc, "pal"), 4);
	assert_int_equal((uint64_t)num(doc, "profileme"), 17);
	fns = json_object_get(doc, "functions");
	assert_int_equal(json_array_size(fns), PM_ARRAY_SIZE(expect_annotate_tables));
	for (i = 0; i < json_array_size(fns); i++) {
		json_t *sl1;

		fn = json_array_get(fns, i);
		sl1 = json_object_get(fn, "sl1");
		snprintf(line, sizeof(line), "%s %s %s %d %u",
			 json_string_value(json_object_get(fn, "event")),
			 json_string_value(json_object_get(fn, "dso")),
			 json_string_value(json_object_get(fn, "symbol")),
			 json_is_null(sl1) ? -1 : (int)json_number_value(sl1),
			 (unsigned)num(fn, "samples"));
		assert_string_equal(line, expect_annotate_tables[i]);
	}
	/* main, SL1 0: every instruction, the sampled ones as worked out */
	fn = json_array_get(fns, 0);
	assert_string_equal(json_string_value(json_object_get(fn, "pctr1")), "cycles");
	rows = json_object_get(fn, "rows");
	assert_int_equal(json_array_size(rows), 0x100 / 4);
	for (j = 0; j < json_array_size(rows); j++) {
		const struct an_row *e = NULL;

		r = json_array_get(rows, j);
		snprintf(pc, sizeof(pc), "0x%016" PRIx64, (uint64_t)(MAIN + 4 * j));
		assert_string_equal(json_string_value(json_object_get(r, "address")), pc);
		assert_string_equal(json_string_value(json_object_get(r, "code")), "halt");
		for (n = 0; n < PM_ARRAY_SIZE(expect_annotate_main); n++)
			if (expect_annotate_main[n].pc == MAIN + 4 * j)
				e = &expect_annotate_main[n];
		if (!e) {
			assert_int_equal((uint64_t)num(r, "samples"), 0);
			assert_true(json_is_null(json_object_get(r, "killed_pct")));
			continue;
		}
		sampled++;
		assert_int_equal((uint64_t)num(r, "samples"), e->samples);
		assert_int_equal((uint64_t)num(r, "period"), 4000 * e->samples);
		assert_true(num(r, "percent") == 100.0 * e->samples / 8);
		assert_true(num(r, "killed_pct") == e->killed);
		assert_true(num(r, "invalid_pct") == e->invalid);
		assert_true(num(r, "mispredicted_pct") == e->mispr);
		assert_true(num(r, "taken_pct") == e->taken);
		assert_true(num(r, "stalled_pct") == e->stall);
		assert_true(num(r, "pctr1_mean") == e->pctr1);
		assert_string_equal(json_string_value(json_object_get(r, "traps")),
				    e->traps);
	}
	assert_int_equal(sampled, PM_ARRAY_SIZE(expect_annotate_main));
	json_decref(doc);
	rm_root(&d);
}

static void test_annotate_le(void **state) { (void)state; annotate_case(false); }
static void test_annotate_be(void **state) { (void)state; annotate_case(true); }

/* ---- the published observation: 21% mispredicted, sorted 0% ----------- */

#define BR_N		65536
#define BR_PERIOD	37
#define BR_LIMIT	47	/* the source's d[i] < 47 */

struct branch_sim {
	uint64_t samples, mispredicted, taken;
};

/*
 * A loop whose branch tests random bytes (or the same bytes sorted), run
 * through a 2-bit saturating counter, the textbook predictor; every
 * BR_PERIOD-th execution of the branch is a ProfileMe sample of it: TAK
 * when taken, TRP and MIS when the prediction was wrong. The branch is
 * `beq` to skip the body, so it is taken when d[i] >= 47. The sums here
 * are the test's expected values.
 */
static void build_branch(const char *path, bool big_endian,
			 const struct prog *pr, bool sorted,
			 struct branch_sim *sim)
{
	struct pm_kit_opts ko = { .arch = "alpha", .big_endian = big_endian,
				  .path = path };
	struct pm_kit *k = pm_kit__new_opts(&ko);
	static uint8_t data[BR_N];
	uint64_t x = 88172645463325252ull, hist[256] = { 0 };
	unsigned ctr = 2;
	uint8_t raw[28];
	size_t i, j, n;

	for (i = 0; i < BR_N; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		data[i] = (uint8_t)(x >> 56);
	}
	if (sorted) {
		for (i = 0; i < BR_N; i++)
			hist[data[i]]++;
		for (i = 0, n = 0; i < 256; i++)
			for (j = 0; j < hist[i]; j++)
				data[n++] = (uint8_t)i;
	}
	memset(sim, 0, sizeof(*sim));
	pm_kit__event(k, "cpu/instructions,profileme/", T_RAW, 0x1, ST_RAW, BR_PERIOD);
	pm_kit__comm(k, PID, PID, "prog");
	pm_kit__mmap(k, PID, pr->main & ~0xfffffull, 0x100000, 0, PROG);
	for (i = 0; i < BR_N; i++) {
		bool taken = data[i] >= BR_LIMIT, predicted = ctr >= 2;
		bool mis = taken != predicted;

		if (i % BR_PERIOD == BR_PERIOD - 1) {
			struct pm_sample s = { 0 };

			s.misc = PM_MISC_USER;
			s.ip = pr->branch;
			s.pid = s.tid = PID;
			s.time = 1000 + i;
			s.cpu = (uint32_t)(i / BR_PERIOD) & 1;
			s.period = BR_PERIOD;
			s.id = s.identifier = pm_kit__id(k, 0);
			s.raw_size = (uint32_t)payload(raw, 28, 1, pr->branch,
						       mis ? TRP | MIS : 0,
						       VAL | (taken ? TAK : 0) |
						       PCTR1(mis ? 20 : 4));
			s.raw = raw;
			pm_kit__sample_full(k, 0, &s);
			sim->samples++;
			sim->mispredicted += mis;
			sim->taken += taken;
		}
		if (taken)
			ctr = ctr < 3 ? ctr + 1 : 3;
		else
			ctr = ctr > 0 ? ctr - 1 : 0;
	}
	pm_kit__save(k, NULL);
}

static void branch_case(bool sorted, bool big_endian)
{
	struct branch_sim sim;
	struct prog pr;
	struct dirs d;
	json_t *doc, *row;
	char pc[32], sym[64];
	double pct;

	make_root(&d);
	if (!build_prog(d.symfs, true, &pr)) {
		rm_root(&d);
		skip();
	}
	build_branch(d.data, big_endian, &pr, sorted, &sim);
	{
		const char *argv[] = { "profileme", "-i", d.data, "--symfs",
				       d.symfs, "--pc", "--format", "json", NULL };

		doc = run_json(cmd_profileme, argv);
	}
	assert_int_equal((uint64_t)json_number_value(json_object_get(doc, "samples")),
			 sim.samples);
	assert_int_equal(json_array_size(json_object_get(doc, "tables")), 1);
	row = json_array_get(json_object_get(json_array_get(
		json_object_get(doc, "tables"), 0), "rows"), 0);
	snprintf(pc, sizeof(pc), "0x%016" PRIx64, pr.branch);
	snprintf(sym, sizeof(sym), "count+0x%" PRIx64, pr.branch - pr.count);
	assert_string_equal(json_string_value(json_object_get(row, "pc")), pc);
	assert_string_equal(json_string_value(json_object_get(row, "symbol")), sym);
	assert_string_equal(json_string_value(json_object_get(row, "srcline")),
			    pr.srcline);
	assert_int_equal((uint64_t)json_number_value(json_object_get(row, "samples")),
			 sim.samples);
	assert_int_equal((uint64_t)json_number_value(json_object_get(row, "mispredicted")),
			 sim.mispredicted);
	assert_int_equal((uint64_t)json_number_value(json_object_get(row, "taken")),
			 sim.taken);
	/* The observation itself: about 21% on random data, 0% sorted. */
	pct = 100.0 * (double)sim.mispredicted / (double)sim.samples;
	if (sorted)
		assert_true(sim.mispredicted == 0);
	else
		assert_true(pct > 20.0 && pct < 22.5);
	json_decref(doc);
	rm_root(&d);
}

static void test_branch_random(void **state) { (void)state; branch_case(false, false); }
static void test_branch_sorted(void **state) { (void)state; branch_case(true, false); }
static void test_branch_random_be(void **state) { (void)state; branch_case(false, true); }

/* ---- --write DIR -------------------------------------------------------- */

static int write_fixtures(const char *dir)
{
	struct branch_sim sim;
	struct prog pa, px;
	char p[512], q[512];

	mkdir_p(dir);
	snprintf(p, sizeof(p), "%s/symfs-alpha", dir);
	write_prog(p, PM_KIT_EM_ALPHA);
	snprintf(p, sizeof(p), "%s/kallsyms", dir);
	write_file(p, kallsyms);
	snprintf(p, sizeof(p), "%s/rules-le.data", dir);
	build_rules(p, false);
	snprintf(p, sizeof(p), "%s/rules-be.data", dir);
	build_rules(p, true);
	snprintf(p, sizeof(p), "%s/expect-symbol.json", dir);
	write_file(p, expect_symbol);
	snprintf(p, sizeof(p), "%s/expect-pc.json", dir);
	write_file(p, expect_pc);
	snprintf(p, sizeof(p), "%s/expect-mem.json", dir);
	write_file(p, expect_mem);
	snprintf(p, sizeof(p), "%s/symfs-x86", dir);
	if (build_prog(p, false, &px)) {
		snprintf(p, sizeof(p), "%s/mem-x86.data", dir);
		build_mem(p, "x86_64", false, &px);
	}
	snprintf(p, sizeof(p), "%s/symfs-prog", dir);
	if (build_prog(p, true, &pa)) {
		snprintf(p, sizeof(p), "%s/mem-alpha-le.data", dir);
		build_mem(p, "alpha", false, &pa);
		snprintf(p, sizeof(p), "%s/mem-alpha-be.data", dir);
		build_mem(p, "alpha", true, &pa);
		snprintf(p, sizeof(p), "%s/branch-random.data", dir);
		build_branch(p, false, &pa, false, &sim);
		snprintf(q, sizeof(q), "%s/branch-random.expect", dir);
		snprintf(p, sizeof(p), "0x%016" PRIx64 " %" PRIu64 " %" PRIu64
			 " %" PRIu64 "\n", pa.branch, sim.samples,
			 sim.mispredicted, sim.taken);
		write_file(q, p);
		snprintf(p, sizeof(p), "%s/branch-sorted.data", dir);
		build_branch(p, true, &pa, true, &sim);
		snprintf(q, sizeof(q), "%s/branch-sorted.expect", dir);
		snprintf(p, sizeof(p), "0x%016" PRIx64 " %" PRIu64 " %" PRIu64
			 " %" PRIu64 "\n", pa.branch, sim.samples,
			 sim.mispredicted, sim.taken);
		write_file(q, p);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_le_symbol),
		cmocka_unit_test(test_rules_be_symbol),
		cmocka_unit_test(test_rules_le_pc),
		cmocka_unit_test(test_rules_be_pc),
		cmocka_unit_test(test_annotate_le),
		cmocka_unit_test(test_annotate_be),
		cmocka_unit_test(test_mem_alpha_le),
		cmocka_unit_test(test_mem_alpha_be),
		cmocka_unit_test(test_mem_x86),
		cmocka_unit_test(test_branch_random),
		cmocka_unit_test(test_branch_sorted),
		cmocka_unit_test(test_branch_random_be),
	};

	if (argc == 3 && !strcmp(argv[1], "--write"))
		return write_fixtures(argv[2]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
