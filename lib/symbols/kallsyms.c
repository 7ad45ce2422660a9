// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/kallsyms: "ffffffff81000000 T _text" and, for modules,
 * "ffffffffc0a01000 t ext4_foo\t[ext4]". Parsed in one pass into the
 * kernel's tables and one function table per module.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "pmprof/error.h"
#include "pmprof/symbols.h"
#include "pmprof/util.h"
#include "symbols/internal.h"

struct pm_kmodule {
	char *name;		/* "[ext4]" */
	struct pm_symtab *funcs;
};

struct pm_kallsyms {
	/* a copy of the file, each name ended in place: the tables'
	 * names point into it */
	char *names;
	struct pm_symtab *funcs, *data;
	struct pm_kmodule *mods;
	size_t nr_mods, alloc_mods;
	uint64_t text, stext;	/* _text, _stext (moved by relocation) */
	/* _sinittext, _einittext: kept apart, as their aliases win the
	 * name at their addresses in the tables */
	uint64_t sinittext, einittext;
};

static struct pm_symtab *module_tab(struct pm_kallsyms *ks, const char *name,
				    size_t len)
{
	struct pm_kmodule *m;

	for (size_t i = 0; i < ks->nr_mods; i++) {
		m = &ks->mods[i];
		if (strlen(m->name) == len + 2 &&
		    !memcmp(m->name + 1, name, len))
			return m->funcs;
	}
	PM_GROW(ks->mods, ks->alloc_mods, ks->nr_mods + 1);
	m = &ks->mods[ks->nr_mods++];
	m->name = pm_malloc(len + 3);
	m->name[0] = '[';
	memcpy(m->name + 1, name, len);
	m->name[len + 1] = ']';
	m->name[len + 2] = '\0';
	m->funcs = pm_symtab__new(false);
	pm_symtab__borrow_names(m->funcs);
	return m->funcs;
}

/*
 * Each character's hex digit value plus one, 0 for none: a load per
 * character of 120k addresses where range tests took half the parse (and
 * no locale lookup).
 */
static const uint8_t hex_digit1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static int hexval(int c)
{
	return (int)hex_digit1[(unsigned char)c] - 1;
}

/* The kernel's section markers, kept apart from the tables. */
static void note_marker(struct pm_kallsyms *ks, const char *name,
			uint64_t addr)
{
	if (!strcmp(name, "_text"))
		ks->text = addr;
	else if (!strcmp(name, "_stext"))
		ks->stext = addr;
	else if (!strcmp(name, "_sinittext"))
		ks->sinittext = addr;
	else if (!strcmp(name, "_einittext"))
		ks->einittext = addr;
}

/* Parse `names`, len bytes and one more to spare, which ks then owns
 * (freed with it, or here on error). */
static int parse_owned(char *names, size_t len, const char *what,
		       struct pm_kallsyms **out, struct pm_error *err)
{
	struct pm_kallsyms *ks = pm_zalloc(sizeof(*ks));
	const char *buf = names, *p = buf, *end = buf + len;
	size_t lineno = 0, nr = 0;
	bool nonzero = false;
	char *name;

	ks->names = names;
	ks->funcs = pm_symtab__new(false);
	ks->data = pm_symtab__new(false);
	pm_symtab__borrow_names(ks->funcs);
	pm_symtab__borrow_names(ks->data);
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *q = p, *ns, *ne, *ms = NULL, *me = NULL;
		uint64_t addr = 0;
		int digits = 0, type;

		if (!eol)
			eol = end;
		lineno++;
		if (q == eol) {		/* empty line */
			p = eol + 1;
			continue;
		}
		for (int h; q < eol && (h = hexval(*q)) >= 0; q++, digits++)
			addr = addr << 4 | (uint64_t)h;
		if (!digits || digits > 16 || q >= eol || *q != ' ')
			goto bad;
		q++;
		if (q >= eol || !isalpha((unsigned char)*q))
			goto bad;
		type = *q++;
		if (q >= eol || *q != ' ')
			goto bad;
		ns = ++q;
		while (q < eol && *q != '\t' && *q != ' ')
			q++;
		ne = q;
		if (ne == ns)
			goto bad;
		/* optional "\t[module]" */
		while (q < eol && (*q == '\t' || *q == ' '))
			q++;
		if (q < eol) {
			const char *r = eol;

			while (r > q && isspace((unsigned char)r[-1]))
				r--;
			if (*q != '[' || r - q < 3 || r[-1] != ']')
				goto bad;
			ms = q + 1;
			me = r - 1;
		}

		/* (what ends the name is past it: a blank, the newline, or
		 * the copy's extra byte) */
		name = ks->names + (ns - buf);
		name[ne - ns] = '\0';
		nr++;
		if (addr)
			nonzero = true;

		switch (type) {
		case 't': case 'T': case 'w': case 'W': {
			struct pm_symtab *tab = ms ?
				module_tab(ks, ms, (size_t)(me - ms)) :
				ks->funcs;
			pm_symtab__add(tab, addr, 0, PM_SYM_FUNC,
				       type == 'T' ? PM_BIND_GLOBAL :
				       type == 't' ? PM_BIND_LOCAL :
				       PM_BIND_WEAK, name);
			/* _text _stext _sinittext _einittext: a cheap test
			 * first, as thousands of names start with '_' */
			if (!ms && name[0] == '_' &&
			    (name[1] == 't' || name[1] == 's' || name[1] == 'e'))
				note_marker(ks, name, addr);
			break;
		}
		case 'd': case 'D': case 'b': case 'B':
		case 'r': case 'R': case 'v': case 'V':
			if (!ms)
				pm_symtab__add(ks->data, addr, 0,
					       PM_SYM_OBJECT,
					       isupper(type) ? PM_BIND_GLOBAL :
					       PM_BIND_LOCAL, name);
			break;
		default:	/* absolute, undefined, debugging: not code */
			break;
		}
		p = eol + 1;
		continue;
bad:
		pm_kallsyms__delete(ks);
		return pm_error__at(err, PM_EFORMAT, lineno,
				    "%s: line %zu: not a kallsyms line", what,
				    lineno);
	}
	if (!nr || !nonzero) {
		pm_kallsyms__delete(ks);
		return pm_error__fmt(err, PM_EFORMAT, nr ?
			"%s: all addresses are zero (kernel.kptr_restrict?)" :
			"%s: no symbols", what);
	}
	pm_symtab__finish(ks->funcs);
	pm_symtab__finish(ks->data);
	for (size_t i = 0; i < ks->nr_mods; i++)
		pm_symtab__finish(ks->mods[i].funcs);
	*out = ks;
	return 0;
}

int pm_kallsyms__parse(const char *buf, size_t len, const char *what,
		       struct pm_kallsyms **out, struct pm_error *err)
{
	char *names = pm_malloc(len + 1);

	memcpy(names, buf, len);
	return parse_owned(names, len, what, out, err);
}

int pm_kallsyms__load(const char *path, struct pm_kallsyms **out,
		      struct pm_error *err)
{
	char *buf;
	size_t len;
	int r;

	if (!path)
		path = "/proc/kallsyms";
	r = pm_read_file(path, &buf, &len, err);
	if (r < 0)
		return r;
	return parse_owned(buf, len, path, out, err);	/* (one byte spare) */
}

void pm_kallsyms__delete(struct pm_kallsyms *ks)
{
	if (!ks)
		return;
	pm_symtab__delete(ks->funcs);
	pm_symtab__delete(ks->data);
	for (size_t i = 0; i < ks->nr_mods; i++) {
		free(ks->mods[i].name);
		pm_symtab__delete(ks->mods[i].funcs);
	}
	free(ks->mods);
	free(ks->names);
	free(ks);
}

struct pm_symtab *pm_kallsyms__kernel(const struct pm_kallsyms *ks)
{
	return ks->funcs;
}

struct pm_symtab *pm_kallsyms__kernel_data(const struct pm_kallsyms *ks)
{
	return ks->data;
}

struct pm_symtab *pm_kallsyms__module(const struct pm_kallsyms *ks,
				      const char *name)
{
	size_t len = strlen(name);

	if (len >= 2 && name[0] == '[' && name[len - 1] == ']') {
		name++;
		len -= 2;
	}
	for (size_t i = 0; i < ks->nr_mods; i++) {
		const char *m = ks->mods[i].name;

		if (strlen(m) == len + 2 && !memcmp(m + 1, name, len))
			return ks->mods[i].funcs;
	}
	return NULL;
}

size_t pm_kallsyms__nr_modules(const struct pm_kallsyms *ks)
{
	return ks->nr_mods;
}

const char *pm_kallsyms__module_name(const struct pm_kallsyms *ks, size_t i)
{
	return i < ks->nr_mods ? ks->mods[i].name : NULL;
}

uint64_t pm_kallsyms__addr(const struct pm_kallsyms *ks, const char *name)
{
	const struct pm_symbol *s;

	if (!strcmp(name, "_text"))
		return ks->text;
	if (!strcmp(name, "_stext"))
		return ks->stext;
	if (!strcmp(name, "_sinittext"))
		return ks->sinittext;
	if (!strcmp(name, "_einittext"))
		return ks->einittext;
	s = pm_symtab__find_name(ks->funcs, name);
	if (!s)
		s = pm_symtab__find_name(ks->data, name);
	return s ? s->start : 0;
}

void pm_kallsyms__relocate(struct pm_kallsyms *ks, int64_t delta)
{
	if (!delta)
		return;
	/* modules load elsewhere anyway; only the kernel image moves */
	pm_symtab__shift(ks->funcs, delta);
	pm_symtab__shift(ks->data, delta);
	if (ks->text)
		ks->text += (uint64_t)delta;
	if (ks->stext)
		ks->stext += (uint64_t)delta;
	if (ks->sinittext)
		ks->sinittext += (uint64_t)delta;
	if (ks->einittext)
		ks->einittext += (uint64_t)delta;
}

/* _text in /proc/kallsyms (near its start), 0 if hidden or absent. */
static uint64_t host_text(void)
{
	char line[512];
	uint64_t text = 0;
	FILE *f = fopen("/proc/kallsyms", "r");
	int lines = 0;

	if (!f)
		return 0;
	while (!text && lines++ < 100000 && fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char t, name[256];

		if (sscanf(line, "%llx %c %255s", &a, &t, name) == 3 && !strcmp(name, "_text"))
			text = a;
	}
	fclose(f);
	return text;
}

void pm_kernel_host__read(struct pm_kernel_host *h)
{
	struct utsname u;
	int n;

	memset(h, 0, sizeof(*h));
	if (!uname(&u)) {
		snprintf(h->osrelease, sizeof(h->osrelease), "%s", u.release);
		snprintf(h->hostname, sizeof(h->hostname), "%s", u.nodename);
		h->id.osrelease = h->osrelease;
		h->id.hostname = h->hostname;
	}
	n = pm_kernel__host_build_id(NULL, h->build_id, sizeof(h->build_id), NULL);
	if (n > 0) {
		h->id.build_id = h->build_id;
		h->id.build_id_size = (size_t)n;
	}
	h->id.text = host_text();
}

bool pm_kernel_ident__same(const struct pm_kernel_ident *rec,
			   const struct pm_kernel_ident *host,
			   char *why, size_t size)
{
	static const struct pm_kernel_ident none;
	char h1[129], h2[129];

	if (!rec)
		rec = &none;
	if (rec->build_id_size && host->build_id_size) {
		size_t m = PM_MIN(rec->build_id_size, (size_t)64);
		bool same = m == host->build_id_size && !memcmp(rec->build_id, host->build_id, m);

		pm_build_id__hex(rec->build_id, m, h1);
		pm_build_id__hex(host->build_id, host->build_id_size, h2);
		if (same)
			snprintf(why, size, "the recording's kernel build id %s is the running kernel's", h1);
		else
			snprintf(why, size, "the recording's kernel build id %s is not the running "
				 "kernel's (%s)", h1, h2);
		return same;
	}
	/* no build id to compare: only the same boot will do */
	if (!rec->osrelease || !*rec->osrelease) {
		snprintf(why, size, "the recording names neither its kernel's build id nor its release");
		return false;
	}
	if (!host->osrelease || strcmp(rec->osrelease, host->osrelease)) {
		snprintf(why, size, "recorded under Linux %s, without a kernel build id; this is %s",
			 rec->osrelease, host->osrelease ? host->osrelease : "another kernel");
		return false;
	}
	if (rec->hostname && *rec->hostname && host->hostname &&
	    strcmp(rec->hostname, host->hostname)) {
		snprintf(why, size, "recorded on %s, without a kernel build id; this is %s",
			 rec->hostname, host->hostname);
		return false;
	}
	if (!rec->text || !host->text) {
		snprintf(why, size, "no kernel build id recorded, and no kernel address (%s) "
			 "to tell the boot by", !rec->text ? "no [kernel.kallsyms]_text map" :
			 "this host's kallsyms hides it");
		return false;
	}
	if (rec->text != host->text) {
		snprintf(why, size, "no kernel build id recorded, and the kernel text was at %#llx, "
			 "not at %#llx as in this boot: another boot", (unsigned long long)rec->text,
			 (unsigned long long)host->text);
		return false;
	}
	snprintf(why, size, "no kernel build id recorded; the same boot: Linux %s%s%s, "
		 "kernel text at %#llx as now", rec->osrelease,
		 rec->hostname && *rec->hostname ? " on " : "",
		 rec->hostname && *rec->hostname ? rec->hostname : "",
		 (unsigned long long)rec->text);
	return true;
}

int pm_kallsyms__check_host(const struct pm_kernel_ident *rec,
			    struct pm_error *err)
{
	struct pm_kernel_host h;
	char why[320];

	pm_kernel_host__read(&h);
	if (pm_kernel_ident__same(rec, &h.id, why, sizeof(why)))
		return 0;
	return pm_error__fmt(err, PM_EUNSUP, "%s", why);
}
