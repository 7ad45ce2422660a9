// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's targets and instances: the threads of -p/-t, the forked
 * workload, every event opened per CPU and/or per thread, and the ring
 * buffers they share (one per CPU, per thread for CPU-less instances).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "recorder.h"
#include "pmprof/abi.h"
#include "pmprof/util.h"

static uint64_t inst_hash(const void *arg, size_t i)
{
	return pm_hash64(((const struct instance *)arg)[i].id);
}

/* Every instance is opened before the first record: index them once. */
static void id_hash_build(struct pm_recorder *r)
{
	pm_hash__release(&r->id_index);
	pm_hash__reserve(&r->id_index, r->nr_inst, inst_hash, r->inst);
}

struct instance *pm_rec_open__by_id(struct pm_recorder *r, uint64_t id)
{
	size_t s = PM_HASH_FIND(&r->id_index, pm_hash64(id), i, r->inst[i].id == id);

	return pm_hash__empty(&r->id_index, s) ? NULL
					      : &r->inst[pm_hash__at(&r->id_index, s)];
}

static int ring_for(struct pm_recorder *r, struct instance *in, struct pm_error *err)
{
	int i, ret;

	for (i = 0; i < r->nr_rings; i++) {
		struct instance *owner = NULL;
		size_t k;

		for (k = 0; k < r->nr_inst; k++)
			if (r->inst[k].fd == r->rings[i].fd) {
				owner = &r->inst[k];
				break;
			}
		if (!owner)
			continue;
		if (in->cpu >= 0 ? owner->cpu == in->cpu : (owner->cpu < 0 && owner->tid == in->tid)) {
			if (ioctl(in->fd, PERF_EVENT_IOC_SET_OUTPUT, r->rings[i].fd))
				return pm_error__fmt(err, errno, "cannot share a ring buffer: %s",
						     strerror(errno));
			return i;
		}
	}
	r->rings = pm_reallocarray(r->rings, (size_t)r->nr_rings + 1, sizeof(struct pm_ring));
	ret = pm_ring__map(&r->rings[r->nr_rings], in->fd, r->pages, err);
	if (ret)
		return ret;
	return r->nr_rings++;
}

static int open_instance(struct pm_recorder *r, int evi, int cpu, int tid,
			 int group_fd, unsigned long flags, struct pm_error *err)
{
	struct rec_event *re = &r->ev[evi];
	struct instance *in;
	uint64_t id = 0;
	int fd, ret;

	fd = pm_perf_event_open(&re->open, tid, cpu, group_fd, flags, re->name, err);
	if (fd < 0)
		return fd;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id)) {
		ret = pm_error__fmt(err, errno, "%s: cannot read the event id: %s", re->name,
				    strerror(errno));
		close(fd);
		return ret;
	}
	PM_GROW(r->inst, r->alloc_inst, r->nr_inst + 1);
	in = &r->inst[r->nr_inst++];
	memset(in, 0, sizeof(*in));
	in->fd = fd;
	in->ev = evi;
	in->cpu = cpu;
	in->tid = (flags & PERF_FLAG_PID_CGROUP) ? -1 : tid;
	in->id = id;
	in->ring = -1;
	PM_GROW(re->ids, re->alloc_ids, re->nr_ids + 1);
	re->ids[re->nr_ids++] = id;
	if (re->burst)
		pm_rec_burst__init(r, in);
	if (re->burst && re->leader == evi && (ret = pm_rec_burst__own_fd(r, fd, err)))
		return ret;
	/* the ring: only sampling and tracking events write records, but a
	 * group member must share its leader's ring anyway */
	ret = ring_for(r, in, err);
	if (ret < 0)
		return ret;
	r->inst[r->nr_inst - 1].ring = ret;
	return fd;
}

int pm_rec_open__all(struct pm_recorder *r, struct pm_error *err)
{
	bool per_cpu = r->o.system_wide || r->o.cpu_list;
	bool cgroup = r->st.scope == PM_BURST_SCOPE_CGROUP;
	bool thread_burst = r->st.scope == PM_BURST_SCOPE_THREAD;
	int t, c, i, ret;

	for (t = 0; t < r->nr_threads; t++) {
		for (c = 0; c < r->cpus.nr; c++) {
			int leader_fd = -1;

			for (i = 0; i < r->nr_ev; i++) {
				struct rec_event *re = &r->ev[i];
				int cpu = r->cpus.cpus[c], pid = r->threads[t];
				unsigned long flags = 0;
				bool burst_group = !re->dummy && r->ev[re->leader].burst;

				if (cgroup && (burst_group || re->dummy)) {
					pid = r->cgroup_fd;
					flags = PERF_FLAG_PID_CGROUP;
				} else if (!per_cpu && thread_burst && burst_group) {
					/* one instance per thread, following it across CPUs */
					if (c > 0)
						continue;
					cpu = -1;
				}
				if (re->leader == i)
					leader_fd = -1;
				ret = open_instance(r, i, cpu, pid, re->leader == i ? -1 : leader_fd,
						    flags, err);
				if (ret < 0) {
					if (ret == -ESRCH && !per_cpu && r->o.pid_list) {
						/* a thread of -p ended while we opened */
						continue;
					}
					return ret;
				}
				if (re->leader == i)
					leader_fd = ret;
			}
		}
	}
	r->st.nr_instances = (int)r->nr_inst;
	r->st.nr_rings = r->nr_rings;
	id_hash_build(r);
	r->pfd = pm_calloc((size_t)r->nr_rings, sizeof(struct pollfd));
	for (i = 0; i < r->nr_rings; i++) {
		r->pfd[i].fd = r->rings[i].fd;
		r->pfd[i].events = POLLIN;
	}
	return 0;
}

/* Undo pm_rec_open__all: every instance closed, every ring unmapped. */
void pm_rec_open__close_all(struct pm_recorder *r)
{
	size_t i;
	int k;

	for (k = 0; k < r->nr_rings; k++)
		pm_ring__unmap(&r->rings[k]);
	for (i = 0; i < r->nr_inst; i++)
		if (r->inst[i].fd >= 0)
			close(r->inst[i].fd);
	for (k = 0; k < r->nr_ev; k++)
		r->ev[k].nr_ids = 0;
	r->nr_inst = 0;
	r->nr_rings = 0;
	pm_hash__release(&r->id_index);
	free(r->pfd);
	r->pfd = NULL;
}

/*
 * perf's answer to EACCES/EPERM when perf_event_paranoid forbids kernel
 * samples (2, the default) but not user ones: every event that allows it
 * leaves out the kernel and the hypervisor and is renamed EVENT:u. False
 * when that would not help (CPU-wide, :k events, privileged...).
 */
bool pm_rec_open__user_only(struct pm_recorder *r)
{
	bool cpu_wide = r->o.system_wide || r->o.cpu_list ||
			r->st.scope == PM_BURST_SCOPE_CGROUP;
	struct pm_perf_access acc;
	char name[512];
	bool any = false;
	int i;

	pm_perf_access__read(&acc);
	for (i = 0; i < r->nr_ev; i++)
		any |= pm_perf_access__user_only_helps(&acc, &r->ev[i].open, cpu_wide);
	if (!any)
		return false;
	for (i = 0; i < r->nr_ev; i++) {
		struct rec_event *re = &r->ev[i];

		if (pm_attr__flag(&re->open, PM_ATTR_EXCLUDE_KERNEL) ||
		    pm_attr__flag(&re->open, PM_ATTR_EXCLUDE_USER))
			continue;
		pm_attr__set_flag(&re->open, PM_ATTR_EXCLUDE_KERNEL, true);
		pm_attr__set_flag(&re->open, PM_ATTR_EXCLUDE_HV, true);
		pm_attr__set_flag(&re->file, PM_ATTR_EXCLUDE_KERNEL, true);
		pm_attr__set_flag(&re->file, PM_ATTR_EXCLUDE_HV, true);
		pm_perf_access__user_name(re->name, name, sizeof(name));
		free(re->name);
		re->name = pm_strdup(name);
	}
	pm_rec__note(r, "kernel.perf_event_paranoid is %d: sampling user space only "
		     "(exclude_kernel, events renamed as %s), as perf does. For kernel "
		     "samples too, run as root or with CAP_PERFMON, or set "
		     "kernel.perf_event_paranoid to 1", acc.paranoid, r->ev[0].name);
	return true;
}

/*
 * Kernels before Linux 6.12 refuse inherit with PERF_SAMPLE_READ (EINVAL):
 * the :S groups then count the workload's first task only, as perf 6.1
 * records them. False when no event had both.
 */
bool pm_rec_open__no_inherit(struct pm_recorder *r)
{
	bool any = false;
	int i;

	for (i = 0; i < r->nr_ev; i++) {
		struct rec_event *re = &r->ev[i];

		if (!pm_attr__flag(&re->open, PM_ATTR_INHERIT) ||
		    !(re->open.sample_type & PM_SAMPLE_READ))
			continue;
		pm_attr__set_flag(&re->open, PM_ATTR_INHERIT, false);
		pm_attr__set_flag(&re->file, PM_ATTR_INHERIT, false);
		any = true;
	}
	if (any)
		pm_rec__note(r, "this kernel refuses inherit with PERF_SAMPLE_READ (Linux 6.12 "
			     "takes it): the :S groups count the workload's first task only, "
			     "not its children");
	return any;
}

int pm_rec_open__add_threads(struct pm_recorder *r, const char *list, bool whole_process,
			     struct pm_error *err)
{
	const char *p = list;

	while (*p) {
		char *end;
		long pid = strtol(p, &end, 10);

		if (end == p || pid <= 0 || (*end && *end != ','))
			return pm_error__fmt(err, PM_EUSAGE, "bad pid list '%s'", list);
		if (whole_process) {
			int *tids = NULL, n = pm_proc_threads((int)pid, &tids), k;

			if (n <= 0 && r->o.pids_may_end) {
				p = *end ? end + 1 : end;
				continue;
			}
			if (n <= 0)
				return pm_error__fmt(err, ESRCH, "no such process %ld", pid);
			for (k = 0; k < n; k++) {
				r->threads = pm_reallocarray(r->threads, (size_t)r->nr_threads + 1,
							     sizeof(int));
				r->threads[r->nr_threads++] = tids[k];
			}
			free(tids);
		} else {
			char path[64];

			snprintf(path, sizeof(path), "/proc/%ld", pid);
			if (access(path, F_OK))
				return pm_error__fmt(err, ESRCH, "no such thread %ld", pid);
			r->threads = pm_reallocarray(r->threads, (size_t)r->nr_threads + 1,
						     sizeof(int));
			r->threads[r->nr_threads++] = (int)pid;
		}
		p = *end ? end + 1 : end;
	}
	if (!r->nr_threads)
		return pm_error__fmt(err, ESRCH, "no process of '%s' left to record", list);
	return 0;
}

/* Fork the workload, held until pm_recorder__start. */
int pm_rec_open__fork_workload(struct pm_recorder *r, struct pm_error *err)
{
	int go[2], ep[2];
	pid_t pid, parent = getpid();

	if (pipe2(go, O_CLOEXEC) || pipe2(ep, O_CLOEXEC))
		return pm_error__fmt(err, errno, "pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return pm_error__fmt(err, errno, "fork: %s", strerror(errno));
	if (!pid) {
		char c;
		int e;

		close(go[1]);
		close(ep[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		/* never outlive the recorder, even a killed one (checked
		 * after: it may have died before the prctl) */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(127);
		/* the data stream owns stdout: the workload's output goes
		 * to stderr, as perf does */
		if (r->pipe_out && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		if (read(go[0], &c, 1) != 1)
			_exit(127);	/* the recorder gave up */
		execvp(r->o.argv[0], r->o.argv);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ep[1]);
	r->child = pid;
	r->go_fd = go[1];
	r->err_fd = ep[0];
	r->st.have_workload = true;
	return 0;
}
