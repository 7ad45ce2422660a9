// SPDX-License-Identifier: GPL-2.0
/*
 * The -e parser: a hand-written recursive descent over perf's event
 * grammar (see evspec.h). It builds each event's attr from the string
 * alone; pm_evspec__apply_record() (evspec-record.c) adds what perf
 * record adds. Every error carries the byte offset of the offending term.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/evspec.h"
#include "pmprof/tracefs.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"
#include "sampling/evspec-int.h"

#define GENERIC_TERMS "config,config1,config2,config3,name,period,freq," \
	"call-graph,stack-size,max-stack,hf-period,hf-rand,hf-burst,hf-jitter"
#define HF_BURST_MAX 65536

struct term {
	const char *key;	/* points into the string */
	size_t klen;
	const char *val;	/* NULL: no '=' */
	size_t vlen;
	size_t pos, vpos;
};

struct parser {
	const char *s;
	size_t pos;
	const char *root;
	struct pm_evspec_list *out;
	struct pm_error *err;
	bool mount_tracefs;		/* may mount tracefs (once) */
	bool mount_tried;
	struct pm_error mount_err;	/* why it could not be mounted */
};

enum kind { K_SYMBOL, K_RAW, K_PMU, K_TRACEPOINT };

static int perr(struct parser *p, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int perr(struct parser *p, size_t pos, const char *fmt, ...)
{
	char msg[sizeof(p->err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return pm_error__at(p->err, PM_EUSAGE, pos, "%s", msg);
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

static size_t name_len(const char *s)
{
	size_t n = 0;

	while (is_name_char(s[n]))
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
		return perr(p, t->pos, "term '%.*s' needs a value", (int)t->klen, t->key);
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
	return perr(p, t->vpos, "term '%.*s': expected a number, got '%.*s'",
		    (int)t->klen, t->key, (int)t->vlen, t->val);
}

/* The event being built, and which of its terms came where. */
struct build {
	struct pm_evspec_event ev;
	size_t hf_pos, rand_pos, burst_pos, jitter_pos, period_pos;
	bool has_hf, has_rand, has_burst, has_jitter;
};

/* Terms every event kind takes. 1: not generic, 0: done, <0: error. */
static int generic_term(struct parser *p, struct build *b, const struct term *t,
			bool tracepoint)
{
	struct pm_evspec_event *ev = &b->ev;
	uint64_t v;
	int ret;

	if (key_is(t, "call-graph")) {
		if (!t->val)
			return perr(p, t->pos, "term 'call-graph' needs a value (fp, dwarf or no)");
		if (t->vlen == 2 && !memcmp(t->val, "fp", 2))
			ev->callgraph = PM_CALLGRAPH_FP;
		else if (t->vlen == 5 && !memcmp(t->val, "dwarf", 5))
			ev->callgraph = PM_CALLGRAPH_DWARF;
		else if (t->vlen == 2 && !memcmp(t->val, "no", 2))
			ev->callgraph = PM_CALLGRAPH_NONE;
		else
			return perr(p, t->vpos, "term 'call-graph': unknown mode '%.*s' (fp, dwarf or no)",
				    (int)t->vlen, t->val);
		ev->terms |= PM_EVSPEC_T_CALLGRAPH;
		return 0;
	}
	if (key_is(t, "stack-size")) {
		if ((ret = term_number(p, t, &v)))
			return ret;
		if (!v || v > 65528)
			return perr(p, t->vpos, "term 'stack-size': %llu out of range (1-65528)",
				    (unsigned long long)v);
		ev->stack_size = (uint32_t)((v + 7) & ~7ULL);
		ev->terms |= PM_EVSPEC_T_STACK_SIZE;
		return 0;
	}
	if (tracepoint)
		return 1;
	if (key_is(t, "name")) {
		if (!t->val || !t->vlen)
			return perr(p, t->pos, "term 'name' needs a value");
		free(ev->name);
		ev->name = pm_strndup(t->val, t->vlen);
		return 0;
	}
	if (key_is(t, "max-stack")) {
		if ((ret = term_number(p, t, &v)))
			return ret;
		if (v > 65535)
			return perr(p, t->vpos, "term 'max-stack': %llu out of range",
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
			return perr(p, t->vpos, "term 'period': value too big");
		ev->term_period = v;
		ev->terms |= PM_EVSPEC_T_PERIOD;
		b->period_pos = t->pos;
		return 0;
	}
	if (key_is(t, "freq")) {
		if ((ret = term_number(p, t, &v)))
			return ret;
		if (!v)
			return perr(p, t->vpos, "term 'freq': expected a non-zero value");
		ev->term_freq = v;
		ev->terms |= PM_EVSPEC_T_FREQ;
		return 0;
	}
	if (key_is(t, "hf-period")) {
		if ((ret = term_number(p, t, &v)))
			return ret;
		if (!v)
			return perr(p, t->vpos, "term 'hf-period': expected a non-zero value");
		if (v > UINT32_MAX)
			return perr(p, t->vpos, "term 'hf-period': %llu does not fit in 32 bits",
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
			return perr(p, t->vpos, "term 'hf-rand': %llu out of range (0-15)",
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
			return perr(p, t->vpos, "term 'hf-burst': %llu out of range (1-%d)",
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
			return perr(p, t->vpos, "term 'hf-jitter': %llu does not fit in 32 bits",
				    (unsigned long long)v);
		ev->hf_jitter = (uint32_t)v;
		b->has_jitter = true;
		b->jitter_pos = t->pos;
		return 0;
	}
	return 1;
}

/* The hf terms' rules, once all of an event's terms are known. */
static int check_hf(struct parser *p, struct build *b)
{
	struct pm_evspec_event *ev = &b->ev;

	if (b->has_rand && !b->has_hf)
		return perr(p, b->rand_pos, "term 'hf-rand' needs 'hf-period'");
	if (b->has_burst && !b->has_hf)
		return perr(p, b->burst_pos, "term 'hf-burst' needs 'hf-period'");
	if (b->has_jitter && !b->has_hf)
		return perr(p, b->jitter_pos, "term 'hf-jitter' needs 'hf-period'");
	if (!b->has_hf)
		return 0;
	if (!ev->hf_burst)
		ev->hf_burst = 1;
	if (b->has_jitter && ev->hf_jitter / 2 >= ev->attr.hf_sample_period)
		return perr(p, b->jitter_pos,
			    "term 'hf-jitter': %u must be below 2 x hf-period (%u)",
			    ev->hf_jitter, ev->attr.hf_sample_period);
	if ((ev->terms & PM_EVSPEC_T_PERIOD) && !(ev->terms & PM_EVSPEC_T_FREQ) &&
	    (uint64_t)ev->attr.hf_sample_period * ev->hf_burst >= ev->term_period)
		return perr(p, b->hf_pos,
			    "term 'hf-period': hf-period (%u) x hf-burst (%u) must be below period (%llu)",
			    ev->attr.hf_sample_period, ev->hf_burst,
			    (unsigned long long)ev->term_period);
	ev->attr.size = PM_ATTR_SIZE_VER9;
	ev->terms |= PM_EVSPEC_T_HF;
	return 0;
}

static int pmu_term(struct parser *p, struct build *b, const char *pmu,
		    const struct term *t, int depth);

/* Apply an events/ alias: its text is itself a term list. */
static int apply_alias(struct parser *p, struct build *b, const char *pmu,
		       const char *text, size_t pos, int depth)
{
	const char *q = text;

	if (depth > 4)
		return perr(p, pos, "alias loop in pmu '%s'", pmu);
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
				return perr(p, pos, "alias term '%.*s' of pmu '%s' needs a value",
					    (int)t.klen, t.key, pmu);
			if ((ret = pmu_term(p, b, pmu, &t, depth + 1)))
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

static int pmu_term(struct parser *p, struct build *b, const char *pmu,
		    const struct term *t, int depth)
{
	char key[128];
	uint64_t mask, v = 1, bits;
	int field, ret;
	char *alias;

	ret = generic_term(p, b, t, false);
	if (ret <= 0)
		return ret;
	if (t->klen >= sizeof(key))
		return perr(p, t->pos, "term too long");
	memcpy(key, t->key, t->klen);
	key[t->klen] = 0;
	if (!pm_sysfs_pmu_format(p->root, pmu, key, &field, &mask)) {
		uint64_t *dst[] = { &b->ev.attr.config, &b->ev.attr.config1,
				    &b->ev.attr.config2, &b->ev.attr.config3 };

		if (t->val && (ret = term_number(p, t, &v)))
			return ret;
		if (pm_evspec_format_value(mask, v, &bits))
			return perr(p, t->val ? t->vpos : t->pos,
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
		ret = apply_alias(p, b, pmu, alias, t->pos, depth);
		free(alias);
		return ret;
	}
	if (!t->val && !legacy_term(p, b, pmu, key))
		return 0;
	{
		char *names = pm_sysfs_pmu_format_names(p->root, pmu);

		ret = perr(p, t->pos, "unknown term '%s' for pmu '%s' (valid terms: %s%s" GENERIC_TERMS ")",
			   key, pmu, names, *names ? "," : "");
		free(names);
	}
	return ret;
}

/* Read "/term,term=value,.../" starting at the first '/'. */
static int parse_terms(struct parser *p, struct term **terms, size_t *nr)
{
	size_t alloc = 0;

	*terms = NULL;
	*nr = 0;
	p->pos++;	/* '/' */
	while (p->s[p->pos] != '/') {
		struct term t = { 0 };
		size_t n;

		n = 0;
		while (is_name_char(p->s[p->pos + n]))
			n++;
		if (!n) {
			if (!p->s[p->pos])
				return perr(p, p->pos, "missing closing '/'");
			return perr(p, p->pos, "parser error: expected a term");
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
				return perr(p, t.vpos, "parser error: term '%.*s' has an empty value",
					    (int)t.klen, t.key);
		}
		PM_GROW(*terms, alloc, *nr + 1);
		(*terms)[(*nr)++] = t;
		if (p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->s[p->pos] != '/')
			return perr(p, p->pos, p->s[p->pos] ? "parser error: unexpected '%c'" :
				    "missing closing '/'%c", p->s[p->pos]);
	}
	p->pos++;
	return 0;
}

struct mods {
	bool eu, ek, eh, eH, eG, eI, exclude_GH, sample_read, pinned, exclusive;
	int precise;
};

static bool is_mod_char(char c)
{
	return c && strchr("ukhGHpPSDIWeb", c);
}

/*
 * perf's modifier rules. `from` is NULL for an event's own modifiers (all
 * start from zero, which is why cpu-clock:k loses the default
 * exclude_guest) and the event for a group's modifiers (they start from
 * what the event has).
 */
static int get_mods(struct parser *p, const char *str, size_t len, size_t pos,
		    const struct pm_evspec_event *from, struct mods *m)
{
	const struct pm_attr *a = from ? &from->attr : NULL;
	bool exclude;
	size_t i;

	memset(m, 0, sizeof(*m));
	if (len > sizeof("ukhGHpppPSDIWeb") - 1)
		return perr(p, pos, "Bad modifier '%.*s': too long", (int)len, str);
	for (i = 0; i < len; i++)
		if (!is_mod_char(str[i]) ||
		    (str[i] != 'p' && memchr(str + i + 1, str[i], len - i - 1)))
			return perr(p, pos + i, "Bad modifier '%.*s'", (int)len, str);
	if (a) {
		m->eu = pm_attr__flag(a, PM_ATTR_EXCLUDE_USER);
		m->ek = pm_attr__flag(a, PM_ATTR_EXCLUDE_KERNEL);
		m->eh = pm_attr__flag(a, PM_ATTR_EXCLUDE_HV);
		m->eH = pm_attr__flag(a, PM_ATTR_EXCLUDE_HOST);
		m->eG = pm_attr__flag(a, PM_ATTR_EXCLUDE_GUEST);
		m->eI = pm_attr__flag(a, PM_ATTR_EXCLUDE_IDLE);
		m->precise = (int)pm_attr__precise_ip(a);
		m->pinned = pm_attr__flag(a, PM_ATTR_PINNED);
		m->exclusive = pm_attr__flag(a, PM_ATTR_EXCLUSIVE);
		m->exclude_GH = from->exclude_GH;
	}
	exclude = m->eu || m->ek || m->eh;
	for (i = 0; i < len; i++) {
		switch (str[i]) {
		case 'u':
		case 'k':
		case 'h':
			if (!exclude) {
				exclude = true;
				m->eu = m->ek = m->eh = true;
			}
			if (str[i] == 'u') {
				if (!m->exclude_GH)	/* perf_guest is off */
					m->eG = true;
				m->eu = false;
			} else if (str[i] == 'k') {
				m->ek = false;
			} else {
				m->eh = false;
			}
			break;
		case 'G':
		case 'H':
			if (!m->exclude_GH)
				m->exclude_GH = m->eG = m->eH = true;
			if (str[i] == 'G')
				m->eG = false;
			else
				m->eH = false;
			break;
		case 'I': m->eI = true; break;
		case 'p':
			m->precise++;
			if (!m->exclude_GH)
				m->eG = true;
			break;
		case 'P': m->precise = 3; break;	/* perf lowers it at open time */
		case 'S': m->sample_read = true; break;
		case 'D': m->pinned = true; break;
		case 'e': m->exclusive = true; break;
		default: break;			/* W, b: no attr bits */
		}
	}
	if (m->precise > 3)
		return perr(p, pos, "Bad modifier '%.*s': precise_ip is at most 3 (ppp)",
			    (int)len, str);
	return 0;
}

static void apply_mods(struct pm_evspec_event *ev, const struct mods *m, bool leader)
{
	struct pm_attr *a = &ev->attr;

	pm_attr__set_flag(a, PM_ATTR_EXCLUDE_USER, m->eu);
	pm_attr__set_flag(a, PM_ATTR_EXCLUDE_KERNEL, m->ek);
	pm_attr__set_flag(a, PM_ATTR_EXCLUDE_HV, m->eh);
	pm_attr__set_flag(a, PM_ATTR_EXCLUDE_HOST, m->eH);
	pm_attr__set_flag(a, PM_ATTR_EXCLUDE_GUEST, m->eG);
	pm_attr__set_flag(a, PM_ATTR_EXCLUDE_IDLE, m->eI);
	pm_attr__set_precise_ip(a, (unsigned int)m->precise);
	ev->exclude_GH = m->exclude_GH;
	ev->sample_read = m->sample_read;
	if (leader) {
		pm_attr__set_flag(a, PM_ATTR_PINNED, m->pinned);
		pm_attr__set_flag(a, PM_ATTR_EXCLUSIVE, m->exclusive);
	}
}

/* Modifiers after an event: ":mods", or "mods" right after a term list. */
static int read_mods(struct parser *p, bool after_terms, const char **str,
		     size_t *len, size_t *pos)
{
	*str = NULL;
	*len = 0;
	if (p->s[p->pos] == ':')
		p->pos++;
	else if (!after_terms || !is_mod_char(p->s[p->pos]))
		return 0;
	*pos = p->pos;
	*str = p->s + p->pos;
	while (is_name_char(p->s[p->pos]))
		p->pos++;
	*len = (size_t)(p->s + p->pos - *str);
	if (!*len)
		return perr(p, *pos, "parser error: expected modifiers after ':'");
	return 0;
}

static bool is_raw(const char *s, size_t n, uint64_t *config)
{
	size_t i;

	if (n < 2 || n > 17 || s[0] != 'r')
		return false;
	*config = 0;
	for (i = 1; i < n; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			return false;
		*config = *config << 4 | (uint64_t)d;
	}
	return true;
}

static void event_init(struct pm_evspec_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->attr.size = PM_EVSPEC_ATTR_SIZE;
	/* perf's default without modifiers: count the host only. */
	pm_attr__set_flag(&ev->attr, PM_ATTR_EXCLUDE_GUEST, true);
}

static bool symbolic(const char *s, size_t n, uint32_t *type, uint64_t *config)
{
	if (!pm_event_name__lookup(s, n, type, config))
		return true;
	if (!pm_event_name__cache(s, n, config)) {
		*type = 3;
		return true;
	}
	return false;
}

/* The id of tracepoint NAME:TP where TP follows p->pos's ':'. */
static int tracepoint_id(struct parser *p, const char *name, size_t n, uint64_t *id)
{
	const char *tn = p->s + p->pos + 1;
	char *sys = pm_strndup(name, n), *tp = pm_strndup(tn, name_len(tn));
	int r = pm_sysfs_tracepoint_id(p->root, sys, tp, id);
	char dir[256];

	if (r && p->mount_tracefs && !p->mount_tried && !strcmp(p->root, "/sys") &&
	    pm_tracefs__find(NULL, dir, sizeof(dir))) {
		/* a fresh machine: perf mounts tracefs and goes on */
		p->mount_tried = true;
		if (!pm_tracefs__mount(&p->mount_err))
			r = pm_sysfs_tracepoint_id(p->root, sys, tp, id);
	}
	free(sys);
	free(tp);
	return r;
}

static int parse_event(struct parser *p, struct pm_evspec_event *out)
{
	struct build b;
	size_t start = p->pos, n, i, mpos = 0, mlen;
	const char *name = p->s + p->pos, *mstr;
	struct term *terms = NULL;
	size_t nterms = 0;
	enum kind kind;
	char *pmu = NULL, *alias = NULL;
	uint32_t type;
	uint64_t config;
	bool had_terms = false;
	int ret = 0;

	memset(&b, 0, sizeof(b));
	event_init(&b.ev);
	b.ev.pos = start;
	n = name_len(name);
	if (!n)
		return perr(p, p->pos, p->s[p->pos] ? "parser error: unexpected '%c'" :
			    "parser error: expected an event%c", p->s[p->pos]);
	p->pos += n;

	if (symbolic(name, n, &type, &config)) {
		kind = K_SYMBOL;
	} else if (is_raw(name, n, &config)) {
		kind = K_RAW;
		type = 4;
	} else if (p->s[p->pos] == ':' && name_len(p->s + p->pos + 1) &&
		   !tracepoint_id(p, name, n, &config)) {
		/* sys:name. A known event followed by ':' was caught above. */
		p->pos += 1 + name_len(p->s + p->pos + 1);
		kind = K_TRACEPOINT;
		type = 2;
	} else if (p->s[p->pos] == '/' && pm_sysfs_pmu_exists(p->root, name, n)) {
		kind = K_PMU;
		pmu = pm_strndup(name, n);
		if (pm_sysfs_pmu_type(p->root, pmu, &type)) {
			ret = perr(p, start, "pmu '%s' has no valid type file", pmu);
			goto out;
		}
		config = 0;
	} else {
		char *nm = pm_strndup(name, n);

		pmu = pm_sysfs_find_alias_pmu(p->root, nm);
		if (pmu)
			alias = pm_sysfs_pmu_alias(p->root, pmu, nm);
		free(nm);
		if (!pmu || !alias || pm_sysfs_pmu_type(p->root, pmu, &type)) {
			size_t tl = p->s[p->pos] == ':' ? name_len(p->s + p->pos + 1) : 0;

			if (tl && p->mount_err.code)
				ret = perr(p, start, "unknown tracepoint '%.*s:%.*s': %s",
					   (int)n, name, (int)tl, p->s + p->pos + 1, p->mount_err.msg);
			else if (tl)
				ret = perr(p, start, "unknown tracepoint '%.*s:%.*s' (no id under tracefs)",
					   (int)n, name, (int)tl, p->s + p->pos + 1);
			else
				ret = perr(p, start, "parser error: unknown event '%.*s'", (int)n, name);
			goto out;
		}
		kind = K_PMU;
		config = 0;
	}
	b.ev.attr.type = type;
	b.ev.attr.config = config;
	b.ev.tracepoint = kind == K_TRACEPOINT;
	if (alias && (ret = apply_alias(p, &b, pmu, alias, start, 0)))
		goto out;

	if (p->s[p->pos] == '/') {
		if ((ret = parse_terms(p, &terms, &nterms)))
			goto out;
		had_terms = true;
	} else if (kind == K_PMU && !alias) {
		ret = perr(p, p->pos, "pmu '%s': expected '/'", pmu);
		goto out;
	}
	for (i = 0; i < nterms; i++) {
		const struct term *t = &terms[i];

		if (kind == K_PMU) {
			ret = pmu_term(p, &b, pmu, t, 0);
		} else {
			ret = generic_term(p, &b, t, kind == K_TRACEPOINT);
			if (ret == 1)
				ret = perr(p, t->pos, kind == K_TRACEPOINT ?
					   "unknown term '%.*s' for tracepoint (valid terms: call-graph,stack-size)" :
					   "unknown term '%.*s' (valid terms: " GENERIC_TERMS ")",
					   (int)t->klen, t->key);
		}
		if (ret)
			goto out;
	}
	if ((ret = check_hf(p, &b)))
		goto out;
	if ((ret = read_mods(p, had_terms, &mstr, &mlen, &mpos)))
		goto out;
	if (mstr) {
		struct mods m;

		if ((ret = get_mods(p, mstr, mlen, mpos, NULL, &m)))
			goto out;
		apply_mods(&b.ev, &m, true);
	}
	if (!b.ev.name)
		b.ev.name = pm_strndup(p->s + start, p->pos - start);
	*out = b.ev;
	b.ev.name = NULL;
out:
	free(b.ev.name);
	free(terms);
	free(pmu);
	free(alias);
	return ret;
}

static void push(struct pm_evspec_list *l, const struct pm_evspec_event *ev)
{
	PM_GROW(l->ev, l->alloc, l->nr + 1);
	l->ev[l->nr++] = *ev;
}

static int parse_group(struct parser *p, size_t base)
{
	size_t open = p->pos, first = p->out->nr, i, mlen, mpos = 0;
	const char *mstr;
	int ret;

	p->pos++;	/* '{' */
	for (;;) {
		struct pm_evspec_event ev;

		if (p->s[p->pos] == '{')
			return perr(p, p->pos, "parser error: groups do not nest");
		if ((ret = parse_event(p, &ev)))
			return ret;
		push(p->out, &ev);
		if (p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->s[p->pos] == '}')
			break;
		if (!p->s[p->pos])
			return perr(p, open, "parser error: group '{' is not closed");
		return perr(p, p->pos, "parser error: unexpected '%c' in group", p->s[p->pos]);
	}
	p->pos++;	/* '}' */
	if ((ret = read_mods(p, false, &mstr, &mlen, &mpos)))
		return ret;
	for (i = first; i < p->out->nr; i++) {
		struct pm_evspec_event *ev = &p->out->ev[i];

		ev->group_leader = (int)(base + first);
		ev->nr_members = i == first ? (int)(p->out->nr - first) : 0;
		if (mstr) {
			struct mods m;

			if ((ret = get_mods(p, mstr, mlen, mpos, ev, &m)))
				return ret;
			apply_mods(ev, &m, i == first);
		}
	}
	return 0;
}

void pm_evspec_list__init(struct pm_evspec_list *list)
{
	memset(list, 0, sizeof(*list));
}

void pm_evspec_list__exit(struct pm_evspec_list *list)
{
	size_t i;

	if (!list)
		return;
	for (i = 0; i < list->nr; i++)
		free(list->ev[i].name);
	free(list->ev);
	memset(list, 0, sizeof(*list));
}

int pm_evspec__parse(struct pm_evspec_list *list, const char *str,
		     const struct pm_evspec_opts *opts, struct pm_error *err)
{
	struct pm_evspec_list tmp;
	struct parser p = {
		.s = str, .root = opts && opts->sysfs_root ? opts->sysfs_root : "/sys",
		.out = &tmp, .err = err, .mount_tracefs = opts && opts->mount_tracefs,
	};
	size_t base = list->nr, i;
	int ret = 0;

	pm_evspec_list__init(&tmp);
	if (!*str) {
		ret = perr(&p, 0, "parser error: empty event list");
		goto fail;
	}
	for (;;) {
		if (str[p.pos] == '{') {
			ret = parse_group(&p, base);
		} else {
			struct pm_evspec_event ev;

			ret = parse_event(&p, &ev);
			if (!ret) {
				ev.group_leader = (int)(base + tmp.nr);
				ev.nr_members = 1;
				push(&tmp, &ev);
			}
		}
		if (ret)
			goto fail;
		if (str[p.pos] == ',' && str[p.pos + 1]) {
			p.pos++;
			continue;
		}
		if (!str[p.pos])
			break;
		ret = perr(&p, p.pos, "parser error: unexpected '%c'", str[p.pos]);
		goto fail;
	}
	for (i = 0; i < tmp.nr; i++)
		push(list, &tmp.ev[i]);
	free(tmp.ev);
	return 0;
fail:
	pm_evspec_list__exit(&tmp);
	return ret;
}
