// SPDX-License-Identifier: GPL-2.0
/*
 * Directory recordings (perf record --threads) against hand-built files
 * (rawfile.h): DIR/data with the DIR_FORMAT feature and data.N files of
 * bare records. The merge order is spelled out here record by record;
 * every number of decoder threads gives the same records in the same
 * order, across batch boundaries and compressed records; errors name the
 * data file and the offset in it, after every record before them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <zstd.h>

#include "pmprof/perfdata.h"
#include "pmprof/records.h"
#include "pmprof/util.h"
#include "unit/rawfile.h"

#define ST (PM_SAMPLE_IP | PM_SAMPLE_TID | PM_SAMPLE_TIME)
#define SAMPLE_ID_ALL (1ULL << 18)
#define COMM_SIZE 8 + 8 + 8 + 16	/* header, pid/tid, comm, trailer */

static char dir[64];

static void write_file(const char *name, const struct rawbuf *b)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b->p ? b->p : (uint8_t *)"", 1, b->len, f), b->len);
	assert_int_equal(fclose(f), 0);
}

static void remove_file(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

/* A SAMPLE {ip, pid/tid, time}. */
static void sample(struct rawbuf *b, uint64_t ip, uint64_t time)
{
	size_t at = rb_record_begin(b, PM_RECORD_SAMPLE, 2);

	rb_u64(b, ip);
	rb_u32(b, 7);
	rb_u32(b, 7);
	rb_u64(b, time);
	rb_record_end(b, at);
}

/* A COMM with its sample_id_all trailer {pid/tid, time}. */
static void comm(struct rawbuf *b, const char *name, uint64_t time)
{
	size_t at = rb_record_begin(b, PM_RECORD_COMM, 0);
	char c[8] = { 0 };

	rb_u32(b, 7);
	rb_u32(b, 7);
	strncpy(c, name, sizeof(c) - 1);
	rb_bytes(b, c, 8);
	rb_u32(b, 7);
	rb_u32(b, 7);
	rb_u64(b, time);
	rb_record_end(b, at);
}

/* A record of perf's own, without a time. */
static void untimed(struct rawbuf *b, uint32_t type)
{
	size_t at = rb_record_begin(b, type, 0);

	rb_u64(b, 0);
	rb_record_end(b, at);
}

/*
 * DIR/data: header, one attr (IP|TID|TIME, sample_id_all), the data
 * section `d`, and the DIR_FORMAT feature saying `version`. data_size 0
 * when interrupted.
 */
static struct rawbuf header_file(const struct rawbuf *d, uint64_t version,
				 bool interrupted)
{
	struct rawbuf b = { 0 };
	size_t attrs, data, idx;

	rb_zeros(&b, 104);
	attrs = b.len;
	rb_u32(&b, 1);			/* type: software */
	rb_u32(&b, 128);		/* size */
	rb_u64(&b, 0);			/* config */
	rb_u64(&b, 1000);		/* period */
	rb_u64(&b, ST);
	rb_u64(&b, 0);			/* read_format */
	rb_u64(&b, SAMPLE_ID_ALL);
	rb_zeros(&b, 128 - 48);
	rb_u64(&b, 0);			/* ids: none */
	rb_u64(&b, 0);
	data = b.len;
	rb_bytes(&b, d->p, d->len);
	idx = b.len;
	rb_u64(&b, idx + 16);		/* DIR_FORMAT: {offset, size} */
	rb_u64(&b, 8);
	rb_u64(&b, version);
	rb_patch(&b, 0, 0x32454c4946524550ULL, 8);
	rb_patch(&b, 8, 104, 8);
	rb_patch(&b, 16, 128 + 16, 8);
	rb_patch(&b, 24, attrs, 8);
	rb_patch(&b, 32, 128 + 16, 8);
	rb_patch(&b, 40, data, 8);
	rb_patch(&b, 48, interrupted ? 0 : idx - data, 8);
	rb_patch(&b, 72, 1ULL << PM_FEAT_DIR_FORMAT, 8);
	return b;
}

static struct pm_reader *open_dir(int threads, struct pm_error *err)
{
	struct pm_reader_opts o = { .sz = sizeof(o), .decode_threads = threads };
	struct pm_reader *r = NULL;

	memset(err, 0, sizeof(*err));
	if (pm_reader__open(&r, dir, &o, err))
		return NULL;
	return r;
}

/* What a record is, for comparing sequences: part, offset, type, time. */
struct seen {
	uint32_t part, type;
	uint64_t offset, zoffset, time;
};

/* Every record; the count, and the last call's return in *ret. */
static size_t read_all(struct pm_reader *r, struct seen *out, size_t max,
		       int *ret, struct pm_error *err)
{
	struct pm_record rec;
	size_t n = 0;

	while ((*ret = pm_reader__next(r, &rec, err)) > 0) {
		uint64_t t = UINT64_MAX;

		assert_true(n < max);
		if (pm_reader__record_time(r, &rec, &t, err) < 1)
			t = UINT64_MAX;
		out[n++] = (struct seen){ rec.part, rec.type, rec.offset,
					  rec.zoffset, t };
	}
	return n;
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/pmprof-dirtest.XXXXXX");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

/*
 * The merge, spelled out: DIR/data's synthesized records (time 0 and
 * none) first; then by time; a tie goes to the lower part (data.0 before
 * data.10: parts are ordered by N, not by name); an untimed record stays
 * right after the one before it in its file.
 */
static void test_merge_order(void **state)
{
	struct rawbuf h = { 0 }, d0 = { 0 }, d1 = { 0 }, d10 = { 0 }, hf;
	struct seen got[32];
	struct pm_error err;
	struct pm_reader *r;
	int ret, threads;
	/* part, time (UINT64_MAX: none) */
	static const uint64_t want[][2] = {
		{ 0, 0 }, { 0, UINT64_MAX },	/* DIR/data */
		{ 3, 5 },			/* data.10 */
		{ 1, 10 },
		{ 2, 20 }, { 2, UINT64_MAX },	/* data.1: untimed after 20 */
		{ 1, 30 }, { 3, 30 },		/* tie: data.0 first */
		{ 2, 40 },
		{ 1, 50 },
		{ 3, 60 },
	};
	size_t n, i;

	(void)state;
	comm(&h, "synth", 0);
	untimed(&h, PM_RECORD_FINISHED_INIT);
	sample(&d0, 0x100, 10);
	comm(&d0, "d0", 30);
	sample(&d0, 0x101, 50);
	sample(&d1, 0x200, 20);
	untimed(&d1, 200);
	sample(&d1, 0x201, 40);
	sample(&d10, 0x300, 5);
	sample(&d10, 0x301, 30);
	sample(&d10, 0x302, 60);
	hf = header_file(&h, 1, false);
	write_file("data", &hf);
	write_file("data.0", &d0);
	write_file("data.1", &d1);
	write_file("data.10", &d10);
	write_file("data.old", &d10);		/* not perf's: left alone */
	for (threads = -1; threads <= 3; threads++) {
		r = open_dir(threads, &err);
		assert_non_null(r);
		assert_true(pm_reader__is_dir(r));
		assert_int_equal(pm_reader__nr_parts(r), 4);
		assert_string_equal(pm_reader__part_name(r, 0), "data");
		assert_string_equal(pm_reader__part_name(r, 1), "data.0");
		assert_string_equal(pm_reader__part_name(r, 2), "data.1");
		assert_string_equal(pm_reader__part_name(r, 3), "data.10");
		assert_int_equal(pm_reader__part_size(r, 2), d1.len);
		assert_int_equal(pm_reader__file_size(r),
				 hf.len + d0.len + d1.len + d10.len);
		n = read_all(r, got, 32, &ret, &err);
		assert_int_equal(ret, 0);
		assert_int_equal(n, sizeof(want) / sizeof(want[0]));
		for (i = 0; i < n; i++) {
			assert_int_equal(got[i].part, want[i][0]);
			assert_int_equal(got[i].time, want[i][1]);
		}
		assert_int_equal(got[5].type, 200);
		assert_int_equal(got[6].offset, 0x20);	/* data.0's COMM */
		pm_reader__delete(r);
	}
	free(h.p); free(d0.p); free(d1.p); free(d10.p); free(hf.p);
	remove_file("data.old");
}

/*
 * A record the kernel wrote after a later one (an interrupt's sample
 * between another record's time and its write) comes out in time order,
 * across parts too; a record more than the 256 of the reorder window out
 * of place comes out where the window lets it, after the 45 records read
 * while it was out of reach.
 */
static void test_reorder_window(void **state)
{
	struct rawbuf h = { 0 }, d0 = { 0 }, d1 = { 0 }, hf;
	struct seen got[400];
	struct pm_error err;
	struct pm_reader *r;
	static const uint64_t want[][2] = {
		{ 1, 10 }, { 1, 20 }, { 2, 25 }, { 1, 30 }, { 1, 40 },
	};
	size_t n, i;
	int ret, threads;

	(void)state;
	comm(&h, "synth", 0);
	sample(&d0, 0x100, 10);
	sample(&d0, 0x101, 30);
	comm(&d0, "late", 20);		/* written after the sample at 30 */
	sample(&d0, 0x102, 40);
	sample(&d1, 0x200, 25);
	hf = header_file(&h, 1, false);
	write_file("data", &hf);
	write_file("data.0", &d0);
	write_file("data.1", &d1);
	for (threads = -1; threads <= 2; threads++) {
		r = open_dir(threads, &err);
		assert_non_null(r);
		n = read_all(r, got, 400, &ret, &err);
		assert_int_equal(ret, 0);
		assert_int_equal(n, 1 + 5);
		for (i = 0; i < 5; i++) {
			assert_int_equal(got[i + 1].part, want[i][0]);
			assert_int_equal(got[i + 1].time, want[i][1]);
		}
		pm_reader__delete(r);
	}

	d0.len = 0;
	for (i = 1; i <= 300; i++)
		sample(&d0, 0x100 + i, 100 + i);
	sample(&d0, 0x99, 100);			/* 300 places late */
	write_file("data.0", &d0);
	remove_file("data.1");
	r = open_dir(-1, &err);
	assert_non_null(r);
	n = read_all(r, got, 400, &ret, &err);
	assert_int_equal(n, 1 + 301);
	for (i = 0; i < 45; i++)
		assert_int_equal(got[1 + i].time, 101 + i);
	assert_int_equal(got[1 + 45].time, 100);
	for (i = 46; i < 301; i++)
		assert_int_equal(got[1 + i].time, 100 + i);
	pm_reader__delete(r);
	free(h.p); free(d0.p); free(d1.p); free(hf.p);
}

/* Zstd-compress `plain` as perf does: one stream, flushed per record. */
static void put_compressed(struct rawbuf *d, const struct rawbuf *plain)
{
	ZSTD_CStream *cs = ZSTD_createCStream();
	size_t off = 0;

	ZSTD_initCStream(cs, 1);
	while (off < plain->len) {
		size_t part = PM_MIN(plain->len - off, (size_t)8000), at;
		uint8_t out[16384];
		ZSTD_inBuffer in = { plain->p + off, part, 0 };
		ZSTD_outBuffer o = { out, sizeof(out), 0 };

		ZSTD_compressStream2(cs, &o, &in, ZSTD_e_flush);
		assert_int_equal(in.pos, part);
		at = rb_record_begin(d, PM_RECORD_COMPRESSED, 0);
		rb_bytes(d, out, o.pos);
		rb_record_end(d, at);
		off += part;
	}
	ZSTD_freeCStream(cs);
}

/*
 * Thousands of records per file (batches end and begin mid-file), one
 * file compressed, times interleaved unevenly, a file out of time order
 * by more than the reorder window (a thread that drains several rings):
 * any number of decoder threads gives exactly the records and order of
 * none, and a rewind the same again.
 */
static void test_threads_same_as_serial(void **state)
{
	struct rawbuf h = { 0 }, d[3] = { { 0 } }, plain = { 0 }, hf;
	enum { N = 9000, MAX = 4 * N };
	struct seen *serial = pm_calloc(MAX, sizeof(*serial));
	struct seen *other = pm_calloc(MAX, sizeof(*other));
	struct pm_error err;
	struct pm_reader *r;
	size_t ns, n, i, zrecs = 0;
	int ret, threads;

	(void)state;
	comm(&h, "synth", 0);
	for (i = 0; i < N; i++) {
		sample(&d[0], 0x1000 + i, 3 * i + 1);
		if (i % 7 == 0)
			comm(&d[0], "c", 3 * i + 2);
		sample(&d[1], 0x2000 + i, (i / 1000) * 3000 + (999 - i % 1000));
		sample(&plain, 0x3000 + i, 5 * i);
	}
	put_compressed(&d[2], &plain);
	hf = header_file(&h, 1, false);
	write_file("data", &hf);
	write_file("data.0", &d[0]);
	write_file("data.1", &d[1]);
	write_file("data.2", &d[2]);

	r = open_dir(-1, &err);
	assert_non_null(r);
	assert_int_equal(pm_reader__decode_threads(r), 0);
	ns = read_all(r, serial, MAX, &ret, &err);
	assert_int_equal(ret, 0);
	for (i = 0; i < ns; i++)
		zrecs += serial[i].part == 3 && serial[i].type == PM_RECORD_SAMPLE;
	assert_int_equal(zrecs, N);		/* all inflated */
	assert_int_equal(ns, 1 + N + (N + 6) / 7 + N + N +
			 (plain.len + 7999) / 8000);
	/* time never goes back but in data.1, whose records are not in time
	 * order in the file */
	for (i = 1; i < ns; i++)
		if (serial[i].time != UINT64_MAX && serial[i - 1].time != UINT64_MAX &&
		    serial[i].part != 2 && serial[i - 1].part != 2)
			assert_true(serial[i].time >= serial[i - 1].time);
	assert_int_equal(pm_reader__rewind(r, &err), 0);
	n = read_all(r, other, MAX, &ret, &err);
	assert_int_equal(n, ns);
	assert_memory_equal(other, serial, ns * sizeof(*serial));
	pm_reader__delete(r);

	for (threads = 1; threads <= 4; threads++) {
		r = open_dir(threads, &err);
		assert_non_null(r);
		assert_int_equal(pm_reader__decode_threads(r),
				 (unsigned int)PM_MIN(threads, 4));
		memset(other, 0, MAX * sizeof(*other));
		n = read_all(r, other, MAX, &ret, &err);
		assert_int_equal(ret, 0);
		assert_int_equal(n, ns);
		assert_memory_equal(other, serial, ns * sizeof(*serial));
		/* a rewind in the middle, then all of it again */
		assert_int_equal(pm_reader__rewind(r, &err), 0);
		n = read_all(r, other, MAX, &ret, &err);
		assert_int_equal(n, ns);
		assert_memory_equal(other, serial, ns * sizeof(*serial));
		pm_reader__delete(r);
	}
	/* PMPROF_DECODE_THREADS decides when the options do not */
	setenv("PMPROF_DECODE_THREADS", "2", 1);
	r = open_dir(0, &err);
	assert_int_equal(pm_reader__decode_threads(r), 2);
	pm_reader__delete(r);
	setenv("PMPROF_DECODE_THREADS", "0", 1);
	r = open_dir(0, &err);
	assert_int_equal(pm_reader__decode_threads(r), 0);
	pm_reader__delete(r);
	unsetenv("PMPROF_DECODE_THREADS");

	free(h.p); free(d[0].p); free(d[1].p); free(d[2].p);
	free(plain.p); free(hf.p); free(serial); free(other);
	remove_file("data.2");
}

/*
 * A data file cut inside a record: the records merged before its last
 * good one come out, then the error, naming data.1 and the cut record's
 * offset.
 * The same with threads. With an interrupted header (data size 0), the
 * partial record just ends that file.
 */
static void test_truncated_part(void **state)
{
	struct rawbuf h = { 0 }, d0 = { 0 }, d1 = { 0 }, hf;
	struct seen got[64];
	struct pm_error err;
	struct pm_reader *r;
	size_t n, i;
	int ret, threads, interrupted;

	(void)state;
	comm(&h, "synth", 0);
	for (i = 0; i < 10; i++) {
		sample(&d0, 0x100 + i, 10 * i);
		sample(&d1, 0x200 + i, 10 * i + 5);
	}
	d1.len -= 3;		/* the 10th record of data.1, at 9 * 32, is cut */
	write_file("data.0", &d0);
	write_file("data.1", &d1);
	for (interrupted = 0; interrupted < 2; interrupted++) {
		hf = header_file(&h, 1, interrupted);
		write_file("data", &hf);
		for (threads = -1; threads <= 2; threads++) {
			r = open_dir(threads, &err);
			assert_non_null(r);
			n = read_all(r, got, 64, &ret, &err);
			/* a cut header has no DIR_FORMAT: the data.N files
			 * make it a directory */
			assert_true(pm_reader__is_dir(r));
			if (interrupted) {
				assert_int_equal(ret, 0);
				assert_int_equal(n, 1 + 19);
			} else {
				/* The cut record's time is unknown: the error
				 * comes right after data.1's last good record
				 * (85). Before it: DIR/data's COMM, data.0's
				 * 0..80, data.1's 5..85. */
				assert_true(ret < 0);
				assert_int_equal(n, 1 + 9 + 9);
				assert_string_equal(err.part, "data.1");
				assert_true(err.has_offset);
				assert_int_equal(err.offset, 9 * 32);
				assert_int_equal(got[n - 1].time, 85);
				assert_int_equal(got[n - 1].part, 2);
			}
			pm_reader__delete(r);
		}
		free(hf.p);
	}
	free(h.p); free(d0.p); free(d1.p);
}

static void test_bad_directories(void **state)
{
	struct rawbuf h = { 0 }, d0 = { 0 }, hf;
	struct pm_reader *r = NULL;
	struct pm_error err;
	char path[128];

	(void)state;
	comm(&h, "synth", 0);
	sample(&d0, 0x100, 1);
	/* version 2: not perf's */
	hf = header_file(&h, 2, false);
	write_file("data", &hf);
	write_file("data.0", &d0);
	assert_null(open_dir(-1, &err));
	assert_int_equal(err.code, -PM_EUNSUP);
	assert_non_null(strstr(err.msg, "version 2"));
	assert_string_equal(err.part, "data");
	free(hf.p);

	/* DIR/data read on its own: its records are elsewhere */
	hf = header_file(&h, 1, false);
	write_file("data", &hf);
	snprintf(path, sizeof(path), "%s/data", dir);
	assert_true(pm_reader__open(&r, path, NULL, &err) < 0);
	assert_non_null(strstr(err.msg, "directory"));
	assert_true(pm_reader__open_mem(&r, hf.p, hf.len, "x", &err) < 0);

	/* no data.N at all */
	remove_file("data.0");
	assert_null(open_dir(-1, &err));
	assert_non_null(strstr(err.msg, "data.N"));

	/* no DIR/data */
	remove_file("data");
	write_file("data.0", &d0);
	assert_null(open_dir(-1, &err));
	assert_int_equal(err.code, -ENOENT);
	assert_string_equal(err.part, "data");
	remove_file("data.0");
	free(hf.p);

	/* without DIR_FORMAT (perf record --kcore): DIR/data is all of it */
	hf = header_file(&d0, 1, false);
	rb_patch(&hf, 72, 0, 8);
	write_file("data", &hf);
	r = open_dir(-1, &err);
	assert_non_null(r);
	assert_false(pm_reader__is_dir(r));
	assert_int_equal(pm_reader__nr_parts(r), 1);
	pm_reader__delete(r);
	remove_file("data");
	free(hf.p); free(h.p); free(d0.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_merge_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reorder_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threads_same_as_serial, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncated_part, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_directories, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
