// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/error.h"

static int negative(int code)
{
	return code > 0 ? -code : (code ? code : -PM_EFORMAT);
}

static void vfill(struct pm_error *err, int code, const char *fmt, va_list ap)
{
	err->code = negative(code);
	err->part[0] = '\0';
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
}

int pm_error__fmt(struct pm_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vfill(err, code, fmt, ap);
		va_end(ap);
		err->has_offset = false;
		err->offset = 0;
	}
	return negative(code);
}

int pm_error__at(struct pm_error *err, int code, uint64_t offset,
		 const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vfill(err, code, fmt, ap);
		va_end(ap);
		err->has_offset = true;
		err->offset = offset;
	}
	return negative(code);
}

void pm_error__clear(struct pm_error *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

const char *pm_strerror(int code)
{
	if (code < 0)
		code = -code;
	switch (code) {
	case PM_EFORMAT: return "invalid perf.data";
	case PM_ETRUNC:  return "file is truncated";
	case PM_EUNSUP:  return "not supported";
	case PM_EUSAGE:  return "invalid usage";
	}
	return strerror(code);
}
