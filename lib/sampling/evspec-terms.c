// SPDX-License-Identifier: GPL-2.0
/*
 * The -e parser's term lists (evspec-parse.h): "/term=value,.../" after a
 * PMU or a symbolic event, generic terms (period, hf-period ...), PMU
 * format fields from sysfs, events/ aliases expanded in place.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/evspec.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"
#include "sampling/evspec-int.h"
#include "sampling/evspec-parse.h"

#define HF_BURST_MAX 65536

bool evs_is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

size_t evs_name_len(const char *s)
{
	size_t n = 0;

	while (evs_is_name_char(s[n]))
		n++;
	return n;
}

static bool key_is(const struct term *t, const char *k)
{
	return strlen(k) == t->klen && !memcmp(t->key, k, t->klen);
}

static int term_number(struct parser *p, const struct term *t, uint64_t *v)
{
	char buf[32], *end;
	bool hex;

	if (!t->val)
		return evs_perr(p, t->pos, "term '%.*s' needs a value", (int)t->klen, t->key);
	if (!t->vlen || t->vlen >= sizeof(buf))
		goto bad;
	memcpy(buf, t->val, t->vlen);
	buf[t->vlen] = 0;
	hex = buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
	if (buf[0] == '-' || buf[0] == '+' || buf[0] == ' ')
		goto bad;
	errno = 0;
	*v = strtoull(buf, &end, hex ? 16 : 10);
	if (errno || *end || end == buf || (hex && end == buf + 2))
		goto bad;
	return 0;
bad:
	return evs_perr(p, t->vpos, "term '%.*s': expected a number, got '%.*s'",
		    (int)t->klen, t->key, (int)t->vlen, t->val);
}

/* Terms every event kind takes. 1: not generic, 0: done, <0: error. */
int evs_generic_term(struct parser *p, struct build *b, const struct term *t,
			bool tracepoint)
{
	struct pm_evspec_event *ev = &b->ev;
	uint64_t v;
	int ret;

	if (key_is(t, "call-graph")) {
		if (!t->val)
			return evs_perr(p, t->pos, "term 'call-graph' needs a value (fp, dwarf or no)");
		if (t->vlen == 2 && !memcmp(t->val, "fp", 2))
			ev->callgraph = PM_CALLGRAPH_FP;
		else if (t->vlen == 5 && !memcmp(t->val, "dwarf", 5))
			ev->callgraph = PM_CALLGRAPH_DWARF;
		else if (t->vlen == 2 && !memcmp(t->val, "no", 2))
			ev->callgraph = PM_CALLGRAPH_NONE;
		else
			return evs_perr(p, t->vpos, "term 'call-graph': unknown mode '%.*s' (fp, dwarf or no)",
				    (int)t->vlen, t->val);
		ev->terms |= PM_EVSPEC_T_CALLGRAPH;
		return 0;
	}
	if (key_is(t, "stack-size")) {
		if ((ret = term_number(p, t, &v)))
			return ret;
		if (!v || v > 65528)
			return evs_perr(p, t->vpos, "term 'stack-size': %llu out of range (1-65528)",
				    (unsigned long long)v);
		ev->stack_size = (uint32_t)((v + 7) & ~7ULL);
		ev->terms |= PM_EVSPEC_T_STACK_SIZE;
		return 0;
	}
	if (tracepoint)
		return 1;
	if (key_is(t, "name")) {
		if (!t->val || !t->vlen)
			return evs_perr(p, t->pos, "term 'name' needs a value");
		free(ev->name);
		ev->name = pm_strndup(t->val, t->vlen);
		return 0;
	}
	if (key_is(t, "max-stack")) {
		if ((ret = term_number(p, t, &v)))
			return ret;
		if (v > 65535)
			return evs_perr(p, t->vpos, "term 'max-stack': %llu out of range",
				    (unsigned long long)v);
		ev->max_stack = (uint32_t)v;
		ev->terms |= PM_EVSPEC_T_MAX_STACK;
		return 0;
	}
	if (key_is(t, "config") || key_is(t, "config1") || key_is(t, "config2") ||
	    key_is(t, "config3")) {
		if ((ret = term_number(p, t, &v)))
			return ret;
		switch (t->klen == 6 ? '0' : t->key[6]) {
		case '0': ev->attr.config = v; break;
		case '1': ev->attr.config1 = v; break;
		case '2': ev->attr.config2 = v; break;
		default: ev->attr.config3 = v; break;
		}
		return 0;
	}
	if (key_is(t, "period")) {
		if ((ret = term_number(p, t, &v)))
			return ret;
		if (v & (1ULL << 63))
			return evs_perr(p, t->vpos, "term 'period': value too big");
		ev->term_period = v;
		ev->terms |= PM_EVSPEC_T_PERIOD;
		b->period_pos = t->pos;
		return 0;
	}
	if (key_is(t, "freq")) {
		if ((ret = term_number(p, t, &v)))
			return ret;
		if (!v)
			return evs_perr(p, t->vpos, "term 'freq': expected a non-zero value");
		ev->term_freq = v;
		ev->terms |= PM_EVSPEC_T_FREQ;
		return 0;
	}
	if (key_is(t, "hf-period")) {
		if ((ret = term_number(p, t, &v)))
			return ret;
		if (!v)
			return evs_perr(p, t->vpos, "term 'hf-period': expected a non-zero value");
		if (v > UINT32_MAX)
			return evs_perr(p, t->vpos, "term 'hf-period': %llu does not fit in 32 bits",
				    (unsigned long long)v);
		ev->attr.hf_sample_period = (uint32_t)v;
		b->has_hf = true;
		b->hf_pos = t->pos;
		return 0;
	}
	if (key_is(t, "hf-rand")) {
		if ((ret = term_number(p, t, &v)))
			return ret;
		if (v > 15)
			return evs_perr(p, t->vpos, "term 'hf-rand': %llu out of range (0-15)",
				    (unsigned long long)v);
		ev->attr.hf_sample_rand = (uint8_t)v;
		b->has_rand = true;
		b->rand_pos = t->pos;
		return 0;
	}
	if (key_is(t, "hf-burst")) {
		if ((ret = term_number(p, t, &v)))
			return ret;
		if (!v || v > HF_BURST_MAX)
			return evs_perr(p, t->vpos, "term 'hf-burst': %llu out of range (1-%d)",
				    (unsigned long long)v, HF_BURST_MAX);
		ev->hf_burst = (uint32_t)v;
		b->has_burst = true;
		b->burst_pos = t->pos;
		return 0;
	}
	if (key_is(t, "hf-jitter")) {
		if ((ret = term_number(p, t, &v)))
			return ret;
		if (v > UINT32_MAX)
			return evs_perr(p, t->vpos, "term 'hf-jitter': %llu does not fit in 32 bits",
				    (unsigned long long)v);
		ev->hf_jitter = (uint32_t)v;
		b->has_jitter = true;
		b->jitter_pos = t->pos;
		return 0;
	}
	return 1;
}

/* The hf terms' rules, once all of an event's terms are known. */
int evs_check_hf(struct parser *p, struct build *b)
{
	struct pm_evspec_event *ev = &b->ev;

	if (b->has_rand && !b->has_hf)
		return evs_perr(p, b->rand_pos, "term 'hf-rand' needs 'hf-period'");
	if (b->has_burst && !b->has_hf)
		return evs_perr(p, b->burst_pos, "term 'hf-burst' needs 'hf-period'");
	if (b->has_jitter && !b->has_hf)
		return evs_perr(p, b->jitter_pos, "term 'hf-jitter' needs 'hf-period'");
	if (!b->has_hf)
		return 0;
	if (!ev->hf_burst)
		ev->hf_burst = 1;
	if (b->has_jitter && ev->hf_jitter / 2 >= ev->attr.hf_sample_period)
		return evs_perr(p, b->jitter_pos,
			    "term 'hf-jitter': %u must be below 2 x hf-period (%u)",
			    ev->hf_jitter, ev->attr.hf_sample_period);
	if ((ev->terms & PM_EVSPEC_T_PERIOD) && !(ev->terms & PM_EVSPEC_T_FREQ) &&
	    (uint64_t)ev->attr.hf_sample_period * ev->hf_burst >= ev->term_period)
		return evs_perr(p, b->hf_pos,
			    "term 'hf-period': hf-period (%u) x hf-burst (%u) must be below period (%llu)",
			    ev->attr.hf_sample_period, ev->hf_burst,
			    (unsigned long long)ev->term_period);
	ev->attr.size = PM_ATTR_SIZE_VER9;
	ev->terms |= PM_EVSPEC_T_HF;
	return 0;
}

/* Apply an events/ alias: its text is itself a term list. */
int evs_apply_alias(struct parser *p, struct build *b, const char *pmu,
		       const char *text, size_t pos, int depth)
{
	const char *q = text;

	if (depth > 4)
		return evs_perr(p, pos, "alias loop in pmu '%s'", pmu);
	while (*q) {
		struct term t = { .pos = pos, .vpos = pos };
		const char *e = strchr(q, ',');
		const char *eq;
		int ret;

		if (!e)
			e = q + strlen(q);
		while (q < e && *q == ' ')
			q++;
		eq = memchr(q, '=', (size_t)(e - q));
		t.key = q;
		t.klen = eq ? (size_t)(eq - q) : (size_t)(e - q);
		if (eq) {
			t.val = eq + 1;
			t.vlen = (size_t)(e - eq - 1);
		}
		if (t.klen) {
			/* perf's "?" parameters must be given by the user */
			if (t.val && t.vlen == 1 && t.val[0] == '?')
				return evs_perr(p, pos, "alias term '%.*s' of pmu '%s' needs a value",
					    (int)t.klen, t.key, pmu);
			if ((ret = evs_pmu_term(p, b, pmu, &t, depth + 1)))
				return ret;
		}
		q = *e ? e + 1 : e;
	}
	return 0;
}

/*
 * A legacy event name as a PMU term (cpu/instructions,profileme/), as
 * perf 6.5 and later take it when the PMU has no event of that name: a
 * hardware event (type 0) or, on a core PMU, a generic cache event (type
 * 3), the PMU's format terms or-ed into the same config. With more than
 * one core PMU (hybrid machines) the config's high 32 bits name the PMU,
 * perf's "extended type". 0, or -1 if key is no legacy name.
 */
static int legacy_term(struct parser *p, struct build *b, const char *pmu,
		       const char *key)
{
	uint32_t type, pmu_type;
	uint64_t config;

	if (!pm_event_name__lookup(key, strlen(key), &type, &config) && type == 0) {
		/* a hardware event */
	} else if (pm_sysfs_pmu_is_core(p->root, pmu) &&
		   !pm_event_name__cache(key, strlen(key), &config)) {
		type = 3;
	} else {
		return -1;
	}
	if (pm_sysfs_pmu_type(p->root, pmu, &pmu_type))
		return -1;
	if (pm_sysfs_nr_core_pmus(p->root) > 1)
		config |= (uint64_t)pmu_type << 32;
	b->ev.attr.type = type;
	b->ev.attr.config |= config;
	return 0;
}

int evs_pmu_term(struct parser *p, struct build *b, const char *pmu,
		    const struct term *t, int depth)
{
	char key[128];
	uint64_t mask, v = 1, bits;
	int field, ret;
	char *alias;

	ret = evs_generic_term(p, b, t, false);
	if (ret <= 0)
		return ret;
	if (t->klen >= sizeof(key))
		return evs_perr(p, t->pos, "term too long");
	memcpy(key, t->key, t->klen);
	key[t->klen] = 0;
	if (!pm_sysfs_pmu_format(p->root, pmu, key, &field, &mask)) {
		uint64_t *dst[] = { &b->ev.attr.config, &b->ev.attr.config1,
				    &b->ev.attr.config2, &b->ev.attr.config3 };

		if (t->val && (ret = term_number(p, t, &v)))
			return ret;
		if (pm_evspec_format_value(mask, v, &bits))
			return evs_perr(p, t->val ? t->vpos : t->pos,
				    "value too big for format '%s' of pmu '%s', maximum is %llu",
				    key, pmu,
				    (unsigned long long)(__builtin_popcountll(mask) == 64 ? UINT64_MAX :
					(1ULL << __builtin_popcountll(mask)) - 1));
		/* or-ed in without clearing, as perf does: an alias's
		 * ldlat=3 and the user's ldlat=30 make 31 */
		*dst[field] |= bits;
		return 0;
	}
	if (!t->val && (alias = pm_sysfs_pmu_alias(p->root, pmu, key))) {
		ret = evs_apply_alias(p, b, pmu, alias, t->pos, depth);
		free(alias);
		return ret;
	}
	if (!t->val && !legacy_term(p, b, pmu, key))
		return 0;
	{
		char *names = pm_sysfs_pmu_format_names(p->root, pmu);

		ret = evs_perr(p, t->pos, "unknown term '%s' for pmu '%s' (valid terms: %s%s" GENERIC_TERMS ")",
			   key, pmu, names, *names ? "," : "");
		free(names);
	}
	return ret;
}

/* Read "/term,term=value,.../" starting at the first '/'. */
int evs_parse_terms(struct parser *p, struct term **terms, size_t *nr)
{
	size_t alloc = 0;

	*terms = NULL;
	*nr = 0;
	p->pos++;	/* '/' */
	while (p->s[p->pos] != '/') {
		struct term t = { 0 };
		size_t n;

		n = 0;
		while (evs_is_name_char(p->s[p->pos + n]))
			n++;
		if (!n) {
			if (!p->s[p->pos])
				return evs_perr(p, p->pos, "missing closing '/'");
			return evs_perr(p, p->pos, "parser error: expected a term");
		}
		t.key = p->s + p->pos;
		t.klen = n;
		t.pos = p->pos;
		p->pos += n;
		if (p->s[p->pos] == '=') {
			p->pos++;
			t.val = p->s + p->pos;
			t.vpos = p->pos;
			while (p->s[p->pos] && p->s[p->pos] != ',' && p->s[p->pos] != '/')
				p->pos++;
			t.vlen = (size_t)(p->s + p->pos - t.val);
			if (!t.vlen)
				return evs_perr(p, t.vpos, "parser error: term '%.*s' has an empty value",
					    (int)t.klen, t.key);
		}
		PM_GROW(*terms, alloc, *nr + 1);
		(*terms)[(*nr)++] = t;
		if (p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->s[p->pos] != '/')
			return evs_perr(p, p->pos, p->s[p->pos] ? "parser error: unexpected '%c'" :
				    "missing closing '/'%c", p->s[p->pos]);
	}
	p->pos++;
	return 0;
}
