// SPDX-License-Identifier: GPL-2.0
/*
 * The DSO collection of a session: one DSO per name, found by a hash of
 * the name (open addressing), so MMAP-heavy system-wide recordings do not
 * search linearly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/dso.h"
#include "pmprof/util.h"
#include "symbols/dso-internal.h"

struct pm_dsos {
	struct pm_symctx *ctx;
	struct pm_dso **list;		/* in creation order */
	size_t nr, alloc;
	struct pm_dso **hash;		/* nbuckets, a power of two */
	size_t nbuckets;
	struct pm_dso *kernel;
};

static char *dupz(const char *s)
{
	return s ? pm_strdup(s) : NULL;
}

struct pm_symctx *pm_symctx__new(const struct pm_symconf *conf)
{
	struct pm_symctx *ctx = pm_zalloc(sizeof(*ctx));
	struct pm_symconf *c = &ctx->conf;
	const char *home = getenv("HOME");
	char buf[4096];

	ctx->refcnt = 1;
	if (conf) {
		size_t sz = conf->sz ? PM_MIN(conf->sz, sizeof(*c)) : sizeof(*c);

		memcpy(c, conf, sz);
	}
	c->sz = sizeof(*c);
	c->symfs = c->symfs && *c->symfs ? dupz(c->symfs) : NULL;
	c->kallsyms = dupz(c->kallsyms);
	c->vmlinux = dupz(c->vmlinux);
	c->tmp_dir = pm_strdup(c->tmp_dir ? c->tmp_dir : "/tmp");
	if (c->buildid_dir)
		ctx->home_debug = pm_strdup(c->buildid_dir);
	else if (home) {
		snprintf(buf, sizeof(buf), "%s/.debug", home);
		ctx->home_debug = pm_strdup(buf);
	}
	if (c->debug_dir) {
		ctx->debug_dir = pm_strdup(c->debug_dir);
	} else {
		snprintf(buf, sizeof(buf), "%s/usr/lib/debug",
			 c->symfs ? c->symfs : "");
		ctx->debug_dir = pm_strdup(buf);
	}
	c->buildid_dir = ctx->home_debug;
	c->debug_dir = ctx->debug_dir;
	return ctx;
}

struct pm_symctx *pm_symctx__get(struct pm_symctx *ctx)
{
	ctx->refcnt++;
	return ctx;
}

void pm_symctx__put(struct pm_symctx *ctx)
{
	if (!ctx || --ctx->refcnt > 0)
		return;
	free((char *)ctx->conf.symfs);
	free((char *)ctx->conf.kallsyms);
	free((char *)ctx->conf.vmlinux);
	free((char *)ctx->conf.tmp_dir);
	free(ctx->home_debug);
	free(ctx->debug_dir);
	pm_kallsyms__delete(ctx->ks);
	free(ctx->ks_path);
	free(ctx);
}

static uint64_t hash_name(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

static struct pm_dso **slot(struct pm_dso **hash, size_t nb, const char *name)
{
	size_t i = (size_t)hash_name(name) & (nb - 1);

	while (hash[i] && strcmp(hash[i]->name, name))
		i = (i + 1) & (nb - 1);
	return &hash[i];
}

static void rehash(struct pm_dsos *dsos)
{
	size_t nb = dsos->nbuckets ? dsos->nbuckets * 2 : 64;

	free(dsos->hash);
	dsos->hash = pm_calloc(nb, sizeof(*dsos->hash));
	dsos->nbuckets = nb;
	for (size_t i = 0; i < dsos->nr; i++)
		*slot(dsos->hash, nb, dsos->list[i]->name) = dsos->list[i];
}

struct pm_dsos *pm_dsos__new(const struct pm_symconf *conf)
{
	struct pm_dsos *dsos = pm_zalloc(sizeof(*dsos));

	dsos->ctx = pm_symctx__new(conf);
	rehash(dsos);
	return dsos;
}

void pm_dsos__delete(struct pm_dsos *dsos)
{
	if (!dsos)
		return;
	for (size_t i = 0; i < dsos->nr; i++)
		pm_dso__put(dsos->list[i]);
	free(dsos->list);
	free(dsos->hash);
	pm_symctx__put(dsos->ctx);
	free(dsos);
}

/* Borrowed: the collection keeps its reference. */
static struct pm_dso *find_or_add(struct pm_dsos *dsos, const char *filename)
{
	char kname[256];
	const char *name = filename;
	struct pm_dso **s, *dso;

	if (pm_dso_classify(filename, false) == PM_DSO_KERNEL)
		name = "[kernel.kallsyms]";
	else if (filename[0] == '[' && pm_kmod_name(filename, kname, sizeof(kname)))
		name = kname;
	s = slot(dsos->hash, dsos->nbuckets, name);
	if (*s)
		return *s;
	dso = pm_dso__new(dsos->ctx, name);
	PM_GROW(dsos->list, dsos->alloc, dsos->nr + 1);
	dsos->list[dsos->nr++] = dso;
	if (dsos->nr * 2 > dsos->nbuckets)
		rehash(dsos);
	else
		*s = dso;
	return dso;
}

struct pm_dso *pm_dsos__findnew(struct pm_dsos *dsos, const char *filename)
{
	return pm_dso__get(find_or_add(dsos, filename));
}

struct pm_dso *pm_dsos__kernel(struct pm_dsos *dsos)
{
	if (!dsos->kernel)
		dsos->kernel = find_or_add(dsos, "[kernel.kallsyms]");
	return dsos->kernel;
}

struct pm_dso *pm_dsos__jit(struct pm_dsos *dsos, int pid)
{
	char name[4096];

	snprintf(name, sizeof(name), "%s/perf-%d.map", dsos->ctx->conf.tmp_dir,
		 pid);
	return find_or_add(dsos, name);
}

void pm_dsos__set_build_id(struct pm_dsos *dsos, const char *filename,
			   const uint8_t *id, size_t size)
{
	pm_dso__set_build_id(find_or_add(dsos, filename), id, size);
}

size_t pm_dsos__nr(const struct pm_dsos *dsos)
{
	return dsos->nr;
}

struct pm_dso *pm_dsos__at(const struct pm_dsos *dsos, size_t i)
{
	return i < dsos->nr ? dsos->list[i] : NULL;
}
