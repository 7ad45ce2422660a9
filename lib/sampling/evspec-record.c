// SPDX-License-Identifier: GPL-2.0
/*
 * What `perf record` (6.1) adds to the parsed events before opening them:
 * the equivalent of evsel__config() for each event, then evlist__config()'s
 * sample-id decision. The rules were read off `perf record -vv` on this
 * machine; evspec.h lists them.
 */
#include <string.h>

#include "pmprof/evspec.h"
#include "pmprof/util.h"

static void set(struct pm_attr *a, unsigned int bit, bool on)
{
	pm_attr__set_flag(a, bit, on);
}

static void config_callchain(struct pm_evspec_event *ev, bool tracking,
			     const struct pm_record_defaults *rd)
{
	struct pm_attr *a = &ev->attr;
	enum pm_callgraph_mode mode = rd->callgraph;
	uint32_t max_stack = rd->max_stack, dump = rd->dump_size;

	if (ev->terms & PM_EVSPEC_T_CALLGRAPH)
		mode = ev->callgraph;
	if (ev->terms & PM_EVSPEC_T_STACK_SIZE)
		dump = ev->stack_size;
	if (ev->terms & PM_EVSPEC_T_MAX_STACK)
		max_stack = ev->max_stack;
	if (mode == PM_CALLGRAPH_UNSET || mode == PM_CALLGRAPH_NONE)
		return;
	a->sample_type |= PM_SAMPLE_CALLCHAIN;
	if (max_stack)
		a->sample_max_stack = (uint16_t)max_stack;
	if (mode == PM_CALLGRAPH_DWARF) {
		/* As perf 6.1 prints it on x86_64: the user registers and
		 * stack, and ADDR/DATA_SRC with mmap_data on the tracking
		 * event. (The registers are the host's: an arm64 host's
		 * unwinder needs its sp, pc and x29/x30.) */
		a->sample_type |= PM_SAMPLE_ADDR | PM_SAMPLE_REGS_USER |
				  PM_SAMPLE_STACK_USER | PM_SAMPLE_DATA_SRC;
		a->sample_regs_user = PM_RECORD_DWARF_REGS;
		a->sample_stack_user = dump ? dump : PM_RECORD_DEFAULT_DUMP_SIZE;
		set(a, PM_ATTR_EXCLUDE_CALLCHAIN_USER, true);
		if (tracking)
			set(a, PM_ATTR_MMAP_DATA, true);
	}
}

static void set_tracking(struct pm_attr *a, const struct pm_record_defaults *rd)
{
	set(a, PM_ATTR_MMAP, true);
	set(a, PM_ATTR_COMM, true);
	set(a, PM_ATTR_TASK, true);
	set(a, PM_ATTR_MMAP2, true);
	set(a, PM_ATTR_COMM_EXEC, true);
	set(a, PM_ATTR_KSYMBOL, true);
	set(a, PM_ATTR_BPF_EVENT, true);
	if (rd->sample_addr)
		set(a, PM_ATTR_MMAP_DATA, true);
}

/*
 * -D: perf's dummy tracking event. It counts nothing (a software event
 * that never occurs) and takes every record option like any event; it
 * carries the side-band records while the real events wait for the delay.
 */
static void push_dummy(struct pm_evspec_list *list)
{
	struct pm_evspec_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.attr.size = PM_EVSPEC_ATTR_SIZE;
	ev.attr.type = 1;
	ev.attr.config = 9;	/* PERF_COUNT_SW_DUMMY */
	ev.name = pm_strdup("dummy");
	ev.group_leader = (int)list->nr;
	ev.nr_members = 1;
	ev.tracking_dummy = true;
	PM_GROW(list->ev, list->alloc, list->nr + 1);
	list->ev[list->nr++] = ev;
}

static int config_one(struct pm_evspec_list *list, size_t i,
		      const struct pm_record_defaults *rd, struct pm_error *err)
{
	struct pm_evspec_event *ev = &list->ev[i];
	const struct pm_evspec_event *leader = &list->ev[ev->group_leader];
	struct pm_attr *a = &ev->attr;
	bool is_leader = (size_t)ev->group_leader == i;
	bool tracking = rd->delay ? ev->tracking_dummy : i == 0;

	a->sample_type = PM_SAMPLE_IP | PM_SAMPLE_TID | PM_SAMPLE_TIME;
	if (ev->tracepoint)
		a->sample_type |= PM_SAMPLE_RAW | PM_SAMPLE_CPU | PM_SAMPLE_PERIOD;
	a->read_format = PM_FORMAT_ID | PM_FORMAT_LOST;
	set(a, PM_ATTR_SAMPLE_ID_ALL, true);
	set(a, PM_ATTR_INHERIT, !rd->no_inherit);
	if (rd->inherit_stat) {
		/* perf record -s: the READ records say how long each
		 * thread's counter ran, as a read() would */
		a->read_format |= PM_FORMAT_TOTAL_TIME_ENABLED |
				  PM_FORMAT_TOTAL_TIME_RUNNING;
		set(a, PM_ATTR_INHERIT_STAT, true);
	}
	set(a, PM_ATTR_DISABLED, is_leader);
	/* -D: enabled by the recorder once the delay has passed */
	set(a, PM_ATTR_ENABLE_ON_EXEC, is_leader && (!rd->delay || ev->tracking_dummy));
	if (tracking)
		set_tracking(a, rd);

	/* Period: -c, else frequency (-F or 4000 Hz); tracepoints default
	 * to a period of 1 unless -c/-F was given, and so does -D's dummy. */
	set(a, PM_ATTR_FREQ, false);
	if (rd->period) {
		a->sample_period = rd->period;
	} else if ((ev->tracepoint || ev->tracking_dummy) && !rd->freq) {
		a->sample_period = 1;
	} else {
		set(a, PM_ATTR_FREQ, true);
		a->sample_period = rd->freq ? rd->freq :
				   rd->default_freq ? rd->default_freq : PM_RECORD_DEFAULT_FREQ;
	}
	if (pm_attr__flag(a, PM_ATTR_FREQ))
		a->sample_type |= PM_SAMPLE_PERIOD;
	if (rd->sample_cpu)
		a->sample_type |= PM_SAMPLE_CPU;
	if (rd->timestamp)
		a->sample_type |= PM_SAMPLE_TIME;
	if (rd->raw_samples)
		a->sample_type |= PM_SAMPLE_TIME | PM_SAMPLE_RAW | PM_SAMPLE_CPU;
	if (rd->sample_addr)
		a->sample_type |= PM_SAMPLE_ADDR | PM_SAMPLE_DATA_SRC;
	if (rd->weight)
		a->sample_type |= PM_SAMPLE_WEIGHT_STRUCT;
	if (rd->branch_stack) {
		a->sample_type |= PM_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = rd->branch_stack;
	}
	config_callchain(ev, tracking, rd);

	if (ev->sample_read) {
		a->sample_type |= PM_SAMPLE_READ | PM_SAMPLE_ID;
		if (leader->nr_members > 1) {
			a->read_format |= PM_FORMAT_GROUP;
			set(a, PM_ATTR_INHERIT, false);
			ev->inherit_read = !rd->no_inherit;
		}
	}
	/* The string's own period/freq terms come last and win. */
	if ((ev->terms & PM_EVSPEC_T_PERIOD) && !(ev->terms & PM_EVSPEC_T_FREQ)) {
		a->sample_period = ev->term_period;
		set(a, PM_ATTR_FREQ, false);
		a->sample_type &= ~(uint64_t)PM_SAMPLE_PERIOD;
	}
	if (ev->terms & PM_EVSPEC_T_FREQ) {
		a->sample_period = ev->term_freq;
		set(a, PM_ATTR_FREQ, true);
		a->sample_type |= PM_SAMPLE_PERIOD;
	}
	/* Leader sampling: members without their own period or freq term
	 * only count, and take the leader's sample_type (perf's
	 * evsel__config_leader_sampling; the leader is configured first). */
	if (!is_leader && leader->sample_read) {
		if (!(ev->terms & (PM_EVSPEC_T_PERIOD | PM_EVSPEC_T_FREQ))) {
			set(a, PM_ATTR_FREQ, false);
			a->sample_period = 0;
			if (ev->terms & PM_EVSPEC_T_HF)
				return pm_error__at(err, PM_EUSAGE, ev->pos,
						    "event '%s': hf terms on a member of a :S group, which does not sample",
						    ev->name);
		}
		a->sample_type = leader->attr.sample_type;
	}
	if ((ev->terms & PM_EVSPEC_T_HF) && !pm_attr__flag(a, PM_ATTR_FREQ)) {
		uint64_t hf = (uint64_t)a->hf_sample_period * ev->hf_burst;

		if (!a->sample_period || hf >= a->sample_period)
			return pm_error__at(err, PM_EUSAGE, ev->pos,
					    "event '%s': hf-period (%u) x hf-burst (%u) must be below the period (%llu)",
					    ev->name, a->hf_sample_period, ev->hf_burst,
					    (unsigned long long)a->sample_period);
	}
	return 0;
}

/* Intel's slots event (event 0x00, umask 0x04 of a core PMU). */
static bool is_slots(const struct pm_evspec_event *ev)
{
	const char *n = ev->name ? ev->name : "";

	return (ev->attr.config & 0xffff) == 0x0400 && ev->attr.type != PM_TYPE_HARDWARE &&
	       ev->attr.type != PM_TYPE_SOFTWARE && strstr(n, "slots");
}

/*
 * A :S group that Intel's slots event leads: the kernel wants slots to
 * lead the top-down metric events and refuses it as their sampling
 * event, so the second event samples for the group (perf's
 * arch_topdown_sample_read): it takes the period slots would have had,
 * unless it has its own, and slots only counts.
 */
static void slots_group_sampler(struct pm_evspec_list *list)
{
	size_t i;

	for (i = 0; i + 1 < list->nr; i++) {
		struct pm_evspec_event *l = &list->ev[i], *s = &list->ev[i + 1];

		if (l->group_leader != (int)i || l->nr_members < 2 || !l->sample_read ||
		    !is_slots(l))
			continue;
		if (!(s->terms & (PM_EVSPEC_T_PERIOD | PM_EVSPEC_T_FREQ))) {
			s->attr.sample_period = l->attr.sample_period;
			pm_attr__set_flag(&s->attr, PM_ATTR_FREQ,
					  pm_attr__flag(&l->attr, PM_ATTR_FREQ));
		}
		l->attr.sample_period = 0;
		pm_attr__set_flag(&l->attr, PM_ATTR_FREQ, false);
	}
}

int pm_evspec__apply_record(struct pm_evspec_list *list,
			    const struct pm_record_defaults *rd,
			    struct pm_error *err)
{
	struct pm_record_defaults none;
	size_t i;
	int ret;

	if (!rd) {
		memset(&none, 0, sizeof(none));
		rd = &none;
	}
	if (rd->delay && list->nr && !list->ev[list->nr - 1].tracking_dummy)
		push_dummy(list);
	for (i = 0; i < list->nr; i++)
		if ((ret = config_one(list, i, rd, err)))
			return ret;
	slots_group_sampler(list);
	/* More than one event: samples need an id; IDENTIFIER (at a fixed
	 * place) when the sample layouts differ. */
	if (list->nr > 1 || rd->sample_identifier) {
		bool differ = rd->sample_identifier;

		for (i = 1; i < list->nr; i++)
			if (list->ev[i].attr.sample_type != list->ev[0].attr.sample_type)
				differ = true;
		for (i = 0; i < list->nr; i++) {
			struct pm_attr *a = &list->ev[i].attr;

			if (differ) {
				a->sample_type &= ~(uint64_t)PM_SAMPLE_ID;
				a->sample_type |= PM_SAMPLE_IDENTIFIER;
			} else {
				a->sample_type |= PM_SAMPLE_ID;
			}
			a->read_format |= PM_FORMAT_ID;
		}
	}
	return 0;
}
