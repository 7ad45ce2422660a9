/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tables of names for enum values: what every option that takes a word
 * (--sort KEY, --mode none|discard) and every printed enum goes through,
 * so that the names are listed once, next to their values.
 *
 *	static const struct pm_name modes[] = {
 *		{ "none", MODE_NONE }, { "discard", MODE_DISCARD }, PM_NAMES_END
 *	};
 *	int v = pm_name__value(modes, arg);	(-1: not a name)
 */
#ifndef PMPROF_LOOKUP_H
#define PMPROF_LOOKUP_H

struct pm_name {
	const char *name;
	int value;
};

#define PM_NAMES_END { 0, 0 }

/* The value of a name (exact match), or -1 (also for NULL). */
int pm_name__value(const struct pm_name *names, const char *s);
/* The value of the first n bytes of s as a name, or -1. */
int pm_name__valuen(const struct pm_name *names, const char *s, unsigned long n);
/* The first name of a value, or NULL. */
const char *pm_name__of(const struct pm_name *names, int value);

#endif
