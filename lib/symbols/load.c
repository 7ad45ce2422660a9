// SPDX-License-Identifier: GPL-2.0
/*
 * Finding and loading the files behind a DSO, in perf's order:
 *
 *   binary:  build-id cache  $HOME/.debug/.build-id/ab/cdef...[/elf]
 *            the path        SYMFS/path (or path without --symfs)
 *   debug:   (when the binary has no .symtab, or for source lines)
 *            DEBUG/.build-id/ab/cdef....debug   DEBUG = SYMFS/usr/lib/debug
 *            $HOME/.debug/.build-id/ab/cdef.../debug
 *            .gnu_debuglink NAME: DIR/NAME, DIR/.debug/NAME, DEBUG/DIR/NAME
 *            DEBUG/path.debug, DEBUG/path
 *
 * A file whose build id differs from the recording's is skipped; a
 * debuglink candidate must also match the link's CRC when no build id
 * decides. Each file is opened once; symbols come from the best file
 * (.symtab over .dynsym), address mapping from the runtime binary's
 * program headers (a debug file's only when the binary is missing).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmprof/dso.h"
#include "pmprof/error.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"
#include "symbols/dso-internal.h"

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The build id that decides: the recording's, else the binary's. */
static size_t wanted_id(const struct pm_dso *dso, const uint8_t **id)
{
	return pm_dso__build_id(dso, id);
}

/* "ab/cdef..." from a build id. */
static void id_path(const uint8_t *id, size_t n, char *buf)
{
	char hex[129];

	pm_build_id__hex(id, n, hex);
	snprintf(buf, 200, "%.2s/%s", hex, hex + 2);
}

/* Different build ids (both known) mean a different file. */
static bool id_mismatch(const struct pm_dso *dso, const struct pm_elf_file *f)
{
	const uint8_t *id;
	size_t n = dso->build_id_size;

	id = dso->build_id;
	if (!n || !f->build_id_size)
		return false;
	return f->build_id_size != n || memcmp(f->build_id, id, n);
}

/* Build-id cache entry: a directory holding `leaf`, or the file itself. */
static bool cache_path(const char *root, const uint8_t *id, size_t n,
		       const char *leaf, struct pm_strbuf *out)
{
	char ip[200];

	if (!root || !n)
		return false;
	id_path(id, n, ip);
	pm_strbuf__reset(out);
	pm_strbuf__addf(out, "%s/.build-id/%s", root, ip);
	if (is_dir(out->buf)) {
		pm_strbuf__addf(out, "/%s", leaf);
		return is_file(out->buf);
	}
	return !strcmp(leaf, "elf") && is_file(out->buf);
}

/*
 * Try one candidate for the binary: open it into fresh tables, keep it
 * if the build id agrees. Returns true when taken.
 */
static bool try_binary(struct pm_dso *dso, const char *path,
		       struct pm_strbuf *why)
{
	bool demangle = !dso->ctx->conf.no_demangle;
	struct pm_symtab *f = pm_symtab__new(demangle);
	struct pm_symtab *d = pm_symtab__new(demangle);
	struct pm_error e;
	struct pm_elf_file file;

	if (!is_file(path)) {
		pm_strbuf__addf(why, "%s%s: not found", why->len ? "; " : "",
				path);
		goto reject_tables;
	}
	if (pm_elf_file__open(&file, path, NULL, 0, f, d, &e) < 0) {
		pm_strbuf__addf(why, "%s%s", why->len ? "; " : "", e.msg);
		goto reject_tables;
	}
	if (id_mismatch(dso, &file)) {
		pm_strbuf__addf(why, "%s%s: build id differs from the recording's",
				why->len ? "; " : "", path);
		pm_elf_file__release(&file);
		goto reject_tables;
	}
	dso->bin = file;
	dso->funcs = f;
	dso->data = d;
	if (file.has_symtab || file.has_dynsym)
		dso->sym_path = dso->bin.path;
	return true;
reject_tables:
	pm_symtab__delete(f);
	pm_symtab__delete(d);
	return false;
}

/*
 * Try one debug file candidate; `crc` checks a debuglink match when no
 * build id decides. need_symtab: it must have a .symtab to be of use.
 */
static bool try_debug(struct pm_dso *dso, const char *path, bool check_crc,
		      uint32_t crc, bool need_symtab, struct pm_symtab **f,
		      struct pm_symtab **d)
{
	bool demangle = !dso->ctx->conf.no_demangle;
	struct pm_elf_file file;
	const uint8_t *id;
	size_t n = wanted_id(dso, &id);
	uint32_t c;

	if (!is_file(path) || (dso->bin.path && !strcmp(path, dso->bin.path)))
		return false;
	*f = need_symtab ? pm_symtab__new(demangle) : NULL;
	*d = need_symtab ? pm_symtab__new(demangle) : NULL;
	if (pm_elf_file__open(&file, path, NULL, 0, *f, *d, NULL) < 0)
		goto reject;
	if (n && file.build_id_size) {
		if (file.build_id_size != n || memcmp(file.build_id, id, n))
			goto reject_file;
	} else if (check_crc) {
		if (pm_file_crc32(path, &c) < 0 || c != crc)
			goto reject_file;
	}
	if (need_symtab && !file.has_symtab)
		goto reject_file;
	if (!need_symtab && !file.has_debug_line)
		goto reject_file;
	dso->dbg = file;
	return true;
reject_file:
	pm_elf_file__release(&file);
reject:
	pm_symtab__delete(*f);
	pm_symtab__delete(*d);
	*f = *d = NULL;
	return false;
}

/* Search debug files; with need_symtab, their tables go to f and d. */
static bool search_debug(struct pm_dso *dso, bool need_symtab,
			 struct pm_symtab **f, struct pm_symtab **d)
{
	struct pm_symctx *ctx = dso->ctx;
	struct pm_strbuf p = PM_STRBUF_INIT;
	const uint8_t *id;
	size_t n = wanted_id(dso, &id);
	bool ok = false;
	char ip[200];

	if (ctx->conf.no_debuginfo)
		return false;
	if (n) {
		id_path(id, n, ip);
		pm_strbuf__addf(&p, "%s/.build-id/%s.debug", ctx->debug_dir, ip);
		ok = try_debug(dso, p.buf, false, 0, need_symtab, f, d);
		if (!ok && !ctx->conf.no_buildid_cache &&
		    cache_path(ctx->home_debug, id, n, "debug", &p))
			ok = try_debug(dso, p.buf, false, 0, need_symtab, f, d);
	}
	if (!ok && dso->bin.debuglink) {
		const char *link = dso->bin.debuglink;
		const char *bin = dso->bin.path;
		const char *slash = strrchr(bin, '/');
		int bl = slash ? (int)(slash - bin) : 1;
		const char *nslash = strrchr(dso->name, '/');
		int nl = nslash ? (int)(nslash - dso->name) : 0;
		uint32_t crc = dso->bin.debuglink_crc;

		if (!slash)
			bin = ".";
		pm_strbuf__reset(&p);
		pm_strbuf__addf(&p, "%.*s/%s", bl, bin, link);
		ok = try_debug(dso, p.buf, true, crc, need_symtab, f, d);
		if (!ok) {
			pm_strbuf__reset(&p);
			pm_strbuf__addf(&p, "%.*s/.debug/%s", bl, bin, link);
			ok = try_debug(dso, p.buf, true, crc, need_symtab, f, d);
		}
		if (!ok) {
			pm_strbuf__reset(&p);
			pm_strbuf__addf(&p, "%s%.*s/%s", ctx->debug_dir, nl,
					dso->name, link);
			ok = try_debug(dso, p.buf, true, crc, need_symtab, f, d);
		}
	}
	if (!ok && dso->name[0] == '/') {
		pm_strbuf__reset(&p);
		pm_strbuf__addf(&p, "%s%s.debug", ctx->debug_dir, dso->name);
		ok = try_debug(dso, p.buf, false, 0, need_symtab, f, d);
		if (!ok) {
			pm_strbuf__reset(&p);
			pm_strbuf__addf(&p, "%s%s", ctx->debug_dir, dso->name);
			ok = try_debug(dso, p.buf, false, 0, need_symtab, f, d);
		}
	}
	pm_strbuf__release(&p);
	return ok;
}

/*
 * A debug file made by objcopy --only-keep-debug has the binary's program
 * headers with NOBITS contents: p_vaddr is right, p_offset and p_filesz
 * are not. Without the binary, redo what GNU ld does: each segment's
 * contents follow the previous one's in the file, at the first offset
 * congruent to its address modulo its alignment.
 */
static void guess_offsets(struct pm_elf_file *f)
{
	uint64_t end = 0;

	for (size_t i = 0; i < f->nr_segs; i++) {
		struct pm_segment *s = &f->segs[i];
		uint64_t a = s->align > 1 ? s->align : 1, off;

		if (s->filesz >= s->memsz && s->offset >= end) {
			end = s->offset + s->filesz;	/* kept: trust it */
			continue;
		}
		if (i == 0) {
			off = s->offset;
		} else {
			off = end - end % a + s->vaddr % a;
			if (off < end)
				off += a;
		}
		s->offset = off;
		s->filesz = s->memsz;
		end = off + s->memsz;
	}
}

int pm_dso__load_elf(struct pm_dso *dso, struct pm_error *err)
{
	struct pm_symctx *ctx = dso->ctx;
	struct pm_strbuf p = PM_STRBUF_INIT, why = PM_STRBUF_INIT;
	struct pm_symtab *f = NULL, *d = NULL;
	const uint8_t *id;
	size_t n = wanted_id(dso, &id);
	bool found = false;
	int r = 0;

	if (n && !ctx->conf.no_buildid_cache &&
	    cache_path(ctx->home_debug, id, n, "elf", &p))
		found = try_binary(dso, p.buf, &why);
	if (!found) {
		pm_strbuf__reset(&p);
		pm_strbuf__addf(&p, "%s%s", ctx->conf.symfs ? ctx->conf.symfs : "",
				dso->name);
		found = try_binary(dso, p.buf, &why);
	}
	if (!found || !dso->bin.has_symtab) {
		dso->dbg_tried = true;
		if (search_debug(dso, true, &f, &d)) {
			/*
			 * The debug file's .symtab joins what the binary
			 * gave (.dynsym names, PLT entries): aliases fold at
			 * finish().
			 */
			if (dso->funcs) {
				pm_symtab__add_all(dso->funcs, f);
				pm_symtab__add_all(dso->data, d);
				pm_symtab__delete(f);
				pm_symtab__delete(d);
			} else {
				dso->funcs = f;
				dso->data = d;
			}
			dso->sym_path = dso->dbg.path;
		}
	}
	if (!found && dso->dbg.path)
		guess_offsets(&dso->dbg);
	if (!dso->sym_path)
		r = pm_error__fmt(err, ENOENT, "%s: no symbols (%s)", dso->name,
				  found ? "no symbol table in the file" :
				  why.len ? why.buf : "file not found");
	pm_strbuf__release(&p);
	pm_strbuf__release(&why);
	return r;
}

const char *pm_dso__find_debug(struct pm_dso *dso)
{
	struct pm_symtab *f = NULL, *d = NULL;

	pm_dso__load(dso, NULL);
	if (!dso->dbg_tried && dso->kind == PM_DSO_ELF) {
		dso->dbg_tried = true;
		search_debug(dso, false, &f, &d);
	}
	return dso->dbg.path;
}

int pm_dso__load_vdso(struct pm_dso *dso, struct pm_error *err)
{
	struct pm_symctx *ctx = dso->ctx;
	struct pm_strbuf p = PM_STRBUF_INIT, why = PM_STRBUF_INIT;
	const uint8_t *id;
	size_t n = wanted_id(dso, &id), len;
	void *img;
	int r;

	/* the cache keeps the vdso image under its build id: perf names the
	 * file "vdso", an entry added by hand may be a plain "elf" */
	if (n && !ctx->conf.no_buildid_cache &&
	    ((cache_path(ctx->home_debug, id, n, "vdso", &p) && try_binary(dso, p.buf, &why)) ||
	     (cache_path(ctx->home_debug, id, n, "elf", &p) && try_binary(dso, p.buf, &why)))) {
		pm_strbuf__release(&p);
		pm_strbuf__release(&why);
		return 0;
	}
	pm_strbuf__release(&p);
	pm_strbuf__release(&why);
	if (!ctx->conf.host)
		return pm_error__fmt(err, ENOENT,
			"[vdso]: no image (not in the build-id cache, recorded elsewhere)");
	r = pm_vdso__self_image(&img, &len, err);
	if (r < 0)
		return r;
	dso->funcs = pm_symtab__new(!ctx->conf.no_demangle);
	dso->data = pm_symtab__new(!ctx->conf.no_demangle);
	r = pm_elf_file__open(&dso->bin, "[vdso]", img, len, dso->funcs,
			      dso->data, err);
	if (r < 0) {
		free(img);
		return r;
	}
	/* kept: the unwinder reads the vdso's CFI from these bytes */
	dso->image = img;
	dso->image_len = len;
	if (id_mismatch(dso, &dso->bin))
		return pm_error__fmt(err, ENOENT,
			"[vdso]: this host's image has another build id than the recording's");
	dso->sym_path = dso->bin.path;
	return 0;
}

/* The kallsyms every kernel DSO of the collection shares, loaded once. */
static struct pm_kallsyms *ctx_kallsyms(struct pm_dso *dso,
					struct pm_error *err)
{
	struct pm_symctx *ctx = dso->ctx;
	struct pm_strbuf p = PM_STRBUF_INIT;
	const char *path = ctx->conf.kallsyms;
	const uint8_t *id;
	size_t n;

	if (ctx->ks_tried) {
		if (!ctx->ks && err)
			*err = ctx->ks_err;
		return ctx->ks;
	}
	ctx->ks_tried = true;
	n = dso->kind == PM_DSO_KERNEL ? wanted_id(dso, &id) : 0;
	if (!path && n && !ctx->conf.no_buildid_cache &&
	    cache_path(ctx->home_debug, id, n, "kallsyms", &p))
		path = p.buf;
	if (!path && ctx->conf.host)
		path = "/proc/kallsyms";
	if (!path) {
		ctx->ks_rc = pm_error__fmt(&ctx->ks_err, ENOENT,
			"no kernel symbols: not recorded on this host's running kernel "
			"(use --kallsyms FILE or --vmlinux FILE)");
	} else {
		ctx->ks_rc = pm_kallsyms__load(path, &ctx->ks, &ctx->ks_err);
		if (ctx->ks_rc == 0)
			ctx->ks_path = pm_strdup(path);
		if (ctx->ks_rc == 0 && ctx->conf.kernel_text &&
		    pm_kallsyms__addr(ctx->ks, "_text"))
			pm_kallsyms__relocate(ctx->ks,
				(int64_t)(ctx->conf.kernel_text -
					  pm_kallsyms__addr(ctx->ks, "_text")));
	}
	pm_strbuf__release(&p);
	if (!ctx->ks && err)
		*err = ctx->ks_err;
	return ctx->ks;
}

int pm_dso__load_kernel(struct pm_dso *dso, struct pm_error *err)
{
	struct pm_symctx *ctx = dso->ctx;
	struct pm_kallsyms *ks;
	struct pm_strbuf why = PM_STRBUF_INIT;

	if (dso->kind == PM_DSO_KERNEL && ctx->conf.vmlinux) {
		bool ok = try_binary(dso, ctx->conf.vmlinux, &why);
		int r = ok ? 0 : pm_error__fmt(err, ENOENT, "%s", why.buf);

		pm_strbuf__release(&why);
		return r;
	}
	ks = ctx_kallsyms(dso, err);
	if (!ks)
		return ctx->ks_rc;
	if (dso->kind == PM_DSO_KERNEL) {
		dso->sym_path = ctx->ks_path;
		dso->funcs = pm_kallsyms__kernel(ks);
		dso->data = pm_kallsyms__kernel_data(ks);
		dso->borrowed_funcs = dso->borrowed_data = true;
		return 0;
	}
	dso->funcs = pm_kallsyms__module(ks, dso->name);
	if (!dso->funcs)
		return pm_error__fmt(err, ENOENT,
				     "%s: module not in kallsyms", dso->name);
	dso->borrowed_funcs = true;
	return 0;
}

int pm_dso__init_text(struct pm_dso *dso, uint64_t *start, uint64_t *end)
{
	const struct pm_symbol *a, *b;

	if (dso->kind != PM_DSO_KERNEL || pm_dso__load(dso, NULL))
		return -ENOENT;
	if (dso->borrowed_funcs && dso->ctx->ks) {
		*start = pm_kallsyms__addr(dso->ctx->ks, "_sinittext");
		*end = pm_kallsyms__addr(dso->ctx->ks, "_einittext");
	} else {
		/* a vmlinux: the names, unless an alias won them */
		a = pm_symtab__find_name(dso->funcs, "_sinittext");
		b = pm_symtab__find_name(dso->funcs, "_einittext");
		*start = a ? a->start : 0;
		*end = b ? b->start : 0;
	}
	return *start && *start < *end ? 0 : -ENOENT;
}
