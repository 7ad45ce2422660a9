// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the objdump output parser (lib/disasm/parse.c):
 * any bytes, over the whole address space and over a small range, with
 * lookups at the ends of every instruction found.
 */
#include <stddef.h>
#include <stdint.h>

#include "pmprof/disasm.h"
#include "pmprof/error.h"

static void one(const uint8_t *data, size_t size, uint64_t start, uint64_t end)
{
	struct pm_disasm d = { 0 };
	struct pm_error err;
	size_t i;

	if (!pm_disasm__parse(&d, (const char *)data, size, start, end, &err))
		for (i = 0; i < d.nr; i++) {
			pm_disasm__find(&d, d.insns[i].addr);
			pm_disasm__find(&d, d.insns[i].addr + d.insns[i].size - 1);
		}
	pm_disasm__release(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size, 0, UINT64_MAX);
	one(data, size, 0x1000, 0x1100);
	return 0;
}
