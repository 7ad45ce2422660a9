/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A directory recording's parts, as dir.c (merge) and decode.c (batches,
 * decoder threads) share them. A part's records are decoded in batches:
 * each record with its merge key (its time, else the last time before it
 * in its part), mapped bytes referenced in place, decompressed ones copied
 * into the batch. A part's records go through a reorder window on the
 * way, so that each batch holds them in key order even where the kernel
 * wrote one a little out of time order (an interrupt's sample between the
 * time and the write of another record). dir.c hands the records out in
 * key order; decode.c makes the batches, in the caller's thread or ahead
 * of it in decoder threads. Batches are the same either way, so the
 * records and their order are.
 */
#ifndef PMPROF_PERFDATA_DIR_INT_H
#define PMPROF_PERFDATA_DIR_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

struct pm_batch_rec {
	uint64_t key;
	uint64_t offset, zoffset, extra_size;
	const uint8_t *data, *extra;
	uint32_t type;
	uint16_t misc, size;
	bool compressed;
};

struct pm_batch {
	struct pm_batch *next;		/* in a ready queue or the free list */
	struct pm_batch_rec *recs;
	size_t nr;
	uint8_t *bytes;			/* copies of decompressed records */
	size_t bytes_len;
	bool end;			/* the part has no records after these */
	int ret;			/* < 0: the part failed after them */
	struct pm_error err;
};

/* A record held in a part's reorder window. */
struct pm_held {
	struct pm_batch_rec r;
	uint8_t *copy;			/* a decompressed record's bytes */
};

struct pm_part {
	struct pm_stream *st;		/* &reader->main for part 0 */
	struct pm_stream own;		/* a data.N file's */
	char name[32];

	/* decoding (one thread at a time) */
	uint64_t last_key;		/* the key of untimed records */
	struct pm_held *window;		/* a ring, sorted by key */
	size_t held_first, nr_held;
	bool st_end;			/* the stream has no more records */
	int st_ret;			/* < 0: it failed there */
	struct pm_error st_err;

	/* handing out (the reader's thread) */
	struct pm_batch *cur;
	size_t idx;
	uint64_t out_key;		/* the key of the last one out */

	/* decoder threads (decode.c, under its lock) */
	struct pm_batch *ready, *ready_tail;
	unsigned int nr_ready;
	bool busy;			/* a thread decodes its next batch */
	bool all_decoded;		/* its last batch is made */
};

struct pm_decoders;

struct pm_dir {
	const struct pm_reader *r;
	struct pm_part *parts;
	size_t nr_parts;
	uint32_t *heap;			/* parts with records left, by head key */
	size_t heap_nr;
	struct pm_batch *release;	/* to recycle at the next call */
	struct pm_batch *free_batches;	/* without decoder threads */
	struct pm_decoders *dec;	/* NULL: decode in the reader's thread */
	int decode_threads;		/* as asked (pm_reader_opts) */
};

/* Start decoding: threads (nr > 0) or none. */
void pm_decode__start(struct pm_dir *d, unsigned int nr);
/* Stop and join the threads; every batch back to the free lists. */
void pm_decode__stop(struct pm_dir *d);
/* Part p's next batch (waits for a decoder thread to make it). */
struct pm_batch *pm_decode__next_batch(struct pm_dir *d, struct pm_part *p);
/* A batch whose records have all been handed out. */
void pm_decode__put_batch(struct pm_dir *d, struct pm_batch *b);
unsigned int pm_decode__nr_threads(const struct pm_dir *d);
/* Threads to use: opts and PMPROF_DECODE_THREADS, the parts, the CPUs. */
unsigned int pm_decode__choose_threads(const struct pm_dir *d);
void pm_decode__free_list(struct pm_batch *b);
/* What decoding keeps for a part (its reorder window). */
void pm_decode__release_part(struct pm_part *p);

#endif
