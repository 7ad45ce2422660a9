/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event specifications in perf's syntax, turned into perf_event_attrs the
 * way perf 6.1 builds them, plus the short-window ("hf") terms.
 *
 * Two steps, as in perf:
 *  1. pm_evspec__parse() reads an -e string (may be called once per -e
 *     option, appending to the same list). It applies what the string
 *     itself says: type, config, config1/2/3, modifiers, terms.
 *  2. pm_evspec__apply_record() applies what `perf record` adds for every
 *     event (sample_type, -c/-F, -g, --sample-cpu, leader sampling of :S
 *     groups, tracking bits on the first event, sample ids when there is
 *     more than one event). Call it once, after the last parse.
 *
 * Grammar (what users write; no globs, no metric groups, no mem: events):
 *   list     := item { ',' item }
 *   item     := '{' event { ',' event } '}' [ ':' MODS ]   a group
 *             | event
 *   event    := SYMBOL [ '/' terms '/' ] [ [':'] MODS ]    cycles, cpu-clock,
 *                                                  L1-dcache-load-misses, ...
 *             | 'r' HEX [ '/' terms '/' ] [ [':'] MODS ]   raw (type 4)
 *             | PMU '/' terms '/' [ [':'] MODS ]          sysfs PMU
 *             | ALIAS [ ':' MODS ]      an events/ alias of any sysfs PMU
 *             | SYS ':' NAME [ '/' terms '/' ] [ ':' MODS ]  tracepoint
 *   terms    := term { ',' term },  term := NAME [ '=' VALUE ]
 *   MODS     := chars from "ukhGHpPSDIWeb" (p up to 3 times, no other
 *               repeats), perf's rules for how they combine.
 * Generic terms: config config1 config2 config3 name period freq
 *   call-graph (fp|dwarf|no) stack-size max-stack, and the short-window
 *   terms hf-period=N (non-zero, below period), hf-rand=R (0-15, needs
 *   hf-period), hf-burst=N (N short windows after each long one, default
 *   1, needs hf-period), hf-jitter=J (a jitter of J events applied to long
 *   and short periods, below 2 x hf-period, needs hf-period).
 * PMU terms: the PMU's format/ files (config:0-7,32-35 ...) and aliases
 *   from its events/ directory. Tracepoints accept only call-graph and
 *   stack-size, as perf does.
 *
 * Errors: -PM_EUSAGE with err->has_offset set and err->offset the byte of
 * the offending term in the string; the message names the term.
 * pm_evspec__format_error() gives perf's two-line caret form.
 */
#ifndef PMPROF_EVSPEC_H
#define PMPROF_EVSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/attr.h"
#include "pmprof/error.h"

/* perf 6.1's sizeof(struct perf_event_attr); 144 with hf terms. */
#define PM_EVSPEC_ATTR_SIZE 128

enum pm_callgraph_mode {
	PM_CALLGRAPH_UNSET = 0,	/* not given: the record-level default */
	PM_CALLGRAPH_NONE,	/* call-graph=no */
	PM_CALLGRAPH_FP,
	PM_CALLGRAPH_DWARF,
};

/* Which terms the string set (they win over record-level options). */
enum pm_evspec_term_bits {
	PM_EVSPEC_T_PERIOD = 1 << 0,
	PM_EVSPEC_T_FREQ = 1 << 1,
	PM_EVSPEC_T_CALLGRAPH = 1 << 2,
	PM_EVSPEC_T_STACK_SIZE = 1 << 3,
	PM_EVSPEC_T_MAX_STACK = 1 << 4,
	PM_EVSPEC_T_HF = 1 << 5,	/* any hf-* term */
};

struct pm_evspec_event {
	struct pm_attr attr;
	char *name;		/* name= term, else the event as written */
	int group_leader;	/* index of the leader in the list (self if alone) */
	int nr_members;		/* leaders: events in the group, 1 when alone */
	uint32_t hf_burst;	/* short windows per long one; 0 without hf */
	uint32_t hf_jitter;	/* plain jitter in events, 0 for none */
	bool sample_read;	/* :S */
	bool tracepoint;
	bool tracking_dummy;	/* the side-band event record -D adds */
	bool exclude_GH;	/* a G or H modifier was given (perf's evsel flag) */
	/* An :S group event whose inherit perf 6.1 clears (the kernel took
	 * inherit with PERF_SAMPLE_READ only from Linux 6.12, with TID): a
	 * recorder may set it again where the kernel takes it, as perf 6.12
	 * and later do, so that a workload's children are counted too. */
	bool inherit_read;
	unsigned int terms;	/* enum pm_evspec_term_bits */
	uint64_t term_period, term_freq;
	enum pm_callgraph_mode callgraph;
	uint32_t stack_size;	/* dwarf dump size, 0: default */
	uint32_t max_stack;	/* 0: not given */
	size_t pos;		/* byte offset of the event in its -e string */
};

struct pm_evspec_list {
	struct pm_evspec_event *ev;
	size_t nr, alloc;
};

struct pm_evspec_opts {
	/* The sysfs root (PMUs under ROOT/bus/event_source/devices/,
	 * tracepoint ids under ROOT/kernel/tracing/events/ or
	 * ROOT/kernel/debug/tracing/events/). NULL: "/sys". */
	const char *sysfs_root;
	/* A tracepoint on a machine where tracefs is not mounted: mount it
	 * at /sys/kernel/tracing (only for the live /sys), as perf does. */
	bool mount_tracefs;
};

void pm_evspec_list__init(struct pm_evspec_list *list);
void pm_evspec_list__exit(struct pm_evspec_list *list);

/* Parse one -e string and append its events. On error nothing is
 * appended; err->offset is the byte in `str` where the problem is. */
int pm_evspec__parse(struct pm_evspec_list *list, const char *str,
		     const struct pm_evspec_opts *opts, struct pm_error *err);

/* What `perf record` options add to every event. Zero-initialise, then
 * set what the user gave. */
struct pm_record_defaults {
	uint64_t period;	/* -c N: fixed period (wins over -F); 0: unset */
	uint64_t freq;		/* -F N; 0: perf's default 4000 */
	uint64_t default_freq;	/* the default when no -F: 0 is 4000 (perf
				 * lowers it to the kernel's maximum rate) */
	enum pm_callgraph_mode callgraph;	/* -g is FP */
	uint32_t dump_size;	/* --call-graph dwarf,SIZE (default 8192) */
	uint32_t max_stack;	/* --call-graph fp,N */
	bool sample_cpu;	/* --sample-cpu: PERF_SAMPLE_CPU */
	bool timestamp;		/* -T: PERF_SAMPLE_TIME (perf record sets it anyway) */
	bool no_inherit;	/* -i */
	bool inherit_stat;	/* -s: inherit_stat, and the times in
				 * read_format (each child's counts reach
				 * the file as a READ record at its exit) */
	bool sample_identifier;	/* force IDENTIFIER instead of ID */
	bool raw_samples;	/* -R: RAW, CPU and TIME */
	bool sample_addr;	/* -d: ADDR and DATA_SRC, mmap_data */
	bool weight;		/* -W: WEIGHT_STRUCT */
	uint64_t branch_stack;	/* -b: branch_sample_type (ANY); 0: none */
	bool delay;		/* -D: the events start disabled, a dummy
				 * enabled on exec does the side-band */
};

/* PERF_SAMPLE_BRANCH_ANY, what -b asks for. */
#define PM_BRANCH_SAMPLE_ANY (1ULL << 3)

#define PM_RECORD_DEFAULT_FREQ 4000
#define PM_RECORD_DEFAULT_DUMP_SIZE 8192
/* The user register masks perf sets for --call-graph dwarf: x86_64's
 * (AX..SS, R8..R15), arm64's (X0..X30, SP, PC); the host's is recorded. */
#define PM_RECORD_DWARF_REGS_X86_64 0xff0fffULL
#define PM_RECORD_DWARF_REGS_ARM64 ((1ULL << 33) - 1)
#if defined(__aarch64__)
#define PM_RECORD_DWARF_REGS PM_RECORD_DWARF_REGS_ARM64
#else
#define PM_RECORD_DWARF_REGS PM_RECORD_DWARF_REGS_X86_64
#endif

/*
 * Apply perf record's per-event configuration (perf 6.1's
 * evsel__config/evlist__config for a workload started by the tool):
 *  - size 128 (144 when an hf term is used), sample_id_all, inherit
 *    (cleared for :S groups of more than one event, and by no_inherit);
 *  - leaders: disabled and enable_on_exec; members neither;
 *  - the first event tracks: mmap comm task mmap2 comm_exec ksymbol
 *    bpf_event (and mmap_data with dwarf call graphs);
 *  - sample_type IP|TID|TIME, |PERIOD in frequency mode, CALLCHAIN for
 *    call graphs (dwarf adds ADDR REGS_USER STACK_USER DATA_SRC,
 *    exclude_callchain_user, the register mask and stack dump size),
 *    CPU with sample_cpu; tracepoints RAW|CPU|PERIOD and period 1;
 *  - period: the period/freq terms win, then -c, then -F / 4000 Hz;
 *    a period term clears PERIOD, a freq term sets it;
 *  - read_format ID|LOST (-s: also TOTAL_TIME_ENABLED|RUNNING, and
 *    inherit_stat); :S: READ and ID, GROUP for groups of more than
 *    one (inherit cleared, inherit_read set unless no_inherit), and the
 *    members stop sampling (period and freq 0);
 *  - more than one event: ID in sample_type, or IDENTIFIER when the
 *    events' sample_types differ;
 *  - hf validation against the final period (period mode: hf-period x
 *    hf-burst below the period; a non-sampling :S member may not use hf);
 *  - -R: TIME RAW CPU; -d: ADDR DATA_SRC and mmap_data on the tracking
 *    event; -W: WEIGHT_STRUCT; -b: BRANCH_STACK and branch_sample_type;
 *  - -D: a "dummy" event appended that does the tracking (enabled on
 *    exec), the other events neither track nor start on exec.
 * Returns 0 or -PM_EUSAGE with a message naming the event.
 */
int pm_evspec__apply_record(struct pm_evspec_list *list,
			    const struct pm_record_defaults *rd,
			    struct pm_error *err);

/* Append perf's two-line form of a parse error to sb: "PREFIXevent syntax
 * error: 'STR'", then a caret line under err->offset and the message.
 * prefix may be NULL. */
struct pm_strbuf;
void pm_evspec__format_error(struct pm_strbuf *sb, const char *prefix,
			     const char *str, const struct pm_error *err);

/*
 * What `pmprof mem record` samples, as `perf mem record` picks it, from
 * the PMUs under the sysfs root (NULL: /sys): Alpha ProfileMe's
 * cpu/cycles,profileme/, AMD's ibs_op//, Arm's SPE, Intel's mem-loads
 * and mem-stores. 0, or -1 when no PMU here samples memory operations.
 * (perf mem record adds -W -d to the events.)
 */
struct pm_mem_events {
	char ev[2][160];	/* the -e strings */
	int nr;
	char what[200];		/* which facility, for the user */
};
int pm_mem_events__choose(const char *sysfs_root, struct pm_mem_events *out);

/* Helpers exposed for tests and other tools. */
/* Parse a sysfs format spec ("config1:0-7,32-35") into a field (0 for
 * config, 1-3 for configN) and a bit mask. */
int pm_evspec_parse_format(const char *spec, int *field, uint64_t *mask);
/* Scatter value over the set bits of mask, low bits first. -1 if value
 * does not fit. */
int pm_evspec_format_value(uint64_t mask, uint64_t value, uint64_t *out);

#endif
