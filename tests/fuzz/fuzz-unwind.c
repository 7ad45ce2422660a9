// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the unwinder: hostile registers and stack bytes
 * over real code with real CFI (this very program, mapped where it runs).
 * Input: byte 0 picks the machine (odd: x86-64, even: arm64; the arm64
 * backend then reads x86-64 code as data, which must be harmless too),
 * bytes 1..8 where the pc lands in the program's code, then up to 33
 * registers of 8 bytes, then the stack bytes. sp points at the stack
 * bytes; whatever the bytes say, unwinding must stay within them and
 * the frame limit, and never crash.
 */
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmprof/dso.h"
#include "pmprof/unwind.h"

#define STACK_BASE 0x7ff000000000ULL
#define MAX_MAPS 8

static struct pm_dsos *dsos;
static struct pm_dso *self;
static struct pm_unwind_map maps[MAX_MAPS];
static size_t nr_maps;
static uint64_t text_start, text_end;
static struct pm_unwinder *unwinder;

/* The program's own mappings, from /proc/self/maps. */
static void init(void)
{
	struct pm_symconf conf = { .sz = sizeof(conf), .no_buildid_cache = true,
				   .no_debuginfo = true };
	char exe[PATH_MAX], line[PATH_MAX + 128], path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f = fopen("/proc/self/maps", "r");

	if (n <= 0 || !f)
		abort();
	exe[n] = '\0';
	dsos = pm_dsos__new(&conf);
	self = pm_dsos__findnew(dsos, exe);
	while (fgets(line, sizeof(line), f) && nr_maps < MAX_MAPS) {
		uint64_t lo, hi, off;
		char perms[8];

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %4095s",
			   &lo, &hi, perms, &off, path) != 5 || strcmp(path, exe))
			continue;
		maps[nr_maps++] = (struct pm_unwind_map){ lo, hi, off, self };
		if (perms[2] == 'x' && !text_start) {
			text_start = lo;
			text_end = hi;
		}
	}
	fclose(f);
	if (!text_start)
		abort();
	unwinder = pm_unwinder__new();
}

static int find_map(void *arg, uint64_t addr, struct pm_unwind_map *out)
{
	(void)arg;
	for (size_t i = 0; i < nr_maps; i++)
		if (maps[i].start <= addr && addr < maps[i].end) {
			*out = maps[i];
			return 0;
		}
	return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t regs[33] = { 0 }, where = 0;
	struct pm_regs r = { .abi = 2 };
	struct pm_unwind_input in = { .tid = 1 };
	struct pm_unwind_frame frames[PM_UNWIND_MAX_FRAMES];
	struct pm_unwind_result res;
	size_t nregs, pos = 9;

	if (!unwinder)
		init();
	if (size < 9)
		return 0;
	in.machine = data[0] & 1 ? PM_EM_X86_64 : PM_EM_AARCH64;
	memcpy(&where, data + 1, 8);
	nregs = in.machine == PM_EM_X86_64 ? 24 : 33;
	for (size_t i = 0; i < nregs && pos + 8 <= size; i++, pos += 8)
		memcpy(&regs[i], data + pos, 8);
	/* the pc in the program's code, sp at the stack bytes */
	if (in.machine == PM_EM_X86_64) {
		regs[8] = text_start + where % (text_end - text_start);
		regs[7] = STACK_BASE;
		r.mask = 0xff0fffULL;
	} else {
		regs[32] = text_start + where % (text_end - text_start);
		regs[31] = STACK_BASE;
		r.mask = (1ULL << 33) - 1;
	}
	/* values in the order of the mask's bits */
	{
		static uint64_t vals[33];
		uint32_t k = 0;

		for (int b = 0; b < 33; b++)
			if (r.mask >> b & 1)
				vals[k++] = regs[b];
		r.nr = k;
		r.regs = vals;
	}
	in.regs = &r;
	in.stack = data + pos;
	in.stack_size = size - pos;
	if (pm_unwinder__unwind(unwinder, find_map, NULL, &in, frames,
				PM_UNWIND_MAX_FRAMES, &res) > PM_UNWIND_MAX_FRAMES)
		abort();
	return 0;
}
