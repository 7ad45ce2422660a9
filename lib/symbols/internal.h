/* SPDX-License-Identifier: GPL-2.0 */
/* Internals of the symbols layer, shared by its files only. */
#ifndef PMPROF_SYMBOLS_INTERNAL_H
#define PMPROF_SYMBOLS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libelf.h>

#include "pmprof/dso.h"
#include "pmprof/error.h"

struct pm_error;

/* One PT_LOAD segment: enough to turn file offsets into addresses. */
struct pm_segment {
	uint64_t offset, vaddr, filesz, memsz, align;
	bool exec;
};

/* What one ELF file offers (read once, then closed). */
struct pm_elf_file {
	char *path;
	struct pm_elf_info info;
	uint8_t build_id[64];
	size_t build_id_size;
	bool has_symtab;	/* a .symtab with function symbols */
	bool has_dynsym;
	bool has_debug_line;	/* .debug_line / .zdebug_line present */
	char *debuglink;	/* .gnu_debuglink file name, or NULL */
	uint32_t debuglink_crc;
	struct pm_segment *segs;
	size_t nr_segs;
};

/*
 * Open `path` (or an in-memory image when buf is set), fill f and, when
 * funcs is set, add its symbols (.symtab if it has one, else .dynsym):
 * functions to funcs, data objects to data (may be NULL). One open, one
 * pass over the file.
 */
int pm_elf_file__open(struct pm_elf_file *f, const char *path,
		      const void *buf, size_t len, struct pm_symtab *funcs,
		      struct pm_symtab *data, struct pm_error *err);
void pm_elf_file__release(struct pm_elf_file *f);
/* crc32 as .gnu_debuglink uses it (the zlib/IEEE one) over a file. */
int pm_file_crc32(const char *path, uint32_t *crc);

/* The GNU build id in ELF note data: its size (at most max) or 0. */
size_t pm_elf_data__build_id(Elf_Data *data, uint8_t *id, size_t max);

/* File offset -> address through segments; and back. */
uint64_t pm_segments__offset_to_addr(const struct pm_segment *segs, size_t nr,
				     uint64_t offset);
uint64_t pm_segments__addr_to_offset(const struct pm_segment *segs, size_t nr,
				     uint64_t addr);

#endif
