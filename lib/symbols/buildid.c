// SPDX-License-Identifier: GPL-2.0
/*
 * Build ids: the NT_GNU_BUILD_ID note in an ELF file's notes (sections or,
 * stripped of them, segments), and the running kernel's from
 * /sys/kernel/notes (raw notes in host byte order).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pmprof/bytes.h"
#include "pmprof/error.h"
#include "pmprof/symbols.h"
#include "symbols/internal.h"

#define PM_NT_GNU_BUILD_ID 3

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

int pm_notes__build_id(const void *buf, size_t len, bool swap, uint8_t *id,
		       size_t max)
{
	const uint8_t *p = buf;
	size_t off = 0;

	/* each note: u32 namesz, descsz, type; name, desc (4-aligned) */
	while (len - off >= 12) {
		uint32_t namesz = pm_load32(p + off, swap);
		uint32_t descsz = pm_load32(p + off + 4, swap);
		uint32_t type = pm_load32(p + off + 8, swap);
		size_t name_off = off + 12, desc_off, next;

		if (align4(namesz) > len - name_off)
			return -PM_EFORMAT;
		desc_off = name_off + align4(namesz);
		if (align4(descsz) > len - desc_off)
			return -PM_EFORMAT;
		next = desc_off + align4(descsz);
		if (type == PM_NT_GNU_BUILD_ID && namesz == 4 &&
		    !memcmp(p + name_off, "GNU", 4) && descsz > 0) {
			size_t n = descsz < max ? descsz : max;

			memcpy(id, p + desc_off, n);
			return (int)n;
		}
		off = next;
	}
	return -PM_EFORMAT;
}

int pm_kernel__host_build_id(const char *notes_path, uint8_t *id, size_t max,
			     struct pm_error *err)
{
	uint8_t buf[4096];
	ssize_t n;
	size_t len = 0;
	int fd, r;

	if (!notes_path)
		notes_path = "/sys/kernel/notes";
	fd = open(notes_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pm_error__fmt(err, errno, "%s: %s", notes_path,
				     strerror(errno));
	while (len < sizeof(buf) &&
	       (n = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += (size_t)n;
	close(fd);
	r = pm_notes__build_id(buf, len, false, id, max);
	if (r < 0)
		return pm_error__fmt(err, PM_EFORMAT, "%s: no build id note",
				     notes_path);
	return r;
}

char *pm_build_id__hex(const uint8_t *id, size_t len, char *buf)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		buf[2 * i] = hex[id[i] >> 4];
		buf[2 * i + 1] = hex[id[i] & 15];
	}
	buf[2 * len] = '\0';
	return buf;
}

size_t pm_elf_data__build_id(Elf_Data *data, uint8_t *id, size_t max)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((const char *)data->d_buf + name_off, "GNU", 4) &&
		    nh.n_descsz > 0) {
			size_t n = nh.n_descsz < max ? nh.n_descsz : max;

			memcpy(id, (const char *)data->d_buf + desc_off, n);
			return n;
		}
	}
	return 0;
}

/* The build id of an open ELF: its note sections or, stripped of them,
 * its note segments. 0 when it has none. */
static size_t elf_build_id(Elf *e, uint8_t id[20])
{
	Elf_Scn *scn = NULL;
	size_t i, nph, n = 0;

	if (!e || elf_kind(e) != ELF_K_ELF)
		return 0;
	while (!n && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (data)
			n = pm_elf_data__build_id(data, id, 20);
	}
	if (!n && !elf_getphdrnum(e, &nph)) {
		for (i = 0; !n && i < nph; i++) {
			GElf_Phdr ph;
			Elf_Data *data;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_NOTE)
				continue;
			data = elf_getdata_rawchunk(e, (int64_t)ph.p_offset, ph.p_filesz,
						    ELF_T_NHDR);
			if (data)
				n = pm_elf_data__build_id(data, id, 20);
		}
	}
	return n;
}

int pm_build_id__read(const char *path, uint8_t id[20], uint8_t *size)
{
	Elf *e;
	size_t n;
	int fd;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	n = elf_build_id(e, id);
	if (e)
		elf_end(e);
	close(fd);
	if (!n)
		return -1;
	*size = (uint8_t)n;
	return 0;
}

int pm_build_id__from_image(const void *image, size_t len, uint8_t id[20],
			    uint8_t *size)
{
	Elf *e;
	size_t n;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	/* libelf reads the image in place and never writes to it */
	e = elf_memory((char *)(uintptr_t)image, len);
	n = elf_build_id(e, id);
	if (e)
		elf_end(e);
	if (!n)
		return -1;
	*size = (uint8_t)n;
	return 0;
}
