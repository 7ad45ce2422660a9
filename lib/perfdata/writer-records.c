// SPDX-License-Identifier: GPL-2.0
/*
 * Typed records: each built in the writer's scratch buffer in the output
 * order, its header.size patched, then streamed out. Strings are padded
 * with NULs to 8 bytes, as the kernel does.
 */
#include <string.h>

#include "pmprof/bytes.h"
#include "pmprof/util.h"
#include "writer-int.h"

const struct pm_event *pm_writer__sid_event(const struct pm_writer *w,
					    const struct pm_event *ev)
{
	if (!w->nr_events)
		return NULL;
	if (ev >= w->events && ev < w->events + w->nr_events)
		return ev;
	if (ev && ev->idx >= 0 && (size_t)ev->idx < w->nr_events)
		return &w->events[ev->idx];
	return &w->events[0];
}

size_t pm_writer__trailer_size(const struct pm_event *ev)
{
	uint64_t st;
	size_t n = 0;

	if (!ev || !pm_attr__flag(&ev->attr, PM_ATTR_SAMPLE_ID_ALL))
		return 0;
	st = ev->attr.sample_type;
	n += st & PM_SAMPLE_TID ? 8 : 0;
	n += st & PM_SAMPLE_TIME ? 8 : 0;
	n += st & PM_SAMPLE_ID ? 8 : 0;
	n += st & PM_SAMPLE_STREAM_ID ? 8 : 0;
	n += st & PM_SAMPLE_CPU ? 8 : 0;
	n += st & PM_SAMPLE_IDENTIFIER ? 8 : 0;
	return n;
}

static int begin(struct pm_writer *w, struct pm_error *err)
{
	return w->begun && !w->failed ? 0 : pm_writer__begin(w, err);
}

/* The sample_id_all trailer, then out. */
static int finish_rec(struct pm_writer *w, const struct pm_sample_id *sid,
		      struct pm_error *err)
{
	const struct pm_event *ev = pm_writer__sid_event(w, sid ? sid->event : NULL);
	static const struct pm_sample_id zero;
	struct pm_bytebuf *b = &w->rec;
	bool s = w->swap;
	uint64_t st;

	if (pm_writer__trailer_size(ev)) {
		if (!sid)
			sid = &zero;
		st = ev->attr.sample_type;
		if (st & PM_SAMPLE_TID) {
			pm_bytebuf__u32(b, sid->pid, s);
			pm_bytebuf__u32(b, sid->tid, s);
		}
		if (st & PM_SAMPLE_TIME)
			pm_bytebuf__u64(b, sid->time, s);
		if (st & PM_SAMPLE_ID)
			pm_bytebuf__u64(b, sid->id, s);
		if (st & PM_SAMPLE_STREAM_ID)
			pm_bytebuf__u64(b, sid->stream_id, s);
		if (st & PM_SAMPLE_CPU) {
			pm_bytebuf__u32(b, sid->cpu, s);
			pm_bytebuf__u32(b, sid->cpu_res, s);
		}
		if (st & PM_SAMPLE_IDENTIFIER)
			pm_bytebuf__u64(b, sid->id, s);
	}
	return pm_writer__emit_rec(w, err);
}

/* A NUL-terminated string padded to 8 bytes. */
static void string8(struct pm_bytebuf *b, const char *str)
{
	size_t n = strlen(str) + 1;

	memcpy(pm_bytebuf__grow(b, pm_align8(n)), str, n - 1);
}

int pm_writer__mmap(struct pm_writer *w, uint16_t misc,
		    const struct pm_rec_mmap *m, const struct pm_sample_id *sid,
		    struct pm_error *err)
{
	struct pm_bytebuf *b = &w->rec;
	bool s = w->swap;
	int ret = begin(w, err);
	uint8_t *p;

	if (ret)
		return ret;
	if (m->is_mmap2 && m->has_build_id)
		misc |= PM_MISC_MMAP_BUILD_ID;
	pm_writer__rec_start(w, m->is_mmap2 ? PM_RECORD_MMAP2 : PM_RECORD_MMAP,
			     misc);
	pm_bytebuf__u32(b, m->pid, s);
	pm_bytebuf__u32(b, m->tid, s);
	pm_bytebuf__u64(b, m->start, s);
	pm_bytebuf__u64(b, m->len, s);
	pm_bytebuf__u64(b, m->pgoff, s);
	if (m->is_mmap2) {
		if (m->has_build_id) {
			p = pm_bytebuf__grow(b, 24);
			p[0] = m->build_id_size;
			memcpy(p + 4, m->build_id, 20);
		} else {
			pm_bytebuf__u32(b, m->maj, s);
			pm_bytebuf__u32(b, m->min, s);
			pm_bytebuf__u64(b, m->ino, s);
			pm_bytebuf__u64(b, m->ino_generation, s);
		}
		pm_bytebuf__u32(b, m->prot, s);
		pm_bytebuf__u32(b, m->flags, s);
	}
	string8(b, m->filename ? m->filename : "");
	return finish_rec(w, sid, err);
}

int pm_writer__comm(struct pm_writer *w, uint16_t misc,
		    const struct pm_rec_comm *c, const struct pm_sample_id *sid,
		    struct pm_error *err)
{
	int ret = begin(w, err);

	if (ret)
		return ret;
	pm_writer__rec_start(w, PM_RECORD_COMM,
			     misc | (c->exec ? PM_MISC_COMM_EXEC : 0));
	pm_bytebuf__u32(&w->rec, c->pid, w->swap);
	pm_bytebuf__u32(&w->rec, c->tid, w->swap);
	string8(&w->rec, c->comm ? c->comm : "");
	return finish_rec(w, sid, err);
}

int pm_writer__task(struct pm_writer *w, uint32_t type, uint16_t misc,
		    const struct pm_rec_task *t, const struct pm_sample_id *sid,
		    struct pm_error *err)
{
	int ret;

	if (type != PM_RECORD_FORK && type != PM_RECORD_EXIT)
		return pm_error__fmt(err, PM_EUSAGE,
				     "task record of type %u: FORK or EXIT only", type);
	ret = begin(w, err);
	if (ret)
		return ret;
	pm_writer__rec_start(w, type, misc);
	pm_bytebuf__u32(&w->rec, t->pid, w->swap);
	pm_bytebuf__u32(&w->rec, t->ppid, w->swap);
	pm_bytebuf__u32(&w->rec, t->tid, w->swap);
	pm_bytebuf__u32(&w->rec, t->ptid, w->swap);
	pm_bytebuf__u64(&w->rec, t->time, w->swap);
	return finish_rec(w, sid, err);
}

int pm_writer__lost(struct pm_writer *w, uint16_t misc,
		    const struct pm_rec_lost *l, const struct pm_sample_id *sid,
		    struct pm_error *err)
{
	int ret = begin(w, err);

	if (ret)
		return ret;
	pm_writer__rec_start(w, PM_RECORD_LOST, misc);
	pm_bytebuf__u64(&w->rec, l->id, w->swap);
	pm_bytebuf__u64(&w->rec, l->lost, w->swap);
	return finish_rec(w, sid, err);
}

int pm_writer__lost_samples(struct pm_writer *w, uint16_t misc,
			    const struct pm_rec_lost_samples *l,
			    const struct pm_sample_id *sid,
			    struct pm_error *err)
{
	int ret = begin(w, err);

	if (ret)
		return ret;
	pm_writer__rec_start(w, PM_RECORD_LOST_SAMPLES, misc);
	pm_bytebuf__u64(&w->rec, l->lost, w->swap);
	return finish_rec(w, sid, err);
}

int pm_writer__throttle(struct pm_writer *w, uint32_t type, uint16_t misc,
			const struct pm_rec_throttle *t,
			const struct pm_sample_id *sid, struct pm_error *err)
{
	int ret;

	if (type != PM_RECORD_THROTTLE && type != PM_RECORD_UNTHROTTLE)
		return pm_error__fmt(err, PM_EUSAGE,
				     "throttle record of type %u: THROTTLE or UNTHROTTLE only",
				     type);
	ret = begin(w, err);
	if (ret)
		return ret;
	pm_writer__rec_start(w, type, misc);
	pm_bytebuf__u64(&w->rec, t->time, w->swap);
	pm_bytebuf__u64(&w->rec, t->id, w->swap);
	pm_bytebuf__u64(&w->rec, t->stream_id, w->swap);
	return finish_rec(w, sid, err);
}

int pm_writer__finished_round(struct pm_writer *w, struct pm_error *err)
{
	int ret = begin(w, err);

	if (ret)
		return ret;
	pm_writer__rec_start(w, PM_RECORD_FINISHED_ROUND, 0);
	return pm_writer__emit_rec(w, err);
}

int pm_writer__id_index(struct pm_writer *w,
			const struct pm_id_index_entry *e, uint64_t nr,
			struct pm_error *err)
{
	uint64_t i;
	int ret;

	if (nr > (UINT16_MAX - 16) / 32)
		return pm_error__fmt(err, PM_EUNSUP,
				     "ID_INDEX of %llu entries does not fit one record",
				     (unsigned long long)nr);
	ret = begin(w, err);
	if (ret)
		return ret;
	pm_writer__rec_start(w, PM_RECORD_ID_INDEX, 0);
	pm_bytebuf__u64(&w->rec, nr, w->swap);
	for (i = 0; i < nr; i++) {
		pm_bytebuf__u64(&w->rec, e[i].id, w->swap);
		pm_bytebuf__u64(&w->rec, e[i].idx, w->swap);
		pm_bytebuf__u64(&w->rec, e[i].cpu, w->swap);
		pm_bytebuf__u64(&w->rec, e[i].tid, w->swap);
	}
	return pm_writer__emit_rec(w, err);
}

int pm_writer__raw(struct pm_writer *w, const void *rec, size_t len,
		   struct pm_error *err)
{
	int ret;

	if (len < 8 || len > UINT16_MAX ||
	    pm_load16((const uint8_t *)rec + 6, w->swap) != len)
		return pm_error__fmt(err, PM_EUSAGE,
				     "raw record of %zu bytes whose header.size disagrees",
				     len);
	ret = begin(w, err);
	if (ret)
		return ret;
	return pm_writer__emit_record(w, rec, len, err);
}

/* ---- SAMPLE --------------------------------------------------------- */

static const struct pm_event *sample_event(const struct pm_writer *w,
					   const struct pm_sample *s)
{
	uint64_t id;
	size_t i;
	uint32_t k;

	if (s->event || !w->nr_events)
		return pm_writer__sid_event(w, s->event);
	id = s->sample_type & PM_SAMPLE_IDENTIFIER ? s->identifier : s->id;
	for (i = 0; i < w->nr_events; i++)
		for (k = 0; k < w->events[i].nr_ids; k++)
			if (w->events[i].ids[k] == id)
				return &w->events[i];
	return &w->events[0];
}

static int regs(struct pm_bytebuf *b, const struct pm_regs *r, uint64_t mask,
		const char *what, bool s, struct pm_error *err)
{
	uint32_t i, want = (uint32_t)__builtin_popcountll(mask);

	pm_bytebuf__u64(b, r->abi, s);
	if (!r->abi)
		return 0;
	if (r->nr != want || (want && !r->regs))
		return pm_error__fmt(err, PM_EUSAGE,
				     "%s: %u registers given, the mask 0x%llx has %u",
				     what, r->nr, (unsigned long long)mask, want);
	for (i = 0; i < want; i++)
		pm_bytebuf__u64(b, r->regs[i], s);
	return 0;
}

/* Build the SAMPLE in w->rec; pm_writer__sample emits it. */
static int build_sample(struct pm_writer *w, const struct pm_sample *s,
			struct pm_error *err)
{
	const struct pm_event *ev = sample_event(w, s);
	const struct pm_attr *a = ev ? &ev->attr : NULL;
	uint64_t st = s->sample_type, rf = a ? a->read_format : 0, i;
	struct pm_bytebuf *b = &w->rec;
	bool sw = w->swap;
	uint16_t misc = s->misc;
	int ret;

	if (!(misc & PM_MISC_CPUMODE_MASK))
		misc |= s->cpumode & PM_MISC_CPUMODE_MASK;
	pm_writer__rec_start(w, PM_RECORD_SAMPLE, misc);
	if (st & PM_SAMPLE_IDENTIFIER)
		pm_bytebuf__u64(b, s->identifier, sw);
	if (st & PM_SAMPLE_IP)
		pm_bytebuf__u64(b, s->ip, sw);
	if (st & PM_SAMPLE_TID) {
		pm_bytebuf__u32(b, s->pid, sw);
		pm_bytebuf__u32(b, s->tid, sw);
	}
	if (st & PM_SAMPLE_TIME)
		pm_bytebuf__u64(b, s->time, sw);
	if (st & PM_SAMPLE_ADDR)
		pm_bytebuf__u64(b, s->addr, sw);
	if (st & PM_SAMPLE_ID)
		pm_bytebuf__u64(b, s->id, sw);
	if (st & PM_SAMPLE_STREAM_ID)
		pm_bytebuf__u64(b, s->stream_id, sw);
	if (st & PM_SAMPLE_CPU) {
		pm_bytebuf__u32(b, s->cpu, sw);
		pm_bytebuf__u32(b, s->cpu_res, sw);
	}
	if (st & PM_SAMPLE_PERIOD)
		pm_bytebuf__u64(b, s->period, sw);
	if (st & PM_SAMPLE_READ) {
		uint64_t nr = rf & PM_FORMAT_GROUP ? s->read.nr : 1;

		if (nr && !s->read.values)
			return pm_error__fmt(err, PM_EUSAGE,
					     "sample READ without values");
		if (rf & PM_FORMAT_GROUP)
			pm_bytebuf__u64(b, nr, sw);
		else
			pm_bytebuf__u64(b, s->read.values[0].value, sw);
		if (rf & PM_FORMAT_TOTAL_TIME_ENABLED)
			pm_bytebuf__u64(b, s->read.time_enabled, sw);
		if (rf & PM_FORMAT_TOTAL_TIME_RUNNING)
			pm_bytebuf__u64(b, s->read.time_running, sw);
		for (i = 0; i < nr; i++) {
			const struct pm_read_value *v = &s->read.values[i];

			if (nr > UINT16_MAX / 8)
				break;	/* caught by the size check below */
			if (rf & PM_FORMAT_GROUP)
				pm_bytebuf__u64(b, v->value, sw);
			if (rf & PM_FORMAT_ID)
				pm_bytebuf__u64(b, v->id, sw);
			if (rf & PM_FORMAT_LOST)
				pm_bytebuf__u64(b, v->lost, sw);
		}
		if (nr > UINT16_MAX / 8)
			goto too_big;
	}
	if (st & PM_SAMPLE_CALLCHAIN) {
		if (s->callchain_nr > UINT16_MAX / 8)
			goto too_big;
		pm_bytebuf__u64(b, s->callchain_nr, sw);
		for (i = 0; i < s->callchain_nr; i++)
			pm_bytebuf__u64(b, s->callchain[i], sw);
	}
	if (st & PM_SAMPLE_RAW) {
		/* Pad so that the u32 size and the data end on 8 bytes. */
		uint32_t padded = (uint32_t)(pm_align8(4ULL + s->raw_size) - 4);

		if (s->raw_size > UINT16_MAX)
			goto too_big;
		pm_bytebuf__u32(b, padded, sw);
		memcpy(pm_bytebuf__grow(b, padded), s->raw, s->raw_size);
	}
	if (st & PM_SAMPLE_BRANCH_STACK) {
		if (s->branch_nr > UINT16_MAX / 24)
			goto too_big;
		pm_bytebuf__u64(b, s->branch_nr, sw);
		if (a && (a->branch_sample_type & PM_BRANCH_HW_INDEX))
			pm_bytebuf__u64(b, s->branch_hw_idx, sw);
		for (i = 0; i < s->branch_nr; i++) {
			pm_bytebuf__u64(b, s->branches[i].from, sw);
			pm_bytebuf__u64(b, s->branches[i].to, sw);
			pm_bytebuf__u64(b, s->branches[i].flags, sw);
		}
	}
	if (st & PM_SAMPLE_REGS_USER) {
		ret = regs(b, &s->regs_user, a ? a->sample_regs_user : 0,
			   "REGS_USER", sw, err);
		if (ret)
			return ret;
	}
	if (st & PM_SAMPLE_STACK_USER) {
		if (s->stack_user_size % 8)
			return pm_error__fmt(err, PM_EUSAGE,
					     "STACK_USER of %llu bytes: the kernel writes multiples of 8",
					     (unsigned long long)s->stack_user_size);
		if (s->stack_user_size > UINT16_MAX)
			goto too_big;
		pm_bytebuf__u64(b, s->stack_user_size, sw);
		if (s->stack_user_size) {
			pm_bytebuf__add(b, s->stack_user, s->stack_user_size);
			pm_bytebuf__u64(b, s->stack_user_dyn_size, sw);
		}
	}
	if (st & (PM_SAMPLE_WEIGHT | PM_SAMPLE_WEIGHT_STRUCT))
		pm_bytebuf__u64(b, s->weight, sw);
	if (st & PM_SAMPLE_DATA_SRC)
		pm_bytebuf__u64(b, s->data_src, sw);
	if (st & PM_SAMPLE_TRANSACTION)
		pm_bytebuf__u64(b, s->transaction, sw);
	if (st & PM_SAMPLE_REGS_INTR) {
		ret = regs(b, &s->regs_intr, a ? a->sample_regs_intr : 0,
			   "REGS_INTR", sw, err);
		if (ret)
			return ret;
	}
	if (st & PM_SAMPLE_PHYS_ADDR)
		pm_bytebuf__u64(b, s->phys_addr, sw);
	if (st & PM_SAMPLE_CGROUP)
		pm_bytebuf__u64(b, s->cgroup, sw);
	if (st & PM_SAMPLE_DATA_PAGE_SIZE)
		pm_bytebuf__u64(b, s->data_page_size, sw);
	if (st & PM_SAMPLE_CODE_PAGE_SIZE)
		pm_bytebuf__u64(b, s->code_page_size, sw);
	if (st & PM_SAMPLE_AUX) {
		if (s->aux_size % 8)
			return pm_error__fmt(err, PM_EUSAGE,
					     "AUX sample of %llu bytes: the kernel writes multiples of 8",
					     (unsigned long long)s->aux_size);
		if (s->aux_size > UINT16_MAX)
			goto too_big;
		pm_bytebuf__u64(b, s->aux_size, sw);
		pm_bytebuf__add(b, s->aux, s->aux_size);
	}
	if (b->len > UINT16_MAX)
		goto too_big;
	return 0;
too_big:
	return pm_error__fmt(err, PM_EUNSUP,
			     "the sample does not fit a record (at most 65535 bytes)");
}

int pm_writer__sample_size(struct pm_writer *w, const struct pm_sample *s,
			   struct pm_error *err)
{
	int ret = build_sample(w, s, err);

	return ret ? ret : (int)w->rec.len;
}

int pm_writer__sample(struct pm_writer *w, const struct pm_sample *s,
		      struct pm_error *err)
{
	int ret = begin(w, err);

	if (!ret)
		ret = build_sample(w, s, err);
	if (!ret)
		ret = pm_writer__emit_rec(w, err);
	return ret;
}
