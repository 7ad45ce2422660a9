// SPDX-License-Identifier: GPL-2.0
/*
 * A perf ring buffer: one metadata page then 2^n data pages. The kernel
 * advances data_head; we read records between data_tail and data_head and
 * then publish the new tail. A record that wraps past the end of the data
 * area is copied into a bounce buffer so callers always see it whole.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "record-int.h"
#include "pmprof/util.h"

int pm_ring__map(struct pm_ring *rb, int fd, unsigned int pages,
		 struct pm_error *err)
{
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	void *p;

	memset(rb, 0, sizeof(*rb));
	rb->fd = fd;
	rb->mask = pages * psz - 1;
	rb->len = (pages + 1) * psz;
	p = mmap(NULL, rb->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		int e = errno;

		if (e == EPERM || e == ENOMEM)
			return pm_error__fmt(err, e,
				"cannot map a %u-page ring buffer: %s: lower -m, or raise "
				"`sysctl -w kernel.perf_event_mlock_kb=N` (locked memory for perf buffers)",
				pages, strerror(e));
		return pm_error__fmt(err, e, "mmap of a ring buffer failed: %s", strerror(e));
	}
	rb->base = p;
	rb->data = (uint8_t *)p + psz;
	return 0;
}

void pm_ring__unmap(struct pm_ring *rb)
{
	if (rb->base)
		munmap(rb->base, rb->len);
	free(rb->bounce);
	rb->base = NULL;
	rb->bounce = NULL;
}

/* Snapshot the head: records up to it are complete. */
void pm_ring__begin(struct pm_ring *rb)
{
	struct perf_event_mmap_page *pg = rb->base;

	rb->head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	rb->tail = pg->data_tail;
}

/* The next record, or NULL when none is left before the head snapshot. */
const struct perf_event_header *pm_ring__next(struct pm_ring *rb, size_t *size)
{
	const struct perf_event_header *h;
	uint64_t off, avail = rb->head - rb->tail;
	uint16_t sz;

	if (avail < sizeof(*h))
		return NULL;
	off = rb->tail & rb->mask;
	/* the header itself is 8-byte aligned and never wraps */
	h = (const void *)(rb->data + off);
	sz = h->size;
	if (sz < sizeof(*h) || sz > avail) {
		/* a torn or corrupt record: skip everything up to the head */
		rb->tail = rb->head;
		return NULL;
	}
	if (off + sz > rb->mask + 1) {
		size_t first = rb->mask + 1 - off;

		if (rb->bounce_len < sz) {
			rb->bounce = pm_realloc(rb->bounce, sz);
			rb->bounce_len = sz;
		}
		memcpy(rb->bounce, rb->data + off, first);
		memcpy(rb->bounce + first, rb->data, sz - first);
		h = (const void *)rb->bounce;
	}
	rb->tail += sz;
	*size = sz;
	return h;
}

/* Give the space read back to the kernel. */
void pm_ring__end(struct pm_ring *rb)
{
	struct perf_event_mmap_page *pg = rb->base;

	__atomic_store_n(&pg->data_tail, rb->tail, __ATOMIC_RELEASE);
}
