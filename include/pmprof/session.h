/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The session: the context of a recording, built from its records in
 * file order. Threads and their names (COMM, FORK, EXIT), the memory maps
 * of each process (MMAP, MMAP2) and of the kernel, the DSOs those maps
 * name and their symbols (dso.h), and build ids from the BUILD_ID feature
 * and MMAP2 records. A sample fed through the session comes back with its
 * thread, map, DSO and symbol; so can any other address of it (callchain
 * entries, data addresses).
 *
 *	struct pm_session *s;
 *
 *	if (pm_session__open(&s, "perf.data", &opts, &err))
 *		...
 *	pm_session__run(s, sample_cb, record_cb, arg, &err);
 *	// or, record by record:
 *	while ((ret = pm_reader__next(pm_session__reader(s), &rec, &err)) > 0)
 *		if (pm_session__process(s, &rec, &err) == 1)
 *			use(pm_session__sample(s));
 *
 * Identities are pointers: two samples hit the same DSO iff their dso
 * pointers are equal, the same function iff their sym pointers are equal,
 * the same thread iff their thread pointers are; comm strings are interned,
 * so equal names are equal pointers. Threads, maps, DSOs and symbols live
 * as long as the session.
 */
#ifndef PMPROF_SESSION_H
#define PMPROF_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/dso.h"
#include "pmprof/perfdata.h"
#include "pmprof/symbols.h"
#include "pmprof/unwind.h"

struct pm_error;
struct pm_session;

enum pm_session_host {
	PM_HOST_AUTO = 0,	/* decide from OSRELEASE and the kernel's build id */
	PM_HOST_YES,		/* the recording was made on this host */
	PM_HOST_NO,		/* it was not: no /proc/kallsyms, no host vdso */
};

struct pm_session_opts {
	size_t sz;		/* sizeof(struct pm_session_opts); 0: this size */
	const char *symfs;	/* --symfs DIR */
	const char *kallsyms;	/* --kallsyms FILE */
	const char *vmlinux;	/* -k FILE */
	const char *tmp_dir;	/* where perf-PID.map live; NULL: /tmp */
	const char *buildid_dir;/* NULL: $HOME/.debug */
	bool no_demangle;
	bool no_buildid_cache;
	enum pm_session_host host;
	/* pm_session__run(): deliver in file order, not time order */
	bool unordered;
	/* pm_session__callchain(): inlined functions as frames of their own
	 * (perf's --inline; pm_dso__inline_frames()) */
	bool inline_frames;
	/* how dwarf samples are unwound (unwind.h); PM_UNWIND_CHECK
	 * compares the cached rules with libdwfl on every sample */
	enum pm_unwind_mode unwind_mode;
};

struct pm_thread {
	int32_t pid, tid;
	const char *comm;	/* interned; ":TID" until a COMM names it */
	bool comm_set;		/* a COMM (or the parent's, on FORK) named it */
	bool exited;		/* an EXIT went past */
	int32_t ppid;		/* from FORK, else -1 */
};

struct pm_map {
	uint64_t start, end;	/* [start, end) in the process's addresses */
	uint64_t pgoff;		/* file offset of start */
	struct pm_dso *dso;	/* never NULL */
	uint32_t prot, flags;	/* MMAP2's; MMAP: prot from the exec flag */
	bool kernel;		/* a kernel map (pid -1) */
	bool identity;		/* addresses are absolute (kernel, JIT,
				   anonymous memory): rel == ip */
};

/* Where an address lands. */
struct pm_addr_loc {
	uint64_t ip;		/* the address as recorded */
	uint8_t cpumode;	/* PM_MISC_KERNEL, PM_MISC_USER, ... */
	char level;		/* perf's: 'k' kernel, '.' user, 'g' guest
				   kernel, 'u' guest user, 'H' hypervisor */
	const struct pm_map *map;	/* NULL when no map holds ip */
	struct pm_dso *dso;		/* map's DSO, or NULL */
	uint64_t addr;		/* the DSO's address (map_ip); ip when no map */
	uint64_t rel;		/* perf's address for an unknown symbol: the
				   file offset (ip - start + pgoff) in file
				   maps, ip in kernel, JIT, anonymous maps */
	const struct pm_symbol *sym;	/* NULL when unknown */
	uint64_t sym_off;		/* addr - sym->start */
};

/* A sample with its context. Valid until the next record is processed. */
struct pm_sample_ctx {
	const struct pm_sample *sample;
	const struct pm_event *event;	/* NULL when the id is unknown */
	const struct pm_thread *thread;
	struct pm_addr_loc ip;
	uint64_t record_offset;		/* the SAMPLE's file offset */
};

/* Own a reader opened from path ("-": standard input). */
int pm_session__open(struct pm_session **out, const char *path,
		     const struct pm_session_opts *opts, struct pm_error *err);
/* Borrow a reader (it must outlive the session). */
int pm_session__new(struct pm_session **out, struct pm_reader *r,
		    const struct pm_session_opts *opts, struct pm_error *err);
void pm_session__delete(struct pm_session *s);

struct pm_reader *pm_session__reader(struct pm_session *s);
/*
 * Which kernel symbols named the kernel's addresses, and why ("the
 * running kernel's: its build id ... is the recording's", "none, kernel
 * addresses shown as they are: ...; give --kallsyms FILE or --vmlinux
 * FILE ..."), for a report's header. False when no kernel address was
 * looked up.
 */
bool pm_session__kernel_symbols(struct pm_session *s, char *buf, size_t size);

/*
 * Apply one record, in file order. Returns 1 for a SAMPLE (its context is
 * then pm_session__sample()), 0 for any other record, < 0 on a bad
 * record. Unknown records are skipped.
 */
int pm_session__process(struct pm_session *s, const struct pm_record *rec,
			struct pm_error *err);
/* The sample the last pm_session__process() returned 1 for. */
const struct pm_sample_ctx *pm_session__sample(struct pm_session *s);

/*
 * The current sample's callchain, resolved (once per sample), callee
 * first, as perf builds it: the PERF_SAMPLE_CALLCHAIN entries with their
 * context markers applied (they set the cpumode of the entries after
 * them) and dropped, then, for a sample with user registers and stack
 * bytes (--call-graph dwarf), the user frames unwound from them (unwind.h;
 * callers' entries are return address - 1). With opts.inline_frames an
 * entry holding inlined functions becomes one entry per function, its
 * sym marked `inlined` (pm_dso__inline_frames()). Returns the number of
 * entries; *out valid until the next record.
 */
size_t pm_session__callchain(struct pm_session *s,
			     const struct pm_addr_loc **out);
/* How many of them, from the first, are PERF_SAMPLE_CALLCHAIN's: the
 * rest were unwound (perf cuts each part to --max-stack on its own). */
size_t pm_session__callchain_sampled(struct pm_session *s);
/*
 * What the current sample's callchain is resolved against, for callers
 * that keep what they made of a chain (lib/analysis/chain-memo.c): numbers
 * unique to its process's map list and to the kernel's as they are now
 * (a list that changes gets a new one, in any session). The chain is then
 * a function of these two, the sample's ip and cpumode and its callchain
 * entries. False when it is not: the user stack is unwound from bytes.
 */
bool pm_session__chain_maps(const struct pm_session *s, uint64_t *user,
			    uint64_t *kernel);
/* The unwinder's totals so far (NULL before the first dwarf sample). */
const struct pm_unwind_stats *pm_session__unwind_stats(const struct pm_session *s);
/* With opts.unwind_mode PM_UNWIND_CHECK: the first difference, or NULL. */
const char *pm_session__unwind_mismatch(const struct pm_session *s);

/* Resolve any code address of a thread in a cpumode. */
void pm_session__resolve(struct pm_session *s, const struct pm_thread *t,
			 uint8_t cpumode, uint64_t ip, struct pm_addr_loc *loc);
/* Resolve a data address: the symbol is a data object (pm_dso__find_data). */
void pm_session__resolve_data(struct pm_session *s, const struct pm_thread *t,
			      uint8_t cpumode, uint64_t addr,
			      struct pm_addr_loc *loc);

/* Threads by tid (the current one for a reused tid), or NULL. */
const struct pm_thread *pm_session__thread(struct pm_session *s, int32_t tid);
/* Every thread seen, current or not, in creation order. */
size_t pm_session__nr_threads(const struct pm_session *s);
const struct pm_thread *pm_session__thread_at(const struct pm_session *s,
					      size_t i);
/* A thread's (or the kernel's, t NULL) maps in address order. */
size_t pm_session__maps(struct pm_session *s, const struct pm_thread *t,
			const struct pm_map *const **out);

/*
 * Drive the reader to the end, in time order as perf report does (records
 * with timestamps are sorted between FINISHED_ROUND records; see
 * opts.unordered). `sample` gets each SAMPLE with its context;
 * `other` every other record after the session applied it (THROTTLE,
 * UNTHROTTLE, LOST ... : decode them with records.h on
 * pm_session__reader()). Either may be NULL. A callback returning non-zero
 * stops the loop with that value.
 */
typedef int (*pm_session_sample_fn)(struct pm_session *s,
				    const struct pm_sample_ctx *ctx, void *arg);
typedef int (*pm_session_record_fn)(struct pm_session *s,
				    const struct pm_record *rec, void *arg);
int pm_session__run(struct pm_session *s, pm_session_sample_fn sample,
		    pm_session_record_fn other, void *arg,
		    struct pm_error *err);

/* perf's "Shared Object" of a location: the DSO's short name, else
 * "[unknown]". */
const char *pm_addr_loc__dso_name(const struct pm_addr_loc *loc);

#endif
