// SPDX-License-Identifier: GPL-2.0
/*
 * perf's -F under report: the output columns in the order the user gave
 * them, and the order rows sort in when -F is given (perf then sorts on
 * --sort's keys first, then on every -F field in its order, and puts no
 * overhead first unless -F does).
 */
#include <string.h>

#include "hotspot-int.h"

static const char *const count_names[HOT_F_NR_COUNTS] = {
	[HOT_F_OVERHEAD] = "overhead",
	[HOT_F_CHILDREN] = "overhead_children",
	[HOT_F_SAMPLE] = "sample",
	[HOT_F_PERIOD] = "period",
};

static bool same(const struct hot_field *a, const struct hot_field *b)
{
	return a->kind == b->kind && (a->kind != HOT_F_KEY || a->key == b->key);
}

/* f appended unless out has it (a word given twice counts once). */
static size_t add(struct hot_field *out, size_t n, struct hot_field f)
{
	for (size_t i = 0; i < n; i++)
		if (same(&out[i], &f))
			return n;
	if (n < HOT_MAX_FIELDS)
		out[n++] = f;
	return n;
}

/* -F's words, in order; those that are neither are left to the parser
 * (pm_hot_fields__parse() refused them). */
static size_t fields(const char *spec, struct hot_field *out, size_t n)
{
	for (const char *p = spec; p && *p;) {
		size_t len = strcspn(p, ",");
		int k = hot_key__find(p, len);

		if (k >= 0)
			n = add(out, n, (struct hot_field){ HOT_F_KEY, (enum pm_hot_key)k });
		for (int c = 0; c < HOT_F_NR_COUNTS; c++)
			if (strlen(count_names[c]) == len && !strncmp(p, count_names[c], len))
				n = add(out, n, (struct hot_field){ (enum hot_field_kind)c, 0 });
		p += len + (p[len] == ',');
	}
	return n;
}

size_t hot_fields__columns(const struct pm_hotspot_opts *o, struct hot_field *out)
{
	size_t n = fields(o->fields, out, 0);

	/* the sort keys -F lacks are shown after its columns */
	for (size_t k = 0; k < o->nr_keys; k++)
		n = add(out, n, (struct hot_field){ HOT_F_KEY, o->keys[k] });
	return n;
}

size_t hot_fields__order(const struct pm_hotspot_opts *o, struct hot_field *out)
{
	size_t n = 0;

	for (size_t k = 0; k < o->nr_sort_keys && k < o->nr_keys; k++)
		n = add(out, n, (struct hot_field){ HOT_F_KEY, o->keys[k] });
	n = fields(o->fields, out, n);
	for (size_t k = 0; k < o->nr_keys; k++)
		n = add(out, n, (struct hot_field){ HOT_F_KEY, o->keys[k] });
	return n;
}
