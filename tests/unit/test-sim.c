// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator. The recordings are read back with the reader (not with
 * the simulator's own bookkeeping) and compared with the truth; the
 * expected shapes are the published ones (function-metrics.md): smearing
 * at period 1,000,000, recovery with hf 300 and discard, the file sizes,
 * resonance and hf-rand.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <math.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "pmprof/metrics.h"
#include "pmprof/perfdata.h"
#include "pmprof/sim.h"
#include "pmprof/util.h"

#define GROUP5 "instructions,branch-misses,cache-references,cache-misses}:uS"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/pmprof-test-sim.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static const char *path(const char *name)
{
	static char buf[4][128];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static struct pm_sim_model *load(const char *name)
{
	struct pm_sim_model *m = NULL;
	struct pm_error err = { 0 };

	if (pm_sim_model__load(&m, name, &err))
		fail_msg("%s", err.msg);
	return m;
}

static void run(const struct pm_sim_model *m, const char *spec,
		const char *out, uint64_t iterations, uint64_t seed,
		struct pm_sim_result *res)
{
	struct pm_sim_opts o = { .sz = sizeof(o), .spec = spec, .output = out,
				 .elf_path = path("prog.elf"), .seed = seed,
				 .iterations = iterations };
	struct pm_error err = { 0 };

	if (pm_sim__run(m, &o, res, &err))
		fail_msg("sim: %s", err.msg);
}

static uint64_t file_size(const char *p)
{
	struct stat st;

	assert_int_equal(stat(p, &st), 0);
	return (uint64_t)st.st_size;
}

static char *slurp(const char *p, size_t *len)
{
	FILE *f = fopen(p, "rb");
	char *buf;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = pm_malloc(*len + 1);
	assert_int_equal(fread(buf, 1, *len, f), *len);
	buf[*len] = 0;
	fclose(f);
	return buf;
}

/* ---- models ------------------------------------------------------------- */

static void test_builtin_matches_files(void **state)
{
	const char *names[] = { "arm-benchmark", "resonant" };
	size_t i, len;

	(void)state;
	for (i = 0; i < 2; i++) {
		char p[64];
		char *text;

		snprintf(p, sizeof(p), "models/%s.json", names[i]);
		text = slurp(p, &len);
		assert_non_null(pm_sim_builtin_model(names[i]));
		/* scripts/sim-builtin.sh keeps lib/sim/builtin.c in step */
		assert_string_equal(pm_sim_builtin_model(names[i]), text);
		free(text);
	}
}

static void test_default_model(void **state)
{
	struct pm_sim_model *m = load("arm-benchmark");
	static const char *const seven[] = {
		"fp_divider_stalls", "int_divider_stalls", "isb",
		"branch_mispredicts", "double_to_int", "nops", "dcache_miss",
	};
	size_t i;

	(void)state;
	assert_int_equal(m->nr_funcs, 7);
	for (i = 0; i < 7; i++)
		assert_string_equal(m->funcs[i].name, seven[i]);
	assert_int_equal(m->order, PM_SIM_ORDER_SHUFFLE);
	/* The published signatures (hf 999700 + 300, discard), by the
	 * model's means: isb CPI 20.1, branch_mispredicts BMKI 33.0,
	 * dcache_miss CMKI 184.7, fp_divider CPI 4.9. */
	assert_true(fabs(pm_sim_dist__mean(&m->funcs[2].cpi) - 20.1) < 1e-9);
	assert_true(fabs(pm_sim_dist__mean(&m->funcs[0].cpi) - 4.9) < 1e-9);
	assert_true(fabs(pm_sim_dist__mean(&m->funcs[3].per_ki[pm_sim_model__stream(m, "branch-misses")]) - 33.0) < 1e-9);
	assert_true(fabs(pm_sim_dist__mean(&m->funcs[6].per_ki[pm_sim_model__stream(m, "cache-misses")]) - 184.7) < 1e-9);
	assert_int_equal(pm_sim_model__stream(m, "cpu-cycles"), PM_SIM_CYCLES);
	assert_int_equal(pm_sim_model__stream(m, "stalled-cycles-backend"), -1);
	pm_sim_model__delete(m);
}

static void bad_model(const char *json, const char *needle)
{
	struct pm_sim_model *m = NULL;
	struct pm_error err = { 0 };

	assert_int_equal(pm_sim_model__parse(&m, json, strlen(json), "t", &err), -PM_EFORMAT);
	assert_null(m);
	if (!strstr(err.msg, needle))
		fail_msg("'%s' does not mention '%s'", err.msg, needle);
}

#define F1 "\"functions\": [{\"name\": \"f\", \"instructions\": 100, \"cpi\": 1"

static void test_model_errors(void **state)
{
	(void)state;
	bad_model("{", "line 1");
	bad_model("[]", "expected a JSON object");
	bad_model("{\"functions\": []}", "non-empty array");
	bad_model("{\"fuctions\": []}", "unknown key 'fuctions'");
	bad_model("{" F1 ", \"per_kl\": {}}]}", "unknown key 'per_kl'");
	bad_model("{\"functions\": [{\"name\": \"f\", \"cpi\": 1}]}", "needs \"instructions\"");
	bad_model("{" F1 ", \"per_ki\": {\"branch-misses\": {\"gauss\": [1, 2]}}}]}", "unknown distribution");
	bad_model("{" F1 ", \"per_ki\": {\"branch-misses\": {\"uniform\": [3, 2]}}}]}", "lo <= hi");
	bad_model("{" F1 ", \"per_ki\": {\"branch-misses\": -1}}]}", ">= 0");
	bad_model("{" F1 ", \"per_ki\": {\"cycles\": 1}}]}", "cycles and instructions");
	bad_model("{" F1 "}, {\"name\": \"f\", \"instructions\": 1, \"cpi\": 1}]}", "two functions");
	bad_model("{" F1 "}], \"nest\": 4}", "1 to 3");
	bad_model("{" F1 "}], \"order\": \"sorted\"}", "fixed, shuffle or random");
	bad_model("{" F1 "}], \"threads\": 0}", "from 1 to 256");
	bad_model("{" F1 "}], \"name\": \"a/b\"}", "without '/'");
	bad_model("{\"functions\": [{\"name\": \"main\", \"instructions\": 1, \"cpi\": 1}]}", "driver");
	/* Every number has a range, named in the message with its field. */
	bad_model("{\"functions\": [{\"name\": \"f\", \"instructions\": 1e30, \"cpi\": 1}]}",
		  "f.instructions: at most 1e+12");
	bad_model("{\"functions\": [{\"name\": \"f\", \"instructions\": 9007199254740993, \"cpi\": 1}]}",
		  "f.instructions: at most 1e+12");
	bad_model("{\"functions\": [{\"name\": \"f\", \"instructions\": {\"normal\": [100, 1e13]}, \"cpi\": 1}]}",
		  "f.instructions: at most 1e+12");
	bad_model("{\"functions\": [{\"name\": \"f\", \"instructions\": 100, \"cpi\": {\"uniform\": [1, 1001]}}]}",
		  "f.cpi: at most 1000");
	bad_model("{" F1 ", \"per_ki\": {\"branch-misses\": 2e6}}]}",
		  "f.per_ki.branch-misses: at most 1e+06");
	bad_model("{" F1 ", \"after_interrupt\": {\"cycles\": 1e13}}]}",
		  "f.after_interrupt.cycles: at most 1e+12");
	bad_model("{" F1 "}], \"skid\": {\"lognormal\": [10, 2e9]}}", "skid: at most 1e+09");
	bad_model("{" F1 "}], \"interrupt\": {\"cycles\": 1e10}}", "interrupt.cycles: at most 1e+09");
	bad_model("{" F1 "}], \"timeslice_ms\": 1e7}", "timeslice_ms: at most 1e+06");
	bad_model("{" F1 "}], \"ghz\": 1000}", "ghz");
	/* top-down: the slots are the model's, the fractions the functions' */
	bad_model("{" F1 ", \"topdown\": {\"frontend\": 0.5}}]}", "needs the model's \"slots\"");
	bad_model("{" F1 "}], \"slots\": 17}", "from 1 to 16");
	bad_model("{\"slots\": 4, " F1 ", \"topdown\": {\"frontend\": 0.6, \"backend\": 0.5}}]}",
		  "more than the whole");
	bad_model("{\"slots\": 4, " F1 ", \"topdown\": {\"frontend\": 1.5}}]}",
		  "f.topdown.frontend: at most 1");
	bad_model("{\"slots\": 4, " F1 ", \"topdown\": {\"front\": 0.5}}]}", "unknown key 'front'");
	bad_model("{\"slots\": 4, " F1 ", \"per_ki\": {\"op_spec\": 5}}]}", "not per_ki");
	bad_model("{\"slots\": 4, " F1 ", \"per_ki\": {\"topdown-fe-bound\": 5}}]}", "not per_ki");
	bad_model("{\"slots\": 4, " F1 ", \"after_interrupt\": {\"stall_slot\": 5}}]}",
		  "stall the backend");
}

/*
 * The top-down model: every slot is in exactly one of the four parts, the
 * vendors' events are their sums, and each function's truth is the
 * fraction its model draws (means within 3 standard errors of the draws'
 * sd over its calls).
 */
static void test_topdown_truth(void **state)
{
	static const struct { const char *fn; double fe, be, bad; } want[] = {
		{ "frontend_bound", 0.70, 0.12, 0.08 },
		{ "backend_bound", 0.04, 0.86, 0.04 },
		{ "bad_speculation", 0.19, 0.10, 0.55 },
		{ "retiring", 0.08, 0.09, 0.03 },
	};
	struct pm_sim_model *m = load("topdown");
	struct pm_sim_result res;
	int st[PM_SIM_TDS__NR];
	size_t i, k;

	(void)state;
	assert_int_equal(m->slots, 5);
	for (k = 0; k < PM_SIM_TDS__NR; k++) {
		st[k] = pm_sim_model__stream(m, pm_sim_td_stream_names[k]);
		assert_int_equal(st[k], m->td_stream[k]);
		assert_true(st[k] > 1);
	}
	/* the vendors' names are the same streams */
	assert_int_equal(pm_sim_model__stream(m, "topdown-fe-bound"), st[PM_SIM_TDS_FE]);
	assert_int_equal(pm_sim_model__stream(m, "topdown-retiring"), st[PM_SIM_TDS_RETIRED]);
	assert_int_equal(pm_sim_model__stream(m, "de_src_op_disp.all"), st[PM_SIM_TDS_SPEC]);
	assert_int_equal(pm_sim_model__stream(m, "ls_not_halted_cyc"), PM_SIM_CYCLES);
	run(m, "{cycles/period=200000/,r3e,r3d,r3b,r3a,r23}:uS", path("td.data"), 2000, 5, &res);
	for (i = 0; i < res.nr_funcs; i++) {
		const uint64_t *c = res.funcs[i].counts;
		uint64_t all = c[st[PM_SIM_TDS_SLOTS]];

		assert_int_equal(all, 5 * c[PM_SIM_CYCLES]);
		assert_int_equal(c[st[PM_SIM_TDS_STALL]], c[st[PM_SIM_TDS_FE]] + c[st[PM_SIM_TDS_BE]]);
		assert_int_equal(c[st[PM_SIM_TDS_SPEC]],
				 c[st[PM_SIM_TDS_RETIRED]] + c[st[PM_SIM_TDS_BAD]]);
		assert_int_equal(all, c[st[PM_SIM_TDS_STALL]] + c[st[PM_SIM_TDS_SPEC]]);
		for (k = 0; k < PM_ARRAY_SIZE(want); k++) {
			double v;

			if (strcmp(res.funcs[i].name, want[k].fn))
				continue;
			/* 2000 calls, sd 0.01-0.02 each: the mean is within
			 * 0.002 of the model's, the after-interrupt episodes
			 * (all backend) move it by far less */
			assert_int_equal(pm_sim_result__metric(&res, (long)i, "FE%", &v), 0);
			assert_true(fabs(v - 100 * want[k].fe) < 0.3);
			assert_int_equal(pm_sim_result__metric(&res, (long)i, "BE%", &v), 0);
			assert_true(fabs(v - 100 * want[k].be) < 0.3);
			assert_int_equal(pm_sim_result__metric(&res, (long)i, "BAD%", &v), 0);
			assert_true(fabs(v - 100 * want[k].bad) < 0.3);
			assert_int_equal(pm_sim_result__metric(&res, (long)i, "RET%", &v), 0);
			assert_true(fabs(v - 100 * (1 - want[k].fe - want[k].be - want[k].bad)) < 0.5);
			/* whole-cycle stalls: the frontend fraction of cycles */
			assert_true(fabs((double)c[st[PM_SIM_TDS_STALL_FE_CYCLES]] /
					 (double)c[PM_SIM_CYCLES] - want[k].fe) < 0.003);
		}
	}
	pm_sim_result__exit(&res);
	/* a model without slots has neither the streams nor the metrics */
	pm_sim_model__delete(m);
	m = load("arm-benchmark");
	assert_int_equal(m->slots, 0);
	assert_int_equal(m->td_stream[PM_SIM_TDS_SLOTS], -1);
	assert_int_equal(pm_sim_model__stream(m, "slots"), -1);
	pm_sim_model__delete(m);
}

/* A model's draws stay in its field's range, even a normal's far tail. */
static void test_draws_clamped(void **state)
{
	struct pm_sim_model *m = NULL;
	struct pm_error err = { 0 };
	static const char json[] = "{\"functions\": [{\"name\": \"f\","
		" \"instructions\": {\"normal\": [1e12, 1e12]}, \"cpi\": {\"lognormal\": [999, 1000]}}]}";
	uint64_t rng = 7;
	double top = 0, v;
	int i;

	(void)state;
	assert_int_equal(pm_sim_model__parse(&m, json, strlen(json), "t", &err), 0);
	for (i = 0; i < 10000; i++) {
		v = pm_sim_dist__draw(&m->funcs[0].instructions, &rng);
		assert_true(v >= 0 && v <= PM_SIM_MAX_INSTRUCTIONS);
		top = v > top ? v : top;
		v = pm_sim_dist__draw(&m->funcs[0].cpi, &rng);
		assert_true(v >= 0 && v <= PM_SIM_MAX_CPI);
	}
	assert_true(top == PM_SIM_MAX_INSTRUCTIONS);	/* half the draws */
	pm_sim_model__delete(m);
}

/* A run too long for exact counts is refused before it starts; a run
 * whose output would pass max_size stops with -EFBIG and writes no more. */
static void test_run_bounds(void **state)
{
	struct pm_sim_model *m = load("resonant");
	struct pm_sim_result res;
	struct pm_error err = { 0 };
	struct pm_sim_opts o = { .sz = sizeof(o), .output = path("bounds.data"),
				 .elf_path = path("prog.elf"),
				 .spec = "cycles/period=1000/" };

	(void)state;
	/* 1000 cycles an iteration: 2^53 / 1000 iterations is past it. */
	o.iterations = 9007199254741ULL * 2;
	assert_int_equal(pm_sim__run(m, &o, &res, &err), -PM_EUSAGE);
	assert_non_null(strstr(err.msg, "--iterations 18014398509482"));
	assert_non_null(strstr(err.msg, "2^53"));
	pm_sim_result__exit(&res);
	o.iterations = 100000;		/* 100,000 samples of ~100 bytes */
	o.max_size = 100000;
	assert_int_equal(pm_sim__run(m, &o, &res, &err), -EFBIG);
	assert_non_null(strstr(err.msg, "--max-size (100000 bytes)"));
	{	/* a failed run leaves nothing under the output's name */
		struct stat st;

		assert_int_not_equal(stat(path("bounds.data"), &st), 0);
	}
	pm_sim_result__exit(&res);
	o.max_size = 0;			/* the default holds it */
	assert_int_equal(pm_sim__run(m, &o, &res, &err), 0);
	assert_true(file_size(path("bounds.data")) > 100000);
	pm_sim_result__exit(&res);
	pm_sim_model__delete(m);
}

/* The analysis of a run without a sample: its results outlive the
 * session it was read with. */
static void test_analyse_no_samples(void **state)
{
	struct pm_sim_model *m = load("resonant");
	struct pm_sim_result res;
	struct pm_metrics *mx;
	struct pm_error err = { 0 };

	(void)state;
	run(m, "{cycles/period=1000000,hf-period=300/,instructions}:uS",
	    path("n.data"), 1, 1, &res);
	assert_int_equal(res.samples, 0);
	assert_int_equal(pm_sim__analyse(path("n.data"), PM_METRICS_AUTO, &mx, &err), 0);
	assert_int_equal(pm_metrics__summary(mx)->mode, PM_METRICS_DISCARD);
	assert_int_equal(pm_metrics__nr_counters(mx), 2);
	assert_string_equal(pm_metrics__counter_name(mx, 1), "instructions");
	assert_int_equal(pm_metrics__nr_funcs(mx), 0);
	pm_metrics__delete(mx);
	pm_sim_result__exit(&res);
	pm_sim_model__delete(m);
}

/* The draws follow their distributions: means and spreads by hand. */
static void test_distributions(void **state)
{
	struct pm_sim_dist n = { PM_SIM_NORMAL, 10, 2 }, l = { PM_SIM_LOGNORMAL, 4, 1 };
	struct pm_sim_dist u = { PM_SIM_UNIFORM, 2, 6 }, c = { PM_SIM_CONST, 3, 0 };
	double sn = 0, sn2 = 0, sl = 0, sl2 = 0, su = 0, lo = 1e9, hi = 0;
	uint64_t rng = 42;
	int i, N = 200000;

	(void)state;
	for (i = 0; i < N; i++) {
		double a = pm_sim_dist__draw(&n, &rng), b = pm_sim_dist__draw(&l, &rng);
		double d = pm_sim_dist__draw(&u, &rng);

		sn += a; sn2 += a * a;
		sl += b; sl2 += b * b;
		su += d;
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
		assert_true(b > 0);
		assert_true(pm_sim_dist__draw(&c, &rng) == 3);
	}
	assert_true(fabs(sn / N - 10) < 0.02);
	assert_true(fabs(sqrt(sn2 / N - (sn / N) * (sn / N)) - 2) < 0.02);
	assert_true(fabs(sl / N - 4) < 0.02);
	assert_true(fabs(sqrt(sl2 / N - (sl / N) * (sl / N)) - 1) < 0.02);
	assert_true(fabs(su / N - 4) < 0.02);
	assert_true(lo >= 2 && hi < 6 && lo < 2.01 && hi > 5.99);
}

/* ---- the recording against the truth ------------------------------------- */

/* Two threads sharing one CPU by time slices, nesting 1-3, perturbing
 * interrupts: everything that could lose or invent an event. */
static const char two_threads[] =
	"{\"name\": \"two\", \"threads\": 2, \"cpus\": 1, \"timeslice_ms\": 1,"
	" \"iterations\": 3000, \"order\": \"shuffle\", \"nest\": [1, 3],"
	" \"skid\": {\"uniform\": [0, 64]}, \"interrupt\": {\"cycles\": 5000},"
	" \"functions\": ["
	"  {\"name\": \"a\", \"instructions\": {\"normal\": [5000, 500]}, \"cpi\": {\"lognormal\": [2, 0.5]},"
	"   \"per_ki\": {\"branch-misses\": {\"normal\": [5, 1]}, \"cache-references\": 100, \"cache-misses\": {\"uniform\": [1, 9]}},"
	"   \"after_interrupt\": {\"cycles\": 50, \"cache-misses\": 1.5}},"
	"  {\"name\": \"b\", \"calls\": 2, \"instructions\": {\"uniform\": [100, 3000]}, \"cpi\": 0.7,"
	"   \"per_ki\": {\"branch-misses\": 20, \"cache-references\": 10, \"cache-misses\": 0.5}}"
	" ]}";

struct stream_vals {
	uint32_t tid;
	uint64_t first[8], last[8];
	bool seen;
};

/* Per thread: the first and last group values, read with the reader. */
static size_t read_streams(const char *file, struct stream_vals *sv, size_t max,
			   char names[8][64], size_t *nr_events)
{
	struct pm_reader *r;
	struct pm_record rec;
	struct pm_sample s;
	struct pm_error err = { 0 };
	size_t n = 0, i, k;
	int ret;

	if (pm_reader__open(&r, file, NULL, &err))
		fail_msg("%s", err.msg);
	*nr_events = pm_reader__nr_events(r);
	assert_true(*nr_events <= 8);
	for (k = 0; k < *nr_events; k++)
		snprintf(names[k], 64, "%s", pm_reader__event(r, k)->name);
	while ((ret = pm_reader__next(r, &rec, &err)) > 0) {
		if (rec.type != PM_RECORD_SAMPLE)
			continue;
		assert_int_equal(pm_reader__parse_sample(r, &rec, &s, &err), 0);
		assert_int_equal(s.read.nr, *nr_events);
		for (i = 0; i < n && sv[i].tid != s.tid; i++)
			;
		if (i == n) {
			assert_true(n < max);
			memset(&sv[n], 0, sizeof(sv[n]));
			sv[n].tid = s.tid;
			n++;
		}
		for (k = 0; k < s.read.nr; k++) {
			if (!sv[i].seen)
				sv[i].first[k] = s.read.values[k].value;
			sv[i].last[k] = s.read.values[k].value;
		}
		sv[i].seen = true;
	}
	assert_int_equal(ret, 0);
	pm_reader__delete(r);
	return n;
}

static void test_truth_adds_up(void **state)
{
	struct pm_sim_model *m = NULL;
	struct pm_error err = { 0 };
	struct pm_sim_result res;
	struct stream_vals sv[4];
	char names[8][64];
	size_t nr_ev, nt, k, i, c;
	struct pm_metrics *mx;
	const char *f = path("two.data");
	uint64_t calls[2];

	(void)state;
	assert_int_equal(pm_sim_model__parse(&m, two_threads, strlen(two_threads), "two", &err), 0);
	run(m, "{cycles/period=100000/," GROUP5, f, 0, 3, &res);
	nt = read_streams(f, sv, 4, names, &nr_ev);
	assert_int_equal(nt, 2);
	assert_int_equal(nr_ev, 5);
	assert_int_equal(res.throttles, 0);
	/* Calls: 3000 iterations x (1 + 2) per thread. */
	calls[0] = res.funcs[0].calls;
	calls[1] = res.funcs[1].calls;
	assert_int_equal(calls[0], 2 * 3000);
	assert_int_equal(calls[1], 2 * 3000 * 2);
	for (k = 0; k < nr_ev; k++) {
		char base[64];
		int s;
		uint64_t sum = 0, fsum = 0;

		snprintf(base, sizeof(base), "%.*s", (int)strcspn(names[k], "/:"), names[k]);
		s = pm_sim_model__stream(m, base);
		assert_true(s >= 0);
		for (i = 0; i < nt; i++)
			sum += sv[i].last[k];
		for (i = 0; i < res.nr_funcs; i++)
			fsum += res.funcs[i].counts[s];
		/* Nothing lost, nothing invented: what the counters read at
		 * each thread's last sample, plus what came after, is what
		 * the functions did (perturbations included). */
		assert_int_equal(fsum, res.totals[s]);
		assert_int_equal(sum + res.tail[s], res.totals[s]);
		assert_true(res.totals[s] > 0);
	}
	assert_true(res.funcs[0].perturbation[pm_sim_model__stream(m, "cache-misses")] > 0);

	/* The windows: mode none keeps every window but each thread's
	 * first; their sums plus the first samples are the last values. */
	assert_int_equal(pm_sim__analyse(f, PM_METRICS_NONE, &mx, &err), 0);
	assert_int_equal(pm_metrics__summary(mx)->opening, nt);
	assert_int_equal(pm_metrics__nr_counters(mx), nr_ev);
	for (c = 0; c < nr_ev; c++) {
		uint64_t win = 0, first = 0, last = 0;

		for (i = 0; i < pm_metrics__nr_funcs(mx); i++)
			win += pm_metrics__func(mx, i)->sums[c];
		for (i = 0; i < nt; i++) {
			first += sv[i].first[c];
			last += sv[i].last[c];
		}
		assert_int_equal(win + first, last);
	}
	pm_metrics__delete(mx);
	pm_sim_result__exit(&res);
	pm_sim_model__delete(m);
}

static void test_deterministic(void **state)
{
	struct pm_sim_model *m = load("arm-benchmark");
	struct pm_sim_result r1, r2, r3;
	size_t l1, l2, l3;
	char *a, *b, *c;

	(void)state;
	run(m, "{cycles/period=100000,hf-period=300,hf-rand=8/," GROUP5, path("d1.data"), 2000, 11, &r1);
	run(m, "{cycles/period=100000,hf-period=300,hf-rand=8/," GROUP5, path("d2.data"), 2000, 11, &r2);
	run(m, "{cycles/period=100000,hf-period=300,hf-rand=8/," GROUP5, path("d3.data"), 2000, 12, &r3);
	a = slurp(path("d1.data"), &l1);
	b = slurp(path("d2.data"), &l2);
	c = slurp(path("d3.data"), &l3);
	assert_int_equal(l1, l2);
	assert_memory_equal(a, b, l1);
	assert_true(l1 != l3 || memcmp(a, c, l1));
	assert_int_equal(r1.bytes, l1);
	free(a);
	free(b);
	free(c);
	pm_sim_result__exit(&r1);
	pm_sim_result__exit(&r2);
	pm_sim_result__exit(&r3);
	pm_sim_model__delete(m);
}

/* ---- the published shape ---------------------------------------------------- */

static const struct pm_metrics_func *find(struct pm_metrics *mx, const char *sym,
					  size_t *idx)
{
	size_t i;

	for (i = 0; i < pm_metrics__nr_funcs(mx); i++)
		if (pm_metrics__func(mx, i)->sym_name &&
		    !strcmp(pm_metrics__func(mx, i)->sym_name, sym)) {
			*idx = i;
			return pm_metrics__func(mx, i);
		}
	return NULL;
}

static void test_published_shape(void **state)
{
	struct pm_sim_model *m = load("arm-benchmark");
	struct pm_sim_result plain, hf, fixed;
	struct pm_metrics *mx;
	struct pm_error err = { 0 };
	double avg, v, t;
	size_t i, idx;

	(void)state;
	run(m, "{cycles/period=1000000/," GROUP5, path("plain.data"), 20000, 1, &plain);
	run(m, "{cycles/period=1000000,hf-period=300/," GROUP5, path("hf.data"), 20000, 1, &hf);
	run(m, "{cycles/period=300/," GROUP5, path("fixed.data"), 20000, 1, &fixed);

	/* Period 1,000,000: every function smeared to the program's CPI. */
	assert_int_equal(pm_sim__analyse(path("plain.data"), PM_METRICS_NONE, &mx, &err), 0);
	assert_int_equal(pm_sim_result__metric(&plain, -1, "CPI", &avg), 0);
	for (i = 0; i < plain.nr_funcs; i++) {
		assert_non_null(find(mx, plain.funcs[i].name, &idx));
		assert_int_equal(pm_metrics__metric(mx, idx, "CPI", &v, NULL, NULL), 0);
		if (fabs(v - avg) > 0.15 * avg)
			fail_msg("%s: CPI %.3f, program %.3f", plain.funcs[i].name, v, avg);
	}
	pm_metrics__delete(mx);

	/* hf 1,000,000 + 300, discard: each function's own CPI. */
	assert_int_equal(pm_sim__analyse(path("hf.data"), PM_METRICS_AUTO, &mx, &err), 0);
	assert_int_equal(pm_metrics__summary(mx)->mode, PM_METRICS_DISCARD);
	for (i = 0; i < hf.nr_funcs; i++) {
		double share;

		assert_int_equal(pm_sim_result__metric(&hf, (long)i, "%CY", &share), 0);
		if (share < 1)
			continue;
		assert_non_null(find(mx, hf.funcs[i].name, &idx));
		assert_int_equal(pm_metrics__metric(mx, idx, "CPI", &v, NULL, NULL), 0);
		assert_int_equal(pm_sim_result__metric(&hf, (long)i, "CPI", &t), 0);
		if (fabs(v - t) > 0.05 * t)
			fail_msg("%s: CPI %.3f, truth %.3f", hf.funcs[i].name, v, t);
	}
	pm_metrics__delete(mx);

	/* The file: at least 25x smaller than period 300's. */
	if (file_size(path("fixed.data")) < 25 * file_size(path("hf.data")))
		fail_msg("fixed 300 %llu bytes, hf %llu", (unsigned long long)file_size(path("fixed.data")),
			 (unsigned long long)file_size(path("hf.data")));
	/* Period 300 is throttled: THROTTLE and UNTHROTTLE records, and the
	 * leader misses cycles while stopped. */
	assert_true(fixed.throttles > 0);
	assert_true(fixed.unthrottles >= fixed.throttles - 1);
	assert_true(fixed.uncounted_cycles > 0);
	pm_sim_result__exit(&plain);
	pm_sim_result__exit(&hf);
	pm_sim_result__exit(&fixed);
	pm_sim_model__delete(m);
}

/* A loop of exactly 1000 cycles under a period of 100000: without jitter
 * every short window ends at the same phase. */
static void test_resonance(void **state)
{
	struct pm_sim_model *m = load("resonant");
	const char *specs[2] = {
		"{cycles/period=100000,hf-period=300/," GROUP5,
		"{cycles/period=100000,hf-period=300,hf-rand=10/," GROUP5,
	};
	int k;

	(void)state;
	for (k = 0; k < 2; k++) {
		struct pm_sim_result res;
		struct pm_metrics *mx;
		struct pm_error err = { 0 };
		double worst = 0;
		size_t i, idx;

		run(m, specs[k], path("res.data"), 1000000, 5, &res);
		assert_int_equal(pm_sim__analyse(path("res.data"), PM_METRICS_NONE, &mx, &err), 0);
		for (i = 0; i < res.nr_funcs; i++) {
			const struct pm_metrics_func *f = find(mx, res.funcs[i].name, &idx);
			double share = f ? 100.0 * (double)f->samples /
					   (double)pm_metrics__summary(mx)->windows : 0;
			double truth, e;

			assert_int_equal(pm_sim_result__metric(&res, (long)i, "%CY", &truth), 0);
			e = fabs(share - truth) / truth;
			worst = e > worst ? e : worst;
		}
		if (k == 0 && worst <= 0.20)
			fail_msg("no resonance: worst share error %.1f%%", 100 * worst);
		if (k == 1 && worst > 0.03)
			fail_msg("hf-rand: worst share error %.1f%%", 100 * worst);
		pm_metrics__delete(mx);
		pm_sim_result__exit(&res);
	}
	pm_sim_model__delete(m);
}

/* ---- sampling modes ----------------------------------------------------------- */

/* The PERIOD of each sample, in file order. */
static size_t periods(const char *file, uint64_t *out, size_t max, size_t *throttle,
		      size_t *unthrottle)
{
	struct pm_reader *r;
	struct pm_record rec;
	struct pm_sample s;
	struct pm_error err = { 0 };
	size_t n = 0;

	*throttle = *unthrottle = 0;
	assert_int_equal(pm_reader__open(&r, file, NULL, &err), 0);
	while (pm_reader__next(r, &rec, &err) > 0) {
		if (rec.type == PM_RECORD_THROTTLE)
			(*throttle)++;
		if (rec.type == PM_RECORD_UNTHROTTLE)
			(*unthrottle)++;
		if (rec.type != PM_RECORD_SAMPLE)
			continue;
		assert_int_equal(pm_reader__parse_sample(r, &rec, &s, &err), 0);
		assert_true(s.sample_type & PM_SAMPLE_PERIOD);
		assert_true(s.sample_type & PM_SAMPLE_CALLCHAIN);
		assert_true(s.sample_type & PM_SAMPLE_CPU);
		if (n < max)
			out[n] = s.period;
		n++;
	}
	pm_reader__delete(r);
	return n;
}

static void test_modes(void **state)
{
	struct pm_sim_model *m = load("arm-benchmark");
	struct pm_sim_result res;
	uint64_t p[64];
	size_t n, th, un, i;

	(void)state;
	/* Bursts: one long window, then four short ones. */
	run(m, "{cycles/period=100000,hf-period=300,hf-burst=4/," GROUP5, path("b.data"), 300, 1, &res);
	n = periods(path("b.data"), p, 64, &th, &un);
	assert_true(n >= 20);
	assert_int_equal(p[0], 100000 - 4 * 300);
	for (i = 1; i < 20; i++)
		assert_int_equal(p[i], i % 5 ? 300 : 100000 - 4 * 300);
	pm_sim_result__exit(&res);

	/* Frequency mode: about freq samples per simulated second. */
	run(m, "{cycles/freq=4000/," GROUP5, path("f.data"), 2000, 1, &res);
	n = periods(path("f.data"), p, 64, &th, &un);
	{
		double expect = 4000.0 * (double)res.duration_ns / 1e9;

		if (fabs((double)n - expect) > 0.1 * expect)
			fail_msg("freq 4000: %zu samples in %.3f s", n, (double)res.duration_ns / 1e9);
	}
	assert_int_equal(p[0], 1);	/* the kernel starts from period 1 */
	pm_sim_result__exit(&res);

	/* Throttling: the first ceil(100000 / 250) = 400 interrupts of a
	 * tick pass, the 401st logs THROTTLE. */
	run(m, "{cycles/period=300/," GROUP5, path("t.data"), 200, 1, &res);
	n = periods(path("t.data"), p, 64, &th, &un);
	assert_true(th > 0);
	assert_int_equal(th, res.throttles);
	assert_int_equal(un, res.unthrottles);
	assert_true(un == th || un + 1 == th);
	assert_int_equal(n, res.samples);
	pm_sim_result__exit(&res);

	/* No throttling when asked. */
	{
		struct pm_sim_opts o = { .sz = sizeof(o), .output = path("nt.data"),
					 .spec = "{cycles/period=300/," GROUP5,
					 .elf_path = path("prog.elf"), .seed = 1,
					 .iterations = 50, .no_throttle = true };
		struct pm_error err = { 0 };

		assert_int_equal(pm_sim__run(m, &o, &res, &err), 0);
		assert_int_equal(res.throttles, 0);
		assert_int_equal(res.uncounted_cycles, 0);
		pm_sim_result__exit(&res);
	}
	pm_sim_model__delete(m);
}

static void test_spec_errors(void **state)
{
	struct pm_sim_model *m = load("arm-benchmark");
	struct pm_sim_result res;
	struct pm_error err = { 0 };
	struct pm_sim_opts o = { .sz = sizeof(o), .output = path("e.data"),
				 .elf_path = path("prog.elf") };

	(void)state;
	o.spec = "{cycles/period=1000/,stalled-cycles-backend}:S";
	assert_int_equal(pm_sim__run(m, &o, &res, &err), -PM_EUSAGE);
	assert_non_null(strstr(err.msg, "stalled-cycles-backend"));
	pm_sim_result__exit(&res);
	o.spec = "cycles/period=1000,hf-period=2000/";
	assert_true(pm_sim__run(m, &o, &res, &err) < 0);
	pm_sim_result__exit(&res);
	o.spec = "cycles/period=1000/";
	o.elf_path = "models/arm-benchmark.json";	/* not an ELF: refused */
	assert_int_equal(pm_sim__run(m, &o, &res, &err), -PM_EUSAGE);
	assert_non_null(strstr(err.msg, "not an ELF"));
	pm_sim_result__exit(&res);
	pm_sim_model__delete(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_matches_files),
		cmocka_unit_test(test_default_model),
		cmocka_unit_test(test_model_errors),
		cmocka_unit_test(test_distributions),
		cmocka_unit_test(test_truth_adds_up),
		cmocka_unit_test(test_topdown_truth),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_published_shape),
		cmocka_unit_test(test_resonance),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_spec_errors),
		cmocka_unit_test(test_draws_clamped),
		cmocka_unit_test(test_run_bounds),
		cmocka_unit_test(test_analyse_no_samples),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
