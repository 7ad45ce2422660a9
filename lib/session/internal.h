/* SPDX-License-Identifier: GPL-2.0 */
/* The session's private parts: map lists, the thread table, interning. */
#ifndef PMPROF_SESSION_INTERNAL_H
#define PMPROF_SESSION_INTERNAL_H

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
/*
 * Insert a map; the parts of older maps it covers go away (an older map
 * that sticks out on either side keeps those parts, as new map objects
 * from the arena, pgoff moved along).
 */
void pm_maps__insert(struct pm_maps *m, struct pm_map *map,
		     struct pm_map_arena *arena);
struct pm_map *pm_maps__find(struct pm_maps *m, uint64_t addr);
/* A map of the kernel's init text (from its symbols), or NULL. */
struct pm_map *pm_map__inittext(struct pm_map_arena *a, struct pm_dso *kernel);
void pm_maps__clear(struct pm_maps *m);

/* A thread as the session keeps it: the public part first. */
struct pm_thread_int {
	struct pm_thread pub;
	struct pm_maps *maps;
};

/* tid -> current thread, open addressing. */
struct pm_thread_table {
	struct pm_thread_int **slots;
	size_t nslots, nr;
};

struct pm_thread_int *pm_thread_table__find(const struct pm_thread_table *t,
					    int32_t tid);
/* Insert or replace the thread for its tid. */
void pm_thread_table__set(struct pm_thread_table *t, struct pm_thread_int *th);
void pm_thread_table__free(struct pm_thread_table *t);

/* A set of strings; each distinct string stored once. */
struct pm_intern {
	char **slots;
	size_t nslots, nr;
};

const char *pm_intern__get(struct pm_intern *in, const char *s);
void pm_intern__free(struct pm_intern *in);

/* A sample's call chain (callchain.c): built once per sample. */
struct pm_chain {
	struct pm_addr_loc *v;
	size_t nr, alloc;
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

#endif
