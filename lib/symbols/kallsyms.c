// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/kallsyms: "ffffffff81000000 T _text" and, for modules,
 * "ffffffffc0a01000 t ext4_foo\t[ext4]". Parsed in one pass into the
 * kernel's tables and one function table per module.
 */
#include <ctype.h>
#include <errno.h>
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
	struct pm_symtab *funcs, *data;
	struct pm_kmodule *mods;
	size_t nr_mods, alloc_mods;
	uint64_t text, stext;	/* _text, _stext (before any relocation) */
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
	return m->funcs;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int pm_kallsyms__parse(const char *buf, size_t len, const char *what,
		       struct pm_kallsyms **out, struct pm_error *err)
{
	struct pm_kallsyms *ks = pm_zalloc(sizeof(*ks));
	const char *p = buf, *end = buf + len;
	size_t lineno = 0, nr = 0;
	bool nonzero = false;
	char *name = NULL;
	size_t name_alloc = 0;

	ks->funcs = pm_symtab__new(false);
	ks->data = pm_symtab__new(false);
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
		for (; q < eol && hexval(*q) >= 0; q++, digits++)
			addr = addr << 4 | (uint64_t)hexval(*q);
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

		if ((size_t)(ne - ns) + 1 > name_alloc) {
			name_alloc = (size_t)(ne - ns) + 1;
			name = pm_realloc(name, name_alloc);
		}
		memcpy(name, ns, (size_t)(ne - ns));
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
			if (!ms && !strcmp(name, "_text"))
				ks->text = addr;
			if (!ms && !strcmp(name, "_stext"))
				ks->stext = addr;
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
		free(name);
		pm_kallsyms__delete(ks);
		return pm_error__at(err, PM_EFORMAT, lineno,
				    "%s: line %zu: not a kallsyms line", what,
				    lineno);
	}
	free(name);
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
	r = pm_kallsyms__parse(buf, len, path, out, err);
	free(buf);
	return r;
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
}

int pm_kallsyms__check_host(const struct pm_kernel_ident *rec,
			    struct pm_error *err)
{
	uint8_t id[64];
	char h1[129], h2[129];
	struct utsname u;
	int n;

	if (rec && rec->build_id && rec->build_id_size) {
		n = pm_kernel__host_build_id(NULL, id, sizeof(id), NULL);
		if (n > 0) {
			size_t m = rec->build_id_size < sizeof(id) ?
				   rec->build_id_size : sizeof(id);

			if ((size_t)n == m && !memcmp(id, rec->build_id, m))
				return 0;
			return pm_error__fmt(err, PM_EUNSUP,
				"kernel build id %s of the recording differs from this host's %s",
				pm_build_id__hex(rec->build_id, m, h1),
				pm_build_id__hex(id, (size_t)n, h2));
		}
	}
	if (rec && rec->osrelease && *rec->osrelease) {
		if (uname(&u) < 0)
			return pm_error__fmt(err, errno, "uname: %s",
					     strerror(errno));
		if (strcmp(u.release, rec->osrelease))
			return pm_error__fmt(err, PM_EUNSUP,
				"recorded on kernel %s, this host runs %s",
				rec->osrelease, u.release);
	}
	return 0;
}
