// SPDX-License-Identifier: GPL-2.0
/*
 * Source lines through libdw: the CU holding the address, then the line
 * table entry for it. DWARF addresses are the file's own (unrelocated)
 * ones, the same space as symbols, so no adjustment is needed. The DWARF
 * file (binary or debug file) is opened on first use and kept.
 */
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

#include "pmprof/dso.h"
#include "symbols/dso-internal.h"

static void open_dwarf(struct pm_dso *dso)
{
	const char *path = NULL;
	Elf *elf;
	int fd;

	dso->dw_tried = true;
	dso->dw_fd = -1;
	pm_dso__load(dso, NULL);
	if (dso->kind != PM_DSO_ELF)
		return;
	if (dso->bin.path && dso->bin.has_debug_line)
		path = dso->bin.path;
	else
		path = pm_dso__find_debug(dso);
	if (!path)
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		close(fd);
		return;
	}
	dso->dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (!dso->dw) {
		elf_end(elf);
		close(fd);
		return;
	}
	dso->dw_elf = elf;
	dso->dw_fd = fd;
}

void *pm_dso__dwarf(struct pm_dso *dso)
{
	if (!dso->dw_tried)
		open_dwarf(dso);
	return dso->dw;
}

int pm_dso__srcline(struct pm_dso *dso, uint64_t addr, struct pm_srcline *out)
{
	Dwarf_Die cu;
	Dwarf_Line *line;
	const char *file;
	int lineno = 0;

	if (!pm_dso__dwarf(dso))
		return -ENOENT;
	if (!dwarf_addrdie(dso->dw, addr, &cu))
		return -ENOENT;
	line = dwarf_getsrc_die(&cu, addr);
	if (!line)
		return -ENOENT;
	file = dwarf_linesrc(line, NULL, NULL);
	if (!file || dwarf_lineno(line, &lineno) != 0)
		return -ENOENT;
	out->file = file;
	out->line = lineno;
	return 0;
}

void pm_srcline__release(struct pm_dso *dso)
{
	if (dso->dw)
		dwarf_end(dso->dw);
	if (dso->dw_elf)
		elf_end(dso->dw_elf);
	if (dso->dw_tried && dso->dw_fd >= 0)
		close(dso->dw_fd);
	dso->dw = dso->dw_elf = NULL;
	dso->dw_tried = false;
}
