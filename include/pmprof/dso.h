/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DSOs: the objects samples land in (an ELF file, the kernel, a kernel
 * module, the vdso, a JIT map, anonymous memory) with their symbols.
 *
 * How the session layer uses this:
 *
 *   struct pm_dsos *dsos = pm_dsos__new(&conf);      // one per session
 *   // MMAP/MMAP2 record: filename, start, len, pgoff (+ build id)
 *   struct pm_dso *dso = pm_dsos__findnew(dsos, filename); // +1 reference
 *   if (mmap2 carried a build id) pm_dso__set_build_id(dso, id, size);
 *   // HEADER_BUILD_ID entries: pm_dsos__set_build_id(dsos, name, id, size)
 *   //   (before or after the MMAP; kernel: "[kernel.kallsyms]")
 *   map = {start, start + len, pgoff, dso}          // the session's own
 *   // a sample at ip in that map:
 *   uint64_t a = pm_dso__map_ip(dso, map.start, map.pgoff, ip);
 *   const struct pm_symbol *sym = pm_dso__find_symbol(dso, a);
 *   printf("%s %s+%#lx\n", pm_dso__short_name(dso),
 *          sym ? sym->name : "[unknown]", a - sym->start);
 *   pm_dso__put(dso);                                // when the map dies
 *
 * Anonymous memory (pm_dso_classify() says PM_DSO_ANON) is looked up in
 * the JIT map of its process: use pm_dsos__jit(dsos, pid) as the map's DSO
 * (map_ip is then the identity). The kernel: pm_dsos__kernel(dsos) for
 * "[kernel.kallsyms]" maps and samples with a kernel cpumode,
 * pm_dsos__findnew() with a module path or "[name]" for modules.
 *
 * Loading is lazy: the first lookup (or pm_dso__load()) finds the file
 * (symfs, build-id cache, debug directories), reads its symbols and
 * program headers once, and keeps them. A DSO that cannot be loaded keeps
 * an empty table and its error (pm_dso__load_error()); lookups just miss.
 * Not thread-safe: one session, one thread.
 */
#ifndef PMPROF_DSO_H
#define PMPROF_DSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/symbols.h"

struct pm_error;

/* Where symbols come from and how they look: perf's options. */
struct pm_symconf {
	size_t sz;		/* sizeof(struct pm_symconf); 0 = this size */
	const char *symfs;	/* --symfs DIR: files are DIR + path */
	const char *kallsyms;	/* --kallsyms FILE (not checked against host) */
	const char *vmlinux;	/* -k FILE: kernel symbols from this ELF */
	const char *buildid_dir;/* build-id cache; NULL: $HOME/.debug */
	const char *debug_dir;	/* global debug dir; NULL: /usr/lib/debug
				 * (under symfs when symfs is set) */
	const char *tmp_dir;	/* where perf-PID.map live; NULL: /tmp */
	bool no_demangle;	/* keep mangled names */
	bool no_buildid_cache;	/* do not look in buildid_dir */
	bool no_debuginfo;	/* do not look for separate debug files */
	/*
	 * The recording was made on this host (for the kernel: the caller
	 * checked pm_kallsyms__check_host()): /proc/kallsyms and this
	 * process's vdso image may stand in when nothing better is found.
	 */
	bool host;
	/*
	 * Address the recording saw for kernel symbol "_text" (the pgoff of
	 * its "[kernel.kallsyms]_text" MMAP), 0 if unknown: kallsyms from
	 * another boot are shifted to match (KASLR).
	 */
	uint64_t kernel_text;
};

enum pm_dso_kind {
	PM_DSO_ELF,		/* a file: executable, shared library, .ko */
	PM_DSO_KERNEL,		/* [kernel.kallsyms] */
	PM_DSO_KMODULE,		/* [ext4]: symbols from kallsyms */
	PM_DSO_VDSO,		/* [vdso] */
	PM_DSO_JIT,		/* /tmp/perf-PID.map */
	PM_DSO_ANON,		/* //anon, [anon:...], /dev/zero, [heap], ... */
	PM_DSO_SPECIAL,		/* [vsyscall], [vvar], [stack], [uprobes] ...:
				 * no symbols */
};

/*
 * What kind of DSO a mapping's filename names (MMAP/MMAP2 filename).
 * "[heap]" and "[stack..." are PM_DSO_ANON as perf treats them (JIT code
 * may live there); kernel module paths (*.ko[.xz|.gz|.zst]) are
 * PM_DSO_KMODULE only when `kernel` (a kernel-mode MMAP), else ELF.
 */
enum pm_dso_kind pm_dso_classify(const char *filename, bool kernel);

/*
 * perf's name for a kernel module file: "/lib/.../nf-nat.ko.zst" ->
 * "[nf_nat]". Returns buf, or NULL if it is not a module path.
 */
char *pm_kmod_name(const char *path, char *buf, size_t size);

struct pm_dsos;
struct pm_dso;

struct pm_dsos *pm_dsos__new(const struct pm_symconf *conf);
/* Drops the collection's references; DSOs still held elsewhere live on. */
void pm_dsos__delete(struct pm_dsos *dsos);
/*
 * The DSO for a mapping filename (as in MMAP records), created on first
 * use; the same name gives the same DSO. Kernel module paths seen in
 * kernel MMAPs should be passed as pm_kmod_name() gives them. Returns a
 * new reference (pm_dso__put() it).
 */
struct pm_dso *pm_dsos__findnew(struct pm_dsos *dsos, const char *filename);
/* Borrowed references (no put): the kernel and a process's JIT map. */
struct pm_dso *pm_dsos__kernel(struct pm_dsos *dsos);
struct pm_dso *pm_dsos__jit(struct pm_dsos *dsos, int pid);
/* Record a build id for a name (HEADER_BUILD_ID), creating the DSO. */
void pm_dsos__set_build_id(struct pm_dsos *dsos, const char *filename,
			   const uint8_t *id, size_t size);
size_t pm_dsos__nr(const struct pm_dsos *dsos);
struct pm_dso *pm_dsos__at(const struct pm_dsos *dsos, size_t i);

struct pm_dso *pm_dso__get(struct pm_dso *dso);
void pm_dso__put(struct pm_dso *dso);

/* The name as given ("/usr/lib/x86_64-linux-gnu/libc.so.6", "[vdso]"). */
const char *pm_dso__name(const struct pm_dso *dso);
/* perf report's "Shared Object" column: basename, "[kernel.kallsyms]",
 * or "[JIT] tid PID" for a JIT map. */
const char *pm_dso__short_name(const struct pm_dso *dso);
enum pm_dso_kind pm_dso__kind(const struct pm_dso *dso);
/* Its place among its collection's DSOs in the order they were first met
 * (pm_dsos__at's index): where perf, which compares DSOs by the address
 * it allocated them at, puts them among equal call-graph siblings. */
size_t pm_dso__seq(const struct pm_dso *dso);

/* A build id known for the DSO (from the recording); replaces any. */
void pm_dso__set_build_id(struct pm_dso *dso, const uint8_t *id,
			  size_t size);
/* The build id (recording's, or the file's once loaded); size 0 if none. */
size_t pm_dso__build_id(const struct pm_dso *dso, const uint8_t **id);

/*
 * Find the files and read symbols and program headers now. 0 when
 * symbols were loaded; a negative code (and err) when nothing usable was
 * found, which later lookups remember. Called by every lookup on first use.
 */
int pm_dso__load(struct pm_dso *dso, struct pm_error *err);
bool pm_dso__loaded(const struct pm_dso *dso);
/* The error of a failed load, or NULL. */
const struct pm_error *pm_dso__load_error(const struct pm_dso *dso);

/*
 * A sampled address in a mapping of this DSO -> the DSO's address (what
 * symbols use). For ELF files: the file offset ip - map_start + map_pgoff
 * is placed in the PT_LOAD segment holding it, giving p_vaddr + (offset -
 * p_offset); this is right for PIE executables, shared libraries, non-PIE
 * (ET_EXEC) and prelinked files alike. For the kernel, modules and JIT
 * maps the address is already absolute: returned unchanged. Loads lazily.
 */
uint64_t pm_dso__map_ip(struct pm_dso *dso, uint64_t map_start,
			uint64_t map_pgoff, uint64_t ip);
/* The inverse: a DSO address -> the address in that mapping. */
uint64_t pm_dso__unmap_ip(struct pm_dso *dso, uint64_t map_start,
			  uint64_t map_pgoff, uint64_t addr);
/* File offset <-> ELF address through the program headers. */
uint64_t pm_dso__offset_to_addr(struct pm_dso *dso, uint64_t offset);
uint64_t pm_dso__addr_to_offset(struct pm_dso *dso, uint64_t addr);
/* Whether every file offset in [lo, hi) has the same ELF address -
 * offset (one segment's), so that a mapping of them moves every address
 * into the file by one amount. Loads lazily. */
bool pm_dso__offsets_linear(struct pm_dso *dso, uint64_t lo, uint64_t hi);

/* Lookups by DSO address (see pm_dso__map_ip); NULL when none. */
const struct pm_symbol *pm_dso__find_symbol(struct pm_dso *dso,
					    uint64_t addr);
const struct pm_symbol *pm_dso__find_data(struct pm_dso *dso, uint64_t addr);
/* The tables themselves (loaded), never NULL. */
struct pm_symtab *pm_dso__symtab(struct pm_dso *dso);

/* After loading: which files were used (NULL if none) and the ELF facts. */
const char *pm_dso__path(const struct pm_dso *dso);	  /* runtime binary */
const char *pm_dso__symbol_path(const struct pm_dso *dso);/* gave symbols */
struct pm_elf_info {
	uint16_t machine;	/* e_machine: EM_X86_64, EM_ALPHA, ... */
	uint16_t type;		/* e_type: ET_EXEC, ET_DYN, ET_REL */
	uint8_t elfclass;	/* ELFCLASS32 / ELFCLASS64 */
	uint8_t data;		/* ELFDATA2LSB / ELFDATA2MSB */
};
/* 0 and *info when an ELF file was loaded, else a negative code. */
int pm_dso__elf_info(const struct pm_dso *dso, struct pm_elf_info *info);

/*
 * Source line of a DSO address from DWARF line tables (libdw), from the
 * file that has them (the binary or its debug file). 0 and out filled
 * (file points into the DSO: valid while it lives), or a negative code
 * (-ENOENT: no line information for that address).
 */
struct pm_srcline {
	const char *file;
	int line;
};
int pm_dso__srcline(struct pm_dso *dso, uint64_t addr, struct pm_srcline *out);

/*
 * The frames a DSO address stands for when inlined functions count as
 * frames (perf's --inline), from DWARF: innermost first, ending with the
 * function they are all inlined into. Each is `base` (the symbol holding
 * addr) where DWARF names the function as base is named, else a symbol
 * made for the inlined function (inlined set; base's start and end), the
 * same pointer for the same base and name. Returns how many (0: no DWARF
 * for addr, or no base); *out valid while the DSO lives.
 */
size_t pm_dso__inline_frames(struct pm_dso *dso, uint64_t addr,
			     const struct pm_symbol *base,
			     const struct pm_symbol *const **out);

/*
 * The kernel's init text [_sinittext, _einittext) (kallsyms or the -k
 * vmlinux), where call chains still find start_kernel though the kernel
 * MMAP ends at _etext: 0 and the range, or -ENOENT.
 */
int pm_dso__init_text(struct pm_dso *dso, uint64_t *start, uint64_t *end);

/*
 * For DWARF readers beyond symbols (the unwinder): the separate debug
 * file of an ELF DSO, found as for symbols and source lines (build-id
 * directories, .gnu_debuglink, the debug directory), NULL if none.
 */
const char *pm_dso__debug_path(struct pm_dso *dso);
/*
 * The runtime binary's bytes when no file holds them (a vdso image taken
 * from this process): 0 and *buf, *len (valid while the DSO lives), else
 * -ENOENT.
 */
int pm_dso__image(const struct pm_dso *dso, const void **buf, size_t *len);

#endif
