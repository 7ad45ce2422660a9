/* SPDX-License-Identifier: GPL-2.0 */
/* Allocation that never returns NULL, and small helpers used everywhere. */
#ifndef PMPROF_UTIL_H
#define PMPROF_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define PM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PM_MIN(a, b) ((a) < (b) ? (a) : (b))
#define PM_MAX(a, b) ((a) > (b) ? (a) : (b))

/* Abort with a message on out-of-memory: callers need no NULL checks. */
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
#define PM_GROW(arr, alloc, need) \
	pm_grow((void **)&(arr), &(alloc), (need), sizeof(*(arr)))

#endif
