/* SPDX-License-Identifier: GPL-2.0 */
/* The session's private parts: map lists, the thread table, interning. */
#ifndef PMPROF_SESSION_INTERNAL_H
#define PMPROF_SESSION_INTERNAL_H

#include "pmprof/hash.h"
#include "pmprof/session.h"
#include "pmprof/unwind.h"

/*
 * The maps of one address space, sorted by start, never overlapping. Map
 * objects belong to the session (so pointers handed out stay valid after a
 * map is replaced); a list only points at them. Threads of one process
 * share a list; a forked process gets a copy.
 */
struct pm_maps {
	int refcnt;
	struct pm_map **v;
	size_t nr, alloc;
	size_t last;		/* index of the last hit, a cheap cache */
	uint64_t version;	/* unique to this list as it is now (the
				   unwinder keeps what it found while it holds) */
};

struct pm_map_arena {
	struct pm_map **chunks;
	size_t nr_chunks, alloc_chunks;
	size_t used;		/* in the last chunk */
};

struct pm_map *pm_map_arena__new(struct pm_map_arena *a);
void pm_map_arena__free(struct pm_map_arena *a);

struct pm_maps *pm_maps__new(void);
struct pm_maps *pm_maps__get(struct pm_maps *m);
void pm_maps__put(struct pm_maps *m);
/* A copy of the list (same map objects). */
struct pm_maps *pm_maps__clone(const struct pm_maps *m);
/* pm_unwind_input.one_bias: every executable mapping of dso moves its
 * addresses into the file by the same amount. */
bool pm_maps__one_bias(struct pm_maps *m, struct pm_dso *dso);
/*
 * Insert a map; the parts of older maps it covers go away (an older map
 * that sticks out on either side keeps those parts, as new map objects
 * from the arena, pgoff moved along).
 */
void pm_maps__insert(struct pm_maps *m, struct pm_map *map,
		     struct pm_map_arena *arena);
struct pm_map *pm_maps__find(struct pm_maps *m, uint64_t addr);
/* For an addr no map holds: the unmapped range [*start, *end) around it. */
void pm_maps__hole(const struct pm_maps *m, uint64_t addr, uint64_t *start,
		   uint64_t *end);
/* A map of the kernel's init text (from its symbols), or NULL. */
struct pm_map *pm_map__inittext(struct pm_map_arena *a, struct pm_dso *kernel);
void pm_maps__clear(struct pm_maps *m);

/* A thread as the session keeps it: the public part first. */
struct pm_thread_int {
	struct pm_thread pub;
	struct pm_maps *maps;
};

/*
 * The threads of a recording (threads.c): every thread ever seen, in
 * creation order, the current one of each tid (a tid is reused after an
 * EXIT), and the interned comm names, each through the hash index.
 */
struct pm_threads {
	struct pm_thread_int **all;
	size_t nr, alloc;
	struct pm_thread_int **by_tid;	/* the current thread of each tid */
	size_t nr_tids, alloc_tids;
	struct pm_hash tid_index;
	char **strings;
	size_t nr_strings, alloc_strings;
	struct pm_hash string_index;
};

struct pm_thread_int *pm_threads__find(const struct pm_threads *t, int32_t tid);
void pm_threads__release(struct pm_threads *t);
/* The interned copy of a string: equal strings give equal pointers. */
const char *pm_threads__intern(struct pm_threads *t, const char *s);

/* A sample's call chain (callchain.c): built once per sample. */
struct pm_chain {
	struct pm_addr_loc *v;
	size_t nr, alloc;
	size_t nr_sampled;		/* the first nr_sampled from
					   PERF_SAMPLE_CALLCHAIN, the rest
					   unwound */
	bool done;			/* built for the current sample */
	struct pm_addr_loc *tmp;	/* inline expansion's copy */
	size_t alloc_tmp;
	struct pm_unwinder *uw;		/* made at the first dwarf sample */
	uint16_t machine;		/* the recording's, for unwinding */
	struct pm_unwind_frame frames[PM_UNWIND_MAX_FRAMES];
};

void pm_chain__build(struct pm_chain *c, struct pm_session *s,
		     const struct pm_sample *smp,
		     const struct pm_thread_int *t,
		     const struct pm_session_opts *o);
const struct pm_unwind_stats *pm_chain__stats(const struct pm_chain *c);
void pm_chain__free(struct pm_chain *c);

/* Time-ordered delivery (ordered.c). */
struct oe_buf;
struct oe_entry;
struct pm_oe {
	struct oe_entry *q;
	size_t nr, alloc;
	struct oe_buf *cur;
	uint64_t seq, bytes;
	uint64_t max_time, next_flush;
};
typedef int (*pm_oe_deliver_fn)(const struct pm_record *rec, void *arg);

void pm_oe__init(struct pm_oe *oe);
void pm_oe__free(struct pm_oe *oe);
/* stable: rec->data stays valid until the queue is freed (no copy). */
void pm_oe__queue(struct pm_oe *oe, const struct pm_record *rec, uint64_t time,
		  bool stable);
/* Deliver the queued records with time <= limit, in time order. */
int pm_oe__flush(struct pm_oe *oe, uint64_t limit, pm_oe_deliver_fn fn,
		 void *arg);
/* At FINISHED_ROUND: deliver up to the previous round's newest time. */
int pm_oe__round(struct pm_oe *oe, pm_oe_deliver_fn fn, void *arg);
/* When the queue is too big: deliver its older half. */
int pm_oe__maybe_half(struct pm_oe *oe, pm_oe_deliver_fn fn, void *arg);

/* The session itself, for its files: session.c (records, samples, time
 * order), threads.c (COMM, FORK, EXIT), maps.c (MMAP, MMAP2). */
#define PM_KERNEL_NAME "[kernel.kallsyms]"

struct pm_session {
	struct pm_reader *r;
	bool own_reader;
	struct pm_session_opts opts;	/* strings copied */

	struct pm_dsos *dsos;		/* made on first use */
	bool host;
	char host_why[320];		/* why (not) the running kernel's symbols */
	uint64_t kernel_text;		/* the kernel MMAP's pgoff */

	struct pm_map_arena arena;
	struct pm_maps *kmaps;
	struct pm_threads threads;
	struct pm_thread_int *last;	/* last sample's thread */

	struct pm_sample sample;
	struct pm_sample_ctx ctx;
	struct pm_oe oe;		/* time order for pm_session__run() */
	struct resolve_cache *cache;	/* (map, ip) -> addr, symbol */
	struct pm_chain chain;		/* the current sample's */
	struct pm_map *inittext;	/* the kernel's init text, when known */
	bool inittext_done;
};


/* The DSO collection, made on first use (session.c). */
struct pm_dsos *pm_session__dsos_of(struct pm_session *s);
bool pm_session__is_kernel_name(const char *f);

/* The thread for (pid, tid), made if new (threads.c). */
struct pm_thread_int *pm_session__findnew_thread(struct pm_session *s,
						 int32_t pid, int32_t tid);
/* A sample's thread (made if new), the last one's when it is the same. */
struct pm_thread_int *pm_session__sample_thread(struct pm_session *s,
						int32_t pid, int32_t tid);
int pm_session__comm(struct pm_session *s, const struct pm_record *rec,
		     struct pm_error *err);
int pm_session__fork(struct pm_session *s, const struct pm_record *rec,
		     struct pm_error *err);
int pm_session__exit(struct pm_session *s, const struct pm_record *rec,
		     struct pm_error *err);
/* MMAP and MMAP2 (maps.c). */
int pm_session__mmap(struct pm_session *s, const struct pm_record *rec,
		     struct pm_error *err);

#endif
