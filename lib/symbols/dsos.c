// SPDX-License-Identifier: GPL-2.0
/*
 * The DSO collection of a session: one DSO per name, found through the
 * hash index, so MMAP-heavy system-wide recordings do not search
 * linearly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/dso.h"
#include "pmprof/hash.h"
#include "pmprof/util.h"
#include "symbols/dso-internal.h"

struct pm_dsos {
	struct pm_symctx *ctx;
	struct pm_dso **list;		/* in creation order */
	size_t nr, alloc;
	struct pm_hash index;		/* by name, into list */
	struct pm_dso *kernel;
};

static char *dupz(const char *s)
{
	return s ? pm_strdup(s) : NULL;
}

struct pm_symctx *pm_symctx__new(const struct pm_symconf *conf)
{
	static const struct pm_symconf default_conf;
	struct pm_symctx *ctx = pm_zalloc(sizeof(*ctx));
	struct pm_symconf *c = &ctx->conf;
	const char *home = getenv("HOME");
	char buf[4096];

	ctx->refcnt = 1;
	PM_OPTS_COPY(c, conf, default_conf);
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

static uint64_t name_hash(const void *arg, size_t i)
{
	return pm_hash_str(((struct pm_dso *const *)arg)[i]->name);
}

struct pm_dsos *pm_dsos__new(const struct pm_symconf *conf)
{
	struct pm_dsos *dsos = pm_zalloc(sizeof(*dsos));

	dsos->ctx = pm_symctx__new(conf);
	return dsos;
}

void pm_dsos__delete(struct pm_dsos *dsos)
{
	if (!dsos)
		return;
	for (size_t i = 0; i < dsos->nr; i++)
		pm_dso__put(dsos->list[i]);
	free(dsos->list);
	pm_hash__release(&dsos->index);
	pm_symctx__put(dsos->ctx);
	free(dsos);
}

/* Borrowed: the collection keeps its reference. */
static struct pm_dso *find_or_add(struct pm_dsos *dsos, const char *filename)
{
	char kname[256];
	const char *name = filename;
	struct pm_dso *dso;
	uint64_t h;
	size_t s;

	if (pm_dso_classify(filename, false) == PM_DSO_KERNEL)
		name = "[kernel.kallsyms]";
	else if (filename[0] == '[' && pm_kmod_name(filename, kname, sizeof(kname)))
		name = kname;
	h = pm_hash_str(name);
	s = PM_HASH_FIND(&dsos->index, h, i, !strcmp(dsos->list[i]->name, name));
	if (!pm_hash__empty(&dsos->index, s))
		return dsos->list[pm_hash__at(&dsos->index, s)];
	dso = pm_dso__new(dsos->ctx, name);
	dso->seq = dsos->nr;
	pm_hash__reserve(&dsos->index, dsos->nr, name_hash, dsos->list);
	s = PM_HASH_FIND(&dsos->index, h, i, false);
	PM_GROW(dsos->list, dsos->alloc, dsos->nr + 1);
	dsos->list[dsos->nr] = dso;
	pm_hash__set(&dsos->index, s, dsos->nr++);
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
