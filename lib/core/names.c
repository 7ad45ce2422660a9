// SPDX-License-Identifier: GPL-2.0
/* Names of the perf ABI's numbers, as perf prints them. */
#include <stddef.h>

#include "pmprof/abi.h"
#include "pmprof/util.h"

static const char *const record_names[PM_RECORD_MAX] = {
	[PM_RECORD_MMAP] = "MMAP",
	[PM_RECORD_LOST] = "LOST",
	[PM_RECORD_COMM] = "COMM",
	[PM_RECORD_EXIT] = "EXIT",
	[PM_RECORD_THROTTLE] = "THROTTLE",
	[PM_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PM_RECORD_FORK] = "FORK",
	[PM_RECORD_READ] = "READ",
	[PM_RECORD_SAMPLE] = "SAMPLE",
	[PM_RECORD_MMAP2] = "MMAP2",
	[PM_RECORD_AUX] = "AUX",
	[PM_RECORD_ITRACE_START] = "ITRACE_START",
	[PM_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PM_RECORD_SWITCH] = "SWITCH",
	[PM_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PM_RECORD_NAMESPACES] = "NAMESPACES",
	[PM_RECORD_KSYMBOL] = "KSYMBOL",
	[PM_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PM_RECORD_CGROUP] = "CGROUP",
	[PM_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PM_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[PM_RECORD_HEADER_ATTR] = "ATTR",
	[PM_RECORD_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[PM_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
	[PM_RECORD_HEADER_BUILD_ID] = "BUILD_ID",
	[PM_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
	[PM_RECORD_ID_INDEX] = "ID_INDEX",
	[PM_RECORD_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[PM_RECORD_AUXTRACE] = "AUXTRACE",
	[PM_RECORD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[PM_RECORD_THREAD_MAP] = "THREAD_MAP",
	[PM_RECORD_CPU_MAP] = "CPU_MAP",
	[PM_RECORD_STAT_CONFIG] = "STAT_CONFIG",
	[PM_RECORD_STAT] = "STAT",
	[PM_RECORD_STAT_ROUND] = "STAT_ROUND",
	[PM_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
	[PM_RECORD_TIME_CONV] = "TIME_CONV",
	[PM_RECORD_HEADER_FEATURE] = "FEATURE",
	[PM_RECORD_COMPRESSED] = "COMPRESSED",
	[PM_RECORD_FINISHED_INIT] = "FINISHED_INIT",
	[PM_RECORD_COMPRESSED2] = "COMPRESSED2",
};

const char *pm_record_type_name(uint32_t type)
{
	return type < PM_RECORD_MAX ? record_names[type] : NULL;
}

static const char *const feature_names[PM_FEAT_LAST_KNOWN] = {
	[PM_FEAT_TRACING_DATA] = "TRACING_DATA",
	[PM_FEAT_BUILD_ID] = "BUILD_ID",
	[PM_FEAT_HOSTNAME] = "HOSTNAME",
	[PM_FEAT_OSRELEASE] = "OSRELEASE",
	[PM_FEAT_VERSION] = "VERSION",
	[PM_FEAT_ARCH] = "ARCH",
	[PM_FEAT_NRCPUS] = "NRCPUS",
	[PM_FEAT_CPUDESC] = "CPUDESC",
	[PM_FEAT_CPUID] = "CPUID",
	[PM_FEAT_TOTAL_MEM] = "TOTAL_MEM",
	[PM_FEAT_CMDLINE] = "CMDLINE",
	[PM_FEAT_EVENT_DESC] = "EVENT_DESC",
	[PM_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[PM_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[PM_FEAT_BRANCH_STACK] = "BRANCH_STACK",
	[PM_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[PM_FEAT_GROUP_DESC] = "GROUP_DESC",
	[PM_FEAT_AUXTRACE] = "AUXTRACE",
	[PM_FEAT_STAT] = "STAT",
	[PM_FEAT_CACHE] = "CACHE",
	[PM_FEAT_SAMPLE_TIME] = "SAMPLE_TIME",
	[PM_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[PM_FEAT_CLOCKID] = "CLOCKID",
	[PM_FEAT_DIR_FORMAT] = "DIR_FORMAT",
	[PM_FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[PM_FEAT_BPF_BTF] = "BPF_BTF",
	[PM_FEAT_COMPRESSED] = "COMPRESSED",
	[PM_FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[PM_FEAT_CLOCK_DATA] = "CLOCK_DATA",
	[PM_FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[PM_FEAT_PMU_CAPS] = "PMU_CAPS",
};

const char *pm_feature_name(unsigned int feat)
{
	return feat < PM_FEAT_LAST_KNOWN ? feature_names[feat] : NULL;
}

static const char *const sample_bit_names[PM_SAMPLE_MAX_BIT] = {
	"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU",
	"PERIOD", "STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER",
	"STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER", "TRANSACTION",
	"REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE",
	"CODE_PAGE_SIZE", "WEIGHT_STRUCT",
};

const char *pm_sample_bit_name(unsigned int bit)
{
	return bit < PM_SAMPLE_MAX_BIT ? sample_bit_names[bit] : NULL;
}

const char *pm_attr_type_name(uint32_t type)
{
	static const char *const names[] = {
		"hardware", "software", "tracepoint", "hw-cache", "raw",
		"breakpoint",
	};

	return type < PM_ARRAY_SIZE(names) ? names[type] : NULL;
}

const char *pm_context_name(uint64_t marker)
{
	switch (marker) {
	case PM_CONTEXT_HV:		return "hv";
	case PM_CONTEXT_KERNEL:		return "kernel";
	case PM_CONTEXT_USER:		return "user";
	case PM_CONTEXT_GUEST:		return "guest";
	case PM_CONTEXT_GUEST_KERNEL:	return "guest kernel";
	case PM_CONTEXT_GUEST_USER:	return "guest user";
	}
	return NULL;
}
