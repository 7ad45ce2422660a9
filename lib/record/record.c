// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder: events opened per CPU and/or per thread, one ring buffer
 * per CPU (per thread for CPU-less per-thread events), records copied to
 * the writer as they come, side-band records followed for build ids, and
 * the burst emulation of short windows (see record.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record-int.h"
#include "pmprof/abi.h"
#include "pmprof/attr.h"
#include "pmprof/bytes.h"
#include "pmprof/hfprobe.h"
#include "pmprof/outfile.h"
#include "pmprof/records.h"
#include "pmprof/symbols.h"
#include "pmprof/util.h"

#define DEFAULT_PAGES 512		/* 2 MB per ring: nothing lost at 100k samples/s */
#define CGROUP2_MAGIC 0x63677270
#define STOP_GRACE_NS 2000000000ULL	/* SIGKILL a workload that ignores SIGTERM */

struct rec_event {
	const struct pm_evspec_event *spec;
	struct pm_attr open;		/* what perf_event_open gets */
	struct pm_attr file;		/* what the file says */
	char *name;
	int leader, nr_members;
	bool hf, burst, dummy;
	uint64_t *ids;
	uint32_t nr_ids;
	size_t alloc_ids;
	/* burst */
	uint32_t burst_n;		/* N: a burst is N + 1 samples */
	uint64_t short_period;
	bool time_unit;			/* counts nanoseconds */
	bool freq;
	uint64_t freq_hz;
};

struct instance {
	int fd;
	int ev;
	int cpu, tid;			/* -1: any */
	int ring;
	uint64_t id;
	/* burst state */
	struct pm_burst burst;
	uint64_t t_last;		/* the last sample's time */
	uint32_t pid_last, tid_last, cpu_last;
};

struct pm_recorder {
	struct pm_record_opts o;
	struct rec_event *ev;
	int nr_ev;
	struct instance *inst;
	size_t nr_inst, alloc_inst;
	uint32_t *id_hash;		/* open addressing: instance index + 1 */
	size_t hash_mask;
	struct pm_ring *rings;
	int nr_rings;
	struct pollfd *pfd;
	struct pm_writer *w;
	struct pm_outfile *file;	/* the output, renamed into place at finish */
	char *partial;			/* kept after a failed finish */
	bool pipe_out;
	struct pm_hits *hits;
	struct pm_record_stats st;
	char *output;
	struct pm_cpu_list cpus;
	int *threads;			/* -1: per CPU */
	int nr_threads;
	bool use_clockid;
	int clockid;
	uint64_t sample_type0;		/* the first event's: where ids are */
	unsigned int pages;
	bool workload_only;		/* the target is the workload alone */
	pid_t child;
	int go_fd, err_fd;
	int cgroup_fd;
	char *cgroup_dir;
	uint64_t first_time, last_time;
	bool have_time;
	bool stopping, done, started, finished;
	uint64_t stop_ns;
	bool round_dirty;
	uint64_t enable_at;		/* -D: monotonic ns to enable the events; 0 done */
	struct pm_writer_opts wo;	/* for the files --switch-output opens */
	struct pm_kernel_text ktext;
};

static int arm_bursts(struct pm_recorder *r, struct pm_error *err);

/* ---- small helpers ---- */

static uint64_t clock_ns(int clockid)
{
	struct timespec ts;

	if (clock_gettime(clockid, &ts))
		clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t now_ns(const struct pm_recorder *r)
{
	return clock_ns(r->use_clockid ? r->clockid : CLOCK_MONOTONIC);
}

static void note(const struct pm_recorder *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(const struct pm_recorder *r, const char *fmt, ...)
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

static uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static void id_hash_build(struct pm_recorder *r)
{
	size_t n = 16, i;

	while (n < r->nr_inst * 2)
		n <<= 1;
	r->id_hash = pm_calloc(n, sizeof(uint32_t));
	r->hash_mask = n - 1;
	for (i = 0; i < r->nr_inst; i++) {
		size_t h = hash64(r->inst[i].id) & r->hash_mask;

		while (r->id_hash[h])
			h = (h + 1) & r->hash_mask;
		r->id_hash[h] = (uint32_t)i + 1;
	}
}

static struct instance *by_id(struct pm_recorder *r, uint64_t id)
{
	size_t h = hash64(id) & r->hash_mask;

	while (r->id_hash[h]) {
		struct instance *in = &r->inst[r->id_hash[h] - 1];

		if (in->id == id)
			return in;
		h = (h + 1) & r->hash_mask;
	}
	return NULL;
}

/* "cpu-clock/period=1000000,hf-period=10000/" -> "cpu-clock/period=1000000/" */
static char *strip_hf_terms(const char *name)
{
	const char *a = strchr(name, '/'), *b;
	char *out, *o;
	const char *t;
	bool any = false;

	if (!a || !(b = strchr(a + 1, '/')))
		return pm_strdup(name);
	out = pm_malloc(strlen(name) + 1);
	memcpy(out, name, (size_t)(a - name));
	o = out + (a - name);
	*o++ = '/';
	for (t = a + 1; t < b;) {
		const char *e = memchr(t, ',', (size_t)(b - t));
		size_t len;

		if (!e)
			e = b;
		len = (size_t)(e - t);
		if (strncmp(t, "hf-", 3)) {
			if (any)
				*o++ = ',';
			memcpy(o, t, len);
			o += len;
			any = true;
		}
		t = e + (e < b);
	}
	if (any) {
		*o++ = '/';
	} else {
		o--;	/* drop the opening '/' */
	}
	strcpy(o, b + 1);
	return out;
}

/* ---- modes ---- */

static bool is_time_event(const struct pm_attr *a)
{
	return a->type == 1 && (a->config == 0 || a->config == 1);
}

static int find_cgroup2(char *out, size_t size)
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

static void remove_cgroup(struct pm_recorder *r);

/* Make the workload's cgroup, one that perf events can be opened on, and
 * move the workload into it; 0, or -1 with the reason in why (then
 * thread scope). */
static int make_cgroup(struct pm_recorder *r, char *why, size_t size)
{
	char root[256], dir[320], did[512], path[400], pid[32];
	int fd, ret;

	if (geteuid() != 0 || find_cgroup2(root, sizeof(root))) {
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
		note(r, "burst: %s", did);
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
		remove_cgroup(r);
	return ret ? -1 : 0;
}

static void remove_cgroup(struct pm_recorder *r)
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

static int choose_mode(struct pm_recorder *r, struct pm_error *err)
{
	const struct pm_evspec_list *l = r->o.events;
	enum pm_hf_mode want = r->o.hf_mode;
	bool has_hf = false, kernel_ok = true, burst_ok = true;
	char why_burst[256] = "", why_kernel[320] = "";
	const struct pm_evspec_event *first_hf = NULL;
	struct pm_hf_probe probe;
	uint32_t ptype;
	uint64_t pconfig;
	size_t i;

	for (i = 0; i < l->nr; i++) {
		const struct pm_evspec_event *e = &l->ev[i];

		if (!e->attr.hf_sample_period)
			continue;
		has_hf = true;
		if (!first_hf)
			first_hf = e;
		if ((e->hf_burst > 1 || e->hf_jitter) && kernel_ok) {
			kernel_ok = false;
			snprintf(why_kernel, sizeof(why_kernel),
				 "%s: hf-burst and hf-jitter have no kernel ABI", e->name);
		}
		if (e->group_leader != (int)i && burst_ok) {
			burst_ok = false;
			snprintf(why_burst, sizeof(why_burst),
				 "%s: a group member with hf-period cannot be armed alone "
				 "(put hf-period on the group leader)", e->name);
		}
		if (!e->attr.sample_period && burst_ok) {
			burst_ok = false;
			snprintf(why_burst, sizeof(why_burst), "%s does not sample", e->name);
		}
	}
	if (!has_hf) {
		r->st.mode = PM_HF_NONE;
		if (want == PM_HF_KERNEL || want == PM_HF_BURST)
			note(r, "--hf-mode %s: no event has an hf-period term; recording plainly",
			     pm_hf_mode__name(want));
		return 0;
	}
	if (want == PM_HF_AUTO || want == PM_HF_KERNEL) {
		/* by behaviour: taking the 144 bytes is not alternating periods */
		if (kernel_ok) {
			pm_hf_probe__event_for(first_hf->attr.type, first_hf->attr.config,
					       &ptype, &pconfig);
			pm_hf_probe__kernel(ptype, pconfig, &probe);
			if (probe.verdict != PM_HF_PRESENT) {
				kernel_ok = false;
				snprintf(why_kernel, sizeof(why_kernel), "%s", probe.why);
			}
		}
		if (want == PM_HF_KERNEL && !kernel_ok)
			return pm_error__fmt(err, PM_EUSAGE,
					     "--hf-mode kernel: %s; use --hf-mode burst (or auto)",
					     why_kernel);
		if (kernel_ok) {
			r->st.mode = PM_HF_KERNEL;
			return 0;
		}
	}
	if (want == PM_HF_AUTO || want == PM_HF_BURST) {
		if (want == PM_HF_BURST && !burst_ok)
			return pm_error__fmt(err, PM_EUSAGE, "--hf-mode burst: %s", why_burst);
		if (burst_ok) {
			r->st.mode = PM_HF_BURST;
			if (want == PM_HF_AUTO)
				note(r, "hf mode: burst (%s)", why_kernel);
			return 0;
		}
		note(r, "hf mode: fixed (burst impossible: %s)", why_burst);
		r->st.mode = PM_HF_FIXED;
		return 0;
	}
	r->st.mode = want;
	return 0;
}

/* ---- events ---- */

static void add_dummy(struct pm_recorder *r, bool inherit, bool enable_on_exec)
{
	struct rec_event *d = &r->ev[r->nr_ev];
	const struct rec_event *first = &r->ev[0];
	static const unsigned int track[] = {
		PM_ATTR_MMAP, PM_ATTR_COMM, PM_ATTR_TASK, PM_ATTR_MMAP2,
		PM_ATTR_COMM_EXEC, PM_ATTR_KSYMBOL, PM_ATTR_BPF_EVENT, PM_ATTR_MMAP_DATA,
	};
	unsigned int i;

	memset(d, 0, sizeof(*d));
	d->open = first->open;
	d->open.type = 1;
	d->open.config = 9;	/* PERF_COUNT_SW_DUMMY */
	d->open.sample_period = 1;
	d->open.wakeup_events = 0;
	/*
	 * It never samples: no READ (it is no counter to analyses), no call
	 * chains. The id fields stay, so ids sit where perf expects them in
	 * samples and trailers of every event.
	 */
	d->open.sample_type &= PM_SAMPLE_IDENTIFIER | PM_SAMPLE_IP | PM_SAMPLE_TID |
			       PM_SAMPLE_TIME | PM_SAMPLE_ADDR | PM_SAMPLE_ID |
			       PM_SAMPLE_STREAM_ID | PM_SAMPLE_CPU | PM_SAMPLE_PERIOD;
	d->open.read_format &= PM_FORMAT_ID;
	pm_attr__set_flag(&d->open, PM_ATTR_FREQ, false);
	for (i = 0; i < PM_ARRAY_SIZE(track); i++)
		pm_attr__set_flag(&d->open, track[i], pm_attr__flag(&first->spec->attr, track[i]));
	pm_attr__set_flag(&d->open, PM_ATTR_INHERIT, inherit);
	pm_attr__set_flag(&d->open, PM_ATTR_DISABLED, enable_on_exec);
	pm_attr__set_flag(&d->open, PM_ATTR_ENABLE_ON_EXEC, enable_on_exec);
	d->open.hf_sample_period = 0;
	d->open.hf_sample_rand = 0;
	d->file = d->open;
	d->name = pm_strdup("dummy");
	d->leader = r->nr_ev;
	d->nr_members = 1;
	d->dummy = true;
	r->nr_ev++;
}

static void configure_events(struct pm_recorder *r)
{
	const struct pm_evspec_list *l = r->o.events;
	enum pm_hf_mode mode = r->st.mode;
	bool burst = mode == PM_HF_BURST;
	bool per_cpu = r->o.system_wide || r->o.cpu_list;
	size_t i;

	r->ev = pm_calloc(l->nr + 1, sizeof(struct rec_event));
	for (i = 0; i < l->nr; i++) {
		const struct pm_evspec_event *e = &l->ev[i];
		struct rec_event *re = &r->ev[i];
		struct pm_attr *a = &re->open;
		bool leader = e->group_leader == (int)i;

		re->spec = e;
		re->dummy = e->tracking_dummy;
		re->leader = e->group_leader;
		re->nr_members = e->nr_members;
		re->hf = e->attr.hf_sample_period != 0;
		*a = e->attr;
		if (mode != PM_HF_KERNEL) {
			a->size = PM_ATTR_SIZE_VER7;
			a->hf_sample_period = 0;
			a->hf_sample_rand = 0;
		}
		if (r->use_clockid) {
			pm_attr__set_flag(a, PM_ATTR_USE_CLOCKID, true);
			a->clockid = r->clockid;
		}
		/* no inherit per CPU (meaningless) or per thread on any CPU
		 * (the kernel refuses to map such buffers), as perf does */
		if (per_cpu || r->o.per_thread)
			pm_attr__set_flag(a, PM_ATTR_INHERIT, false);
		else if (e->inherit_read)
			/* an :S group follows the workload's children, as perf
			 * 6.12 and later record it (open_all falls back) */
			pm_attr__set_flag(a, PM_ATTR_INHERIT, true);
		if (leader && !r->workload_only) {
			/* enabled by pm_recorder__start, not by an exec */
			pm_attr__set_flag(a, PM_ATTR_ENABLE_ON_EXEC, false);
			pm_attr__set_flag(a, PM_ATTR_DISABLED, true);
		}
		re->name = (re->hf && (mode == PM_HF_FIXED || mode == PM_HF_OFF)) ?
			   strip_hf_terms(e->name) : pm_strdup(e->name);
		if (re->hf && mode == PM_HF_FIXED) {
			a->sample_period = e->attr.hf_sample_period;
			pm_attr__set_flag(a, PM_ATTR_FREQ, false);
		}
		re->file = *a;
		if (re->hf && burst) {
			re->burst = true;
			re->burst_n = e->hf_burst ? e->hf_burst : 1;
			re->short_period = e->attr.hf_sample_period;
			re->time_unit = is_time_event(a);
			re->freq = pm_attr__flag(a, PM_ATTR_FREQ);
			re->freq_hz = re->freq ? e->attr.sample_period : 0;
			a->sample_period = re->short_period;
			pm_attr__set_flag(a, PM_ATTR_FREQ, false);
			/*
			 * Every sample written closes or opens an S window, so
			 * PERIOD would say nothing; and a software event with
			 * PERIOD and a fixed period (a spec in frequency mode
			 * asks for PERIOD) samples at every event on current
			 * kernels (perf_swevent_event).
			 */
			a->sample_type &= ~(uint64_t)PM_SAMPLE_PERIOD;
			pm_attr__set_flag(a, PM_ATTR_INHERIT, false);
			pm_attr__set_flag(a, PM_ATTR_DISABLED, true);
			pm_attr__set_flag(a, PM_ATTR_ENABLE_ON_EXEC, false);
			pm_attr__set_flag(a, PM_ATTR_WATERMARK, false);
			/* each phase ends with a sample, after which the next
			 * must be armed: wake us at every sample */
			a->wakeup_events = 1;
			re->file = *a;
			/* the file tells the total period, as the kernel ABI does */
			re->file.sample_period = e->attr.sample_period;
			pm_attr__set_flag(&re->file, PM_ATTR_FREQ, re->freq);
		}
		if (burst && !leader && r->ev[re->leader].burst) {
			/* members follow their leader: no inherit either, and
			 * no PERIOD, as the leader (a :S group's members take
			 * its sample_type) */
			pm_attr__set_flag(a, PM_ATTR_INHERIT, false);
			pm_attr__set_flag(&re->file, PM_ATTR_INHERIT, false);
			a->sample_type &= ~(uint64_t)PM_SAMPLE_PERIOD;
			re->file.sample_type &= ~(uint64_t)PM_SAMPLE_PERIOD;
		}
	}
	r->nr_ev = (int)l->nr;
	if (burst) {
		/* side-band from a dummy that is always on: disabled leaders get none */
		static const unsigned int track[] = {
			PM_ATTR_MMAP, PM_ATTR_COMM, PM_ATTR_TASK, PM_ATTR_MMAP2,
			PM_ATTR_COMM_EXEC, PM_ATTR_KSYMBOL, PM_ATTR_BPF_EVENT, PM_ATTR_MMAP_DATA,
		};
		bool thread_target = !per_cpu && r->st.scope != PM_BURST_SCOPE_CGROUP;
		unsigned int k;

		/*
		 * With the dummy there are two events, and the drain loop
		 * needs each sample's id to follow its instance's bursts: add
		 * ID as perf does for several events (a lone `-e` event did
		 * not get it from the spec).
		 */
		for (i = 0; i < l->nr; i++) {
			if (r->ev[i].open.sample_type & (PM_SAMPLE_ID | PM_SAMPLE_IDENTIFIER))
				continue;
			r->ev[i].open.sample_type |= PM_SAMPLE_ID;
			r->ev[i].file.sample_type |= PM_SAMPLE_ID;
		}
		/* -D brought its own tracking dummy: that one stays */
		if (!r->ev[l->nr - 1].dummy)
			add_dummy(r, thread_target, thread_target && r->workload_only);
		for (i = 0; i < l->nr; i++)
			for (k = 0; k < PM_ARRAY_SIZE(track) && !r->ev[i].dummy; k++) {
				pm_attr__set_flag(&r->ev[i].open, track[k], false);
				pm_attr__set_flag(&r->ev[i].file, track[k], false);
			}
	}
	r->sample_type0 = r->ev[0].open.sample_type;
}

/* ---- opening ---- */

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
				return pm_error__fmt(err, -errno, "cannot share a ring buffer: %s",
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
		ret = pm_error__fmt(err, -errno, "%s: cannot read the event id: %s", re->name,
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
	if (re->burst) {
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
	/* the ring: only sampling and tracking events write records, but a
	 * group member must share its leader's ring anyway */
	ret = ring_for(r, in, err);
	if (ret < 0)
		return ret;
	r->inst[r->nr_inst - 1].ring = ret;
	return fd;
}

static int open_all(struct pm_recorder *r, struct pm_error *err)
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

/* Undo open_all: every instance closed, every ring unmapped. */
static void close_all(struct pm_recorder *r)
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
	free(r->id_hash);
	r->id_hash = NULL;
	free(r->pfd);
	r->pfd = NULL;
}

/*
 * perf's answer to EACCES/EPERM when perf_event_paranoid forbids kernel
 * samples (2, the default) but not user ones: every event that allows it
 * leaves out the kernel and the hypervisor and is renamed EVENT:u. False
 * when that would not help (CPU-wide, :k events, privileged...).
 */
static bool fall_back_to_user(struct pm_recorder *r)
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
	note(r, "kernel.perf_event_paranoid is %d: sampling user space only (exclude_kernel, "
	     "events renamed as %s), as perf does. For kernel samples too, run as root or "
	     "with CAP_PERFMON, or set kernel.perf_event_paranoid to 1",
	     acc.paranoid, r->ev[0].name);
	return true;
}

/*
 * Kernels before Linux 6.12 refuse inherit with PERF_SAMPLE_READ (EINVAL):
 * the :S groups then count the workload's first task only, as perf 6.1
 * records them. False when no event had both.
 */
static bool fall_back_to_no_inherit(struct pm_recorder *r)
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
		note(r, "this kernel refuses inherit with PERF_SAMPLE_READ (Linux 6.12 takes it): "
		     "the :S groups count the workload's first task only, not its children");
	return any;
}

/* ---- targets ---- */

static int add_threads_of(struct pm_recorder *r, const char *list, bool whole_process,
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

			if (n <= 0)
				return pm_error__fmt(err, -ESRCH, "no such process %ld", pid);
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
				return pm_error__fmt(err, -ESRCH, "no such thread %ld", pid);
			r->threads = pm_reallocarray(r->threads, (size_t)r->nr_threads + 1,
						     sizeof(int));
			r->threads[r->nr_threads++] = (int)pid;
		}
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* Fork the workload, held until pm_recorder__start. */
static int fork_workload(struct pm_recorder *r, struct pm_error *err)
{
	int go[2], ep[2];
	pid_t pid, parent = getpid();

	if (pipe2(go, O_CLOEXEC) || pipe2(ep, O_CLOEXEC))
		return pm_error__fmt(err, -errno, "pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return pm_error__fmt(err, -errno, "fork: %s", strerror(errno));
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

/* ---- writing ---- */

static int write_events(struct pm_recorder *r, struct pm_error *err)
{
	int i, ret;

	for (i = 0; i < r->nr_ev; i++) {
		struct rec_event *re = &r->ev[i];
		struct pm_event e;

		memset(&e, 0, sizeof(e));
		e.idx = i;
		e.attr = re->file;
		e.name = re->name;
		e.ids = re->ids;
		e.nr_ids = re->nr_ids;
		e.leader_idx = re->leader;
		e.nr_members = re->nr_members;
		ret = pm_writer__add_event(r->w, &e, err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* The tracepoints' formats, for perf report/script (HEADER_TRACING_DATA). */
static int write_tracing_data(struct pm_recorder *r, struct pm_error *err)
{
	struct pm_tracepoint_ref *tps = pm_calloc((size_t)r->nr_ev, sizeof(*tps));
	struct pm_strbuf blob = PM_STRBUF_INIT;
	size_t n = 0;
	int i, ret = 0;

	for (i = 0; i < r->nr_ev; i++)
		if (!r->ev[i].dummy && r->ev[i].file.type == PM_TYPE_TRACEPOINT) {
			tps[n].name = r->ev[i].name;
			tps[n++].id = r->ev[i].file.config;
		}
	if (n)
		ret = pm_tracing_data__build(tps, n, &blob, err);
	if (n && !ret)
		ret = pm_writer__set_tracing_data(r->w, blob.buf, blob.len, err);
	pm_strbuf__release(&blob);
	free(tps);
	return ret;
}

static int write_id_index(struct pm_recorder *r, struct pm_error *err)
{
	struct pm_id_index_entry *e = pm_calloc(r->nr_inst ? r->nr_inst : 1, sizeof(*e));
	size_t i;
	int ret;

	for (i = 0; i < r->nr_inst; i++) {
		e[i].id = r->inst[i].id;
		e[i].idx = (uint64_t)r->inst[i].ev;
		e[i].cpu = (uint64_t)(int64_t)r->inst[i].cpu;
		e[i].tid = (uint64_t)(int64_t)r->inst[i].tid;
	}
	ret = pm_writer__id_index(r->w, e, r->nr_inst, err);
	free(e);
	return ret;
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
	return pm_writer__throttle(r->w, type, 0, &t, &sid, err);
}

/* ---- bursts ---- */

/*
 * Arm the instance's next phase (burst.c says which). The file sees only
 * the bursts: a short phase starts with an UNTHROTTLE mark, stamped
 * before the ioctls so that no sample of the phase can precede it, and
 * ends with a THROTTLE; the long phase between them is the gap, and its
 * one sample only tells the recorder that it is over (it is not written).
 * PERF_EVENT_IOC_PERIOD also drops what was left of the last period
 * (period_left), so the phase's first overflow comes exactly its period
 * after the re-arm instead of whenever the stopped period would have
 * ended (at once, for cpu-clock's hrtimer).
 */
static int arm_next(struct pm_recorder *r, struct instance *in, struct pm_error *err)
{
	struct rec_event *re = &r->ev[in->ev];
	uint64_t now = now_ns(r);
	struct pm_burst_arm a;
	int ret;

	pm_burst__next(&in->burst, now, &a);
	if (a.phase == PM_BURST_SHORT &&
	    (ret = write_burst_mark(r, in, PM_RECORD_UNTHROTTLE, now, err)))
		return ret;
	if (ioctl(in->fd, PERF_EVENT_IOC_PERIOD, &a.period))
		return pm_error__fmt(err, -errno, "%s: PERF_EVENT_IOC_PERIOD: %s", re->name,
				     strerror(errno));
	if (ioctl(in->fd, PERF_EVENT_IOC_REFRESH, a.refresh))
		return pm_error__fmt(err, -errno, "%s: PERF_EVENT_IOC_REFRESH: %s", re->name,
				     strerror(errno));
	return 0;
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

static int burst_sample(struct pm_recorder *r, struct instance *in, uint64_t time,
			struct pm_error *err)
{
	enum pm_burst_phase ended = pm_burst__sample(&in->burst, time);

	in->t_last = time;
	if (ended == PM_BURST_IDLE)
		return 0;
	/* stamped 1 ns after the phase's last sample, when the group stopped */
	return phase_over(r, in, ended, time + 1, err);
}

/* ---- draining ---- */

struct mini {
	uint64_t id, ip, time;
	uint32_t pid, tid, cpu;
	bool has_id, has_time;
};

static bool parse_mini(const uint8_t *p, size_t size, uint64_t st, struct mini *s)
{
	const uint8_t *end = p + size;
	uint64_t v;

	memset(s, 0, sizeof(*s));
#define TAKE(dst) do { if (p + 8 > end) return false; memcpy(&v, p, 8); p += 8; dst; } while (0)
	if (st & PM_SAMPLE_IDENTIFIER)
		TAKE((s->id = v, s->has_id = true));
	if (st & PM_SAMPLE_IP)
		TAKE(s->ip = v);
	if (st & PM_SAMPLE_TID)
		TAKE((s->pid = (uint32_t)v, s->tid = (uint32_t)(v >> 32)));
	if (st & PM_SAMPLE_TIME)
		TAKE((s->time = v, s->has_time = true));
	if (st & PM_SAMPLE_ADDR)
		TAKE((void)v);
	if (st & PM_SAMPLE_ID)
		TAKE((s->id = v, s->has_id = true));
	if (st & PM_SAMPLE_STREAM_ID)
		TAKE((void)v);
	if (st & PM_SAMPLE_CPU)
		TAKE(s->cpu = (uint32_t)v);
#undef TAKE
	return true;
}

/* The trailer's time of a non-sample record (0 if none). */
static uint64_t trailer_time(const struct pm_recorder *r, const uint8_t *rec, size_t size)
{
	uint64_t st = r->sample_type0, t = 0;
	size_t n = 0, k;

	if (!pm_attr__flag(&r->ev[0].open, PM_ATTR_SAMPLE_ID_ALL) || !(st & PM_SAMPLE_TIME))
		return 0;
	/* TID TIME ID STREAM_ID CPU IDENTIFIER, from the end */
	k = !!(st & PM_SAMPLE_IDENTIFIER) + !!(st & PM_SAMPLE_CPU) +
	    !!(st & PM_SAMPLE_STREAM_ID) + !!(st & PM_SAMPLE_ID);
	n = k + 1;
	if (size < 8 + n * 8)
		return 0;
	memcpy(&t, rec + size - n * 8, 8);
	return t;
}

static void track_time(struct pm_recorder *r, uint64_t t)
{
	if (!r->have_time || t < r->first_time)
		r->first_time = t;
	if (!r->have_time || t > r->last_time)
		r->last_time = t;
	r->have_time = true;
}

static int handle_sample(struct pm_recorder *r, const struct perf_event_header *h,
			 size_t size, struct pm_error *err)
{
	const uint8_t *b = (const uint8_t *)h + sizeof(*h);
	size_t blen = size - sizeof(*h);
	struct instance *in = NULL;
	struct mini s;
	bool parsed;
	int ret;

	parsed = parse_mini(b, blen, r->sample_type0, &s);
	if (parsed && s.has_id)
		in = by_id(r, s.id);
	if (in && r->ev[in->ev].open.sample_type != r->sample_type0)
		parsed = parse_mini(b, blen, r->ev[in->ev].open.sample_type, &s);
	if (!parsed || !in || !r->ev[in->ev].burst)
		in = NULL;
	/* a long phase's sample only says that it is over: not written */
	if (!in || in->burst.phase != PM_BURST_LONG) {
		ret = pm_writer__raw(r->w, h, size, err);
		if (ret)
			return ret;
		r->st.records++;
		r->st.samples++;
		r->round_dirty = true;
		if (parsed && s.has_time)
			track_time(r, s.time);
		if (parsed)
			pm_hits__hit(r->hits, s.pid, s.ip, h->misc & PM_MISC_CPUMODE_MASK);
	}
	if (!in)
		return 0;
	in->pid_last = s.pid;
	in->tid_last = s.tid;
	in->cpu_last = s.cpu;
	return burst_sample(r, in, s.time, err);
}

static int handle_record(struct pm_recorder *r, const struct perf_event_header *h,
			 size_t size, struct pm_error *err)
{
	const uint8_t *p = (const uint8_t *)h, *b = p + sizeof(*h);
	size_t blen = size - sizeof(*h);
	int ret;

	if (h->type == PERF_RECORD_SAMPLE)
		return handle_sample(r, h, size, err);
	ret = pm_writer__raw(r->w, h, size, err);
	if (ret)
		return ret;
	r->st.records++;
	r->round_dirty = true;
	switch (h->type) {
	case PERF_RECORD_MMAP:
		if (blen >= 33)
			pm_hits__mmap(r->hits, pm_load32(b, false), pm_load64(b + 8, false),
				      pm_load64(b + 16, false), (const char *)b + 32);
		break;
	case PERF_RECORD_MMAP2:
		if (blen >= 65)
			pm_hits__mmap(r->hits, pm_load32(b, false), pm_load64(b + 8, false),
				      pm_load64(b + 16, false), (const char *)b + 64);
		break;
	case PERF_RECORD_COMM:
		if ((h->misc & PM_MISC_COMM_EXEC) && blen >= 8)
			pm_hits__exec(r->hits, pm_load32(b, false));
		break;
	case PERF_RECORD_FORK:
		if (blen >= 16)
			pm_hits__fork(r->hits, pm_load32(b, false), pm_load32(b + 4, false));
		break;
	case PERF_RECORD_LOST:
		if (blen >= 16) {
			uint64_t id = pm_load64(b, false), n = pm_load64(b + 8, false);
			struct instance *in = by_id(r, id);

			r->st.lost += n;
			r->st.lost_records++;
			/* the kernel still stops the phase after its
			 * overflows; we just did not see them all. (Should
			 * it not have ended yet, the re-arm's REFRESH adds to
			 * what it had left: a longer phase, nothing lost.) */
			if (in && r->ev[in->ev].burst) {
				enum pm_burst_phase was = pm_burst__stopped(&in->burst);
				uint64_t t = trailer_time(r, p, size);

				if (was != PM_BURST_IDLE)
					return phase_over(r, in, was, t ? t + 1 : now_ns(r), err);
			}
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (blen >= 8)
			r->st.lost += pm_load64(b, false);
		break;
	case PERF_RECORD_THROTTLE:
		r->st.throttles++;
		break;
	case PERF_RECORD_UNTHROTTLE:
		r->st.unthrottles++;
		break;
	default:
		break;
	}
	return 0;
}

static int drain(struct pm_recorder *r, struct pm_error *err)
{
	int i, ret = 0;

	for (i = 0; i < r->nr_rings && !ret; i++) {
		struct pm_ring *rb = &r->rings[i];
		const struct perf_event_header *h;
		size_t size;

		pm_ring__begin(rb);
		while (!ret && (h = pm_ring__next(rb, &size)))
			ret = handle_record(r, h, size, err);
		pm_ring__end(rb);
	}
	if (!ret && r->round_dirty) {
		ret = pm_writer__finished_round(r->w, err);
		r->round_dirty = false;
	}
	/* on disk as it comes: a killed recorder loses no drained data */
	if (!ret)
		ret = pm_writer__flush(r->w, err);
	r->st.bytes = pm_writer__offset(r->w);
	return ret;
}

/* ---- the API ---- */

/*
 * The output file up to the first ring record: header, attrs, features,
 * tracing data, id index, the kernel's and the targets' maps. Again (a
 * --switch-output file) also synthesizes the running workload, whose
 * exec the new file did not see.
 */
static int open_output(struct pm_recorder *r, const struct pm_writer_opts *wo, bool again,
		       struct pm_error *err)
{
	struct pm_outfile_opts fo = { .sz = sizeof(fo), .keep_old = !again };
	int ret;

	/* the file: PATH.PID.partial until close_output renames it (outfile.h) */
	ret = pm_outfile__open(&r->file, r->output, &fo, err);
	if (ret)
		return ret;
	ret = pm_writer__open_fd(&r->w, pm_outfile__fd(r->file), pm_outfile__name(r->file), wo, err);
	if (ret)
		return ret;
	if ((ret = write_events(r, err)))
		return ret;
	if ((ret = pm_synth__system_features(r->w, err)))
		return ret;
	if ((ret = write_tracing_data(r, err)))
		return ret;
	if (r->o.cmdline_argc &&
	    (ret = pm_writer__set_cmdline(r->w, r->o.cmdline_argc, r->o.cmdline_argv, err)))
		return ret;
	{
		struct timespec res = { 0, 1 };

		clock_getres(r->clockid, &res);
		ret = pm_writer__set_clockid(r->w, (uint64_t)res.tv_sec * 1000000000ULL +
					     (uint64_t)res.tv_nsec, err);
		if (ret)
			return ret;
	}
	if ((ret = write_id_index(r, err)))
		return ret;
	if ((ret = pm_synth__kernel_mmap(r->w, &r->ktext, err)))
		return ret;
	if (r->o.system_wide || r->o.cpu_list) {
		ret = pm_synth__all(r->w, r->hits, err);
	} else if (again && r->child > 0 && !r->st.workload_exited) {
		/* a new file (--switch-output): the workload as it is now */
		ret = pm_synth__process(r->w, r->hits, (int)r->child, err);
	} else if (r->o.pid_list || r->o.tid_list) {
		int i, last = -1;

		for (i = 0; i < r->nr_threads && !ret; i++) {
			char path[64], line[128];
			FILE *f;
			int tgid = r->threads[i];

			snprintf(path, sizeof(path), "/proc/%d/status", r->threads[i]);
			f = fopen(path, "r");
			if (f) {
				while (fgets(line, sizeof(line), f))
					if (sscanf(line, "Tgid: %d", &tgid) == 1)
						break;
				fclose(f);
			}
			if (tgid != last)
				ret = pm_synth__process(r->w, r->hits, tgid, err);
			last = tgid;
		}
	}
	if (ret)
		return ret;
	r->have_time = false;
	/* -z: what the rings bring from now on, as perf compresses it */
	if (r->o.compression_level &&
	    (ret = pm_writer__set_compression(r->w, r->o.compression_level,
					      (r->pages + 1) * (uint32_t)sysconf(_SC_PAGESIZE), err)))
		return ret;
	return pm_writer__flush(r->w, err);
}

int pm_recorder__new(struct pm_recorder **out, const struct pm_record_opts *o,
		   struct pm_error *err)
{
	struct pm_recorder *r = pm_zalloc(sizeof(*r));
	struct pm_writer_opts wo = { .sz = sizeof(wo) };
	bool per_cpu = o->system_wide || o->cpu_list;
	bool pipe_out;
	int ret;

	*out = NULL;
	r->o = *o;
	r->child = -1;
	r->go_fd = r->err_fd = r->cgroup_fd = -1;
	r->output = pm_strdup(o->output ? o->output : "perf.data");
	pipe_out = r->pipe_out = !strcmp(r->output, "-");
	r->hits = pm_hits__new();
	r->workload_only = o->argv && !per_cpu && !o->pid_list && !o->tid_list;
	{
		char root[256];

		if (geteuid() == 0 && !find_cgroup2(root, sizeof(root)))
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
	r->pages = o->mmap_pages ? o->mmap_pages : DEFAULT_PAGES;
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
	ret = choose_mode(r, err);
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
		ret = add_threads_of(r, o->pid_list ? o->pid_list : o->tid_list,
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
		ret = fork_workload(r, err);
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
					if (!make_cgroup(r, why, sizeof(why)))
						r->st.scope = PM_BURST_SCOPE_CGROUP;
					else
						note(r, "burst: %s: only its first thread is recorded, "
						     "per thread without inherit", why);
				}
			}
		}
	}
	configure_events(r);
	ret = open_all(r, err);
	if (ret == -EINVAL && fall_back_to_no_inherit(r)) {
		close_all(r);
		ret = open_all(r, err);
	}
	if ((ret == -EACCES || ret == -EPERM) && fall_back_to_user(r)) {
		close_all(r);
		ret = open_all(r, err);
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
	ret = open_output(r, &wo, false, err);
	if (ret)
		goto fail;
	r->st.bytes = pm_writer__offset(r->w);
	*out = r;
	return 0;
fail:
	pm_recorder__delete(r);
	return ret;
}

/* Every burst leader's first phase: a long one, as the kernel ABI's
 * first period is. */
static int arm_bursts(struct pm_recorder *r, struct pm_error *err)
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
	if (!r->enable_at || clock_ns(CLOCK_MONOTONIC) < r->enable_at)
		return 0;
	r->enable_at = 0;
	enable_leaders(r, false);
	return arm_bursts(r, err);
}

int pm_recorder__start(struct pm_recorder *r, struct pm_error *err)
{
	int ret;

	r->started = true;
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
	if (!r->o.delay_ms && (ret = arm_bursts(r, err)))
		return ret;
	if (r->child > 0) {
		int e = 0;
		ssize_t n;

		if (write(r->go_fd, "g", 1) != 1)
			return pm_error__fmt(err, -errno, "cannot release the workload: %s",
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
			return pm_error__fmt(err, -e, "cannot run '%s': %s", r->o.argv[0],
					     strerror(e));
		}
	}
	/* -D counts from the program's start, as perf's */
	if (r->o.delay_ms)
		r->enable_at = clock_ns(CLOCK_MONOTONIC) + (uint64_t)r->o.delay_ms * 1000000ULL;
	return 0;
}

static void fill_buildid_cache(struct pm_recorder *r);

/* The end of one output file: sample times, build ids (and the cache),
 * the features and the header. */
static int close_output(struct pm_recorder *r, struct pm_error *err)
{
	int ret;

	if (r->have_time && !pm_writer__is_pipe(r->w))
		pm_writer__set_sample_time(r->w, r->first_time, r->last_time, NULL);
	if (!pm_writer__is_pipe(r->w)) {
		ret = pm_hits__write_build_ids(r->hits, r->w, err);
		if (ret)
			return ret;
	}
	if (r->o.buildid_dir)
		fill_buildid_cache(r);
	r->st.bytes = pm_writer__offset(r->w);
	ret = pm_writer__close(r->w, err);	/* the fd stays r->file's */
	r->w = NULL;
	if (!ret) {
		struct stat sb;

		ret = pm_outfile__commit(r->file, err);
		r->file = NULL;
		if (!ret && !r->pipe_out && !stat(r->output, &sb))
			r->st.bytes = (uint64_t)sb.st_size;
	}
	return ret;
}

int pm_recorder__switch_output(struct pm_recorder *r, const char *rename_to,
			       struct pm_error *err)
{
	int ret;

	if (r->finished || !r->w || pm_writer__is_pipe(r->w))
		return pm_error__fmt(err, PM_EUSAGE, "--switch-output: no file to switch");
	ret = drain(r, err);
	if (!ret)
		ret = close_output(r, err);
	if (ret)
		return ret;
	r->st.total_bytes += r->st.bytes;
	if (rename(r->output, rename_to))
		return pm_error__fmt(err, -errno, "%s: cannot rename to %s: %s", r->output,
				     rename_to, strerror(errno));
	/* the new file's BUILD_ID lists what its own samples hit */
	pm_hits__clear_hits(r->hits);
	ret = open_output(r, &r->wo, true, err);
	if (ret)
		return ret;
	r->st.switches++;
	r->st.bytes = pm_writer__offset(r->w);
	return 0;
}

/* The files behind the samples, into the build-id cache: a recording
 * keeps its symbols after the program is rebuilt. Failures only warn. */
static void fill_buildid_cache(struct pm_recorder *r)
{
	struct pm_build_id_entry *v;
	size_t n = pm_hits__build_ids(r->hits, &v), i;

	for (i = 0; i < n; i++) {
		struct pm_error e;

		if (pm_buildid_cache__add(r->o.buildid_dir, v[i].filename, NULL, v[i].build_id,
					  v[i].size, &e) < 0)
			note(r, "build-id cache %s: %s", r->o.buildid_dir, e.msg);
	}
	free(v);
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
	r->stop_ns = clock_ns(CLOCK_MONOTONIC);
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
		uint64_t now = clock_ns(CLOCK_MONOTONIC);
		uint64_t left = r->enable_at > now ? r->enable_at - now : 0;

		if (left < wait_ns)
			wait_ns = left;
	}
	ts.tv_sec = (time_t)(wait_ns / 1000000000ULL);
	ts.tv_nsec = (long)(wait_ns % 1000000000ULL);
	n = ppoll(r->pfd, (nfds_t)r->nr_rings, &ts, NULL);
	if (n < 0 && errno != EINTR)
		return pm_error__fmt(err, -errno, "poll: %s", strerror(errno));
	if (n > 0)
		r->st.wakeups++;
	for (i = 0; i < r->nr_rings; i++) {
		/* a per-thread event whose task is gone: stop polling it */
		if (r->pfd[i].revents & (POLLHUP | POLLERR))
			r->pfd[i].fd = -1;
		if (r->pfd[i].fd >= 0)
			live++;
	}
	ret = drain(r, err);
	if (ret)
		return ret;
	reap(r);
	if (r->child > 0) {
		if (r->st.workload_exited)
			r->done = true;
		else if (r->stopping && clock_ns(CLOCK_MONOTONIC) - r->stop_ns > STOP_GRACE_NS)
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
	uint64_t t0 = clock_ns(CLOCK_MONOTONIC);
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
		if (!killed && clock_ns(CLOCK_MONOTONIC) - t0 > STOP_GRACE_NS) {
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
	ret = drain(r, err);
	if (ret)
		goto out;
	/* a burst cut short by the end still gets its closing mark */
	for (i = 0; i < r->nr_inst; i++) {
		struct instance *in = &r->inst[i];

		if (r->ev[in->ev].burst && in->burst.phase == PM_BURST_SHORT && in->burst.seen) {
			pm_burst__stopped(&in->burst);
			ret = write_burst_mark(r, in, PM_RECORD_THROTTLE, in->t_last + 1, err);
			if (ret)
				goto out;
		}
	}
	ret = close_output(r, err);
out:
	if (ret)
		keep_partial(r);
	end_workload(r);
	remove_cgroup(r);
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
	close_all(r);
	remove_cgroup(r);
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
	free(r);
}
