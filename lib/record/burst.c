// SPDX-License-Identifier: GPL-2.0
/*
 * The burst emulation of short windows on kernels without the hf-period
 * ABI: a burst leader is armed for N + 1 samples S events apart
 * (PERF_EVENT_IOC_PERIOD, PERF_EVENT_IOC_REFRESH), the kernel stops it
 * after them, and the recorder re-arms it once the long window of the
 * period model is over. The file sees each burst between an UNTHROTTLE
 * and a THROTTLE mark. A workload's bursts follow it in a cgroup of its
 * own (CGROUP scope), else its first thread (THREAD scope).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "recorder.h"
#include "pmprof/records.h"
#include "pmprof/util.h"

#define CGROUP2_MAGIC 0x63677270

int pm_rec_burst__cgroup_root(char *out, size_t size)
{
	static const char *const cands[] = { "/sys/fs/cgroup/unified", "/sys/fs/cgroup" };
	struct statfs sf;
	unsigned int i;

	for (i = 0; i < PM_ARRAY_SIZE(cands); i++) {
		if (!statfs(cands[i], &sf) && (unsigned long)sf.f_type == CGROUP2_MAGIC) {
			snprintf(out, size, "%s", cands[i]);
			return 0;
		}
	}
	return -1;
}

/* Make the workload's cgroup and move the workload into it; 0, or -1
 * (then thread scope). */
int pm_rec_burst__cgroup_make(struct pm_recorder *r)
{
	char root[256], dir[320], path[400], pid[32];
	int fd, ret = -1;

	if (geteuid() != 0 || pm_rec_burst__cgroup_root(root, sizeof(root)))
		return -1;
	snprintf(dir, sizeof(dir), "%s/" PM_REC_CGROUP_PREFIX "%d", root, (int)getpid());
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -1;
	r->cgroup_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->cgroup_fd < 0) {
		rmdir(dir);
		return -1;
	}
	r->cgroup_dir = pm_strdup(dir);
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d\n", (int)r->child);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0 && write(fd, pid, strlen(pid)) == (ssize_t)strlen(pid))
		ret = 0;
	if (fd >= 0)
		close(fd);
	if (ret)
		pm_rec_burst__cgroup_remove(r);
	return ret;
}

void pm_rec_burst__cgroup_remove(struct pm_recorder *r)
{
	if (r->cgroup_fd >= 0)
		close(r->cgroup_fd);
	r->cgroup_fd = -1;
	if (r->cgroup_dir) {
		/* fails while a process the workload left behind is in it */
		rmdir(r->cgroup_dir);
		free(r->cgroup_dir);
		r->cgroup_dir = NULL;
	}
}

void pm_rec_burst__init(struct pm_recorder *r, struct instance *in)
{
	struct rec_event *re = &r->ev[in->ev];
	struct pm_period_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.period = re->freq ? re->short_period * (re->burst_n + 1) * 4 :
		     re->spec->attr.sample_period;
	cfg.hf_period = (uint32_t)re->short_period;
	cfg.hf_rand = re->spec->attr.hf_sample_rand;
	cfg.hf_burst = re->burst_n;
	cfg.hf_jitter = re->spec->hf_jitter;
	cfg.seed = r->o.seed + r->nr_inst;
	cfg.hz = PM_PERIOD_DEFAULT_HZ;
	cfg.max_sample_rate = 0;
	pm_period__init(&in->model, &cfg);
}

static int write_burst_mark(struct pm_recorder *r, struct instance *in, uint32_t type,
			    uint64_t time, struct pm_error *err)
{
	struct pm_rec_throttle t = { .time = time, .id = in->id, .stream_id = in->id };
	struct pm_sample_id sid;

	memset(&sid, 0, sizeof(sid));
	sid.event = pm_writer__event(r->w, (size_t)in->ev);
	sid.pid = in->pid_last;
	sid.tid = in->tid_last;
	sid.time = time;
	sid.id = in->id;
	sid.stream_id = in->id;
	sid.cpu = in->cpu >= 0 ? (uint32_t)in->cpu : in->cpu_last;
	r->st.records++;
	r->round_dirty = true;
	return pm_writer__throttle(r->w, type, PM_MISC_PMPROF_STOP, &t, &sid, err);
}

static int arm(struct pm_recorder *r, struct instance *in, struct pm_error *err)
{
	struct rec_event *re = &r->ev[in->ev];

	uint64_t period = re->short_period;

	in->armed = true;
	in->seen = 0;
	/*
	 * Setting the period also clears what was left of the last one
	 * (period_left), so the burst's first overflow comes exactly S
	 * events after the re-arm instead of whenever the stopped period
	 * would have ended (at once, for cpu-clock's hrtimer).
	 */
	if (ioctl(in->fd, PERF_EVENT_IOC_PERIOD, &period))
		return pm_error__fmt(err, errno, "%s: PERF_EVENT_IOC_PERIOD: %s", re->name,
				     strerror(errno));
	if (ioctl(in->fd, PERF_EVENT_IOC_REFRESH, (int)(re->burst_n + 1)))
		return pm_error__fmt(err, errno, "%s: PERF_EVENT_IOC_REFRESH: %s", re->name,
				     strerror(errno));
	return 0;
}

/* The gap after a burst, in the event clock's nanoseconds. */
static uint64_t gap_ns(struct pm_recorder *r, struct instance *in)
{
	struct rec_event *re = &r->ev[in->ev];
	struct pm_overflow ov;
	uint64_t longp = 0, events, ns;
	int guard;

	if (re->freq)
		return re->freq_hz ? 1000000000ULL / re->freq_hz : 1000000ULL;
	/* the model's next long window: jitter from hf-rand / hf-jitter */
	for (guard = 0; guard < (int)re->burst_n + 3; guard++) {
		pm_period__overflow(&in->model, 0, &ov);
		if (ov.next_kind == PM_WINDOW_LONG || ov.next_kind == PM_WINDOW_PLAIN) {
			longp = ov.next_period;
			break;
		}
	}
	if (!longp)
		longp = re->spec->attr.sample_period;
	/* the opening sample of the next burst takes one short period */
	events = longp > re->short_period ? longp - re->short_period : 1;
	if (re->time_unit)
		ns = events;
	else if (in->rate > 0)
		ns = (uint64_t)((double)events / in->rate);
	else
		ns = events;	/* 1 GHz until a burst has been measured */
	if (ns < 10000)
		ns = 10000;
	if (ns > 10000000000ULL)
		ns = 10000000000ULL;
	return ns;
}

int pm_rec_burst__sample(struct pm_recorder *r, struct instance *in, uint64_t time,
			 struct pm_error *err)
{
	struct rec_event *re = &r->ev[in->ev];

	if (!in->armed)
		return 0;
	if (!in->seen)
		in->t_first = time;
	in->t_last = time;
	if (++in->seen < re->burst_n + 1)
		return 0;
	/* the kernel has disabled the group after this sample */
	in->armed = false;
	r->st.bursts++;
	if (!re->time_unit && in->t_last > in->t_first) {
		double rate = (double)(re->burst_n * re->short_period) /
			      (double)(in->t_last - in->t_first);

		in->rate = in->rate > 0 ? 0.75 * in->rate + 0.25 * rate : rate;
	}
	in->rearm_at = time + gap_ns(r, in);
	return write_burst_mark(r, in, PM_RECORD_THROTTLE, time + 1, err);
}

int pm_rec_burst__lost(struct pm_recorder *r, struct instance *in, uint64_t t,
		       struct pm_error *err)
{
	/* the kernel still stops the burst after N + 1 overflows; we just
	 * did not see them all */
	if (!in->armed)
		return 0;
	in->armed = false;
	in->rearm_at = (t ? t : pm_rec__now_ns(r)) + gap_ns(r, in);
	return write_burst_mark(r, in, PM_RECORD_THROTTLE, t ? t + 1 : pm_rec__now_ns(r), err);
}

int pm_rec_burst__rearm_due(struct pm_recorder *r, uint64_t *next_due, struct pm_error *err)
{
	uint64_t now = pm_rec__now_ns(r);
	size_t i;
	int ret;

	*next_due = 0;
	for (i = 0; i < r->nr_inst; i++) {
		struct instance *in = &r->inst[i];

		if (!r->ev[in->ev].burst || in->armed || in->fd < 0)
			continue;
		if (in->rearm_at <= now) {
			/* stamp first: no sample of the new burst can precede it */
			ret = write_burst_mark(r, in, PM_RECORD_UNTHROTTLE, pm_rec__now_ns(r), err);
			if (!ret)
				ret = arm(r, in, err);
			if (ret)
				return ret;
		} else if (!*next_due || in->rearm_at < *next_due) {
			*next_due = in->rearm_at;
		}
	}
	return 0;
}

int pm_rec_burst__arm_all(struct pm_recorder *r, struct pm_error *err)
{
	size_t i;
	int ret;

	for (i = 0; i < r->nr_inst; i++) {
		struct instance *in = &r->inst[i];

		if (r->ev[in->ev].burst && r->ev[in->ev].leader == in->ev) {
			ret = arm(r, in, err);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int pm_rec_burst__close_all(struct pm_recorder *r, struct pm_error *err)
{
	size_t i;
	int ret;

	for (i = 0; i < r->nr_inst; i++) {
		struct instance *in = &r->inst[i];

		if (r->ev[in->ev].burst && in->armed && in->seen) {
			in->armed = false;
			ret = write_burst_mark(r, in, PM_RECORD_THROTTLE, in->t_last + 1, err);
			if (ret)
				return ret;
		}
	}
	return 0;
}
