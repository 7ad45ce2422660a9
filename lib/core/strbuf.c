// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/strbuf.h"
#include "pmprof/util.h"

void pm_strbuf__init(struct pm_strbuf *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
}

void pm_strbuf__release(struct pm_strbuf *sb)
{
	free(sb->buf);
	pm_strbuf__init(sb);
}

void pm_strbuf__reset(struct pm_strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

static void reserve(struct pm_strbuf *sb, size_t extra)
{
	PM_GROW(sb->buf, sb->alloc, sb->len + extra + 1);
}

void pm_strbuf__add(struct pm_strbuf *sb, const char *s, size_t n)
{
	reserve(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void pm_strbuf__adds(struct pm_strbuf *sb, const char *s)
{
	pm_strbuf__add(sb, s, strlen(s));
}

void pm_strbuf__addc(struct pm_strbuf *sb, char c)
{
	pm_strbuf__add(sb, &c, 1);
}

void pm_strbuf__vaddf(struct pm_strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	reserve(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n >= sb->alloc - sb->len) {
		reserve(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void pm_strbuf__addf(struct pm_strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pm_strbuf__vaddf(sb, fmt, ap);
	va_end(ap);
}

char *pm_strbuf__detach(struct pm_strbuf *sb)
{
	char *s = sb->buf ? sb->buf : pm_strdup("");

	pm_strbuf__init(sb);
	return s;
}

const char *pm_strbuf__str(const struct pm_strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}
