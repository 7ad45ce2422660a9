// SPDX-License-Identifier: GPL-2.0
/*
 * Top-down level 1, the miss rates and the summary's stops and counting
 * time, from recordings the writer makes:
 * Neoverse raw codes with PMU_CAPS slots, Intel's slots group sampled by
 * its second event, AMD Zen 4 split over two groups. Every expected value
 * is computed here from the windows the test writes, with each vendor's
 * formula written out again, and the intervals by the delta method with
 * the gradient taken by hand.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fixture/kit.h"
#include "pmprof/metrics.h"
#include "pmprof/perfdata.h"

#define Z95 1.959963984540054
#define RAW 4
#define F 0x1010
#define G 0x2010

static const char dso[] = "prog", sym_f[] = "f", sym_g[] = "g";

/* ---- recordings ---------------------------------------------------------- */

struct ev {
	const char *name;
	uint64_t config;
	int group;		/* 0, 1 */
	bool samples;		/* the group's sampling event */
};

struct rec {
	struct pm_kit *k;
	const struct ev *ev;
	int nev;
	uint64_t cum[16];	/* each event's count so far */
	uint64_t t;
	uint64_t enabled, running;	/* the next sample's times, with timed */
};

static bool timed;	/* rec_open asks for TOTAL_TIME_ENABLED/RUNNING */

static void rec_open(struct rec *r, const char *arch, const char *cpuid,
		     const char *slots, const struct ev *ev, int nev)
{
	uint64_t st = PM_SAMPLE_IP | PM_SAMPLE_TID | PM_SAMPLE_TIME |
		      PM_SAMPLE_ID | PM_SAMPLE_READ;
	struct pm_error err = { 0 };
	int e, first[2] = { -1, -1 }, nr[2] = { 0, 0 };

	memset(r, 0, sizeof(*r));
	r->k = pm_kit__new(arch, false);
	r->ev = ev;
	r->nev = nev;
	r->t = 1000;
	for (e = 0; e < nev; e++) {
		struct pm_attr *a;

		pm_kit__event(r->k, ev[e].name, RAW, ev[e].config, st,
			      ev[e].samples ? 100000 : 0);
		a = pm_kit__attr(r->k, e);
		a->read_format = PM_FORMAT_ID | PM_FORMAT_GROUP |
				 (timed ? PM_FORMAT_TOTAL_TIME_ENABLED |
					  PM_FORMAT_TOTAL_TIME_RUNNING : 0);
		if (first[ev[e].group] < 0)
			first[ev[e].group] = e;
		nr[ev[e].group]++;
	}
	for (e = 0; e < 2; e++)
		if (nr[e] > 1)
			pm_kit__group(r->k, first[e], nr[e], NULL);
	if (cpuid)
		assert_int_equal(pm_writer__set_string(pm_kit__writer(r->k),
						       PM_FEAT_CPUID, cpuid, &err), 0);
	if (slots) {
		char *n = "slots", *v = (char *)slots;
		struct pm_pmu_caps caps = { .pmu = "armv8_pmuv3_0", .nr = 1,
					    .names = &n, .values = &v };

		assert_int_equal(pm_writer__set_pmu_caps(pm_kit__writer(r->k), &caps, 1,
							 &err), 0);
	}
}

/* A sample of group g at ip after a window of the given counts (in the
 * group's event order): the group's cumulative counts. */
static void rec_window(struct rec *r, int g, uint64_t ip, const uint64_t *w)
{
	struct pm_read_value vals[16];
	struct pm_sample s = { 0 };
	int e, n = 0, sampler = -1;

	for (e = 0; e < r->nev; e++) {
		if (r->ev[e].group != g)
			continue;
		r->cum[e] += w[n];
		vals[n].value = r->cum[e];
		vals[n].id = pm_kit__id(r->k, e);
		n++;
		if (r->ev[e].samples)
			sampler = e;
	}
	s.misc = PM_MISC_USER;
	s.ip = ip;
	s.pid = s.tid = 10;
	s.time = r->t += 100;
	s.id = pm_kit__id(r->k, sampler);
	s.read.nr = (uint64_t)n;
	s.read.values = vals;
	s.read.time_enabled = r->enabled;
	s.read.time_running = r->running;
	pm_kit__sample_full(r->k, sampler, &s);
}

/* A THROTTLE or UNTHROTTLE of event e's id, misc as given. */
static void rec_stop(struct rec *r, int e, uint32_t type, uint16_t misc)
{
	struct pm_rec_throttle th = { .time = r->t += 100, .id = pm_kit__id(r->k, e),
				      .stream_id = pm_kit__id(r->k, e) };
	struct pm_error err = { 0 };

	assert_int_equal(pm_writer__throttle(pm_kit__writer(r->k), type, misc, &th,
					     NULL, &err), 0);
}

static struct pm_metrics *rec_analyse(struct rec *r, bool ci)
{
	struct pm_metrics_opts o = { .ci = ci };
	struct pm_metrics *m = pm_metrics__new(&o);
	struct pm_error err = { 0 };
	struct pm_reader *rd;
	struct pm_record rec;
	size_t len;
	void *buf = pm_kit__finish(r->k, &len);

	assert_int_equal(pm_reader__open_mem(&rd, buf, len, "fixture", &err), 0);
	assert_int_equal(pm_metrics__add_reader_events(m, rd, &err), 0);
	while (pm_reader__next(rd, &rec, &err) > 0) {
		struct pm_metrics_loc loc = { .dso = dso, .dso_name = dso };
		struct pm_sample s;

		if (rec.type != PM_RECORD_SAMPLE) {
			assert_int_equal(pm_metrics__record(m, rd, &rec, &err), 0);
			continue;
		}
		assert_int_equal(pm_reader__parse_sample(rd, &rec, &s, &err), 0);
		loc.sym = loc.sym_name = s.ip == F ? sym_f : sym_g;
		assert_int_equal(pm_metrics__sample(m, &s, &loc, &err), 0);
	}
	pm_reader__delete(rd);
	free(buf);
	return m;
}

static size_t func_index(const struct pm_metrics *m, const char *sym)
{
	size_t i;

	for (i = 0; i < pm_metrics__nr_funcs(m); i++)
		if (!strcmp(pm_metrics__func(m, i)->sym_name, sym))
			return i;
	fail_msg("no function %s", sym);
	return 0;
}

static void check(const struct pm_metrics *m, const char *sym, const char *name,
		  double want)
{
	double v;

	if (pm_metrics__metric(m, func_index(m, sym), name, &v, NULL, NULL))
		fail_msg("%s %s: no value", sym, name);
	if (fabs(v - want) > 1e-9 * (fabs(want) + 1))
		fail_msg("%s %s: %.12g, want %.12g", sym, name, v, want);
}

/* The delta method's half-width of a ratio sum(y) / sum(x) over n windows. */
static double ratio_half(const double *y, const double *x, int n)
{
	double sy = 0, sx = 0, ss = 0, R;
	int i;

	for (i = 0; i < n; i++) {
		sy += y[i];
		sx += x[i];
	}
	R = sy / sx;
	for (i = 0; i < n; i++)
		ss += (y[i] - R * x[i]) * (y[i] - R * x[i]);
	return Z95 * sqrt(ss / (n * (n - 1.0))) / (sx / n);
}

/* ---- Arm ----------------------------------------------------------------- */

/* Neoverse raw codes: CPU_CYCLES, INST_RETIRED, STALL_SLOT_FRONTEND,
 * STALL_SLOT_BACKEND, OP_SPEC, OP_RETIRED; 5 slots per cycle. */
static const struct ev arm_one[] = {
	{ "r11", 0x11, 0, true }, { "r8", 0x08, 0, false },
	{ "r3e", 0x3e, 0, false }, { "r3d", 0x3d, 0, false },
	{ "r3b", 0x3b, 0, false }, { "r3a", 0x3a, 0, false },
};

/* f's windows: cycles, instructions, FE, BE, OP_SPEC, OP_RETIRED. */
static const uint64_t arm_f[3][6] = {
	{ 1000, 500, 3000, 500, 1400, 1000 },
	{ 2000, 900, 6500, 1200, 2000, 1500 },
	{ 1500, 700, 4000, 1000, 2200, 2000 },
};
static const uint64_t arm_g[2][6] = {
	{ 4000, 5000, 1000, 9000, 10000, 9500 },
	{ 3000, 3800, 800, 7000, 7000, 6800 },
};

static void test_arm(void **state)
{
	struct rec r;
	struct pm_metrics *m;
	double c = 0, fe = 0, be = 0, sp = 0, rt = 0, stall, ret;
	uint64_t zero[6] = { 0 };
	int i;

	(void)state;
	rec_open(&r, "aarch64", NULL, "0x00000005", arm_one, 6);
	rec_window(&r, 0, G, zero);		/* opening */
	for (i = 0; i < 3; i++) {
		rec_window(&r, 0, F, arm_f[i]);
		c += (double)arm_f[i][0];
		fe += (double)arm_f[i][2];
		be += (double)arm_f[i][3];
		sp += (double)arm_f[i][4];
		rt += (double)arm_f[i][5];
	}
	for (i = 0; i < 2; i++)
		rec_window(&r, 0, G, arm_g[i]);
	m = rec_analyse(&r, false);
	/* Arm's level 1: FE = STALL_SLOT_FRONTEND / (5 CPU_CYCLES), BE the
	 * same, RETIRING = OP_RETIRED / OP_SPEC x (1 - STALL_SLOT / (5 CPU_CYCLES)),
	 * BAD = (1 - OP_RETIRED / OP_SPEC) x (1 - STALL_SLOT / (5 CPU_CYCLES)),
	 * STALL_SLOT = FE + BE (not recorded) */
	stall = (fe + be) / (5 * c);
	ret = rt / sp;
	check(m, sym_f, "FE%", 100 * fe / (5 * c));
	check(m, sym_f, "BE%", 100 * be / (5 * c));
	check(m, sym_f, "RET%", 100 * ret * (1 - stall));
	check(m, sym_f, "BAD%", 100 * (1 - ret) * (1 - stall));
	check(m, sym_f, "CPI", c / 2100);
	check(m, sym_g, "BE%", 100 * 16000.0 / (5 * 7000));
	/* the top-down counters have no columns of their own */
	assert_int_equal(pm_metrics__metric(m, 0, "r3e/KI", NULL, NULL, NULL), -ENOENT);
	assert_int_equal(pm_metrics__metric(m, 0, "%r3a", NULL, NULL, NULL), -ENOENT);
	assert_string_equal(pm_metrics__metric_name(m, 0), "FE%");
	pm_metrics__delete(m);

	/* Without the slots count there is no level 1, and the note says why. */
	rec_open(&r, "aarch64", NULL, NULL, arm_one, 6);
	rec_window(&r, 0, G, zero);
	rec_window(&r, 0, F, arm_f[0]);
	m = rec_analyse(&r, false);
	assert_int_equal(pm_metrics__metric(m, 0, "FE%", NULL, NULL, NULL), -ENOENT);
	assert_non_null(strstr(pm_metrics__topdown_note(m), "no PMU_CAPS slots"));
	pm_metrics__delete(m);
}

/*
 * Split over two groups, as the recorder makes them when the events do
 * not fit the counters: {cycles, OP_SPEC, OP_RETIRED} and {cycles,
 * STALL_SLOT_FRONTEND, STALL_SLOT_BACKEND, STALL_SLOT}. RETIRING =
 * r x (1 - s), r = OP_RETIRED / OP_SPEC over group 0's windows, s =
 * STALL_SLOT / (5 cycles) over group 1's: its variance (1 - s)^2 var(r)
 * + r^2 var(s), the two groups' windows being apart.
 */
static const struct ev arm_two[] = {
	{ "r11", 0x11, 0, true }, { "r3b", 0x3b, 0, false }, { "r3a", 0x3a, 0, false },
	{ "r11", 0x11, 1, true }, { "r3e", 0x3e, 1, false }, { "r3d", 0x3d, 1, false },
	{ "r3f", 0x3f, 1, false },
};

static void test_arm_two_groups_ci(void **state)
{
	static const uint64_t g0[4][3] = {
		{ 1000, 2000, 1500 }, { 1200, 2600, 2100 }, { 900, 1500, 1400 },
		{ 1100, 2500, 1600 },
	};
	static const uint64_t g1[3][4] = {
		{ 1000, 1200, 800, 2100 }, { 1300, 1500, 1500, 2900 },
		{ 800, 700, 900, 1650 },
	};
	double y[4], x[4], r, s, vr, vs, v, lo, hi, half;
	struct pm_metrics *m;
	uint64_t z3[3] = { 0 }, z4[4] = { 0 };
	struct rec rc;
	int i;

	(void)state;
	rec_open(&rc, "aarch64", NULL, "5", arm_two, 7);
	rec_window(&rc, 0, G, z3);
	rec_window(&rc, 1, G, z4);
	for (i = 0; i < 4; i++)
		rec_window(&rc, 0, F, g0[i]);
	for (i = 0; i < 3; i++)
		rec_window(&rc, 1, F, g1[i]);
	m = rec_analyse(&rc, true);
	for (i = 0; i < 4; i++) {
		y[i] = (double)g0[i][2];
		x[i] = (double)g0[i][1];
	}
	r = 6600.0 / 8600;
	vr = ratio_half(y, x, 4) / Z95;
	for (i = 0; i < 3; i++) {
		y[i] = (double)g1[i][3];	/* STALL_SLOT, recorded */
		x[i] = 5.0 * (double)g1[i][0];
	}
	s = 6650.0 / (5 * 3100);
	vs = ratio_half(y, x, 3) / Z95;
	check(m, sym_f, "RET%", 100 * r * (1 - s));
	check(m, sym_f, "BAD%", 100 * (1 - r) * (1 - s));
	check(m, sym_f, "FE%", 100 * 3400.0 / (5 * 3100));
	assert_int_equal(pm_metrics__metric(m, func_index(m, sym_f), "RET%", &v, &lo, &hi), 0);
	half = 100 * Z95 * sqrt((1 - s) * (1 - s) * vr * vr + r * r * vs * vs);
	if (fabs((hi - lo) / 2 - half) > 1e-4 * half)
		fail_msg("RET%% interval +-%.9g, want +-%.9g", (hi - lo) / 2, half);
	/* FE% is a ratio of one group: the ratio estimator's interval */
	for (i = 0; i < 3; i++) {
		y[i] = 100 * (double)g1[i][1];
		x[i] = 5.0 * (double)g1[i][0];
	}
	assert_int_equal(pm_metrics__metric(m, func_index(m, sym_f), "FE%", &v, &lo, &hi), 0);
	half = ratio_half(y, x, 3);
	if (fabs((hi - lo) / 2 - half) > 1e-4 * half)
		fail_msg("FE%% interval +-%.9g, want +-%.9g", (hi - lo) / 2, half);
	pm_metrics__delete(m);
}

/* STALL_FRONTEND / STALL_BACKEND alone: Neoverse N1's cycle accounting. */
static void test_arm_cycles(void **state)
{
	static const struct ev ev[] = {
		{ "r11", 0x11, 0, true }, { "r23", 0x23, 0, false },
		{ "r24", 0x24, 0, false },
	};
	static const uint64_t w[2][3] = { { 1000, 300, 200 }, { 3000, 500, 1800 } };
	uint64_t z[3] = { 0 };
	struct pm_metrics *m;
	struct rec r;

	(void)state;
	rec_open(&r, "aarch64", NULL, NULL, ev, 3);
	rec_window(&r, 0, G, z);
	rec_window(&r, 0, F, w[0]);
	rec_window(&r, 0, F, w[1]);
	m = rec_analyse(&r, false);
	check(m, sym_f, "FEcy%", 100 * 800.0 / 4000);
	check(m, sym_f, "BEcy%", 100 * 2000.0 / 4000);
	assert_int_equal(pm_metrics__metric(m, 0, "FE%", NULL, NULL, NULL), -ENOENT);
	pm_metrics__delete(m);
}

/* ---- Intel --------------------------------------------------------------- */

/*
 * {slots, cycles, topdown-retiring, -bad-spec, -fe-bound, -be-bound}: the
 * slots event leads but cannot sample, the cycles event samples (perf's
 * and the kernel's rule for a sampled top-down group). Raw codes as
 * Linux's cpu/events/ gives them.
 */
static void test_intel(void **state)
{
	static const struct ev ev[] = {
		{ "slots", 0x0400, 0, false }, { "cycles", 0x003c, 0, true },
		{ "topdown-retiring", 0x8000, 0, false },
		{ "topdown-bad-spec", 0x8100, 0, false },
		{ "topdown-fe-bound", 0x8200, 0, false },
		{ "topdown-be-bound", 0x8300, 0, false },
	};
	static const uint64_t w[2][6] = {
		{ 6000, 1000, 3000, 600, 1200, 1200 },
		{ 9000, 1500, 1000, 2000, 3000, 3000 },
	};
	uint64_t z[6] = { 0 };
	struct pm_metrics *m;
	struct rec r;

	(void)state;
	rec_open(&r, "x86_64", "GenuineIntel-6-8F-8", NULL, ev, 6);
	rec_window(&r, 0, G, z);
	rec_window(&r, 0, F, w[0]);
	rec_window(&r, 0, F, w[1]);
	m = rec_analyse(&r, false);
	check(m, sym_f, "RET%", 100 * 4000.0 / 15000);
	check(m, sym_f, "BAD%", 100 * 2600.0 / 15000);
	check(m, sym_f, "FE%", 100 * 4200.0 / 15000);
	check(m, sym_f, "BE%", 100 * 4200.0 / 15000);
	assert_non_null(strstr(pm_metrics__topdown_note(m), "Intel"));
	pm_metrics__delete(m);
}

/* ---- AMD ----------------------------------------------------------------- */

/*
 * Zen 4 (family 25 = 19h: 6 dispatch slots), two groups of at most six:
 * {ls_not_halted_cyc, ex_ret_instr, de_src_op_disp.all, ex_ret_ops} and
 * {ls_not_halted_cyc, no_ops_from_frontend, backend_stalls, smt_contention}.
 */
static void test_amd(void **state)
{
	static const struct ev ev[] = {
		{ "r76", 0x76, 0, true }, { "rc0", 0xc0, 0, false },
		{ "raa", 0x07aa, 0, false }, { "rc1", 0xc1, 0, false },
		{ "r76", 0x76, 1, true }, { "r1000001a0", 0x1000001a0ULL, 1, false },
		{ "r100001ea0", 0x100001ea0ULL, 1, false },
		{ "r1000060a0", 0x1000060a0ULL, 1, false },
	};
	static const uint64_t a[2][4] = { { 1000, 1500, 2400, 2000 }, { 2000, 2500, 4000, 3000 } };
	static const uint64_t b[1][4] = { { 2500, 4000, 6000, 900 } };
	uint64_t z[4] = { 0 };
	struct pm_metrics *m;
	struct rec r;

	(void)state;
	rec_open(&r, "x86_64", "AuthenticAMD-25-17-1", NULL, ev, 8);
	rec_window(&r, 0, G, z);
	rec_window(&r, 1, G, z);
	rec_window(&r, 0, F, a[0]);
	rec_window(&r, 0, F, a[1]);
	rec_window(&r, 1, F, b[0]);
	m = rec_analyse(&r, false);
	/* PPR 19h pipeline utilization, total slots = 6 x cycles */
	check(m, sym_f, "RET%", 100 * 5000.0 / (6 * 3000));
	check(m, sym_f, "BAD%", 100 * (6400.0 - 5000) / (6 * 3000));
	check(m, sym_f, "FE%", 100 * 4000.0 / (6 * 2500));
	check(m, sym_f, "BE%", 100 * 6000.0 / (6 * 2500));
	check(m, sym_f, "SMT%", 100 * 900.0 / (6 * 2500));
	check(m, sym_f, "IPC", 4000.0 / 3000);
	assert_non_null(strstr(pm_metrics__topdown_note(m), "6 slots per cycle"));
	pm_metrics__delete(m);

	/* family 23 (17h: Zen 1 and 2) has no dispatch-slot events: no width */
	rec_open(&r, "x86_64", "AuthenticAMD-23-49-0", NULL, ev, 8);
	rec_window(&r, 0, G, z);
	rec_window(&r, 0, F, a[0]);
	m = rec_analyse(&r, false);
	assert_int_equal(pm_metrics__metric(m, 0, "FE%", NULL, NULL, NULL), -ENOENT);
	assert_non_null(strstr(pm_metrics__topdown_note(m), "--slots"));
	pm_metrics__delete(m);
}

/* ---- miss rates -------------------------------------------------------- */

/*
 * Each miss type both per kilo-instruction and per access: branch misses
 * per branch (BM%), L1D refills per access (%CM, Arm's name), LLC, dTLB
 * and iTLB from perf's cache events (type 3: id | op << 8 | result << 16).
 */
static void test_miss_rates(void **state)
{
	static const struct ev ev[] = {
		{ "r11", 0x11, 0, true }, { "r8", 0x08, 0, false },
		{ "r21", 0x21, 0, false }, { "r10", 0x10, 0, false },
		{ "r25", 0x25, 0, false }, { "r5", 0x05, 0, false },
	};
	static const uint64_t w[2][6] = {
		{ 4000, 2000, 300, 30, 800, 8 }, { 6000, 3000, 500, 10, 1200, 40 },
	};
	uint64_t z[6] = { 0 };
	struct pm_metrics *m;
	struct rec r;

	(void)state;
	rec_open(&r, "aarch64", NULL, NULL, ev, 6);
	rec_window(&r, 0, G, z);
	rec_window(&r, 0, F, w[0]);
	rec_window(&r, 0, F, w[1]);
	m = rec_analyse(&r, false);
	/* 40 mispredicts in 800 branches and 5000 instructions: 5% and 8 */
	check(m, sym_f, "BM%", 100 * 40.0 / 800);
	check(m, sym_f, "BMKI", 1000 * 40.0 / 5000);
	/* L1D TLB: 48 refills of 2000 accesses */
	check(m, sym_f, "DTLBM%", 100 * 48.0 / 2000);
	check(m, sym_f, "DTLBMKI", 1000 * 48.0 / 5000);
	/* the refills have their MPKI under that name only */
	assert_int_equal(pm_metrics__metric(m, 0, "r5/KI", NULL, NULL, NULL), -ENOENT);
	check(m, sym_f, "r21/KI", 1000 * 800.0 / 5000);
	pm_metrics__delete(m);
}

static void test_cache_roles(void **state)
{
	struct pm_attr a = { .type = 3 };

	(void)state;
	a.config = 0x10002;	/* LL, read, miss */
	assert_int_equal(pm_metrics__role(&a, NULL, NULL), PM_ROLE_LLC_MISS);
	a.config = 0x3;		/* dTLB, read, access */
	assert_int_equal(pm_metrics__role(&a, NULL, NULL), PM_ROLE_DTLB_ACCESS);
	a.config = 0x10004;
	assert_int_equal(pm_metrics__role(&a, NULL, NULL), PM_ROLE_ITLB_MISS);
	a.config = 0x10100;	/* L1D, write, miss: not a read */
	assert_int_equal(pm_metrics__role(&a, NULL, NULL), PM_ROLE_NONE);
	assert_int_equal(pm_metrics__role(NULL, "cpu/topdown-fe-bound/", NULL),
			 PM_ROLE_TD_FRONTEND);
	assert_int_equal(pm_metrics__role(NULL, "armv8_pmuv3_0/stall_slot_backend/", NULL),
			 PM_ROLE_TD_BACKEND);
	assert_int_equal(pm_metrics__role(NULL, "de_src_op_disp.all", NULL),
			 PM_ROLE_TD_ISSUED);
	assert_int_equal(pm_metrics__role(NULL, "dTLB-load-misses", NULL),
			 PM_ROLE_DTLB_MISS);
}

/*
 * A rare event's interval: the windows' spread says nothing when most see
 * none, so the count's Poisson (Jeffreys) interval stands: for k events
 * the 2.5% and 97.5% quantiles of chi-square with 2k + 1 degrees of
 * freedom, halved (tables: k = 0: [0, 2.5119]; k = 3: [0.8450, 8.0069]),
 * over the instructions, symmetric about the value (to the farther end),
 * never below 0. A frequent event keeps the delta method's interval.
 */
static void test_rare_events(void **state)
{
	static const struct ev ev[] = {
		{ "r11", 0x11, 0, true }, { "r8", 0x08, 0, false }, { "r10", 0x10, 0, false },
	};
	uint64_t w[3] = { 2000, 1000, 0 };
	struct pm_metrics *m;
	double v, lo, hi;
	struct rec r;
	int i;

	(void)state;
	for (int k = 0; k <= 3; k += 3) {
		rec_open(&r, "aarch64", NULL, NULL, ev, 3);
		rec_window(&r, 0, G, w);
		for (i = 0; i < 10; i++) {
			w[0] = 1900 + 20 * (uint64_t)i;	/* some spread for CPI */
			w[2] = i < k ? 1 : 0;
			rec_window(&r, 0, F, w);
		}
		m = rec_analyse(&r, true);
		assert_int_equal(pm_metrics__metric(m, func_index(m, sym_f), "BMKI", &v, &lo, &hi), 0);
		assert_true(fabs(v - 1000.0 * k / 10000) < 1e-12);
		assert_true(lo == 0);
		if (k == 0)
			assert_true(fabs(hi - 1000 * 2.5119 / 10000) < 1e-4);
		else
			assert_true(fabs(hi - 1000 * 8.0069 / 10000) < 2e-3 * 0.8);
		pm_metrics__delete(m);
	}
	/* 20 misses a window: the delta method's, by hand */
	rec_open(&r, "aarch64", NULL, NULL, ev, 3);
	rec_window(&r, 0, G, w);
	{
		double y[10], x[10];

		for (i = 0; i < 10; i++) {
			w[1] = 1000 + 10 * (uint64_t)i;
			w[2] = 20 + (uint64_t)(i % 3);
			y[i] = 1000.0 * (double)w[2];
			x[i] = (double)w[1];
			rec_window(&r, 0, F, w);
		}
		m = rec_analyse(&r, true);
		assert_int_equal(pm_metrics__metric(m, func_index(m, sym_f), "BMKI", &v, &lo, &hi), 0);
		assert_true(fabs((hi - lo) / 2 - ratio_half(y, x, 10)) < 1e-9);
		pm_metrics__delete(m);
	}
}

/* ---- the summary ------------------------------------------------------- */

/*
 * pmprof record's burst gaps (THROTTLE and UNTHROTTLE with misc
 * PM_MISC_PMPROF_STOP) are counted apart from the kernel's throttling;
 * both restart the stream, so the sample after either opens a window.
 */
static void test_stops(void **state)
{
	static const struct ev ev[] = { { "r11", 0x11, 0, true }, { "r8", 0x08, 0, false } };
	static const uint64_t w[2] = { 1000, 400 };
	const struct pm_metrics_summary *sum;
	struct pm_metrics *m;
	struct rec r;

	(void)state;
	rec_open(&r, "aarch64", NULL, NULL, ev, 2);
	rec_window(&r, 0, F, w);			/* opening */
	rec_window(&r, 0, F, w);			/* window 1 */
	rec_stop(&r, 0, PM_RECORD_THROTTLE, PM_MISC_PMPROF_STOP);
	rec_stop(&r, 0, PM_RECORD_UNTHROTTLE, PM_MISC_PMPROF_STOP);
	rec_window(&r, 0, F, w);			/* opening */
	rec_window(&r, 0, F, w);			/* window 2 */
	rec_stop(&r, 0, PM_RECORD_THROTTLE, PM_MISC_PMPROF_STOP);
	rec_stop(&r, 0, PM_RECORD_UNTHROTTLE, PM_MISC_PMPROF_STOP);
	rec_window(&r, 0, F, w);			/* opening */
	rec_stop(&r, 0, PM_RECORD_THROTTLE, 0);		/* the kernel's */
	rec_stop(&r, 0, PM_RECORD_UNTHROTTLE, 0);
	rec_window(&r, 0, F, w);			/* opening */
	rec_window(&r, 0, F, w);			/* window 3 */
	m = rec_analyse(&r, false);
	sum = pm_metrics__summary(m);
	assert_int_equal(sum->burst_stops, 2);
	assert_int_equal(sum->burst_restarts, 2);
	assert_int_equal(sum->throttles, 1);
	assert_int_equal(sum->unthrottles, 1);
	assert_int_equal(sum->opening, 4);
	assert_int_equal(sum->windows, 3);
	pm_metrics__delete(m);
}

/*
 * The counting time of each group from its reads' TOTAL_TIME_ENABLED and
 * TOTAL_TIME_RUNNING: group 0 ran half the time it was enabled (the
 * kernel multiplexed it), group 1 all of it.
 */
static void test_counting_time(void **state)
{
	static const struct ev ev[] = {
		{ "r11", 0x11, 0, true }, { "r8", 0x08, 0, false },
		{ "r11", 0x11, 1, true }, { "r3e", 0x3e, 1, false },
	};
	static const uint64_t w[2] = { 1000, 400 };
	struct pm_metrics_group g;
	struct pm_metrics *m;
	struct rec r;
	char line[512];
	int i;

	(void)state;
	timed = true;
	rec_open(&r, "aarch64", NULL, NULL, ev, 4);
	timed = false;
	for (i = 0; i < 4; i++) {
		r.enabled = 1000 + 2000 * (uint64_t)i;	/* +2000 each */
		r.running = 700 + 1000 * (uint64_t)i;	/* +1000 each */
		rec_window(&r, 0, F, w);
		r.running = r.enabled;
		rec_window(&r, 1, F, w);
	}
	m = rec_analyse(&r, false);
	assert_int_equal(pm_metrics__nr_groups(m), 2);
	assert_int_equal(pm_metrics__group(m, 0, &g), 0);
	assert_true(g.timed);
	assert_int_equal(g.nr_events, 2);
	assert_int_equal(g.enabled, 6000);
	assert_int_equal(g.running, 3000);
	assert_string_equal(g.leader, "r11");
	assert_int_equal(pm_metrics__group(m, 1, &g), 0);
	assert_int_equal(g.enabled, 6000);
	assert_int_equal(g.running, 6000);
	assert_int_equal(pm_metrics__group(m, 2, &g), -ENOENT);
	pm_metrics__groups_line(m, line, sizeof(line));
	assert_string_equal(line, "multiplexed (fewer counters than events): group 1 (r11, 2 events) counted 50.0%, group 2 (r11#2, 2 events) counted 100.0% of its enabled time");
	pm_metrics__delete(m);

	/* without the times in the reads: nothing to say */
	rec_open(&r, "aarch64", NULL, NULL, ev, 4);
	rec_window(&r, 0, F, w);
	rec_window(&r, 0, F, w);
	m = rec_analyse(&r, false);
	pm_metrics__groups_line(m, line, sizeof(line));
	assert_string_equal(line, "");
	assert_int_equal(pm_metrics__group(m, 0, &g), 0);
	assert_false(g.timed);
	pm_metrics__delete(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arm),
		cmocka_unit_test(test_arm_two_groups_ci),
		cmocka_unit_test(test_arm_cycles),
		cmocka_unit_test(test_intel),
		cmocka_unit_test(test_amd),
		cmocka_unit_test(test_miss_rates),
		cmocka_unit_test(test_cache_roles),
		cmocka_unit_test(test_rare_events),
		cmocka_unit_test(test_stops),
		cmocka_unit_test(test_counting_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
