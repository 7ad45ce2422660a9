/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Allocation that never returns NULL, and small helpers used everywhere.
 *
 * Out of memory is not an error code: the allocators call the out-of-
 * memory handler, which must not return. The library's default handler
 * aborts without printing; an application sets its own (the CLI prints
 * "pmprof: out of memory" and exits 2). See DESIGN.md.
 */
#ifndef PMPROF_UTIL_H
#define PMPROF_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define PM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PM_MIN(a, b) ((a) < (b) ? (a) : (b))
#define PM_MAX(a, b) ((a) > (b) ? (a) : (b))

typedef void (*pm_oom_fn)(size_t bytes);
/* Set the handler (NULL: the default); returns the previous one. */
pm_oom_fn pm_set_oom_handler(pm_oom_fn fn);

/* Never NULL: on out-of-memory the handler runs (callers need no checks). */
void *pm_malloc(size_t n);
void *pm_zalloc(size_t n);
void *pm_calloc(size_t nmemb, size_t size);
void *pm_realloc(void *p, size_t n);
void *pm_reallocarray(void *p, size_t nmemb, size_t size);
char *pm_strdup(const char *s);
char *pm_strndup(const char *s, size_t n);

/* A whole file (also /proc and tracefs files whose size reads as 0) into
 * a NUL-terminated malloc()ed buffer; 0, or -errno naming the path. */
struct pm_error;
int pm_read_file(const char *path, char **buf, size_t *len,
		 struct pm_error *err);

/* Grow *arr (of *alloc elements of size sz) to hold at least `need`. */
void pm_grow(void **arr, size_t *alloc, size_t need, size_t sz);
/* The test inline: most calls find room, in loops run per sample. */
#define PM_GROW(arr, alloc, need) \
	((need) <= (alloc) ? (void)0 \
			   : pm_grow((void **)&(arr), &(alloc), (need), sizeof(*(arr))))

/*
 * Options structs start with `size_t sz`: their size as the caller was
 * compiled (0: this size). Copy the caller's options over the defaults:
 * what an older, smaller struct lacks keeps its default, what a newer
 * one adds is ignored; NULL gives the defaults. dst->sz becomes its size.
 */
void pm_opts__copy(void *dst, size_t size, const void *src,
		   const void *defaults);
#define PM_OPTS_COPY(dst, src, defaults) \
	pm_opts__copy((dst), sizeof(*(dst)), (src), &(defaults))

/* Three-way comparisons for sort functions: -1, 0 or 1. */
static inline int pm_cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* Strings by bytes, NULL (unknown) after every string. */
int pm_cmp_str_nulls_last(const char *a, const char *b);

#endif
