// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding a directory recording's parts in batches: each record's
 * bounds checked, compressed records inflated, each record's merge key
 * (its timestamp) read. Either in the reader's thread when the merge needs
 * a part's next batch, or ahead of it by decoder threads, so that the
 * walking, inflating and page faulting of the files runs beside the
 * caller's own work on the records (symbols, sums, output).
 *
 * A part is decoded by one thread at a time, in order, into batches made
 * the same way in both modes: the records, their keys and so the merged
 * order never depend on the threads. Each part has at most DEPTH batches
 * decoded ahead; a thread takes the part with the fewest, which is the one
 * the merge needs next. When the merge needs a batch no thread has begun
 * (the threads are behind, or not scheduled on a loaded machine), the
 * reader's thread decodes it itself rather than wait: decoder threads cost
 * CPU time, never much wall time.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dir-int.h"
#include "pmprof/bytes.h"
#include "pmprof/util.h"

#define BATCH_RECS 4096
#define BATCH_BYTES (1u << 20)
/* Records a part's reorder window holds: a record written up to this
 * many places after later ones still comes out in time order. */
#define WINDOW 256
#define DEPTH 2
/* Below this much data, starting threads buys nothing. */
#define THREADS_MIN_BYTES (4u << 20)
#define MAX_THREADS 64

struct pm_decoders {
	pthread_mutex_t lock;
	pthread_cond_t work;		/* a part may take another batch */
	pthread_cond_t ready;		/* a batch is ready */
	bool stop;
	struct pm_batch *free;
	unsigned int nr;
	pthread_t threads[];
};

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

static void held_swap(struct pm_held *a, struct pm_held *b)
{
	struct pm_held t = *a;

	*a = *b;
	*b = t;
}

static struct pm_held *slot(struct pm_part *p, size_t i)
{
	return &p->window[(p->held_first + i) % WINDOW];
}

/*
 * Into the window, which is kept sorted by key (records mostly come in
 * order: a new one usually stays last; one that came early moves back
 * past the later ones, and equal keys keep their file order). A
 * decompressed record's bytes are copied: the stream's buffer moves on
 * with its next record.
 */
static void hold(const struct pm_reader *r, struct pm_part *p,
		 const struct pm_record *rec)
{
	struct pm_held *h = slot(p, p->nr_held);
	struct pm_error terr;
	size_t i;
	uint64_t t;

	/* A record without a time (or too short for its trailer, which
	 * its parse will say) keeps its place after the one before it. */
	if (pm_reader__record_time(r, rec, &t, &terr) == 1)
		p->last_key = t;
	h->r = (struct pm_batch_rec){
		.key = p->last_key, .offset = rec->offset,
		.zoffset = rec->zoffset, .extra_size = rec->extra_size,
		.data = rec->data, .extra = rec->extra, .type = rec->type,
		.misc = rec->misc, .size = rec->size,
		.compressed = rec->compressed,
	};
	if (rec->compressed) {
		if (!h->copy)
			h->copy = pm_malloc(65536);	/* a record's most */
		memcpy(h->copy, rec->data, rec->size);
		h->r.data = h->copy;
	}
	for (i = p->nr_held++; i && slot(p, i - 1)->r.key > slot(p, i)->r.key; i--)
		held_swap(slot(p, i - 1), slot(p, i));
}

/* Out of the window: its first record, into b. */
static void emit(struct pm_part *p, struct pm_batch *b)
{
	struct pm_held *h = slot(p, 0);
	struct pm_batch_rec *br = &b->recs[b->nr++];

	*br = h->r;
	if (br->compressed) {
		if (!b->bytes)
			b->bytes = pm_malloc(BATCH_BYTES);
		memcpy(b->bytes + b->bytes_len, h->copy, br->size);
		br->data = b->bytes + b->bytes_len;
		b->bytes_len += pm_align8(br->size);
	}
	p->held_first = (p->held_first + 1) % WINDOW;
	p->nr_held--;
}

/*
 * Part p's next records into b, in key order through the window: up to
 * BATCH_RECS, or until the copies of decompressed ones could overflow
 * b->bytes, or the part ends (after every record before its end or the
 * error that ended it).
 */
static void decode(const struct pm_reader *r, struct pm_part *p,
		   struct pm_batch *b)
{
	b->next = NULL;
	b->nr = 0;
	b->bytes_len = 0;
	b->end = false;
	b->ret = 0;
	if (!p->window)
		p->window = pm_calloc(WINDOW, sizeof(*p->window));
	while (b->nr < BATCH_RECS && b->bytes_len <= BATCH_BYTES - 65536) {
		while (!p->st_end && p->nr_held < WINDOW) {
			struct pm_record rec;
			int ret = pm_stream__next(r, p->st, &rec, &p->st_err);

			if (ret <= 0) {
				p->st_end = true;
				p->st_ret = ret;
				break;
			}
			hold(r, p, &rec);
		}
		if (!p->nr_held) {
			b->end = true;
			b->ret = p->st_ret;
			if (b->ret < 0)
				b->err = p->st_err;
			return;
		}
		emit(p, b);
	}
}

void pm_decode__release_part(struct pm_part *p)
{
	size_t i;

	for (i = 0; p->window && i < WINDOW; i++)
		free(p->window[i].copy);
	free(p->window);
	p->window = NULL;
}

/* The part a decoder thread should work on: the fewest batches ready. */
static struct pm_part *pick(struct pm_dir *d)
{
	struct pm_part *best = NULL;
	size_t i;

	for (i = 0; i < d->nr_parts; i++) {
		struct pm_part *p = &d->parts[i];

		if (p->busy || p->all_decoded || p->nr_ready >= DEPTH)
			continue;
		if (!best || p->nr_ready < best->nr_ready)
			best = p;
	}
	return best;
}

/* Decode part p's next batch, the lock held on entry and on return but
 * not while decoding; p is no other thread's meanwhile (busy). */
static struct pm_batch *decode_unlocked(struct pm_dir *d, struct pm_part *p)
{
	struct pm_decoders *dec = d->dec;
	struct pm_batch *b = dec->free;

	p->busy = true;
	if (b)
		dec->free = b->next;
	pthread_mutex_unlock(&dec->lock);
	if (!b)
		b = batch_new();
	decode(d->r, p, b);
	pthread_mutex_lock(&dec->lock);
	p->busy = false;
	p->all_decoded = b->end;
	return b;
}

static void *decoder(void *arg)
{
	struct pm_dir *d = arg;
	struct pm_decoders *dec = d->dec;
	struct pm_part *p;
	struct pm_batch *b;

	pthread_mutex_lock(&dec->lock);
	for (;;) {
		while (!dec->stop && !(p = pick(d)))
			pthread_cond_wait(&dec->work, &dec->lock);
		if (dec->stop)
			break;
		b = decode_unlocked(d, p);
		if (p->ready_tail)
			p->ready_tail->next = b;
		else
			p->ready = b;
		p->ready_tail = b;
		p->nr_ready++;
		pthread_cond_broadcast(&dec->ready);
	}
	pthread_mutex_unlock(&dec->lock);
	return NULL;
}

void pm_decode__start(struct pm_dir *d, unsigned int nr)
{
	struct pm_decoders *dec;
	unsigned int i;
	size_t k;

	for (k = 0; k < d->nr_parts; k++) {
		struct pm_part *p = &d->parts[k];

		p->last_key = 0;
		p->nr_held = 0;
		p->held_first = 0;
		p->st_end = false;
		p->st_ret = 0;
		p->ready = p->ready_tail = NULL;
		p->nr_ready = 0;
		p->busy = p->all_decoded = false;
	}
	d->dec = NULL;
	if (!nr)
		return;
	dec = pm_zalloc(sizeof(*dec) + nr * sizeof(dec->threads[0]));
	pthread_mutex_init(&dec->lock, NULL);
	pthread_cond_init(&dec->work, NULL);
	pthread_cond_init(&dec->ready, NULL);
	dec->free = d->free_batches;
	d->free_batches = NULL;
	d->dec = dec;
	for (i = 0; i < nr; i++) {
		if (pthread_create(&dec->threads[i], NULL, decoder, d))
			break;	/* fewer threads; none: the caller decodes */
		dec->nr++;
	}
	if (!dec->nr)
		pm_decode__stop(d);
}

void pm_decode__stop(struct pm_dir *d)
{
	struct pm_decoders *dec = d->dec;
	unsigned int i;
	size_t k;

	if (!dec)
		return;
	pthread_mutex_lock(&dec->lock);
	dec->stop = true;
	pthread_cond_broadcast(&dec->work);
	pthread_mutex_unlock(&dec->lock);
	for (i = 0; i < dec->nr; i++)
		pthread_join(dec->threads[i], NULL);
	/* What was decoded ahead goes back to the free list. */
	for (k = 0; k < d->nr_parts; k++) {
		struct pm_part *p = &d->parts[k];

		while (p->ready) {
			struct pm_batch *b = p->ready;

			p->ready = b->next;
			b->next = dec->free;
			dec->free = b;
		}
		p->ready_tail = NULL;
		p->nr_ready = 0;
	}
	d->free_batches = dec->free;
	pthread_mutex_destroy(&dec->lock);
	pthread_cond_destroy(&dec->work);
	pthread_cond_destroy(&dec->ready);
	free(dec);
	d->dec = NULL;
}

struct pm_batch *pm_decode__next_batch(struct pm_dir *d, struct pm_part *p)
{
	struct pm_decoders *dec = d->dec;
	struct pm_batch *b;

	if (!dec) {
		b = d->free_batches;
		if (b)
			d->free_batches = b->next;
		else
			b = batch_new();
		decode(d->r, p, b);
		return b;
	}
	pthread_mutex_lock(&dec->lock);
	if (!p->ready && !p->busy) {
		/* Nobody is at it: do it here, as the threads would. */
		b = decode_unlocked(d, p);
		pthread_cond_broadcast(&dec->work);
		pthread_mutex_unlock(&dec->lock);
		b->next = NULL;
		return b;
	}
	while (!p->ready)
		pthread_cond_wait(&dec->ready, &dec->lock);
	b = p->ready;
	p->ready = b->next;
	if (!p->ready)
		p->ready_tail = NULL;
	p->nr_ready--;
	pthread_cond_broadcast(&dec->work);
	pthread_mutex_unlock(&dec->lock);
	b->next = NULL;
	return b;
}

void pm_decode__put_batch(struct pm_dir *d, struct pm_batch *b)
{
	struct pm_decoders *dec = d->dec;

	if (!dec) {
		b->next = d->free_batches;
		d->free_batches = b;
		return;
	}
	pthread_mutex_lock(&dec->lock);
	b->next = dec->free;
	dec->free = b;
	pthread_mutex_unlock(&dec->lock);
}

unsigned int pm_decode__nr_threads(const struct pm_dir *d)
{
	return d->dec ? d->dec->nr : 0;
}

unsigned int pm_decode__choose_threads(const struct pm_dir *d)
{
	const char *env = getenv("PMPROF_DECODE_THREADS");
	uint64_t bytes = 0;
	size_t i, busy = 0;
	long n = d->decode_threads, cpus;

	for (i = 0; i < d->nr_parts; i++) {
		uint64_t size = d->parts[i].st->data_end - d->parts[i].st->first_record;

		bytes += size;
		busy += size > 0;
	}
	if (n < 0)
		return 0;
	if (!n && env && *env) {
		char *end;
		long v = strtol(env, &end, 10);

		if (!*end && v >= 0)
			n = v ? v : -1;
	}
	if (n < 0)
		return 0;
	if (!n) {
		/* A decoder thread pays only on a CPU nobody else wants
		 * (bench/run.sh, section dir: on a busy machine threads cost
		 * CPU time and buy no wall time). */
		double load = 0;

		cpus = sysconf(_SC_NPROCESSORS_ONLN);
		if (cpus < 2 || bytes < THREADS_MIN_BYTES)
			return 0;
		if (getloadavg(&load, 1) == 1)
			cpus -= (long)(load + 0.999);
		if (cpus < 1)
			return 0;
		n = cpus;
	}
	if ((size_t)n > busy)
		n = (long)busy;
	return (unsigned int)PM_MIN(n, MAX_THREADS);
}
