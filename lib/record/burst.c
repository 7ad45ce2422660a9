// SPDX-License-Identifier: GPL-2.0
/*
 * The burst emulation of short windows on kernels without the hf-period
 * ABI (see record.h and record-int.h). Each burst leader alternates two
 * phases, each armed with PERF_EVENT_IOC_PERIOD and PERF_EVENT_IOC_REFRESH
 * so that the kernel itself stops the group at its end: the long window
 * (one overflow, its sample not written) and a burst of N + 1 samples S
 * events apart, which the file sees between an UNTHROTTLE and a THROTTLE
 * mark. pm_burst__* decide the phases (no system calls: unit-tested on
 * their own); pm_rec_burst__* do the ioctls and the marks for the
 * recorder. A workload's bursts follow it in a cgroup of its own (CGROUP
 * scope; cgroup-perf.c makes it take perf events on a fresh boot), else
 * its first thread (THREAD scope).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "recorder.h"
#include "pmprof/records.h"
#include "pmprof/util.h"

#define CGROUP2_MAGIC 0x63677270

/* ---- the phases of one counter instance ---- */

#define NSEC_PER_SEC 1000000000ULL
/* The kernel refuses periods with bit 63 set; stay well below. */
#define MAX_PHASE_EVENTS (1ULL << 62)
/* Frequency mode before a long phase has been timed: this many bursts'
 * worth of events (the rate is then measured and used). */
#define FREQ_FIRST_LONG_BURSTS 4
/* Weight of the newest long phase in the measured rate. */
#define RATE_WEIGHT 0.25

static uint32_t burst_of(const struct pm_burst *b)
{
	return b->cfg.burst ? b->cfg.burst : 1;
}

/* Events of a short phase: the opening sample's and N windows. */
static uint64_t short_phase_events(const struct pm_burst *b)
{
	return (uint64_t)b->cfg.short_period * (burst_of(b) + 1);
}

void pm_burst__init(struct pm_burst *b, const struct pm_burst_config *cfg)
{
	struct pm_period_config pc;

	memset(b, 0, sizeof(*b));
	b->cfg = *cfg;
	memset(&pc, 0, sizeof(pc));
	pc.period = cfg->freq ? short_phase_events(b) * FREQ_FIRST_LONG_BURSTS : cfg->period;
	pc.hf_period = cfg->short_period;
	pc.hf_rand = cfg->hf_rand;
	pc.hf_burst = burst_of(b);
	pc.hf_jitter = cfg->hf_jitter;
	pc.seed = cfg->seed;
	pc.hz = PM_PERIOD_DEFAULT_HZ;
	pc.max_sample_rate = 0;		/* the kernel throttles, not the model */
	pm_period__init(&b->model, &pc);
}

/* The model's next long window: its opening one first, then each LONG
 * (hf-rand and hf-jitter move them; the short ones are always S here). */
static uint64_t next_long_window(struct pm_burst *b)
{
	struct pm_overflow ov;
	uint32_t guard;

	if (!b->longs)
		return b->model.length;
	for (guard = 0; guard < burst_of(b) + 3; guard++) {
		pm_period__overflow(&b->model, 0, &ov);
		if (ov.next_kind == PM_WINDOW_LONG || ov.next_kind == PM_WINDOW_PLAIN)
			return ov.next_period;
	}
	return b->model.length;
}

/*
 * The long phase's period. Period mode: the long window less the opening
 * sample's S (which belongs to it), so that long + short phases = L + N x S.
 * Frequency mode: what the leader counts in 1/F s, less the short phase.
 */
static uint64_t long_phase_events(struct pm_burst *b)
{
	uint64_t shorts = short_phase_events(b), want;

	if (!b->cfg.freq) {
		uint64_t l = next_long_window(b);

		return l > b->cfg.short_period ? l - b->cfg.short_period : 1;
	}
	if (b->cfg.time_unit) {
		want = NSEC_PER_SEC / b->cfg.freq;
	} else if (b->rate > 0) {
		double w = b->rate * (double)NSEC_PER_SEC / (double)b->cfg.freq;

		want = w >= (double)MAX_PHASE_EVENTS ? MAX_PHASE_EVENTS : (uint64_t)w;
	} else {
		want = shorts * (FREQ_FIRST_LONG_BURSTS + 1);
	}
	if (want > MAX_PHASE_EVENTS)
		want = MAX_PHASE_EVENTS;
	return want > shorts ? want - shorts : 1;
}

void pm_burst__next(struct pm_burst *b, uint64_t now_ns, struct pm_burst_arm *arm)
{
	bool want_long = b->last != PM_BURST_LONG;

	if (want_long) {
		b->events = long_phase_events(b);
		b->longs++;
		arm->refresh = 1;
	} else {
		b->events = b->cfg.short_period;
		arm->refresh = (int)burst_of(b) + 1;
	}
	b->phase = b->last = want_long ? PM_BURST_LONG : PM_BURST_SHORT;
	b->seen = 0;
	b->armed_ns = now_ns;
	arm->phase = b->phase;
	arm->period = b->events;
}

enum pm_burst_phase pm_burst__sample(struct pm_burst *b, uint64_t t)
{
	enum pm_burst_phase ended = b->phase;
	uint32_t due;

	if (ended == PM_BURST_IDLE)
		return PM_BURST_IDLE;
	due = ended == PM_BURST_LONG ? 1 : burst_of(b) + 1;
	if (++b->seen < due)
		return PM_BURST_IDLE;
	if (ended == PM_BURST_LONG && b->cfg.freq && !b->cfg.time_unit && t > b->armed_ns) {
		double rate = (double)b->events / (double)(t - b->armed_ns);

		b->rate = b->rate > 0 ? (1 - RATE_WEIGHT) * b->rate + RATE_WEIGHT * rate : rate;
	}
	b->phase = PM_BURST_IDLE;
	return ended;
}

enum pm_burst_phase pm_burst__stopped(struct pm_burst *b)
{
	enum pm_burst_phase was = b->phase;

	b->phase = PM_BURST_IDLE;
	return was;
}

/* ---- the workload's cgroup ---- */

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

/* Make the workload's cgroup, one that perf events can be opened on, and
 * move the workload into it; 0, or -1 with the reason in why (then
 * thread scope). */
int pm_rec_burst__cgroup_make(struct pm_recorder *r, char *why, size_t size)
{
	char root[256], dir[320], did[512], path[400], pid[32];
	int fd, ret;

	if (geteuid() != 0 || pm_rec_burst__cgroup_root(root, sizeof(root))) {
		snprintf(why, size, "no cgroup v2 for the workload (needs root and a cgroup2 mount)");
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s/" PM_REC_CGROUP_PREFIX "%d", root, (int)getpid());
	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(why, size, "cannot make the workload's cgroup %s: %s", dir, strerror(errno));
		return -1;
	}
	r->cgroup_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->cgroup_fd < 0) {
		snprintf(why, size, "cannot open the workload's cgroup %s: %s", dir, strerror(errno));
		rmdir(dir);
		return -1;
	}
	r->cgroup_dir = pm_strdup(dir);
	ret = pm_rec_cgroup__perf_ready(root, r->cgroup_fd, r->cpus.cpus[0], did, sizeof(did),
					why, size);
	if (*did)
		pm_rec__note(r, "burst: %s", did);
	if (!ret) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
		snprintf(pid, sizeof(pid), "%d\n", (int)r->child);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, pid, strlen(pid)) != (ssize_t)strlen(pid)) {
			snprintf(why, size, "cannot move the workload into %s: %s", path, strerror(errno));
			ret = -1;
		}
		if (fd >= 0)
			close(fd);
	}
	if (ret)
		pm_rec_burst__cgroup_remove(r);
	return ret ? -1 : 0;
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
	struct pm_burst_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.period = re->freq ? 0 : re->spec->attr.sample_period;
	cfg.freq = re->freq ? re->freq_hz : 0;
	cfg.short_period = (uint32_t)re->short_period;
	cfg.burst = re->burst_n;
	cfg.hf_rand = re->spec->attr.hf_sample_rand;
	cfg.hf_jitter = re->spec->hf_jitter;
	cfg.seed = r->o.seed + r->nr_inst;
	cfg.time_unit = re->time_unit;
	pm_burst__init(&in->burst, &cfg);
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

int pm_rec_burst__rearm(int fd, uint64_t period, int refresh, const char *name,
			struct pm_error *err)
{
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
		return pm_error__fmt(err, errno, "%s: PERF_EVENT_IOC_DISABLE: %s", name,
				     strerror(errno));
	if (ioctl(fd, PERF_EVENT_IOC_PERIOD, &period))
		return pm_error__fmt(err, errno, "%s: PERF_EVENT_IOC_PERIOD: %s", name,
				     strerror(errno));
	if (ioctl(fd, PERF_EVENT_IOC_REFRESH, refresh))
		return pm_error__fmt(err, errno, "%s: PERF_EVENT_IOC_REFRESH: %s", name,
				     strerror(errno));
	return 0;
}

/*
 * Quiet wakeups. A burst cycle is N + 2 samples of its leader (the long
 * phase's one, the burst's N + 1), and the recorder must act after two of
 * them: the ends of the phases. Woken at every sample (wakeup_events 1),
 * it pays a wakeup for each of the N in between (the lab's icount guest:
 * some 25 us each, most of what recording costs). So when the recording
 * has one burst group, and no other event counts wakeup events (the
 * kernel counts the samples of every event of a ring against the wakeup
 * events of the one that writes; events with 0 count none, with 1 take
 * back what they add), its leader has wakeup_events N + 2: the ring wakes
 * us at the end of each burst, the cycle's last sample. The end of the
 * long phase is told by a signal instead: O_ASYNC is on for the long phase
 * only, and the kernel then sends SIGIO at its overflow (and at none of
 * the burst's). SIGIO is blocked but where ppoll waits, so that one that
 * comes while we drain is not lost. A leader whose samples were lost has
 * lost the count too (the ring counts only samples written): O_ASYNC then
 * stays on, a signal per sample, as loud as wakeup_events 1.
 */
void pm_rec_burst__configure_wakeups(struct pm_recorder *r)
{
	int i, lead = -1;

	for (i = 0; i < r->nr_ev; i++) {
		const struct rec_event *re = &r->ev[i];

		if (re->burst && re->leader == i) {
			if (lead >= 0)
				return;
			lead = i;
		} else if (re->open.wakeup_events > 1 &&
			   !pm_attr__flag(&re->open, PM_ATTR_WATERMARK)) {
			return;
		}
	}
	if (lead < 0)
		return;
	r->burst_quiet = true;
	r->ev[lead].open.wakeup_events = r->ev[lead].burst_n + 2;
	r->ev[lead].file.wakeup_events = r->ev[lead].open.wakeup_events;
}

int pm_rec_burst__own_fd(struct pm_recorder *r, int fd, struct pm_error *err)
{
	struct f_owner_ex owner = { .type = F_OWNER_TID, .pid = (pid_t)syscall(SYS_gettid) };

	if (r->burst_quiet && fcntl(fd, F_SETOWN_EX, &owner))
		return pm_error__fmt(err, errno, "a burst leader's signals (F_SETOWN_EX): %s",
				     strerror(errno));
	return 0;
}

static void on_sigio(int sig)
{
	(void)sig;	/* only to end ppoll */
}

void pm_rec_burst__signals(struct pm_recorder *r, bool on)
{
	static struct sigaction saved;
	static bool installed;
	sigset_t io;

	if (!r->burst_quiet)
		return;
	sigemptyset(&io);
	sigaddset(&io, SIGIO);
	if (on && !r->sigio_blocked) {
		struct sigaction sa, old;

		/* ignored or fatal, SIGIO would not just end ppoll */
		sigaction(SIGIO, NULL, &old);
		if (old.sa_handler == SIG_DFL || old.sa_handler == SIG_IGN) {
			memset(&sa, 0, sizeof(sa));
			sa.sa_handler = on_sigio;
			sa.sa_flags = SA_RESTART;
			sigaction(SIGIO, &sa, &saved);
			installed = true;
		}
		pthread_sigmask(SIG_BLOCK, &io, &r->poll_mask);
		sigdelset(&r->poll_mask, SIGIO);
		r->sigio_blocked = true;
	} else if (!on && r->sigio_blocked) {
		pthread_sigmask(SIG_UNBLOCK, &io, NULL);
		r->sigio_blocked = false;
		if (installed)
			sigaction(SIGIO, &saved, NULL);
		installed = false;
	}
}

static int set_async(struct pm_recorder *r, struct instance *in, bool on, struct pm_error *err)
{
	int fl = fcntl(in->fd, F_GETFL);

	if (fl < 0 || fcntl(in->fd, F_SETFL, on ? fl | O_ASYNC : fl & ~O_ASYNC))
		return pm_error__fmt(err, errno, "%s: O_ASYNC: %s", r->ev[in->ev].name,
				     strerror(errno));
	in->async = on;
	return 0;
}

/*
 * Arm the instance's next phase (pm_burst__next says which). The file sees
 * only the bursts: a short phase starts with an UNTHROTTLE mark, stamped
 * before the ioctls so that no sample of the phase can precede it, and
 * ends with a THROTTLE; the long phase between them is the gap, and its
 * one sample only tells the recorder that it is over (it is not written).
 */
static int arm_next(struct pm_recorder *r, struct instance *in, struct pm_error *err)
{
	uint64_t now = pm_rec__now_ns(r);
	struct pm_burst_arm a;
	int ret;

	pm_burst__next(&in->burst, now, &a);
	if (a.phase == PM_BURST_SHORT &&
	    (ret = write_burst_mark(r, in, PM_RECORD_UNTHROTTLE, now, err)))
		return ret;
	if (r->burst_quiet && in->async != (in->loud || a.phase == PM_BURST_LONG) &&
	    (ret = set_async(r, in, in->loud || a.phase == PM_BURST_LONG, err)))
		return ret;
	return pm_rec_burst__rearm(in->fd, a.period, a.refresh, r->ev[in->ev].name, err);
}

/* A phase is over (the kernel stopped the group at stop_time): a burst
 * gets its THROTTLE mark; the next phase is armed at once, unless the
 * recording is finishing. */
static int phase_over(struct pm_recorder *r, struct instance *in, enum pm_burst_phase ended,
		      uint64_t stop_time, struct pm_error *err)
{
	int ret = 0;

	if (ended == PM_BURST_SHORT) {
		r->st.bursts++;
		ret = write_burst_mark(r, in, PM_RECORD_THROTTLE, stop_time, err);
	}
	if (!ret && !r->finished)
		ret = arm_next(r, in, err);
	return ret;
}

bool pm_rec_burst__in_gap(const struct instance *in)
{
	return in->burst.phase == PM_BURST_LONG;
}

int pm_rec_burst__sample(struct pm_recorder *r, struct instance *in, uint64_t time,
			 struct pm_error *err)
{
	enum pm_burst_phase ended = pm_burst__sample(&in->burst, time);

	in->t_last = time;
	if (ended == PM_BURST_IDLE)
		return 0;
	/* stamped 1 ns after the phase's last sample, when the group stopped */
	return phase_over(r, in, ended, time + 1, err);
}

int pm_rec_burst__lost(struct pm_recorder *r, struct instance *in, uint64_t t,
		       struct pm_error *err)
{
	/*
	 * The kernel still stops the phase after its overflows; we just did
	 * not see them all. (Should it not have ended yet, the re-arm's
	 * REFRESH adds to what it had left: a longer phase, nothing lost.)
	 */
	enum pm_burst_phase was = pm_burst__stopped(&in->burst);

	in->loud = true;	/* the ring's count of its samples is off */
	if (was == PM_BURST_IDLE)
		return 0;
	return phase_over(r, in, was, t ? t + 1 : pm_rec__now_ns(r), err);
}

/* Every burst leader's first phase: a long one, as the kernel ABI's
 * first period is. */
int pm_rec_burst__arm_all(struct pm_recorder *r, struct pm_error *err)
{
	size_t i;
	int ret;

	for (i = 0; i < r->nr_inst; i++) {
		struct instance *in = &r->inst[i];

		if (r->ev[in->ev].burst && r->ev[in->ev].leader == in->ev) {
			ret = arm_next(r, in, err);
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

		if (r->ev[in->ev].burst && in->burst.phase == PM_BURST_SHORT && in->burst.seen) {
			pm_burst__stopped(&in->burst);
			ret = write_burst_mark(r, in, PM_RECORD_THROTTLE, in->t_last + 1, err);
			if (ret)
				return ret;
		}
	}
	return 0;
}
