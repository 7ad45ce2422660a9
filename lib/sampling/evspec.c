// SPDX-License-Identifier: GPL-2.0
/*
 * The -e parser: a hand-written recursive descent over perf's event
 * grammar (see evspec.h). It builds each event's attr from the string
 * alone; pm_evspec__apply_record() (evspec-record.c) adds what perf
 * record adds. Every error carries the byte offset of the offending term.
 * This file reads events, modifiers and groups; the term lists between
 * slashes are evspec-terms.c's.
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
#include "sampling/evspec-parse.h"

enum kind { K_SYMBOL, K_RAW, K_PMU, K_TRACEPOINT };

int evs_perr(struct parser *p, size_t pos, const char *fmt, ...)
{
	char msg[sizeof(p->err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return pm_error__at(p->err, PM_EUSAGE, pos, "%s", msg);
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
		return evs_perr(p, pos, "Bad modifier '%.*s': too long", (int)len, str);
	for (i = 0; i < len; i++)
		if (!is_mod_char(str[i]) ||
		    (str[i] != 'p' && memchr(str + i + 1, str[i], len - i - 1)))
			return evs_perr(p, pos + i, "Bad modifier '%.*s'", (int)len, str);
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
		return evs_perr(p, pos, "Bad modifier '%.*s': precise_ip is at most 3 (ppp)",
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
	while (evs_is_name_char(p->s[p->pos]))
		p->pos++;
	*len = (size_t)(p->s + p->pos - *str);
	if (!*len)
		return evs_perr(p, *pos, "parser error: expected modifiers after ':'");
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
	char *sys = pm_strndup(name, n), *tp = pm_strndup(tn, evs_name_len(tn));
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
	n = evs_name_len(name);
	if (!n)
		return evs_perr(p, p->pos, p->s[p->pos] ? "parser error: unexpected '%c'" :
			    "parser error: expected an event%c", p->s[p->pos]);
	p->pos += n;

	if (symbolic(name, n, &type, &config)) {
		kind = K_SYMBOL;
	} else if (is_raw(name, n, &config)) {
		kind = K_RAW;
		type = 4;
	} else if (p->s[p->pos] == ':' && evs_name_len(p->s + p->pos + 1) &&
		   !tracepoint_id(p, name, n, &config)) {
		/* sys:name. A known event followed by ':' was caught above. */
		p->pos += 1 + evs_name_len(p->s + p->pos + 1);
		kind = K_TRACEPOINT;
		type = 2;
	} else if (p->s[p->pos] == '/' && pm_sysfs_pmu_exists(p->root, name, n)) {
		kind = K_PMU;
		pmu = pm_strndup(name, n);
		if (pm_sysfs_pmu_type(p->root, pmu, &type)) {
			ret = evs_perr(p, start, "pmu '%s' has no valid type file", pmu);
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
			size_t tl = p->s[p->pos] == ':' ? evs_name_len(p->s + p->pos + 1) : 0;

			if (tl && p->mount_err.code)
				ret = evs_perr(p, start, "unknown tracepoint '%.*s:%.*s': %s",
					   (int)n, name, (int)tl, p->s + p->pos + 1, p->mount_err.msg);
			else if (tl)
				ret = evs_perr(p, start, "unknown tracepoint '%.*s:%.*s' (no id under tracefs)",
					   (int)n, name, (int)tl, p->s + p->pos + 1);
			else
				ret = evs_perr(p, start, "parser error: unknown event '%.*s'", (int)n, name);
			goto out;
		}
		kind = K_PMU;
		config = 0;
	}
	b.ev.attr.type = type;
	b.ev.attr.config = config;
	b.ev.tracepoint = kind == K_TRACEPOINT;
	if (alias && (ret = evs_apply_alias(p, &b, pmu, alias, start, 0)))
		goto out;

	if (p->s[p->pos] == '/') {
		if ((ret = evs_parse_terms(p, &terms, &nterms)))
			goto out;
		had_terms = true;
	} else if (kind == K_PMU && !alias) {
		ret = evs_perr(p, p->pos, "pmu '%s': expected '/'", pmu);
		goto out;
	}
	for (i = 0; i < nterms; i++) {
		const struct term *t = &terms[i];

		if (kind == K_PMU) {
			ret = evs_pmu_term(p, &b, pmu, t, 0);
		} else {
			ret = evs_generic_term(p, &b, t, kind == K_TRACEPOINT);
			if (ret == 1)
				ret = evs_perr(p, t->pos, kind == K_TRACEPOINT ?
					   "unknown term '%.*s' for tracepoint (valid terms: call-graph,stack-size)" :
					   "unknown term '%.*s' (valid terms: " GENERIC_TERMS ")",
					   (int)t->klen, t->key);
		}
		if (ret)
			goto out;
	}
	if ((ret = evs_check_hf(p, &b)))
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
			return evs_perr(p, p->pos, "parser error: groups do not nest");
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
			return evs_perr(p, open, "parser error: group '{' is not closed");
		return evs_perr(p, p->pos, "parser error: unexpected '%c' in group", p->s[p->pos]);
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
		ret = evs_perr(&p, 0, "parser error: empty event list");
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
		ret = evs_perr(&p, p.pos, "parser error: unexpected '%c'", str[p.pos]);
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
