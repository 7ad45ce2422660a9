// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread counts from READ records (perf report -T), see
 * pmprof/thread_counts.h.
 */
#include <stdlib.h>
#include <string.h>

#include "pmprof/hash.h"
#include "pmprof/records.h"
#include "pmprof/report.h"
#include "pmprof/table.h"
#include "pmprof/thread_counts.h"
#include "pmprof/util.h"

struct tc_thread {
	uint32_t pid, tid;
	uint64_t *counts;		/* by event index */
	size_t nr_counts;
};

struct pm_thread_counts {
	struct tc_thread *threads;	/* in the order first read */
	size_t nr, alloc;
	struct pm_hash index;
	bool *read;			/* by event index: has a READ value */
	size_t nr_read;
	size_t *order;			/* event indices in the order first
					   read (perf's columns) */
	size_t nr_order, alloc_order;
	uint64_t nr_reads;
};

struct pm_thread_counts *pm_thread_counts__new(void)
{
	return pm_zalloc(sizeof(struct pm_thread_counts));
}

void pm_thread_counts__delete(struct pm_thread_counts *tc)
{
	if (!tc)
		return;
	for (size_t i = 0; i < tc->nr; i++)
		free(tc->threads[i].counts);
	free(tc->threads);
	pm_hash__release(&tc->index);
	free(tc->read);
	free(tc->order);
	free(tc);
}

uint64_t pm_thread_counts__nr_reads(const struct pm_thread_counts *tc)
{
	return tc->nr_reads;
}

static uint64_t thread_key(uint32_t pid, uint32_t tid)
{
	return pm_hash64((uint64_t)pid << 32 | tid);
}

static uint64_t thread_hash(const void *arg, size_t i)
{
	const struct tc_thread *t = &((const struct tc_thread *)arg)[i];

	return thread_key(t->pid, t->tid);
}

static struct tc_thread *thread_of(struct pm_thread_counts *tc, uint32_t pid,
				   uint32_t tid)
{
	size_t s = PM_HASH_FIND(&tc->index, thread_key(pid, tid), i,
				tc->threads[i].pid == pid && tc->threads[i].tid == tid);

	if (!pm_hash__empty(&tc->index, s))
		return &tc->threads[pm_hash__at(&tc->index, s)];
	pm_hash__reserve(&tc->index, tc->nr, thread_hash, tc->threads);
	s = PM_HASH_FIND(&tc->index, thread_key(pid, tid), i, false);
	PM_GROW(tc->threads, tc->alloc, tc->nr + 1);
	tc->threads[tc->nr] = (struct tc_thread){ .pid = pid, .tid = tid };
	pm_hash__set(&tc->index, s, tc->nr);
	return &tc->threads[tc->nr++];
}

static void add_count(struct pm_thread_counts *tc, struct tc_thread *t,
		      size_t idx, uint64_t v)
{
	if (idx >= t->nr_counts) {
		size_t had = t->nr_counts;

		PM_GROW(t->counts, t->nr_counts, idx + 1);
		memset(t->counts + had, 0, (t->nr_counts - had) * sizeof(*t->counts));
	}
	if (idx >= tc->nr_read) {
		size_t had = tc->nr_read;

		PM_GROW(tc->read, tc->nr_read, idx + 1);
		memset(tc->read + had, 0, (tc->nr_read - had) * sizeof(*tc->read));
	}
	t->counts[idx] += v;
	if (!tc->read[idx]) {
		PM_GROW(tc->order, tc->alloc_order, tc->nr_order + 1);
		tc->order[tc->nr_order++] = idx;
	}
	tc->read[idx] = true;
}

/* Member i of a group read: the event its id names, else the one that
 * far after the leader (the attrs section lists a group in order). */
static const struct pm_event *member_event(struct pm_reader *r,
					   const struct pm_rec_read *rd,
					   const struct pm_read_value *v, uint64_t i)
{
	const struct pm_event *ev = NULL;
	uint64_t idx = (uint64_t)rd->event->leader_idx + i;

	if (rd->read_format & PM_FORMAT_ID)
		ev = pm_reader__event_by_id(r, v->id);
	if (!ev && idx < pm_reader__nr_events(r))
		ev = pm_reader__event(r, (size_t)idx);
	return ev;
}

int pm_thread_counts__record(struct pm_thread_counts *tc, struct pm_reader *r,
			     const struct pm_record *rec, struct pm_error *err)
{
	struct pm_rec_read rd;
	struct tc_thread *t;
	int ret;

	if (rec->type != PM_RECORD_READ)
		return 0;
	ret = pm_rec__read(r, rec, &rd, err);
	if (ret)
		return ret;
	if (!rd.event)		/* a recording without events: nothing to name */
		return 0;
	tc->nr_reads++;
	t = thread_of(tc, rd.pid, rd.tid);
	if (!(rd.read_format & PM_FORMAT_GROUP)) {
		add_count(tc, t, (size_t)rd.event->idx, rd.value.value);
		return 0;
	}
	for (uint64_t i = 0; i < rd.nr; i++) {
		struct pm_read_value v;
		const struct pm_event *ev;

		pm_rec_read__member(r, &rd, i, &v);
		ev = member_event(r, &rd, &v, i);
		if (ev)
			add_count(tc, t, (size_t)ev->idx, v.value);
	}
	return 0;
}

void pm_thread_counts__finish(struct pm_thread_counts *tc, struct pm_reader *r,
			      struct pm_report *rep)
{
	static const char why[] = "no READ records in this recording: per-thread counts "
				  "need `record -s` (--stat) of a workload with child threads";
	struct pm_table *t = pm_table__new();

	pm_table__set_name(t, "threads");
	pm_table__set_caption(t, "Per-thread counts (READ records):");
	pm_table__set_flags(t, PM_TABLE_PERF_HEADER);
	pm_table__add_col(t, "PID", "pid", PM_COL_U64);
	pm_table__add_col(t, "TID", "tid", PM_COL_U64);
	/* column 2 + k is event order[k] */
	for (size_t k = 0; k < tc->nr_order; k++) {
		const struct pm_event *ev = pm_reader__event(r, tc->order[k]);
		struct pm_table_column c = { .type = PM_COL_U64, .group = "counts" };

		c.name = c.key = ev ? ev->name : "?";
		pm_table__add_column(t, &c);
	}
	for (size_t i = 0; i < tc->nr; i++) {
		const struct tc_thread *th = &tc->threads[i];
		size_t row = pm_table__add_row(t);

		pm_table__set_u64(t, row, 0, th->pid);
		pm_table__set_u64(t, row, 1, th->tid);
		for (size_t k = 0; k < tc->nr_order; k++) {
			size_t e = tc->order[k];

			pm_table__set_u64(t, row, 2 + k, e < th->nr_counts ? th->counts[e] : 0);
		}
	}
	pm_summary__add_u64(pm_table__summary(t), "read_records", NULL, tc->nr_reads);
	if (!tc->nr_reads) {
		pm_table__add_comment(t, "%s", why);
		pm_report__add_warning(rep, "%s", why);
	}
	pm_report__add_table(rep, t);
}

/* ---- beside another analysis ---- */

static int with_sample(void *x, struct pm_session *s, const struct pm_sample_ctx *ctx,
		       struct pm_error *err)
{
	struct pm_with_threads *wt = x;

	return wt->inner->sample ? wt->inner->sample(wt->x, s, ctx, err) : 0;
}

static int with_record(void *x, struct pm_session *s, const struct pm_record *rec,
		       struct pm_error *err)
{
	struct pm_with_threads *wt = x;
	int ret = pm_thread_counts__record(wt->tc, pm_session__reader(s), rec, err);

	if (ret || !wt->inner->record)
		return ret;
	return wt->inner->record(wt->x, s, rec, err);
}

static int with_finish(void *x, struct pm_session *s, struct pm_report **out,
		       struct pm_error *err)
{
	struct pm_with_threads *wt = x;
	int ret = wt->inner->finish(wt->x, s, out, err);

	if (!ret)
		pm_thread_counts__finish(wt->tc, pm_session__reader(s), *out);
	return ret;
}

const struct pm_analysis pm_with_threads_analysis = {
	.name = "threads",
	.sample = with_sample,
	.record = with_record,
	.finish = with_finish,
};
