/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The raw event codes pmprof knows by name: what the CPU vendors document
 * for their core PMUs, so that a recording made with raw codes (r3e,
 * r1000001a0) means something on any host, and so that the recorder can
 * ask for an event the kernel lists under no name.
 *
 *   Arm (arm64, aarch64, arm; and an unknown arch): the Armv8/Armv9 common
 *     architectural and microarchitectural events (Arm ARM D7/D11
 *     "PMU events", and the Neoverse telemetry specifications), named as
 *     Linux's armv8_pmuv3 sysfs events/ names them (cpu_cycles,
 *     stall_slot_frontend ...). The config is the event number.
 *   x86 (x86_64, x86, i386, i686): Intel's architectural events (SDM vol.
 *     3B, 20.2.1) and its top-down pseudo-encodings for the slots event
 *     and the PERF_METRICS fields (event 0x00, umask 0x04 and 0x80-0x83,
 *     as Linux's cpu/events/ gives them), and AMD's Zen 4 and later
 *     pipeline-utilization events (PPR for family 19h model 11h, "Core
 *     Performance Monitor Counters"), config as Linux's AMD core PMU
 *     format packs them: event bits 0-7 and 32-35, umask bits 8-15.
 */
#ifndef PMPROF_PMU_EVENTS_H
#define PMPROF_PMU_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pm_pmu_family {
	PM_PMU_FAMILY_UNKNOWN = 0,
	PM_PMU_FAMILY_ARM,
	PM_PMU_FAMILY_X86,
};

/* From an ARCH feature or uname machine string; NULL is Arm (the codes
 * pmprof has always read without an arch). */
enum pm_pmu_family pm_pmu_family(const char *arch);

/* The name of a raw code in that family's table (NULL: not known). Arm
 * compares the low 16 bits (the event number field). */
const char *pm_pmu_event__name(enum pm_pmu_family fam, uint64_t config);
/* Are the n bytes at a the name b, in any case, '-' and '_' alike? */
bool pm_event_name__eq(const char *a, size_t n, const char *b);
/* The code of a name (case-insensitive, '-' and '_' alike); -1 if the
 * family does not have it. */
int pm_pmu_event__config(enum pm_pmu_family fam, const char *name,
			 uint64_t *config);

/*
 * An x86 CPUID string in either of perf's forms: the header's
 * "AuthenticAMD,25,17,1" (family, model, stepping in decimal) or the
 * pmu-events' "AuthenticAMD-25-11-1" (PERF_CPUID: family decimal, model
 * and stepping hex). 0 and the parts, or -1.
 */
int pm_cpuid__x86(const char *cpuid, char *vendor, size_t size,
		  unsigned int *family, unsigned int *model);

#endif
