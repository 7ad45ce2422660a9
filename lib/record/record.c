// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's API (see record.h): pm_recorder__new sets up the events
 * (events.c), opens them (open.c) and the file (output.c); start releases
 * the workload and arms the bursts (burst.c); poll drains the rings
 * (drain.c); finish ends the file and the workload.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "recorder.h"
#include "pmprof/outfile.h"
#include "pmprof/util.h"

uint64_t pm_rec__clock_ns(int clockid)
{
	struct timespec ts;

	if (clock_gettime(clockid, &ts))
		clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t pm_rec__now_ns(const struct pm_recorder *r)
{
	return pm_rec__clock_ns(r->use_clockid ? r->clockid : CLOCK_MONOTONIC);
}

void pm_rec__note(const struct pm_recorder *r, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!r->o.note)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	r->o.note(r->o.note_ctx, buf);
}

int pm_recorder__new(struct pm_recorder **out, const struct pm_record_opts *opts,
		   struct pm_error *err)
{
	static const struct pm_record_opts defaults = { .clockid = -1 };
	struct pm_recorder *r = pm_zalloc(sizeof(*r));
	struct pm_writer_opts wo = { .sz = sizeof(wo) };
	const struct pm_record_opts *o = &r->o;
	bool per_cpu, pipe_out;
	int ret;

	*out = NULL;
	PM_OPTS_COPY(&r->o, opts, defaults);
	per_cpu = o->system_wide || o->cpu_list;
	r->child = -1;
	r->go_fd = r->err_fd = r->cgroup_fd = -1;
	r->output = pm_strdup(o->output ? o->output : "perf.data");
	pipe_out = r->pipe_out = !strcmp(r->output, "-");
	r->hits = pm_hits__new();
	r->workload_only = o->argv && !per_cpu && !o->pid_list && !o->tid_list;
	{
		char root[256];

		if (geteuid() == 0 && !pm_rec_burst__cgroup_root(root, sizeof(root)))
			pm_rec_leftovers__cgroups(root, o->note, o->note_ctx);
	}
	if (!o->events || !o->events->nr) {
		ret = pm_error__fmt(err, PM_EUSAGE, "no events");
		goto fail;
	}
	if (!o->argv && !per_cpu && !o->pid_list && !o->tid_list) {
		ret = pm_error__fmt(err, PM_EUSAGE,
				    "nothing to record: give a command, -a, -C, -p or -t");
		goto fail;
	}
	if ((o->pid_list || o->tid_list) && per_cpu) {
		ret = pm_error__fmt(err, PM_EUSAGE, "-p/-t and -a/-C do not go together");
		goto fail;
	}
	r->pages = o->mmap_pages ? o->mmap_pages : PM_REC_DEFAULT_PAGES;
	if (r->pages & (r->pages - 1)) {
		ret = pm_error__fmt(err, PM_EUSAGE, "-m %u: the number of pages must be a power of 2",
				    r->pages);
		goto fail;
	}
	/* CPUs */
	if (o->per_thread && per_cpu) {
		ret = pm_error__fmt(err, PM_EUSAGE, "--per-thread and -a/-C do not go together");
		goto fail;
	}
	if (o->per_thread) {
		/* one instance per thread on any CPU */
		r->cpus.cpus = pm_malloc(sizeof(int));
		r->cpus.cpus[0] = -1;
		r->cpus.nr = 1;
		ret = 0;
	} else {
		ret = o->cpu_list ? pm_cpu_list__parse(&r->cpus, o->cpu_list, err) :
				    pm_cpu_list__online(&r->cpus, err);
	}
	if (ret)
		goto fail;
	ret = pm_rec_events__choose_mode(r, err);
	if (ret)
		goto fail;
	r->use_clockid = o->clockid >= 0 || r->st.mode == PM_HF_BURST;
	r->clockid = o->clockid >= 0 ? o->clockid : CLOCK_MONOTONIC;
	/* threads */
	if (per_cpu) {
		r->threads = pm_malloc(sizeof(int));
		r->threads[0] = -1;
		r->nr_threads = 1;
		if (r->st.mode == PM_HF_BURST)
			r->st.scope = PM_BURST_SCOPE_CPU;
	} else if (o->pid_list || o->tid_list) {
		ret = pm_rec_open__add_threads(r, o->pid_list ? o->pid_list : o->tid_list,
				     !!o->pid_list, err);
		if (ret)
			goto fail;
		if (r->st.mode == PM_HF_BURST)
			r->st.scope = PM_BURST_SCOPE_THREAD;
	}
	/*
	 * Before the fork: reading /proc/kallsyms takes long (a quarter of a
	 * second of CPU in the lab's guest), and CPU the recorder uses while
	 * the command waits to be released is time the command may later run
	 * before the recorder, on the same CPU, gets its turn (CFS lets a
	 * sleeper that waited catch up): time in which a burst phase that
	 * ended is not re-armed and the leader counts nothing.
	 */
	pm_synth__kernel_text(&r->ktext);
	if (o->argv) {
		ret = pm_rec_open__fork_workload(r, err);
		if (ret)
			goto fail;
		if (!per_cpu && !o->pid_list && !o->tid_list) {
			r->threads = pm_malloc(sizeof(int));
			r->threads[0] = r->child;
			r->nr_threads = 1;
			if (r->st.mode == PM_HF_BURST) {
				char why[640];

				r->st.scope = PM_BURST_SCOPE_THREAD;
				if (!o->per_thread) {
					if (!pm_rec_burst__cgroup_make(r, why, sizeof(why)))
						r->st.scope = PM_BURST_SCOPE_CGROUP;
					else
						pm_rec__note(r, "burst: %s: only its first thread is "
							     "recorded, per thread without inherit", why);
				}
			}
		}
	}
	pm_rec_events__configure(r);
	ret = pm_rec_open__all(r, err);
	if (ret == -EINVAL && pm_rec_open__no_inherit(r)) {
		pm_rec_open__close_all(r);
		ret = pm_rec_open__all(r, err);
	}
	if ((ret == -EACCES || ret == -EPERM) && pm_rec_open__user_only(r)) {
		pm_rec_open__close_all(r);
		ret = pm_rec_open__all(r, err);
	}
	if (ret)
		goto fail;
	if (pipe_out && o->compression_level) {
		ret = pm_error__fmt(err, PM_EUSAGE, "-z: compressed records need a file (-o FILE), "
				    "not standard output");
		goto fail;
	}
	pm_rec_leftovers__partials(r->output, o->note, o->note_ctx);
	wo.pipe = pipe_out;
	r->wo = wo;
	ret = pm_rec_output__open(r, &wo, false, err);
	if (ret)
		goto fail;
	r->st.bytes = pm_writer__offset(r->w);
	*out = r;
	return 0;
fail:
	pm_recorder__delete(r);
	return ret;
}

/* Enable the leaders that wait for us (not for an exec); with -D only
 * the tracking dummy at the start, the others when the delay is over. */
static void enable_leaders(struct pm_recorder *r, bool dummies)
{
	size_t i;

	for (i = 0; i < r->nr_inst; i++) {
		struct instance *in = &r->inst[i];
		struct rec_event *re = &r->ev[in->ev];

		if (re->leader != in->ev || re->burst || re->dummy != dummies)
			continue;
		if (!pm_attr__flag(&re->open, PM_ATTR_ENABLE_ON_EXEC) &&
		    pm_attr__flag(&re->open, PM_ATTR_DISABLED))
			ioctl(in->fd, PERF_EVENT_IOC_ENABLE, 0);
	}
}

/* -D: the delay is over; 1 if the events were enabled now. */
static int end_delay(struct pm_recorder *r, struct pm_error *err)
{
	if (!r->enable_at || pm_rec__clock_ns(CLOCK_MONOTONIC) < r->enable_at)
		return 0;
	r->enable_at = 0;
	enable_leaders(r, false);
	return pm_rec_burst__arm_all(r, err);
}

int pm_recorder__start(struct pm_recorder *r, struct pm_error *err)
{
	int ret;

	r->started = true;
	pm_rec_burst__signals(r, true);
	enable_leaders(r, true);
	if (!r->o.delay_ms)
		enable_leaders(r, false);
	/*
	 * Bursts are armed before the command is released, not once its exec
	 * is done: the recorder is not always scheduled as soon as the exec
	 * wakes it (on one CPU the command keeps it for its time slice,
	 * milliseconds uncounted). The first long window then also counts
	 * what pmprof's child does before its exec (a few hundred user
	 * instructions; the exec too for events that count the kernel), and
	 * its sample, which is not written, is the only one that can fall
	 * there: the burst after it is armed once the exec has closed err_fd.
	 * With -D they are armed when the delay is over (end_delay).
	 */
	if (!r->o.delay_ms && (ret = pm_rec_burst__arm_all(r, err)))
		return ret;
	if (r->child > 0) {
		int e = 0;
		ssize_t n;

		if (write(r->go_fd, "g", 1) != 1)
			return pm_error__fmt(err, errno, "cannot release the workload: %s",
					     strerror(errno));
		close(r->go_fd);
		r->go_fd = -1;
		/* closed by a successful exec (CLOEXEC), else the errno */
		do {
			n = read(r->err_fd, &e, sizeof(e));
		} while (n < 0 && errno == EINTR);
		close(r->err_fd);
		r->err_fd = -1;
		if (n == (ssize_t)sizeof(e)) {
			r->st.exec_errno = e;
			return pm_error__fmt(err, e, "cannot run '%s': %s", r->o.argv[0],
					     strerror(e));
		}
	}
	/* -D counts from the program's start, as perf's */
	if (r->o.delay_ms)
		r->enable_at = pm_rec__clock_ns(CLOCK_MONOTONIC) + (uint64_t)r->o.delay_ms * 1000000ULL;
	return 0;
}

static void reaped(struct pm_recorder *r, int status, const struct rusage *ru)
{
	r->st.workload_exited = true;
	r->st.workload_status = status;
	r->st.workload_user = (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6;
	r->st.workload_sys = (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
}

static void reap(struct pm_recorder *r)
{
	struct rusage ru;
	int status;

	if (r->child > 0 && !r->st.workload_exited &&
	    wait4(r->child, &status, WNOHANG, &ru) == r->child)
		reaped(r, status, &ru);
}

void pm_recorder__stop(struct pm_recorder *r)
{
	if (r->stopping)
		return;
	r->stopping = true;
	r->stop_ns = pm_rec__clock_ns(CLOCK_MONOTONIC);
	if (r->child > 0 && !r->st.workload_exited)
		kill(r->child, SIGTERM);
	else
		r->done = true;
}

int pm_recorder__poll(struct pm_recorder *r, int timeout_ms, struct pm_error *err)
{
	uint64_t wait_ns = (uint64_t)timeout_ms * 1000000ULL;
	struct timespec ts;
	int i, n, ret, live = 0;

	if (r->done)
		return 0;
	ret = end_delay(r, err);
	if (ret)
		return ret;
	if (r->enable_at) {
		uint64_t now = pm_rec__clock_ns(CLOCK_MONOTONIC);
		uint64_t left = r->enable_at > now ? r->enable_at - now : 0;

		if (left < wait_ns)
			wait_ns = left;
	}
	ts.tv_sec = (time_t)(wait_ns / 1000000000ULL);
	ts.tv_nsec = (long)(wait_ns % 1000000000ULL);
	n = ppoll(r->pfd, (nfds_t)r->nr_rings, &ts, r->sigio_blocked ? &r->poll_mask : NULL);
	if (n < 0 && errno != EINTR)
		return pm_error__fmt(err, errno, "poll: %s", strerror(errno));
	if (n > 0)
		r->st.wakeups++;
	for (i = 0; i < r->nr_rings; i++) {
		/* a per-thread event whose task is gone: stop polling it */
		if (r->pfd[i].revents & (POLLHUP | POLLERR))
			r->pfd[i].fd = -1;
		if (r->pfd[i].fd >= 0)
			live++;
	}
	ret = pm_rec_drain(r, true, err);
	if (ret)
		return ret;
	if (n <= 0 || r->stopping ||
	    pm_rec__clock_ns(CLOCK_MONOTONIC) - r->reaped_ns >= PM_REC_FLUSH_NS) {
		r->reaped_ns = pm_rec__clock_ns(CLOCK_MONOTONIC);
		reap(r);
	}
	if (r->child > 0) {
		if (r->st.workload_exited)
			r->done = true;
		else if (r->stopping && pm_rec__clock_ns(CLOCK_MONOTONIC) - r->stop_ns > PM_REC_STOP_GRACE_NS)
			kill(r->child, SIGKILL);
	} else if (!r->o.system_wide && !r->o.cpu_list && !live) {
		r->done = true;	/* every -p/-t thread has exited */
	}
	return r->done ? 0 : 1;
}

/*
 * The recording failed (a full disk...): keep what reached the disk under
 * the partial name, and count it, so that the stats say what is there.
 */
static void keep_partial(struct pm_recorder *r)
{
	const char *partial = r->file ? pm_outfile__partial(r->file) : NULL;

	pm_writer__delete(r->w);
	r->w = NULL;
	r->st.bytes = r->st.samples = 0;
	if (partial) {
		r->partial = pm_strdup(partial);
		pm_rec_leftovers__count(partial, &r->st.bytes, &r->st.samples);
	}
	pm_outfile__leave(r->file);
	r->file = NULL;
}

/* Whatever ended the recording, the workload does not run on: SIGTERM,
 * SIGKILL after the grace time. One that was never released exits 127. */
static void end_workload(struct pm_recorder *r)
{
	const struct timespec tick = { 0, 10000000 };
	uint64_t t0 = pm_rec__clock_ns(CLOCK_MONOTONIC);
	bool killed = false;
	struct rusage ru;
	int status;

	if (r->child <= 0 || r->st.workload_exited)
		return;
	if (r->go_fd >= 0) {
		close(r->go_fd);
		r->go_fd = -1;
	} else {
		kill(r->child, SIGTERM);
	}
	for (;;) {
		pid_t p = wait4(r->child, &status, WNOHANG, &ru);

		if (p == r->child) {
			reaped(r, status, &ru);
			return;
		}
		if (p < 0 && errno != EINTR)
			return;
		if (!killed && pm_rec__clock_ns(CLOCK_MONOTONIC) - t0 > PM_REC_STOP_GRACE_NS) {
			kill(r->child, SIGKILL);
			killed = true;
		}
		nanosleep(&tick, NULL);
	}
}

int pm_recorder__finish(struct pm_recorder *r, struct pm_error *err)
{
	size_t i;
	int ret;

	if (r->finished)
		return 0;
	r->finished = true;
	/* stop counting, then take what is left */
	for (i = 0; i < r->nr_inst; i++)
		if (r->inst[i].fd >= 0 && r->ev[r->inst[i].ev].leader == r->inst[i].ev)
			ioctl(r->inst[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	ret = pm_rec_drain(r, false, err);
	if (ret)
		goto out;
	/* a burst cut short by the end still gets its closing mark */
	ret = pm_rec_burst__close_all(r, err);
	if (ret)
		goto out;
	ret = pm_rec_output__close(r, err);
out:
	if (ret)
		keep_partial(r);
	end_workload(r);
	pm_rec_burst__cgroup_remove(r);
	pm_rec_burst__signals(r, false);
	return ret;
}

const struct pm_record_stats *pm_recorder__stats(const struct pm_recorder *r)
{
	return &r->st;
}

const char *pm_recorder__output(const struct pm_recorder *r)
{
	return r->output;
}

const char *pm_recorder__partial(const struct pm_recorder *r)
{
	return r->partial;
}

void pm_recorder__delete(struct pm_recorder *r)
{
	int k;

	if (!r)
		return;
	if (r->child > 0 && !r->st.workload_exited) {
		int status;

		if (r->go_fd >= 0)
			close(r->go_fd);
		else
			kill(r->child, SIGTERM);
		waitpid(r->child, &status, 0);
	}
	if (r->err_fd >= 0)
		close(r->err_fd);
	pm_rec_open__close_all(r);
	pm_rec_burst__cgroup_remove(r);
	pm_rec_burst__signals(r, false);
	if (r->w)
		pm_writer__delete(r->w);
	/* not finished: nothing recorded yet is dropped, anything else kept */
	if (r->started)
		pm_outfile__leave(r->file);
	else
		pm_outfile__abort(r->file);
	free(r->partial);
	for (k = 0; k < r->nr_ev; k++) {
		free(r->ev[k].name);
		free(r->ev[k].ids);
	}
	free(r->ev);
	free(r->inst);
	free(r->rings);
	free(r->threads);
	free(r->output);
	pm_cpu_list__exit(&r->cpus);
	pm_hits__delete(r->hits);
	pm_sample_scratch__release(&r->scratch);
	free(r);
}
