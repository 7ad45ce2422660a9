// SPDX-License-Identifier: GPL-2.0
/*
 * Byte access for the reader: a mapping, or a stream read through a
 * window. The window only grows to the largest single request (one record
 * and its trailing payload), so memory stays flat however long the stream.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"
#include "pmprof/util.h"

bool pm_source__is_stream(const struct pm_source *s)
{
	return s->fd >= 0;
}

void pm_source__release(struct pm_source *s, uint64_t off)
{
	size_t drop;

	if (!pm_source__is_stream(s) || off <= s->buf_base)
		return;
	drop = off - s->buf_base > s->buf_len ? s->buf_len
					      : (size_t)(off - s->buf_base);
	memmove(s->buf, s->buf + drop, s->buf_len - drop);
	s->buf_len -= drop;
	s->buf_base += drop;
}

/*
 * Read until the window holds `want` bytes or the input ends. The window
 * grows only as bytes arrive (doubling when full), never to `want` up
 * front: a length in the stream (a 4 GB TRACING_DATA payload) cannot make
 * it allocate more than twice what the stream really holds.
 */
static int fill(struct pm_source *s, size_t want, struct pm_error *err)
{
	while (s->buf_len < want && !s->eof) {
		if (s->buf_len == s->buf_alloc) {
			size_t n = s->buf_alloc ? s->buf_alloc * 2 : 1 << 16;

			s->buf = pm_realloc(s->buf, n);
			s->buf_alloc = n;
		}
		/* Read generously: fewer syscalls on a pipe. */
		ssize_t got = read(s->fd, s->buf + s->buf_len,
				   s->buf_alloc - s->buf_len);

		if (got < 0) {
			if (errno == EINTR)
				continue;
			return pm_error__at(err, errno, s->buf_base + s->buf_len,
					    "read failed: %s", strerror(errno));
		}
		if (got == 0)
			s->eof = true;
		s->buf_len += (size_t)got;
	}
	return 0;
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* Linux 5.14 */
#endif

/*
 * Fault a mapped file in ahead of the reader, a window at a time: one call
 * maps a window's pages where touching them one by one takes a page fault
 * each. The window starts where the request does, not where the last one
 * ended: the features at a file's end, read first, fault in those pages
 * alone (not the whole data section before them), so `info` on a huge
 * file maps next to none of it. An older kernel refuses: faults will do.
 */
static void populate_ahead(struct pm_source *s, uint64_t off, uint64_t end)
{
	enum { WINDOW = 16 << 20 };
	uintptr_t base = (uintptr_t)s->map, start, stop;

	if (off < s->pop_hi && off >= s->pop_lo)
		off = s->pop_hi;	/* the reader moving on: the next window */
	start = (base + off) & ~(uintptr_t)4095;
	stop = base + (end + WINDOW < s->map_size ? end + WINDOW : s->map_size);
	(void)madvise((void *)start, stop - start, MADV_POPULATE_READ);
	s->pop_lo = start - base;
	s->pop_hi = stop - base;
}

const uint8_t *pm_source__get(struct pm_source *s, uint64_t off, size_t len,
			      size_t *avail, struct pm_error *err)
{
	size_t rel;

	if (avail)
		*avail = 0;
	if (!pm_source__is_stream(s)) {
		if (off > s->map_size) {
			pm_error__at(err, PM_ETRUNC, off, "offset beyond the end of the file (%zu bytes)",
				     s->map_size);
			return NULL;
		}
		if (avail)
			*avail = s->map_size - (size_t)off;
		if (s->unmap && off + len <= s->map_size &&
		    (off < s->pop_lo || off + len > s->pop_hi))
			populate_ahead(s, off, off + len);
		if (len > s->map_size - off) {
			pm_error__at(err, PM_ETRUNC, off,
				     "file ends after %zu bytes, %zu needed",
				     s->map_size - (size_t)off, len);
			return NULL;
		}
		return s->map + off;
	}
	if (off < s->buf_base) {
		pm_error__at(err, PM_EFORMAT, off,
			     "cannot go back in a pipe stream");
		return NULL;
	}
	pm_source__release(s, off);
	rel = (size_t)(off - s->buf_base);
	if (rel + len < len || fill(s, rel + len, err))
		return NULL;
	if (s->buf_len < rel + len) {
		if (avail)
			*avail = s->buf_len > rel ? s->buf_len - rel : 0;
		pm_error__at(err, PM_ETRUNC, off,
			     "stream ends after %zu bytes, %zu needed",
			     s->buf_len > rel ? s->buf_len - rel : 0, len);
		return NULL;
	}
	if (avail)
		*avail = s->buf_len - rel;
	return s->buf + rel;
}

int pm_source__map(struct pm_source *s, int fd, uint64_t size,
		   struct pm_error *err)
{
	static const uint8_t empty[1];
	void *m;

	if (!size) {
		s->map = empty;
		s->map_size = 0;
		return 0;
	}
	if (size > SIZE_MAX)
		return pm_error__fmt(err, EFBIG, "cannot map %" PRIu64 " bytes",
				     size);
	m = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return pm_error__fmt(err, errno, "cannot map: %s", strerror(errno));
	madvise(m, (size_t)size, MADV_SEQUENTIAL);
	s->map = m;
	s->map_size = (size_t)size;
	s->unmap = true;
	return 0;
}

void pm_source__close(struct pm_source *s)
{
	if (s->unmap && s->map)
		munmap((void *)s->map, s->map_size);
	if (s->close_fd && s->fd >= 0)
		close(s->fd);
	free(s->buf);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}
