/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulator (`pmprof sim`): a modelled CPU runs a workload model
 * through the kernel's sampling logic (pmprof/period.h) and writes a real
 * perf.data, an ELF holding the model's functions (so that pmprof and perf
 * resolve the samples), and the truth: what every function really counted.
 *
 *	struct pm_sim_model *m;
 *	struct pm_sim_result res;
 *
 *	pm_sim_model__load(&m, "arm-benchmark", &err);	(builtin or a file)
 *	pm_sim__run(m, &opts, &res, &err);
 *	... res.funcs[i].counts[s] is function i's true count of stream s ...
 *	pm_sim_result__exit(&res);
 *	pm_sim_model__delete(m);
 *
 * The workload model (JSON, see docs/pmprof-sim.1 and models/):
 *   { "name", "description", "arch", "cpu", "ghz", "iterations",
 *     "threads", "cpus", "timeslice_ms", "order": "fixed"|"shuffle"|
 *     "random", "nest": N | [MIN, MAX], "skid": DIST (cycles),
 *     "interrupt": { "cycles": N }, "functions": [ { "name", "size",
 *     "calls", "instructions": DIST, "cpi": DIST, "per_ki": { EVENT: DIST },
 *     "after_interrupt": { "cycles"|EVENT: N },
 *     "topdown": { "frontend", "backend", "bad_speculation": DIST } } ],
 *   "slots": N }
 * A DIST is a number (a constant), {"const": v}, {"normal": [mean, sd]},
 * {"lognormal": [mean, sd]} (of the value itself) or {"uniform": [lo, hi]}.
 * Each call draws its instruction count, its CPI and its rate of every
 * other event; counts are rounded stochastically, and within a call every
 * event progresses in proportion to its cycles, its events evenly spread
 * at a phase drawn per call.
 *
 * Top-down ("slots": the pipeline's width, 1-64): each cycle has that many
 * issue slots, and each call draws the fractions of its slots that the
 * frontend left empty, that the backend refused and that issued work
 * which did not retire (the rest retired). The streams of a model with
 * slots are those counts (lib/sim/topdown.c): slots, stall_slot_frontend,
 * stall_slot_backend, stall_slot (their sum), op_spec (issued), op_retired,
 * topdown-bad-spec, and stall_frontend / stall_backend (whole cycles:
 * the frontend and backend fractions of the call's cycles). Events name
 * them as Arm, Intel and AMD do (r3e, topdown-fe-bound,
 * de_no_dispatch_per_slot.no_ops_from_frontend ...; pmprof/pmu_events.h
 * for raw codes).
 *
 * The CPU: each thread runs `iterations` iterations, each calling every
 * function `calls` times in the model's order (fixed; shuffled every
 * iteration as Arm's benchmark does; or drawn by weight of calls), each
 * call reached through main -> run_behaviours -> run_one -> nest_D -> ...
 * -> nest_1 (D from "nest"). Threads are placed on CPUs round robin and
 * share a CPU by time slices. A sampling event overflows when its model
 * count crosses the window the period model gives; the interrupt is taken
 * `skid` cycles later (the sample's IP, callchain and group values are
 * those of that point, possibly in the next call), costs `interrupt.cycles`
 * of CPU time (not user events: the events are counted in user mode), and
 * may cost the interrupted function extra events afterwards
 * ("after_interrupt", cache lines the handler evicted). Ticks (period
 * model hz) unthrottle and adjust frequencies; a throttled leader stops
 * counting until the next tick while its group's members go on.
 *
 * Everything is deterministic: one seed drives every draw, times start at
 * a fixed base, the features hold fixed strings. The same model, spec,
 * seed and paths give the same bytes.
 */
#ifndef PMPROF_SIM_H
#define PMPROF_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/error.h"

enum pm_sim_dist_kind {
	PM_SIM_CONST,
	PM_SIM_NORMAL,		/* a mean, b sd; clamped at 0 */
	PM_SIM_LOGNORMAL,	/* a mean, b sd of the value */
	PM_SIM_UNIFORM,		/* [a, b) */
};

struct pm_sim_dist {
	enum pm_sim_dist_kind kind;
	double a, b;
	double max;		/* draws stop here (the field's range); 0: none */
};

/* The distribution's mean (what a long run converges to). */
double pm_sim_dist__mean(const struct pm_sim_dist *d);
/* One draw from the generator state (pm_splitmix64). Never negative,
 * never above d->max when that is set. */
double pm_sim_dist__draw(const struct pm_sim_dist *d, uint64_t *rng);

/*
 * The ranges of the model's numbers. Each keeps every count the CPU
 * derives from it an exact integer in a double and in a uint64_t (a call
 * is at most 1e12 instructions x 1000 CPI = 1e15 cycles < 2^53), and a
 * whole run stays below PM_SIM_MAX_CYCLES per thread, where the clock (a
 * double in ns) would start to lose nanoseconds.
 */
#define PM_SIM_MAX_INSTRUCTIONS 1e12	/* per call */
#define PM_SIM_MAX_CPI 1000.0
#define PM_SIM_MAX_PER_KI 1e6		/* events per 1000 instructions */
#define PM_SIM_MAX_EVENTS 1e12		/* after_interrupt, per interrupt */
#define PM_SIM_MAX_SKID 1e9		/* cycles */
#define PM_SIM_MAX_IRQ_CYCLES 1e9
#define PM_SIM_MAX_TIMESLICE_MS 1e6
#define PM_SIM_MAX_CYCLES 9007199254740992.0	/* 2^53, per thread */
#define PM_SIM_MAX_SLOTS 16		/* issue width */
/* The output's bound when pm_sim_opts.max_size is 0: 2 GiB. */
#define PM_SIM_DEFAULT_MAX_SIZE (2ULL << 30)

/* Model streams 0 and 1 are always cycles and instructions; the others
 * are the events the functions give rates for, in order of appearance. */
#define PM_SIM_CYCLES 0
#define PM_SIM_INSTRUCTIONS 1

struct pm_sim_func {
	char *name;
	uint64_t size;			/* bytes in the ELF */
	uint32_t calls;			/* per iteration, default 1 */
	struct pm_sim_dist instructions;/* per call */
	struct pm_sim_dist cpi;
	struct pm_sim_dist *per_ki;	/* per stream; [0] and [1] unused */
	bool *has_rate;			/* per stream */
	double *after_irq;		/* per stream: extra events after an
					   interrupt ([1] unused) */
	bool has_topdown;
	struct pm_sim_dist topdown[3];	/* PM_SIM_TD_FRONTEND ... */
};

/* The fractions of a call's slots a function's "topdown" draws. */
enum { PM_SIM_TD_FRONTEND, PM_SIM_TD_BACKEND, PM_SIM_TD_BAD_SPEC };

/* The streams a model with slots adds, in this order, after its others. */
enum pm_sim_td_stream {
	PM_SIM_TDS_SLOTS,		/* slots x cycles */
	PM_SIM_TDS_FE,			/* stall_slot_frontend */
	PM_SIM_TDS_BE,			/* stall_slot_backend */
	PM_SIM_TDS_STALL,		/* stall_slot: FE + BE */
	PM_SIM_TDS_SPEC,		/* op_spec: retired + bad speculation */
	PM_SIM_TDS_RETIRED,		/* op_retired */
	PM_SIM_TDS_BAD,			/* topdown-bad-spec */
	PM_SIM_TDS_STALL_FE_CYCLES,	/* stall_frontend */
	PM_SIM_TDS_STALL_BE_CYCLES,	/* stall_backend */
	PM_SIM_TDS__NR,
};
extern const char *const pm_sim_td_stream_names[PM_SIM_TDS__NR];

enum pm_sim_order {
	PM_SIM_ORDER_FIXED,
	PM_SIM_ORDER_SHUFFLE,
	PM_SIM_ORDER_RANDOM,
};

struct pm_sim_model {
	char *name, *description, *arch, *cpu;
	double ghz;
	uint64_t iterations;
	uint32_t threads, cpus;
	double timeslice_ms;
	enum pm_sim_order order;
	uint32_t nest_min, nest_max;	/* 1-3 */
	struct pm_sim_dist skid;	/* cycles */
	double irq_cycles;		/* CPU time of one interrupt */
	char **streams;			/* event names */
	size_t nr_streams;
	uint32_t slots;			/* 0: no top-down streams */
	int td_stream[PM_SIM_TDS__NR];	/* their stream indices */
	struct pm_sim_func *funcs;
	size_t nr_funcs;
};

/* The compiled-in models: "arm-benchmark" (also models/arm-benchmark.json)
 * "resonant" and "topdown" (models/). NULL-terminated names; the JSON text or NULL. */
extern const char *const pm_sim_builtin_names[];
const char *pm_sim_builtin_model(const char *name);

/* Parse JSON text; `origin` names it in messages. */
int pm_sim_model__parse(struct pm_sim_model **out, const char *json,
			size_t len, const char *origin, struct pm_error *err);
/* A builtin name, else a file. */
int pm_sim_model__load(struct pm_sim_model **out, const char *name_or_path,
		       struct pm_error *err);
void pm_sim_model__delete(struct pm_sim_model *m);
/* The stream index of an event name (cycles, instructions, cpu-cycles,
 * branch-misses ...), or -1. */
int pm_sim_model__stream(const struct pm_sim_model *m, const char *event);

/* The ELF the simulator maps is pm_elf__write()'s (symbols.h). Its
 * e_machine for an ARCH string (x86_64, aarch64 ...); 62 if unknown. */
uint16_t pm_sim_elf__machine(const char *arch);

struct pm_sim_opts {
	size_t sz;			/* sizeof(struct pm_sim_opts) */
	const char *spec;		/* -e, perf's syntax */
	/*
	 * Every output is written whole or not at all (pmprof/outfile.h):
	 * nothing is renamed into place before the run has succeeded. No two
	 * may be the same file, nor the model's file.
	 */
	const char *output;		/* perf.data path */
	/* NULL: beside a regular-file OUTPUT, named after the model;
	 * in the current directory when OUTPUT is "-" or a device */
	const char *elf_path;
	const char *truth_path;		/* NULL: no truth file */
	uint64_t seed;
	uint64_t iterations;		/* 0: the model's */
	uint32_t hz;			/* 0: 250 */
	uint64_t max_sample_rate;	/* 0: 100000 */
	bool no_throttle;
	const char *model_origin;	/* what the user named (cmdline) */
	uint64_t max_size;		/* bytes of output; 0: the default.
					   Past it the run stops: -EFBIG */
};

struct pm_sim_truth_func {
	const char *name;
	uint64_t calls;
	uint64_t *counts;		/* per model stream */
	uint64_t *perturbation;		/* of which after interrupts */
	uint64_t samples;		/* samples whose IP is in it */
};

struct pm_sim_result {
	size_t nr_streams;
	const char *const *streams;	/* the model's names */
	size_t nr_funcs;
	struct pm_sim_truth_func *funcs;
	uint64_t *totals;		/* per stream */
	uint64_t *tail;			/* per stream: counted after each
					   thread's last sample of the first
					   sampling event */
	uint64_t samples, overflows, throttles, unthrottles;
	uint64_t records, bytes;
	uint64_t duration_ns;		/* last CPU's clock - start */
	uint64_t irq_ns;		/* CPU time spent in interrupts */
	uint64_t uncounted_cycles;	/* cycles a throttled leader missed */
	char *elf_path;
};

int pm_sim__run(const struct pm_sim_model *m, const struct pm_sim_opts *opts,
		struct pm_sim_result *res, struct pm_error *err);
void pm_sim_result__exit(struct pm_sim_result *res);

/*
 * A true metric of function `func` (-1: the whole program) by the names
 * pmprof metrics uses: CPI IPC BMKI CMKI %CM %CY %I %BM %L1DA %L1DM, and
 * with slots the top-down level 1 in % of slots: FE% BAD% BE% RET%.
 * 0, or -ENOENT (no such metric or stream), -EDOM (denominator 0).
 */
int pm_sim_result__metric(const struct pm_sim_result *res, long func,
			  const char *name, double *value);
/*
 * What `pmprof sim --compare` says of a metric of one function: the value
 * pmprof metrics measured, the truth, and the error, which is reported
 * only where the truth puts at least PM_SIM_MEASURABLE events of the
 * metric's numerator in the function's kept windows (the truth's rate
 * times what the windows counted of its denominator: true BMKI / 1000 x
 * their instructions). Fewer events are their own noise (20 events: a
 * 95% interval of +-45%), and a relative error against a truth of 0.02
 * per kilo-instruction says nothing. Shares and top-down metrics: always.
 */
#define PM_SIM_MEASURABLE 20

struct pm_metrics;

struct pm_sim_compared {
	bool has_measured, has_truth;
	double measured, truth;
	bool measurable;	/* the error is worth reporting */
	double expected;	/* events the truth puts in the windows; NaN
				   when not a ratio */
	bool has_error;		/* measurable, and the truth not 0 */
	double error;		/* % */
};

/* func: the function in m (SIZE_MAX: none measured); name as pmprof
 * metrics names it ("CPI", "BMKI", "FE%" ...). */
void pm_sim__compared(const struct pm_metrics *m, size_t func, double measured,
		      bool has_measured, double truth, bool has_truth,
		      const char *name, struct pm_sim_compared *out);

/* The truth as JSON (what --truth writes), to fd; errors name `name`. */
int pm_sim_result__write_truth(const struct pm_sim_result *res,
			       const struct pm_sim_model *m,
			       const struct pm_sim_opts *opts, int fd,
			       const char *name, struct pm_error *err);

/*
 * The windows analysis of a recording (what `pmprof metrics -s MODE`
 * computes): the session resolves each sample's function, the metrics
 * accumulator takes samples, THROTTLE, UNTHROTTLE, LOST and ID_INDEX.
 * pm_metrics__delete() the result.
 */
struct pm_metrics;
int pm_sim__analyse(const char *path, int mode, struct pm_metrics **out,
		    struct pm_error *err);

/*
 * --compare's report: per function (by true cycles), the measured and
 * true top-down level 1 (FE% BAD% BE% RET%, with a model that has
 * slots), CPI, BMKI, CMKI, %CM, %CY and share of samples (%#, whose truth
 * is %CY), and the error of each (pm_sim__compared; the top-down one in
 * percentage points); `output` names the recording. The table's columns
 * of one metric share their JSON subgroup: "metrics": {NAME: {measured,
 * truth, error, difference, measurable, expected_events}}.
 */
struct pm_report;
int pm_sim__compare(struct pm_metrics *m, const struct pm_sim_result *res,
		    const char *output, struct pm_report **out);

#endif
