// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's events: which hf mode a recording gets (the kernel's ABI,
 * the burst emulation, fixed short periods) and the attrs every event is
 * opened with and written to the file with in that mode.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder.h"
#include "pmprof/hfprobe.h"
#include "pmprof/util.h"

/* "cpu-clock/period=1000000,hf-period=10000/" -> "cpu-clock/period=1000000/" */
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

static bool is_time_event(const struct pm_attr *a)
{
	return a->type == 1 && (a->config == 0 || a->config == 1);
}

int pm_rec_events__choose_mode(struct pm_recorder *r, struct pm_error *err)
{
	struct pm_hf_env env = { .sysfs_root = r->o.sysfs_root, .probe_kernel = true };
	int ret = pm_hf_mode__plan(r->o.events, r->o.hf_mode, &env, &r->hf, err);

	if (ret)
		return ret;
	r->st.mode = r->hf.mode;
	if (r->hf.note[0])
		pm_rec__note(r, "%s", r->hf.note);
	return 0;
}

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

void pm_rec_events__configure(struct pm_recorder *r)
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
			 * 6.12 and later record it (open.c falls back) */
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
		if (re->hf && mode == PM_HF_STROBE) {
			/* the kernel alternates the two periods; the file says
			 * the total, the name the hf terms (as burst mode) */
			a->hf_sample_period = e->attr.hf_sample_period;
			pm_hf_plan__strobe_attr(&r->hf, a, NULL);
			re->file = *a;
			re->file.sample_period = e->attr.sample_period;
		}
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
			 * must be armed: wake us at every sample, or at the
			 * end of each cycle (burst.c's quiet wakeups) */
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
	if (burst)
		pm_rec_burst__configure_wakeups(r);
	r->sample_type0 = r->ev[0].open.sample_type;
}
