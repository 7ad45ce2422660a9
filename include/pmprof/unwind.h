/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DWARF unwinding of sampled user stacks: the registers and the stack
 * bytes a sample carries with PERF_SAMPLE_REGS_USER and
 * PERF_SAMPLE_STACK_USER (`perf record --call-graph dwarf`) turned into
 * the addresses of the frames, with elfutils' unwinder (libdwfl's frame
 * interface): libdw reads the CFI (.eh_frame of the binary; for a binary
 * without one, .debug_frame of the binary or of its debug file) and runs
 * it, falling back to frame pointers where an address has none. x86-64
 * and arm64 recordings unwind on any host.
 *
 * The caller says what is mapped where in the sample's process through a
 * callback. Each ELF file is reported to libdwfl once, for every process
 * of the recording: at a place of its own in an address range no process
 * uses, where the values the unwinder reads (registers, stack words) are
 * moved to from the mapping they point into, and the frames found moved
 * back from. So libdw parses a file's CFI once, however many processes
 * map it wherever ASLR put it. Files come from the symbols layer (dso.h),
 * so they are found as symbols are: build-id cache, --symfs, debug
 * directories, .gnu_debuglink.
 *
 *	struct pm_unwinder *u = pm_unwinder__new();
 *	struct pm_unwind_input in = {
 *		.machine = PM_EM_X86_64,
 *		.regs = &sample->regs_user,
 *		.stack = sample->stack_user,
 *		.stack_size = sample->stack_user_dyn_size,
 *		.tid = sample->tid,
 *	};
 *	struct pm_unwind_frame f[PM_UNWIND_MAX_FRAMES];
 *	struct pm_unwind_result res;
 *	size_t n = pm_unwinder__unwind(u, find_map, maps_of_process, &in, f,
 *				       PM_UNWIND_MAX_FRAMES, &res);
 *	// f[0].ip is the sampled pc, f[1].ip a call in its caller, ...
 *	pm_unwinder__delete(u);
 *
 * libdwfl's step for a pc is kept (the rules libdw gives for its frame)
 * and reapplied to later samples at the same pc: only samples whose
 * steps are all register-plus-offset rules are unwound so; the others go
 * through libdwfl, and both give the same frames (PM_UNWIND_CHECK runs
 * both and compares). A sample whose unwind on cached rules would read
 * the same values an earlier one read (the same pc, sp, and stack words
 * and registers it depended on, in the same maps) gets that sample's
 * frames at once (the chain memo, PM_UNWIND_CACHED only).
 *
 * Not thread-safe: one unwinder per thread.
 */
#ifndef PMPROF_UNWIND_H
#define PMPROF_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/error.h"
#include "pmprof/perfdata.h"

struct pm_dso;

/* e_machine values the unwinder knows (ELF's EM_*). */
#define PM_EM_X86_64	62
#define PM_EM_AARCH64	183

/* perf's default and the kernel's perf_event_max_stack: frames kept. */
#define PM_UNWIND_MAX_FRAMES 127

/* The recording's architecture by its HEADER_ARCH string ("x86_64",
 * "aarch64", "arm64", uname -m's names); 0 when unwinding does not know
 * it. NULL: this host's. */
uint16_t pm_unwind__machine(const char *arch);

/* One mapping, as the caller's address space has it. */
struct pm_unwind_map {
	uint64_t start, end;	/* [start, end) */
	uint64_t pgoff;		/* file offset of start */
	struct pm_dso *dso;	/* borrowed; may be NULL (anonymous) */
	bool exec;		/* mapped executable: code is moved back
				   into the process by such a mapping */
};

/* The mapping holding addr in the sample's process: 0 and *out, or
 * -ENOENT, with out->start and out->end the unmapped range around addr
 * (or both 0 when unknown): the unwinder then asks no more for
 * addresses in it during the sample (registers hold many non-addresses). */
typedef int (*pm_unwind_find_map_fn)(void *arg, uint64_t addr,
				     struct pm_unwind_map *out);

struct pm_unwind_input {
	uint16_t machine;		/* PM_EM_X86_64 or PM_EM_AARCH64 */
	bool big_endian;		/* byte order of the stack bytes */
	const struct pm_regs *regs;	/* the sample's regs_user */
	const uint8_t *stack;		/* the sample's stack_user bytes */
	uint64_t stack_size;		/* of them valid: the dyn_size */
	int32_t tid;			/* names the thread to libdwfl */
	/* Nonzero: a number that names the mappings find_map tells as they
	 * are, changed whenever they change; the unwinder then keeps the
	 * mappings it was told from one sample to the next. 0: unknown. */
	uint64_t maps_version;
	/*
	 * NULL, or whether the process (as of maps_version) moves every
	 * address of every executable mapping of dso into the file by one
	 * amount (one load bias).
	 * With it, and a maps_version, a sample that reads the values an
	 * earlier one read gets its frames without unwinding (the chain
	 * memo). Called with find_map's arg.
	 */
	bool (*one_bias)(void *arg, struct pm_dso *dso);
};


struct pm_unwind_frame {
	/*
	 * The address perf reports: the sampled pc for the first frame (and
	 * for a frame a signal interrupted), the return address - 1 for a
	 * caller, which lands inside its call instruction.
	 */
	uint64_t ip;
	bool activation;	/* ip is a pc, not a return address - 1 */
};

enum pm_unwind_stop {
	PM_UNWIND_END,		/* the outermost frame says it is one */
	PM_UNWIND_LIMIT,	/* the frame array was full */
	PM_UNWIND_FAILED,	/* libdw could go no further (err says why) */
	PM_UNWIND_NO_INPUT,	/* no registers or no stack, or an unknown
				   machine or register ABI: nothing done */
};

struct pm_unwind_result {
	enum pm_unwind_stop stop;
	struct pm_error err;	/* for FAILED and NO_INPUT */
};

/* Running totals, for benchmarks and diagnostics. */
struct pm_unwind_stats {
	uint64_t samples;	/* pm_unwinder__unwind() calls */
	uint64_t frames;	/* frames returned */
	uint64_t failed;	/* of the samples, stopped by an error */
	uint64_t no_input;	/* of the samples, not unwound at all */
	uint64_t modules;	/* ELF files reported to libdwfl */
	uint64_t cached;	/* of the samples, unwound on cached rules */
	uint64_t rules;		/* frame rules asked of libdw (distinct pcs) */
	uint64_t checked;	/* PM_UNWIND_CHECK: samples unwound both ways */
	uint64_t mismatched;	/* of them, with different frames or ends */
	uint64_t memo;		/* of the cached, the frames of an earlier
				   sample with the same inputs */
};

enum pm_unwind_mode {
	PM_UNWIND_CACHED,	/* cached rules where they do (the default) */
	PM_UNWIND_LIBDWFL,	/* every sample step by step through libdwfl */
	PM_UNWIND_CHECK,	/* both; the frames compared (stats) */
};

struct pm_unwinder;

struct pm_unwinder *pm_unwinder__new(void);
void pm_unwinder__delete(struct pm_unwinder *u);

/*
 * Unwind one sample; find_map(arg, ...) tells its process's mappings.
 * Fills up to max frames and returns how many (the frames found before
 * any error are kept); res (may be NULL) says why it stopped.
 */
size_t pm_unwinder__unwind(struct pm_unwinder *u,
			   pm_unwind_find_map_fn find_map, void *arg,
			   const struct pm_unwind_input *in,
			   struct pm_unwind_frame *frames, size_t max,
			   struct pm_unwind_result *res);

const struct pm_unwind_stats *pm_unwinder__stats(const struct pm_unwinder *u);

void pm_unwinder__set_mode(struct pm_unwinder *u, enum pm_unwind_mode mode);
/* The chain memo on (the default) or off. */
void pm_unwinder__set_memo(struct pm_unwinder *u, bool on);
/* PM_UNWIND_CHECK: the first difference found, described; NULL: none. */
const char *pm_unwinder__mismatch(const struct pm_unwinder *u);

#endif
