// SPDX-License-Identifier: GPL-2.0
/*
 * The reader against hand-built bytes (rawfile.h): every attr size in both
 * byte orders, every sample field with every read_format, pipe streams,
 * compressed records, payloads outside header.size, interrupted and
 * truncated files, counts that lie, and READ records (perf record -s).
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
#include <zstd.h>

#include "pmprof/perfdata.h"
#include "pmprof/records.h"
#include "pmprof/report.h"
#include "pmprof/table.h"
#include "pmprof/thread_counts.h"
#include "unit/rawfile.h"

/* ---- building files -------------------------------------------------- */

struct tattr {
	uint32_t type;
	uint64_t config, period, sample_type, read_format, flags;
	uint64_t branch_sample_type, regs_user, regs_intr;
	uint32_t hf_period, hf_rand;
};

/* The full 160-byte attr by field offset; the caller keeps `size`. */
static void put_attr(struct rawbuf *out, const struct tattr *a, uint32_t size)
{
	struct rawbuf t = { .be = out->be };

	rb_u32(&t, a->type);
	rb_u32(&t, size);
	rb_u64(&t, a->config);
	rb_u64(&t, a->period);
	rb_u64(&t, a->sample_type);
	rb_u64(&t, a->read_format);
	rb_u64(&t, rb_flags_word(a->flags, t.be));
	rb_u32(&t, 7);			/* 48 wakeup_events */
	rb_u32(&t, 0);			/* 52 bp_type */
	rb_u64(&t, a->config + 1);	/* 56 config1 */
	rb_u64(&t, a->config + 2);	/* 64 config2 */
	rb_u64(&t, a->branch_sample_type);	/* 72 */
	rb_u64(&t, a->regs_user);	/* 80 */
	rb_u32(&t, 8192);		/* 88 sample_stack_user */
	rb_u32(&t, 4);			/* 92 clockid */
	rb_u64(&t, a->regs_intr);	/* 96 */
	rb_u32(&t, 0x11);		/* 104 aux_watermark */
	rb_u16(&t, 127);		/* 108 sample_max_stack */
	rb_u16(&t, 0);
	rb_u32(&t, 0x22);		/* 112 aux_sample_size */
	rb_u32(&t, 0);
	rb_u64(&t, 0x3333);		/* 120 sig_data */
	rb_u64(&t, a->config + 3);	/* 128 config3 */
	/* 136 hf_sample: period bits 0-31, rand 32-35 in little endian;
	 * from the top in big endian. */
	if (t.be)
		rb_u64(&t, (uint64_t)a->hf_period << 32 | (uint64_t)a->hf_rand << 28);
	else
		rb_u64(&t, a->hf_period | (uint64_t)a->hf_rand << 32);
	rb_u64(&t, 0x5555);		/* 144: a future field */
	rb_u64(&t, 0x6666);		/* 152 */
	if (size <= t.len) {
		rb_bytes(out, t.p, size);
	} else {
		rb_bytes(out, t.p, t.len);
		rb_zeros(out, size - t.len);
	}
	free(t.p);
}

struct tfile {
	const struct tattr *attrs;
	int nr_attrs;
	uint32_t attr_bytes;		/* on-disk attr size */
	const uint64_t (*ids)[2];	/* two ids per attr, or NULL */
	const struct rawbuf *data;
	bool interrupted;		/* write data.size 0 */
	const char *hostname;
	bool be;
};

static struct rawbuf build_file(const struct tfile *f)
{
	struct rawbuf b = { .be = f->be };
	size_t ids_off, attrs_off, data_off, idx_off, i;

	rb_zeros(&b, 104);
	ids_off = b.len;
	for (i = 0; f->ids && i < (size_t)f->nr_attrs; i++) {
		rb_u64(&b, f->ids[i][0]);
		rb_u64(&b, f->ids[i][1]);
	}
	attrs_off = b.len;
	for (i = 0; i < (size_t)f->nr_attrs; i++) {
		put_attr(&b, &f->attrs[i], f->attr_bytes);
		rb_u64(&b, f->ids ? ids_off + 16 * i : 0);
		rb_u64(&b, f->ids ? 16 : 0);
	}
	data_off = b.len;
	rb_bytes(&b, f->data->p, f->data->len);
	idx_off = b.len;
	if (f->hostname) {
		size_t payload = idx_off + 16;

		rb_u64(&b, payload);
		rb_u64(&b, 0);		/* patched below */
		rb_string(&b, f->hostname, 64);
		rb_patch(&b, idx_off + 8, b.len - payload, 8);
	}
	/* The header, now that every offset is known. */
	rb_patch(&b, 0, 0x32454c4946524550ULL, 8);	/* "PERFILE2" */
	rb_patch(&b, 8, 104, 8);
	rb_patch(&b, 16, f->attr_bytes + 16, 8);
	rb_patch(&b, 24, attrs_off, 8);
	rb_patch(&b, 32, (uint64_t)f->nr_attrs * (f->attr_bytes + 16), 8);
	rb_patch(&b, 40, data_off, 8);
	rb_patch(&b, 48, f->interrupted ? 0 : idx_off - data_off, 8);
	if (f->hostname)
		rb_patch(&b, 72, 1ULL << 3, 8);	/* HOSTNAME */
	return b;
}

static struct pm_reader *open_buf(const struct rawbuf *b)
{
	struct pm_reader *r = NULL;
	struct pm_error err = { 0 };
	int ret = pm_reader__open_mem(&r, b->p, b->len, "test", &err);

	if (ret)
		fail_msg("open: %s (offset %llu)", err.msg,
			 (unsigned long long)err.offset);
	return r;
}

/* ---- attrs ----------------------------------------------------------- */

static void test_attr_sizes(void **state)
{
	static const uint32_t sizes[] = { 64, 72, 80, 96, 104, 112, 120, 128,
					  136, 144, 152, 160 };
	const struct tattr a = {
		.type = 4, .config = 0x1234, .period = 999700,
		.sample_type = 0x107, .read_format = 0x1c,
		.flags = 1 | 1 << 5 | 2ULL << 15 | 1ULL << 18 | 1ULL << 37,
		.branch_sample_type = 0x20000, .regs_user = 0xff,
		.regs_intr = 0xf0, .hf_period = 300, .hf_rand = 7,
	};
	size_t i;
	int be;

	(void)state;
	for (be = 0; be < 2; be++) {
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			struct rawbuf data = { .be = be };
			struct tfile f = { .attrs = &a, .nr_attrs = 1,
					   .attr_bytes = sizes[i], .data = &data,
					   .be = be };
			struct rawbuf b = build_file(&f);
			struct pm_reader *r = open_buf(&b);
			const struct pm_attr *x = &pm_reader__event(r, 0)->attr;
			uint32_t s = sizes[i];

			assert_int_equal(pm_reader__big_endian(r), be);
			assert_int_equal(x->type, 4);
			assert_int_equal(x->size, s);
			assert_int_equal(x->config, 0x1234);
			assert_int_equal(x->sample_period, 999700);
			assert_int_equal(x->sample_type, 0x107);
			assert_int_equal(x->read_format, 0x1c);
			assert_true(pm_attr__flag(x, PM_ATTR_DISABLED));
			assert_true(pm_attr__flag(x, PM_ATTR_EXCLUDE_KERNEL));
			assert_false(pm_attr__flag(x, PM_ATTR_EXCLUDE_USER));
			assert_int_equal(pm_attr__precise_ip(x), 2);
			assert_true(pm_attr__flag(x, PM_ATTR_SAMPLE_ID_ALL));
			assert_true(pm_attr__flag(x, PM_ATTR_SIGTRAP));
			assert_int_equal(x->config1, s >= 64 ? 0x1235 : 0);
			assert_int_equal(x->config2, s >= 72 ? 0x1236 : 0);
			assert_int_equal(x->branch_sample_type, s >= 80 ? 0x20000 : 0);
			assert_int_equal(x->sample_regs_user, s >= 96 ? 0xff : 0);
			assert_int_equal(x->sample_stack_user, s >= 96 ? 8192 : 0);
			assert_int_equal(x->sample_regs_intr, s >= 104 ? 0xf0 : 0);
			assert_int_equal(x->aux_watermark, s >= 112 ? 0x11 : 0);
			assert_int_equal(x->sample_max_stack, s >= 112 ? 127 : 0);
			assert_int_equal(x->aux_sample_size, s >= 120 ? 0x22 : 0);
			assert_int_equal(x->sig_data, s >= 128 ? 0x3333 : 0);
			assert_int_equal(x->config3, s >= 136 ? 0x1237 : 0);
			assert_int_equal(x->hf_sample_period, s >= 144 ? 300 : 0);
			assert_int_equal(x->hf_sample_rand, s >= 144 ? 7 : 0);
			pm_reader__delete(r);
			free(b.p);
		}
	}
}

/* ---- every sample field ---------------------------------------------- */

#define ALL_FIELDS (PM_SAMPLE_IDENTIFIER | PM_SAMPLE_IP | PM_SAMPLE_TID | \
	PM_SAMPLE_TIME | PM_SAMPLE_ADDR | PM_SAMPLE_ID | PM_SAMPLE_STREAM_ID | \
	PM_SAMPLE_CPU | PM_SAMPLE_PERIOD | PM_SAMPLE_READ | \
	PM_SAMPLE_CALLCHAIN | PM_SAMPLE_RAW | PM_SAMPLE_BRANCH_STACK | \
	PM_SAMPLE_REGS_USER | PM_SAMPLE_STACK_USER | PM_SAMPLE_WEIGHT | \
	PM_SAMPLE_DATA_SRC | PM_SAMPLE_TRANSACTION | PM_SAMPLE_REGS_INTR | \
	PM_SAMPLE_PHYS_ADDR | PM_SAMPLE_CGROUP | PM_SAMPLE_DATA_PAGE_SIZE | \
	PM_SAMPLE_CODE_PAGE_SIZE | PM_SAMPLE_AUX)

/* One sample with every field, values chosen so each is distinct. */
static void put_full_sample(struct rawbuf *d, uint64_t rf)
{
	size_t at = rb_record_begin(d, PM_RECORD_SAMPLE, PM_MISC_USER);
	static const uint8_t raw[12] = "profileme!!";
	uint64_t i, nr = 3;

	rb_u64(d, 42);				/* IDENTIFIER */
	rb_u64(d, 0x400123);			/* IP */
	rb_u32(d, 100); rb_u32(d, 101);		/* TID */
	rb_u64(d, 123456789);			/* TIME */
	rb_u64(d, 0xdead0000);			/* ADDR */
	rb_u64(d, 42);				/* ID */
	rb_u64(d, 43);				/* STREAM_ID */
	rb_u32(d, 1); rb_u32(d, 0);		/* CPU */
	rb_u64(d, 300);				/* PERIOD */
	if (rf & PM_FORMAT_GROUP) {		/* READ */
		rb_u64(d, nr);
		if (rf & PM_FORMAT_TOTAL_TIME_ENABLED)
			rb_u64(d, 1000);
		if (rf & PM_FORMAT_TOTAL_TIME_RUNNING)
			rb_u64(d, 900);
		for (i = 0; i < nr; i++) {
			rb_u64(d, 5000 + i);
			if (rf & PM_FORMAT_ID)
				rb_u64(d, 42 + i);
			if (rf & PM_FORMAT_LOST)
				rb_u64(d, i);
		}
	} else {
		rb_u64(d, 5000);
		if (rf & PM_FORMAT_TOTAL_TIME_ENABLED)
			rb_u64(d, 1000);
		if (rf & PM_FORMAT_TOTAL_TIME_RUNNING)
			rb_u64(d, 900);
		if (rf & PM_FORMAT_ID)
			rb_u64(d, 42);
		if (rf & PM_FORMAT_LOST)
			rb_u64(d, 7);
	}
	rb_u64(d, 3);				/* CALLCHAIN */
	rb_u64(d, PM_CONTEXT_USER);
	rb_u64(d, 0x400123);
	rb_u64(d, 0x400456);
	rb_u32(d, 12);				/* RAW: 4 + 12 = 16 */
	rb_bytes(d, raw, 12);
	rb_u64(d, 2);				/* BRANCH_STACK */
	rb_u64(d, 9);				/* hw_idx */
	for (i = 0; i < 2; i++) {
		rb_u64(d, 0x1000 + i);
		rb_u64(d, 0x2000 + i);
		rb_u64(d, 0x30 + i);
	}
	rb_u64(d, 2);				/* REGS_USER abi 64 */
	rb_u64(d, 11); rb_u64(d, 12); rb_u64(d, 13);	/* mask 0b1011 */
	rb_u64(d, 16);				/* STACK_USER */
	rb_bytes(d, "0123456789abcdef", 16);
	rb_u64(d, 10);				/* dyn_size */
	rb_u64(d, 77);				/* WEIGHT */
	rb_u64(d, 0x29080142ULL);		/* DATA_SRC */
	rb_u64(d, 0x5);				/* TRANSACTION */
	rb_u64(d, 2);				/* REGS_INTR */
	rb_u64(d, 21); rb_u64(d, 22);		/* mask 0b11 */
	rb_u64(d, 0xabc000);			/* PHYS_ADDR */
	rb_u64(d, 99);				/* CGROUP */
	rb_u64(d, 4096);			/* DATA_PAGE_SIZE */
	rb_u64(d, 2097152);			/* CODE_PAGE_SIZE */
	rb_u64(d, 8);				/* AUX */
	rb_bytes(d, "auxdata!", 8);
	rb_record_end(d, at);
}

static void check_full_sample(const struct pm_sample *s, uint64_t rf)
{
	uint64_t i;

	assert_int_equal(s->identifier, 42);
	assert_int_equal(s->ip, 0x400123);
	assert_int_equal(s->pid, 100);
	assert_int_equal(s->tid, 101);
	assert_int_equal(s->time, 123456789);
	assert_int_equal(s->addr, 0xdead0000);
	assert_int_equal(s->id, 42);
	assert_int_equal(s->stream_id, 43);
	assert_int_equal(s->cpu, 1);
	assert_int_equal(s->period, 300);
	assert_int_equal(s->cpumode, PM_MISC_USER);
	if (rf & PM_FORMAT_GROUP) {
		assert_int_equal(s->read.nr, 3);
		for (i = 0; i < 3; i++) {
			assert_int_equal(s->read.values[i].value, 5000 + i);
			assert_int_equal(s->read.values[i].id,
					 rf & PM_FORMAT_ID ? 42 + i : 0);
			assert_int_equal(s->read.values[i].lost,
					 rf & PM_FORMAT_LOST ? i : 0);
		}
	} else {
		assert_int_equal(s->read.nr, 1);
		assert_int_equal(s->read.values[0].value, 5000);
		assert_int_equal(s->read.values[0].id, rf & PM_FORMAT_ID ? 42 : 0);
		assert_int_equal(s->read.values[0].lost, rf & PM_FORMAT_LOST ? 7 : 0);
	}
	assert_int_equal(s->read.time_enabled,
			 rf & PM_FORMAT_TOTAL_TIME_ENABLED ? 1000 : 0);
	assert_int_equal(s->read.time_running,
			 rf & PM_FORMAT_TOTAL_TIME_RUNNING ? 900 : 0);
	assert_int_equal(s->callchain_nr, 3);
	assert_int_equal(s->callchain[0], PM_CONTEXT_USER);
	assert_int_equal(s->callchain[2], 0x400456);
	assert_int_equal(s->raw_size, 12);
	assert_memory_equal(s->raw, "profileme!!", 12);
	assert_int_equal(s->branch_nr, 2);
	assert_int_equal(s->branch_hw_idx, 9);
	assert_int_equal(s->branches[1].from, 0x1001);
	assert_int_equal(s->branches[1].to, 0x2001);
	assert_int_equal(s->branches[1].flags, 0x31);
	assert_int_equal(s->regs_user.abi, 2);
	assert_int_equal(s->regs_user.nr, 3);
	assert_int_equal(s->regs_user.regs[0], 11);
	assert_int_equal(s->regs_user.regs[2], 13);
	assert_int_equal(s->stack_user_size, 16);
	assert_memory_equal(s->stack_user, "0123456789abcdef", 16);
	assert_int_equal(s->stack_user_dyn_size, 10);
	assert_int_equal(s->weight, 77);
	assert_int_equal(s->data_src, 0x29080142ULL);
	assert_int_equal(s->transaction, 5);
	assert_int_equal(s->regs_intr.nr, 2);
	assert_int_equal(s->regs_intr.regs[0], 21);
	assert_int_equal(s->regs_intr.regs[1], 22);
	assert_int_equal(s->phys_addr, 0xabc000);
	assert_int_equal(s->cgroup, 99);
	assert_int_equal(s->data_page_size, 4096);
	assert_int_equal(s->code_page_size, 2097152);
	assert_int_equal(s->aux_size, 8);
	assert_memory_equal(s->aux, "auxdata!", 8);
}

static void test_sample_every_field(void **state)
{
	uint64_t rf;
	int be;

	(void)state;
	for (be = 0; be < 2; be++) {
		for (rf = 0; rf < 32; rf++) {
			struct tattr a = {
				.type = 0, .period = 300, .sample_type = ALL_FIELDS,
				.read_format = rf, .flags = 1ULL << 18,
				.branch_sample_type = PM_BRANCH_HW_INDEX,
				.regs_user = 0xb, .regs_intr = 0x3,
			};
			struct rawbuf data = { .be = be };
			struct tfile f = { .attrs = &a, .nr_attrs = 1,
					   .attr_bytes = 128, .data = &data,
					   .be = be };
			struct pm_record rec;
			struct pm_sample s;
			struct pm_error err = { 0 };
			struct rawbuf b;
			struct pm_reader *r;

			put_full_sample(&data, rf);
			b = build_file(&f);
			r = open_buf(&b);
			assert_int_equal(pm_reader__next(r, &rec, &err), 1);
			assert_int_equal(rec.type, PM_RECORD_SAMPLE);
			assert_int_equal(rec.offset, 104 + 128 + 16);
			if (pm_reader__parse_sample(r, &rec, &s, &err))
				fail_msg("rf %llu be %d: %s", (unsigned long long)rf,
					 be, err.msg);
			check_full_sample(&s, rf);
			assert_int_equal(pm_reader__next(r, &rec, &err), 0);
			pm_reader__delete(r);
			free(b.p);
			free(data.p);
		}
	}
}

/* ---- ids, trailers, several events ----------------------------------- */

static void test_ids_and_trailer(void **state)
{
	const uint64_t ids[2][2] = { { 10, 11 }, { 20, 21 } };
	const struct tattr a[2] = {
		{ .type = 1, .config = 0, .sample_type = PM_SAMPLE_IP | PM_SAMPLE_TID |
		  PM_SAMPLE_TIME | PM_SAMPLE_ID | PM_SAMPLE_CPU,
		  .flags = 1ULL << 18 },
		{ .type = 1, .config = 2, .sample_type = PM_SAMPLE_IP | PM_SAMPLE_TID |
		  PM_SAMPLE_TIME | PM_SAMPLE_ID | PM_SAMPLE_CPU,
		  .flags = 1ULL << 18 },
	};
	int be;

	(void)state;
	for (be = 0; be < 2; be++) {
		struct rawbuf d = { .be = be };
		struct tfile f = { .attrs = a, .nr_attrs = 2, .attr_bytes = 120,
				   .ids = ids, .data = &d, .hostname = "host", .be = be };
		struct pm_record rec;
		struct pm_sample s;
		struct pm_sample_id sid;
		struct pm_rec_comm comm;
		struct pm_error err = { 0 };
		struct pm_reader *r;
		struct rawbuf b;
		size_t at;

		at = rb_record_begin(&d, PM_RECORD_SAMPLE, PM_MISC_KERNEL);
		rb_u64(&d, 0xffffffff81000000ULL);
		rb_u32(&d, 5); rb_u32(&d, 6);
		rb_u64(&d, 1000);
		rb_u64(&d, 21);			/* second event, second id */
		rb_u32(&d, 1); rb_u32(&d, 0);
		rb_record_end(&d, at);
		at = rb_record_begin(&d, PM_RECORD_COMM, 0);
		rb_u32(&d, 5); rb_u32(&d, 6);
		rb_bytes(&d, "worker\0\0", 8);
		rb_u32(&d, 5); rb_u32(&d, 6);	/* trailer: TID TIME ID CPU */
		rb_u64(&d, 2000);
		rb_u64(&d, 10);
		rb_u32(&d, 0); rb_u32(&d, 0);
		rb_record_end(&d, at);
		b = build_file(&f);
		r = open_buf(&b);
		assert_string_equal(pm_reader__features(r)->hostname, "host");
		assert_int_equal(pm_reader__nr_events(r), 2);
		assert_ptr_equal(pm_reader__event_by_id(r, 11), pm_reader__event(r, 0));
		assert_ptr_equal(pm_reader__event_by_id(r, 20), pm_reader__event(r, 1));
		assert_null(pm_reader__event_by_id(r, 12));
		assert_string_equal(pm_reader__event(r, 1)->name, "page-faults");

		assert_int_equal(pm_reader__next(r, &rec, &err), 1);
		assert_int_equal(pm_reader__parse_sample(r, &rec, &s, &err), 0);
		assert_ptr_equal(s.event, pm_reader__event(r, 1));
		assert_int_equal(s.cpumode, PM_MISC_KERNEL);
		assert_int_equal(s.ip, 0xffffffff81000000ULL);
		assert_int_equal(s.cpu, 1);

		assert_int_equal(pm_reader__next(r, &rec, &err), 1);
		assert_int_equal(rec.type, PM_RECORD_COMM);
		assert_int_equal(pm_rec__comm(r, &rec, &comm, &err), 0);
		assert_string_equal(comm.comm, "worker");
		assert_int_equal(pm_reader__parse_sample_id(r, &rec, &sid, &err), 0);
		assert_ptr_equal(sid.event, pm_reader__event(r, 0));
		assert_int_equal(sid.time, 2000);
		assert_int_equal(sid.tid, 6);
		assert_int_equal(pm_reader__next(r, &rec, &err), 0);
		pm_reader__delete(r);
		free(b.p);
		free(d.p);
	}
}

/* ---- pipe streams ---------------------------------------------------- */

static void test_pipe_stream(void **state)
{
	int be;

	(void)state;
	for (be = 0; be < 2; be++) {
		struct rawbuf b = { .be = be };
		const struct tattr a = { .type = 1, .sample_type = PM_SAMPLE_IP |
					 PM_SAMPLE_ID, .flags = 1 };
		struct pm_record rec;
		struct pm_sample s;
		struct pm_error err = { 0 };
		struct pm_reader *r;
		size_t at;
		int n = 0;

		rb_u64(&b, 0x32454c4946524550ULL);
		rb_u64(&b, 16);
		at = rb_record_begin(&b, PM_RECORD_HEADER_ATTR, 0);
		put_attr(&b, &a, 136);
		rb_u64(&b, 77);
		rb_u64(&b, 78);
		rb_record_end(&b, at);
		at = rb_record_begin(&b, PM_RECORD_HEADER_FEATURE, 0);
		rb_u64(&b, 6);			/* ARCH */
		rb_string(&b, "alpha", 64);
		rb_record_end(&b, at);
		at = rb_record_begin(&b, PM_RECORD_SAMPLE, 0);
		rb_u64(&b, 0x1200);
		rb_u64(&b, 78);
		rb_record_end(&b, at);
		r = open_buf(&b);
		assert_true(pm_reader__is_pipe(r));
		while (pm_reader__next(r, &rec, &err) > 0)
			n++;
		assert_int_equal(n, 3);
		assert_int_equal(pm_reader__nr_events(r), 1);
		assert_string_equal(pm_reader__features(r)->arch, "alpha");
		assert_ptr_equal(pm_reader__event_by_id(r, 78), pm_reader__event(r, 0));
		assert_int_equal(pm_reader__event(r, 0)->attr.size, 136);
		assert_int_equal(pm_reader__rewind(r, &err), 0);
		assert_int_equal(pm_reader__next(r, &rec, &err), 1);
		assert_int_equal(pm_reader__next(r, &rec, &err), 1);
		assert_int_equal(pm_reader__next(r, &rec, &err), 1);
		assert_int_equal(pm_reader__parse_sample(r, &rec, &s, &err), 0);
		assert_int_equal(s.ip, 0x1200);
		pm_reader__delete(r);
		free(b.p);
	}
}

/* ---- bits the format does not define ----------------------------------- */

/* A bit of sample_type, read_format or (with BRANCH_STACK)
 * branch_sample_type beyond the ABI would make every sample a guess: the
 * file is refused at the field, in both byte orders, file and pipe. */
static void test_unknown_format_bits(void **state)
{
	static const struct {
		struct tattr a;
		size_t field;
		const char *says;
	} cases[] = {
		{ { .type = 1, .sample_type = PM_SAMPLE_IP | 1ULL << 25 }, 24,
		  "sample_type 0x2000001 has bit 25 (0x2000000)" },
		{ { .type = 1, .sample_type = PM_SAMPLE_IP | 1ULL << 63 }, 24, "bit 63" },
		{ { .type = 1, .sample_type = PM_SAMPLE_READ, .read_format = PM_FORMAT_ID | 1 << 5 },
		  32, "read_format 0x24 has bit 5 (0x20)" },
		{ { .type = 1, .sample_type = PM_SAMPLE_BRANCH_STACK,
		    .branch_sample_type = PM_BRANCH_COUNTERS | 1ULL << 20 }, 72,
		  "branch_sample_type 0x180000 has bit 20" },
	};
	size_t i;
	int be;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (be = 0; be < 2; be++) {
			struct rawbuf d = { 0 }, b, p = { .be = be };
			struct tfile f = { .attrs = &cases[i].a, .nr_attrs = 2, .attr_bytes = 128,
					   .data = &d, .be = be };
			struct tattr two[2] = { { .type = 1, .sample_type = PM_SAMPLE_IP },
						cases[i].a };
			struct pm_reader *r = NULL;
			struct pm_error err = { 0 };
			struct pm_record rec;
			size_t at;
			int ret;

			/* the second attr is the bad one: the message says which */
			f.attrs = two;
			b = build_file(&f);
			assert_int_equal(pm_reader__open_mem(&r, b.p, b.len, "t", &err),
					 -PM_EFORMAT);
			assert_true(err.has_offset);
			assert_int_equal(err.offset, 104 + 144 + cases[i].field);
			if (!strstr(err.msg, cases[i].says) || !strstr(err.msg, "attr 1 ("))
				fail_msg("case %zu: %s", i, err.msg);
			free(b.p);

			/* the same attr in a pipe's HEADER_ATTR */
			rb_u64(&p, 0x32454c4946524550ULL);
			rb_u64(&p, 16);
			at = rb_record_begin(&p, PM_RECORD_HEADER_ATTR, 0);
			put_attr(&p, &cases[i].a, 128);
			rb_u64(&p, 5);
			rb_record_end(&p, at);
			memset(&err, 0, sizeof(err));
			ret = pm_reader__open_mem(&r, p.p, p.len, "t", &err);
			if (!ret) {
				while ((ret = pm_reader__next(r, &rec, &err)) > 0)
					;
				pm_reader__delete(r);
			}
			assert_int_equal(ret, -PM_EFORMAT);
			assert_int_equal(err.offset, 16 + 8 + cases[i].field);
			if (!strstr(err.msg, cases[i].says) || !strstr(err.msg, "HEADER_ATTR ("))
				fail_msg("pipe case %zu: %s", i, err.msg);
			free(p.p);
		}
	}
}

/* Linux 6.8's branch counters: a u64 per branch entry after the entries
 * (with the hw_idx before them), then the fields that follow. */
static void test_branch_counters(void **state)
{
	const struct tattr a = { .type = 4, .sample_type = PM_SAMPLE_IP |
		PM_SAMPLE_BRANCH_STACK | PM_SAMPLE_WEIGHT | PM_SAMPLE_DATA_SRC,
		.branch_sample_type = PM_BRANCH_HW_INDEX | PM_BRANCH_COUNTERS | 1 };
	struct rawbuf d = { 0 }, b;
	struct tfile f = { .attrs = &a, .nr_attrs = 1, .attr_bytes = 136, .data = &d };
	struct pm_reader *r;
	struct pm_record rec;
	struct pm_sample s;
	struct pm_error err = { 0 };
	size_t at = rb_record_begin(&d, PM_RECORD_SAMPLE, 0);

	(void)state;
	rb_u64(&d, 0x4000);		/* IP */
	rb_u64(&d, 2);			/* nr */
	rb_u64(&d, 9);			/* hw_idx */
	rb_u64(&d, 0x10); rb_u64(&d, 0x20); rb_u64(&d, 1);
	rb_u64(&d, 0x30); rb_u64(&d, 0x40); rb_u64(&d, 2);
	rb_u64(&d, 0x0303);		/* counters[0] */
	rb_u64(&d, 0x0404);		/* counters[1] */
	rb_u64(&d, 77);			/* WEIGHT */
	rb_u64(&d, 0x1234);		/* DATA_SRC */
	rb_record_end(&d, at);
	b = build_file(&f);
	r = open_buf(&b);
	assert_int_equal(pm_reader__next(r, &rec, &err), 1);
	assert_int_equal(pm_reader__parse_sample(r, &rec, &s, &err), 0);
	assert_int_equal(s.branch_nr, 2);
	assert_int_equal(s.branch_hw_idx, 9);
	assert_int_equal(s.branches[1].to, 0x40);
	assert_int_equal(s.weight, 77);
	assert_int_equal(s.data_src, 0x1234);
	pm_reader__delete(r);
	free(b.p);
	free(d.p);
}

/* ---- compressed records ---------------------------------------------- */

/* Records compressed as one stream, flushed after `split` bytes, so one
 * record straddles the two COMPRESSED records. */
static void put_compressed(struct rawbuf *d, const struct rawbuf *plain,
			   size_t split, bool v2)
{
	ZSTD_CStream *cs = ZSTD_createCStream();
	size_t part[2] = { split, plain->len - split }, off = 0;
	int i;

	ZSTD_initCStream(cs, 1);
	for (i = 0; i < 2; i++) {
		uint8_t out[4096];
		ZSTD_inBuffer in = { plain->p + off, part[i], 0 };
		ZSTD_outBuffer o = { out, sizeof(out), 0 };
		size_t at;

		ZSTD_compressStream2(cs, &o, &in, ZSTD_e_flush);
		assert_int_equal(in.pos, part[i]);
		at = rb_record_begin(d, v2 ? PM_RECORD_COMPRESSED2 : PM_RECORD_COMPRESSED, 0);
		if (v2)
			rb_u64(d, o.pos);
		rb_bytes(d, out, o.pos);
		if (v2)
			rb_zeros(d, (8 - o.pos % 8) % 8);
		rb_record_end(d, at);
		off += part[i];
	}
	ZSTD_freeCStream(cs);
}

static void test_compressed(void **state)
{
	int v2;

	(void)state;
	for (v2 = 0; v2 < 2; v2++) {
		const struct tattr a = { .type = 1, .sample_type = PM_SAMPLE_IP,
					 .flags = 0 };
		struct rawbuf plain = { 0 }, d = { 0 };
		struct tfile f = { .attrs = &a, .nr_attrs = 1, .attr_bytes = 128,
				   .data = &d };
		struct pm_record rec;
		struct pm_sample s;
		struct pm_error err = { 0 };
		struct pm_reader *r;
		struct rawbuf b;
		uint64_t i, seen = 0;
		int compressed = 0;

		for (i = 0; i < 100; i++) {
			size_t at = rb_record_begin(&plain, PM_RECORD_SAMPLE, 0);

			rb_u64(&plain, 0x1000 + i);
			rb_record_end(&plain, at);
		}
		put_compressed(&d, &plain, 16 * 50 + 5, v2);	/* split a record */
		b = build_file(&f);
		r = open_buf(&b);
		while (pm_reader__next(r, &rec, &err) > 0) {
			if (rec.type == PM_RECORD_COMPRESSED ||
			    rec.type == PM_RECORD_COMPRESSED2) {
				compressed++;
				continue;
			}
			assert_true(rec.compressed);
			assert_int_equal(rec.zoffset, 16 * seen);
			assert_int_equal(pm_reader__parse_sample(r, &rec, &s, &err), 0);
			assert_int_equal(s.ip, 0x1000 + seen);
			seen++;
		}
		assert_int_equal(err.code, 0);
		assert_int_equal(compressed, 2);
		assert_int_equal(seen, 100);
		pm_reader__delete(r);
		free(b.p);
		free(d.p);
		free(plain.p);
	}
}

/* One COMPRESSED record of `plain`, flushed whole (its zstd bytes must fit
 * a record: the caller's data compresses well). */
static void put_compressed_whole(struct rawbuf *d, ZSTD_CStream *cs, const struct rawbuf *plain)
{
	size_t room = ZSTD_compressBound(plain->len) + 64, at;
	uint8_t *out = malloc(room);
	ZSTD_inBuffer in = { plain->p, plain->len, 0 };
	ZSTD_outBuffer o = { out, room, 0 };

	assert_int_equal(ZSTD_compressStream2(cs, &o, &in, ZSTD_e_flush), 0);
	assert_true(o.pos <= 65535 - 8);
	at = rb_record_begin(d, PM_RECORD_COMPRESSED, 0);
	rb_bytes(d, out, o.pos);
	rb_record_end(d, at);
	free(out);
}

/* A payload that inflates to far more than the reader's output chunk
 * (256 KB): zstd takes all the input long before it has given all the
 * output. Every record still comes out, and before the plain record that
 * follows the COMPRESSED one in the file; the last payload's tail too. */
static void test_compressed_large_payload(void **state)
{
	const struct tattr a = { .type = 1, .sample_type = PM_SAMPLE_IP };
	struct rawbuf part = { 0 }, d = { 0 }, b;
	struct tfile f = { .attrs = &a, .nr_attrs = 1, .attr_bytes = 128, .data = &d };
	ZSTD_CStream *cs = ZSTD_createCStream();
	enum { N = 40000 };	/* 16-byte samples: 640 KB a payload */
	struct pm_record rec;
	struct pm_sample s;
	struct pm_error err = { 0 };
	struct pm_reader *r;
	uint64_t want[2 * N + 1], seen = 0;
	int k, i, ret;

	(void)state;
	ZSTD_initCStream(cs, 3);
	for (k = 0; k < 2; k++) {
		part.len = 0;
		for (i = 0; i < N; i++) {
			size_t at = rb_record_begin(&part, PM_RECORD_SAMPLE, 0);

			rb_u64(&part, 0x1000 + 0x100000 * (uint64_t)k + (uint64_t)(i % 7));
			rb_record_end(&part, at);
			want[(size_t)k * (N + 1) + (size_t)i] = 0x1000 + 0x100000 * (uint64_t)k +
								(uint64_t)(i % 7);
		}
		put_compressed_whole(&d, cs, &part);
		if (k == 0) {	/* a plain sample between the two */
			size_t at = rb_record_begin(&d, PM_RECORD_SAMPLE, 0);

			rb_u64(&d, 0x999);
			rb_record_end(&d, at);
			want[N] = 0x999;
		}
	}
	b = build_file(&f);
	r = open_buf(&b);
	while ((ret = pm_reader__next(r, &rec, &err)) > 0) {
		if (rec.type != PM_RECORD_SAMPLE)
			continue;
		assert_int_equal(pm_reader__parse_sample(r, &rec, &s, &err), 0);
		if (seen >= 2 * N + 1 || s.ip != want[seen])
			fail_msg("sample %llu: ip %#llx", (unsigned long long)seen,
				 (unsigned long long)s.ip);
		seen++;
	}
	if (ret < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(seen, 2 * N + 1);
	pm_reader__delete(r);
	ZSTD_freeCStream(cs);
	free(b.p);
	free(d.p);
	free(part.p);
}

/* ---- payloads outside header.size, unknown types --------------------- */

static void test_extra_payloads(void **state)
{
	const struct tattr a = { .type = 1, .sample_type = PM_SAMPLE_IP };
	struct rawbuf d = { 0 };
	struct tfile f = { .attrs = &a, .nr_attrs = 1, .attr_bytes = 128, .data = &d };
	struct pm_record rec;
	struct pm_error err = { 0 };
	struct pm_reader *r;
	struct rawbuf b;
	uint32_t types[8];
	int n = 0;
	size_t at;

	(void)state;
	at = rb_record_begin(&d, PM_RECORD_HEADER_TRACING_DATA, 0);
	rb_u32(&d, 24);
	rb_u32(&d, 0);
	rb_record_end(&d, at);
	rb_bytes(&d, "tracing data blob 24 b!!", 24);
	at = rb_record_begin(&d, PM_RECORD_AUXTRACE, 0);
	rb_u64(&d, 8);			/* size of the payload after */
	rb_u64(&d, 0); rb_u64(&d, 0);
	rb_u32(&d, 0); rb_u32(&d, 0); rb_u32(&d, 0); rb_u32(&d, 0);
	rb_record_end(&d, at);
	rb_bytes(&d, "AUXAUXAU", 8);
	at = rb_record_begin(&d, 200, 0);	/* unknown: skipped by size */
	rb_u64(&d, 1); rb_u64(&d, 2);
	rb_record_end(&d, at);
	at = rb_record_begin(&d, PM_RECORD_SAMPLE, 0);
	rb_u64(&d, 0x4242);
	rb_record_end(&d, at);
	b = build_file(&f);
	r = open_buf(&b);
	while (pm_reader__next(r, &rec, &err) > 0) {
		types[n++] = rec.type;
		if (rec.type == PM_RECORD_HEADER_TRACING_DATA) {
			assert_int_equal(rec.extra_size, 24);
			assert_memory_equal(rec.extra, "tracing data blob 24 b!!", 24);
		}
		if (rec.type == PM_RECORD_AUXTRACE) {
			assert_int_equal(rec.extra_size, 8);
			assert_memory_equal(rec.extra, "AUXAUXAU", 8);
		}
	}
	assert_int_equal(err.code, 0);
	assert_int_equal(n, 4);
	assert_int_equal(types[2], 200);
	assert_int_equal(types[3], PM_RECORD_SAMPLE);
	pm_reader__delete(r);
	free(b.p);
	free(d.p);
}

/* ---- broken and hostile input ---------------------------------------- */

static struct rawbuf small_file(bool interrupted)
{
	static const struct tattr a = { .type = 1, .sample_type = PM_SAMPLE_IP |
		PM_SAMPLE_CALLCHAIN | PM_SAMPLE_READ, .read_format = PM_FORMAT_GROUP };
	struct rawbuf d = { 0 }, b;
	struct tfile f = { .attrs = &a, .nr_attrs = 1, .attr_bytes = 128,
			   .data = &d, .hostname = "h", .interrupted = interrupted };
	int i;

	for (i = 0; i < 4; i++) {
		size_t at = rb_record_begin(&d, PM_RECORD_SAMPLE, 0);

		rb_u64(&d, 0x10 + (uint64_t)i);
		rb_u64(&d, 1);			/* read nr */
		rb_u64(&d, 500);
		rb_u64(&d, 1);			/* callchain nr */
		rb_u64(&d, 0x10 + (uint64_t)i);
		rb_record_end(&d, at);
	}
	b = build_file(&f);
	free(d.p);
	return b;
}

/* Open and read everything; the first error's code, or 0. */
static int read_all(const uint8_t *p, size_t len, struct pm_error *err,
		    int *nsamples)
{
	struct pm_reader *r;
	struct pm_record rec;
	struct pm_sample s;
	int ret;

	*nsamples = 0;
	ret = pm_reader__open_mem(&r, p, len, "t", err);
	if (ret)
		return ret;
	while ((ret = pm_reader__next(r, &rec, err)) > 0) {
		if (rec.type != PM_RECORD_SAMPLE)
			continue;
		ret = pm_reader__parse_sample(r, &rec, &s, err);
		if (ret)
			break;
		(*nsamples)++;
	}
	pm_reader__delete(r);
	return ret;
}

static void test_every_truncation_fails_with_offset(void **state)
{
	struct rawbuf b = small_file(false);
	struct pm_error err;
	size_t len;
	int n;

	(void)state;
	assert_int_equal(read_all(b.p, b.len, &err, &n), 0);
	assert_int_equal(n, 4);
	for (len = 0; len < b.len; len++) {
		memset(&err, 0, sizeof(err));
		if (read_all(b.p, len, &err, &n) >= 0)
			fail_msg("a file cut at %zu of %zu bytes was accepted", len, b.len);
		assert_true(err.msg[0] != '\0');
		if (len > 0)
			assert_true(err.has_offset);
	}
	free(b.p);
}

static void test_interrupted_recording(void **state)
{
	struct rawbuf b = small_file(true);
	struct pm_error err = { 0 };
	int n;

	(void)state;
	/* No feature index: data runs to the end; cut the last record. */
	b.len -= 16 + 4 + 64 + 10;
	assert_int_equal(read_all(b.p, b.len, &err, &n), 0);
	assert_int_equal(n, 3);
	free(b.p);
}

/* A completed recording with no records: data size 0 and the feature
 * index at data.offset. Its features count; it is not cut short. A cut
 * one with no record yet (the header written at the start) is. */
static void test_empty_recording(void **state)
{
	static const struct tattr a = { .type = 1, .sample_type = PM_SAMPLE_IP };
	struct rawbuf d = { 0 }, b;
	struct tfile f = { .attrs = &a, .nr_attrs = 1, .attr_bytes = 128,
			   .data = &d, .hostname = "done", .interrupted = true };
	struct pm_reader *r;
	struct pm_record rec;
	struct pm_error err = { 0 };
	int be;

	(void)state;
	for (be = 0; be < 2; be++) {
		f.be = be;
		b = build_file(&f);
		r = open_buf(&b);
		assert_false(pm_reader__interrupted(r));
		assert_string_equal(pm_reader__features(r)->hostname, "done");
		assert_int_equal(pm_reader__next(r, &rec, &err), 0);
		pm_reader__delete(r);
		/* killed before any record: the header alone, or with perf's
		 * feature bits and no index yet */
		b.len = 104 + 144;
		r = open_buf(&b);
		assert_true(pm_reader__interrupted(r));
		assert_int_equal(pm_reader__next(r, &rec, &err), 0);
		pm_reader__delete(r);
		free(b.p);
		/* an index entry that points into the index */
		b = build_file(&f);
		rb_patch(&b, 104 + 144, 104 + 144, 8);
		r = open_buf(&b);
		assert_true(pm_reader__interrupted(r));
		pm_reader__delete(r);
		free(b.p);
	}
}

static void test_lying_counts(void **state)
{
	struct rawbuf b = small_file(false);
	size_t first = 104 + 128 + 16;
	struct pm_error err = { 0 };
	int n;

	(void)state;
	rb_patch(&b, first + 8 + 8, 1ULL << 60, 8);	/* read nr */
	assert_true(read_all(b.p, b.len, &err, &n) < 0);
	assert_true(err.has_offset);
	assert_true(err.offset >= first && err.offset < first + 48);
	free(b.p);

	b = small_file(false);
	rb_patch(&b, first + 8 + 24, UINT64_MAX / 4, 8);	/* callchain nr */
	memset(&err, 0, sizeof(err));
	assert_true(read_all(b.p, b.len, &err, &n) < 0);
	assert_non_null(strstr(err.msg, "CALLCHAIN"));
	free(b.p);

	b = small_file(false);
	rb_patch(&b, first + 6, 4, 2);			/* record size 4 */
	memset(&err, 0, sizeof(err));
	assert_true(read_all(b.p, b.len, &err, &n) < 0);
	assert_int_equal(err.offset, first);
	free(b.p);

	b = small_file(false);
	rb_patch(&b, 32, 1ULL << 62, 8);		/* attrs.size */
	memset(&err, 0, sizeof(err));
	assert_true(read_all(b.p, b.len, &err, &n) < 0);
	free(b.p);
}

/* open_mem's result on a file with one attr whose size field says
 * `size` in a slot of `slot` bytes. */
static int open_attr(uint32_t slot, uint32_t size, struct pm_error *err)
{
	const struct tattr a = { .type = 1, .sample_type = PM_SAMPLE_IP };
	struct rawbuf d = { 0 };
	struct tfile f = { .attrs = &a, .nr_attrs = 1, .attr_bytes = slot,
			   .data = &d };
	struct rawbuf b = build_file(&f);
	struct pm_reader *r = NULL;
	int ret;

	rb_patch(&b, 104 + 4, size, 4);
	memset(err, 0, sizeof(*err));
	ret = pm_reader__open_mem(&r, b.p, b.len, "test", err);
	if (!ret)
		assert_int_equal(pm_reader__event(r, 0)->attr.size, size);
	pm_reader__delete(r);
	free(b.p);
	return ret;
}

/* Attr sizes: 0 (64) or 64 to a page, within their slot; the header's
 * slot size from 64 + 16 to a page + 16. Anything else is refused with
 * the attr's offset, before it can size anything. */
static void test_attr_size_bounds(void **state)
{
	struct pm_error err;
	struct rawbuf d = { 0 };
	const struct tattr a = { .type = 1 };
	struct tfile f = { .attrs = &a, .nr_attrs = 1, .data = &d };
	struct rawbuf b;
	struct pm_reader *r = NULL;

	(void)state;
	assert_int_equal(open_attr(128, 0, &err), 0);
	assert_int_equal(open_attr(128, 64, &err), 0);
	assert_int_equal(open_attr(4096, 4096, &err), 0);
	assert_true(open_attr(4096, 4097, &err) < 0);
	assert_int_equal(err.offset, 104);
	assert_non_null(strstr(err.msg, "4097"));
	assert_true(open_attr(128, 63, &err) < 0);
	assert_true(open_attr(128, 0x10000000, &err) < 0);
	assert_int_equal(err.offset, 104);
	assert_true(open_attr(128, 136, &err) < 0);	/* past its slot */
	assert_non_null(strstr(err.msg, "136"));

	f.attr_bytes = 4104;				/* a slot over a page */
	b = build_file(&f);
	rb_patch(&b, 104 + 4, 128, 4);
	assert_true(pm_reader__open_mem(&r, b.p, b.len, "test", &err) < 0);
	assert_int_equal(err.offset, 16);
	free(b.p);

	/* attrs at offset 0: the header read as an attr */
	f.attr_bytes = 128;
	b = build_file(&f);
	rb_patch(&b, 24, 0, 8);
	assert_true(pm_reader__open_mem(&r, b.p, b.len, "test", &err) < 0);
	assert_int_equal(err.offset, 24);
	assert_non_null(strstr(err.msg, "header"));
	free(b.p);
}

static void test_not_perf_data(void **state)
{
	static const char junk[] = "this is not a perf.data file at all, is it?";
	struct pm_error err = { 0 };
	int n;

	(void)state;
	assert_true(read_all((const uint8_t *)junk, sizeof(junk), &err, &n) < 0);
	assert_non_null(strstr(err.msg, "magic"));
	assert_int_equal(err.offset, 0);
}

/* ---- READ records (inherit_stat) --------------------------------------- */

#define RF_ALL (PM_FORMAT_TOTAL_TIME_ENABLED | PM_FORMAT_TOTAL_TIME_RUNNING | \
		PM_FORMAT_ID | PM_FORMAT_LOST)

/* READ {pid, tid, value, enabled, running, id, lost}, trailer {TID, TIME, ID}. */
static void put_read(struct rawbuf *d, uint32_t pid, uint32_t tid, uint64_t value,
		     uint64_t id)
{
	size_t at = rb_record_begin(d, PM_RECORD_READ, 0);

	rb_u32(d, pid); rb_u32(d, tid);
	rb_u64(d, value);
	rb_u64(d, 5000);		/* enabled */
	rb_u64(d, 4000);		/* running */
	rb_u64(d, id);
	rb_u64(d, 3);			/* lost */
	rb_u32(d, pid); rb_u32(d, tid);
	rb_u64(d, 2000);
	rb_u64(d, id);
	rb_record_end(d, at);
}

static void test_read_records(void **state)
{
	const uint64_t ids[2][2] = { { 10, 11 }, { 20, 21 } };
	const uint64_t st = PM_SAMPLE_IP | PM_SAMPLE_TID | PM_SAMPLE_TIME | PM_SAMPLE_ID;
	/* sample_id_all, inherit_stat */
	const struct tattr a[2] = {
		{ .type = 1, .config = 0, .sample_type = st, .read_format = RF_ALL,
		  .flags = 1ULL << 18 | 1ULL << 11 },
		{ .type = 1, .config = 2, .sample_type = st, .read_format = RF_ALL,
		  .flags = 1ULL << 18 | 1ULL << 11 },
	};

	(void)state;
	for (int be = 0; be < 2; be++) {
		struct rawbuf d = { .be = be };
		struct tfile f = { .attrs = a, .nr_attrs = 2, .attr_bytes = 120,
				   .ids = ids, .data = &d, .hostname = "host", .be = be };
		struct pm_thread_counts *tc = pm_thread_counts__new();
		struct pm_report *rep = pm_report__new();
		struct pm_error err = { 0 };
		struct pm_read_value v;
		struct pm_rec_read rd;
		struct pm_record rec;
		struct pm_reader *r;
		struct pm_table *t;
		struct rawbuf b;
		size_t short_at;

		put_read(&d, 5, 6, 1234, 21);	/* page-faults of 5/6 */
		put_read(&d, 5, 7, 77, 10);	/* cpu-clock of 5/7 */
		put_read(&d, 5, 6, 1000, 20);	/* page-faults of 5/6 again */
		short_at = d.len;		/* value, no times: too short */
		size_t at = rb_record_begin(&d, PM_RECORD_READ, 0);
		rb_u32(&d, 5); rb_u32(&d, 6);
		rb_u64(&d, 9);
		rb_u32(&d, 5); rb_u32(&d, 6);
		rb_u64(&d, 2000);
		rb_u64(&d, 21);
		rb_record_end(&d, at);
		b = build_file(&f);
		r = open_buf(&b);

		assert_int_equal(pm_reader__next(r, &rec, &err), 1);
		assert_int_equal(pm_rec__read(r, &rec, &rd, &err), 0);
		assert_ptr_equal(rd.event, pm_reader__event(r, 1));
		assert_int_equal(rd.pid, 5);
		assert_int_equal(rd.tid, 6);
		assert_int_equal(rd.value.value, 1234);
		assert_int_equal(rd.time_enabled, 5000);
		assert_int_equal(rd.time_running, 4000);
		assert_int_equal(rd.value.id, 21);
		assert_int_equal(rd.value.lost, 3);
		assert_int_equal(rd.nr, 1);
		pm_rec_read__member(r, &rd, 0, &v);
		assert_int_equal(v.value, 1234);
		assert_int_equal(pm_thread_counts__record(tc, r, &rec, &err), 0);
		for (int i = 0; i < 2; i++) {
			assert_int_equal(pm_reader__next(r, &rec, &err), 1);
			assert_int_equal(pm_thread_counts__record(tc, r, &rec, &err), 0);
		}
		assert_int_equal(pm_reader__next(r, &rec, &err), 1);
		assert_true(pm_rec__read(r, &rec, &rd, &err) < 0);
		/* data after the header (104), the ids (2 x 16), the attrs
		 * (2 x (120 + 16)) */
		assert_int_equal(err.offset, 104 + 32 + 272 + short_at);
		assert_non_null(strstr(err.msg, "too short"));
		assert_true(pm_thread_counts__record(tc, r, &rec, &err) < 0);

		/* the table: threads in first-read order, sums per event */
		assert_int_equal(pm_thread_counts__nr_reads(tc), 3);
		pm_thread_counts__finish(tc, r, rep);
		t = pm_report__find_table(rep, "threads");
		assert_non_null(t);
		assert_int_equal(pm_table__nr_rows(t), 2);
		assert_int_equal(pm_table__nr_columns(t), 4);
		/* the events in the order first read, as perf */
		assert_string_equal(pm_table__column(t, 2)->name, "page-faults");
		assert_string_equal(pm_table__column(t, 3)->name, "cpu-clock");
		assert_int_equal(pm_table__get_u64(t, 0, 1), 6);
		assert_int_equal(pm_table__get_u64(t, 0, 2), 2234);
		assert_int_equal(pm_table__get_u64(t, 0, 3), 0);
		assert_int_equal(pm_table__get_u64(t, 1, 1), 7);
		assert_int_equal(pm_table__get_u64(t, 1, 2), 0);
		assert_int_equal(pm_table__get_u64(t, 1, 3), 77);
		assert_int_equal(pm_report__nr_warnings(rep), 0);
		pm_report__delete(rep);
		pm_thread_counts__delete(tc);
		pm_reader__delete(r);
		free(b.p);
		free(d.p);
	}
}

/* A group read: nr, the times, then {value, id} per member. */
static void test_read_group(void **state)
{
	const uint64_t ids[2][2] = { { 10, 11 }, { 20, 21 } };
	const uint64_t rf = PM_FORMAT_GROUP | PM_FORMAT_ID | PM_FORMAT_TOTAL_TIME_ENABLED;
	const struct tattr a[2] = {
		{ .type = 1, .config = 0, .sample_type = PM_SAMPLE_IP | PM_SAMPLE_ID,
		  .read_format = rf, .flags = 1ULL << 18 },
		{ .type = 1, .config = 2, .sample_type = PM_SAMPLE_IP | PM_SAMPLE_ID,
		  .read_format = rf, .flags = 1ULL << 18 },
	};

	(void)state;
	for (int be = 0; be < 2; be++) {
		struct rawbuf d = { .be = be };
		struct tfile f = { .attrs = a, .nr_attrs = 2, .attr_bytes = 120,
				   .ids = ids, .data = &d, .hostname = "host", .be = be };
		struct pm_error err = { 0 };
		struct pm_read_value v;
		struct pm_rec_read rd;
		struct pm_record rec;
		struct pm_reader *r;
		struct rawbuf b;
		size_t at = rb_record_begin(&d, PM_RECORD_READ, 0);

		rb_u32(&d, 8); rb_u32(&d, 9);
		rb_u64(&d, 2);			/* nr */
		rb_u64(&d, 600);		/* enabled */
		rb_u64(&d, 41); rb_u64(&d, 11);
		rb_u64(&d, 42); rb_u64(&d, 21);
		rb_u64(&d, 11);			/* trailer: ID */
		rb_record_end(&d, at);
		at = rb_record_begin(&d, PM_RECORD_READ, 0);	/* says 3 members, has 2 */
		rb_u32(&d, 8); rb_u32(&d, 9);
		rb_u64(&d, 3);
		rb_u64(&d, 600);
		rb_u64(&d, 41); rb_u64(&d, 11);
		rb_u64(&d, 42); rb_u64(&d, 21);
		rb_u64(&d, 11);
		rb_record_end(&d, at);
		b = build_file(&f);
		r = open_buf(&b);
		assert_int_equal(pm_reader__next(r, &rec, &err), 1);
		assert_int_equal(pm_rec__read(r, &rec, &rd, &err), 0);
		assert_ptr_equal(rd.event, pm_reader__event(r, 0));
		assert_int_equal(rd.nr, 2);
		assert_int_equal(rd.time_enabled, 600);
		assert_int_equal(rd.value.value, 41);
		pm_rec_read__member(r, &rd, 1, &v);
		assert_int_equal(v.value, 42);
		assert_int_equal(v.id, 21);
		assert_ptr_equal(pm_reader__event_by_id(r, v.id), pm_reader__event(r, 1));
		assert_int_equal(pm_reader__next(r, &rec, &err), 1);
		assert_true(pm_rec__read(r, &rec, &rd, &err) < 0);
		assert_int_equal(err.offset, rec.offset);
		pm_reader__delete(r);
		free(b.p);
		free(d.p);
	}
}

/*
 * Opening a big mapped file reads its header and the features at its
 * end: those pages are mapped, not the data section between them (the
 * reader faults the file in a window at a time, from where it reads).
 * Counted as the mapping's resident pages in /proc/self/smaps.
 */
static size_t mapped_kb(const char *path)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[4096];
	size_t kb = 0, n;
	bool in = false;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		const char *sp = strchr(line, ' ');

		/* a mapping's first line starts "lo-hi ", a field "Name:" */
		if (sp && !memchr(line, ':', (size_t)(sp - line)))
			in = strstr(line, path) != NULL;
		else if (in && sscanf(line, "Rss: %zu kB", &n) == 1)
			kb += n;
	}
	fclose(f);
	return kb;
}

static void test_open_maps_no_data(void **state)
{
	static const struct tattr a = { .type = 1, .sample_type = PM_SAMPLE_IP };
	enum { DATA_MB = 64 };
	char path[] = "/tmp/pmprof-reader-big-XXXXXX";
	struct rawbuf d = { 0 }, b;
	struct tfile f = { .attrs = &a, .nr_attrs = 1, .attr_bytes = 128,
			   .data = &d, .hostname = "far" };
	struct pm_reader *r = NULL;
	struct pm_error err = { 0 };
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	rb_zeros(&d, (size_t)DATA_MB << 20);
	b = build_file(&f);
	assert_int_equal(write(fd, b.p, b.len), (ssize_t)b.len);
	close(fd);
	free(b.p);
	free(d.p);
	assert_int_equal(pm_reader__open(&r, path, NULL, &err), 0);
	/* gone from /tmp whatever fails below; smaps names it "(deleted)" */
	unlink(path);
	assert_string_equal(pm_reader__features(r)->hostname, "far");
	/* the first window (16 MB) and the features' pages, not 64 MB */
	assert_in_range(mapped_kb(path), 0, 20 << 10);
	pm_reader__delete(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr_sizes),
		cmocka_unit_test(test_sample_every_field),
		cmocka_unit_test(test_ids_and_trailer),
		cmocka_unit_test(test_pipe_stream),
		cmocka_unit_test(test_unknown_format_bits),
		cmocka_unit_test(test_branch_counters),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_compressed_large_payload),
		cmocka_unit_test(test_extra_payloads),
		cmocka_unit_test(test_every_truncation_fails_with_offset),
		cmocka_unit_test(test_interrupted_recording),
		cmocka_unit_test(test_empty_recording),
		cmocka_unit_test(test_lying_counts),
		cmocka_unit_test(test_attr_size_bounds),
		cmocka_unit_test(test_not_perf_data),
		cmocka_unit_test(test_read_records),
		cmocka_unit_test(test_read_group),
		cmocka_unit_test(test_open_maps_no_data),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
