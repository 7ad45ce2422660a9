/* SPDX-License-Identifier: GPL-2.0 */
/* The DSO object and what its DSOs share; internal to lib/symbols. */
#ifndef PMPROF_DSO_INTERNAL_H
#define PMPROF_DSO_INTERNAL_H

#include "pmprof/dso.h"
#include "pmprof/error.h"
#include "symbols/internal.h"

/*
 * What every DSO of one collection shares: the configuration (strings
 * copied) and the parsed kallsyms, loaded once for the kernel and all
 * modules. Reference counted, so DSOs may outlive their collection.
 */
struct pm_symctx {
	int refcnt;
	struct pm_symconf conf;
	char *home_debug;		/* resolved buildid_dir */
	char *debug_dir;		/* resolved global debug dir */
	struct pm_kallsyms *ks;
	char *ks_path;			/* the file it came from */
	bool ks_tried;
	int ks_rc;
	struct pm_error ks_err;
};

struct pm_symctx *pm_symctx__new(const struct pm_symconf *conf);
struct pm_symctx *pm_symctx__get(struct pm_symctx *ctx);
void pm_symctx__put(struct pm_symctx *ctx);

struct pm_dso {
	int refcnt;
	struct pm_symctx *ctx;
	char *name, *short_name;
	enum pm_dso_kind kind;
	int pid;			/* JIT maps */
	size_t seq;			/* index in its collection */
	uint8_t build_id[64];		/* the recording's, if any */
	size_t build_id_size;

	bool loaded;
	int load_rc;
	struct pm_error load_err;
	struct pm_symtab *funcs, *data;
	bool borrowed_funcs;		/* tables belong to ctx->ks */
	bool borrowed_data;
	struct pm_elf_file bin;		/* the runtime binary (segments) */
	struct pm_elf_file dbg;		/* a separate debug file */
	const char *sym_path;		/* bin.path or dbg.path */
	bool dbg_tried;			/* debug file searched */

	/* source lines (srcline.c), opened on first use */
	bool dw_tried;
	int dw_fd;
	void *dw_elf, *dw;

	void *image;			/* the vdso's bytes, when from memory */
	size_t image_len;
	struct pm_inlines *inlines;	/* inline.c's cache, made on first use */
};

struct pm_dso *pm_dso__new(struct pm_symctx *ctx, const char *name);
int pm_dso__load_elf(struct pm_dso *dso, struct pm_error *err);
int pm_dso__load_vdso(struct pm_dso *dso, struct pm_error *err);
int pm_dso__load_kernel(struct pm_dso *dso, struct pm_error *err);
void pm_srcline__release(struct pm_dso *dso);
/* The DWARF of the DSO (srcline.c opens it once), or NULL. */
void *pm_dso__dwarf(struct pm_dso *dso);
void pm_inlines__release(struct pm_dso *dso);
/* Path of a debug file (or NULL), searching if not done yet. */
const char *pm_dso__find_debug(struct pm_dso *dso);

#endif
