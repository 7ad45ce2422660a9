// SPDX-License-Identifier: GPL-2.0
/*
 * The windows analysis (pmprof metrics). Each case writes a recording
 * with the fixture kit (groups sampled with READ|GROUP, hf attrs of 144
 * bytes, THROTTLE/UNTHROTTLE/LOST, ID_INDEX), reads it back through the
 * reader and feeds it to the accumulator. Functions are address ranges
 * defined here. Every expected sum, sample, discarded and opening count is
 * worked out by hand in the comment above it, from the rules in
 * include/pmprof/metrics.h.
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
#include <jansson.h>

#include "fixture/kit.h"
#include "pmprof/json.h"
#include "pmprof/metrics.h"
#include "pmprof/perfdata.h"
#include "pmprof/records.h"
#include "pmprof/report.h"
#include "pmprof/table.h"

#define HW 0
#define SW 1
#define RAW 4
#define MISSING (-1)

/* ---- functions: address ranges ---------------------------------------- */

static const char dso_prog[] = "prog", dso_lib[] = "lib";
static const char sym_f[] = "f", sym_g[] = "g", sym_h[] = "h";

static const struct range {
	uint64_t lo, hi;
	const char *dso, *sym;
} ranges[] = {
	{ 0x1000, 0x2000, dso_prog, sym_f },
	{ 0x2000, 0x3000, dso_prog, sym_g },
	{ 0x3000, 0x4000, dso_prog, NULL },	/* u1: prog, no symbol */
	{ 0x4000, 0x5000, dso_prog, NULL },	/* u2: prog, no symbol */
	{ 0x5000, 0x6000, dso_lib, NULL },	/* lib, no symbol */
	{ 0x6000, 0x7000, dso_prog, sym_h },
};
#define F 0x1010
#define G 0x2010
#define U1 0x3010
#define U2 0x4010
#define L 0x5010
#define H 0x6010

static const struct range *range_of(uint64_t ip)
{
	size_t i;

	for (i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (ip >= ranges[i].lo && ip < ranges[i].hi)
			return &ranges[i];
	return NULL;
}

/* ---- recordings --------------------------------------------------------- */

struct evspec {
	const char *name;
	uint32_t type;
	uint64_t config;
	int leader, nr;		/* group: leader index and size (on the leader) */
	uint64_t period;	/* 0: a member that does not sample */
	uint32_t hf;
	bool no_read;		/* a plain event, no PERF_SAMPLE_READ */
};

enum { OP_S, OP_THROTTLE, OP_UNTHROTTLE, OP_LOST };

struct op {
	int kind;
	int ev;			/* sampling event (or the record's event) */
	int k;			/* which of the event's ids (CPU instance) */
	uint32_t tid;
	uint64_t ip, period;
	int64_t v[4];		/* group values; MISSING: not in the read */
	uint64_t caller;	/* callchain[1], with OPT callchain */
};

struct fixture {
	const struct evspec *ev;
	int nev;
	int nids;		/* ids per event (CPU instances); 0: 1 */
	bool sample_period;	/* PERF_SAMPLE_PERIOD */
	bool callchain;
	int id_index;		/* 0: none, 1: every id tid -1, 2: tid 10 */
	const struct op *ops;
	int nops;
	bool no_group_desc;	/* write no GROUP_DESC (older or other tools) */
	int desc_nr;		/* GROUP_DESC's size of event 0's group, when
				   not the one its reads have */
	uint64_t read_format;	/* 0: ID | GROUP */
};

static uint64_t id_of(int ev, int k)
{
	return 1000 + 10 * (uint64_t)ev + (uint64_t)k;
}

static void *write_fixture(const struct fixture *fx, size_t *len)
{
	struct pm_kit *k = pm_kit__new("x86_64", false);
	uint64_t st = PM_SAMPLE_IP | PM_SAMPLE_TID | PM_SAMPLE_TIME |
		      PM_SAMPLE_ID | PM_SAMPLE_CPU;
	int nids = fx->nids ? fx->nids : 1;
	uint64_t t = 1000;
	int e, i, j;

	if (fx->sample_period)
		st |= PM_SAMPLE_PERIOD;
	if (fx->callchain)
		st |= PM_SAMPLE_CALLCHAIN;
	for (e = 0; e < fx->nev; e++) {
		const struct evspec *s = &fx->ev[e];
		uint64_t ids[4];
		struct pm_attr *a;

		pm_kit__event(k, s->name, s->type, s->config,
			      s->no_read ? st : st | PM_SAMPLE_READ, s->period);
		a = pm_kit__attr(k, e);
		if (!s->no_read)
			a->read_format = fx->read_format ? fx->read_format
					 : PM_FORMAT_ID | PM_FORMAT_GROUP;
		a->hf_sample_period = s->hf;
		for (j = 0; j < nids; j++)
			ids[j] = id_of(e, j);
		pm_kit__set_ids(k, e, ids, (uint32_t)nids);
	}
	for (e = 0; e < fx->nev && !fx->no_group_desc; e++)
		if (fx->ev[e].leader == e && fx->ev[e].nr > 1)
			pm_kit__group(k, e, e == 0 && fx->desc_nr ? fx->desc_nr
							      : fx->ev[e].nr, NULL);
	if (fx->id_index) {
		struct pm_id_index_entry ent[32];
		struct pm_error err = { 0 };
		int n = 0;

		pm_kit__comm(k, 10, 10, "prog");	/* events go out first */
		for (e = 0; e < fx->nev; e++)
			for (j = 0; j < nids; j++)
				ent[n++] = (struct pm_id_index_entry){
					.id = id_of(e, j), .idx = (uint64_t)j,
					.cpu = (uint64_t)j,
					.tid = fx->id_index == 1 ? (uint64_t)-1 : 10,
				};
		assert_int_equal(pm_writer__id_index(pm_kit__writer(k), ent,
						     (uint64_t)n, &err), 0);
	}
	for (i = 0; i < fx->nops; i++) {
		const struct op *o = &fx->ops[i];
		struct pm_error err = { 0 };

		t += 100;
		if (o->kind == OP_S) {
			const struct evspec *s = &fx->ev[o->ev];
			struct pm_read_value vals[4];
			struct pm_sample smp = { 0 };
			uint64_t cc[2] = { o->ip, o->caller };
			int lead = s->leader, nr = fx->ev[lead].nr ? fx->ev[lead].nr : 1;

			smp.misc = PM_MISC_USER;
			smp.ip = o->ip;
			smp.pid = smp.tid = o->tid;
			smp.time = t;
			smp.id = id_of(o->ev, o->k);
			smp.cpu = (uint32_t)o->k;
			smp.period = o->period;
			for (j = 0; j < nr && !s->no_read; j++) {
				if (o->v[j] == MISSING)
					continue;
				vals[smp.read.nr].value = (uint64_t)o->v[j];
				vals[smp.read.nr].id = id_of(lead + j, o->k);
				smp.read.nr++;
			}
			smp.read.values = vals;
			smp.callchain = cc;
			smp.callchain_nr = 2;
			pm_kit__sample_full(k, o->ev, &smp);
		} else if (o->kind == OP_LOST) {
			struct pm_rec_lost l = { .id = id_of(o->ev, o->k), .lost = 7 };

			assert_int_equal(pm_writer__lost(pm_kit__writer(k), 0, &l,
							 NULL, &err), 0);
		} else {
			struct pm_rec_throttle th = { .time = t,
						      .id = id_of(o->ev, o->k),
						      .stream_id = id_of(o->ev, o->k) };

			assert_int_equal(pm_writer__throttle(pm_kit__writer(k),
				o->kind == OP_THROTTLE ? PM_RECORD_THROTTLE
						       : PM_RECORD_UNTHROTTLE,
				0, &th, NULL, &err), 0);
		}
	}
	return pm_kit__finish(k, len);
}

/* The analysis of a fixture into m; the first sample's error, else 0. */
static int analyse_into(struct pm_metrics *m, const struct fixture *fx,
			uint64_t *attr_size, struct pm_error *serr)
{
	struct pm_error err = { 0 };
	struct pm_reader *r;
	struct pm_record rec;
	size_t len;
	void *buf = write_fixture(fx, &len);
	int ret, status = 0;

	assert_int_equal(pm_reader__open_mem(&r, buf, len, "fixture", &err), 0);
	if (attr_size)
		*attr_size = pm_reader__header(r)->attr_size;
	assert_int_equal(pm_metrics__add_reader_events(m, r, &err), 0);
	while ((ret = pm_reader__next(r, &rec, &err)) > 0) {
		struct pm_sample s;

		if (rec.type == PM_RECORD_SAMPLE) {
			const struct range *rg, *cr;
			struct pm_metrics_loc loc = { 0 };

			assert_int_equal(pm_reader__parse_sample(r, &rec, &s, &err), 0);
			rg = range_of(s.ip);
			if (rg) {
				loc.dso = rg->dso;
				loc.sym = rg->sym;
				loc.dso_name = rg->dso;
				loc.sym_name = rg->sym;
			}
			if (s.callchain_nr > 1 && (cr = range_of(s.callchain[1])))
				loc.caller = cr;
			if (!status)
				status = pm_metrics__sample(m, &s, &loc, serr);
		} else {
			assert_int_equal(pm_metrics__record(m, r, &rec, &err), 0);
		}
	}
	assert_int_equal(ret, 0);
	pm_reader__delete(r);
	free(buf);
	return status;
}

/* The analysis of a fixture: the accumulator (caller deletes) and the
 * reader's attr size through *attr_size. */
static struct pm_metrics *analyse(const struct fixture *fx,
				  const struct pm_metrics_opts *opts,
				  uint64_t *attr_size)
{
	struct pm_metrics *m = pm_metrics__new(opts);
	struct pm_error err = { 0 };

	if (analyse_into(m, fx, attr_size, &err))
		fail_msg("%s", err.msg);
	return m;
}

static int counter(const struct pm_metrics *m, const char *name)
{
	size_t c;

	for (c = 0; c < pm_metrics__nr_counters(m); c++)
		if (!strcmp(pm_metrics__counter_name(m, c), name))
			return (int)c;
	fail_msg("no counter %s", name);
	return -1;
}

/* samples, discarded, then the sums of the named counters. */
static void check_func(const struct pm_metrics *m, const char *dso,
		       const char *sym, uint64_t samples, uint64_t discarded,
		       const char *c1, uint64_t v1, const char *c2, uint64_t v2)
{
	const struct pm_metrics_func *f = pm_metrics__find(m, dso, sym);

	if (!f)
		fail_msg("no function %s %s", dso, sym ? sym : "[unknown]");
	assert_int_equal(f->samples, samples);
	assert_int_equal(f->discarded, discarded);
	if (c1)
		assert_int_equal(f->sums[counter(m, c1)], v1);
	if (c2)
		assert_int_equal(f->sums[counter(m, c2)], v2);
}

static void check_summary(struct pm_metrics *m, uint64_t windows,
			  uint64_t discarded, uint64_t opening)
{
	const struct pm_metrics_summary *s = pm_metrics__summary(m);

	assert_int_equal(s->windows, windows);
	assert_int_equal(s->discarded, discarded);
	assert_int_equal(s->kept, windows - discarded);
	assert_int_equal(s->opening, opening);
}

#define S(ev, k, tid, ip, per, ...) \
	{ OP_S, ev, k, tid, ip, per, { __VA_ARGS__ }, 0 }
#define SC(ip, caller, ...) \
	{ OP_S, 0, 0, 10, ip, 0, { __VA_ARGS__ }, caller }
#define REC(kind, ev, k) { kind, ev, k, 0, 0, 0, { 0 }, 0 }
#define N(a) (int)(sizeof(a) / sizeof((a)[0]))

static const struct evspec cyc_ins[] = {
	{ "cycles", HW, 0, 0, 2, 1000, 0, false },
	{ "instructions", HW, 1, 0, 0, 0, 0, false },
};

/* ---- fixed period ------------------------------------------------------- */

static const struct op fixed_ops[] = {
	S(0, 0, 10, F, 1000, 1000, 500),	/* opening */
	S(0, 0, 10, F, 1000, 2000, 1500),	/* f: 1000 1000, prev f */
	S(0, 0, 10, G, 1000, 3000, 1700),	/* g: 1000 200, prev f */
	S(0, 0, 10, G, 1000, 4000, 2700),	/* g: 1000 1000, prev g */
	S(0, 0, 10, F, 1000, 5000, 2700),	/* f: 1000 0, prev g */
};
static const struct fixture fixed_fx = {
	cyc_ins, 2, 0, true, false, 0, fixed_ops, N(fixed_ops),
};

static void test_fixed_period_none(void **state)
{
	struct pm_metrics_opts o = { 0 };
	struct pm_metrics *m = analyse(&fixed_fx, &o, NULL);
	double v;

	(void)state;
	/* No short windows: mode none, every window used. */
	assert_int_equal(pm_metrics__summary(m)->mode, PM_METRICS_NONE);
	assert_false(pm_metrics__summary(m)->short_windows);
	check_summary(m, 4, 0, 1);
	check_func(m, "prog", "f", 2, 0, "cycles", 2000, "instructions", 1000);
	check_func(m, "prog", "g", 2, 0, "cycles", 2000, "instructions", 1200);
	/* f's CPI: 2000 / 1000. */
	assert_int_equal(pm_metrics__metric(m, 0, "CPI", &v, NULL, NULL), 0);
	assert_true(fabs(v - 2.0) < 1e-12);
	pm_metrics__delete(m);
}

static void test_fixed_period_discard(void **state)
{
	struct pm_metrics_opts o = { .mode = PM_METRICS_DISCARD };
	struct pm_metrics *m = analyse(&fixed_fx, &o, NULL);

	(void)state;
	/* g's first and f's second window start in the other function. */
	check_summary(m, 4, 2, 1);
	check_func(m, "prog", "f", 2, 1, "cycles", 1000, "instructions", 1000);
	check_func(m, "prog", "g", 2, 1, "cycles", 1000, "instructions", 1000);
	pm_metrics__delete(m);
}

/* ---- hf recordings (144-byte attrs) ------------------------------------- */

static const struct evspec hf_ev[] = {
	{ "cycles", HW, 0, 0, 2, 10000, 100, false },	/* long 9900, short 100 */
	{ "instructions", HW, 1, 0, 0, 0, 0, false },
};

/* Threshold (9900 + 100) / 2 = 5000. */
static const struct op hf_ops[] = {
	S(0, 0, 10, F, 9900, 9900, 5000),	/* first: opening */
	S(0, 0, 10, F, 100, 10000, 5040),	/* f: 100 40 (prev f) */
	S(0, 0, 10, G, 9900, 19900, 9000),	/* long: opening */
	S(0, 0, 10, F, 100, 20000, 9030),	/* f: 100 30, prev g: discard */
	S(0, 0, 10, G, 9900, 29900, 13000),	/* long: opening */
	S(0, 0, 10, G, 100, 30000, 13050),	/* g: 100 50 (prev g) */
	S(0, 0, 10, U1, 9900, 39900, 17000),	/* long: opening */
	S(0, 0, 10, U2, 100, 40000, 17070),	/* prog?: 100 70, same DSO, both unknown */
	S(0, 0, 10, L, 9900, 49900, 21000),	/* long: opening */
	S(0, 0, 10, U1, 100, 50000, 21020),	/* prog?: 100 20, prev lib: discard */
	/* The period says short, the leader's delta says long (9000 > 5000). */
	S(0, 0, 10, F, 100, 59000, 25000),	/* opening */
	/* The delta says short (100), the period says long. */
	S(0, 0, 10, F, 9900, 59100, 25010),	/* opening */
	S(0, 0, 10, F, 100, 59200, 25020),	/* f: 100 10 (prev f) */
};
static const struct fixture hf_fx = {
	hf_ev, 2, 0, true, false, 0, hf_ops, N(hf_ops),
};

static void test_hf_discard(void **state)
{
	struct pm_metrics_opts o = { 0 };
	uint64_t attr_size;
	struct pm_metrics *m = analyse(&hf_fx, &o, &attr_size);

	(void)state;
	assert_int_equal(attr_size, 144 + 16);
	assert_true(pm_metrics__summary(m)->short_windows);
	assert_int_equal(pm_metrics__summary(m)->mode, PM_METRICS_DISCARD);
	/* Windows: rows 2 4 6 8 10 13; opening: 1 3 5 7 9 11 12. */
	check_summary(m, 6, 2, 7);
	check_func(m, "prog", "f", 3, 1, "cycles", 200, "instructions", 50);
	check_func(m, "prog", "g", 1, 0, "cycles", 100, "instructions", 50);
	check_func(m, "prog", NULL, 2, 1, "cycles", 100, "instructions", 70);
	assert_null(pm_metrics__find(m, "lib", NULL));	/* opening only */
	pm_metrics__delete(m);
}

static void test_hf_none(void **state)
{
	struct pm_metrics_opts o = { .mode = PM_METRICS_NONE };
	struct pm_metrics *m = analyse(&hf_fx, &o, NULL);

	(void)state;
	/* The same windows, none discarded: f gets row 4's 100 30 too. */
	check_summary(m, 6, 0, 7);
	check_func(m, "prog", "f", 3, 0, "cycles", 300, "instructions", 80);
	check_func(m, "prog", "g", 1, 0, "cycles", 100, "instructions", 50);
	check_func(m, "prog", NULL, 2, 0, "cycles", 200, "instructions", 90);
	pm_metrics__delete(m);
}

/* Without PERF_SAMPLE_PERIOD the leader's delta alone decides. */
static void test_hf_delta_only(void **state)
{
	static const struct op ops[] = {
		S(0, 0, 10, F, 0, 9900, 5000),		/* first: opening */
		S(0, 0, 10, F, 0, 10000, 5040),		/* f: 100 40 */
		S(0, 0, 10, G, 0, 19900, 9000),		/* 9900 > 5000: opening */
		S(0, 0, 10, G, 0, 20000, 9030),		/* g: 100 30 */
		S(0, 0, 10, G, 0, 25000, 9060),		/* 5000, not above: g 5000 30 */
		S(0, 0, 10, G, 0, 30001, 9090),		/* 5001: opening */
	};
	static const struct fixture fx = { hf_ev, 2, 0, false, false, 0, ops, N(ops) };
	struct pm_metrics *m = analyse(&fx, NULL, NULL);

	(void)state;
	check_summary(m, 3, 0, 3);
	check_func(m, "prog", "f", 1, 0, "cycles", 100, "instructions", 40);
	check_func(m, "prog", "g", 2, 0, "cycles", 5100, "instructions", 60);
	pm_metrics__delete(m);
}

/* pmprof's burst convention: hf-period in the name, a 128-byte attr. */
static void test_burst_name(void **state)
{
	static const struct evspec ev[] = {
		{ "cycles/period=10000,hf-period=100,hf-burst=4/", HW, 0, 0, 2, 10000, 0, false },
		{ "instructions", HW, 1, 0, 0, 0, 0, false },
	};
	static const struct op ops[] = {
		S(0, 0, 10, F, 9900, 9900, 5000),	/* opening */
		S(0, 0, 10, F, 100, 10000, 5040),	/* f: 100 40 */
		S(0, 0, 10, F, 100, 10100, 5060),	/* f: 100 20 (burst) */
		S(0, 0, 10, G, 9900, 20000, 9000),	/* long: opening */
		S(0, 0, 10, F, 100, 20100, 9010),	/* prev g: discarded */
	};
	static const struct fixture fx = { ev, 2, 0, true, false, 0, ops, N(ops) };
	uint64_t attr_size;
	struct pm_metrics *m = analyse(&fx, NULL, &attr_size);
	struct pm_attr a = { 0 };

	(void)state;
	assert_int_equal(attr_size, 128 + 16);
	assert_int_equal(pm_metrics__short_period(&a, ev[0].name), 100);
	assert_int_equal(pm_metrics__short_period(&a, "cycles:u"), 0);
	assert_true(pm_metrics__summary(m)->short_windows);
	check_summary(m, 3, 1, 2);
	check_func(m, "prog", "f", 3, 1, "cycles/period=10000,hf-period=100,hf-burst=4/",
		   200, "instructions", 60);
	pm_metrics__delete(m);
}

/* ---- streams: threads, CPUs, per-CPU counters --------------------------- */

/*
 * Two ids per event (CPU 0 and 1). tid 10 runs on CPU 0, tid 11 on CPU 1,
 * then tid 10 moves to CPU 1 and tid 12 (an inherited child) shares CPU
 * 0's id. Values are per counter instance.
 */
static const struct op threads_ops[] = {
	S(0, 0, 10, F, 1000, 100, 10),		/* (0,10) first: opening */
	S(0, 1, 11, G, 1000, 500, 50),		/* (1,11) first: opening */
	S(0, 0, 10, F, 1000, 300, 40),		/* (0,10): f 200 30 */
	S(0, 1, 11, G, 1000, 900, 60),		/* (1,11): g 400 10 */
	S(0, 0, 12, G, 1000, 1000, 100),	/* (0,12) first: opening */
	S(0, 1, 10, F, 1000, 2000, 200),	/* (1,10) first: opening */
	S(0, 0, 10, G, 1000, 700, 45),		/* (0,10): g 400 5 */
	S(0, 0, 12, G, 1000, 1300, 130),	/* (0,12): g 300 30 */
	S(0, 1, 10, F, 1000, 2500, 230),	/* (1,10): f 500 30 */
};

static void test_two_threads_two_cpus(void **state)
{
	/* kit events inherit and sample TID: per task, no ID_INDEX. */
	static const struct fixture fx = {
		cyc_ins, 2, 2, true, false, 0, threads_ops, N(threads_ops),
	};
	struct pm_metrics *m = analyse(&fx, NULL, NULL);

	(void)state;
	check_summary(m, 5, 0, 4);
	check_func(m, "prog", "f", 2, 0, "cycles", 700, "instructions", 60);
	check_func(m, "prog", "g", 3, 0, "cycles", 1100, "instructions", 45);
	pm_metrics__delete(m);
}

static void test_id_index_per_task(void **state)
{
	/* ID_INDEX with a tid says per task too: the same answer. */
	static const struct fixture fx = {
		cyc_ins, 2, 2, true, false, 2, threads_ops, N(threads_ops),
	};
	struct pm_metrics *m = analyse(&fx, NULL, NULL);

	(void)state;
	check_summary(m, 5, 0, 4);
	check_func(m, "prog", "f", 2, 0, "cycles", 700, "instructions", 60);
	pm_metrics__delete(m);
}

static void test_per_cpu(void **state)
{
	/*
	 * ID_INDEX tid -1: one stream per id, whatever the tid. A per-CPU
	 * counter counts every task, so values grow along the CPU.
	 */
	static const struct op ops[] = {
		S(0, 0, 10, F, 1000, 100, 10),		/* id0 first: opening */
		S(0, 1, 11, G, 1000, 500, 50),		/* id1 first: opening */
		S(0, 0, 11, G, 1000, 300, 40),		/* id0: g 200 30 */
		S(0, 0, 10, F, 1000, 600, 45),		/* id0: f 300 5 */
		S(0, 1, 10, F, 1000, 900, 60),		/* id1: f 400 10 */
		S(0, 1, 12, F, 1000, 1000, 100),	/* id1: f 100 40 */
	};
	static const struct fixture fx = { cyc_ins, 2, 2, true, false, 1, ops, N(ops) };
	struct pm_metrics *m = analyse(&fx, NULL, NULL);

	(void)state;
	check_summary(m, 4, 0, 2);
	check_func(m, "prog", "f", 3, 0, "cycles", 800, "instructions", 55);
	check_func(m, "prog", "g", 1, 0, "cycles", 200, "instructions", 30);
	pm_metrics__delete(m);

	/* The same samples without ID_INDEX: inherit + TID, so per task:
	 * streams (0,10) (1,11) (0,11) (1,10) (1,12); windows: row 4 only
	 * (f 500 35). */
	{
		static const struct fixture fx2 = { cyc_ins, 2, 2, true, false, 0,
						    ops, N(ops) };

		m = analyse(&fx2, NULL, NULL);
		check_summary(m, 1, 0, 5);
		check_func(m, "prog", "f", 1, 0, "cycles", 500, "instructions", 35);
		pm_metrics__delete(m);
	}
}

/* ---- stops -------------------------------------------------------------- */

static void test_throttle_unthrottle(void **state)
{
	static const struct op ops[] = {
		S(0, 0, 10, F, 1000, 1000, 100),	/* opening */
		S(0, 0, 10, F, 1000, 2000, 200),	/* f 1000 100 */
		REC(OP_THROTTLE, 0, 0),
		S(0, 0, 10, F, 1000, 3000, 300),	/* f 1000 100 (only UNTHROTTLE restarts) */
		REC(OP_UNTHROTTLE, 0, 0),
		S(0, 0, 10, F, 1000, 9000, 900),	/* first after: opening */
		S(0, 0, 10, F, 1000, 10000, 1000),	/* f 1000 100 */
		/* An UNTHROTTLE naming the member's id restarts the group. */
		REC(OP_UNTHROTTLE, 1, 0),
		S(0, 0, 10, F, 1000, 15000, 1500),	/* opening */
		S(0, 0, 10, F, 1000, 16000, 1600),	/* f 1000 100 */
	};
	static const struct fixture fx = { cyc_ins, 2, 0, true, false, 0, ops, N(ops) };
	struct pm_metrics *m = analyse(&fx, NULL, NULL);

	(void)state;
	check_summary(m, 4, 0, 3);
	assert_int_equal(pm_metrics__summary(m)->throttles, 1);
	assert_int_equal(pm_metrics__summary(m)->unthrottles, 2);
	check_func(m, "prog", "f", 4, 0, "cycles", 4000, "instructions", 400);
	pm_metrics__delete(m);
}

static void test_lost(void **state)
{
	static const struct op ops[] = {
		S(0, 0, 10, F, 1000, 1000, 100),	/* opening */
		S(0, 1, 11, G, 1000, 1000, 100),	/* other CPU: opening */
		S(0, 0, 10, F, 1000, 2000, 200),	/* f 1000 100 */
		REC(OP_LOST, 0, 0),			/* CPU 0's id only */
		S(0, 0, 10, F, 1000, 5000, 500),	/* opening */
		S(0, 1, 11, G, 1000, 2000, 300),	/* g 1000 200: not its id */
		S(0, 0, 10, F, 1000, 6000, 600),	/* f 1000 100 */
	};
	static const struct fixture fx = { cyc_ins, 2, 2, true, false, 0, ops, N(ops) };
	struct pm_metrics *m = analyse(&fx, NULL, NULL);

	(void)state;
	check_summary(m, 3, 0, 3);
	assert_int_equal(pm_metrics__summary(m)->lost_records, 1);
	assert_int_equal(pm_metrics__summary(m)->lost_samples, 7);
	check_func(m, "prog", "f", 2, 0, "cycles", 2000, "instructions", 200);
	check_func(m, "prog", "g", 1, 0, "cycles", 1000, "instructions", 200);
	pm_metrics__delete(m);
}

static void test_short_after_stop(void **state)
{
	static const struct op ops[] = {
		S(0, 0, 10, F, 9900, 9900, 1000),	/* opening */
		S(0, 0, 10, F, 100, 10000, 1010),	/* f 100 10 */
		S(0, 0, 10, F, 9900, 19900, 2000),	/* long: opening */
		REC(OP_UNTHROTTLE, 0, 0),
		S(0, 0, 10, F, 100, 20000, 2020),	/* short, but first after the stop: opening */
		S(0, 0, 10, F, 9900, 29900, 3000),	/* long: opening */
		S(0, 0, 10, F, 100, 30000, 3030),	/* f 100 30 */
	};
	static const struct fixture fx = { hf_ev, 2, 0, true, false, 0, ops, N(ops) };
	struct pm_metrics *m = analyse(&fx, NULL, NULL);

	(void)state;
	check_summary(m, 2, 0, 4);
	check_func(m, "prog", "f", 2, 0, "cycles", 200, "instructions", 40);
	pm_metrics__delete(m);
}

/* ---- groups and members ------------------------------------------------- */

/* Groups A {cycles, instructions}, B {cycles, branch-misses} and a
 * plain page-faults. */
static const struct evspec two_groups[] = {
	{ "cycles", HW, 0, 0, 2, 1000, 0, false },
	{ "instructions", HW, 1, 0, 0, 0, 0, false },
	{ "cycles", HW, 0, 2, 2, 2000, 0, false },
	{ "branch-misses", HW, 5, 2, 0, 0, 0, false },
	{ "page-faults", SW, 2, 4, 1, 1, 0, true },
};

static void test_two_groups_and_plain_event(void **state)
{
	static const struct op ops[] = {
		S(0, 0, 10, F, 0, 1000, 500),		/* A: opening */
		S(2, 0, 10, G, 0, 5000, 7),		/* B: opening */
		S(4, 0, 10, G, 0, 0),			/* plain: ignored */
		S(0, 0, 10, F, 0, 2000, 900),		/* A: f 1000 400 */
		S(2, 0, 10, F, 0, 7000, 10),		/* B: f 2000 3 */
		S(4, 0, 10, F, 0, 0),			/* plain: ignored */
		S(2, 0, 10, G, 0, 9000, 20),		/* B: g 2000 10 */
		S(0, 0, 10, G, 0, 3000, 1000),		/* A: g 1000 100 */
	};
	static const struct fixture fx = { two_groups, 5, 0, false, false, 0, ops, N(ops) };
	struct pm_metrics *m = analyse(&fx, NULL, NULL);
	const struct pm_metrics_func *f;
	double v;
	size_t fi;

	(void)state;
	/* Counters: every member of a group with READ, names kept apart. */
	assert_int_equal(pm_metrics__nr_counters(m), 4);
	assert_string_equal(pm_metrics__counter_name(m, 2), "cycles#2");
	check_summary(m, 4, 0, 2);
	assert_int_equal(pm_metrics__summary(m)->ignored, 2);
	check_func(m, "prog", "f", 2, 0, "cycles", 1000, "instructions", 400);
	check_func(m, "prog", "f", 2, 0, "cycles#2", 2000, "branch-misses", 3);
	check_func(m, "prog", "g", 2, 0, "cycles", 1000, "branch-misses", 10);
	/* CPI from group A; BMKI needs both in one group: absent. */
	f = pm_metrics__find(m, "prog", "f");
	for (fi = 0; pm_metrics__func(m, fi) != f; fi++)
		;
	assert_int_equal(pm_metrics__metric(m, fi, "CPI", &v, NULL, NULL), 0);
	assert_true(fabs(v - 2.5) < 1e-12);
	assert_int_equal(pm_metrics__metric(m, fi, "BMKI", &v, NULL, NULL), -ENOENT);
	/* %BM: f's 3 of 13. */
	assert_int_equal(pm_metrics__metric(m, fi, "%BM", &v, NULL, NULL), 0);
	assert_true(fabs(v - 300.0 / 13) < 1e-9);
	/* The second cycles is "other": a share, no /KI (no instructions in B). */
	assert_int_equal(pm_metrics__metric(m, fi, "%cycles#2", &v, NULL, NULL), 0);
	assert_true(fabs(v - 50.0) < 1e-9);
	assert_int_equal(pm_metrics__metric(m, fi, "cycles#2/KI", &v, NULL, NULL), -ENOENT);
	pm_metrics__delete(m);
}

/* A group of three sampled by cycles. */
static const struct evspec cyc_ins_faults[] = {
	{ "cycles", HW, 0, 0, 3, 1000, 0, false },
	{ "instructions", HW, 1, 0, 0, 0, 0, false },
	{ "faults", SW, 2, 0, 0, 0, 0, false },
};

static void test_missing_and_decreasing_members(void **state)
{
	static const struct op ops[] = {
		S(0, 0, 10, F, 0, 100, 50, 5),		/* opening */
		S(0, 0, 10, F, 0, 200, MISSING, 9),	/* f 100 0 4 */
		S(0, 0, 10, F, 0, 300, 150, 9),		/* f 100 0 0: prev missing, zero */
		S(0, 0, 10, F, 0, 400, 140, 12),	/* f 100 0 3: went down */
		S(0, 0, 10, F, 0, 500, 160, 13),	/* f 100 20 1 */
	};
	static const struct fixture fx = { cyc_ins_faults, 3, 0, false, false, 0, ops, N(ops) };
	struct pm_metrics *m = analyse(&fx, NULL, NULL);

	(void)state;
	check_summary(m, 4, 0, 1);
	check_func(m, "prog", "f", 4, 0, "cycles", 400, "instructions", 20);
	check_func(m, "prog", "f", 4, 0, "faults", 8, NULL, 0);
	pm_metrics__delete(m);
}

static void test_match_callchain(void **state)
{
	static const struct op ops[] = {
		SC(F, G, 1000, 100),	/* opening */
		SC(F, G, 2000, 200),	/* same f, same caller g: kept 1000 100 */
		SC(F, H, 3000, 300),	/* f, caller h: discarded with callchain */
		SC(F, H, 4000, 400),	/* kept 1000 100 */
	};
	static const struct fixture fx = { cyc_ins, 2, 0, false, true, 0, ops, N(ops) };
	struct pm_metrics_opts o = { .mode = PM_METRICS_DISCARD };
	struct pm_metrics *m = analyse(&fx, &o, NULL);

	(void)state;
	check_summary(m, 3, 0, 1);	/* sym match: all kept */
	pm_metrics__delete(m);
	o.match = PM_METRICS_MATCH_CALLCHAIN;
	m = analyse(&fx, &o, NULL);
	check_summary(m, 3, 1, 1);
	check_func(m, "prog", "f", 3, 1, "cycles", 2000, "instructions", 200);
	pm_metrics__delete(m);
}

/* ---- roles, metrics, intervals ------------------------------------------ */

static void test_roles(void **state)
{
	struct pm_attr a = { 0 };

	(void)state;
	assert_int_equal(pm_metrics__role(NULL, "cycles:u", NULL), PM_ROLE_CYCLES);
	assert_int_equal(pm_metrics__role(NULL, "cpu-cycles", NULL), PM_ROLE_CYCLES);
	assert_int_equal(pm_metrics__role(NULL, "armv8_pmuv3_0/inst_retired/", NULL),
			 PM_ROLE_INSTR);
	assert_int_equal(pm_metrics__role(NULL, "armv8_pmuv3_0/br_mis_pred/u", NULL),
			 PM_ROLE_BRANCH_MISS);
	assert_int_equal(pm_metrics__role(NULL, "L1-dcache-load-misses", NULL),
			 PM_ROLE_L1D_MISS);
	assert_int_equal(pm_metrics__role(NULL, "INST_SPEC", NULL), PM_ROLE_INSTR_SPEC);
	assert_int_equal(pm_metrics__role(NULL, "cycles/period=999700,hf-period=300/", NULL),
			 PM_ROLE_CYCLES);
	assert_int_equal(pm_metrics__role(NULL, "page-faults", NULL), PM_ROLE_NONE);
	a.type = HW;
	a.config = 3;
	assert_int_equal(pm_metrics__role(&a, NULL, NULL), PM_ROLE_L1D_MISS);
	a.config = 2;
	assert_int_equal(pm_metrics__role(&a, "", NULL), PM_ROLE_L1D_ACCESS);
	a.config = 5;
	assert_int_equal(pm_metrics__role(&a, "r5", NULL), PM_ROLE_BRANCH_MISS);
	a.type = 3;		/* HW_CACHE: L1D, read, miss */
	a.config = 0x10000;
	assert_int_equal(pm_metrics__role(&a, NULL, NULL), PM_ROLE_L1D_MISS);
	a.type = RAW;
	a.config = 0x1b;
	assert_int_equal(pm_metrics__role(&a, "r1b", "aarch64"), PM_ROLE_INSTR_SPEC);
	assert_int_equal(pm_metrics__role(&a, "r1b", "x86_64"), PM_ROLE_NONE);
	a.config = 0x11;
	assert_int_equal(pm_metrics__role(&a, "r11", NULL), PM_ROLE_CYCLES);
	a.type = 8;		/* armv8_pmuv3's dynamic type */
	a.config = 0x04;
	assert_int_equal(pm_metrics__role(&a, NULL, "arm64"), PM_ROLE_L1D_ACCESS);
	a.config = 0x03;
	assert_int_equal(pm_metrics__role(&a, NULL, "arm64"), PM_ROLE_L1D_MISS);
	a.config = 0x10;
	assert_int_equal(pm_metrics__role(&a, NULL, "arm64"), PM_ROLE_BRANCH_MISS);
	a.config = 0x08;
	assert_int_equal(pm_metrics__role(&a, NULL, "arm64"), PM_ROLE_INSTR);
	a.type = RAW;
	a.config = 0xc0;
	assert_int_equal(pm_metrics__role(&a, NULL, "x86_64"), PM_ROLE_INSTR);
}

/* Arm's raw codes, named as `perf record -e '{r11,r8,r10,r4}:S'` names them. */
static const struct evspec arm_ev[] = {
	{ "r11", RAW, 0x11, 0, 4, 1000, 0, false },
	{ "r8", RAW, 0x08, 0, 0, 0, 0, false },
	{ "r10", RAW, 0x10, 0, 0, 0, 0, false },
	{ "r4", RAW, 0x04, 0, 0, 0, 0, false },
};

/*
 * f's windows (cycles, instructions, branch misses, L1D accesses):
 *   (200 100 1 10) (300 100 3 20) (500 200 0 30)
 * g's: (100 400 0 40) (300 200 2 0)
 */
static const struct op arm_ops[] = {
	S(0, 0, 10, F, 0, 0, 0, 0, 0),		/* opening */
	S(0, 0, 10, F, 0, 200, 100, 1, 10),
	S(0, 0, 10, F, 0, 500, 200, 4, 30),
	S(0, 0, 10, F, 0, 1000, 400, 4, 60),
	S(0, 0, 10, G, 0, 1100, 800, 4, 100),
	S(0, 0, 10, G, 0, 1400, 1000, 6, 100),
};

static void test_named_metrics_and_ci(void **state)
{
	static const struct fixture fx = { arm_ev, 4, 0, false, false, 0,
					   arm_ops, N(arm_ops) };
	static const double xs[3] = { 100, 100, 200 };	/* f's instructions */
	static const double ys[3] = { 200, 300, 500 };	/* f's cycles */
	static const double cy[5] = { 200, 300, 500, 100, 300 };
	static const double fcy[5] = { 200, 300, 500, 0, 0 };
	struct pm_metrics_opts o = { .ci = true, .arch = "aarch64" };
	struct pm_metrics *m = analyse(&fx, &o, NULL);
	const struct pm_metrics_func *f = pm_metrics__find(m, "prog", "f");
	double v, lo, hi, R, ss = 0, xbar, half;
	size_t fi, i;

	(void)state;
	for (fi = 0; pm_metrics__func(m, fi) != f; fi++)
		;
	/* f: cycles 1000, instructions 400, branch misses 4, L1D 60. */
	assert_int_equal(pm_metrics__metric(m, fi, "CPI", &v, &lo, &hi), 0);
	assert_true(fabs(v - 2.5) < 1e-12);
	/* Delta method by hand: R = 1000 / 400; residuals -50 50 0; n = 3,
	 * xbar = 400 / 3; SE = sqrt(ss / (n (n - 1))) / xbar. */
	R = 1000.0 / 400;
	for (i = 0; i < 3; i++)
		ss += (ys[i] - R * xs[i]) * (ys[i] - R * xs[i]);
	assert_true(fabs(ss - 5000) < 1e-9);
	xbar = 400.0 / 3;
	half = 1.959963984540054 * sqrt(ss / (3 * 2)) / xbar;
	assert_true(fabs(half - 0.42434) < 1e-4);
	assert_true(fabs(lo - (2.5 - half)) < 1e-9);
	assert_true(fabs(hi - (2.5 + half)) < 1e-9);
	/* IPC 0.4; BMKI 1000 * 4 / 400 = 10. */
	assert_int_equal(pm_metrics__metric(m, fi, "IPC", &v, NULL, NULL), 0);
	assert_true(fabs(v - 0.4) < 1e-12);
	assert_int_equal(pm_metrics__metric(m, fi, "BMKI", &v, NULL, NULL), 0);
	assert_true(fabs(v - 10) < 1e-12);
	/* No L1D refill counter here. */
	assert_int_equal(pm_metrics__metric(m, fi, "CMKI", &v, NULL, NULL), -ENOENT);
	/* %CY: f's 1000 of 1400 cycles. Its interval: over all 5 windows,
	 * y_i = cycles when f's else 0, x_i = cycles. */
	assert_int_equal(pm_metrics__metric(m, fi, "%CY", &v, &lo, &hi), 0);
	assert_true(fabs(v - 100.0 * 1000 / 1400) < 1e-9);
	R = 1000.0 / 1400;
	ss = 0;
	for (i = 0; i < 5; i++)
		ss += (fcy[i] - R * cy[i]) * (fcy[i] - R * cy[i]);
	xbar = 1400.0 / 5;
	half = 100 * 1.959963984540054 * sqrt(ss / (5 * 4)) / xbar;
	assert_true(fabs(lo - (v - half)) < 1e-9);
	assert_true(fabs(hi - (v + half)) < 1e-9);
	pm_metrics__delete(m);
}

/* The whole named set: l1d-miss and speculated instructions present. */
static void test_all_named_metrics(void **state)
{
	static const struct evspec ev[] = {
		{ "r11", RAW, 0x11, 0, 4, 1000, 0, false },
		{ "r8", RAW, 0x08, 0, 0, 0, 0, false },
		{ "r3", RAW, 0x03, 0, 0, 0, 0, false },
		{ "r1b", RAW, 0x1b, 0, 0, 0, 0, false },
		{ "r4", RAW, 0x04, 4, 2, 1000, 0, false },
		{ "r8", RAW, 0x08, 4, 0, 0, 0, false },
	};
	static const struct op ops[] = {
		S(0, 0, 10, F, 0, 0, 0, 0, 0),
		S(0, 0, 10, F, 0, 3000, 1000, 25, 1250),	/* f 3000 1000 25 1250 */
		S(4, 0, 10, F, 0, 0, 0),
		S(4, 0, 10, F, 0, 100, 2000),			/* f l1da 100 (group 2) */
	};
	static const struct fixture fx = { ev, 6, 0, false, false, 0, ops, N(ops) };
	struct pm_metrics_opts o = { .arch = "aarch64" };
	struct pm_metrics *m = analyse(&fx, &o, NULL);
	double v;

	(void)state;
	/* CPI 3; CMKI 25; %RI 80; %CM needs r3 and r4 in one group: absent.
	 * The second r8 is "other": a share, and no /KI (it is its group's
	 * only instructions counter). */
	assert_int_equal(pm_metrics__metric(m, 0, "CPI", &v, NULL, NULL), 0);
	assert_true(fabs(v - 3) < 1e-12);
	assert_int_equal(pm_metrics__metric(m, 0, "CMKI", &v, NULL, NULL), 0);
	assert_true(fabs(v - 25) < 1e-12);
	assert_int_equal(pm_metrics__metric(m, 0, "%RI", &v, NULL, NULL), 0);
	assert_true(fabs(v - 80) < 1e-12);
	assert_int_equal(pm_metrics__metric(m, 0, "%CM", &v, NULL, NULL), -ENOENT);
	assert_int_equal(pm_metrics__metric(m, 0, "%IS", &v, NULL, NULL), 0);
	assert_true(fabs(v - 100) < 1e-12);
	assert_int_equal(pm_metrics__metric(m, 0, "r8#2/KI", &v, NULL, NULL), -ENOENT);
	assert_int_equal(pm_metrics__metric(m, 0, "%r8#2", &v, NULL, NULL), 0);
	assert_true(fabs(v - 100) < 1e-12);
	assert_int_equal(pm_metrics__metric(m, 0, "%L1DA", &v, NULL, NULL), 0);
	pm_metrics__delete(m);
}

/* ---- groups without GROUP_DESC, reads that do not fit -------------------- */

/* A table rendered as text, for comparing two analyses. */
static char *table_text(struct pm_metrics *m)
{
	struct pm_report *rep;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_int_equal(pm_metrics__finish(m, &rep), 0);
	pm_report__render(rep, out, pm_renderer__find("text"), NULL);
	fclose(out);
	pm_report__delete(rep);
	return text;
}

/*
 * Two groups and a plain event, recorded without GROUP_DESC: the groups
 * come from the leaders' read ids. The samples are drawn from a fixed
 * generator; the expected sums are worked out here from the rules (mode
 * none: each sample but a stream's first closes a window of its group,
 * charged to its function) without the accumulator, and the analysis
 * with GROUP_DESC must give the very same table.
 */
static void test_groups_from_reads(void **state)
{
	static const uint64_t ips[3] = { F, G, H };
	static const char *const syms[3] = { "f", "g", "h" };
	static const char *const counters[4] = {
		"cycles", "instructions", "cycles#2", "branch-misses",
	};
	enum { NOPS = 300 };
	struct op *ops = calloc(NOPS, sizeof(*ops));
	uint64_t want[3][4] = { { 0 } }, samples[3] = { 0 };
	uint64_t val[4] = { 0 }, last[4] = { 0 }, rng = 12345;
	bool started[2] = { false, false };
	struct fixture fx = { two_groups, 5, 0, false, false, 0, ops, NOPS, true, 0, 0 };
	struct pm_metrics *m, *with_desc;
	char *a, *b;
	int i, fn, c;

	(void)state;
	for (i = 0; i < NOPS; i++) {
		int grp, lead;

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		grp = ((rng >> 60) % 3) == 0;	/* B about a third */
		lead = grp ? 2 : 0;
		if ((rng >> 50) % 7 == 0) {	/* the plain event */
			ops[i] = (struct op){ OP_S, 4, 0, 10, G, 0, { 0 }, 0 };
			continue;
		}
		fn = (int)((rng >> 33) % 3);
		val[lead] += 1000 + (rng >> 20) % 50;
		val[lead + 1] += (rng >> 10) % 900;
		ops[i] = (struct op){ OP_S, lead, 0, 10, ips[fn], 0,
				      { (int64_t)val[lead], (int64_t)val[lead + 1] }, 0 };
		if (started[grp]) {
			samples[fn]++;
			want[fn][lead] += val[lead] - last[lead];
			want[fn][lead + 1] += val[lead + 1] - last[lead + 1];
		}
		last[lead] = val[lead];
		last[lead + 1] = val[lead + 1];
		started[grp] = true;
	}
	m = analyse(&fx, NULL, NULL);
	assert_int_equal(pm_metrics__nr_counters(m), 4);
	for (c = 0; c < 4; c++)
		assert_string_equal(pm_metrics__counter_name(m, (size_t)c), counters[c]);
	for (fn = 0; fn < 3; fn++) {
		const struct pm_metrics_func *f = pm_metrics__find(m, "prog", syms[fn]);

		assert_non_null(f);
		assert_int_equal(f->samples, samples[fn]);
		for (c = 0; c < 4; c++)
			assert_int_equal(f->sums[counter(m, counters[c])], want[fn][c]);
	}
	fx.no_group_desc = false;
	with_desc = analyse(&fx, NULL, NULL);
	a = table_text(m);
	b = table_text(with_desc);
	assert_string_equal(a, b);
	free(a);
	free(b);
	pm_metrics__delete(with_desc);
	pm_metrics__delete(m);
	free(ops);
}

/* GROUP_DESC says {cycles, instructions}; the reads also carry faults. */
static void test_group_desc_disagrees(void **state)
{
	static const struct op ops[] = {
		S(0, 0, 10, F, 0, 100, 50, 5),
		S(0, 0, 10, F, 0, 200, 90, 6),
	};
	struct fixture fx = { cyc_ins_faults, 3, 0, false, false, 0, ops, N(ops), false, 2, 0 };
	struct pm_metrics *m = pm_metrics__new(NULL);
	struct pm_error err = { 0 };

	(void)state;
	assert_true(analyse_into(m, &fx, NULL, &err) < 0);
	if (!strstr(err.msg, "'faults' (id 1020), which GROUP_DESC does not put in its group"))
		fail_msg("%s", err.msg);
	pm_metrics__delete(m);

	/* Without ids the values go by position: three for a group of two. */
	fx.read_format = PM_FORMAT_GROUP;
	m = pm_metrics__new(NULL);
	memset(&err, 0, sizeof(err));
	assert_true(analyse_into(m, &fx, NULL, &err) < 0);
	assert_non_null(strstr(err.msg, "holds 3 values where GROUP_DESC gives it 2 events"));
	pm_metrics__delete(m);

	/* And with GROUP_DESC of all three, the same reads are fine. */
	fx.read_format = 0;
	fx.desc_nr = 0;
	m = analyse(&fx, NULL, NULL);
	check_func(m, "prog", "f", 1, 0, "cycles", 100, "faults", 1);
	pm_metrics__delete(m);
}

/* Events made here rather than read: ids 1000 + 10 * idx. */
struct hand {
	struct pm_event ev[3];
	uint64_t ids[3];
};

static void hand_events(struct hand *h, int nr_members, uint64_t read_format)
{
	static const char *const names[3] = { "cycles", "instructions", "faults" };
	int i;

	memset(h, 0, sizeof(*h));
	for (i = 0; i < 3; i++) {
		struct pm_event *e = &h->ev[i];

		h->ids[i] = id_of(i, 0);
		e->idx = i;
		e->name = (char *)names[i];
		e->attr.type = i < 2 ? HW : SW;
		e->attr.config = i < 2 ? (uint64_t)i : 2;
		e->attr.sample_type = PM_SAMPLE_IP | PM_SAMPLE_TID | PM_SAMPLE_ID |
				      PM_SAMPLE_READ;
		e->attr.read_format = read_format;
		e->attr.sample_period = i == 0 ? 1000 : 0;
		e->ids = &h->ids[i];
		e->nr_ids = 1;
		e->leader_idx = i < nr_members ? 0 : i;
		e->nr_members = i == 0 ? nr_members : i < nr_members ? nr_members : 1;
	}
}

/* One sample of event idx reading the values of `ids` (counts 1, 2, ...). */
static int hand_sample(struct pm_metrics *m, const struct hand *h, int idx,
		       const uint64_t *ids, size_t n, struct pm_error *err)
{
	struct pm_read_value rv[4];
	struct pm_sample s = { 0 };
	size_t j;

	for (j = 0; j < n; j++)
		rv[j] = (struct pm_read_value){ .value = j + 1, .id = ids[j] };
	s.event = &h->ev[idx];
	s.sample_type = h->ev[idx].attr.sample_type;
	s.id = h->ids[idx];
	s.pid = s.tid = 10;
	s.ip = F;
	s.read.nr = n;
	s.read.values = rv;
	return pm_metrics__sample(m, &s, NULL, err);
}

static struct pm_metrics *hand_metrics(struct hand *h, int nr_members,
				       uint64_t read_format)
{
	struct pm_metrics *m = pm_metrics__new(NULL);
	struct pm_error err = { 0 };
	int i;

	hand_events(h, nr_members, read_format);
	for (i = 0; i < 3; i++)
		assert_int_equal(pm_metrics__add_event(m, &h->ev[i], &err), 0);
	return m;
}

/* Reads that cannot be a group's are errors, each named. */
static void test_reads_that_do_not_fit(void **state)
{
	static const struct {
		int nr_members;		/* 1: no group described */
		uint64_t rf;
		int first_ev;		/* a sample of it first, reading its own */
		uint64_t first[3];	/* ids (0 ends): that one's read */
		int ev;			/* then a sample of ev reading ids */
		uint64_t ids[3];
		const char *msg;
	} cases[] = {
		{ 2, PM_FORMAT_ID | PM_FORMAT_GROUP, -1, { 0 }, 0, { 1000, 999 },
		  "names id 999, which no event of the recording has" },
		{ 1, PM_FORMAT_ID | PM_FORMAT_GROUP, -1, { 0 }, 0, { 1000, 999 },
		  "names id 999, which no event of the recording has" },
		{ 1, PM_FORMAT_GROUP, -1, { 0 }, 0, { 1000, 1010 },
		  "no GROUP_DESC and the read's 2 values carry no ids" },
		{ 1, PM_FORMAT_ID | PM_FORMAT_GROUP, -1, { 0 }, 0, { 1010, 1020 },
		  "its own value is not in it" },
		{ 1, PM_FORMAT_ID | PM_FORMAT_GROUP, -1, { 0 }, 0, { 1000, 1000 },
		  "names 'cycles' (id 1000), which it reads twice" },
		{ 1, PM_FORMAT_ID | PM_FORMAT_GROUP, 0, { 1000, 1010 }, 2, { 1020, 1010 },
		  "names 'instructions' (id 1010), which is in another group" },
		{ 1, PM_FORMAT_ID | PM_FORMAT_GROUP, 0, { 1000, 1010 }, 0, { 1000, 1020 },
		  "names 'faults' (id 1020), which is in another group" },
		{ 2, PM_FORMAT_ID | PM_FORMAT_GROUP, -1, { 0 }, 0, { 1000, 1010, 1010 },
		  "holds 3 values where GROUP_DESC gives it 2 events" },
	};
	size_t i, n;

	(void)state;
	for (i = 0; i < N(cases); i++) {
		struct hand h;
		struct pm_metrics *m = hand_metrics(&h, cases[i].nr_members,
						    cases[i].rf);
		struct pm_error err = { 0 };

		if (cases[i].first_ev >= 0) {
			for (n = 0; n < 3 && cases[i].first[n]; n++)
				;
			assert_int_equal(hand_sample(m, &h, cases[i].first_ev,
						     cases[i].first, n, &err), 0);
		}
		for (n = 0; n < 3 && cases[i].ids[n]; n++)
			;
		assert_true(hand_sample(m, &h, cases[i].ev, cases[i].ids, n, &err) < 0);
		if (!strstr(err.msg, cases[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].msg);
		assert_non_null(strstr(err.msg, "a sample of '"));
		pm_metrics__delete(m);
	}
}

/* What the accumulator reports does not depend on the events it was
 * given once they are added: `sim --compare` reads the results after its
 * session (and the reader's events) are gone. */
static void test_results_outlive_events(void **state)
{
	struct hand h;
	struct pm_metrics *m = hand_metrics(&h, 2, PM_FORMAT_ID | PM_FORMAT_GROUP);
	int i;

	(void)state;
	assert_int_equal(pm_metrics__nr_readers(m), 3);
	for (i = 0; i < 3; i++) {	/* what a freed event may hold */
		h.ev[i].name = (char *)"gone";
		h.ev[i].attr.sample_type = 0;
		h.ev[i].attr.type = 99;
		h.ev[i].leader_idx = 7;
		h.ids[i] = 0;
	}
	assert_int_equal(pm_metrics__nr_counters(m), 3);
	assert_string_equal(pm_metrics__counter_name(m, 0), "cycles");
	assert_string_equal(pm_metrics__counter_name(m, 1), "instructions");
	assert_string_equal(pm_metrics__counter_name(m, 2), "faults");
	assert_string_equal(pm_metrics__metric_name(m, 0), "CPI");
	assert_non_null(pm_metrics__metric_name(m, pm_metrics__nr_metrics(m) - 1));
	assert_null(pm_metrics__metric_name(m, pm_metrics__nr_metrics(m)));
	pm_metrics__delete(m);
}

/* A valid recording with groups and no sample (a COMM and an ID_INDEX
 * only): an empty table with the group's columns, and JSON with no
 * functions. */
static void test_no_samples(void **state)
{
	static const struct fixture fx = { cyc_ins, 2, 0, true, false, 1, NULL, 0 };
	struct pm_metrics_opts o = { .layout = PM_METRICS_LAYOUT_ARM };
	struct pm_metrics *m = analyse(&fx, &o, NULL);
	struct pm_report *rep;
	struct pm_table *t;
	json_t *doc;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	assert_int_equal(pm_metrics__nr_funcs(m), 0);
	assert_int_equal(pm_metrics__nr_counters(m), 2);
	assert_int_equal(pm_metrics__finish(m, &rep), 0);
	t = pm_report__table(rep, 0);
	assert_int_equal(pm_table__nr_rows(t), 0);
	assert_true(pm_table__find_column(t, "CPI") >= 0);
	assert_true(pm_table__find_column(t, "%I") >= 0);
	out = open_memstream(&text, &len);
	pm_report__render(rep, out, pm_renderer__find("json"), NULL);
	fclose(out);
	pm_report__delete(rep);
	doc = json_loads(text, 0, NULL);
	assert_non_null(doc);
	assert_int_equal(json_array_size(json_object_get(doc, "functions")), 0);
	assert_int_equal(json_array_size(json_object_get(doc, "events")), 2);
	json_decref(doc);
	free(text);
	pm_metrics__delete(m);
}

/* Without PERF_SAMPLE_READ there are no readers (the CLI says how to
 * record them). */
static void test_no_readers(void **state)
{
	static const struct evspec ev[] = {
		{ "cycles", HW, 0, 0, 1, 1000, 0, true },
	};
	static const struct op ops[] = { S(0, 0, 10, F, 0, 0) };
	static const struct fixture fx = { ev, 1, 0, true, false, 0, ops, N(ops) };
	struct pm_metrics *m = analyse(&fx, NULL, NULL);

	(void)state;
	assert_int_equal(pm_metrics__nr_readers(m), 0);
	assert_int_equal(pm_metrics__nr_counters(m), 0);
	assert_int_equal(pm_metrics__summary(m)->ignored, 1);
	pm_metrics__delete(m);
}

/* ---- table and JSON ----------------------------------------------------- */

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

static size_t nr_shown(const struct pm_table *t)
{
	size_t c, n = 0;

	for (c = 0; c < pm_table__nr_columns(t); c++)
		n += pm_table__column(t, c)->show != PM_SHOW_JSON;
	return n;
}

static struct pm_report *finish(struct pm_metrics *m)
{
	struct pm_report *rep;

	assert_int_equal(pm_metrics__finish(m, &rep), 0);
	return rep;
}

static void test_table_and_json(void **state)
{
	struct pm_metrics_opts o = { .mode = PM_METRICS_DISCARD, .ci = true };
	struct pm_metrics *m = analyse(&fixed_fx, &o, NULL);
	struct pm_report *rep;
	struct pm_table *t;
	json_error_t jerr;
	json_t *doc, *fn;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	rep = finish(m);
	t = pm_report__find_table(rep, "functions");
	assert_int_equal(pm_table__nr_rows(t), 2);
	assert_string_equal(pm_table__column(t, shown(t, 0))->name, "Symbol");
	assert_string_equal(pm_table__column(t, shown(t, 2))->name, "#");
	assert_string_equal(pm_table__column(t, shown(t, 3))->name, "DIS%");
	assert_string_equal(pm_table__column(t, shown(t, 4))->name, "CPI");
	assert_string_equal(pm_table__column(t, shown(t, 5))->name, "±CPI");
	/* Both have 2 samples: ties by symbol, f first; DIS% 50. */
	assert_string_equal(pm_table__get_str(t, 0, shown(t, 0)), "f");
	assert_true(fabs(pm_table__get_double(t, 0, shown(t, 3)) - 50) < 1e-12);

	out = open_memstream(&text, &len);
	assert_int_equal(pm_report__render(rep, out, pm_renderer__find("json"),
					   NULL), 0);
	fclose(out);
	pm_report__delete(rep);
	pm_metrics__delete(m);

	/* Arm's order: Symbol # CPI ... then DIS% and the rest; --top 1. */
	o.layout = PM_METRICS_LAYOUT_ARM;
	m = analyse(&fixed_fx, &o, NULL);
	rep = finish(m);
	pm_report__truncate(rep, 1);
	t = pm_report__table(rep, 0);
	assert_int_equal(pm_table__nr_rows(t), 1);
	assert_string_equal(pm_table__column(t, shown(t, 1))->name, "#");
	assert_string_equal(pm_table__column(t, shown(t, 2))->name, "CPI");
	assert_int_equal(pm_table__find_column(t, "DSO"),
			 (int)shown(t, nr_shown(t) - 1));
	pm_report__delete(rep);

	doc = json_loads(text, 0, &jerr);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "mode")), "discard");
	assert_int_equal(json_integer_value(json_object_get(doc, "windows")), 4);
	assert_int_equal(json_integer_value(json_object_get(doc, "samples")), 4);
	assert_int_equal(json_integer_value(json_object_get(doc, "opening")), 1);
	assert_int_equal(json_integer_value(json_object_get(doc, "discarded")), 2);
	assert_int_equal(json_array_size(json_object_get(doc, "events")), 2);
	fn = json_array_get(json_object_get(doc, "functions"), 0);
	assert_string_equal(json_string_value(json_object_get(fn, "symbol")), "f");
	assert_string_equal(json_string_value(json_object_get(fn, "dso")), "prog");
	assert_int_equal(json_integer_value(json_object_get(
		json_object_get(fn, "counts"), "cycles")), 1000);
	assert_true(fabs(json_number_value(json_object_get(
		json_object_get(fn, "metrics"), "CPI")) - 1.0) < 1e-12);
	/* One kept window: no interval. */
	assert_true(json_is_null(json_object_get(json_object_get(fn, "ci95"), "CPI")));
	json_decref(doc);
	free(text);
	pm_metrics__delete(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_period_none),
		cmocka_unit_test(test_fixed_period_discard),
		cmocka_unit_test(test_hf_discard),
		cmocka_unit_test(test_hf_none),
		cmocka_unit_test(test_hf_delta_only),
		cmocka_unit_test(test_burst_name),
		cmocka_unit_test(test_two_threads_two_cpus),
		cmocka_unit_test(test_id_index_per_task),
		cmocka_unit_test(test_per_cpu),
		cmocka_unit_test(test_throttle_unthrottle),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_short_after_stop),
		cmocka_unit_test(test_two_groups_and_plain_event),
		cmocka_unit_test(test_missing_and_decreasing_members),
		cmocka_unit_test(test_match_callchain),
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_named_metrics_and_ci),
		cmocka_unit_test(test_all_named_metrics),
		cmocka_unit_test(test_table_and_json),
		cmocka_unit_test(test_groups_from_reads),
		cmocka_unit_test(test_group_desc_disagrees),
		cmocka_unit_test(test_reads_that_do_not_fit),
		cmocka_unit_test(test_results_outlive_events),
		cmocka_unit_test(test_no_samples),
		cmocka_unit_test(test_no_readers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
