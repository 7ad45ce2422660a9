// SPDX-License-Identifier: GPL-2.0
/*
 * Compressed records at their boundaries, built deterministically rather
 * than hoped for in a recording: the writer's COMPRESSED records (a
 * record split across two of them, a flush split into several records
 * at perf's 65527-byte limit, the flush limit hit exactly, tool records
 * in between, the last partial frame written at close), read back two
 * ways: by the reader, and by walking the file here and inflating the
 * concatenated payloads with libzstd directly. Both must give the exact
 * records written, in file order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zstd.h>

#include "pmprof/abi.h"
#include "pmprof/perfdata.h"
#include "pmprof/records.h"
#include "pmprof/util.h"
#include "pmprof/writer.h"

#define MAX_ZDATA (65536 - 8 - 1)

/* What went in: every record's bytes, in order. */
struct seq {
	uint8_t *p;
	size_t len, alloc;
	size_t nr;
};

static void seq_add(struct seq *q, const void *rec, size_t len)
{
	if (q->len + len > q->alloc) {
		q->alloc = (q->len + len) * 2;
		q->p = realloc(q->p, q->alloc);
	}
	memcpy(q->p + q->len, rec, len);
	q->len += len;
	q->nr++;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A record of `size` bytes (a multiple of 8): type, size, then bytes
 * that do not compress (random) or do (a counter), with the serial in
 * the first body word. */
static void make_rec(uint8_t *rec, uint32_t type, uint16_t size, uint64_t serial,
		     bool random, uint64_t *seed)
{
	uint16_t i;

	memset(rec, 0, size);
	memcpy(rec, &type, 4);
	memcpy(rec + 6, &size, 2);
	if (size >= 16)
		memcpy(rec + 8, &serial, 8);
	for (i = 16; i < size; i++)
		rec[i] = random ? (uint8_t)rnd(seed) : (uint8_t)(i / 8);
}

struct plan {
	const char *name;
	uint32_t mmap_len;	/* the flush limit is mmap_len - 4096 */
	bool random;		/* incompressible payloads */
	uint16_t min, max;	/* record sizes */
	int nr;
	int round_every;	/* a FINISHED_ROUND every N records (0: none) */
	bool straddle;		/* some record must span two COMPRESSED ones */
};

static void *write_file(const struct plan *pl, struct seq *kern, struct seq *all,
			size_t *len)
{
	struct pm_writer_opts o = { .sz = sizeof(o), .order = PM_ORDER_NATIVE };
	uint64_t ids[] = { 5 }, seed = 0x9e3779b97f4a7c15ULL;
	struct pm_event e = { 0 };
	struct pm_error err = { 0 };
	struct pm_writer *w;
	uint8_t *rec = malloc(65536);
	void *buf;
	int i;

	e.attr.type = PM_TYPE_SOFTWARE;
	e.attr.sample_type = PM_SAMPLE_IP;
	e.attr.sample_period = 1000;
	e.ids = ids;
	e.nr_ids = 1;
	assert_int_equal(pm_writer__open_mem(&w, &o, &err), 0);
	assert_true(pm_writer__add_event(w, &e, &err) >= 0);
	assert_int_equal(pm_writer__set_compression(w, 9, pl->mmap_len, &err), 0);
	for (i = 0; i < pl->nr; i++) {
		uint16_t size = (uint16_t)((pl->min + rnd(&seed) % (pl->max - pl->min + 1u)) & ~7u);

		if (size < 16)
			size = 16;
		/* the flush limit met exactly, then passed by one record */
		if (i == 3)
			size = (uint16_t)PM_MIN(65528u, pl->mmap_len - 4096u);
		make_rec(rec, PM_RECORD_MMAP, size, (uint64_t)i, pl->random, &seed);
		assert_int_equal(pm_writer__raw(w, rec, size, &err), 0);
		seq_add(kern, rec, size);
		seq_add(all, rec, size);
		if (pl->round_every && i % pl->round_every == pl->round_every - 1) {
			make_rec(rec, PM_RECORD_FINISHED_ROUND, 8, 0, false, &seed);
			assert_int_equal(pm_writer__raw(w, rec, 8, &err), 0);
			seq_add(all, rec, 8);
		}
	}
	/* the last records stay in the stream until close */
	assert_int_equal(pm_writer__close_mem(w, &buf, len, &err), 0);
	free(rec);
	return buf;
}

/* The data section's bounds from the file header (native order). */
static void data_section(const uint8_t *f, size_t len, size_t *off, size_t *size)
{
	uint64_t o, s;

	memcpy(&o, f + 40, 8);
	memcpy(&s, f + 48, 8);
	assert_true(o + s <= len);
	*off = (size_t)o;
	*size = (size_t)s;
}

/* Independent of the reader: walk the records, inflate each COMPRESSED
 * payload in turn through one stream until zstd gives nothing more, and
 * check the kernel records equal what went in. Per flush (COMPRESSED
 * records of the limit's size and a shorter one), the bytes inflated must
 * fit perf's buffer (mmap_len). */
static void check_by_hand(const struct plan *pl, const uint8_t *f, size_t len,
			  const struct seq *kern)
{
	ZSTD_DStream *ds = ZSTD_createDStream();
	size_t off, size, pos, outlen = 0, group = 0, nr_comp = 0, rec_end = 0, straddles = 0;
	uint8_t *out = malloc(kern->len + 65536);

	ZSTD_initDStream(ds);
	data_section(f, len, &off, &size);
	for (pos = off; pos < off + size;) {
		uint32_t type;
		uint16_t rsize;

		memcpy(&type, f + pos, 4);
		memcpy(&rsize, f + pos + 6, 2);
		assert_true(rsize >= 8 && pos + rsize <= off + size);
		if (type == PM_RECORD_COMPRESSED) {
			ZSTD_inBuffer in = { f + pos + 8, rsize - 8u, 0 };
			size_t before = outlen, r;

			assert_true(rsize - 8u <= MAX_ZDATA);
			do {
				ZSTD_outBuffer o = { out + outlen, kern->len + 65536 - outlen, 0 };

				r = ZSTD_decompressStream(ds, &o, &in);
				assert_false(ZSTD_isError(r));
				outlen += o.pos;
				if (!o.pos && in.pos == in.size)
					break;
			} while (1);
			group += outlen - before;
			nr_comp++;
			/* does this record's inflated end fall inside a record? */
			while (rec_end < outlen) {
				uint16_t ks;

				memcpy(&ks, kern->p + rec_end + 6, 2);
				if (rec_end + ks > outlen)
					break;
				rec_end += ks;
			}
			straddles += rec_end != outlen;
			/* a flush ends with a COMPRESSED record short of the limit */
			if (rsize - 8u < MAX_ZDATA) {
				if (group > pl->mmap_len)
					fail_msg("%s: one flush inflates to %zu bytes, perf's buffer is %u",
						 pl->name, group, pl->mmap_len);
				group = 0;
			}
		} else {
			assert_true(type >= 64);	/* only the tool's records stay plain */
		}
		pos += rsize;
	}
	assert_true(group <= pl->mmap_len);
	assert_true(nr_comp > 0);
	if (pl->straddle && !straddles)
		fail_msg("%s: no record spans two COMPRESSED records", pl->name);
	assert_int_equal(outlen, kern->len);
	assert_memory_equal(out, kern->p, kern->len);
	ZSTD_freeDStream(ds);
	free(out);
}

/* The reader: every record, in file order, the compressed ones inflated. */
static void check_by_reader(const struct plan *pl, const uint8_t *f, size_t len,
			    const struct seq *all)
{
	struct pm_reader *r;
	struct pm_record rec;
	struct pm_error err = { 0 };
	size_t at = 0, n = 0;
	int ret;

	assert_int_equal(pm_reader__open_mem(&r, f, len, pl->name, &err), 0);
	while ((ret = pm_reader__next(r, &rec, &err)) > 0) {
		if (rec.type == PM_RECORD_COMPRESSED)
			continue;
		if (at + rec.size > all->len || memcmp(all->p + at, rec.data, rec.size))
			fail_msg("%s: record %zu (type %u, %u bytes) differs", pl->name, n,
				 rec.type, rec.size);
		at += rec.size;
		n++;
	}
	if (ret < 0)
		fail_msg("%s: %s", pl->name, err.msg);
	assert_int_equal(n, all->nr);
	assert_int_equal(at, all->len);
	pm_reader__delete(r);
}

static void test_compressed_boundaries(void **state)
{
	static const struct plan plans[] = {
		/* pmprof record -z9 -m 8: small flushes, records of every size
		 * up to the ring's */
		{ "m8-random", 9 * 4096, true, 16, 4096, 400, 7 },
		{ "m8-text", 9 * 4096, false, 16, 2048, 2000, 50 },
		/* big rings: a flush of incompressible data spans several
		 * COMPRESSED records, records straddle them */
		{ "m128-random", 129 * 4096, true, 1024, 65528, 120, 0, true },
		{ "m128-rounds", 129 * 4096, true, 16, 30000, 300, 13, true },
		/* the smallest mmap_len the writer takes */
		{ "8k", 8192, true, 16, 4096, 300, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(plans) / sizeof(plans[0]); i++) {
		struct seq kern = { 0 }, all = { 0 };
		size_t len;
		uint8_t *f = write_file(&plans[i], &kern, &all, &len);

		check_by_hand(&plans[i], f, len, &kern);
		check_by_reader(&plans[i], f, len, &all);
		free(f);
		free(kern.p);
		free(all.p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compressed_boundaries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
