/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbol tables: sorted arrays of [start, end) ranges with names, searched
 * by binary search. One table holds the functions of one DSO (an ELF file,
 * the kernel, a kernel module, a JIT map), a second one its data objects.
 *
 * Addresses in a table are the DSO's own addresses: ELF virtual addresses
 * (st_value) for ELF files, absolute addresses for the kernel, its modules
 * and JIT maps. Turning a sampled address into such an address is the job
 * of pm_dso__map_ip() (dso.h).
 *
 * Building a table: pm_symtab__new(), pm_symtab__add() for every symbol in
 * any order, then pm_symtab__finish() once; after that the table is
 * read-only and pm_symtab__find() costs O(log n).
 *
 * Also here: demangling, the kallsyms and perf-PID.map parsers, and the
 * check whether this host's kallsyms fits a recording.
 */
#ifndef PMPROF_SYMBOLS_H
#define PMPROF_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pm_error;

enum pm_sym_type {
	PM_SYM_FUNC,		/* STT_FUNC, kallsyms t/T/w/W, JIT entries */
	PM_SYM_IFUNC,		/* STT_GNU_IFUNC (the resolver's code) */
	PM_SYM_NOTYPE,		/* STT_NOTYPE label in an executable section */
	PM_SYM_OBJECT,		/* STT_OBJECT/STT_TLS/STT_COMMON, kallsyms d/b/r */
};

enum pm_sym_bind {
	PM_BIND_LOCAL,
	PM_BIND_GLOBAL,
	PM_BIND_WEAK,
};

struct pm_symbol {
	uint64_t start;		/* first address */
	uint64_t end;		/* one past the last; always > start */
	const char *name;	/* demangled when the table demangles */
	const char *raw_name;	/* as in the file (== name if not mangled) */
	uint8_t type;		/* enum pm_sym_type */
	uint8_t bind;		/* enum pm_sym_bind */
	bool sized;		/* size came from the file, not the fixup */
	bool inlined;		/* a function inlined into another (made by
				   pm_dso__inline_frames(); start and end
				   are those of the function it sits in) */
	uint32_t seq;		/* order of addition (ties between aliases) */
};

struct pm_symtab;

/* `demangle`: turn C++ and Rust names into readable ones at finish. */
struct pm_symtab *pm_symtab__new(bool demangle);
void pm_symtab__delete(struct pm_symtab *tab);

/*
 * Add a symbol (name copied). size 0 means "unknown": finish() extends it
 * to the next symbol's start (the last one to the end of its page plus one
 * page), as perf does. Only before finish().
 */
void pm_symtab__add(struct pm_symtab *tab, uint64_t start, uint64_t size,
		    enum pm_sym_type type, enum pm_sym_bind bind,
		    const char *name);

/*
 * From now on the names added are not copied: the caller keeps each one
 * alive, unchanged, as long as the table (kallsyms' 120k names, one
 * allocation instead of one each). Before the first add.
 */
void pm_symtab__borrow_names(struct pm_symtab *tab);

/*
 * Sort, merge symbols at the same address, fix up zero sizes, demangle.
 * Idempotent. Of several names at one address the one perf shows is kept:
 * perf extends zero sizes before it merges, so among unsized aliases only
 * the last added has a length; then a symbol with a length beats one
 * without, non-weak beats weak, global beats local, fewer leading
 * underscores win, then the longer name, then the first added.
 */
void pm_symtab__finish(struct pm_symtab *tab);

/* The symbol whose [start, end) holds addr, or NULL. After finish(). */
const struct pm_symbol *pm_symtab__find(const struct pm_symtab *tab,
					uint64_t addr);
/* Add every symbol of src to tab (before tab's finish()). */
void pm_symtab__add_all(struct pm_symtab *tab, const struct pm_symtab *src);
/* Linear search by raw or demangled name; for tests and tools. */
const struct pm_symbol *pm_symtab__find_name(const struct pm_symtab *tab,
					     const char *name);
size_t pm_symtab__nr(const struct pm_symtab *tab);
/* The i-th symbol in address order (i < nr). */
const struct pm_symbol *pm_symtab__at(const struct pm_symtab *tab, size_t i);
/* Move every symbol by delta (kernel relocation). Before or after finish. */
void pm_symtab__shift(struct pm_symtab *tab, int64_t delta);

/*
 * Demangle a C++ (Itanium ABI) or Rust (legacy and v0) name with
 * libiberty; returns a malloc()ed string, or NULL if `name` is not mangled.
 * pm_demangle() drops parameter lists as perf does by default
 * ("ns::Foo::bar"); pm_demangle_params() keeps them ("ns::Foo::bar(int)").
 */
char *pm_demangle(const char *name);
char *pm_demangle_params(const char *name);

/*
 * Kernel symbols in /proc/kallsyms format: "ADDR TYPE NAME[\t[MODULE]]".
 * Functions (t, T, w, W) go to the function table of the kernel or of
 * their module, data (d, D, b, B, r, R, v, V) to the data table. Modules
 * are named as perf shows them: "[ext4]". Addresses all zero (hidden by
 * kptr_restrict) are an error.
 */
struct pm_kallsyms;

int pm_kallsyms__load(const char *path, struct pm_kallsyms **out,
		      struct pm_error *err);
/* Parse from memory (for tests and fuzzing); `what` names it in errors. */
int pm_kallsyms__parse(const char *buf, size_t len, const char *what,
		       struct pm_kallsyms **out, struct pm_error *err);
void pm_kallsyms__delete(struct pm_kallsyms *ks);
/* The kernel's own tables (never NULL after a successful load). */
struct pm_symtab *pm_kallsyms__kernel(const struct pm_kallsyms *ks);
struct pm_symtab *pm_kallsyms__kernel_data(const struct pm_kallsyms *ks);
/* A module's function table by perf name ("[ext4]") or bare name, or NULL. */
struct pm_symtab *pm_kallsyms__module(const struct pm_kallsyms *ks,
				      const char *name);
size_t pm_kallsyms__nr_modules(const struct pm_kallsyms *ks);
/* The i-th module's perf name, "[ext4]". */
const char *pm_kallsyms__module_name(const struct pm_kallsyms *ks, size_t i);
/*
 * Address of a symbol in the file ("_text", "_stext", "_sinittext",
 * "_einittext": those even where an alias wins the table), 0 if absent. With
 * the address a recording saw for the same symbol (its kernel MMAP pgoff)
 * the caller can relocate: pm_kallsyms__relocate(ks, rec - file).
 */
uint64_t pm_kallsyms__addr(const struct pm_kallsyms *ks, const char *name);
void pm_kallsyms__relocate(struct pm_kallsyms *ks, int64_t delta);

/*
 * Is the running kernel the one a recording ran on, so that its
 * /proc/kallsyms may name the recording's kernel addresses? What the
 * recording says (any of it may be missing): HEADER_OSRELEASE,
 * HEADER_HOSTNAME, the build id of "[kernel.kallsyms]" (HEADER_BUILD_ID)
 * and where _text was (the pgoff of its "[kernel.kallsyms]_text" MMAP).
 */
struct pm_kernel_ident {
	const char *osrelease;		/* NULL if unknown */
	const char *hostname;		/* NULL if unknown */
	const uint8_t *build_id;	/* NULL if unknown */
	size_t build_id_size;
	uint64_t text;			/* 0 if unknown */
};
/* This machine's, now: uname, /sys/kernel/notes, _text of /proc/kallsyms
 * (0 when kptr_restrict hides it). */
struct pm_kernel_host {
	struct pm_kernel_ident id;
	char osrelease[65], hostname[65];
	uint8_t build_id[64];
};
void pm_kernel_host__read(struct pm_kernel_host *h);
/*
 * The decision, from both sides' facts: build ids decide when both are
 * known; without the recording's, only the same boot will do: the same
 * release and host name and the kernel text at the same address (which
 * KASLR moves at every boot). A recording that says nothing is not the
 * running kernel's. True or false, and why in words for the report.
 */
bool pm_kernel_ident__same(const struct pm_kernel_ident *rec,
			   const struct pm_kernel_ident *host,
			   char *why, size_t size);
/* The same against this machine: 0, or -PM_EUNSUP with why. */
int pm_kallsyms__check_host(const struct pm_kernel_ident *rec,
			    struct pm_error *err);
/*
 * The running kernel's build id from /sys/kernel/notes (or a file in that
 * format: ELF notes in host order). Returns its size (at most max), or a
 * negative code.
 */
int pm_kernel__host_build_id(const char *notes_path, uint8_t *id, size_t max,
			     struct pm_error *err);
/* Parse ELF notes in host order for NT_GNU_BUILD_ID; size or -PM_EFORMAT. */
int pm_notes__build_id(const void *buf, size_t len, bool swap, uint8_t *id,
		       size_t max);

/*
 * JIT symbols from a perf map file (/tmp/perf-PID.map): lines
 * "START SIZE NAME" with START and SIZE in hex (0x optional), NAME to the
 * end of the line. Absolute addresses. Bad lines are an error with their
 * line number in err->offset.
 */
int pm_jitmap__load(const char *path, struct pm_symtab *tab,
		    struct pm_error *err);
int pm_jitmap__parse(const char *buf, size_t len, const char *what,
		     struct pm_symtab *tab, struct pm_error *err);

/* The GNU build id of an ELF file: 0 and *size (at most 20), or -1. */
int pm_build_id__read(const char *path, uint8_t id[20], uint8_t *size);
/* The same of an ELF image in memory (the vdso). */
int pm_build_id__from_image(const void *image, size_t len, uint8_t id[20],
			    uint8_t *size);

/*
 * A copy of this process's vdso image, which the kernel maps into every
 * process of this host and ABI: the stand-in for a recording's "[vdso]".
 * *buf is the caller's to free.
 */
int pm_vdso__self_image(void **buf, size_t *len, struct pm_error *err);

/*
 * A minimal ELF64 (lib/symbols/elf-write.c): .text (in one PT_LOAD),
 * .symtab, .strtab, .shstrtab and, with a build id, .note.gnu.build-id
 * (and a PT_NOTE). Locals come first among the symbols, as ELF wants.
 */
struct pm_elf_sym {
	const char *name;
	uint64_t addr, size;
	bool object;			/* STT_OBJECT instead of STT_FUNC */
	bool local;			/* STB_LOCAL instead of STB_GLOBAL */
};

struct pm_elf_image {
	uint16_t machine;
	bool big_endian;
	uint16_t type;			/* 0: ET_EXEC (2); ET_DYN is 3 */
	uint64_t text_addr;		/* .text's address (and entry) */
	const uint8_t *text;		/* NULL: zeros */
	size_t text_size;
	const struct pm_elf_sym *syms;
	size_t nr_syms;
	const uint8_t *build_id;	/* NULL: no note */
	size_t build_id_size;
};

/* The file's bytes (free() them), or written to fd (errors name `name`). */
void *pm_elf__image(const struct pm_elf_image *e, size_t *len);
int pm_elf__write(int fd, const char *name, const struct pm_elf_image *e,
		  struct pm_error *err);

/* Build id bytes as lowercase hex into buf (2*len+1 bytes). */
char *pm_build_id__hex(const uint8_t *id, size_t len, char *buf);

/*
 * The build-id cache, in perf's layout, so that perf and pmprof read
 * each other's:
 *	DIR/PATH/HEX/elf		a copy of the file PATH
 *	DIR/[kernel.kallsyms]/HEX/kallsyms	a copy of /proc/kallsyms
 *	DIR/[vdso]/HEX/vdso		a copy of this host's vdso image
 *	DIR/.build-id/HE/X...	-> ../../PATH/HEX	(a relative symlink)
 * DIR is $HOME/.debug unless given. Files are copied, not linked, so
 * rebuilding a program in place cannot change what the cache holds.
 */
/* $HOME/.debug (malloc'ed), or NULL without $HOME. */
char *pm_buildid_cache__default_dir(void);
/*
 * Add one DSO as recorded: name is its path, "[kernel.kallsyms]" or
 * "[vdso]"; src the file to copy (NULL: name itself, /proc/kallsyms for
 * the kernel, this process's image for the vdso). 1 added, 0 already
 * there, negative code with err.
 */
int pm_buildid_cache__add(const char *dir, const char *name, const char *src,
			  const uint8_t *id, size_t id_size, struct pm_error *err);

#endif
