// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/util.h"

static void default_oom(size_t n)
{
	(void)n;
	abort();
}

static pm_oom_fn oom_handler = default_oom;

pm_oom_fn pm_set_oom_handler(pm_oom_fn fn)
{
	pm_oom_fn old = oom_handler;

	oom_handler = fn ? fn : default_oom;
	return old;
}

static void *oom(size_t n)
{
	oom_handler(n);
	abort();	/* a handler must not return */
}

void *pm_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : oom(n);
}

void *pm_zalloc(size_t n)
{
	return pm_calloc(1, n);
}

void *pm_calloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	return p ? p : oom(nmemb * size);
}

void *pm_realloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	return q ? q : oom(n);
}

void *pm_reallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		return oom(SIZE_MAX);
	return pm_realloc(p, nmemb * size);
}

char *pm_strdup(const char *s)
{
	return pm_strndup(s, strlen(s));
}

char *pm_strndup(const char *s, size_t n)
{
	char *p = pm_malloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void pm_grow(void **arr, size_t *alloc, size_t need, size_t sz)
{
	size_t n = *alloc;

	if (need <= n)
		return;
	n = n ? n : 16;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	*arr = pm_reallocarray(*arr, n, sz);
	*alloc = n;
}

int pm_cmp_str_nulls_last(const char *a, const char *b)
{
	if (!a || !b)
		return (a == NULL) - (b == NULL);
	return strcmp(a, b);
}

void pm_opts__copy(void *dst, size_t size, const void *src,
		   const void *defaults)
{
	size_t n = size;

	memcpy(dst, defaults, size);
	if (src) {
		size_t sz = *(const size_t *)src;

		if (sz && sz < n)
			n = sz;
		memcpy(dst, src, n);
	}
	*(size_t *)dst = size;
}
