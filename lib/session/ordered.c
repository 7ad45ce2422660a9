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
 * Queued records are copied into per-round buffers, freed when all of
 * their records have been delivered. When too much is queued (a file
 * without rounds), the older half is delivered early, as perf does.
 */
#include <stdlib.h>
#include <string.h>

#include "pmprof/util.h"
#include "session/internal.h"

#define MAX_QUEUED_BYTES (512u << 20)

struct oe_buf {
	uint8_t *data;
	size_t len, alloc;
	size_t pending;		/* records not yet delivered */
};

struct oe_entry {
	uint64_t time, seq;
	struct oe_buf *buf;
	size_t off;
	struct pm_record rec;	/* data set at delivery */
};

void pm_oe__init(struct pm_oe *oe)
{
	memset(oe, 0, sizeof(*oe));
}

static void buf_put(struct pm_oe *oe, struct oe_buf *b)
{
	if (--b->pending > 0 || b == oe->cur)
		return;
	free(b->data);
	free(b);
}

/* Start a new buffer, so the old one can go once delivered. */
static void seal(struct pm_oe *oe)
{
	struct oe_buf *b = oe->cur;

	if (!b)
		return;
	oe->cur = NULL;
	if (--b->pending == 0) {
		free(b->data);
		free(b);
	}
}

void pm_oe__free(struct pm_oe *oe)
{
	seal(oe);
	for (size_t i = 0; i < oe->nr; i++)
		buf_put(oe, oe->q[i].buf);
	free(oe->q);
	memset(oe, 0, sizeof(*oe));
}

void pm_oe__queue(struct pm_oe *oe, const struct pm_record *rec, uint64_t time)
{
	struct oe_entry *e;
	struct oe_buf *b = oe->cur;

	if (!b) {
		b = oe->cur = pm_zalloc(sizeof(*b));
		b->pending = 1;		/* the writer's own reference */
	}
	PM_GROW(b->data, b->alloc, b->len + rec->size);
	memcpy(b->data + b->len, rec->data, rec->size);
	PM_GROW(oe->q, oe->alloc, oe->nr + 1);
	e = &oe->q[oe->nr++];
	e->time = time;
	e->seq = oe->seq++;
	e->buf = b;
	e->off = b->len;
	e->rec = *rec;
	e->rec.data = NULL;
	e->rec.extra = NULL;
	e->rec.extra_size = 0;
	b->len += rec->size;
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

int pm_oe__flush(struct pm_oe *oe, uint64_t limit, pm_oe_deliver_fn fn,
		 void *arg)
{
	size_t n = 0, i;
	int ret = 0;

	seal(oe);
	if (!oe->nr)
		return 0;
	qsort(oe->q, oe->nr, sizeof(*oe->q), cmp_entry);
	while (n < oe->nr && oe->q[n].time <= limit)
		n++;
	for (i = 0; i < n && !ret; i++) {
		struct oe_entry *e = &oe->q[i];

		e->rec.data = e->buf->data + e->off;
		ret = fn(&e->rec, arg);
		oe->bytes -= e->rec.size;
		buf_put(oe, e->buf);
	}
	memmove(oe->q, oe->q + i, (oe->nr - i) * sizeof(*oe->q));
	oe->nr -= i;
	if (!ret && i)
		oe->last_flush = limit;
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
	seal(oe);
	qsort(oe->q, oe->nr, sizeof(*oe->q), cmp_entry);
	return pm_oe__flush(oe, oe->q[oe->nr / 2].time, fn, arg);
}
