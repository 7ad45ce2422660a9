/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of a simulator run (pm_sim__run), shared by its three files:
 * run.c sets the run up and drives it round by round, cpu.c is the CPU
 * model (threads, calls, counts, overflows, interrupts, ticks), emit.c
 * the output (the ELF, the header records, the records of each round
 * through the writer).
 */
#ifndef PMPROF_SIM_RUN_H
#define PMPROF_SIM_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/evspec.h"
#include "pmprof/outfile.h"
#include "pmprof/period.h"
#include "pmprof/sim.h"
#include "pmprof/writer.h"

#define NSEC_PER_SEC 1000000000ULL
#define TIME_BASE 1000000000ULL		/* the first record's time: 1 s */
#define ROUND_NS 10000000.0		/* 10 ms of simulated time per round */
#define TEXT_ADDR 0x401000ULL
#define FIRST_PID 4242
#define MAX_GROUP 32
#define MAX_CHAIN 9			/* context, leaf, 3 nests, 3 drivers, + 1 */
#define ID_BASE 1001

/* The driver functions: main -> run_behaviours -> run_one -> nest_D. */
enum { F_MAIN, F_RUN_BEHAVIOURS, F_RUN_ONE, F_NEST1, F_NEST2, F_NEST3, NR_DRIVER };

struct sim_event {
	int stream;
	int leader;			/* event index of its group leader */
	int sidx;			/* index among sampling events, -1 */
	uint64_t id;
	struct pm_period_config pcfg;
};

struct sim_call {
	size_t func;
	uint32_t nest;
	uint64_t cycles;		/* C */
	uint64_t pos;			/* cycles done */
	uint64_t *total;		/* per stream */
	uint64_t *done;			/* per stream, at pos */
	uint64_t *phase;		/* per stream: where in its share of
					   the cycles each event falls, 0..C-1 */
	bool perturb;			/* an after-interrupt episode */
};

struct sim_pending {
	bool active;
	uint64_t at;			/* thread cycles when the interrupt comes */
	struct pm_overflow ov;
};

struct sim_thread {
	uint32_t pid, tid;
	int cpu;
	uint64_t rng;
	uint64_t iter;
	size_t *order, order_len, order_pos;
	struct sim_call cur, saved;
	bool has_saved, finished;
	uint64_t cycles_done;
	uint64_t *counter;		/* per recording event */
	bool *stopped;			/* per sampling event */
	struct pm_period *period;	/* per sampling event */
	struct sim_pending *pend;		/* per sampling event */
	uint64_t *since_sample;		/* per stream, since the last sample */
};

struct sim_cpu {
	double now;			/* ns since TIME_BASE */
	double next_tick, slice_end;
	size_t *threads, nr;
	size_t cur;
	bool busy;
};

enum sim_rec_kind { R_SAMPLE, R_THROTTLE, R_UNTHROTTLE, R_EXIT };

struct sim_rec {
	uint64_t time;
	uint32_t cpu, seq;
	uint8_t kind;
	uint16_t event;
	uint32_t pid, tid;
	uint64_t ip, period;
	uint8_t nr_values, nr_chain;
	uint64_t values[MAX_GROUP];
	uint64_t chain[MAX_CHAIN];
};

struct sim {
	const struct pm_sim_model *m;
	const struct pm_sim_opts *o;	/* &opts */
	struct pm_sim_opts opts;
	struct pm_sim_result *res;
	struct pm_error *err;
	struct pm_writer *w;

	struct sim_event *ev;
	size_t nr_ev;
	size_t *sampling;		/* event index of each sampling event */
	size_t nr_sampling;
	uint32_t max_stack;

	uint64_t iterations;
	double ghz, irq_ns, tick_ns, slice_ns;
	struct sim_thread *th;
	size_t nr_th;
	struct sim_cpu *cpus;
	size_t nr_cpus;

	uint64_t *addr;			/* per function: model then driver */
	uint64_t *size;
	size_t nr_addr;

	struct sim_rec *buf;
	size_t nr_buf, alloc_buf;
	uint32_t seq;
	int failed;

	uint64_t max_size;		/* of the output */
	uint64_t *sample_bytes;		/* per sampling event: its SAMPLE's
					   size with the shortest chain */
	uint64_t buffered;		/* those sizes over S->buf's samples */
};

/* ---- cpu.c: the CPU model ---- */

/* Run a CPU until its clock reaches `until` or it has nothing to run. */
void pm_sim_cpu__run(struct sim *S, size_t cpu, double until);
/* Pick the next unfinished thread of the CPU (round robin). */
void pm_sim_cpu__schedule(struct sim *S, size_t cpu);
/* A thread's first iteration and first call. */
void pm_sim_thread__start(struct sim *S, struct sim_thread *t);
/* The latest CPU clock, ns since TIME_BASE. */
double pm_sim__now(const struct sim *S);
/* The run stops here: its output would pass max_size (S->failed). */
void pm_sim__too_big(struct sim *S, double now);

/* ---- emit.c: the output ---- */

/* The ELF's layout (S->addr, S->size: model functions, then the
 * driver's), written to f. */
int pm_sim_out__write_elf(struct sim *S, const struct pm_outfile *f);
int pm_sim_out__add_events(struct sim *S, struct pm_evspec_list *list);
int pm_sim_out__features(struct sim *S);
/* Each thread's COMM, FORK, and the text's MMAP2. */
int pm_sim_out__header_records(struct sim *S);
/* The SAMPLE of r (vals: room for MAX_GROUP values). */
void pm_sim_out__fill_sample(const struct sim *S, const struct sim_rec *r,
			     struct pm_sample *s, struct pm_read_value *vals);
/* Write the buffered records before `until` (all when until < 0). */
int pm_sim_out__flush(struct sim *S, double until);

#endif
