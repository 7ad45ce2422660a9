// SPDX-License-Identifier: GPL-2.0
/* Summaries: the typed key/values of a report or of one of its tables. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/json.h"
#include "pmprof/util.h"
#include "table/internal.h"

static struct pm_summary_item *add(struct pm_summary *s, const char *key,
				   const char *label, enum pm_value_type type)
{
	struct pm_summary_item *it;

	PM_GROW(s->items, s->alloc, s->nr + 1);
	it = &s->items[s->nr++];
	memset(it, 0, sizeof(*it));
	it->key = pm_strdup(key);
	it->label = label ? pm_strdup(label) : NULL;
	it->type = type;
	return it;
}

void pm_summary__add_str(struct pm_summary *s, const char *key,
			 const char *label, const char *v)
{
	add(s, key, label, PM_VAL_STR)->v.s = v ? pm_strdup(v) : NULL;
}

void pm_summary__add_u64(struct pm_summary *s, const char *key,
			 const char *label, uint64_t v)
{
	add(s, key, label, PM_VAL_U64)->v.u = v;
}

void pm_summary__add_i64(struct pm_summary *s, const char *key,
			 const char *label, int64_t v)
{
	add(s, key, label, PM_VAL_I64)->v.i = v;
}

void pm_summary__add_double(struct pm_summary *s, const char *key,
			    const char *label, double v)
{
	add(s, key, label, PM_VAL_DOUBLE)->v.d = v;
}

void pm_summary__add_bool(struct pm_summary *s, const char *key,
			  const char *label, bool v)
{
	add(s, key, label, PM_VAL_BOOL)->v.b = v;
}

void pm_summary__add_strs(struct pm_summary *s, const char *key,
			  const char *label, const char *const *v, size_t n)
{
	struct pm_summary_item *it = add(s, key, label, PM_VAL_STRS);
	size_t i;

	it->v.strs.v = pm_calloc(n + 1, sizeof(char *));
	it->v.strs.n = n;
	for (i = 0; i < n; i++)
		it->v.strs.v[i] = v[i] ? pm_strdup(v[i]) : NULL;
}

size_t pm_summary__nr(const struct pm_summary *s)
{
	return s->nr;
}

void pm_summary__release(struct pm_summary *s)
{
	size_t i, k;

	for (i = 0; i < s->nr; i++) {
		struct pm_summary_item *it = &s->items[i];

		free(it->key);
		free(it->label);
		if (it->type == PM_VAL_STR)
			free(it->v.s);
		if (it->type == PM_VAL_STRS) {
			for (k = 0; k < it->v.strs.n; k++)
				free(it->v.strs.v[k]);
			free(it->v.strs.v);
		}
	}
	free(s->items);
	memset(s, 0, sizeof(*s));
}

const struct pm_summary_item *pm_summary__find(const struct pm_summary *s,
					       const char *key)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->items[i].key, key))
			return &s->items[i];
	return NULL;
}

void pm_summary_item__text(const struct pm_summary_item *it,
			   struct pm_strbuf *sb)
{
	size_t k;

	switch (it->type) {
	case PM_VAL_STR:
		pm_strbuf__adds(sb, it->v.s ? it->v.s : "-");
		break;
	case PM_VAL_U64:
		pm_strbuf__addf(sb, "%" PRIu64, it->v.u);
		break;
	case PM_VAL_I64:
		pm_strbuf__addf(sb, "%" PRId64, it->v.i);
		break;
	case PM_VAL_DOUBLE:
		if (isnan(it->v.d))
			pm_strbuf__adds(sb, "-");
		else
			pm_strbuf__addf(sb, "%.2f", it->v.d);
		break;
	case PM_VAL_BOOL:
		pm_strbuf__adds(sb, it->v.b ? "yes" : "no");
		break;
	case PM_VAL_STRS:
		for (k = 0; k < it->v.strs.n; k++)
			pm_strbuf__addf(sb, "%s%s", k ? ", " : "",
					it->v.strs.v[k] ? it->v.strs.v[k] : "-");
		break;
	}
}

bool pm_summary_item__labelled(const struct pm_summary_item *it,
			       struct pm_strbuf *sb)
{
	if (!it->label)
		return false;
	pm_strbuf__reset(sb);
	pm_strbuf__addf(sb, "%s: ", it->label);
	pm_summary_item__text(it, sb);
	return true;
}

int pm_summary__text(const struct pm_summary *s, const char *key,
		     struct pm_strbuf *sb)
{
	const struct pm_summary_item *it = pm_summary__find(s, key);

	if (!it)
		return -ENOENT;
	pm_summary_item__text(it, sb);
	return 0;
}

void pm_summary__json(const struct pm_summary *s, struct pm_json *j)
{
	size_t i, k;

	for (i = 0; i < s->nr; i++) {
		const struct pm_summary_item *it = &s->items[i];

		pm_json__key(j, it->key);
		switch (it->type) {
		case PM_VAL_STR:
			pm_json__string(j, it->v.s);
			break;
		case PM_VAL_U64:
			pm_json__u64(j, it->v.u);
			break;
		case PM_VAL_I64:
			pm_json__i64(j, it->v.i);
			break;
		case PM_VAL_DOUBLE:
			pm_json__double(j, it->v.d);
			break;
		case PM_VAL_BOOL:
			pm_json__bool(j, it->v.b);
			break;
		case PM_VAL_STRS:
			pm_json__begin_array(j);
			for (k = 0; k < it->v.strs.n; k++)
				pm_json__string(j, it->v.strs.v[k]);
			pm_json__end_array(j);
			break;
		}
	}
}
