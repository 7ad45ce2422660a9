// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator's program is a little ELF64 executable (pm_elf__write,
 * lib/symbols/elf-write.c) whose .text holds the model's functions as
 * symbols, so that pmprof and perf resolve the simulated IPs; its
 * machine is the model's arch.
 */
#include <string.h>

#include "pmprof/sim.h"
#include "pmprof/util.h"

uint16_t pm_sim_elf__machine(const char *arch)
{
	static const struct { const char *arch; uint16_t em; } t[] = {
		{ "x86_64", 62 }, { "aarch64", 183 }, { "arm64", 183 },
		{ "riscv64", 243 }, { "ppc64le", 21 }, { "ppc64", 21 },
		{ "s390x", 22 }, { "alpha", 0x9026 },
	};
	size_t i;

	for (i = 0; arch && i < PM_ARRAY_SIZE(t); i++)
		if (!strcmp(arch, t[i].arch))
			return t[i].em;
	return 62;
}
