// SPDX-License-Identifier: GPL-2.0
/* Name tables: word <-> enum value, one list per enum. */
#include <string.h>

#include "pmprof/lookup.h"
#include "pmprof/strbuf.h"

int pm_name__valuen(const struct pm_name *names, const char *s, unsigned long n)
{
	const struct pm_name *p;

	if (!s)
		return -1;
	for (p = names; p->name; p++)
		if (strlen(p->name) == n && !strncmp(p->name, s, n))
			return p->value;
	return -1;
}

int pm_name__value(const struct pm_name *names, const char *s)
{
	return s ? pm_name__valuen(names, s, strlen(s)) : -1;
}

const char *pm_name__of(const struct pm_name *names, int value)
{
	const struct pm_name *p;

	for (p = names; p->name; p++)
		if (p->value == value)
			return p->name;
	return NULL;
}

