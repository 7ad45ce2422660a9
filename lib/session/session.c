// SPDX-License-Identifier: GPL-2.0
/*
 * The session: records in, context out. Non-sample records update the
 * thread table and the map lists; a sample is resolved to its thread, map,
 * DSO and symbol at once (its callchain on demand).
 *
 * The DSO collection is made when the first record needing it arrives, so
 * that the features (build ids, OS release: in pipe mode they come as
 * records) and the kernel MMAP (its pgoff is where "_text" was, for
 * relocating kallsyms) are known by then; perf writes the kernel MMAP
 * before any other map.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "pmprof/error.h"
#include "pmprof/records.h"
#include "pmprof/util.h"
#include "session/internal.h"

static char *dupz(const char *s)
{
	return s ? pm_strdup(s) : NULL;
}

int pm_session__new(struct pm_session **out, struct pm_reader *r,
		    const struct pm_session_opts *opts, struct pm_error *err)
{
	static const struct pm_session_opts default_opts;
	struct pm_session *s = pm_zalloc(sizeof(*s));

	(void)err;
	PM_OPTS_COPY(&s->opts, opts, default_opts);
	s->opts.symfs = dupz(s->opts.symfs);
	s->opts.kallsyms = dupz(s->opts.kallsyms);
	s->opts.vmlinux = dupz(s->opts.vmlinux);
	s->opts.tmp_dir = dupz(s->opts.tmp_dir);
	s->opts.buildid_dir = dupz(s->opts.buildid_dir);
	s->r = r;
	s->kmaps = pm_maps__new();
	*out = s;
	return 0;
}

int pm_session__open(struct pm_session **out, const char *path,
		     const struct pm_session_opts *opts, struct pm_error *err)
{
	struct pm_reader *r;
	int ret = pm_reader__open(&r, path, NULL, err);

	if (ret)
		return ret;
	ret = pm_session__new(out, r, opts, err);
	if (ret) {
		pm_reader__delete(r);
		return ret;
	}
	(*out)->own_reader = true;
	return 0;
}

void pm_session__delete(struct pm_session *s)
{
	if (!s)
		return;
	pm_threads__release(&s->threads);
	pm_maps__put(s->kmaps);
	pm_map_arena__free(&s->arena);
	pm_dsos__delete(s->dsos);
	pm_chain__free(&s->chain);
	free(s->cache);
	pm_oe__free(&s->oe);
	free((char *)s->opts.symfs);
	free((char *)s->opts.kallsyms);
	free((char *)s->opts.vmlinux);
	free((char *)s->opts.tmp_dir);
	free((char *)s->opts.buildid_dir);
	if (s->own_reader)
		pm_reader__delete(s->r);
	free(s);
}

struct pm_reader *pm_session__reader(struct pm_session *s)
{
	return s->r;
}

/* ---- DSOs ---- */

bool pm_session__is_kernel_name(const char *f)
{
	return !strncmp(f, PM_KERNEL_NAME, strlen(PM_KERNEL_NAME));
}

/* The kernel's build id from the BUILD_ID feature, if recorded. */
static const struct pm_build_id_entry *kernel_build_id(const struct pm_features *f)
{
	for (uint32_t i = 0; i < f->nr_build_ids; i++) {
		const struct pm_build_id_entry *b = &f->build_ids[i];

		if ((b->misc & PM_MISC_CPUMODE_MASK) == PM_MISC_KERNEL &&
		    b->filename && pm_session__is_kernel_name(b->filename))
			return b;
	}
	return NULL;
}

static bool decide_host(struct pm_session *s, const struct pm_features *f)
{
	const struct pm_build_id_entry *kb = kernel_build_id(f);
	struct pm_kernel_ident id = {
		.osrelease = f->osrelease,
		.hostname = f->hostname,
		.build_id = kb ? kb->build_id : NULL,
		.build_id_size = kb ? kb->size : 0,
		.text = s->kernel_text,
	};
	struct pm_kernel_host h;

	if (s->opts.host == PM_HOST_YES) {
		snprintf(s->host_why, sizeof(s->host_why), "the recording is this host's, as told");
		return true;
	}
	if (s->opts.host == PM_HOST_NO) {
		snprintf(s->host_why, sizeof(s->host_why), "the recording is not this host's, as told");
		return false;
	}
	pm_kernel_host__read(&h);
	return pm_kernel_ident__same(&id, &h.id, s->host_why, sizeof(s->host_why));
}

bool pm_session__kernel_symbols(struct pm_session *s, char *buf, size_t size)
{
	struct pm_dso *k;
	const char *path;

	if (!s->dsos)
		return false;
	k = pm_dsos__kernel(s->dsos);
	if (!pm_dso__loaded(k))
		return false;	/* no kernel address was looked up */
	path = pm_dso__symbol_path(k);
	if (s->opts.vmlinux)
		snprintf(buf, size, "%s (--vmlinux)%s%s", s->opts.vmlinux,
			 path ? "" : ": ", path ? "" : pm_dso__load_error(k)->msg);
	else if (s->opts.kallsyms && path)
		snprintf(buf, size, "%s (--kallsyms)", path);
	else if (path && s->host && !strcmp(path, "/proc/kallsyms"))
		snprintf(buf, size, "%s (the running kernel): %s", path, s->host_why);
	else if (path) {
		const uint8_t *id;
		size_t n = pm_dso__build_id(k, &id);
		char hex[129];

		snprintf(buf, size, "%s (the build-id cache's, for the recording's kernel build id %s)",
			 path, n ? pm_build_id__hex(id, n, hex) : "?");
	}
	else
		snprintf(buf, size, "none, kernel addresses shown as they are: %s%s%s", s->host_why,
			 s->opts.kallsyms ? "; --kallsyms: " : "; give --kallsyms FILE or "
			 "--vmlinux FILE from the machine that recorded it",
			 s->opts.kallsyms ? pm_dso__load_error(k)->msg : "");
	return true;
}

static void add_build_ids(struct pm_dsos *dsos, const struct pm_features *f)
{
	for (uint32_t i = 0; i < f->nr_build_ids; i++) {
		const struct pm_build_id_entry *b = &f->build_ids[i];
		uint8_t mode = b->misc & PM_MISC_CPUMODE_MASK;
		char kname[256];
		const char *name = b->filename;

		if (!name || !*name || !b->size)
			continue;
		if (mode == PM_MISC_GUEST_KERNEL || mode == PM_MISC_GUEST_USER)
			continue;
		if (mode == PM_MISC_KERNEL && !pm_session__is_kernel_name(name) &&
		    pm_kmod_name(name, kname, sizeof(kname)))
			name = kname;
		pm_dsos__set_build_id(dsos, name, b->build_id, b->size);
	}
}

struct pm_dsos *pm_session__dsos_of(struct pm_session *s)
{
	const struct pm_features *f;
	struct pm_symconf conf = { .sz = sizeof(conf) };

	if (s->dsos)
		return s->dsos;
	f = pm_reader__features(s->r);
	s->host = decide_host(s, f);
	conf.symfs = s->opts.symfs;
	conf.kallsyms = s->opts.kallsyms;
	conf.vmlinux = s->opts.vmlinux;
	conf.tmp_dir = s->opts.tmp_dir;
	conf.buildid_dir = s->opts.buildid_dir;
	conf.no_demangle = s->opts.no_demangle;
	conf.no_buildid_cache = s->opts.no_buildid_cache;
	conf.host = s->host;
	conf.kernel_text = s->kernel_text;
	s->dsos = pm_dsos__new(&conf);
	add_build_ids(s->dsos, f);
	return s->dsos;
}

/* ---- resolution ---- */

static char level_of(uint8_t cpumode)
{
	switch (cpumode) {
	case PM_MISC_KERNEL:		return 'k';
	case PM_MISC_USER:		return '.';
	case PM_MISC_GUEST_KERNEL:	return 'g';
	case PM_MISC_GUEST_USER:	return 'u';
	default:			return 'H';
	}
}

/* The kernel's init text map (maps.c), made on the first miss. */
static struct pm_map *inittext_map(struct pm_session *s, uint64_t ip)
{
	if (!s->inittext_done) {
		s->inittext_done = true;
		s->inittext = pm_map__inittext(&s->arena,
					       pm_dsos__kernel(pm_session__dsos_of(s)));
	}
	if (s->inittext && s->inittext->start <= ip && ip < s->inittext->end)
		return s->inittext;
	return NULL;
}

/*
 * Samples hit the same few addresses again and again (hot loops): a
 * direct-mapped cache from (map, ip) to the DSO address and symbol saves
 * the segment and symbol searches. Maps never change once made, so an
 * entry never goes stale.
 */
#define CACHE_BITS 14

struct resolve_cache {
	struct {
		const struct pm_map *map;
		uint64_t ip;
		uint64_t addr;
		const struct pm_symbol *sym;
		bool data;
	} e[1u << CACHE_BITS];
};

static void resolve(struct pm_session *s, const struct pm_thread *t,
		    uint8_t cpumode, uint64_t ip, bool data,
		    struct pm_addr_loc *loc)
{
	struct pm_map *map = NULL;

	memset(loc, 0, sizeof(*loc));
	loc->ip = ip;
	loc->addr = ip;
	loc->rel = ip;
	loc->cpumode = cpumode;
	loc->level = level_of(cpumode);
	if (cpumode == PM_MISC_KERNEL) {
		map = pm_maps__find(s->kmaps, ip);
		if (!map)
			map = inittext_map(s, ip);
	}
	else if (cpumode == PM_MISC_USER && t)
		map = pm_maps__find(((struct pm_thread_int *)t)->maps, ip);
	if (!map)
		return;
	loc->map = map;
	loc->dso = map->dso;
	if (!map->identity)
		loc->rel = ip - map->start + map->pgoff;
	{
		uint64_t h = (ip ^ ((uintptr_t)map >> 4)) * 0x9e3779b97f4a7c15ULL;
		size_t i = (size_t)(h >> (64 - CACHE_BITS));

		if (!s->cache)
			s->cache = pm_zalloc(sizeof(*s->cache));
		if (s->cache->e[i].map == map && s->cache->e[i].ip == ip &&
		    s->cache->e[i].data == data) {
			loc->addr = s->cache->e[i].addr;
			loc->sym = s->cache->e[i].sym;
			if (loc->sym)
				loc->sym_off = loc->addr - loc->sym->start;
			return;
		}
		loc->addr = pm_dso__map_ip(map->dso, map->start, map->pgoff, ip);
		loc->sym = data ? pm_dso__find_data(map->dso, loc->addr)
				: pm_dso__find_symbol(map->dso, loc->addr);
		s->cache->e[i].map = map;
		s->cache->e[i].ip = ip;
		s->cache->e[i].data = data;
		s->cache->e[i].addr = loc->addr;
		s->cache->e[i].sym = loc->sym;
	}
	if (loc->sym)
		loc->sym_off = loc->addr - loc->sym->start;
}

void pm_session__resolve(struct pm_session *s, const struct pm_thread *t,
			 uint8_t cpumode, uint64_t ip, struct pm_addr_loc *loc)
{
	resolve(s, t, cpumode, ip, false, loc);
}

void pm_session__resolve_data(struct pm_session *s, const struct pm_thread *t,
			      uint8_t cpumode, uint64_t addr,
			      struct pm_addr_loc *loc)
{
	resolve(s, t, cpumode, addr, true, loc);
}

const char *pm_addr_loc__dso_name(const struct pm_addr_loc *loc)
{
	return loc->dso ? pm_dso__short_name(loc->dso) : "[unknown]";
}

static int process_sample(struct pm_session *s, const struct pm_record *rec,
			  struct pm_error *err)
{
	struct pm_sample *smp = &s->sample;
	struct pm_thread_int *th;
	int32_t pid = -1, tid = -1;
	int ret = pm_reader__parse_sample(s->r, rec, smp, err);

	if (ret)
		return ret;
	pm_session__dsos_of(s);
	if (smp->sample_type & PM_SAMPLE_TID) {
		pid = (int32_t)smp->pid;
		tid = (int32_t)smp->tid;
	}
	th = pm_session__sample_thread(s, pid, tid);
	s->ctx.sample = smp;
	s->ctx.event = smp->event;
	s->ctx.thread = &th->pub;
	s->ctx.record_offset = rec->offset;
	resolve(s, &th->pub, smp->cpumode, smp->ip, false, &s->ctx.ip);
	s->chain.done = false;
	return 1;
}

const struct pm_sample_ctx *pm_session__sample(struct pm_session *s)
{
	return &s->ctx;
}

size_t pm_session__callchain(struct pm_session *s,
			     const struct pm_addr_loc **out)
{
	if (!s->chain.done)
		pm_chain__build(&s->chain, s, &s->sample, s->last, &s->opts);
	*out = s->chain.v;
	return s->chain.nr;
}

size_t pm_session__callchain_sampled(struct pm_session *s)
{
	const struct pm_addr_loc *v;

	pm_session__callchain(s, &v);
	return s->chain.nr_sampled;
}

const struct pm_unwind_stats *pm_session__unwind_stats(const struct pm_session *s)
{
	return pm_chain__stats(&s->chain);
}

const char *pm_session__unwind_mismatch(const struct pm_session *s)
{
	return s->chain.uw ? pm_unwinder__mismatch(s->chain.uw) : NULL;
}

int pm_session__process(struct pm_session *s, const struct pm_record *rec,
			struct pm_error *err)
{
	switch (rec->type) {
	case PM_RECORD_SAMPLE:
		return process_sample(s, rec, err);
	case PM_RECORD_MMAP:
	case PM_RECORD_MMAP2:
		return pm_session__mmap(s, rec, err);
	case PM_RECORD_COMM:
		return pm_session__comm(s, rec, err);
	case PM_RECORD_FORK:
		return pm_session__fork(s, rec, err);
	case PM_RECORD_EXIT:
		return pm_session__exit(s, rec, err);
	default:
		return 0;
	}
}

struct run_args {
	struct pm_session *s;
	pm_session_sample_fn sample;
	pm_session_record_fn other;
	void *arg;
	struct pm_error *err;
};

static int deliver(const struct pm_record *rec, void *arg)
{
	struct run_args *a = arg;
	int ret = pm_session__process(a->s, rec, a->err);

	if (ret < 0) {
		pm_reader__error_in(a->s->r, rec, a->err);
		return ret;
	}
	if (ret == 1)
		return a->sample ? a->sample(a->s, &a->s->ctx, a->arg) : 0;
	return a->other ? a->other(a->s, rec, a->arg) : 0;
}

int pm_session__run(struct pm_session *s, pm_session_sample_fn sample,
		    pm_session_record_fn other, void *arg,
		    struct pm_error *err)
{
	struct run_args a = { s, sample, other, arg, err };
	struct pm_record rec;
	uint64_t time = 0;
	int ret;

	while ((ret = pm_reader__next(s->r, &rec, err)) > 0) {
		if (!s->opts.unordered) {
			ret = pm_reader__record_time(s->r, &rec, &time, err);
			if (ret < 0) {
				pm_reader__error_in(s->r, &rec, err);
				return ret;
			}
			if (ret == 1) {
				pm_oe__queue(&s->oe, &rec, time,
					     pm_reader__record_stable(s->r, &rec));
				ret = pm_oe__maybe_half(&s->oe, deliver, &a);
				if (ret)
					return ret;
				continue;
			}
			if (rec.type == PM_RECORD_FINISHED_ROUND) {
				ret = pm_oe__round(&s->oe, deliver, &a);
				if (ret)
					return ret;
			}
		}
		ret = deliver(&rec, &a);
		if (ret)
			return ret;
	}
	if (ret < 0)
		return ret;
	return pm_oe__flush(&s->oe, UINT64_MAX, deliver, &a);
}

