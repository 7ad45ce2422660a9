// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator's CPU: threads run the model's calls; every recording
 * event counts its model stream; sampling events overflow through the
 * period model (pmprof/period.h); interrupts land after the skid, cost CPU
 * time and may perturb the interrupted function; ticks unthrottle. The
 * records it produces wait in S->buf for emit.c.
 *
 * Within a call every stream progresses in proportion to cycles: after p
 * of its C cycles, stream s has counted floor((E_s x p + phase) / C) of
 * its E_s events, the phase drawn per call (0 for cycles). So an overflow
 * point is exact: the first p where the sampling stream's count reaches
 * the window.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/bytes.h"
#include "pmprof/util.h"
#include "sim-int.h"
#include "sim-run.h"

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
static uint64_t count_at(const struct sim_call *c, size_t s, uint64_t p)
{
	if (p >= c->cycles)
		return c->total[s];
	return (uint64_t)(((unsigned __int128)c->total[s] * p + c->phase[s]) / c->cycles);
}

/* Each stream's phase in a call just set up (cycles: none). */
static void draw_phases(struct sim *S, struct sim_thread *t, struct sim_call *c)
{
	size_t s;

	c->phase[PM_SIM_CYCLES] = 0;
	for (s = 1; s < S->m->nr_streams; s++)
		c->phase[s] = below(&t->rng, c->cycles);
}

static struct sim_rec *new_rec(struct sim *S, int kind, size_t cpu, double now)
{
	struct sim_rec *r;

	PM_GROW(S->buf, S->alloc_buf, S->nr_buf + 1);
	r = &S->buf[S->nr_buf++];
	memset(r, 0, offsetof(struct sim_rec, values));
	r->kind = (uint8_t)kind;
	r->cpu = (uint32_t)cpu;
	r->seq = S->seq++;
	r->time = TIME_BASE + (uint64_t)llround(now);
	return r;
}

/* The latest CPU clock, ns since TIME_BASE. */
double pm_sim__now(const struct sim *S)
{
	double now = 0;
	size_t i;

	for (i = 0; i < S->nr_cpus; i++)
		if (S->cpus[i].now > now)
			now = S->cpus[i].now;
	return now;
}

/* The run stops here: its output would pass max_size. */
void pm_sim__too_big(struct sim *S, double now)
{
	if (S->failed)
		return;
	S->failed = pm_error__fmt(S->err, EFBIG,
		"the output would pass --max-size (%" PRIu64 " bytes) after %.3f s simulated: raise --max-size, or lower the iterations or the sampling rate",
		S->max_size, now / 1e9);
}

/* ---- calls ------------------------------------------------------------ */

static void call_setup(struct sim *S, struct sim_thread *t, struct sim_call *c,
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

static void new_iteration(struct sim *S, struct sim_thread *t)
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

void pm_sim_thread__start(struct sim *S, struct sim_thread *t)
{
	new_iteration(S, t);
	call_setup(S, t, &t->cur, t->order[t->order_pos++]);
}

/* Move to the thread's next call; false when the thread is done. */
static bool next_call(struct sim *S, struct sim_thread *t)
{
	if (t->has_saved) {
		struct sim_call tmp = t->cur;

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

static void fill_chain(struct sim *S, struct sim_thread *t, struct sim_rec *r)
{
	const struct sim_call *c = &t->cur;
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

static void perturb(struct sim *S, struct sim_thread *t)
{
	const struct pm_sim_func *f = &S->m->funcs[t->cur.func];
	struct sim_call *c;
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
		struct sim_call tmp = t->cur;

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
static void take_sample(struct sim *S, struct sim_thread *t, size_t cpu, size_t j)
{
	struct sim_cpu *C = &S->cpus[cpu];
	struct sim_pending *p = &t->pend[j];
	size_t e = S->sampling[j], k, s;
	struct sim_rec *r;

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
		pm_sim__too_big(S, C->now);
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
static void advance(struct sim *S, struct sim_thread *t, size_t cpu, uint64_t dp)
{
	struct sim_call *c = &t->cur;
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
static uint64_t cycles_to_overflow(struct sim *S, struct sim_thread *t, size_t j)
{
	const struct sim_call *c = &t->cur;
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
	struct sim_cpu *C = &S->cpus[cpu];
	struct sim_thread *t;
	size_t j;

	if (!C->busy)
		return;
	t = &S->th[C->threads[C->cur]];
	for (j = 0; j < S->nr_sampling; j++) {
		struct pm_tick tk;

		pm_period__tick(&t->period[j], TIME_BASE + (uint64_t)llround(when), &tk);
		if (tk.unthrottle) {
			struct sim_rec *r = new_rec(S, R_UNTHROTTLE, cpu, when);

			r->event = (uint16_t)S->sampling[j];
			r->pid = t->pid;
			r->tid = t->tid;
			t->stopped[j] = false;
			S->res->unthrottles++;
		}
	}
}

/* Pick the next unfinished thread of the CPU (round robin). */
void pm_sim_cpu__schedule(struct sim *S, size_t cpu)
{
	struct sim_cpu *C = &S->cpus[cpu];
	size_t i;

	C->busy = false;
	for (i = 1; i <= C->nr; i++) {
		size_t k = (C->cur + i) % C->nr;

		if (!S->th[C->threads[k]].finished) {
			struct sim_thread *t = &S->th[C->threads[k]];
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

static void thread_exit(struct sim *S, struct sim_thread *t, size_t cpu)
{
	struct sim_rec *r = new_rec(S, R_EXIT, cpu, S->cpus[cpu].now);
	size_t s;

	r->pid = t->pid;
	r->tid = t->tid;
	t->finished = true;
	for (s = 0; s < S->m->nr_streams; s++)
		S->res->tail[s] += t->since_sample[s];
}

/* Run a CPU until its clock reaches `until` or it has nothing to run. */
void pm_sim_cpu__run(struct sim *S, size_t cpu, double until)
{
	struct sim_cpu *C = &S->cpus[cpu];

	while (C->busy && C->now < until && !S->failed) {
		struct sim_thread *t = &S->th[C->threads[C->cur]];
		double bound = C->next_tick;
		uint64_t step, x;
		size_t j;

		if (C->now >= C->next_tick) {
			tick(S, cpu, C->next_tick);
			C->next_tick += S->tick_ns;
			continue;
		}
		if (C->nr > 1 && C->now >= C->slice_end) {
			pm_sim_cpu__schedule(S, cpu);
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
				pm_sim_cpu__schedule(S, cpu);
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
