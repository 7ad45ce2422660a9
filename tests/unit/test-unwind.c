// SPDX-License-Identifier: GPL-2.0
/*
 * DWARF unwinding against real stacks: tests/programs/unwind-snap.c takes
 * a snapshot of its own registers and stack in a known call structure
 * (main -> outer -> rec x4 -> leaf), as the kernel samples them, together
 * with its own backtrace() (libgcc's unwinder, not pmprof's). The test
 * turns the snapshot into a perf.data sample (REGS_USER + STACK_USER) with
 * the process's maps, and the session's call chain must be the pc and
 * then each backtrace() return address - 1, frame for frame, to _start.
 *
 * Natively (x86-64 here) and as an arm64 build run under qemu-aarch64;
 * with the CFI in .eh_frame, only in .debug_frame, only in a debug file
 * found through .gnu_debuglink, and the binary found through --symfs and
 * the build-id cache. A copy without any CFI must not unwind: the frames
 * above really come from the CFI.
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

#include "builtin.h"
#include "fixture/kit.h"
#include "fixture/runcmd.h"
#include "pmprof/session.h"
#include "pmprof/unwind.h"
#include "unit/symtest.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

#define MAX_MAPS 64
#define MAX_BT 64
#define DUMP_SIZE 8192
#define PID 4321

struct snap_map {
	uint64_t start, end, pgoff;
	char perms[8];
	char path[512];
};

struct snap {
	char machine[16];
	uint64_t regs[40];
	int nregs;
	uint64_t sp, size;
	uint8_t stack[DUMP_SIZE];
	struct snap_map maps[MAX_MAPS];
	int nmaps;
	uint64_t bt[MAX_BT];
	int nbt;
	char bin[512];			/* the program the snapshot is of */
};

static const char *top(void)
{
	return getenv("TOP") ? getenv("TOP") : TOP_SRCDIR;
}

static void parse_stack(struct snap *s, const char *line)
{
	const char *p;
	int off;

	if (sscanf(line, "stack %" SCNx64 " %" SCNu64 " %n", &s->sp, &s->size,
		   &off) < 2 || s->size > DUMP_SIZE)
		fail_msg("bad stack line");
	p = line + off;
	for (uint64_t i = 0; i < s->size; i++) {
		unsigned v;

		if (sscanf(p + 2 * i, "%2x", &v) != 1)
			fail_msg("short stack dump");
		s->stack[i] = (uint8_t)v;
	}
}

static void parse_snapshot(struct snap *s, const char *path)
{
	FILE *f = fopen(path, "r");
	size_t cap = 2 * DUMP_SIZE + 256;
	char *line = malloc(cap);

	assert_non_null(f);
	while (fgets(line, (int)cap, f)) {
		struct snap_map *m = &s->maps[s->nmaps];
		int idx;
		uint64_t v;

		if (sscanf(line, "machine %15s", s->machine) == 1)
			continue;
		if (sscanf(line, "reg %d %" SCNx64, &idx, &v) == 2 && idx < 40) {
			s->regs[idx] = v;
			if (idx + 1 > s->nregs)
				s->nregs = idx + 1;
		} else if (!strncmp(line, "stack ", 6)) {
			parse_stack(s, line);
		} else if (s->nmaps < MAX_MAPS &&
			   sscanf(line, "map %" SCNx64 " %" SCNx64 " %" SCNx64 " %7s %511s",
				  &m->start, &m->end, &m->pgoff, m->perms, m->path) == 5) {
			s->nmaps++;
		} else if (s->nbt < MAX_BT &&
			   sscanf(line, "bt %" SCNx64, &s->bt[s->nbt]) == 1) {
			s->nbt++;
		}
	}
	fclose(f);
	free(line);
	assert_true(s->size > 0 && s->nbt >= 8 && s->nmaps > 0);
}

/* Build unwind-snap (cc: the compiler, with its flags), run it (under
 * `runner` if set), read what it saw. */
static void take_snapshot(struct snap *s, const char *dir, const char *cc,
			  const char *runner)
{
	char out[600];
	char *r;

	memset(s, 0, sizeof(*s));
	snprintf(s->bin, sizeof(s->bin), "%s/unwind-snap", dir);
	snprintf(out, sizeof(out), "%s/snap.txt", dir);
	r = st_run("%s -O2 -g -o '%s' '%s/tests/programs/unwind-snap.c' && %s '%s' '%s' && echo done",
		   cc, s->bin, top(), runner ? runner : "", s->bin, out);
	assert_non_null(r);
	free(r);
	parse_snapshot(s, out);
}

static bool is_arm64(const struct snap *s)
{
	return !strcmp(s->machine, "aarch64");
}

/* The sample's registers: what perf records for the architecture. */
static uint64_t regs_mask(const struct snap *s)
{
	return is_arm64(s) ? (1ULL << 33) - 1 : 0xff0fffULL;
}

/* Where the program lies in the recording, and its build id (if any). */
struct placement {
	const char *recorded;		/* the path the MMAPs name */
	const uint8_t *build_id;
	size_t build_id_size;
};

static void write_recording(const struct snap *s, const char *path,
			    const struct placement *pl)
{
	struct pm_kit_opts ko = { .arch = s->machine, .path = path };
	struct pm_kit *k = pm_kit__new_opts(&ko);
	uint64_t mask = regs_mask(s), vals[40];
	uint8_t stack[DUMP_SIZE] = { 0 };
	struct pm_sample smp = { 0 };
	uint32_t nr = 0;
	int ev;

	ev = pm_kit__event(k, "cpu-clock", PM_TYPE_SOFTWARE, 0,
			   PM_SAMPLE_IP | PM_SAMPLE_TID | PM_SAMPLE_TIME |
			   PM_SAMPLE_PERIOD | PM_SAMPLE_REGS_USER |
			   PM_SAMPLE_STACK_USER, 250000);
	pm_kit__attr(k, ev)->sample_regs_user = mask;
	pm_kit__attr(k, ev)->sample_stack_user = DUMP_SIZE;
	if (pl->build_id_size) {
		struct pm_build_id_entry b = { .misc = PM_MISC_USER, .pid = -1 };
		struct pm_error err;

		memcpy(b.build_id, pl->build_id, pl->build_id_size);
		b.size = (uint8_t)pl->build_id_size;
		b.filename = (char *)pl->recorded;
		assert_int_equal(pm_writer__add_build_id(pm_kit__writer(k), &b,
							 &err), 0);
	}
	pm_kit__comm(k, PID, PID, "unwind-snap");
	for (int i = 0; i < s->nmaps; i++) {
		const struct snap_map *m = &s->maps[i];
		const char *p = strcmp(m->path, s->bin) ? m->path : pl->recorded;

		pm_kit__mmap(k, PID, m->start, m->end - m->start, m->pgoff, p);
	}
	for (int i = 0; i < 64; i++)
		if (mask >> i & 1)
			vals[nr++] = s->regs[i];
	memcpy(stack, s->stack, s->size);
	smp.misc = PM_MISC_USER;
	smp.ip = s->regs[is_arm64(s) ? 32 : 8];
	smp.pid = smp.tid = PID;
	smp.time = 1000;
	smp.period = 250000;
	smp.regs_user.abi = 2;	/* PERF_SAMPLE_REGS_ABI_64 */
	smp.regs_user.mask = mask;
	smp.regs_user.nr = nr;
	smp.regs_user.regs = vals;
	smp.stack_user_size = DUMP_SIZE;
	smp.stack_user = stack;
	smp.stack_user_dyn_size = s->size;
	pm_kit__sample_full(k, ev, &smp);
	pm_kit__save(k, NULL);
}

/* The recording's first sample, processed; its session. */
static struct pm_session *first_sample(const char *path,
				       const struct pm_session_opts *so)
{
	struct pm_session *sess;
	struct pm_error err = { 0 };
	struct pm_record rec;
	int ret;

	assert_int_equal(pm_session__open(&sess, path, so, &err), 0);
	while ((ret = pm_reader__next(pm_session__reader(sess), &rec, &err)) > 0)
		if (pm_session__process(sess, &rec, &err) == 1)
			break;
	assert_int_equal(ret, 1);
	return sess;
}

/*
 * The same sample unwound step by step through libdwfl and on cached
 * rules (PM_UNWIND_CHECK compares them frame by frame): the same chain.
 */
static void check_both_ways(const char *path, const struct pm_session_opts *so,
			    const uint64_t *ips, size_t n)
{
	struct pm_session_opts co = *so;
	const struct pm_unwind_stats *st;
	const struct pm_addr_loc *cc;
	struct pm_session *sess;

	co.unwind_mode = PM_UNWIND_CHECK;
	sess = first_sample(path, &co);
	assert_int_equal(pm_session__callchain(sess, &cc), n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(cc[i].ip, ips[i]);
	st = pm_session__unwind_stats(sess);
	assert_non_null(st);
	if (st->mismatched)
		fail_msg("%s: %s", path, pm_session__unwind_mismatch(sess));
	assert_null(pm_session__unwind_mismatch(sess));
	pm_session__delete(sess);
	co.unwind_mode = PM_UNWIND_LIBDWFL;
	sess = first_sample(path, &co);
	assert_int_equal(pm_session__callchain(sess, &cc), n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(cc[i].ip, ips[i]);
	assert_int_equal(pm_session__unwind_stats(sess)->cached, 0);
	pm_session__delete(sess);
}

/* The recording's one sample: its call chain's addresses and function
 * names (malloc()ed: free them); *cached: unwound on cached rules. The
 * same chain comes step by step through libdwfl. */
static size_t chain_of_cached(const char *path, const struct pm_session_opts *so,
			      uint64_t *ips, char **names, size_t max,
			      bool *cached)
{
	struct pm_session *sess = first_sample(path, so);
	const struct pm_addr_loc *cc;
	size_t n;

	n = PM_MIN(pm_session__callchain(sess, &cc), max);
	for (size_t i = 0; i < n; i++) {
		ips[i] = cc[i].ip;
		names[i] = pm_strdup(cc[i].sym ? cc[i].sym->name : "?");
	}
	assert_non_null(pm_session__unwind_stats(sess));
	assert_int_equal(pm_session__unwind_stats(sess)->samples, 1);
	*cached = pm_session__unwind_stats(sess)->cached == 1;
	pm_session__delete(sess);
	if (n < max)
		check_both_ways(path, so, ips, n);
	return n;
}

static size_t chain_of(const char *path, const struct pm_session_opts *so,
		       uint64_t *ips, char **names, size_t max)
{
	bool cached;

	return chain_of_cached(path, so, ips, names, max, &cached);
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
}

static const char *const expected_names[] = {
	"leaf", "rec", "rec", "rec", "rec", "outer", "main",
};

/*
 * Unwind the snapshot's recording; `frames` of them must match: the pc,
 * then backtrace()'s return addresses - 1 (all of them when frames is 0).
 */
static void check_unwinds(const struct snap *s, const char *data,
			  const struct pm_session_opts *so, int frames)
{
	uint64_t ips[PM_UNWIND_MAX_FRAMES];
	char *names[PM_UNWIND_MAX_FRAMES];
	bool cached;
	size_t n = chain_of_cached(data, so, ips, names, PM_UNWIND_MAX_FRAMES,
				   &cached);
	int want = frames ? frames : s->nbt;

	/* the frames with CFI of plain rules unwind on cached rules */
	if (!frames)
		assert_true(cached);

	if (getenv("PMPROF_TEST_VERBOSE"))
		for (size_t i = 0; i < n || i < (size_t)s->nbt; i++)
			fprintf(stderr, "%s frame %zu: %#" PRIx64 " %s, backtrace %#" PRIx64 "\n",
				data, i, i < n ? ips[i] : 0, i < n ? names[i] : "-",
				i < (size_t)s->nbt ? s->bt[i] - (i > 0) : 0);
	if (!frames)
		assert_int_equal(n, (size_t)s->nbt);
	assert_true(n >= (size_t)want);
	assert_int_equal(ips[0], s->regs[is_arm64(s) ? 32 : 8]);
	for (int i = 1; i < want; i++) {
		if (ips[i] != s->bt[i] - 1)
			fail_msg("frame %d: %#" PRIx64 ", backtrace() says %#" PRIx64,
				 i, ips[i], s->bt[i] - 1);
	}
	for (size_t i = 0; i < PM_ARRAY_SIZE(expected_names); i++)
		assert_string_equal(names[i], expected_names[i]);
	free_names(names, n);
}

/* Does the chain fail to be the real one (as without any CFI)? */
static bool unwinds_wrong(const struct snap *s, const char *data,
			  const struct pm_session_opts *so)
{
	uint64_t ips[PM_UNWIND_MAX_FRAMES];
	char *names[PM_UNWIND_MAX_FRAMES];
	size_t n = chain_of(data, so, ips, names, PM_UNWIND_MAX_FRAMES);
	bool wrong = n < 7;

	for (size_t i = 1; i < 7 && i < n; i++)
		if (ips[i] != s->bt[i] - 1)
			wrong = true;
	free_names(names, n);
	return wrong;
}

static char *objcopy_variant(const char *objcopy, const struct snap *s,
			     const char *suffix, const char *args)
{
	char *out = malloc(600), *r;

	snprintf(out, 600, "%s.%s", s->bin, suffix);
	r = st_run("%s %s '%s' '%s' && echo done", objcopy, args, s->bin, out);
	assert_non_null(r);
	free(r);
	return out;
}

/*
 * The CFI sections, where each variant keeps them. Only the program's own
 * CFI is moved: frames in a shared libc unwind through its .eh_frame as
 * before, those of a static build's libc parts (past main) do not.
 */
static void unwind_variants(const struct snap *s, const char *dir,
			    const char *objcopy, bool is_static)
{
	struct pm_session_opts so = { .sz = sizeof(so), .host = PM_HOST_NO,
				      .no_buildid_cache = true };
	struct placement pl = { .recorded = s->bin };
	char data[600], args[800], *v, dbg[600], *r;
	int past_main = is_static ? 7 : 0;

	snprintf(data, sizeof(data), "%s/eh.data", dir);
	write_recording(s, data, &pl);
	check_unwinds(s, data, &so, 0);

	/* .debug_frame alone: .eh_frame and its index cut out */
	v = objcopy_variant(objcopy, s, "debugframe",
			    "-R .eh_frame -R .eh_frame_hdr");
	pl.recorded = v;
	snprintf(data, sizeof(data), "%s/debugframe.data", dir);
	write_recording(s, data, &pl);
	check_unwinds(s, data, &so, past_main);
	free(v);

	/* the CFI only in a debug file named by .gnu_debuglink */
	snprintf(dbg, sizeof(dbg), "%s.debug", s->bin);
	r = st_run("%s --only-keep-debug '%s' '%s' && echo done", objcopy,
		   s->bin, dbg);
	assert_non_null(r);
	free(r);
	snprintf(args, sizeof(args), "--strip-debug -R .eh_frame -R .eh_frame_hdr --add-gnu-debuglink='%s'",
		 dbg);
	v = objcopy_variant(objcopy, s, "linked", args);
	pl.recorded = v;
	snprintf(data, sizeof(data), "%s/linked.data", dir);
	write_recording(s, data, &pl);
	check_unwinds(s, data, &so, past_main);
	free(v);

	/* no CFI anywhere: the frames above did come from the CFI */
	v = objcopy_variant(objcopy, s, "nocfi",
			    "--strip-debug -R .eh_frame -R .eh_frame_hdr");
	pl.recorded = v;
	snprintf(data, sizeof(data), "%s/nocfi.data", dir);
	write_recording(s, data, &pl);
	assert_true(unwinds_wrong(s, data, &so));
	free(v);
}

/* The binary where the recording says it is not: --symfs, build-id cache. */
static void unwind_relocated(const struct snap *s, const char *dir)
{
	struct pm_session_opts so = { .sz = sizeof(so), .host = PM_HOST_NO,
				      .no_buildid_cache = true };
	char symfs[600], data[600], cache[700], hex[64], *r;
	struct placement pl = { .recorded = "/pmprof-gone/unwind-snap" };
	uint8_t id[20];
	unsigned v;

	/* --symfs holds every file: the libraries are looked up there too */
	snprintf(symfs, sizeof(symfs), "%s/symfs", dir);
	r = st_run("mkdir -p '%s/pmprof-gone' && cp '%s' '%s/pmprof-gone/' && echo done",
		   symfs, s->bin, symfs);
	assert_non_null(r);
	free(r);
	for (int i = 0; i < s->nmaps; i++) {
		if (!strcmp(s->maps[i].path, s->bin))
			continue;
		r = st_run("cp --parents -n '%s' '%s' && echo done",
			   s->maps[i].path, symfs);
		assert_non_null(r);
		free(r);
	}
	snprintf(data, sizeof(data), "%s/symfs.data", dir);
	write_recording(s, data, &pl);
	so.symfs = symfs;
	check_unwinds(s, data, &so, 0);

	/* the build-id cache: ~/.debug/.build-id/ab/cdef.../elf */
	r = st_run("readelf -n '%s' | sed -n 's/.*Build ID: *//p'", s->bin);
	assert_non_null(r);
	assert_true(sscanf(r, "%40s", hex) == 1 && strlen(hex) == 40);
	free(r);
	for (int i = 0; i < 20; i++) {
		assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
		id[i] = (uint8_t)v;
	}
	snprintf(cache, sizeof(cache), "%s/cache/.build-id/%.2s/%s", dir, hex,
		 hex + 2);
	r = st_run("mkdir -p '%s' && cp '%s' '%s/elf' && echo done", cache,
		   s->bin, cache);
	assert_non_null(r);
	free(r);
	pl.build_id = id;
	pl.build_id_size = 20;
	snprintf(data, sizeof(data), "%s/buildid.data", dir);
	write_recording(s, data, &pl);
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	so.symfs = NULL;
	so.no_buildid_cache = false;
	so.buildid_dir = cache;
	check_unwinds(s, data, &so, 0);
}

/* Does the host's cc build for an architecture unwind-snap knows? (The
 * test may itself run under qemu-user: what counts is the compiler's.) */
static bool cc_knows(void)
{
	char *m = st_run("cc -dumpmachine");
	bool ok = m && (!strncmp(m, "x86_64", 6) || !strncmp(m, "aarch64", 7));

	free(m);
	return ok;
}

static void test_native(void **state)
{
	char *dir;
	struct snap *s;

	(void)state;
	if (!cc_knows())
		skip();	/* unwind-snap.c has registers for x86-64 and arm64 */
	dir = st_mkdtemp();
	s = malloc(sizeof(*s));
	take_snapshot(s, dir, "cc", NULL);
	unwind_variants(s, dir, "objcopy", false);
	unwind_relocated(s, dir);
	free(s);
	st_rmdir(dir);
}

/* The report row of a symbol: its Children and Self shares, or fails. */
static void report_row(json_t *doc, const char *sym, double children,
		       double self)
{
	json_t *rows = json_object_get(json_array_get(json_object_get(doc, "events"), 0),
				       "rows"), *r;
	size_t i;

	json_array_foreach(rows, i, r) {
		if (strcmp(json_string_value(json_object_get(r, "symbol")), sym))
			continue;
		assert_float_equal(json_number_value(json_object_get(r, "children")),
				   children, 1e-9);
		assert_float_equal(json_number_value(json_object_get(r, "self")),
				   self, 1e-9);
		return;
	}
	fail_msg("no report row for %s", sym);
}

static void test_arm64(void **state)
{
	const char *cc = "aarch64-linux-gnu-gcc-12 -static";
	char *dir, data[600];
	struct snap *s;
	json_t *doc;

	(void)state;
	if (!st_have("aarch64-linux-gnu-gcc-12") || !st_have("qemu-aarch64"))
		skip();	/* scripts/deps.sh installs gcc-12-aarch64-linux-gnu, qemu-user */
	dir = st_mkdtemp();
	s = malloc(sizeof(*s));
	take_snapshot(s, dir, cc, "qemu-aarch64");
	assert_string_equal(s->machine, "aarch64");
	unwind_variants(s, dir, "aarch64-linux-gnu-objcopy", true);

	/* what a user sees: every frame's function with all of the period */
	snprintf(data, sizeof(data), "%s/eh.data", dir);
	{
		const char *args[] = { "report", "-i", data, "--children",
				       "--format", "json", "--sort", "sym", NULL };

		doc = pm_test__run_json(cmd_report, args, JSON_DECODE_INT_AS_REAL);
	}
	report_row(doc, "leaf", 100, 100);
	report_row(doc, "rec", 100, 0);
	report_row(doc, "outer", 100, 0);
	report_row(doc, "main", 100, 0);
	json_decref(doc);
	free(s);
	st_rmdir(dir);
}

static int no_map(void *arg, uint64_t addr, struct pm_unwind_map *out)
{
	(void)arg;
	(void)addr;
	(void)out;
	return -ENOENT;
}

/* What cannot be unwound says why and returns no frames. */
static void test_no_input(void **state)
{
	struct pm_unwinder *u = pm_unwinder__new();
	uint64_t vals[2] = { 0x7ff0, 0x1000 };	/* sp, ip: bit order */
	struct pm_regs regs = { .abi = 2, .mask = (1ULL << 7) | (1ULL << 8),
				.nr = 2, .regs = vals };
	uint8_t stack[64] = { 0 };
	struct pm_unwind_input in = { .machine = PM_EM_X86_64, .regs = &regs,
				      .stack = stack, .stack_size = sizeof(stack),
				      .tid = 1 };
	struct pm_unwind_frame f[4];
	struct pm_unwind_result res;

	(void)state;
	assert_int_equal(pm_unwind__machine("x86_64"), PM_EM_X86_64);
	assert_int_equal(pm_unwind__machine("arm64"), PM_EM_AARCH64);
	assert_int_equal(pm_unwind__machine("alpha"), 0);

	in.machine = 0;		/* an architecture it does not know */
	assert_int_equal(pm_unwinder__unwind(u, no_map, NULL, &in, f, 4, &res), 0);
	assert_int_equal(res.stop, PM_UNWIND_NO_INPUT);
	assert_non_null(strstr(res.err.msg, "x86-64 and arm64"));
	in.machine = PM_EM_X86_64;
	regs.abi = 1;		/* a 32-bit task */
	assert_int_equal(pm_unwinder__unwind(u, no_map, NULL, &in, f, 4, &res), 0);
	assert_int_equal(res.stop, PM_UNWIND_NO_INPUT);
	regs.abi = 2;
	regs.mask = 1ULL << 8;	/* no sp */
	regs.nr = 1;
	assert_int_equal(pm_unwinder__unwind(u, no_map, NULL, &in, f, 4, &res), 0);
	assert_int_equal(res.stop, PM_UNWIND_NO_INPUT);
	regs.mask = (1ULL << 7) | (1ULL << 8);
	regs.nr = 2;
	in.stack_size = 0;
	assert_int_equal(pm_unwinder__unwind(u, no_map, NULL, &in, f, 4, &res), 0);
	assert_int_equal(res.stop, PM_UNWIND_NO_INPUT);

	/* nothing mapped: the pc alone (libdw has no CFI for it) */
	in.stack_size = sizeof(stack);
	assert_int_equal(pm_unwinder__unwind(u, no_map, NULL, &in, f, 4, &res), 1);
	assert_int_equal(f[0].ip, 0x1000);
	assert_true(f[0].activation);
	assert_int_equal(pm_unwinder__stats(u)->samples, 5);
	assert_int_equal(pm_unwinder__stats(u)->no_input, 4);
	pm_unwinder__delete(u);
}

/*
 * Hostile stacks: the snapshot's registers over random bytes, and sp
 * where the stack would wrap around. Unwinding stops within the frame
 * limit, never reads outside the bytes, never crashes.
 */
static void test_garbage_stack(void **state)
{
	char *dir = st_mkdtemp(), data[600];
	struct snap *s = malloc(sizeof(*s));
	struct pm_session_opts so = { .sz = sizeof(so), .host = PM_HOST_NO,
				      .no_buildid_cache = true };
	struct placement pl;
	uint64_t ips[PM_UNWIND_MAX_FRAMES];
	char *names[PM_UNWIND_MAX_FRAMES];
	unsigned seed = 12345;
	size_t n;

	(void)state;
	if (!cc_knows()) {
		free(s);
		st_rmdir(dir);
		skip();	/* unwind-snap.c has registers for x86-64 and arm64 */
	}
	take_snapshot(s, dir, "cc", NULL);
	pl = (struct placement){ .recorded = s->bin };
	for (int round = 0; round < 20; round++) {
		for (uint64_t i = 0; i < s->size; i++)
			s->stack[i] = (uint8_t)rand_r(&seed);
		if (round == 19)
			s->regs[7] = UINT64_MAX - 16;	/* sp at the top */
		snprintf(data, sizeof(data), "%s/garbage.data", dir);
		write_recording(s, data, &pl);
		n = chain_of(data, &so, ips, names, PM_UNWIND_MAX_FRAMES);
		assert_true(n >= 1 && n <= PM_UNWIND_MAX_FRAMES);
		free_names(names, n);
	}
	free(s);
	st_rmdir(dir);
}

/* ---- the chain memo ---- */

#define MEMO_SAMPLES 8

/* One sample of the memo recording: the snapshot's registers and stack
 * but for what the case changes. */
struct memo_sample {
	uint32_t pid;
	uint64_t regs[40];
	uint8_t stack[DUMP_SIZE];
};

static void memo_mmaps(struct pm_kit *k, const struct snap *s, uint32_t pid)
{
	for (int i = 0; i < s->nmaps; i++) {
		const struct snap_map *m = &s->maps[i];
		uint32_t prot = (m->perms[0] == 'r' ? 1 : 0) |
				(m->perms[1] == 'w' ? 2 : 0) |
				(m->perms[2] == 'x' ? 4 : 0);

		pm_kit__mmap_prot(k, pid, m->start, m->end - m->start, m->pgoff,
				  prot, m->path);
	}
}

static void memo_sample(struct pm_kit *k, int ev, const struct snap *s,
			const struct memo_sample *ms, uint64_t time)
{
	uint64_t mask = regs_mask(s), vals[40];
	struct pm_sample smp = { 0 };
	uint32_t nr = 0;

	for (int i = 0; i < 64; i++)
		if (mask >> i & 1)
			vals[nr++] = ms->regs[i];
	smp.misc = PM_MISC_USER;
	smp.ip = ms->regs[is_arm64(s) ? 32 : 8];
	smp.pid = smp.tid = ms->pid;
	smp.time = time;
	smp.period = 250000;
	smp.regs_user.abi = 2;
	smp.regs_user.mask = mask;
	smp.regs_user.nr = nr;
	smp.regs_user.regs = vals;
	smp.stack_user_size = DUMP_SIZE;
	smp.stack_user = ms->stack;
	smp.stack_user_dyn_size = s->size;
	pm_kit__sample_full(k, ev, &smp);
}

/* The offset in the stack bytes of the word holding v, or -1. */
/* The snapshots are of little-endian machines (x86-64, arm64): their
 * stack words read and written as such on any host. */
static uint64_t stack_load(const uint8_t *p)
{
	uint64_t w = 0;

	for (int i = 7; i >= 0; i--)
		w = w << 8 | p[i];
	return w;
}

static void stack_store(uint8_t *p, uint64_t w)
{
	for (int i = 0; i < 8; i++, w >>= 8)
		p[i] = (uint8_t)w;
}

static long stack_word_of(const struct snap *s, uint64_t v)
{
	for (uint64_t off = 0; off + 8 <= s->size; off += 8)
		if (stack_load((const uint8_t *)s->stack + off) == v)
			return (long)off;
	return -1;
}

struct memo_chain {
	uint64_t ips[PM_UNWIND_MAX_FRAMES];
	size_t n;
};

/* Every sample's call chain in one mode; the memo's hits. */
static size_t memo_chains(const char *path, enum pm_unwind_mode mode,
			  struct memo_chain *out, uint64_t *hits)
{
	struct pm_session_opts so = { .sz = sizeof(so), .host = PM_HOST_NO,
				      .no_buildid_cache = true,
				      .unwind_mode = mode };
	struct pm_session *sess;
	struct pm_error err = { 0 };
	struct pm_record rec;
	size_t nr = 0;
	int ret;

	assert_int_equal(pm_session__open(&sess, path, &so, &err), 0);
	while ((ret = pm_reader__next(pm_session__reader(sess), &rec, &err)) > 0) {
		const struct pm_addr_loc *cc;

		if (pm_session__process(sess, &rec, &err) != 1)
			continue;
		assert_true(nr < MEMO_SAMPLES);
		out[nr].n = pm_session__callchain(sess, &cc);
		for (size_t i = 0; i < out[nr].n; i++)
			out[nr].ips[i] = cc[i].ip;
		nr++;
	}
	assert_int_equal(ret, 0);
	*hits = pm_session__unwind_stats(sess)->memo;
	pm_session__delete(sess);
	return nr;
}

static bool same_chain(const struct memo_chain *a, const struct memo_chain *b)
{
	return a->n == b->n && !memcmp(a->ips, b->ips, a->n * sizeof(a->ips[0]));
}

/*
 * Samples of the snapshot that differ in what the unwind reads, or in the
 * maps they are read with, must not get an earlier sample's frames: each
 * chain equals the one libdwfl unwinds step by step for it alone (no
 * cached rules, no memo), and those differ from the first sample's. The
 * one sample that differs only in a register the unwind does not use
 * does get the memo's frames.
 */
static void test_memo(void **state)
{
	struct memo_chain memo[MEMO_SAMPLES], dwfl[MEMO_SAMPLES];
	struct memo_sample *ms = calloc(MEMO_SAMPLES, sizeof(*ms));
	struct snap *s = malloc(sizeof(*s));
	char *dir, data[600];
	struct pm_kit *k;
	struct pm_kit_opts ko = { 0 };
	uint64_t pc, hits, dwfl_hits;
	long ra_off;
	int ev, text = -1, n = 0;
	size_t nr;

	(void)state;
	if (!cc_knows()) {
		free(s);
		free(ms);
		skip();
	}
	dir = st_mkdtemp();
	take_snapshot(s, dir, "cc", NULL);
	pc = s->regs[is_arm64(s) ? 32 : 8];
	for (int i = 0; i < s->nmaps; i++)
		if (s->maps[i].start <= pc && pc < s->maps[i].end)
			text = i;
	assert_true(text >= 0);
	ra_off = stack_word_of(s, s->bt[1]);	/* leaf's return address */
	assert_true(ra_off >= 0);

	snprintf(data, sizeof(data), "%s/memo.data", dir);
	ko.arch = s->machine;
	ko.path = data;
	k = pm_kit__new_opts(&ko);
	ev = pm_kit__event(k, "cpu-clock", PM_TYPE_SOFTWARE, 0,
			   PM_SAMPLE_IP | PM_SAMPLE_TID | PM_SAMPLE_TIME |
			   PM_SAMPLE_PERIOD | PM_SAMPLE_REGS_USER |
			   PM_SAMPLE_STACK_USER, 250000);
	pm_kit__attr(k, ev)->sample_regs_user = regs_mask(s);
	pm_kit__attr(k, ev)->sample_stack_user = DUMP_SIZE;
	pm_kit__comm(k, PID, PID, "unwind-snap");
	pm_kit__comm(k, PID + 1, PID + 1, "other");
	memo_mmaps(k, s, PID);
	for (int i = 0; i < MEMO_SAMPLES; i++) {
		ms[i].pid = PID;
		memcpy(ms[i].regs, s->regs, sizeof(s->regs));
		memcpy(ms[i].stack, s->stack, s->size);
	}
	/* 0: the snapshot; 1: a register the unwind does not use changed */
	memo_sample(k, ev, s, &ms[n++], 1000);
	ms[n].regs[0] ^= 0x5a5a;
	memo_sample(k, ev, s, &ms[n++], 1001);
	/* 2: leaf's return address is rec's caller's: another chain */
	stack_store((uint8_t *)ms[n].stack + ra_off, s->bt[2]);
	memo_sample(k, ev, s, &ms[n++], 1002);
	/* 3: the same bytes in another process, which maps nothing */
	ms[n].pid = PID + 1;
	memo_sample(k, ev, s, &ms[n++], 1003);
	/* 4: the program's code mapped over by anonymous memory */
	pm_kit__mmap_prot(k, PID, s->maps[text].start,
			  s->maps[text].end - s->maps[text].start, 0, 5, "//anon");
	memo_sample(k, ev, s, &ms[n++], 1004);
	/* 5: and the program back, one page off: other code at the pc */
	pm_kit__mmap_prot(k, PID, s->maps[text].start,
			  s->maps[text].end - s->maps[text].start,
			  s->maps[text].pgoff + 4096, 5, s->maps[text].path);
	memo_sample(k, ev, s, &ms[n++], 1005);
	pm_kit__save(k, NULL);

	nr = memo_chains(data, PM_UNWIND_CACHED, memo, &hits);
	assert_int_equal(nr, (size_t)n);
	assert_int_equal(memo_chains(data, PM_UNWIND_LIBDWFL, dwfl, &dwfl_hits), nr);
	assert_int_equal(dwfl_hits, 0);
	for (size_t i = 0; i < nr; i++)
		if (!same_chain(&memo[i], &dwfl[i]))
			fail_msg("sample %zu: %zu frames, libdwfl alone %zu; frame 1 %#" PRIx64 " against %#" PRIx64,
				 i, memo[i].n, dwfl[i].n, memo[i].ips[1], dwfl[i].ips[1]);
	/* the snapshot's real chain, and the cases really differ from it */
	assert_int_equal(memo[0].n, (size_t)s->nbt);
	assert_true(same_chain(&memo[1], &memo[0]));
	for (size_t i = 2; i < nr; i++)
		assert_false(same_chain(&memo[i], &memo[0]));
	assert_int_equal(hits, 1);	/* sample 1 */
	free(ms);
	free(s);
	st_rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_input),
		cmocka_unit_test(test_native),
		cmocka_unit_test(test_garbage_stack),
		cmocka_unit_test(test_memo),
		cmocka_unit_test(test_arm64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
