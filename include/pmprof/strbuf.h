/* SPDX-License-Identifier: GPL-2.0 */
/* A growable, always NUL-terminated string, for anything that formats. */
#ifndef PMPROF_STRBUF_H
#define PMPROF_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct pm_strbuf {
	char *buf;	/* never NULL after init: "" */
	size_t len;
	size_t alloc;
};

#define PM_STRBUF_INIT { NULL, 0, 0 }

void pm_strbuf__init(struct pm_strbuf *sb);
void pm_strbuf__release(struct pm_strbuf *sb);
void pm_strbuf__reset(struct pm_strbuf *sb);
void pm_strbuf__add(struct pm_strbuf *sb, const char *s, size_t n);
void pm_strbuf__adds(struct pm_strbuf *sb, const char *s);
void pm_strbuf__addc(struct pm_strbuf *sb, char c);
void pm_strbuf__addf(struct pm_strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pm_strbuf__vaddf(struct pm_strbuf *sb, const char *fmt, va_list ap);
/* Hand the buffer to the caller (free() it) and reset sb. */
char *pm_strbuf__detach(struct pm_strbuf *sb);
/* A const view that is "" even before the first add. */
const char *pm_strbuf__str(const struct pm_strbuf *sb);

#endif
