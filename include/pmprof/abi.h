/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf ABI as data: record types, sample_type and read_format bits,
 * attr flag bits, feature ids and callchain markers. pmprof reads files of
 * any architecture on any host, so it carries its own copy of these
 * numbers instead of the host's <linux/perf_event.h>.
 */
#ifndef PMPROF_ABI_H
#define PMPROF_ABI_H

#include <stdint.h>

/* perf_event_attr.type */
enum pm_attr_type {
	PM_TYPE_HARDWARE   = 0,
	PM_TYPE_SOFTWARE   = 1,
	PM_TYPE_TRACEPOINT = 2,
	PM_TYPE_HW_CACHE   = 3,
	PM_TYPE_RAW        = 4,
	PM_TYPE_BREAKPOINT = 5,
};

/* Record types: the kernel's, then perf's own from 64. */
enum pm_record_type {
	PM_RECORD_MMAP = 1,
	PM_RECORD_LOST = 2,
	PM_RECORD_COMM = 3,
	PM_RECORD_EXIT = 4,
	PM_RECORD_THROTTLE = 5,
	PM_RECORD_UNTHROTTLE = 6,
	PM_RECORD_FORK = 7,
	PM_RECORD_READ = 8,
	PM_RECORD_SAMPLE = 9,
	PM_RECORD_MMAP2 = 10,
	PM_RECORD_AUX = 11,
	PM_RECORD_ITRACE_START = 12,
	PM_RECORD_LOST_SAMPLES = 13,
	PM_RECORD_SWITCH = 14,
	PM_RECORD_SWITCH_CPU_WIDE = 15,
	PM_RECORD_NAMESPACES = 16,
	PM_RECORD_KSYMBOL = 17,
	PM_RECORD_BPF_EVENT = 18,
	PM_RECORD_CGROUP = 19,
	PM_RECORD_TEXT_POKE = 20,
	PM_RECORD_AUX_OUTPUT_HW_ID = 21,
	PM_RECORD_KERNEL_MAX,

	PM_RECORD_HEADER_ATTR = 64,
	PM_RECORD_HEADER_EVENT_TYPE = 65,
	PM_RECORD_HEADER_TRACING_DATA = 66,
	PM_RECORD_HEADER_BUILD_ID = 67,
	PM_RECORD_FINISHED_ROUND = 68,
	PM_RECORD_ID_INDEX = 69,
	PM_RECORD_AUXTRACE_INFO = 70,
	PM_RECORD_AUXTRACE = 71,
	PM_RECORD_AUXTRACE_ERROR = 72,
	PM_RECORD_THREAD_MAP = 73,
	PM_RECORD_CPU_MAP = 74,
	PM_RECORD_STAT_CONFIG = 75,
	PM_RECORD_STAT = 76,
	PM_RECORD_STAT_ROUND = 77,
	PM_RECORD_EVENT_UPDATE = 78,
	PM_RECORD_TIME_CONV = 79,
	PM_RECORD_HEADER_FEATURE = 80,
	PM_RECORD_COMPRESSED = 81,
	PM_RECORD_FINISHED_INIT = 82,
	PM_RECORD_COMPRESSED2 = 83,
	PM_RECORD_MAX,
};

/* perf_event_header.misc */
#define PM_MISC_CPUMODE_MASK	 7
#define PM_MISC_KERNEL		 1
#define PM_MISC_USER		 2
#define PM_MISC_HYPERVISOR	 3
#define PM_MISC_GUEST_KERNEL	 4
#define PM_MISC_GUEST_USER	 5
#define PM_MISC_MMAP_BUILD_ID	 (1 << 14)
#define PM_MISC_COMM_EXEC	 (1 << 13)
#define PM_MISC_FORK_EXEC	 (1 << 13)	/* a synthesized FORK of a process
						   that exec'ed: its maps are its own */
#define PM_MISC_SWITCH_OUT	 (1 << 13)
#define PM_MISC_SWITCH_OUT_PREEMPT (1 << 14)
#define PM_MISC_EXACT_IP	 (1 << 14)
#define PM_MISC_MMAP_DATA	 (1 << 13)
#define PM_MISC_BUILD_ID_SIZE	 (1 << 15)
/*
 * pmprof's own: in the THROTTLE and UNTHROTTLE records pmprof record
 * writes around the gaps of burst mode (the kernel writes these records
 * with misc 0), so that a recorder's stop is not read as the kernel's
 * throttling. perf ignores misc in these records.
 */
#define PM_MISC_PMPROF_STOP	 (1 << 13)

/* sample_type bits */
enum pm_sample_bits {
	PM_SAMPLE_IP             = 1ULL << 0,
	PM_SAMPLE_TID            = 1ULL << 1,
	PM_SAMPLE_TIME           = 1ULL << 2,
	PM_SAMPLE_ADDR           = 1ULL << 3,
	PM_SAMPLE_READ           = 1ULL << 4,
	PM_SAMPLE_CALLCHAIN      = 1ULL << 5,
	PM_SAMPLE_ID             = 1ULL << 6,
	PM_SAMPLE_CPU            = 1ULL << 7,
	PM_SAMPLE_PERIOD         = 1ULL << 8,
	PM_SAMPLE_STREAM_ID      = 1ULL << 9,
	PM_SAMPLE_RAW            = 1ULL << 10,
	PM_SAMPLE_BRANCH_STACK   = 1ULL << 11,
	PM_SAMPLE_REGS_USER      = 1ULL << 12,
	PM_SAMPLE_STACK_USER     = 1ULL << 13,
	PM_SAMPLE_WEIGHT         = 1ULL << 14,
	PM_SAMPLE_DATA_SRC       = 1ULL << 15,
	PM_SAMPLE_IDENTIFIER     = 1ULL << 16,
	PM_SAMPLE_TRANSACTION    = 1ULL << 17,
	PM_SAMPLE_REGS_INTR      = 1ULL << 18,
	PM_SAMPLE_PHYS_ADDR      = 1ULL << 19,
	PM_SAMPLE_AUX            = 1ULL << 20,
	PM_SAMPLE_CGROUP         = 1ULL << 21,
	PM_SAMPLE_DATA_PAGE_SIZE = 1ULL << 22,
	PM_SAMPLE_CODE_PAGE_SIZE = 1ULL << 23,
	PM_SAMPLE_WEIGHT_STRUCT  = 1ULL << 24,
	PM_SAMPLE_MAX_BIT        = 25,
};

/* read_format bits */
enum pm_read_format_bits {
	PM_FORMAT_TOTAL_TIME_ENABLED = 1 << 0,
	PM_FORMAT_TOTAL_TIME_RUNNING = 1 << 1,
	PM_FORMAT_ID                 = 1 << 2,
	PM_FORMAT_GROUP              = 1 << 3,
	PM_FORMAT_LOST               = 1 << 4,
	PM_FORMAT_MAX_BIT            = 5,
};

/* branch_sample_type bits that add to BRANCH_STACK: hw_idx before the
 * entries, a u64 of counters per entry after them (Linux 6.8) */
#define PM_BRANCH_HW_INDEX (1ULL << 17)
#define PM_BRANCH_COUNTERS (1ULL << 19)
#define PM_BRANCH_MAX_BIT  20

/* perf_event_attr flag bits, in the little-endian (canonical) layout */
enum pm_attr_flag_bits {
	PM_ATTR_DISABLED = 0, PM_ATTR_INHERIT, PM_ATTR_PINNED, PM_ATTR_EXCLUSIVE,
	PM_ATTR_EXCLUDE_USER, PM_ATTR_EXCLUDE_KERNEL, PM_ATTR_EXCLUDE_HV,
	PM_ATTR_EXCLUDE_IDLE, PM_ATTR_MMAP, PM_ATTR_COMM, PM_ATTR_FREQ,
	PM_ATTR_INHERIT_STAT, PM_ATTR_ENABLE_ON_EXEC, PM_ATTR_TASK,
	PM_ATTR_WATERMARK, PM_ATTR_PRECISE_IP /* 2 bits: 15-16 */,
	PM_ATTR_MMAP_DATA = 17, PM_ATTR_SAMPLE_ID_ALL, PM_ATTR_EXCLUDE_HOST,
	PM_ATTR_EXCLUDE_GUEST, PM_ATTR_EXCLUDE_CALLCHAIN_KERNEL,
	PM_ATTR_EXCLUDE_CALLCHAIN_USER, PM_ATTR_MMAP2, PM_ATTR_COMM_EXEC,
	PM_ATTR_USE_CLOCKID, PM_ATTR_CONTEXT_SWITCH, PM_ATTR_WRITE_BACKWARD,
	PM_ATTR_NAMESPACES, PM_ATTR_KSYMBOL, PM_ATTR_BPF_EVENT,
	PM_ATTR_AUX_OUTPUT, PM_ATTR_CGROUP, PM_ATTR_TEXT_POKE, PM_ATTR_BUILD_ID,
	PM_ATTR_INHERIT_THREAD, PM_ATTR_REMOVE_ON_EXEC, PM_ATTR_SIGTRAP,
	PM_ATTR_NR_FLAG_BITS,
};

/* perf_event_attr sizes */
#define PM_ATTR_SIZE_VER0 64
#define PM_ATTR_SIZE_VER1 72
#define PM_ATTR_SIZE_VER2 80
#define PM_ATTR_SIZE_VER3 96
#define PM_ATTR_SIZE_VER4 104
#define PM_ATTR_SIZE_VER5 112
#define PM_ATTR_SIZE_VER6 120
#define PM_ATTR_SIZE_VER7 128
#define PM_ATTR_SIZE_VER8 136
#define PM_ATTR_SIZE_VER9 144	/* proposed: hf_sample */
#define PM_ATTR_SIZE_KNOWN PM_ATTR_SIZE_VER9	/* the largest pmprof decodes */
#define PM_ATTR_SIZE_MAX 4096	/* the kernel takes at most a page */

/* Feature ids of perf.data's header. */
enum pm_feature {
	PM_FEAT_RESERVED = 0,
	PM_FEAT_TRACING_DATA = 1,
	PM_FEAT_BUILD_ID,
	PM_FEAT_HOSTNAME,
	PM_FEAT_OSRELEASE,
	PM_FEAT_VERSION,
	PM_FEAT_ARCH,
	PM_FEAT_NRCPUS,
	PM_FEAT_CPUDESC,
	PM_FEAT_CPUID,
	PM_FEAT_TOTAL_MEM,
	PM_FEAT_CMDLINE,
	PM_FEAT_EVENT_DESC,
	PM_FEAT_CPU_TOPOLOGY,
	PM_FEAT_NUMA_TOPOLOGY,
	PM_FEAT_BRANCH_STACK,
	PM_FEAT_PMU_MAPPINGS,
	PM_FEAT_GROUP_DESC,
	PM_FEAT_AUXTRACE,
	PM_FEAT_STAT,
	PM_FEAT_CACHE,
	PM_FEAT_SAMPLE_TIME,
	PM_FEAT_MEM_TOPOLOGY,
	PM_FEAT_CLOCKID,
	PM_FEAT_DIR_FORMAT,
	PM_FEAT_BPF_PROG_INFO,
	PM_FEAT_BPF_BTF,
	PM_FEAT_COMPRESSED,
	PM_FEAT_CPU_PMU_CAPS,
	PM_FEAT_CLOCK_DATA,
	PM_FEAT_HYBRID_TOPOLOGY,
	PM_FEAT_PMU_CAPS,
	PM_FEAT_LAST_KNOWN,
	PM_FEAT_BITS = 256,
};

/* Callchain context markers (as u64). */
#define PM_CONTEXT_HV           ((uint64_t)-32)
#define PM_CONTEXT_KERNEL       ((uint64_t)-128)
#define PM_CONTEXT_USER         ((uint64_t)-512)
#define PM_CONTEXT_GUEST        ((uint64_t)-2048)
#define PM_CONTEXT_GUEST_KERNEL ((uint64_t)-2176)
#define PM_CONTEXT_GUEST_USER   ((uint64_t)-2560)
#define PM_CONTEXT_MAX          ((uint64_t)-4095)

/* Names, NULL when unknown. */
const char *pm_record_type_name(uint32_t type);
const char *pm_feature_name(unsigned int feat);
const char *pm_sample_bit_name(unsigned int bit);
const char *pm_attr_type_name(uint32_t type);
const char *pm_context_name(uint64_t marker);	/* NULL if not a marker */

#endif
