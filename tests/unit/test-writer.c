// SPDX-License-Identifier: GPL-2.0
/*
 * The writer, byte by byte. Expected records are written down here as
 * field lists ({width, value}) straight from the format reference and
 * encoded by this file's own ten-line encoder in either byte order, or
 * as literal hex; they never come from the writer's code.
 *
 * With PMPROF_WRITER_OUT=DIR set, test_oracle_files also leaves files
 * for tests/cli/writer-perf.sh to feed to perf.
 */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixture/kit.h"
#include "pmprof/bytes.h"
#include "pmprof/perfdata.h"
#include "pmprof/writer.h"

/* ---- this file's own encoder for expected bytes --------------------- */

struct fld {
	int w;			/* 1, 2, 4, 8; 0: raw bytes s, n of them */
	uint64_t v;
	const char *s;
	size_t n;
};

#define Q(x) { 8, (uint64_t)(x), NULL, 0 }
#define L(x) { 4, (uint64_t)(x), NULL, 0 }
#define W(x) { 2, (uint64_t)(x), NULL, 0 }
#define B(x) { 1, (uint64_t)(x), NULL, 0 }
#define STR(str, len) { 0, 0, (str), (len) }
#define END { -1, 0, NULL, 0 }

static size_t encode(const struct fld *f, bool big, uint8_t *out)
{
	size_t n = 0;
	int i;

	for (; f->w >= 0; f++) {
		if (!f->w) {
			memset(out + n, 0, f->n);
			memcpy(out + n, f->s, strnlen(f->s, f->n));
			n += f->n;
			continue;
		}
		for (i = 0; i < f->w; i++)	/* byte i of the value */
			out[n + (big ? f->w - 1 - i : i)] = (uint8_t)(f->v >> (8 * i));
		n += f->w;
	}
	return n;
}

static void hexdump(const char *what, const uint8_t *p, size_t n)
{
	size_t i;

	fprintf(stderr, "%s:", what);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s%02x", i % 16 ? " " : "\n  ", p[i]);
	fprintf(stderr, "\n");
}

static void assert_bytes(const uint8_t *want, size_t wn, const uint8_t *got,
			 size_t gn)
{
	if (wn != gn || memcmp(want, got, wn)) {
		hexdump("expected", want, wn);
		hexdump("written", got, gn);
		fail_msg("bytes differ (%zu expected, %zu written)", wn, gn);
	}
}

static uint8_t *unhex(const char *s, size_t *len)
{
	uint8_t *out = malloc(strlen(s) / 2 + 1);
	size_t n = 0;
	unsigned int v;

	while (*s) {
		if (*s == ' ' || *s == '\n') {
			s++;
			continue;
		}
		assert_int_equal(sscanf(s, "%2x", &v), 1);
		out[n++] = (uint8_t)v;
		s += 2;
	}
	*len = n;
	return out;
}

/* ---- writing one record ------------------------------------------- */

static struct pm_writer *mem_writer(bool big, bool pipe, uint32_t attr_size)
{
	struct pm_writer_opts o = { .sz = sizeof(o), .pipe = pipe,
				    .attr_size = attr_size,
				    .order = big ? PM_ORDER_BIG : PM_ORDER_LITTLE };
	struct pm_error err = { 0 };
	struct pm_writer *w;

	assert_int_equal(pm_writer__open_mem(&w, &o, &err), 0);
	return w;
}

static struct pm_event one_event(uint64_t sample_type, uint64_t read_format)
{
	static uint64_t ids[] = { 77 };
	struct pm_event e = { 0 };

	e.attr.type = PM_TYPE_SOFTWARE;
	e.attr.sample_type = sample_type;
	e.attr.read_format = read_format;
	e.attr.sample_period = 1000;
	e.attr.flags = 1ULL << PM_ATTR_SAMPLE_ID_ALL;
	e.ids = ids;
	e.nr_ids = 1;
	return e;
}

/* Close the writer; the data section's bytes (from the file header). */
static uint8_t *data_of(struct pm_writer *w, bool big, size_t *len)
{
	struct pm_error err = { 0 };
	bool swap = big != PM_HOST_BIG_ENDIAN;
	uint8_t *buf, *out;
	size_t n;
	uint64_t off, size;

	assert_int_equal(pm_writer__close_mem(w, (void **)&buf, &n, &err), 0);
	assert_true(n >= 104);
	off = pm_load64(buf + 40, swap);
	size = pm_load64(buf + 48, swap);
	assert_true(off + size <= n);
	out = malloc(size + 1);
	memcpy(out, buf + off, size);
	free(buf);
	*len = size;
	return out;
}

/* ---- records ---------------------------------------------------------- */

/* COMM of pid 0x1234, tid 0x1235, "ab", trailer {TID 1/2, TIME}. */
static void test_comm_literal(void **state)
{
	static const char le[] =
		"03000000 0000 2800 34120000 35120000 6162000000000000"
		"01000000 02000000 0807060504030201";
	static const char be[] =
		"00000003 0000 0028 00001234 00001235 6162000000000000"
		"00000001 00000002 0102030405060708";
	struct pm_rec_comm c = { .pid = 0x1234, .tid = 0x1235, .comm = "ab" };
	struct pm_sample_id sid = { .pid = 1, .tid = 2,
				    .time = 0x0102030405060708ULL };
	int big;

	(void)state;
	for (big = 0; big < 2; big++) {
		struct pm_writer *w = mem_writer(big, false, 0);
		struct pm_event e = one_event(PM_SAMPLE_TID | PM_SAMPLE_TIME, 0);
		struct pm_error err = { 0 };
		uint8_t *want, *got;
		size_t wn, gn;

		assert_int_equal(pm_writer__add_event(w, &e, &err), 0);
		assert_int_equal(pm_writer__comm(w, 0, &c, &sid, &err), 0);
		got = data_of(w, big, &gn);
		want = unhex(big ? be : le, &wn);
		assert_bytes(want, wn, got, gn);
		free(want);
		free(got);
	}
}

/* A basic SAMPLE (IP TID TIME PERIOD), by hand. */
static void test_sample_literal(void **state)
{
	static const char le[] =
		"09000000 0200 2800 0010400000000000 05000000 06000000"
		"0700000000000000 0800000000000000";
	static const char be[] =
		"00000009 0002 0028 0000000000401000 00000005 00000006"
		"0000000000000007 0000000000000008";
	uint64_t st = PM_SAMPLE_IP | PM_SAMPLE_TID | PM_SAMPLE_TIME |
		      PM_SAMPLE_PERIOD;
	int big;

	(void)state;
	for (big = 0; big < 2; big++) {
		struct pm_writer *w = mem_writer(big, false, 0);
		struct pm_event e = one_event(st, 0);
		struct pm_sample s = { .sample_type = st, .misc = PM_MISC_USER,
				       .ip = 0x401000, .pid = 5, .tid = 6,
				       .time = 7, .period = 8 };
		struct pm_error err = { 0 };
		uint8_t *want, *got;
		size_t wn, gn;

		assert_int_equal(pm_writer__add_event(w, &e, &err), 0);
		assert_int_equal(pm_writer__sample(w, &s, &err), 0);
		got = data_of(w, big, &gn);
		want = unhex(big ? be : le, &wn);
		assert_bytes(want, wn, got, gn);
		free(want);
		free(got);
	}
}

/* Every other record kind, from field lists, in both orders; the trailer
 * has every sample_id field (TID TIME ID STREAM_ID CPU IDENTIFIER). */
static void test_records_both_orders(void **state)
{
	const uint64_t st = PM_SAMPLE_TID | PM_SAMPLE_TIME | PM_SAMPLE_ID |
			    PM_SAMPLE_STREAM_ID | PM_SAMPLE_CPU |
			    PM_SAMPLE_IDENTIFIER;
	const struct pm_sample_id sid = { .pid = 11, .tid = 12, .time = 13,
					  .id = 77, .stream_id = 14, .cpu = 1,
					  .cpu_res = 0 };
#define TRAILER L(11), L(12), Q(13), Q(77), Q(14), L(1), L(0), Q(77)
	const struct fld mmap[] = {
		L(1), W(2), W(8 + 32 + 16 + 48), L(100), L(101),
		Q(0x400000), Q(0x2000), Q(0x1000), STR("/bin/prog", 16),
		TRAILER, END };
	const struct fld mmap2[] = {
		L(10), W(2), W(8 + 32 + 24 + 8 + 8 + 48), L(100), L(101),
		Q(0x400000), Q(0x2000), Q(0x1000), L(8), L(3), Q(0x55),
		Q(9), L(5), L(2), STR("/a", 8), TRAILER, END };
	const struct fld mmap2_bid[] = {
		L(10), W(2 | 1 << 14), W(8 + 32 + 24 + 8 + 16 + 48), L(100),
		L(101), Q(0x400000), Q(0x2000), Q(0x1000), B(20), B(0), B(0),
		B(0), STR("0123456789abcdefghij", 20), L(5), L(2),
		STR("/abcdefg", 16), TRAILER, END };
	const struct fld fork[] = {
		L(7), W(0), W(8 + 24 + 48), L(1), L(2), L(3), L(4), Q(99),
		TRAILER, END };
	const struct fld exit_[] = {
		L(4), W(0), W(8 + 24 + 48), L(1), L(2), L(3), L(4), Q(99),
		TRAILER, END };
	const struct fld lost[] = {
		L(2), W(0), W(8 + 16 + 48), Q(77), Q(5), TRAILER, END };
	const struct fld lost_samples[] = {
		L(13), W(0), W(8 + 8 + 48), Q(6), TRAILER, END };
	const struct fld throttle[] = {
		L(5), W(0), W(8 + 24 + 48), Q(21), Q(77), Q(14), TRAILER, END };
	const struct fld unthrottle[] = {
		L(6), W(0), W(8 + 24 + 48), Q(22), Q(77), Q(14), TRAILER, END };
	const struct fld round[] = { L(68), W(0), W(8), END };
	const struct fld id_index[] = {
		L(69), W(0), W(8 + 8 + 64), Q(2), Q(77), Q(0), Q(0), Q(-1ULL),
		Q(78), Q(0), Q(1), Q(-1ULL), END };
	const struct fld comm_exec[] = {
		L(3), W(1 << 13), W(8 + 8 + 24 + 48), L(5), L(5),
		STR("0123456789abcdef", 24), TRAILER, END };
	const struct fld *all[] = {
		mmap, mmap2, mmap2_bid, fork, exit_, lost, lost_samples,
		throttle, unthrottle, round, id_index, comm_exec,
	};
	int big;

	(void)state;
	for (big = 0; big < 2; big++) {
		struct pm_writer *w = mem_writer(big, false, 0);
		struct pm_event e = one_event(st, 0);
		struct pm_error err = { 0 };
		struct pm_rec_mmap m = { .pid = 100, .tid = 101,
					 .start = 0x400000, .len = 0x2000,
					 .pgoff = 0x1000, .filename = "/bin/prog" };
		struct pm_rec_task t = { 1, 2, 3, 4, 99 };
		struct pm_rec_lost l = { .id = 77, .lost = 5 };
		struct pm_rec_lost_samples ls = { .lost = 6 };
		struct pm_rec_throttle th = { .time = 21, .id = 77, .stream_id = 14 };
		struct pm_id_index_entry ix[] = { { 77, 0, 0, -1ULL },
						  { 78, 0, 1, -1ULL } };
		struct pm_rec_comm c = { .pid = 5, .tid = 5, .exec = true,
					 .comm = "0123456789abcdef" };
		uint8_t want[4096], *got;
		size_t wn = 0, gn, i;

		e.attr.sample_type = st | PM_SAMPLE_IP;
		assert_int_equal(pm_writer__add_event(w, &e, &err), 0);
		assert_int_equal(pm_writer__mmap(w, PM_MISC_USER, &m, &sid, &err), 0);
		m.is_mmap2 = true;
		m.maj = 8; m.min = 3; m.ino = 0x55; m.ino_generation = 9;
		m.prot = 5; m.flags = 2; m.filename = "/a";
		assert_int_equal(pm_writer__mmap(w, PM_MISC_USER, &m, &sid, &err), 0);
		m.has_build_id = true;
		m.build_id_size = 20;
		memcpy(m.build_id, "0123456789abcdefghij", 20);
		m.filename = "/abcdefg";
		assert_int_equal(pm_writer__mmap(w, PM_MISC_USER, &m, &sid, &err), 0);
		assert_int_equal(pm_writer__task(w, PM_RECORD_FORK, 0, &t, &sid, &err), 0);
		assert_int_equal(pm_writer__task(w, PM_RECORD_EXIT, 0, &t, &sid, &err), 0);
		assert_int_equal(pm_writer__lost(w, 0, &l, &sid, &err), 0);
		assert_int_equal(pm_writer__lost_samples(w, 0, &ls, &sid, &err), 0);
		assert_int_equal(pm_writer__throttle(w, PM_RECORD_THROTTLE, 0, &th, &sid, &err), 0);
		th.time = 22;
		assert_int_equal(pm_writer__throttle(w, PM_RECORD_UNTHROTTLE, 0, &th, &sid, &err), 0);
		assert_int_equal(pm_writer__finished_round(w, &err), 0);
		assert_int_equal(pm_writer__id_index(w, ix, 2, &err), 0);
		assert_int_equal(pm_writer__comm(w, 0, &c, &sid, &err), 0);
		got = data_of(w, big, &gn);
		for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
			wn += encode(all[i], big, want + wn);
		assert_bytes(want, wn, got, gn);
		free(got);
	}
#undef TRAILER
}

/* ---- samples: every field, every read_format -------------------------- */

static const uint64_t cc[] = { PM_CONTEXT_USER, 0x401010, 0x401020 };
static const struct pm_branch_entry br[] = { { 1, 2, 3 }, { 4, 5, 6 } };
static const uint64_t uregs[] = { 0xa1, 0xa2, 0xa3 };
static const uint64_t iregs[] = { 0xb1 };
static const uint8_t stack[16] = "stackstackstack";
static const uint8_t aux[8] = "auxdata";
static const struct pm_read_value rv[] = { { 100, 77, 1 }, { 200, 78, 2 } };

static struct pm_sample full_sample(uint64_t st)
{
	struct pm_sample s = { 0 };

	s.sample_type = st;
	s.misc = PM_MISC_USER;
	s.identifier = 77; s.ip = 0x401000; s.pid = 5; s.tid = 6;
	s.time = 7; s.addr = 0xadd; s.id = 77; s.stream_id = 9;
	s.cpu = 1; s.cpu_res = 0; s.period = 1000;
	s.read.time_enabled = 50; s.read.time_running = 40;
	s.read.nr = 2; s.read.values = rv;
	s.callchain_nr = 3; s.callchain = cc;
	s.raw_size = 5; s.raw = (const uint8_t *)"rawww";
	s.branch_nr = 2; s.branch_hw_idx = 17; s.branches = br;
	s.regs_user.abi = 2; s.regs_user.nr = 3; s.regs_user.regs = uregs;
	s.regs_user.mask = 0x7;
	s.stack_user_size = 16; s.stack_user = stack; s.stack_user_dyn_size = 12;
	s.weight = 0x3e; s.data_src = 0xd5; s.transaction = 0x7a;
	s.regs_intr.abi = 2; s.regs_intr.nr = 1; s.regs_intr.regs = iregs;
	s.regs_intr.mask = 0x100;
	s.phys_addr = 0xf00; s.cgroup = 0xc9; s.data_page_size = 4096;
	s.code_page_size = 8192; s.aux_size = 8; s.aux = aux;
	return s;
}

/* The fields of the full sample for sample_type st and read_format rf,
 * in the reference's order (section 5). */
static size_t expect_sample(uint64_t st, uint64_t rf, struct fld *f)
{
	size_t n = 3, i, nr;

	f[0] = (struct fld)L(9);
	f[1] = (struct fld)W(PM_MISC_USER);
	f[2] = (struct fld)W(0);		/* size: patched below */
#define ADD(x) (f[n++] = (struct fld)x)
	if (st & PM_SAMPLE_IDENTIFIER) ADD(Q(77));
	if (st & PM_SAMPLE_IP) ADD(Q(0x401000));
	if (st & PM_SAMPLE_TID) { ADD(L(5)); ADD(L(6)); }
	if (st & PM_SAMPLE_TIME) ADD(Q(7));
	if (st & PM_SAMPLE_ADDR) ADD(Q(0xadd));
	if (st & PM_SAMPLE_ID) ADD(Q(77));
	if (st & PM_SAMPLE_STREAM_ID) ADD(Q(9));
	if (st & PM_SAMPLE_CPU) { ADD(L(1)); ADD(L(0)); }
	if (st & PM_SAMPLE_PERIOD) ADD(Q(1000));
	if (st & PM_SAMPLE_READ) {
		nr = rf & PM_FORMAT_GROUP ? 2 : 1;
		if (rf & PM_FORMAT_GROUP) ADD(Q(2)); else ADD(Q(100));
		if (rf & PM_FORMAT_TOTAL_TIME_ENABLED) ADD(Q(50));
		if (rf & PM_FORMAT_TOTAL_TIME_RUNNING) ADD(Q(40));
		for (i = 0; i < nr; i++) {
			if (rf & PM_FORMAT_GROUP) ADD(Q(rv[i].value));
			if (rf & PM_FORMAT_ID) ADD(Q(rv[i].id));
			if (rf & PM_FORMAT_LOST) ADD(Q(rv[i].lost));
		}
	}
	if (st & PM_SAMPLE_CALLCHAIN) {
		ADD(Q(3)); ADD(Q(PM_CONTEXT_USER)); ADD(Q(0x401010)); ADD(Q(0x401020));
	}
	if (st & PM_SAMPLE_RAW) { ADD(L(12)); ADD(STR("rawww", 12)); }
	if (st & PM_SAMPLE_BRANCH_STACK) {
		ADD(Q(2)); ADD(Q(17));		/* the event has HW_INDEX */
		ADD(Q(1)); ADD(Q(2)); ADD(Q(3)); ADD(Q(4)); ADD(Q(5)); ADD(Q(6));
	}
	if (st & PM_SAMPLE_REGS_USER) { ADD(Q(2)); ADD(Q(0xa1)); ADD(Q(0xa2)); ADD(Q(0xa3)); }
	if (st & PM_SAMPLE_STACK_USER) { ADD(Q(16)); ADD(STR("stackstackstack", 16)); ADD(Q(12)); }
	if (st & (PM_SAMPLE_WEIGHT | PM_SAMPLE_WEIGHT_STRUCT)) ADD(Q(0x3e));
	if (st & PM_SAMPLE_DATA_SRC) ADD(Q(0xd5));
	if (st & PM_SAMPLE_TRANSACTION) ADD(Q(0x7a));
	if (st & PM_SAMPLE_REGS_INTR) { ADD(Q(2)); ADD(Q(0xb1)); }
	if (st & PM_SAMPLE_PHYS_ADDR) ADD(Q(0xf00));
	if (st & PM_SAMPLE_CGROUP) ADD(Q(0xc9));
	if (st & PM_SAMPLE_DATA_PAGE_SIZE) ADD(Q(4096));
	if (st & PM_SAMPLE_CODE_PAGE_SIZE) ADD(Q(8192));
	if (st & PM_SAMPLE_AUX) { ADD(Q(8)); ADD(STR("auxdata", 8)); }
#undef ADD
	f[n] = (struct fld)END;
	return n;
}

static void check_sample(uint64_t st, uint64_t rf, bool big)
{
	struct pm_writer *w = mem_writer(big, false, 0);
	struct pm_event e = one_event(st, rf);
	struct pm_sample s = full_sample(st);
	struct pm_error err = { 0 };
	struct fld f[128];
	uint8_t want[2048], *got;
	size_t wn, gn, size;

	e.attr.branch_sample_type = PM_BRANCH_HW_INDEX;
	e.attr.sample_regs_user = 0x7;
	e.attr.sample_regs_intr = 0x100;
	assert_int_equal(pm_writer__add_event(w, &e, &err), 0);
	if (pm_writer__sample(w, &s, &err))
		fail_msg("sample_type %#llx: %s", (unsigned long long)st, err.msg);
	got = data_of(w, big, &gn);
	expect_sample(st, rf, f);
	size = encode(f, big, want);
	f[2] = (struct fld)W(size);
	wn = encode(f, big, want);
	if (wn != gn || memcmp(want, got, wn))
		fprintf(stderr, "sample_type %#llx read_format %#llx %s\n",
			(unsigned long long)st, (unsigned long long)rf,
			big ? "big" : "little");
	assert_bytes(want, wn, got, gn);
	free(got);
}

static void test_sample_every_field(void **state)
{
	uint64_t all = (1ULL << PM_SAMPLE_MAX_BIT) - 1;
	unsigned int bit;
	int big;

	(void)state;
	for (big = 0; big < 2; big++) {
		for (bit = 0; bit < PM_SAMPLE_MAX_BIT; bit++)
			check_sample(1ULL << bit, PM_FORMAT_ID, big);
		/* WEIGHT and WEIGHT_STRUCT are one u64 together too */
		check_sample(all, PM_FORMAT_GROUP | PM_FORMAT_ID, big);
		check_sample(all & ~PM_SAMPLE_WEIGHT_STRUCT, 0, big);
	}
}

static void test_sample_read_formats(void **state)
{
	uint64_t rf;
	int big;

	(void)state;
	for (big = 0; big < 2; big++)
		for (rf = 0; rf < 32; rf++)
			check_sample(PM_SAMPLE_IP | PM_SAMPLE_TID | PM_SAMPLE_READ |
				     PM_SAMPLE_PERIOD, rf, big);
}

/* What the reader gets back from the writer's samples: the same fields. */
static void test_sample_reader_round_trip(void **state)
{
	uint64_t st = ((1ULL << PM_SAMPLE_MAX_BIT) - 1) & ~PM_SAMPLE_WEIGHT_STRUCT;
	int big;

	(void)state;
	for (big = 0; big < 2; big++) {
		struct pm_writer *w = mem_writer(big, false, 0);
		struct pm_event e = one_event(st, 0x1f);
		struct pm_sample s = full_sample(st), got;
		struct pm_error err = { 0 };
		struct pm_reader *r;
		struct pm_record rec;
		void *buf;
		size_t len;
		int n = 0;

		e.attr.branch_sample_type = PM_BRANCH_HW_INDEX;
		e.attr.sample_regs_user = 0x7;
		e.attr.sample_regs_intr = 0x100;
		assert_int_equal(pm_writer__add_event(w, &e, &err), 0);
		assert_int_equal(pm_writer__sample(w, &s, &err), 0);
		assert_int_equal(pm_writer__close_mem(w, &buf, &len, &err), 0);
		assert_int_equal(pm_reader__open_mem(&r, buf, len, "mem", &err), 0);
		assert_int_equal(pm_reader__big_endian(r), big);
		while (pm_reader__next(r, &rec, &err) > 0) {
			if (rec.type != PM_RECORD_SAMPLE)
				continue;
			n++;
			if (pm_reader__parse_sample(r, &rec, &got, &err))
				fail_msg("%s", err.msg);
			assert_int_equal(got.ip, s.ip);
			assert_int_equal(got.pid, 5);
			assert_int_equal(got.tid, 6);
			assert_int_equal(got.cpu, 1);
			assert_int_equal(got.read.nr, 2);
			assert_int_equal(got.read.values[1].value, 200);
			assert_int_equal(got.read.values[1].id, 78);
			assert_int_equal(got.read.values[1].lost, 2);
			assert_int_equal(got.read.time_running, 40);
			assert_int_equal(got.callchain_nr, 3);
			assert_int_equal(got.callchain[2], 0x401020);
			assert_int_equal(got.raw_size, 12);
			assert_memory_equal(got.raw, "rawww", 5);
			assert_int_equal(got.branch_nr, 2);
			assert_int_equal(got.branch_hw_idx, 17);
			assert_int_equal(got.branches[1].to, 5);
			assert_int_equal(got.regs_user.nr, 3);
			assert_int_equal(got.regs_user.regs[2], 0xa3);
			assert_int_equal(got.stack_user_size, 16);
			assert_int_equal(got.stack_user_dyn_size, 12);
			assert_int_equal(got.weight, 0x3e);
			assert_int_equal(got.regs_intr.regs[0], 0xb1);
			assert_int_equal(got.code_page_size, 8192);
			assert_int_equal(got.aux_size, 8);
			assert_memory_equal(got.aux, "auxdata", 8);
		}
		assert_int_equal(n, 1);
		pm_reader__delete(r);
		free(buf);
	}
}

/* ---- file layout, attrs, pipe ----------------------------------------- */

/*
 * The smallest file, every offset by hand: header 104, one id (8) at 104,
 * the attr (64 + 16) at 112, data at 192 (one FINISHED_ROUND, 8), index
 * at 200 (HOSTNAME, ARCH: 32), payloads at 232 (68) and 300 (68): 368.
 */
static void test_file_layout(void **state)
{
	int big;

	(void)state;
	for (big = 0; big < 2; big++) {
		struct pm_writer *w = mem_writer(big, false, 64);
		struct pm_event e = one_event(PM_SAMPLE_IP, 0);
		struct pm_error err = { 0 };
		const struct fld hdr[] = {
			Q(0x32454c4946524550ULL), Q(104), Q(80), Q(112), Q(80),
			Q(192), Q(8), Q(0), Q(0), Q(1 << 3 | 1 << 6), Q(0), Q(0),
			Q(0), END };
		const struct fld tail[] = {
			Q(77),					/* 104: ids */
			L(1), L(64), Q(0), Q(1000), Q(PM_SAMPLE_IP), Q(0),
			/* 152: flags, sample_id_all = bit 18 (mirrored in big) */
			Q(big ? 1ULL << (63 - 18) : 1ULL << 18),
			L(0), L(0), Q(0),			/* to 176 */
			Q(104), Q(8),				/* ids section */
			L(68), W(0), W(8),			/* 192: data */
			Q(232), Q(68), Q(300), Q(68),		/* 200: index */
			L(64), STR("", 64), L(64), STR("alpha", 64), END };
		uint8_t want[512], *got;
		size_t wn, gn;

		assert_int_equal(pm_writer__add_event(w, &e, &err), 0);
		assert_int_equal(pm_writer__set_string(w, PM_FEAT_ARCH, "alpha", &err), 0);
		assert_int_equal(pm_writer__finished_round(w, &err), 0);
		assert_int_equal(pm_writer__close_mem(w, (void **)&got, &gn, &err), 0);
		wn = encode(hdr, big, want);
		wn += encode(tail, big, want + wn);
		assert_bytes(want, wn, got, gn);
		free(got);
	}
}

/* {magic, 16}, HEADER_ATTR, HEADER_FEATURE (ARCH), the closing one
 * (feat_id 32), then the records. */
static void test_pipe_layout(void **state)
{
	int big;

	(void)state;
	for (big = 0; big < 2; big++) {
		struct pm_writer *w = mem_writer(big, true, 64);
		struct pm_event e = one_event(PM_SAMPLE_IP, 0);
		struct pm_error err = { 0 };
		const struct fld want_f[] = {
			Q(0x32454c4946524550ULL), Q(16),
			L(64), W(0), W(8 + 64 + 8),
			L(1), L(64), Q(0), Q(1000), Q(PM_SAMPLE_IP), Q(0),
			Q(big ? 1ULL << (63 - 18) : 1ULL << 18),
			L(0), L(0), Q(0), Q(77),
			L(80), W(0), W(16 + 68), Q(6), L(64), STR("x", 64),
			L(80), W(0), W(16), Q(32),
			L(68), W(0), W(8), END };
		uint8_t want[512], *got;
		size_t wn, gn;

		assert_int_equal(pm_writer__add_event(w, &e, &err), 0);
		assert_int_equal(pm_writer__set_string(w, PM_FEAT_ARCH, "x", &err), 0);
		assert_int_equal(pm_writer__finished_round(w, &err), 0);
		/* Too late for a pipe's features now. */
		assert_int_equal(pm_writer__set_string(w, PM_FEAT_CPUID, "y", &err),
				 -PM_EUSAGE);
		assert_int_equal(pm_writer__close_mem(w, (void **)&got, &gn, &err), 0);
		wn = encode(want_f, big, want);
		assert_bytes(want, wn, got, gn);
		free(got);
	}
}

/* attr sizes 64..160: header, attrs section, ids section, hf_sample. */
static void test_attr_sizes(void **state)
{
	uint32_t size;
	int big;

	(void)state;
	for (big = 0; big < 2; big++) {
		for (size = 64; size <= 160; size += 8) {
			struct pm_writer *w = mem_writer(big, false, size);
			struct pm_event e = one_event(PM_SAMPLE_IP, 0);
			bool swap = big != PM_HOST_BIG_ENDIAN;
			struct pm_error err = { 0 };
			struct pm_reader *r;
			uint8_t *buf, *a;
			size_t len;

			e.attr.hf_sample_period = 0x1234;
			e.attr.hf_sample_rand = 5;
			assert_int_equal(pm_writer__add_event(w, &e, &err), 0);
			assert_int_equal(pm_writer__close_mem(w, (void **)&buf, &len, &err), 0);
			assert_int_equal(pm_load64(buf + 16, swap), size + 16);
			assert_int_equal(pm_load64(buf + 24, swap), 112);
			assert_int_equal(pm_load64(buf + 32, swap), size + 16);
			assert_int_equal(pm_load64(buf + 40, swap), 112 + size + 16);
			a = buf + 112;
			assert_int_equal(pm_load32(a + 4, swap), size);
			assert_int_equal(pm_load64(a + size, swap), 104);
			assert_int_equal(pm_load64(a + size + 8, swap), 8);
			if (size >= 144) {
				static const uint8_t le[] = { 0x34, 0x12, 0, 0, 5, 0, 0, 0 };
				static const uint8_t be[] = { 0, 0, 0x12, 0x34, 0x50, 0, 0, 0 };

				assert_memory_equal(a + 136, big ? be : le, 8);
			}
			/* The reader takes every size and keeps hf_sample. */
			assert_int_equal(pm_reader__open_mem(&r, buf, len, "mem", &err), 0);
			assert_int_equal(pm_reader__event(r, 0)->attr.size, size);
			assert_int_equal(pm_reader__event(r, 0)->attr.hf_sample_period,
					 size >= 144 ? 0x1234 : 0);
			assert_int_equal(pm_reader__event(r, 0)->attr.hf_sample_rand,
					 size >= 144 ? 5 : 0);
			pm_reader__delete(r);
			free(buf);
		}
	}
}

/* ---- pass-through ------------------------------------------------------ */

static void test_copy_record(void **state)
{
	const struct fld comm[] = {
		L(3), W(0), W(8 + 16 + 16), L(7), L(8), STR("abc", 8),
		L(7), L(8), Q(0x0102030405060708ULL), END };
	const struct fld cpu_map[] = {		/* RANGE 0-1 */
		L(74), W(0), W(16), W(2), B(0), B(0), W(0), W(1), END };
	const struct fld sample[] = { L(9), W(2), W(16), Q(1), END };
	const struct fld unknown[] = { L(200), W(0), W(16), Q(1), END };
	uint8_t in[256], want[256], *got;
	size_t n, wn, gn;
	int big;

	(void)state;
	for (big = 0; big < 2; big++) {
		struct pm_writer *w = mem_writer(big, false, 0);
		struct pm_event e = one_event(PM_SAMPLE_TID | PM_SAMPLE_TIME, 0);
		struct pm_error err = { 0 };

		assert_int_equal(pm_writer__add_event(w, &e, &err), 0);
		/* from the other order: swapped field by field */
		n = encode(comm, !big, in);
		assert_int_equal(pm_writer__copy_record(w, in, n, !big, &err), 0);
		n = encode(cpu_map, !big, in);
		assert_int_equal(pm_writer__copy_record(w, in, n, !big, &err), 0);
		/* from the same order: as is */
		n = encode(comm, big, in);
		assert_int_equal(pm_writer__copy_record(w, in, n, big, &err), 0);
		/* refused, and nothing written */
		n = encode(unknown, !big, in);
		assert_int_equal(pm_writer__copy_record(w, in, n, !big, &err),
				 -PM_EUNSUP);
		assert_non_null(strstr(err.msg, "cannot byte-swap"));
		n = encode(sample, !big, in);
		assert_int_equal(pm_writer__copy_record(w, in, n, !big, &err),
				 -PM_EUNSUP);
		/* a header.size that lies */
		n = encode(comm, !big, in);
		assert_true(pm_writer__copy_record(w, in, n - 8, !big, &err) < 0);
		got = data_of(w, big, &gn);
		wn = encode(comm, big, want);
		wn += encode(cpu_map, big, want + wn);
		wn += encode(comm, big, want + wn);
		assert_bytes(want, wn, got, gn);
		free(got);
	}
}

/* ---- errors -------------------------------------------------------------- */

static void test_errors(void **state)
{
	struct pm_writer *w = mem_writer(false, false, 0);
	struct pm_event e = one_event(PM_SAMPLE_IP | PM_SAMPLE_CALLCHAIN |
				      PM_SAMPLE_STACK_USER | PM_SAMPLE_REGS_USER, 0);
	struct pm_sample s = full_sample(e.attr.sample_type);
	struct pm_writer_opts o = { .sz = sizeof(o) };
	struct pm_error err = { 0 };
	static uint64_t big_cc[9000];
	int fds[2];
	void *buf;
	size_t len;

	(void)state;
	e.attr.sample_regs_user = 0x3;		/* 2 registers, 3 given */
	assert_int_equal(pm_writer__add_event(w, &e, &err), 0);
	assert_int_equal(pm_writer__sample(w, &s, &err), -PM_EUSAGE);
	assert_non_null(strstr(err.msg, "REGS_USER"));
	s.regs_user.abi = 0;
	s.stack_user_size = 5;
	assert_int_equal(pm_writer__sample(w, &s, &err), -PM_EUSAGE);
	s.stack_user_size = 0;
	s.callchain = big_cc;
	s.callchain_nr = 9000;
	assert_int_equal(pm_writer__sample(w, &s, &err), -PM_EUNSUP);
	assert_non_null(strstr(err.msg, "65535"));
	assert_true(pm_writer__add_event(w, &e, &err) < 0);	/* too late */
	assert_int_equal(pm_writer__close_mem(w, &buf, &len, &err), 0);
	free(buf);

	/* a file needs a seekable output */
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(pm_writer__open_fd(&w, fds[1], "pipe", &o, &err),
			 -PM_EUSAGE);
	assert_null(w);
	assert_non_null(strstr(err.msg, "seekable"));
	o.pipe = true;
	assert_int_equal(pm_writer__open_fd(&w, fds[1], "pipe", &o, &err), 0);
	pm_writer__delete(w);
	close(fds[0]);
	close(fds[1]);
	o.attr_size = 65;
	assert_int_equal(pm_writer__open_mem(&w, &o, &err), -PM_EUSAGE);
}

/*
 * A writer that never closes (its recorder was killed) leaves a file that
 * reads up to its last complete record: the header goes out first, valid,
 * with data size 0 ("to the end of the file") and no features.
 */
static int count_samples(const char *path, struct pm_error *err)
{
	struct pm_reader *r;
	struct pm_record rec;
	int n = 0, ret;

	if (pm_reader__open(&r, path, NULL, err))
		return -1;
	while ((ret = pm_reader__next(r, &rec, err)) > 0)
		n += rec.type == PM_RECORD_SAMPLE;
	pm_reader__delete(r);
	return ret < 0 ? -1 : n;
}

static void test_unclosed_file_reads(void **state)
{
	/* from the format reference: magic, header size, attr entry size
	 * (64 + ids section 16), attrs {112, 80}, data {192, 0: to the end},
	 * event_types {0, 0}, no feature bits */
	const struct fld hdr[] = {
		Q(0x32454c4946524550ULL), Q(104), Q(80), Q(112), Q(80),
		Q(192), Q(0), Q(0), Q(0), Q(0), Q(0), Q(0), Q(0), END };
	char dir[] = "/tmp/pmprof-writer-XXXXXX", path[64];
	struct pm_writer_opts o = { .sz = sizeof(o), .attr_size = 64,
				    .order = PM_ORDER_LITTLE };
	struct pm_event e = one_event(PM_SAMPLE_IP | PM_SAMPLE_TID, 0);
	struct pm_error err = { 0 };
	struct pm_writer *w;
	uint8_t want[128], got[104];
	int fd, i, n = 100;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/unclosed.data", dir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(pm_writer__open_fd(&w, fd, path, &o, &err), 0);
	assert_int_equal(pm_writer__add_event(w, &e, &err), 0);
	for (i = 0; i < n; i++) {
		struct pm_sample s = { 0 };

		s.event = pm_writer__event(w, 0);
		s.ip = 0x401000 + (uint64_t)i;
		s.pid = s.tid = 42;
		assert_int_equal(pm_writer__sample(w, &s, &err), 0);
	}
	assert_int_equal(pm_writer__flush(w, &err), 0);
	/* killed here: never closed */
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(got, 1, sizeof(got), f), sizeof(got));
	fclose(f);
	assert_bytes(want, encode(hdr, false, want), got, sizeof(got));
	assert_int_equal(count_samples(path, &err), n);
	/* and a record cut off by the kill is left out, not an error */
	assert_int_equal(ftruncate(fd, lseek(fd, 0, SEEK_END) - 3), 0);
	assert_int_equal(count_samples(path, &err), n - 1);
	pm_writer__delete(w);
	close(fd);
	unlink(path);
	rmdir(dir);
}

/* PMU_CAPS and CPU_PMU_CAPS payloads, from perf's header.c layout:
 * CPU_PMU_CAPS {u32 nr, nr x (name, value)}; PMU_CAPS {u32 nr_pmu, per
 * PMU {u32 nr, nr x (name, value), pmu name}}; strings {u32 len, bytes
 * padded to 64}. Read back, in both byte orders. */
static void test_pmu_caps(void **state)
{
	int big;

	(void)state;
	for (big = 0; big < 2; big++) {
		struct pm_writer *w = mem_writer(big, false, 0);
		struct pm_event e = one_event(PM_SAMPLE_IP, 0);
		struct pm_error err = { 0 };
		char *n1[] = { "branches" }, *v1[] = { "32" };
		char *n2[] = { "slots", "bus_slots" }, *v2[] = { "0x00000005", "0x00000000" };
		struct pm_pmu_caps caps[] = {
			{ .pmu = "armv8_pmuv3_0", .nr = 2, .names = n2, .values = v2 },
			{ .pmu = "cpu", .nr = 1, .names = n1, .values = v1 },
		};
		const struct fld cpu_caps[] = {
			L(1), L(64), STR("branches", 64), L(64), STR("32", 64), END };
		const struct fld pmu_caps[] = {
			L(1), L(2), L(64), STR("slots", 64), L(64), STR("0x00000005", 64),
			L(64), STR("bus_slots", 64), L(64), STR("0x00000000", 64),
			L(64), STR("armv8_pmuv3_0", 64), END };
		const struct pm_features *f;
		struct pm_reader *r;
		uint8_t want[1024], *buf;
		size_t n, wn;

		assert_int_equal(pm_writer__add_event(w, &e, &err), 0);
		assert_int_equal(pm_writer__set_pmu_caps(w, caps, 2, &err), 0);
		/* (a data section of 0 bytes reads as an unclosed file) */
		assert_int_equal(pm_writer__finished_round(w, &err), 0);
		assert_int_equal(pm_writer__close_mem(w, (void **)&buf, &n, &err), 0);
		assert_int_equal(pm_reader__open_mem(&r, buf, n, "mem", &err), 0);
		f = pm_reader__features(r);
		assert_true(pm_features__has(f, PM_FEAT_CPU_PMU_CAPS));
		assert_true(pm_features__has(f, PM_FEAT_PMU_CAPS));
		wn = encode(cpu_caps, big, want);
		assert_bytes(want, wn, buf + f->section[PM_FEAT_CPU_PMU_CAPS].offset,
			     f->section[PM_FEAT_CPU_PMU_CAPS].size);
		wn = encode(pmu_caps, big, want);
		assert_bytes(want, wn, buf + f->section[PM_FEAT_PMU_CAPS].offset,
			     f->section[PM_FEAT_PMU_CAPS].size);
		assert_int_equal(f->nr_pmu_caps, 2);
		assert_string_equal(f->pmu_caps[0].pmu, "cpu");
		assert_string_equal(pm_features__pmu_cap(f, NULL, "slots"), "0x00000005");
		assert_string_equal(pm_features__pmu_cap(f, "armv8_pmuv3_0", "bus_slots"),
				    "0x00000000");
		assert_string_equal(pm_features__pmu_cap(f, NULL, "branches"), "32");
		assert_null(pm_features__pmu_cap(f, "cpu", "slots"));
		assert_null(pm_features__pmu_cap(f, "armv8_pmuv3_1", "slots"));
		pm_reader__delete(r);
		free(buf);
	}
}

/* ---- files for perf (tests/cli/writer-perf.sh) ------------------------ */

static const struct pm_elf_sym prog_syms[] = {
	{ "main", 0x401000, 0x100 },
	{ "work", 0x401100, 0x200 },
	{ "spin", 0x401300, 0x100 },
};

static const struct { uint64_t ip; const char *sym; } hits[] = {
	{ 0x401010, "main" }, { 0x401120, "work" }, { 0x401130, "work" },
	{ 0x401308, "spin" }, { 0x4012f8, "work" }, { 0x401310, "spin" },
};

/* One recording: comm, mmap of dir/prog, the samples; returns how many
 * samples the reader finds in it. */
static int oracle_file(const char *dir, const char *name, bool big, bool pipe,
		       uint32_t attr_size, bool callchain, FILE *expect)
{
	struct pm_kit_opts o = { .arch = "x86_64", .big_endian = big,
				 .pipe = pipe, .attr_size = attr_size };
	uint64_t st = PM_KIT_SAMPLE_DEFAULT |
		      (callchain ? PM_SAMPLE_CALLCHAIN : 0);
	char path[512], prog[512];
	struct pm_error err = { 0 };
	struct pm_reader *r;
	struct pm_record rec;
	struct pm_kit *k;
	size_t i;
	int ev, n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	o.path = path;
	k = pm_kit__new_opts(&o);
	ev = pm_kit__event(k, "cpu-clock", PM_TYPE_SOFTWARE, 0, st, 250000);
	if (attr_size >= 144) {
		pm_kit__attr(k, ev)->hf_sample_period = 100;
		pm_kit__attr(k, ev)->hf_sample_rand = 3;
	}
	{
		/* Capabilities as perf copies them from sysfs caps/: the
		 * "cpu" PMU's into CPU_PMU_CAPS, another PMU's into PMU_CAPS. */
		char *cn[] = { "max_precise", "branches" }, *cv[] = { "3", "32" };
		char *an[] = { "slots" }, *av[] = { "0x00000005" };
		struct pm_pmu_caps caps[] = {
			{ .pmu = "cpu", .nr = 2, .names = cn, .values = cv },
			{ .pmu = "armv8_pmuv3_0", .nr = 1, .names = an, .values = av },
		};

		assert_int_equal(pm_writer__set_pmu_caps(pm_kit__writer(k), caps, 2, &err), 0);
	}
	{
		/* A kernel map, as perf record synthesizes it: without one
		 * perf report warns about restricted kernel addresses. */
		struct pm_rec_mmap km = {
			.pid = (uint32_t)-1, .start = 0xffffffff81000000ULL,
			.len = 0x1000000, .pgoff = 0xffffffff81000000ULL,
			.filename = "[kernel.kallsyms]_text",
		};

		pm_kit__ev(k, ev);
		assert_int_equal(pm_writer__mmap(pm_kit__writer(k), PM_MISC_KERNEL,
						 &km, NULL, &err), 0);
	}
	pm_kit__comm(k, 4242, 4242, "prog");
	pm_kit__mmap(k, 4242, 0x401000, 0x1000, 0x1000, prog);
	for (i = 0; i < sizeof(hits) / sizeof(hits[0]); i++) {
		uint64_t chain[] = { PM_CONTEXT_USER, hits[i].ip, 0x401008 };
		uint64_t t = 1000000000ULL + 1000 * i;

		pm_kit__sample_cc(k, ev, 4242, hits[i].ip, t, 250000 + i,
				  chain, callchain ? 3 : 0);
		if (expect)
			fprintf(expect, "%llu.%09llu %llu %llx %s\n",
				(unsigned long long)(t / 1000000000),
				(unsigned long long)(t % 1000000000),
				(unsigned long long)(250000 + i),
				(unsigned long long)hits[i].ip, hits[i].sym);
	}
	pm_kit__save(k, NULL);

	assert_int_equal(pm_reader__open(&r, path, NULL, &err), 0);
	assert_int_equal(pm_reader__is_pipe(r), pipe);
	assert_int_equal(pm_reader__big_endian(r), big);
	while (pm_reader__next(r, &rec, &err) > 0)
		n += rec.type == PM_RECORD_SAMPLE;
	/* (a pipe's events are known once its HEADER_ATTRs went past) */
	assert_int_equal(pm_reader__nr_events(r), 1);
	assert_int_equal(pm_reader__event(r, 0)->attr.hf_sample_period,
			 attr_size >= 144 ? 100 : 0);
	assert_string_equal(pm_features__pmu_cap(pm_reader__features(r), NULL, "slots"),
			    "0x00000005");
	assert_string_equal(pm_features__pmu_cap(pm_reader__features(r), "cpu", "branches"),
			    "32");
	assert_null(pm_features__pmu_cap(pm_reader__features(r), "cpu", "slots"));
	pm_reader__delete(r);
	return n;
}

static void test_oracle_files(void **state)
{
	const char *out = getenv("PMPROF_WRITER_OUT");
	char tmp[] = "/tmp/pmprof-writer-XXXXXX", path[600];
	const char *dir = out;
	struct pm_elf_image elf = {
		.machine = PM_KIT_EM_X86_64, .text_addr = 0x401000,
		.text_size = 0x1000, .syms = prog_syms, .nr_syms = 3,
	};
	FILE *expect = NULL;

	(void)state;
	if (!dir)
		dir = mkdtemp(tmp);
	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/prog", dir);
	assert_int_equal(pm_kit__write_elf(path, &elf), 0);
	snprintf(path, sizeof(path), "%s/expected.txt", dir);
	expect = fopen(path, "w");
	assert_non_null(expect);
	assert_int_equal(oracle_file(dir, "le.data", false, false, 128, false, expect), 6);
	fclose(expect);
	assert_int_equal(oracle_file(dir, "be.data", true, false, 128, false, NULL), 6);
	assert_int_equal(oracle_file(dir, "le-cc.data", false, false, 0, true, NULL), 6);
	assert_int_equal(oracle_file(dir, "be-cc.data", true, false, 0, true, NULL), 6);
	assert_int_equal(oracle_file(dir, "le-64.data", false, false, 64, false, NULL), 6);
	assert_int_equal(oracle_file(dir, "be-96.data", true, false, 96, false, NULL), 6);
	assert_int_equal(oracle_file(dir, "le-pipe.data", false, true, 128, false, NULL), 6);
	assert_int_equal(oracle_file(dir, "le-144.data", false, false, 144, false, NULL), 6);
	assert_int_equal(oracle_file(dir, "be-144.data", true, false, 144, false, NULL), 6);
	if (!out) {
		char cmd[700];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		assert_int_equal(system(cmd), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comm_literal),
		cmocka_unit_test(test_sample_literal),
		cmocka_unit_test(test_records_both_orders),
		cmocka_unit_test(test_sample_every_field),
		cmocka_unit_test(test_sample_read_formats),
		cmocka_unit_test(test_sample_reader_round_trip),
		cmocka_unit_test(test_file_layout),
		cmocka_unit_test(test_pipe_layout),
		cmocka_unit_test(test_attr_sizes),
		cmocka_unit_test(test_copy_record),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_unclosed_file_reads),
		cmocka_unit_test(test_pmu_caps),
		cmocka_unit_test(test_oracle_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
