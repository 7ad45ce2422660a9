// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator's output: the ELF it maps, the events and features, the
 * header records, and each round's records (produced per CPU, merged in
 * time order) through the writer, a FINISHED_ROUND after each round.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/bytes.h"
#include "pmprof/pmu_events.h"
#include "pmprof/symbols.h"
#include "pmprof/util.h"
#include "sim-int.h"
#include "sim-run.h"

static const char *const driver_names[NR_DRIVER] = {
	"main", "run_behaviours", "run_one", "nest_1", "nest_2", "nest_3",
};

/* ---- output ------------------------------------------------------------- */

static int cmp_rec(const void *a, const void *b)
{
	const struct sim_rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The SAMPLE of r (vals: room for MAX_GROUP values). */
void pm_sim_out__fill_sample(const struct sim *S, const struct sim_rec *r,
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

static int write_rec(struct sim *S, const struct sim_rec *r)
{
	const struct pm_event *ev = pm_writer__event(S->w, r->event);
	struct pm_sample_id sid = { .event = ev, .pid = r->pid, .tid = r->tid,
				    .time = r->time, .id = S->ev[r->event].id,
				    .cpu = r->cpu };

	switch (r->kind) {
	case R_SAMPLE: {
		struct pm_read_value vals[MAX_GROUP];
		struct pm_sample s;

		pm_sim_out__fill_sample(S, r, &s, vals);
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
int pm_sim_out__flush(struct sim *S, double until)
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
		pm_sim__too_big(S, pm_sim__now(S));
	return S->failed ? -1 : 0;
}

int pm_sim_out__add_events(struct sim *S, struct pm_evspec_list *list)
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
int pm_sim_out__write_elf(struct sim *S, const struct pm_outfile *f)
{
	const struct pm_sim_model *m = S->m;
	struct pm_elf_sym *syms;
	struct pm_elf_image img = { .big_endian = PM_HOST_BIG_ENDIAN,
				    .text_addr = TEXT_ADDR };
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
	img.machine = pm_sim_elf__machine(m->arch);
	img.text_size = a - TEXT_ADDR;
	img.syms = syms;
	img.nr_syms = S->nr_addr;
	ret = pm_elf__write(pm_outfile__fd(f), pm_outfile__name(f), &img, S->err);
	free(syms);
	return ret;
}

int pm_sim_out__header_records(struct sim *S)
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
		struct sim_thread *t = &S->th[i];

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

int pm_sim_out__features(struct sim *S)
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
