// SPDX-License-Identifier: GPL-2.0
/*
 * The session's threads: the table of the current thread of each tid,
 * every thread in creation order, interned comm names, and what COMM,
 * FORK and EXIT records do to them. A system-wide recording has
 * thousands of threads and every sample looks one up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/records.h"
#include "pmprof/util.h"
#include "session/internal.h"

static uint64_t tid_hash(int32_t tid)
{
	return pm_hash64((uint32_t)tid);
}

static uint64_t by_tid_hash(const void *arg, size_t i)
{
	return tid_hash(((struct pm_thread_int *const *)arg)[i]->pub.tid);
}

struct pm_thread_int *pm_threads__find(const struct pm_threads *t, int32_t tid)
{
	size_t s = PM_HASH_FIND(&t->tid_index, tid_hash(tid), i,
				t->by_tid[i]->pub.tid == tid);

	return pm_hash__empty(&t->tid_index, s) ? NULL
					       : t->by_tid[pm_hash__at(&t->tid_index, s)];
}

/* Insert or replace the current thread of its tid. */
static void set_current(struct pm_threads *t, struct pm_thread_int *th)
{
	int32_t tid = th->pub.tid;
	size_t s = PM_HASH_FIND(&t->tid_index, tid_hash(tid), i,
				t->by_tid[i]->pub.tid == tid);

	if (!pm_hash__empty(&t->tid_index, s)) {
		t->by_tid[pm_hash__at(&t->tid_index, s)] = th;
		return;
	}
	pm_hash__reserve(&t->tid_index, t->nr_tids, by_tid_hash, t->by_tid);
	s = PM_HASH_FIND(&t->tid_index, tid_hash(tid), i, false);
	PM_GROW(t->by_tid, t->alloc_tids, t->nr_tids + 1);
	t->by_tid[t->nr_tids] = th;
	pm_hash__set(&t->tid_index, s, t->nr_tids++);
}

static uint64_t string_hash(const void *arg, size_t i)
{
	return pm_hash_str(((char *const *)arg)[i]);
}

const char *pm_threads__intern(struct pm_threads *t, const char *str)
{
	uint64_t h = pm_hash_str(str);
	size_t s = PM_HASH_FIND(&t->string_index, h, i, !strcmp(t->strings[i], str));

	if (!pm_hash__empty(&t->string_index, s))
		return t->strings[pm_hash__at(&t->string_index, s)];
	pm_hash__reserve(&t->string_index, t->nr_strings, string_hash, t->strings);
	s = PM_HASH_FIND(&t->string_index, h, i, false);
	PM_GROW(t->strings, t->alloc_strings, t->nr_strings + 1);
	t->strings[t->nr_strings] = pm_strdup(str);
	pm_hash__set(&t->string_index, s, t->nr_strings);
	return t->strings[t->nr_strings++];
}

void pm_threads__release(struct pm_threads *t)
{
	for (size_t i = 0; i < t->nr; i++) {
		pm_maps__put(t->all[i]->maps);
		free(t->all[i]);
	}
	free(t->all);
	free(t->by_tid);
	pm_hash__release(&t->tid_index);
	for (size_t i = 0; i < t->nr_strings; i++)
		free(t->strings[i]);
	free(t->strings);
	pm_hash__release(&t->string_index);
	memset(t, 0, sizeof(*t));
}

static struct pm_thread_int *thread_new(struct pm_session *s, int32_t pid,
					int32_t tid)
{
	struct pm_thread_int *th = pm_zalloc(sizeof(*th));
	char name[32];

	th->pub.pid = pid;
	th->pub.tid = tid;
	th->pub.ppid = -1;
	/* perf's names: the idle task is "swapper", others ":TID" until named */
	if (tid == 0)
		snprintf(name, sizeof(name), "swapper");
	else
		snprintf(name, sizeof(name), ":%d", tid);
	th->pub.comm = pm_threads__intern(&s->threads, name);
	PM_GROW(s->threads.all, s->threads.alloc, s->threads.nr + 1);
	s->threads.all[s->threads.nr++] = th;
	set_current(&s->threads, th);
	return th;
}

/*
 * The thread for (pid, tid), made if new. A new thread of a known process
 * shares its leader's maps, as threads share an address space.
 */
struct pm_thread_int *pm_session__findnew_thread(struct pm_session *s,
						 int32_t pid, int32_t tid)
{
	struct pm_thread_int *th = pm_threads__find(&s->threads, tid);

	if (th) {
		if (th->pub.pid == -1 && pid != -1)
			th->pub.pid = pid;
		return th;
	}
	th = thread_new(s, pid, tid);
	if (pid != -1 && pid != tid) {
		struct pm_thread_int *leader = pm_session__findnew_thread(s, pid, pid);

		th->maps = pm_maps__get(leader->maps);
	} else {
		th->maps = pm_maps__new();
	}
	return th;
}

/* A sample's thread: most samples come from the thread of the one before. */
struct pm_thread_int *pm_session__sample_thread(struct pm_session *s,
						int32_t pid, int32_t tid)
{
	struct pm_thread_int *th = s->last;

	if (!th || th->pub.tid != tid || pm_threads__find(&s->threads, tid) != th)
		th = pm_session__findnew_thread(s, pid, tid);
	s->last = th;
	return th;
}

const struct pm_thread *pm_session__thread(struct pm_session *s, int32_t tid)
{
	struct pm_thread_int *th = pm_threads__find(&s->threads, tid);

	return th ? &th->pub : NULL;
}

size_t pm_session__nr_threads(const struct pm_session *s)
{
	return s->threads.nr;
}

const struct pm_thread *pm_session__thread_at(const struct pm_session *s,
					      size_t i)
{
	return i < s->threads.nr ? &s->threads.all[i]->pub : NULL;
}

int pm_session__comm(struct pm_session *s, const struct pm_record *rec,
			struct pm_error *err)
{
	struct pm_rec_comm c;
	struct pm_thread_int *th;
	int ret = pm_rec__comm(s->r, rec, &c, err);

	if (ret)
		return ret;
	th = pm_session__findnew_thread(s, (int32_t)c.pid, (int32_t)c.tid);
	th->pub.comm = pm_threads__intern(&s->threads, c.comm);
	th->pub.comm_set = true;
	/*
	 * An exec keeps the maps, as perf does: the kernel writes this
	 * record in the middle of execve, and the samples that follow it
	 * inside the system call still have the old image's user ip (libc's
	 * execve); the new image's MMAPs replace what they overlap.
	 */
	return 0;
}

int pm_session__fork(struct pm_session *s, const struct pm_record *rec,
			struct pm_error *err)
{
	struct pm_rec_task t;
	struct pm_thread_int *parent, *child;
	int ret = pm_rec__task(s->r, rec, &t, err);

	if (ret)
		return ret;
	parent = pm_threads__find(&s->threads, (int32_t)t.ptid);
	if (!parent)
		parent = pm_session__findnew_thread(s, (int32_t)t.ppid, (int32_t)t.ptid);
	/* A reused tid: the old thread stays alive for whoever points at it. */
	child = thread_new(s, (int32_t)t.pid, (int32_t)t.tid);
	child->pub.ppid = (int32_t)t.ppid;
	child->pub.comm = parent->pub.comm;
	child->pub.comm_set = parent->pub.comm_set;
	if (t.pid == t.ppid && parent->pub.pid == (int32_t)t.pid)
		child->maps = pm_maps__get(parent->maps);	/* a thread */
	else if (rec->misc & PM_MISC_FORK_EXEC)
		child->maps = pm_maps__new();	/* perf's synthesized parent link:
						   the MMAPs that follow are all */
	else
		child->maps = pm_maps__clone(parent->maps);	/* a process */
	return 0;
}

int pm_session__exit(struct pm_session *s, const struct pm_record *rec,
			struct pm_error *err)
{
	struct pm_rec_task t;
	struct pm_thread_int *th;
	int ret = pm_rec__task(s->r, rec, &t, err);

	if (ret)
		return ret;
	th = pm_threads__find(&s->threads, (int32_t)t.tid);
	if (th)
		th->pub.exited = true;
	return 0;
}
