// SPDX-License-Identifier: GPL-2.0
/*
 * --switch-output and --max-size as perf record takes them: sizes with
 * B/K/M/G (powers of 1024), times with s/m/h/d, the signal SIGUSR2; the
 * files a switch closes are named OUTPUT.YYYYmmddHHMMSScc, local time to
 * the hundredth of a second, as perf names them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>

#include "pmprof/record.h"

/* "123", "4K", "2M", "1G" (a B suffix allowed after each): bytes. */
int pm_size__parse(const char *s, uint64_t *bytes)
{
	unsigned long long v;
	char *end;
	int shift = 0;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'b': case 'B': end++; break;
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: break;
	}
	if (shift && (*end == 'b' || *end == 'B'))
		end++;
	if (*end || v > (UINT64_MAX >> shift))
		return -1;
	*bytes = (uint64_t)v << shift;
	return 0;
}

/* "30s", "5m", "1h", "1d": nanoseconds (a unit is required). */
static int parse_time(const char *s, uint64_t *ns)
{
	unsigned long long v, mult;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || !end[0] || end[1])
		return -1;
	switch (*end) {
	case 's': mult = 1; break;
	case 'm': mult = 60; break;
	case 'h': mult = 3600; break;
	case 'd': mult = 86400; break;
	default: return -1;
	}
	if (!v || v > UINT64_MAX / 1000000000ULL / mult)
		return -1;
	*ns = v * mult * 1000000000ULL;
	return 0;
}

int pm_switch_output__parse(const char *s, struct pm_switch_output *so)
{
	memset(so, 0, sizeof(*so));
	if (!s || !strcmp(s, "signal")) {
		so->mode = PM_SWITCH_SIGNAL;
		return 0;
	}
	if (!parse_time(s, &so->time_ns)) {
		so->mode = PM_SWITCH_TIME;
		return 0;
	}
	if (!pm_size__parse(s, &so->size) && so->size) {
		so->mode = PM_SWITCH_SIZE;
		return 0;
	}
	return -1;
}

int pm_switch_output__name(const char *base, char *buf, size_t size)
{
	struct timeval tv;
	struct tm tm;
	struct stat st;
	time_t sec;
	unsigned int cs;
	int guard, n = -1;

	gettimeofday(&tv, NULL);
	sec = tv.tv_sec;
	cs = (unsigned int)(tv.tv_usec / 10000);
	/* two switches in the same hundredth: the next hundredth, so that
	 * no file is overwritten */
	for (guard = 0; guard < 1000; guard++) {
		if (!localtime_r(&sec, &tm))
			return -1;
		n = snprintf(buf, size, "%s.%04d%02d%02d%02d%02d%02d%02u", base, tm.tm_year + 1900,
			     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, cs);
		if (n < 0 || (size_t)n >= size)
			return -1;
		if (stat(buf, &st))
			return 0;
		if (++cs == 100) {
			cs = 0;
			sec++;
		}
	}
	return -1;
}
