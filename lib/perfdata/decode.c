// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding a directory recording's parts in batches: each record's
 * bounds checked, compressed records inflated, each record's merge key
 * (its timestamp) read, when the merge needs a part's next records.
 */
#include <stdlib.h>
#include <string.h>

#include "dir-int.h"
#include "pmprof/bytes.h"
#include "pmprof/util.h"

#define BATCH_RECS 4096
#define BATCH_BYTES (1u << 20)

static struct pm_batch *batch_new(void)
{
	struct pm_batch *b = pm_zalloc(sizeof(*b));

	b->recs = pm_calloc(BATCH_RECS, sizeof(*b->recs));
	return b;
}

void pm_decode__free_list(struct pm_batch *b)
{
	while (b) {
		struct pm_batch *next = b->next;

		free(b->recs);
		free(b->bytes);
		free(b);
		b = next;
	}
}

/* Part p's next records into b: up to BATCH_RECS, or until the copies of
 * decompressed ones could overflow b->bytes, or the part ends. */
static void decode(const struct pm_reader *r, struct pm_part *p,
		   struct pm_batch *b)
{
	b->next = NULL;
	b->nr = 0;
	b->bytes_len = 0;
	b->end = false;
	b->ret = 0;
	while (b->nr < BATCH_RECS && b->bytes_len <= BATCH_BYTES - 65536) {
		struct pm_batch_rec *br = &b->recs[b->nr];
		struct pm_error terr;
		struct pm_record rec;
		uint64_t t;
		int ret = pm_stream__next(r, p->st, &rec, &b->err);

		if (ret <= 0) {
			b->end = true;
			b->ret = ret;
			return;
		}
		br->data = rec.data;
		if (rec.compressed) {
			/* valid only until the stream's next record */
			if (!b->bytes)
				b->bytes = pm_malloc(BATCH_BYTES);
			memcpy(b->bytes + b->bytes_len, rec.data, rec.size);
			br->data = b->bytes + b->bytes_len;
			b->bytes_len += pm_align8(rec.size);
		}
		/* A record without a time (or too short for its trailer,
		 * which its parse will say) stays where it is in its part. */
		if (pm_reader__record_time(r, &rec, &t, &terr) == 1)
			p->last_key = t;
		br->key = p->last_key;
		br->offset = rec.offset;
		br->zoffset = rec.zoffset;
		br->extra = rec.extra;
		br->extra_size = rec.extra_size;
		br->type = rec.type;
		br->misc = rec.misc;
		br->size = rec.size;
		br->compressed = rec.compressed;
		b->nr++;
	}
}

void pm_decode__start(struct pm_dir *d)
{
	size_t k;

	for (k = 0; k < d->nr_parts; k++)
		d->parts[k].last_key = 0;
}

struct pm_batch *pm_decode__next_batch(struct pm_dir *d, struct pm_part *p)
{
	struct pm_batch *b = d->free_batches;

	if (b)
		d->free_batches = b->next;
	else
		b = batch_new();
	decode(d->r, p, b);
	return b;
}

void pm_decode__put_batch(struct pm_dir *d, struct pm_batch *b)
{
	b->next = d->free_batches;
	d->free_batches = b;
}
