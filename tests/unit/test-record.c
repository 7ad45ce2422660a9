// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's pieces that do not need a kernel: the ring buffer reader
 * (head/tail, records that wrap, torn records) on a hand-built ring, CPU
 * lists, clock and mode names, build ids against readelf, and which DSOs
 * samples hit through mmap/fork/exec; and, where software events open,
 * a pid list with a process that has ended.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/perf_event.h>
#include <cmocka.h>

#include "record/record-int.h"
#include "pmprof/evspec.h"
#include "pmprof/perfdata.h"
#include "pmprof/record.h"
#include "pmprof/symbols.h"
#include "pmprof/writer.h"

/* A ring of 256 data bytes after a metadata page, all in memory. */
struct fake_ring {
	uint8_t mem[4096 + 256] __attribute__((aligned(4096)));
	struct pm_ring rb;
};

static void fake_init(struct fake_ring *f, uint64_t tail)
{
	struct perf_event_mmap_page *pg = (void *)f->mem;

	memset(f->mem, 0xee, sizeof(f->mem));
	memset(pg, 0, sizeof(*pg));
	memset(&f->rb, 0, sizeof(f->rb));
	f->rb.base = f->mem;
	f->rb.data = f->mem + 4096;
	f->rb.mask = 255;
	pg->data_tail = tail;
	pg->data_head = tail;
}

/* Append a record of `size` bytes (type, then bytes 0, 1, 2...) at head,
 * wrapping as the kernel does. */
static void fake_put(struct fake_ring *f, uint32_t type, uint16_t size)
{
	struct perf_event_mmap_page *pg = (void *)f->mem;
	uint8_t rec[512];
	uint16_t i;

	memset(rec, 0, sizeof(rec));
	memcpy(rec, &type, 4);
	memcpy(rec + 6, &size, 2);
	for (i = 8; i < size; i++)
		rec[i] = (uint8_t)(i - 8);
	for (i = 0; i < size; i++)
		f->rb.data[(pg->data_head + i) & f->rb.mask] = rec[i];
	pg->data_head += size;
}

static void check_rec(const struct perf_event_header *h, size_t size, uint32_t type,
		      uint16_t want)
{
	const uint8_t *p = (const void *)h;
	uint16_t i;

	assert_non_null(h);
	assert_int_equal(size, want);
	assert_int_equal(h->type, type);
	assert_int_equal(h->size, want);
	for (i = 8; i < want; i++)
		assert_int_equal(p[i], (uint8_t)(i - 8));
}

static void test_ring_plain_and_wrap(void **state)
{
	static struct fake_ring f;
	struct perf_event_mmap_page *pg = (void *)f.mem;
	const struct perf_event_header *h;
	size_t size;

	(void)state;
	/* tail 208: records of 32 (208..240), 48 (240..288: wraps at 256),
	 * 16 (288..304 = 32..48 in the ring) */
	fake_init(&f, 208);
	fake_put(&f, 9, 32);
	fake_put(&f, 10, 48);
	fake_put(&f, 3, 16);
	pm_ring__begin(&f.rb);
	h = pm_ring__next(&f.rb, &size);
	check_rec(h, size, 9, 32);
	assert_ptr_equal(h, f.rb.data + 208);	/* in place */
	h = pm_ring__next(&f.rb, &size);
	check_rec(h, size, 10, 48);		/* made whole from both ends */
	assert_ptr_equal(h, f.rb.bounce);
	h = pm_ring__next(&f.rb, &size);
	check_rec(h, size, 3, 16);
	assert_ptr_equal(h, f.rb.data + 32);
	assert_null(pm_ring__next(&f.rb, &size));
	/* the kernel sees the space as free only at the end */
	assert_int_equal(pg->data_tail, 208);
	pm_ring__end(&f.rb);
	assert_int_equal(pg->data_tail, 304);
	pm_ring__unmap(&f.rb);
}

/* Put and drain a record that brings the tail to `at` bytes before the
 * ring's end (none when it is there already). */
static void pad_to(struct fake_ring *f, unsigned int at)
{
	struct perf_event_mmap_page *pg = (void *)f->mem;
	unsigned int off = (unsigned int)(pg->data_head & 255), want = 256 - at;
	size_t size;

	if (off == want)
		return;
	fake_put(f, 3, (uint16_t)((want - off + 256) % 256));
	pm_ring__begin(&f->rb);
	assert_non_null(pm_ring__next(&f->rb, &size));
	assert_null(pm_ring__next(&f->rb, &size));
	pm_ring__end(&f->rb);
}

/* The ring's edges: a record that ends exactly at the end of the data
 * (in place), one whose header alone fits before the end, a large wrapped
 * record then a smaller one through the same bounce buffer, across
 * several laps of the ring. */
static void test_ring_edges(void **state)
{
	static struct fake_ring f;
	struct perf_event_mmap_page *pg = (void *)f.mem;
	const struct perf_event_header *h;
	size_t size;
	int lap;

	(void)state;
	fake_init(&f, 224);
	fake_put(&f, 9, 32);		/* 224..256: ends at the edge */
	fake_put(&f, 10, 16);		/* 256..272: from 0 */
	pm_ring__begin(&f.rb);
	h = pm_ring__next(&f.rb, &size);
	check_rec(h, size, 9, 32);
	assert_ptr_equal(h, f.rb.data + 224);
	h = pm_ring__next(&f.rb, &size);
	check_rec(h, size, 10, 16);
	assert_ptr_equal(h, f.rb.data);
	assert_null(pm_ring__next(&f.rb, &size));
	pm_ring__end(&f.rb);
	for (lap = 0; lap < 6; lap++) {
		pad_to(&f, 8);		/* the next header just fits */
		fake_put(&f, 11, 200);	/* header at the end, body from 0 */
		fake_put(&f, 12, 24);
		pm_ring__begin(&f.rb);
		h = pm_ring__next(&f.rb, &size);
		check_rec(h, size, 11, 200);
		assert_ptr_equal(h, f.rb.bounce);
		h = pm_ring__next(&f.rb, &size);
		check_rec(h, size, 12, 24);
		assert_ptr_equal(h, f.rb.data + 192);	/* 248 + 200, a lap on */
		assert_null(pm_ring__next(&f.rb, &size));
		pm_ring__end(&f.rb);
		assert_int_equal(pg->data_tail, pg->data_head);
		/* a shorter wrapped record through the bigger bounce */
		pad_to(&f, 16);
		fake_put(&f, 13, 40);
		pm_ring__begin(&f.rb);
		h = pm_ring__next(&f.rb, &size);
		check_rec(h, size, 13, 40);
		assert_ptr_equal(h, f.rb.bounce);
		assert_null(pm_ring__next(&f.rb, &size));
		pm_ring__end(&f.rb);
	}
	assert_true(pg->data_head > 6 * 256);	/* laps, not one pass */
	pm_ring__unmap(&f.rb);
}

static void test_ring_head_snapshot(void **state)
{
	static struct fake_ring f;
	const struct perf_event_header *h;
	size_t size;

	(void)state;
	fake_init(&f, 0);
	fake_put(&f, 9, 24);
	pm_ring__begin(&f.rb);
	/* written after the snapshot: not seen in this pass */
	fake_put(&f, 9, 40);
	h = pm_ring__next(&f.rb, &size);
	check_rec(h, size, 9, 24);
	assert_null(pm_ring__next(&f.rb, &size));
	pm_ring__end(&f.rb);
	pm_ring__begin(&f.rb);
	h = pm_ring__next(&f.rb, &size);
	check_rec(h, size, 9, 40);
	pm_ring__end(&f.rb);
	pm_ring__unmap(&f.rb);
}

static void test_ring_torn(void **state)
{
	static struct fake_ring f;
	struct perf_event_mmap_page *pg = (void *)f.mem;
	size_t size;

	(void)state;
	/* a header that claims more than was published: skipped to the head */
	fake_init(&f, 0);
	fake_put(&f, 9, 64);
	pg->data_head = 40;
	pm_ring__begin(&f.rb);
	assert_null(pm_ring__next(&f.rb, &size));
	pm_ring__end(&f.rb);
	assert_int_equal(pg->data_tail, 40);
	/* a size below a header's */
	fake_init(&f, 0);
	fake_put(&f, 9, 16);
	f.rb.data[6] = 4;
	f.rb.data[7] = 0;
	pm_ring__begin(&f.rb);
	assert_null(pm_ring__next(&f.rb, &size));
	pm_ring__end(&f.rb);
	assert_int_equal(pg->data_tail, 16);
	/* fewer bytes than a header: nothing yet */
	fake_init(&f, 0);
	pg->data_head = 4;
	pm_ring__begin(&f.rb);
	assert_null(pm_ring__next(&f.rb, &size));
	pm_ring__end(&f.rb);
	assert_int_equal(pg->data_tail, 0);
}

static void test_cpu_list(void **state)
{
	struct pm_cpu_list l, on;
	struct pm_error err;

	(void)state;
	assert_int_equal(pm_cpu_list__online(&on, &err), 0);
	assert_true(on.nr >= 1);
	assert_int_equal(on.nr, sysconf(_SC_NPROCESSORS_ONLN));
	assert_int_equal(pm_cpu_list__parse(&l, "0", &err), 0);
	assert_int_equal(l.nr, 1);
	assert_int_equal(l.cpus[0], 0);
	pm_cpu_list__exit(&l);
	/* duplicates and order do not matter */
	assert_int_equal(pm_cpu_list__parse(&l, "0,0,0-0", &err), 0);
	assert_int_equal(l.nr, 1);
	pm_cpu_list__exit(&l);
	if (on.nr >= 2) {
		assert_int_equal(pm_cpu_list__parse(&l, "1,0", &err), 0);
		assert_int_equal(l.nr, 2);
		assert_int_equal(l.cpus[0], 0);
		assert_int_equal(l.cpus[1], 1);
		pm_cpu_list__exit(&l);
	}
	assert_int_equal(pm_cpu_list__parse(&l, "0-x", &err), -PM_EUSAGE);
	assert_non_null(strstr(err.msg, "bad CPU list '0-x'"));
	assert_int_equal(pm_cpu_list__parse(&l, "1-0", &err), -PM_EUSAGE);
	assert_int_equal(pm_cpu_list__parse(&l, "", &err), -PM_EUSAGE);
	assert_int_equal(pm_cpu_list__parse(&l, "0,", &err), 0);	/* perf accepts it */
	pm_cpu_list__exit(&l);
	assert_int_equal(pm_cpu_list__parse(&l, "4095", &err), -PM_EUSAGE);
	assert_non_null(strstr(err.msg, "not online"));
	assert_int_equal(pm_cpu_list__parse(&l, "4096", &err), -PM_EUSAGE);
	pm_cpu_list__exit(&on);
}

static void test_names(void **state)
{
	enum pm_hf_mode m;
	int c;

	(void)state;
	assert_int_equal(pm_clockid__parse("monotonic_raw", &c), 0);
	assert_int_equal(c, CLOCK_MONOTONIC_RAW);
	assert_int_equal(pm_clockid__parse("CLOCK_MONOTONIC", &c), 0);
	assert_int_equal(c, CLOCK_MONOTONIC);
	assert_int_equal(pm_clockid__parse("mono", &c), 0);
	assert_int_equal(c, 1);
	assert_int_equal(pm_clockid__parse("realtime", &c), 0);
	assert_int_equal(c, 0);
	assert_int_equal(pm_clockid__parse("boottime", &c), 0);
	assert_int_equal(c, 7);
	assert_int_equal(pm_clockid__parse("tai", &c), 0);
	assert_int_equal(c, 11);
	assert_int_equal(pm_clockid__parse("4", &c), 0);
	assert_int_equal(c, 4);
	assert_int_equal(pm_clockid__parse("sundial", &c), -1);
	assert_int_equal(pm_clockid__parse("99", &c), -1);
	assert_string_equal(pm_clockid__name(4), "monotonic_raw");
	assert_int_equal(pm_hf_mode__parse("burst", &m), 0);
	assert_int_equal(m, PM_HF_BURST);
	assert_int_equal(pm_hf_mode__parse("auto", &m), 0);
	assert_int_equal(m, PM_HF_AUTO);
	assert_int_equal(pm_hf_mode__parse("none", &m), -1);	/* a result, not a choice */
	assert_string_equal(pm_hf_mode__name(PM_HF_FIXED), "fixed");
}

/* The build id of a file as readelf prints it. */
static int readelf_build_id(const char *path, char *hex, size_t size)
{
	char cmd[4200], line[512];
	FILE *p;
	int ret = -1;

	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		char *b = strstr(line, "Build ID: ");

		if (b) {
			snprintf(hex, size, "%s", b + 10);
			hex[strcspn(hex, "\n")] = 0;
			ret = 0;
		}
	}
	pclose(p);
	return ret;
}

static void hex_of(const uint8_t *id, uint8_t n, char *out)
{
	uint8_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = 0;
}

static void test_build_id(void **state)
{
	char exe[4096], want[128], got[64];
	uint8_t id[20], n = 0;
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	(void)state;
	assert_true(len > 0);
	exe[len] = 0;
	if (readelf_build_id(exe, want, sizeof(want))) {
		skip();
		return;
	}
	assert_int_equal(pm_build_id__read(exe, id, &n), 0);
	hex_of(id, n, got);
	assert_string_equal(got, want);
	assert_int_equal(pm_build_id__read("/nonexistent/file", id, &n), -1);
	assert_int_equal(pm_build_id__read("/proc/self/status", id, &n), -1);
}

/* Room for a file name in build_ids_written: the tree may be anywhere
 * (a fresh clone in a long mktemp -d path) */
#define NAME_ROOM 4096

/* Which DSOs a writer gets build ids for, read back by the reader. */
static uint32_t build_ids_written(struct pm_hits *d, char names[][NAME_ROOM], size_t max)
{
	struct pm_writer_opts wo = { .sz = sizeof(wo) };
	struct pm_writer *w;
	struct pm_reader *r;
	struct pm_event ev;
	struct pm_error err;
	uint64_t ids[1] = { 1 };
	void *buf;
	size_t len, i;
	uint32_t n;

	assert_int_equal(pm_writer__open_mem(&w, &wo, &err), 0);
	memset(&ev, 0, sizeof(ev));
	ev.attr.type = 1;
	ev.attr.size = 128;
	ev.ids = ids;
	ev.nr_ids = 1;
	assert_true(pm_writer__add_event(w, &ev, &err) >= 0);
	/* a file without data reads as interrupted, features unused */
	assert_int_equal(pm_writer__finished_round(w, &err), 0);
	assert_int_equal(pm_hits__write_build_ids(d, w, &err), 0);
	assert_int_equal(pm_writer__close_mem(w, &buf, &len, &err), 0);
	assert_int_equal(pm_reader__open_mem(&r, buf, len, "mem", &err), 0);
	n = pm_reader__features(r)->nr_build_ids;
	for (i = 0; i < n && i < max; i++)
		snprintf(names[i], NAME_ROOM, "%s", pm_reader__features(r)->build_ids[i].filename);
	pm_reader__delete(r);
	free(buf);
	return n;
}

static void test_dsos_hits(void **state)
{
	static char names[4][NAME_ROOM];
	char exe[NAME_ROOM];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct pm_hits *d = pm_hits__new();
	uint8_t id[20], n;

	(void)state;
	assert_true(len > 0);
	exe[len] = 0;
	if (pm_build_id__read(exe, id, &n)) {
		pm_hits__delete(d);
		skip();
		return;
	}
	/* not a file: never a DSO */
	pm_hits__mmap(d, 100, 0x1000, 0x1000, "[heap]");
	pm_hits__mmap(d, 100, 0x10000, 0x1000, exe);
	pm_hits__hit(d, 100, 0x1800, 2);	/* [heap] */
	pm_hits__hit(d, 101, 0x10800, 2);	/* another process */
	pm_hits__hit(d, 100, 0x11000, 2);	/* one past the end */
	assert_int_equal(build_ids_written(d, names, 4), 0);
	/* a child created by fork has its parent's maps */
	pm_hits__fork(d, 101, 100);
	pm_hits__exec(d, 100);			/* the parent's go */
	pm_hits__hit(d, 100, 0x10800, 2);
	assert_int_equal(build_ids_written(d, names, 4), 0);
	pm_hits__hit(d, 101, 0x10800, 2);
	assert_int_equal(build_ids_written(d, names, 4), 1);
	assert_string_equal(names[0], exe);
	/* a later hit does not add it twice */
	pm_hits__hit(d, 101, 0x10000, 2);
	assert_int_equal(build_ids_written(d, names, 4), 1);
	pm_hits__delete(d);
}

/* The vdso is no file but has a build id (this host's image's), as perf
 * lists it. Without a vdso (qemu-user gives none) it is left out. */
static void test_dsos_hits_vdso(void **state)
{
	static char names[4][NAME_ROOM];
	struct pm_hits *d = pm_hits__new();
	void *image;
	size_t len;
	uint8_t id[20], n;
	bool have = pm_vdso__self_image(&image, &len, NULL) == 0;

	(void)state;
	if (have) {
		have = pm_build_id__from_image(image, len, id, &n) == 0;
		free(image);
	}
	pm_hits__mmap(d, 100, 0x1000, 0x2000, "[vdso]");
	assert_int_equal(build_ids_written(d, names, 4), 0);	/* not hit yet */
	pm_hits__hit(d, 100, 0x1800, 2);
	assert_int_equal(build_ids_written(d, names, 4), have ? 1 : 0);
	if (have)
		assert_string_equal(names[0], "[vdso]");
	pm_hits__delete(d);
}

/* ---- leftovers of recorders that are gone ---- */

struct notes {
	int n;
	char last[512];
};

static void take_note(void *ctx, const char *msg)
{
	struct notes *nt = ctx;

	nt->n++;
	snprintf(nt->last, sizeof(nt->last), "%s", msg);
}

/* A pid that has just exited (and been reaped): no process has it. */
static int dead_pid(void)
{
	pid_t p = fork();

	if (!p)
		_exit(0);
	assert_true(p > 0);
	assert_int_equal(waitpid(p, NULL, 0), p);
	return (int)p;
}

/* In a directory standing for the cgroup2 root: the cgroup of a gone
 * recorder is removed and named, a live one's and others' stay. */
static void test_stale_cgroups(void **state)
{
	char root[] = "/tmp/pmprof-cgroups-XXXXXX", d[3][128], want[512];
	struct notes nt = { 0 };
	int i, dead = dead_pid();

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(d[0], sizeof(d[0]), "%s/" PM_REC_CGROUP_PREFIX "%d", root, dead);
	snprintf(d[1], sizeof(d[1]), "%s/" PM_REC_CGROUP_PREFIX "%d", root, (int)getpid());
	snprintf(d[2], sizeof(d[2]), "%s/other-%d", root, dead);
	for (i = 0; i < 3; i++)
		assert_int_equal(mkdir(d[i], 0755), 0);
	assert_int_equal(pm_rec_leftovers__cgroups(root, take_note, &nt), 1);
	assert_int_equal(access(d[0], F_OK), -1);
	assert_int_equal(access(d[1], F_OK), 0);
	assert_int_equal(access(d[2], F_OK), 0);
	assert_int_equal(nt.n, 1);
	snprintf(want, sizeof(want), "removed %s, left by recorder %d, which is gone", d[0], dead);
	assert_string_equal(nt.last, want);
	rmdir(d[1]);
	rmdir(d[2]);
	rmdir(root);
}

/* The partial file of a gone recorder is pointed out, with how to read it. */
static void test_partial_note(void **state)
{
	char dir[] = "/tmp/pmprof-partial-XXXXXX", out[128], partial[160], want[512];
	struct notes nt = { 0 };
	int dead = dead_pid();
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/perf.data", dir);
	snprintf(partial, sizeof(partial), "%s.%d.partial", out, dead);
	f = fopen(partial, "w");
	assert_non_null(f);
	fclose(f);
	pm_rec_leftovers__partials(out, take_note, &nt);
	assert_int_equal(nt.n, 1);
	snprintf(want, sizeof(want),
		 "%s: left by recorder %d, which did not finish; it reads up to its last complete record (pmprof report -i %s)",
		 partial, dead, partial);
	assert_string_equal(nt.last, want);
	unlink(partial);
	rmdir(dir);
}

/* Open a cpu-clock recorder on pids into dir/perf.data; its return. */
static int record_pids(const char *dir, const char *pids, bool may_end, struct pm_error *err)
{
	struct pm_record_defaults rd = { .period = 1000000 };
	struct pm_record_opts o = { .sz = sizeof(o) };
	struct pm_evspec_list list;
	struct pm_recorder *r = NULL;
	char out[128];
	int ret;

	pm_evspec_list__init(&list);
	assert_int_equal(pm_evspec__parse(&list, "cpu-clock", NULL, err), 0);
	assert_int_equal(pm_evspec__apply_record(&list, &rd, err), 0);
	snprintf(out, sizeof(out), "%s/perf.data", dir);
	o.events = &list;
	o.output = out;
	o.pid_list = pids;
	o.clockid = -1;
	o.pids_may_end = may_end;
	ret = pm_recorder__new(&r, &o, err);
	if (!ret)
		ret = pm_recorder__finish(r, err);
	pm_recorder__delete(r);
	pm_evspec_list__exit(&list);
	unlink(out);
	return ret;
}

/* -u's list is a snapshot of /proc: a process of it that has ended since
 * is skipped (perf too), where -p of an ended process is an error. */
static void test_pids_may_end(void **state)
{
	char dir[] = "/tmp/pmprof-pids-XXXXXX", pids[64], dead_only[32];
	struct pm_error err;
	int dead = dead_pid();

	(void)state;
	if (!pm_recorder__probe_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK))
		skip();	/* perf_event_paranoid or no perf events here */
	assert_non_null(mkdtemp(dir));
	snprintf(pids, sizeof(pids), "%d,%d", dead, (int)getpid());
	snprintf(dead_only, sizeof(dead_only), "%d", dead);
	assert_int_equal(record_pids(dir, pids, false, &err), -ESRCH);
	assert_non_null(strstr(err.msg, "no such process"));
	assert_int_equal(record_pids(dir, pids, true, &err), 0);
	assert_int_equal(record_pids(dir, dead_only, true, &err), -ESRCH);
	assert_non_null(strstr(err.msg, "left to record"));
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_plain_and_wrap),
		cmocka_unit_test(test_ring_edges),
		cmocka_unit_test(test_ring_head_snapshot),
		cmocka_unit_test(test_ring_torn),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_build_id),
		cmocka_unit_test(test_dsos_hits),
		cmocka_unit_test(test_dsos_hits_vdso),
		cmocka_unit_test(test_stale_cgroups),
		cmocka_unit_test(test_partial_note),
		cmocka_unit_test(test_pids_may_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
