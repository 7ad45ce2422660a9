// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator's CPU: threads run the model's calls; every recording
 * event counts its model stream; sampling events overflow through the
 * period model (pmprof/period.h); interrupts land after the skid, cost CPU
 * time and may perturb the interrupted function; ticks unthrottle. Records
 * are produced per CPU, merged in time order per round (10 ms of simulated
 * time) and written through the writer, a FINISHED_ROUND after each round.
 *
 * Within a call every stream progresses in proportion to cycles: after p
 * of its C cycles, stream s has counted floor((E_s x p + phase) / C) of
 * its E_s events, the phase drawn per call (0 for cycles). So an overflow
 * point is exact: the first p where the sampling stream's count reaches
 * the window.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmprof/evspec.h"
#include "pmprof/period.h"
#include "pmprof/pmu_events.h"
#include "pmprof/sim.h"
#include "pmprof/util.h"
#include "pmprof/writer.h"
#include "sim-int.h"

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
static const char *const driver_names[NR_DRIVER] = {
	"main", "run_behaviours", "run_one", "nest_1", "nest_2", "nest_3",
};

struct sim_event {
	int stream;
	int leader;			/* event index of its group leader */
	int sidx;			/* index among sampling events, -1 */
	uint64_t id;
	struct pm_period_config pcfg;
};

struct call {
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

struct pending {
	bool active;
	uint64_t at;			/* thread cycles when the interrupt comes */
	struct pm_overflow ov;
};

struct thread {
	uint32_t pid, tid;
	int cpu;
	uint64_t rng;
	uint64_t iter;
	size_t *order, order_len, order_pos;
	struct call cur, saved;
	bool has_saved, finished;
	uint64_t cycles_done;
	uint64_t *counter;		/* per recording event */
	bool *stopped;			/* per sampling event */
	struct pm_period *period;	/* per sampling event */
	struct pending *pend;		/* per sampling event */
	uint64_t *since_sample;		/* per stream, since the last sample */
};

struct cpu {
	double now;			/* ns since TIME_BASE */
	double next_tick, slice_end;
	size_t *threads, nr;
	size_t cur;
	bool busy;
};

enum rec_kind { R_SAMPLE, R_THROTTLE, R_UNTHROTTLE, R_EXIT };

struct rec {
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
	const struct pm_sim_opts *o;
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
	struct thread *th;
	size_t nr_th;
	struct cpu *cpus;
	size_t nr_cpus;

	uint64_t *addr;			/* per function: model then driver */
	uint64_t *size;
	size_t nr_addr;

	struct rec *buf;
	size_t nr_buf, alloc_buf;
	uint32_t seq;
	int failed;

	uint64_t max_size;		/* of the output */
	uint64_t *sample_bytes;		/* per sampling event: its SAMPLE's
					   size with the shortest chain */
	uint64_t buffered;		/* those sizes over S->buf's samples */
};

/* ---- helpers ---------------------------------------------------------- */

static uint64_t below(uint64_t *rng, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)pm_splitmix64(rng) * n) >> 64);
}

/*
 * Stream s's count at position p of call c: its events are spread evenly
 * over the call's C cycles, E of them, at a phase drawn for each call (so
 * that a call's single cache miss may fall anywhere in it, and a window
 * that stays inside calls sees events as often as their rate says):
 * floor((E p + phase) / C). Cycles themselves have phase 0: count = p.
 */
static uint64_t count_at(const struct call *c, size_t s, uint64_t p)
{
	if (p >= c->cycles)
		return c->total[s];
	return (uint64_t)(((unsigned __int128)c->total[s] * p + c->phase[s]) / c->cycles);
}

/* Each stream's phase in a call just set up (cycles: none). */
static void draw_phases(struct sim *S, struct thread *t, struct call *c)
{
	size_t s;

	c->phase[PM_SIM_CYCLES] = 0;
	for (s = 1; s < S->m->nr_streams; s++)
		c->phase[s] = below(&t->rng, c->cycles);
}

static struct rec *new_rec(struct sim *S, int kind, size_t cpu, double now)
{
	struct rec *r;

	PM_GROW(S->buf, S->alloc_buf, S->nr_buf + 1);
	r = &S->buf[S->nr_buf++];
	memset(r, 0, offsetof(struct rec, values));
	r->kind = (uint8_t)kind;
	r->cpu = (uint32_t)cpu;
	r->seq = S->seq++;
	r->time = TIME_BASE + (uint64_t)llround(now);
	return r;
}

/* The latest CPU clock, ns since TIME_BASE. */
static double sim_now(const struct sim *S)
{
	double now = 0;
	size_t i;

	for (i = 0; i < S->nr_cpus; i++)
		if (S->cpus[i].now > now)
			now = S->cpus[i].now;
	return now;
}

/* The run stops here: its output would pass max_size. */
static void too_big(struct sim *S, double now)
{
	if (S->failed)
		return;
	S->failed = pm_error__fmt(S->err, -EFBIG,
		"the output would pass --max-size (%" PRIu64 " bytes) after %.3f s simulated: raise --max-size, or lower the iterations or the sampling rate",
		S->max_size, now / 1e9);
}

/* ---- calls ------------------------------------------------------------ */

static void call_setup(struct sim *S, struct thread *t, struct call *c,
		       size_t func)
{
	const struct pm_sim_func *f = &S->m->funcs[func];
	double n, cpi;
	size_t s;

	c->func = func;
	c->pos = 0;
	c->perturb = false;
	c->nest = S->m->nest_min +
		(uint32_t)below(&t->rng, S->m->nest_max - S->m->nest_min + 1);
	n = floor(pm_sim_dist__draw(&f->instructions, &t->rng) + 0.5);
	if (n < 1)
		n = 1;
	cpi = pm_sim_dist__draw(&f->cpi, &t->rng);
	c->total[PM_SIM_INSTRUCTIONS] = (uint64_t)n;
	c->cycles = pm_sim__round(n * cpi, &t->rng);
	if (!c->cycles)
		c->cycles = 1;
	c->total[PM_SIM_CYCLES] = c->cycles;
	for (s = 2; s < S->m->nr_streams; s++)
		c->total[s] = f->has_rate[s]
			? pm_sim__round(n * pm_sim_dist__draw(&f->per_ki[s], &t->rng) / 1000, &t->rng)
			: 0;
	pm_sim_td__call(S->m, f, c->cycles, &t->rng, c->total);
	draw_phases(S, t, c);
	memset(c->done, 0, S->m->nr_streams * sizeof(*c->done));
	S->res->funcs[func].calls++;
}

static void new_iteration(struct sim *S, struct thread *t)
{
	const struct pm_sim_model *m = S->m;
	size_t i, j, k = 0;

	for (i = 0; i < m->nr_funcs; i++)
		for (j = 0; j < m->funcs[i].calls; j++)
			t->order[k++] = i;
	t->order_len = k;
	t->order_pos = 0;
	if (m->order == PM_SIM_ORDER_SHUFFLE) {
		for (i = k; i > 1; i--) {	/* Fisher-Yates */
			size_t r = (size_t)below(&t->rng, i), tmp = t->order[i - 1];

			t->order[i - 1] = t->order[r];
			t->order[r] = tmp;
		}
	} else if (m->order == PM_SIM_ORDER_RANDOM) {
		for (i = 0; i < k; i++)		/* by weight of calls */
			t->order[i] = t->order[below(&t->rng, k)];
	}
}

/* Move to the thread's next call; false when the thread is done. */
static bool next_call(struct sim *S, struct thread *t)
{
	if (t->has_saved) {
		struct call tmp = t->cur;

		t->cur = t->saved;
		t->saved = tmp;
		t->has_saved = false;
		return true;
	}
	if (t->order_pos == t->order_len) {
		if (++t->iter >= S->iterations)
			return false;
		new_iteration(S, t);
	}
	call_setup(S, t, &t->cur, t->order[t->order_pos++]);
	return true;
}

/* ---- samples ----------------------------------------------------------- */

static void fill_chain(struct sim *S, struct thread *t, struct rec *r)
{
	const struct call *c = &t->cur;
	size_t nm = S->m->nr_funcs, n = 0, k;
	uint64_t off, span = S->size[c->func];
	uint32_t max = S->max_stack ? S->max_stack : 127;
	uint64_t chain[MAX_CHAIN];

	/* The IP: somewhere in the body past the prologue, 4-aligned. */
	off = 16 + below(&t->rng, span > 32 ? span - 16 : 16);
	r->ip = S->addr[c->func] + (off & ~3ULL);
	chain[n++] = r->ip;
	for (k = 0; k < c->nest; k++)
		chain[n++] = S->addr[nm + F_NEST1 + k] + 0x10;
	chain[n++] = S->addr[nm + F_RUN_ONE] + 0x20;
	chain[n++] = S->addr[nm + F_RUN_BEHAVIOURS] + 0x30;
	chain[n++] = S->addr[nm + F_MAIN] + 0x40;
	r->chain[0] = PM_CONTEXT_USER;
	r->nr_chain = 1;
	for (k = 0; k < n && k < max; k++)
		r->chain[r->nr_chain++] = chain[k];
}

static void perturb(struct sim *S, struct thread *t)
{
	const struct pm_sim_func *f = &S->m->funcs[t->cur.func];
	struct call *c;
	size_t s;
	bool any = false;

	if (t->has_saved || t->cur.perturb)
		return;
	for (s = 0; s < S->m->nr_streams; s++)
		if (f->after_irq[s] > 0)
			any = true;
	if (!any)
		return;
	/* The episode runs first, then the interrupted call resumes. */
	c = &t->saved;
	{
		struct call tmp = t->cur;

		t->cur = *c;
		*c = tmp;
	}
	t->has_saved = true;
	c = &t->cur;
	c->func = t->saved.func;
	c->nest = t->saved.nest;
	c->pos = 0;
	c->perturb = true;
	c->total[PM_SIM_INSTRUCTIONS] = 0;
	for (s = 0; s < S->m->nr_streams; s++)
		if (s != PM_SIM_INSTRUCTIONS)
			c->total[s] = pm_sim__round(f->after_irq[s], &t->rng);
	c->cycles = c->total[PM_SIM_CYCLES] ? c->total[PM_SIM_CYCLES] : 1;
	c->total[PM_SIM_CYCLES] = c->cycles;
	pm_sim_td__call(S->m, NULL, c->cycles, &t->rng, c->total);
	draw_phases(S, t, c);
	memset(c->done, 0, S->m->nr_streams * sizeof(*c->done));
}

/* The interrupt of sampling event j: THROTTLE if due, the SAMPLE, the
 * handler's time, the after-effects. */
static void take_sample(struct sim *S, struct thread *t, size_t cpu, size_t j)
{
	struct cpu *C = &S->cpus[cpu];
	struct pending *p = &t->pend[j];
	size_t e = S->sampling[j], k, s;
	struct rec *r;

	p->active = false;
	if (p->ov.throttle) {
		r = new_rec(S, R_THROTTLE, cpu, C->now);
		r->event = (uint16_t)e;
		r->pid = t->pid;
		r->tid = t->tid;
		t->stopped[j] = true;
		S->res->throttles++;
	}
	r = new_rec(S, R_SAMPLE, cpu, C->now);
	r->event = (uint16_t)e;
	r->pid = t->pid;
	r->tid = t->tid;
	r->period = p->ov.period;
	for (k = 0; k < S->nr_ev; k++)
		if (S->ev[k].leader == S->ev[e].leader && r->nr_values < MAX_GROUP)
			r->values[r->nr_values++] = t->counter[k];
	fill_chain(S, t, r);
	S->buffered += S->sample_bytes[j];
	if (pm_writer__offset(S->w) + S->buffered > S->max_size)
		too_big(S, C->now);
	S->res->samples++;
	S->res->funcs[t->cur.func].samples++;
	if (j == 0)
		for (s = 0; s < S->m->nr_streams; s++)
			t->since_sample[s] = 0;
	C->now += S->irq_ns;
	S->res->irq_ns += (uint64_t)llround(S->irq_ns);
	perturb(S, t);
}

/* ---- the CPU ------------------------------------------------------------ */

/* Advance thread t by dp cycles of its current call. */
static void advance(struct sim *S, struct thread *t, size_t cpu, uint64_t dp)
{
	struct call *c = &t->cur;
	struct pm_sim_truth_func *tf = &S->res->funcs[c->func];
	uint64_t inc[64], *incp = inc;
	size_t s, k, ns = S->m->nr_streams;
	double now;

	if (ns > PM_ARRAY_SIZE(inc))
		incp = pm_calloc(ns, sizeof(*incp));
	for (s = 0; s < ns; s++) {
		uint64_t v = count_at(c, s, c->pos + dp);

		incp[s] = v - c->done[s];
		c->done[s] = v;
		tf->counts[s] += incp[s];
		if (c->perturb)
			tf->perturbation[s] += incp[s];
		t->since_sample[s] += incp[s];
	}
	c->pos += dp;
	t->cycles_done += dp;
	S->cpus[cpu].now += (double)dp / S->ghz;
	now = S->cpus[cpu].now;
	for (k = 0; k < S->nr_ev; k++) {
		int j = S->ev[k].sidx;

		if (j >= 0 && t->stopped[j]) {
			if (S->ev[k].stream == PM_SIM_CYCLES)
				S->res->uncounted_cycles += incp[PM_SIM_CYCLES];
			continue;
		}
		t->counter[k] += incp[S->ev[k].stream];
	}
	for (k = 0; k < S->nr_sampling; k++) {
		uint64_t n = incp[S->ev[S->sampling[k]].stream];
		struct pm_overflow ov;

		while (n && pm_period__count(&t->period[k], &n, (uint64_t)llround(now), &ov)) {
			uint64_t skid;

			S->res->overflows++;
			/* An interrupt still pending is taken now (merged). */
			if (t->pend[k].active)
				take_sample(S, t, cpu, k);
			skid = (uint64_t)llround(pm_sim_dist__draw(&S->m->skid, &t->rng));
			t->pend[k].active = true;
			t->pend[k].at = t->cycles_done + skid;
			t->pend[k].ov = ov;
		}
	}
	if (incp != inc)
		free(incp);
}

/* Cycles until the next overflow of sampling event j in the current call,
 * or UINT64_MAX. */
static uint64_t cycles_to_overflow(struct sim *S, struct thread *t, size_t j)
{
	const struct call *c = &t->cur;
	size_t s = (size_t)S->ev[S->sampling[j]].stream;
	uint64_t left = pm_period__left(&t->period[j]), target, p;

	if (left == UINT64_MAX || c->done[s] + left > c->total[s])
		return UINT64_MAX;
	target = c->done[s] + left;
	/* the first p with count_at(p) >= target: E p + phase >= C target */
	{
		unsigned __int128 need = (unsigned __int128)target * c->cycles;

		need = need > c->phase[s] ? need - c->phase[s] : 0;
		p = (uint64_t)((need + c->total[s] - 1) / c->total[s]);
	}
	return p > c->pos ? p - c->pos : 1;
}

static void tick(struct sim *S, size_t cpu, double when)
{
	struct cpu *C = &S->cpus[cpu];
	struct thread *t;
	size_t j;

	if (!C->busy)
		return;
	t = &S->th[C->threads[C->cur]];
	for (j = 0; j < S->nr_sampling; j++) {
		struct pm_tick tk;

		pm_period__tick(&t->period[j], TIME_BASE + (uint64_t)llround(when), &tk);
		if (tk.unthrottle) {
			struct rec *r = new_rec(S, R_UNTHROTTLE, cpu, when);

			r->event = (uint16_t)S->sampling[j];
			r->pid = t->pid;
			r->tid = t->tid;
			t->stopped[j] = false;
			S->res->unthrottles++;
		}
	}
}

/* Pick the next unfinished thread of the CPU (round robin). */
static void schedule(struct sim *S, size_t cpu)
{
	struct cpu *C = &S->cpus[cpu];
	size_t i;

	C->busy = false;
	for (i = 1; i <= C->nr; i++) {
		size_t k = (C->cur + i) % C->nr;

		if (!S->th[C->threads[k]].finished) {
			struct thread *t = &S->th[C->threads[k]];
			bool switched = k != C->cur;
			size_t j;

			C->cur = k;
			C->busy = true;
			C->slice_end = C->now + S->slice_ns;
			/* A throttled event is restarted when its task comes
			 * back (the kernel's sched-in path). */
			for (j = 0; switched && j < S->nr_sampling; j++) {
				if (t->period[j].throttled)
					tick(S, cpu, C->now);
				/* The kernel counts interrupts per tick
				 * sequence: a new slice starts afresh. */
				t->period[j].interrupts = 0;
			}
			return;
		}
	}
}

static void thread_exit(struct sim *S, struct thread *t, size_t cpu)
{
	struct rec *r = new_rec(S, R_EXIT, cpu, S->cpus[cpu].now);
	size_t s;

	r->pid = t->pid;
	r->tid = t->tid;
	t->finished = true;
	for (s = 0; s < S->m->nr_streams; s++)
		S->res->tail[s] += t->since_sample[s];
}

/* Run a CPU until its clock reaches `until` or it has nothing to run. */
static void run_cpu(struct sim *S, size_t cpu, double until)
{
	struct cpu *C = &S->cpus[cpu];

	while (C->busy && C->now < until && !S->failed) {
		struct thread *t = &S->th[C->threads[C->cur]];
		double bound = C->next_tick;
		uint64_t step, x;
		size_t j;

		if (C->now >= C->next_tick) {
			tick(S, cpu, C->next_tick);
			C->next_tick += S->tick_ns;
			continue;
		}
		if (C->nr > 1 && C->now >= C->slice_end) {
			schedule(S, cpu);
			continue;
		}
		/* Interrupts due now. */
		for (j = 0; j < S->nr_sampling; j++)
			if (t->pend[j].active && t->pend[j].at <= t->cycles_done)
				take_sample(S, t, cpu, j);
		if (t->cur.pos >= t->cur.cycles) {
			if (!next_call(S, t)) {
				/* Interrupts in flight land at the exit. */
				for (j = 0; j < S->nr_sampling; j++)
					if (t->pend[j].active)
						t->pend[j].active = false;
				thread_exit(S, t, cpu);
				schedule(S, cpu);
			}
			continue;
		}
		if (C->nr > 1 && C->slice_end < bound)
			bound = C->slice_end;
		if (until < bound)
			bound = until;
		/* The interrupts just taken may have run the clock past the
		 * bound: meet it (tick, slice, round) before going on. */
		if (C->now >= bound)
			continue;
		step = t->cur.cycles - t->cur.pos;
		x = (uint64_t)ceil((bound - C->now) * S->ghz);
		if (x < 1)
			x = 1;
		if (x < step)
			step = x;
		for (j = 0; j < S->nr_sampling; j++) {
			x = cycles_to_overflow(S, t, j);
			if (x < step)
				step = x;
			if (t->pend[j].active && t->pend[j].at - t->cycles_done < step)
				step = t->pend[j].at - t->cycles_done;
		}
		advance(S, t, cpu, step);
	}
}

/* ---- output ------------------------------------------------------------- */

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The SAMPLE of r (vals: room for MAX_GROUP values). */
static void fill_sample(const struct sim *S, const struct rec *r,
			struct pm_sample *s, struct pm_read_value *vals)
{
	const struct pm_event *ev = pm_writer__event(S->w, r->event);
	size_t k, n = 0;

	memset(s, 0, sizeof(*s));
	for (k = 0; k < S->nr_ev && n < r->nr_values; k++)
		if (S->ev[k].leader == S->ev[r->event].leader) {
			vals[n].value = r->values[n];
			vals[n].id = S->ev[k].id;
			vals[n].lost = 0;
			n++;
		}
	s->event = ev;
	s->sample_type = ev->attr.sample_type;
	s->misc = PM_MISC_USER;
	s->identifier = s->id = s->stream_id = S->ev[r->event].id;
	s->ip = r->ip;
	s->pid = r->pid;
	s->tid = r->tid;
	s->time = r->time;
	s->cpu = r->cpu;
	s->period = r->period;
	s->read.nr = n;
	s->read.values = vals;
	s->callchain_nr = r->nr_chain;
	s->callchain = r->chain;
}

static int write_rec(struct sim *S, const struct rec *r)
{
	const struct pm_event *ev = pm_writer__event(S->w, r->event);
	struct pm_sample_id sid = { .event = ev, .pid = r->pid, .tid = r->tid,
				    .time = r->time, .id = S->ev[r->event].id,
				    .cpu = r->cpu };

	switch (r->kind) {
	case R_SAMPLE: {
		struct pm_read_value vals[MAX_GROUP];
		struct pm_sample s;

		fill_sample(S, r, &s, vals);
		return pm_writer__sample(S->w, &s, S->err);
	}
	case R_THROTTLE:
	case R_UNTHROTTLE: {
		struct pm_rec_throttle th = { .time = r->time,
					      .id = S->ev[r->event].id,
					      .stream_id = S->ev[r->event].id };

		return pm_writer__throttle(S->w, r->kind == R_THROTTLE
					   ? PM_RECORD_THROTTLE : PM_RECORD_UNTHROTTLE,
					   0, &th, &sid, S->err);
	}
	case R_EXIT: {
		struct pm_rec_task tk = { .pid = r->pid, .ppid = r->pid,
					  .tid = r->tid, .ptid = r->tid,
					  .time = r->time };

		sid.event = NULL;
		sid.id = S->ev[0].id;
		return pm_writer__task(S->w, PM_RECORD_EXIT, 0, &tk, &sid, S->err);
	}
	}
	return 0;
}

/* Write the buffered records before `until` (all when until < 0). */
static int flush(struct sim *S, double until)
{
	uint64_t limit = until < 0 ? UINT64_MAX : TIME_BASE + (uint64_t)llround(until);
	size_t i, n = 0;

	if (S->failed)		/* past max_size: write no more */
		return -1;
	if (!S->nr_buf)
		return 0;
	qsort(S->buf, S->nr_buf, sizeof(*S->buf), cmp_rec);
	while (n < S->nr_buf && S->buf[n].time < limit)
		n++;
	for (i = 0; i < n; i++) {
		if (write_rec(S, &S->buf[i]))
			return -1;
		S->res->records++;
	}
	memmove(S->buf, S->buf + n, (S->nr_buf - n) * sizeof(*S->buf));
	S->nr_buf -= n;
	S->buffered = 0;
	for (i = 0; i < S->nr_buf; i++)
		if (S->buf[i].kind == R_SAMPLE)
			S->buffered += S->sample_bytes[S->ev[S->buf[i].event].sidx];
	if (n && pm_writer__finished_round(S->w, S->err))
		return -1;
	if (pm_writer__offset(S->w) > S->max_size)
		too_big(S, sim_now(S));
	return S->failed ? -1 : 0;
}

/* ---- setup ------------------------------------------------------------------ */

/* "cycles/period=3/" -> "cycles", "instructions:u" -> "instructions";
 * raw codes by the names the model's architecture gives them ("r3e" on
 * aarch64 -> "stall_slot_frontend"). */
static const char *hw_name(const struct pm_attr *a, const char *arch)
{
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branch-instructions", "branch-misses", "bus-cycles",
		"stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
	};

	if (a->type == 0 && a->config < PM_ARRAY_SIZE(hw))
		return hw[a->config];
	if (a->type == PM_TYPE_RAW)
		return pm_pmu_event__name(pm_pmu_family(arch), a->config);
	return NULL;
}

static int setup_events(struct sim *S, struct pm_evspec_list *list)
{
	struct pm_evspec_opts eo = { 0 };
	struct pm_record_defaults rd;
	size_t i;

	memset(&rd, 0, sizeof(rd));
	rd.callgraph = PM_CALLGRAPH_FP;
	rd.max_stack = S->max_stack;
	rd.sample_cpu = true;
	rd.timestamp = true;
	if (pm_evspec__parse(list, S->o->spec, &eo, S->err))
		return -1;
	if (pm_evspec__apply_record(list, &rd, S->err))
		return -1;
	if (list->nr > 0xffff)
		return pm_error__fmt(S->err, PM_EUSAGE, "too many events");
	S->nr_ev = list->nr;
	S->ev = pm_calloc(list->nr, sizeof(*S->ev));
	S->sampling = pm_calloc(list->nr, sizeof(*S->sampling));
	for (i = 0; i < list->nr; i++) {
		struct pm_evspec_event *e = &list->ev[i];
		struct sim_event *se = &S->ev[i];
		const char *name = hw_name(&e->attr, S->m->arch);
		char base[128];
		int s;

		if (!name) {
			snprintf(base, sizeof(base), "%.*s",
				 (int)strcspn(e->name, "/:"), e->name);
			name = base;
		}
		s = pm_sim_model__stream(S->m, name);
		if (s < 0)
			return pm_error__fmt(S->err, PM_EUSAGE,
					     "event '%s': the model has no '%s' (it has cycles, instructions and its per_ki events)",
					     e->name, name);
		se->stream = s;
		se->leader = e->group_leader;
		se->id = ID_BASE + i;
		se->sidx = -1;
		/* Every event carries PERIOD (the window a sample closes) and
		 * the samples are per thread. */
		e->attr.sample_type |= PM_SAMPLE_PERIOD;
		if (S->m->threads > 1)
			pm_attr__set_flag(&e->attr, PM_ATTR_INHERIT, true);
		if (e->attr.sample_period) {
			pm_period_config__from_attr(&se->pcfg, &e->attr,
						    e->hf_burst, e->hf_jitter);
			if (S->o->hz)
				se->pcfg.hz = S->o->hz;
			if (S->o->max_sample_rate)
				se->pcfg.max_sample_rate = (uint32_t)S->o->max_sample_rate;
			if (S->o->no_throttle)
				se->pcfg.max_sample_rate = 0;
			if (pm_period_config__validate(&se->pcfg, S->err))
				return -1;
			se->sidx = (int)S->nr_sampling;
			S->sampling[S->nr_sampling++] = i;
		}
	}
	for (i = 0; i < list->nr; i++) {
		size_t n = 0, k;

		for (k = 0; k < list->nr; k++)
			n += S->ev[k].leader == S->ev[i].leader;
		if (n > MAX_GROUP)
			return pm_error__fmt(S->err, PM_EUSAGE, "groups of at most %d events", MAX_GROUP);
	}
	if (!S->nr_sampling)
		return pm_error__fmt(S->err, PM_EUSAGE, "no event samples (give a period or a frequency)");
	return 0;
}

static int add_events(struct sim *S, struct pm_evspec_list *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++) {
		struct pm_evspec_event *e = &list->ev[i];
		struct pm_event ev;
		uint64_t id = S->ev[i].id;
		char gname[1];

		memset(&ev, 0, sizeof(ev));
		gname[0] = 0;
		ev.idx = (int)i;
		ev.attr = e->attr;
		ev.name = e->name;
		ev.ids = &id;
		ev.nr_ids = 1;
		ev.leader_idx = e->group_leader;
		ev.nr_members = e->group_leader == (int)i ? e->nr_members : 0;
		ev.group_name = e->nr_members > 1 && e->group_leader == (int)i ? gname : NULL;
		if (pm_writer__add_event(S->w, &ev, S->err) < 0)
			return -1;
	}
	return 0;
}

/* The ELF's layout: model functions, then the driver's. */
static int write_elf(struct sim *S, const struct pm_outfile *f)
{
	const struct pm_sim_model *m = S->m;
	struct pm_sim_elf_sym *syms;
	uint64_t a = TEXT_ADDR;
	size_t i;
	int ret;

	S->nr_addr = m->nr_funcs + NR_DRIVER;
	S->addr = pm_calloc(S->nr_addr, sizeof(*S->addr));
	S->size = pm_calloc(S->nr_addr, sizeof(*S->size));
	syms = pm_calloc(S->nr_addr, sizeof(*syms));
	for (i = 0; i < S->nr_addr; i++) {
		bool model = i < m->nr_funcs;

		S->addr[i] = a;
		S->size[i] = model ? m->funcs[i].size : 0x60;
		syms[i].name = model ? m->funcs[i].name : driver_names[i - m->nr_funcs];
		syms[i].addr = a;
		syms[i].size = S->size[i];
		a += (S->size[i] + 15) & ~15ULL;
	}
	ret = pm_sim_elf__write(pm_outfile__fd(f), pm_outfile__name(f),
				pm_sim_elf__machine(m->arch), TEXT_ADDR,
				a - TEXT_ADDR, syms, S->nr_addr, S->err);
	free(syms);
	return ret;
}

static int write_header_records(struct sim *S)
{
	const struct pm_sim_model *m = S->m;
	uint64_t text_len = S->addr[S->nr_addr - 1] + S->size[S->nr_addr - 1] - TEXT_ADDR;
	struct pm_rec_mmap mm;
	struct pm_rec_comm cm;
	struct pm_sample_id sid;
	char comm[16];
	size_t i;

	snprintf(comm, sizeof(comm), "%s", m->name);
	for (i = 0; i < S->nr_th; i++) {
		struct thread *t = &S->th[i];

		memset(&sid, 0, sizeof(sid));
		sid.pid = t->pid;
		sid.tid = t->tid;
		sid.time = TIME_BASE;
		sid.id = S->ev[0].id;
		sid.cpu = (uint32_t)t->cpu;
		if (i == 0) {
			cm = (struct pm_rec_comm){ .pid = t->pid, .tid = t->tid,
						   .exec = true, .comm = comm };
			if (pm_writer__comm(S->w, 0, &cm, &sid, S->err))
				return -1;
			memset(&mm, 0, sizeof(mm));
			mm.is_mmap2 = true;
			mm.pid = t->pid;
			mm.tid = t->tid;
			mm.start = TEXT_ADDR;
			mm.len = (text_len + 0xfff) & ~0xfffULL;
			mm.pgoff = 0x1000 + (TEXT_ADDR & 0xfff);
			mm.prot = 5;		/* PROT_READ | PROT_EXEC */
			mm.flags = 2;		/* MAP_PRIVATE */
			mm.filename = S->res->elf_path;
			if (pm_writer__mmap(S->w, PM_MISC_USER, &mm, &sid, S->err))
				return -1;
		} else {
			struct pm_rec_task tk = { .pid = t->pid, .ppid = S->th[0].pid,
						  .tid = t->tid, .ptid = S->th[0].tid,
						  .time = TIME_BASE };

			if (pm_writer__task(S->w, PM_RECORD_FORK, 0, &tk, &sid, S->err))
				return -1;
			cm = (struct pm_rec_comm){ .pid = t->pid, .tid = t->tid,
						   .comm = comm };
			if (pm_writer__comm(S->w, 0, &cm, &sid, S->err))
				return -1;
		}
	}
	return 0;
}

/*
 * An Arm model with slots describes its PMU as Linux does for a core with
 * PMMIR_EL1 (FEAT_PMUv3p4): caps/slots, which perf copies into PMU_CAPS
 * and the Arm top-down formulas divide by.
 */
static int set_pmu_caps(struct sim *S)
{
	char value[32], *name = "slots", *val = value;
	struct pm_pmu_caps caps = { .pmu = "armv8_pmuv3_0", .nr = 1,
				    .names = &name, .values = &val };

	if (!S->m->slots || pm_pmu_family(S->m->arch) != PM_PMU_FAMILY_ARM)
		return 0;
	snprintf(value, sizeof(value), "0x%08x", S->m->slots);
	return pm_writer__set_pmu_caps(S->w, &caps, 1, S->err);
}

static int set_features(struct sim *S)
{
	const struct pm_sim_model *m = S->m;
	const char *argv[3] = { "pmprof-sim", S->o->model_origin ? S->o->model_origin : m->name, NULL };

	if (pm_writer__set_string(S->w, PM_FEAT_HOSTNAME, "pmprof-sim", S->err) ||
	    pm_writer__set_string(S->w, PM_FEAT_OSRELEASE, "6.1.0-pmprof-sim", S->err) ||
	    pm_writer__set_string(S->w, PM_FEAT_VERSION, "6.1", S->err) ||
	    pm_writer__set_string(S->w, PM_FEAT_ARCH, m->arch, S->err) ||
	    pm_writer__set_string(S->w, PM_FEAT_CPUDESC, m->cpu, S->err) ||
	    pm_writer__set_nrcpus(S->w, m->cpus, m->cpus, S->err) ||
	    pm_writer__set_cmdline(S->w, 2, argv, S->err))
		return -1;
	return set_pmu_caps(S);
}

/*
 * What bounds a run: its simulated time, so that every count and clock
 * stays exact (estimated from the model's means, before anything runs),
 * and its output, which take_sample() and flush() hold to max_size with
 * each sampling event's SAMPLE size.
 */
static int setup_limits(struct sim *S)
{
	const struct pm_sim_model *m = S->m;
	uint32_t per_cpu = (m->threads + m->cpus - 1) / m->cpus;
	double cycles = 0, ns;
	size_t i, j, k;

	for (i = 0; i < m->nr_funcs; i++)
		cycles += m->funcs[i].calls *
			  pm_sim_dist__mean(&m->funcs[i].instructions) *
			  pm_sim_dist__mean(&m->funcs[i].cpi);
	cycles *= (double)S->iterations;
	ns = cycles * per_cpu / S->ghz;
	if (cycles > PM_SIM_MAX_CYCLES || ns > PM_SIM_MAX_CYCLES)
		return pm_error__fmt(S->err, S->o->iterations ? PM_EUSAGE : PM_EFORMAT,
			"%s %" PRIu64 " make about %.3g cycles per thread, %.3g s simulated per CPU: past the simulator's 2^53 (cycles and ns), where counts and clocks stop being exact; lower the iterations or the functions' instructions",
			S->o->iterations ? "--iterations" : "iterations",
			S->iterations, cycles, ns / 1e9);
	S->max_size = S->o->max_size ? S->o->max_size : PM_SIM_DEFAULT_MAX_SIZE;
	S->sample_bytes = pm_calloc(S->nr_sampling + 1, sizeof(*S->sample_bytes));
	for (j = 0; j < S->nr_sampling; j++) {
		struct pm_read_value vals[MAX_GROUP];
		struct pm_sample smp;
		struct rec r;
		int n;

		memset(&r, 0, sizeof(r));
		r.kind = R_SAMPLE;
		r.event = (uint16_t)S->sampling[j];
		for (k = 0; k < S->nr_ev; k++)
			if (S->ev[k].leader == S->ev[r.event].leader &&
			    r.nr_values < MAX_GROUP)
				r.nr_values++;
		r.nr_chain = 2;		/* the shortest: context, ip */
		fill_sample(S, &r, &smp, vals);
		n = pm_writer__sample_size(S->w, &smp, S->err);
		if (n < 0)
			return -1;
		S->sample_bytes[j] = (uint64_t)n;
	}
	return 0;
}

static void setup_threads(struct sim *S)
{
	const struct pm_sim_model *m = S->m;
	size_t i, j, ns = m->nr_streams, calls = 0;
	uint64_t seed = S->o->seed;

	for (i = 0; i < m->nr_funcs; i++)
		calls += m->funcs[i].calls;
	S->nr_th = m->threads;
	S->th = pm_calloc(S->nr_th, sizeof(*S->th));
	S->nr_cpus = m->cpus;
	S->cpus = pm_calloc(S->nr_cpus, sizeof(*S->cpus));
	for (i = 0; i < S->nr_cpus; i++)
		S->cpus[i].threads = pm_calloc(S->nr_th, sizeof(size_t));
	for (i = 0; i < S->nr_th; i++) {
		struct thread *t = &S->th[i];
		struct cpu *c = &S->cpus[i % S->nr_cpus];

		t->pid = FIRST_PID;
		t->tid = FIRST_PID + (uint32_t)i;
		t->cpu = (int)(i % S->nr_cpus);
		/* Independent streams per thread: the seed mixed with the
		 * thread's number. */
		t->rng = seed ^ (0x9e3779b97f4a7c15ULL * (i + 1));
		pm_splitmix64(&t->rng);
		t->order = pm_calloc(calls, sizeof(size_t));
		t->cur.total = pm_calloc(ns, sizeof(uint64_t));
		t->cur.done = pm_calloc(ns, sizeof(uint64_t));
		t->cur.phase = pm_calloc(ns, sizeof(uint64_t));
		t->saved.total = pm_calloc(ns, sizeof(uint64_t));
		t->saved.done = pm_calloc(ns, sizeof(uint64_t));
		t->saved.phase = pm_calloc(ns, sizeof(uint64_t));
		t->counter = pm_calloc(S->nr_ev, sizeof(uint64_t));
		t->stopped = pm_calloc(S->nr_sampling, sizeof(bool));
		t->period = pm_calloc(S->nr_sampling, sizeof(*t->period));
		t->pend = pm_calloc(S->nr_sampling, sizeof(*t->pend));
		t->since_sample = pm_calloc(ns, sizeof(uint64_t));
		for (j = 0; j < S->nr_sampling; j++) {
			struct pm_period_config cfg = S->ev[S->sampling[j]].pcfg;

			cfg.seed = seed * 0x100000001b3ULL + i * 64 + j + 1;
			pm_period__init(&t->period[j], &cfg);
		}
		new_iteration(S, t);
		call_setup(S, t, &t->cur, t->order[t->order_pos++]);
		c->threads[c->nr++] = i;
	}
	for (i = 0; i < S->nr_cpus; i++) {
		struct cpu *c = &S->cpus[i];

		c->next_tick = S->tick_ns;
		c->cur = c->nr ? c->nr - 1 : 0;	/* schedule() starts at 0 */
		if (c->nr)
			schedule(S, i);
	}
}

static void free_sim(struct sim *S)
{
	size_t i;

	for (i = 0; i < S->nr_th; i++) {
		struct thread *t = &S->th[i];

		free(t->order);
		free(t->cur.total);
		free(t->cur.done);
		free(t->cur.phase);
		free(t->saved.total);
		free(t->saved.done);
		free(t->saved.phase);
		free(t->counter);
		free(t->stopped);
		free(t->period);
		free(t->pend);
		free(t->since_sample);
	}
	for (i = 0; i < S->nr_cpus; i++)
		free(S->cpus[i].threads);
	free(S->th);
	free(S->cpus);
	free(S->ev);
	free(S->sampling);
	free(S->addr);
	free(S->size);
	free(S->buf);
	free(S->sample_bytes);
}

static void init_result(struct sim *S)
{
	const struct pm_sim_model *m = S->m;
	struct pm_sim_result *r = S->res;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->nr_streams = m->nr_streams;
	r->streams = (const char *const *)m->streams;
	r->nr_funcs = m->nr_funcs;
	r->funcs = pm_calloc(m->nr_funcs, sizeof(*r->funcs));
	for (i = 0; i < m->nr_funcs; i++) {
		r->funcs[i].name = m->funcs[i].name;
		r->funcs[i].counts = pm_calloc(m->nr_streams, sizeof(uint64_t));
		r->funcs[i].perturbation = pm_calloc(m->nr_streams, sizeof(uint64_t));
	}
	r->totals = pm_calloc(m->nr_streams, sizeof(uint64_t));
	r->tail = pm_calloc(m->nr_streams, sizeof(uint64_t));
}

void pm_sim_result__exit(struct pm_sim_result *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_funcs && r->funcs; i++) {
		free(r->funcs[i].counts);
		free(r->funcs[i].perturbation);
	}
	free(r->funcs);
	free(r->totals);
	free(r->tail);
	free(r->elf_path);
	memset(r, 0, sizeof(*r));
}

int pm_sim__run(const struct pm_sim_model *m, const struct pm_sim_opts *o,
		struct pm_sim_result *res, struct pm_error *err)
{
	struct pm_evspec_list list;
	struct pm_sim_outputs files = { 0 };
	struct sim S;
	struct pm_writer_opts wo = { .sz = sizeof(wo) };
	double round_end;
	size_t i, s;
	int ret = -1;

	memset(&S, 0, sizeof(S));
	S.m = m;
	S.o = o;
	S.res = res;
	S.err = err;
	S.max_stack = 0;
	S.iterations = o->iterations ? o->iterations : m->iterations;
	S.ghz = m->ghz;
	S.irq_ns = m->irq_cycles / m->ghz;
	S.slice_ns = m->timeslice_ms * 1e6;
	init_result(&S);
	pm_evspec_list__init(&list);
	if (!o->spec || !o->output) {
		pm_error__fmt(err, PM_EUSAGE, "an event spec and an output are needed");
		goto out;
	}
	if (setup_events(&S, &list))
		goto out;
	S.tick_ns = (double)NSEC_PER_SEC / S.ev[S.sampling[0]].pcfg.hz;
	ret = pm_sim_outputs__open(&files, o, m->name, err);
	res->elf_path = files.elf_path;
	if (ret || (ret = write_elf(&S, files.elf)))
		goto out;
	ret = pm_writer__open_fd(&S.w, pm_outfile__fd(files.data),
				 pm_outfile__name(files.data), &wo, err);
	if (ret)
		goto out;
	ret = -1;
	if (add_events(&S, &list) || set_features(&S) || setup_limits(&S))
		goto out;
	setup_threads(&S);
	if (write_header_records(&S))
		goto out;

	for (round_end = ROUND_NS;; round_end += ROUND_NS) {
		bool busy = false;

		if (round_end > PM_SIM_MAX_CYCLES) {	/* the estimate fell short */
			pm_error__fmt(err, PM_EFORMAT, "the run passes 2^53 ns of simulated time, where its clock stops being exact: lower the iterations");
			goto out;
		}
		for (i = 0; i < S.nr_cpus; i++) {
			run_cpu(&S, i, round_end);
			busy |= S.cpus[i].busy;
		}
		if (flush(&S, round_end))
			goto out;
		if (!busy)
			break;
	}
	if (flush(&S, -1))
		goto out;
	{
		uint64_t first = TIME_BASE, last = TIME_BASE;

		for (i = 0; i < S.nr_cpus; i++)
			if (TIME_BASE + (uint64_t)llround(S.cpus[i].now) > last)
				last = TIME_BASE + (uint64_t)llround(S.cpus[i].now);
		res->duration_ns = last - first;
		if (pm_writer__set_sample_time(S.w, first, last, err))
			goto out;
	}
	ret = pm_writer__close(S.w, err);	/* the fd stays files.data's */
	S.w = NULL;
	if (!ret) {
		struct stat st;

		if (!fstat(pm_outfile__fd(files.data), &st) && S_ISREG(st.st_mode))
			res->bytes = (uint64_t)st.st_size;
		else
			res->bytes = 0;
	}
	for (i = 0; i < res->nr_funcs; i++)
		for (s = 0; s < res->nr_streams; s++)
			res->totals[s] += res->funcs[i].counts[s];
	if (!ret && files.truth)
		ret = pm_sim_result__write_truth(res, m, o, pm_outfile__fd(files.truth),
						 pm_outfile__name(files.truth), err);
	if (!ret)
		ret = pm_sim_outputs__commit(&files, err);
out:
	pm_sim_outputs__abort(&files);
	if (S.w)
		pm_writer__delete(S.w);
	pm_evspec_list__exit(&list);
	free_sim(&S);
	return ret ? (err && err->code ? err->code : -1) : 0;
}
