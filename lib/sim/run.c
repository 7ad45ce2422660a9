// SPDX-License-Identifier: GPL-2.0
/*
 * A simulator run: the events from the spec, the run's limits, the
 * threads and CPUs, then round after round (10 ms of simulated time) the
 * CPU model (cpu.c) runs every CPU and the output (emit.c) writes what it
 * produced; the truth and the files last.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pmprof/attr.h"
#include "pmprof/pmu_events.h"
#include "pmprof/util.h"
#include "sim-int.h"
#include "sim-run.h"

/* ---- setup ------------------------------------------------------------------ */

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
		/* "cycles/period=3/" -> "cycles", "instructions:u" -> "instructions";
		 * raw codes by the names the model's architecture gives them
		 * ("r3e" on aarch64 -> "stall_slot_frontend") */
		const char *name = e->attr.type == PM_TYPE_HARDWARE ?
				   pm_event_name__of(e->attr.type, e->attr.config) :
				   e->attr.type == PM_TYPE_RAW ?
				   pm_pmu_event__name(pm_pmu_family(S->m->arch), e->attr.config) :
				   NULL;
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

/*
 * What bounds a run: its simulated time, so that every count and clock
 * stays exact (estimated from the model's means, before anything runs),
 * and its output, which take_sample() and pm_sim_out__flush() hold to max_size with
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
		struct sim_rec r;
		int n;

		memset(&r, 0, sizeof(r));
		r.kind = R_SAMPLE;
		r.event = (uint16_t)S->sampling[j];
		for (k = 0; k < S->nr_ev; k++)
			if (S->ev[k].leader == S->ev[r.event].leader &&
			    r.nr_values < MAX_GROUP)
				r.nr_values++;
		r.nr_chain = 2;		/* the shortest: context, ip */
		pm_sim_out__fill_sample(S, &r, &smp, vals);
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
		struct sim_thread *t = &S->th[i];
		struct sim_cpu *c = &S->cpus[i % S->nr_cpus];

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
		pm_sim_thread__start(S, t);
		c->threads[c->nr++] = i;
	}
	for (i = 0; i < S->nr_cpus; i++) {
		struct sim_cpu *c = &S->cpus[i];

		c->next_tick = S->tick_ns;
		c->cur = c->nr ? c->nr - 1 : 0;	/* schedule() starts at 0 */
		if (c->nr)
			pm_sim_cpu__schedule(S, i);
	}
}

static void free_sim(struct sim *S)
{
	size_t i;

	for (i = 0; i < S->nr_th; i++) {
		struct sim_thread *t = &S->th[i];

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

int pm_sim__run(const struct pm_sim_model *m, const struct pm_sim_opts *opts,
		struct pm_sim_result *res, struct pm_error *err)
{
	static const struct pm_sim_opts defaults;
	const struct pm_sim_opts *o;
	struct pm_evspec_list list;
	struct pm_sim_outputs files = { 0 };
	struct sim S;
	struct pm_writer_opts wo = { .sz = sizeof(wo) };
	double round_end;
	size_t i, s;
	int ret = -1;

	memset(&S, 0, sizeof(S));
	S.m = m;
	PM_OPTS_COPY(&S.opts, opts, defaults);
	S.o = o = &S.opts;
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
	if (ret || (ret = pm_sim_out__write_elf(&S, files.elf)))
		goto out;
	ret = pm_writer__open_fd(&S.w, pm_outfile__fd(files.data),
				 pm_outfile__name(files.data), &wo, err);
	if (ret)
		goto out;
	ret = -1;
	if (pm_sim_out__add_events(&S, &list) || pm_sim_out__features(&S) ||
	    setup_limits(&S))
		goto out;
	setup_threads(&S);
	if (pm_sim_out__header_records(&S))
		goto out;

	for (round_end = ROUND_NS;; round_end += ROUND_NS) {
		bool busy = false;

		if (round_end > PM_SIM_MAX_CYCLES) {	/* the estimate fell short */
			pm_error__fmt(err, PM_EFORMAT, "the run passes 2^53 ns of simulated time, where its clock stops being exact: lower the iterations");
			goto out;
		}
		for (i = 0; i < S.nr_cpus; i++) {
			pm_sim_cpu__run(&S, i, round_end);
			busy |= S.cpus[i].busy;
		}
		if (pm_sim_out__flush(&S, round_end))
			goto out;
		if (!busy)
			break;
	}
	if (pm_sim_out__flush(&S, -1))
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
