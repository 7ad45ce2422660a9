// SPDX-License-Identifier: GPL-2.0
/*
 * Time order, as perf report delivers records. perf writes each CPU's ring
 * buffer in turn, so with several CPUs the file is only ordered in pieces:
 * a sample can precede the MMAP (from another CPU) that it needs. Records
 * with a timestamp are queued; at each FINISHED_ROUND the queued records
 * up to the newest timestamp of the previous round are delivered in time
 * order (equal times keep file order), and the rest at the end. Records
 * without a timestamp, and perf's own records, go through at once.
 *
 * Records of a mapped file are queued where they lie. Others (pipes,
 * decompressed records) are copied into fixed-size chunks, each freed when all of
 * its records have been delivered; queue entries are small, as they are
 * sorted. When too much is queued (a file without rounds), the older half
 * is delivered early, as perf does.
 */
#include <stdlib.h>
#include <string.h>

#include "pmprof/util.h"
#include "session/internal.h"

#define CHUNK_SIZE (1u << 20)
#define MAX_QUEUED_BYTES (512u << 20)

struct oe_buf {
	size_t len;
	size_t pending;		/* records not yet delivered (+1 while open) */
	uint8_t data[];
};

struct oe_entry {
	uint64_t time, seq;
	uint64_t offset, zoffset;	/* the record's */
	uint8_t *data;
	struct oe_buf *buf;
	uint32_t part;
	uint32_t type;
	uint16_t misc, size;
	bool compressed;
};

void pm_oe__init(struct pm_oe *oe)
{
	memset(oe, 0, sizeof(*oe));
}

static void buf_put(struct oe_buf *b)
{
	if (b && --b->pending == 0)
		free(b);
}

/* Stop filling the current chunk; it goes once its records are out. */
static void seal(struct pm_oe *oe)
{
	if (oe->cur) {
		buf_put(oe->cur);
		oe->cur = NULL;
	}
}

void pm_oe__free(struct pm_oe *oe)
{
	seal(oe);
	for (size_t i = 0; i < oe->nr; i++)
		buf_put(oe->q[i].buf);
	free(oe->q);
	memset(oe, 0, sizeof(*oe));
}

void pm_oe__queue(struct pm_oe *oe, const struct pm_record *rec, uint64_t time,
		  bool stable)
{
	struct oe_entry *e;
	struct oe_buf *b = oe->cur;

	if (stable) {
		/* The bytes outlive the queue (a mapped file): no copy. */
		PM_GROW(oe->q, oe->alloc, oe->nr + 1);
		e = &oe->q[oe->nr++];
		*e = (struct oe_entry){
			.time = time, .seq = oe->seq++, .offset = rec->offset,
			.zoffset = rec->zoffset, .data = (uint8_t *)rec->data,
			.part = rec->part, .type = rec->type, .misc = rec->misc, .size = rec->size,
			.compressed = rec->compressed,
		};
		oe->bytes += rec->size;
		if (time > oe->max_time)
			oe->max_time = time;
		return;
	}
	if (b && b->len + rec->size > CHUNK_SIZE)
		seal(oe), b = NULL;
	if (!b) {
		b = oe->cur = pm_malloc(sizeof(*b) + CHUNK_SIZE);
		b->len = 0;
		b->pending = 1;
	}
	PM_GROW(oe->q, oe->alloc, oe->nr + 1);
	e = &oe->q[oe->nr++];
	e->time = time;
	e->seq = oe->seq++;
	e->offset = rec->offset;
	e->zoffset = rec->zoffset;
	e->data = b->data + b->len;
	e->buf = b;
	e->part = rec->part;
	e->type = rec->type;
	e->misc = rec->misc;
	e->size = rec->size;
	e->compressed = rec->compressed;
	memcpy(e->data, rec->data, rec->size);
	b->len += (rec->size + 7u) & ~7u;	/* keep records 8-aligned */
	b->pending++;
	oe->bytes += rec->size;
	if (time > oe->max_time)
		oe->max_time = time;
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct oe_entry *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Records mostly arrive in order (one CPU, or one busy one): check
 * before paying for a sort. */
static void sort_queue(struct pm_oe *oe)
{
	size_t i;

	for (i = 1; i < oe->nr; i++)
		if (cmp_entry(&oe->q[i - 1], &oe->q[i]) > 0)
			break;
	if (i < oe->nr)
		qsort(oe->q, oe->nr, sizeof(*oe->q), cmp_entry);
}

int pm_oe__flush(struct pm_oe *oe, uint64_t limit, pm_oe_deliver_fn fn,
		 void *arg)
{
	size_t n = 0, i;
	int ret = 0;

	if (!oe->nr)
		return 0;
	sort_queue(oe);
	while (n < oe->nr && oe->q[n].time <= limit)
		n++;
	for (i = 0; i < n && !ret; i++) {
		struct oe_entry *e = &oe->q[i];
		struct pm_record rec = {
			.offset = e->offset, .zoffset = e->zoffset, .compressed = e->compressed,
			.part = e->part, .type = e->type, .misc = e->misc, .size = e->size,
			.data = e->data,
		};

		ret = fn(&rec, arg);
		oe->bytes -= e->size;
		buf_put(e->buf);
	}
	memmove(oe->q, oe->q + i, (oe->nr - i) * sizeof(*oe->q));
	oe->nr -= i;
	return ret;
}

int pm_oe__round(struct pm_oe *oe, pm_oe_deliver_fn fn, void *arg)
{
	int ret = pm_oe__flush(oe, oe->next_flush, fn, arg);

	oe->next_flush = oe->max_time;
	return ret;
}

int pm_oe__maybe_half(struct pm_oe *oe, pm_oe_deliver_fn fn, void *arg)
{
	if (oe->bytes < MAX_QUEUED_BYTES || oe->nr < 2)
		return 0;
	sort_queue(oe);
	return pm_oe__flush(oe, oe->q[oe->nr / 2].time, fn, arg);
}
