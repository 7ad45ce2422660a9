// SPDX-License-Identifier: GPL-2.0
/*
 * record --dry-run: the attrs and the sampling plan (the first windows of
 * each event, from the period model), without opening anything.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "record-plan.h"
#include "pmprof/attr_print.h"
#include "pmprof/json.h"
#include "pmprof/period.h"
#include "pmprof/strbuf.h"

/* ---- the sampling plan ---- */

struct window {
	uint64_t period;
	enum pm_window_kind kind;
	bool throttle, unthrottle_before;
};

/* A window that just ended; an UNTHROTTLE seen since the last one goes
 * before it. */
static void add_window(struct window *w, const struct pm_overflow *ov,
		       bool *unthrottled)
{
	w->period = ov->period;
	w->kind = ov->kind;
	w->throttle = ov->throttle;
	w->unthrottle_before = *unthrottled;
	*unthrottled = false;
}

/*
 * The first n windows of an event as the model runs them, counting one
 * event per nanosecond (a 1 GHz cycle counter) so that frequency mode and
 * throttling have a clock.
 */
static int plan_windows(const struct pm_evspec_event *ev, uint64_t seed,
			struct window *w, int n)
{
	struct pm_period_config cfg;
	struct pm_period m;
	uint64_t t = 0, tick_ns, next_tick;
	bool unthr = false;
	int k = 0;

	pm_period_config__from_attr(&cfg, &ev->attr, ev->hf_burst, ev->hf_jitter);
	cfg.seed = seed;
	if (pm_period_config__validate(&cfg, NULL))
		return 0;
	pm_period__init(&m, &cfg);
	tick_ns = 1000000000ULL / m.cfg.hz;
	next_tick = tick_ns;
	while (k < n) {
		uint64_t left = pm_period__left(&m);

		if (left >= next_tick - t) {
			uint64_t ev_n = next_tick - t;
			struct pm_overflow ov;
			struct pm_tick tk;

			/* A window ends at the tick only if exactly ev_n events
			 * were left; otherwise left > ev_n, or the event is
			 * stopped and nothing counts. */
			bool overflows = left == ev_n;

			pm_period__count(&m, &ev_n, next_tick, &ov);
			if (overflows)
				add_window(&w[k++], &ov, &unthr);
			t = next_tick;
			next_tick += tick_ns;
			pm_period__tick(&m, t, &tk);
			unthr |= tk.unthrottle;
			continue;
		} else {
			struct pm_overflow ov;
			uint64_t e = left;

			t += left;
			pm_period__count(&m, &e, t, &ov);
			add_window(&w[k++], &ov, &unthr);
		}
	}
	return k;
}

static bool samples(const struct pm_evspec_list *l, size_t i)
{
	const struct pm_evspec_event *ev = &l->ev[i];

	return ev->attr.sample_period != 0;
}

/* ---- output ---- */

/* The attr as the recording opens it: strobe mode moves the short period
 * into the PMU's strobe field. */
static struct pm_attr opened_attr(const struct pm_evspec_event *ev,
				  const struct pm_hf_plan *plan)
{
	struct pm_attr a = ev->attr;

	if (plan->mode == PM_HF_STROBE && a.hf_sample_period)
		pm_hf_plan__strobe_attr(plan, &a, NULL);
	return a;
}

void pm_record_plan__json(const struct pm_evspec_list *l, int nplan, uint64_t seed,
			  const struct pm_hf_plan *plan)
{
	struct pm_json j;
	struct window *w = calloc((size_t)nplan + 1, sizeof(*w));
	size_t i, k;

	pm_json__init(&j, stdout);
	pm_json__begin_array(&j);
	for (i = 0; i < l->nr; i++) {
		const struct pm_evspec_event *ev = &l->ev[i];
		int nw = samples(l, i) ? plan_windows(ev, seed, w, nplan) : 0;

		pm_json__begin_object(&j);
		pm_json__kv_u64(&j, "index", i);
		pm_json__kv_string(&j, "name", ev->name);
		struct pm_attr a = opened_attr(ev, plan);

		pm_json__kv_u64(&j, "group_leader", (uint64_t)ev->group_leader);
		if (ev->attr.hf_sample_period)
			pm_json__kv_string(&j, "hf_mode", pm_hf_mode__name(plan->mode));
		pm_attr__json_fields(&j, &a);
		pm_json__kv_u64(&j, "hf_burst", ev->hf_burst);
		pm_json__kv_u64(&j, "hf_jitter", ev->hf_jitter);
		pm_json__key(&j, "plan");
		pm_json__begin_array(&j);
		for (k = 0; k < (size_t)nw; k++) {
			pm_json__begin_object(&j);
			pm_json__kv_string(&j, "kind", pm_window_kind_name(w[k].kind));
			pm_json__kv_u64(&j, "period", w[k].period);
			if (w[k].throttle)
				pm_json__kv_bool(&j, "throttle", true);
			if (w[k].unthrottle_before)
				pm_json__kv_bool(&j, "unthrottle_before", true);
			pm_json__end_object(&j);
		}
		pm_json__end_array(&j);
		pm_json__end_object(&j);
	}
	pm_json__end_array(&j);
	putchar('\n');
	free(w);
}

void pm_record_plan__text(const struct pm_evspec_list *l, int nplan, uint64_t seed,
			  const struct pm_hf_plan *plan)
{
	struct pm_attr_field f[PM_ATTR_MAX_FIELDS];
	struct pm_strbuf sb = PM_STRBUF_INIT;
	struct window *w = calloc((size_t)nplan + 1, sizeof(*w));
	size_t i, k, n;

	if (plan->note[0])
		printf("%s\n", plan->note);
	else if (plan->mode != PM_HF_NONE)
		printf("hf mode: %s\n", pm_hf_mode__name(plan->mode));
	for (i = 0; i < l->nr; i++) {
		const struct pm_evspec_event *ev = &l->ev[i];
		struct pm_attr a = opened_attr(ev, plan);
		bool freq = pm_attr__flag(&ev->attr, PM_ATTR_FREQ);
		int nw = samples(l, i) ? plan_windows(ev, seed, w, nplan) : 0;

		printf("event %zu: %s (group leader %d)\n", i, ev->name, ev->group_leader);
		n = pm_attr__fields(&a, f);
		for (k = 0; k < n; k++) {
			if (!f[k].value)
				continue;
			pm_strbuf__reset(&sb);
			if (f[k].kind == PM_AF_SAMPLE_TYPE)
				pm_sample_type__str(&sb, f[k].value);
			else if (f[k].kind == PM_AF_READ_FORMAT)
				pm_read_format__str(&sb, f[k].value);
			else if (f[k].kind == PM_AF_HEX)
				pm_strbuf__addf(&sb, "%#" PRIx64, f[k].value);
			else if (f[k].kind == PM_AF_SIGNED)
				pm_strbuf__addf(&sb, "%" PRId64, (int64_t)f[k].value);
			else
				pm_strbuf__addf(&sb, "%" PRIu64, f[k].value);
			printf("  %-32s %s\n", f[k].name, pm_strbuf__str(&sb));
		}
		if (ev->hf_burst)
			printf("  %-32s %u\n", "hf_burst", ev->hf_burst);
		if (ev->hf_jitter)
			printf("  %-32s %u\n", "hf_jitter", ev->hf_jitter);
		if (!nw) {
			printf("  plan: does not sample (counted in its leader's samples)\n");
			continue;
		}
		printf("  plan%s:", freq ? " (frequency mode, 1 GHz event rate assumed)" : "");
		for (k = 0; k < (size_t)nw; k++)
			printf("%s%s %" PRIu64 " %s%s", k ? "," : "",
			       w[k].unthrottle_before ? " UNTHROTTLE," : "",
			       w[k].period, pm_window_kind_name(w[k].kind),
			       w[k].throttle ? " THROTTLE" : "");
		putchar('\n');
	}
	pm_strbuf__release(&sb);
	free(w);
}


int pm_record_plan__print(const struct pm_evspec_list *l, int plan, uint64_t seed,
			  const char *hf_mode, const char *sysfs, bool json)
{
	struct pm_hf_env env = { .sysfs_root = sysfs, .probe_kernel = !sysfs };
	enum pm_hf_mode want = PM_HF_AUTO;
	struct pm_hf_plan hf;
	struct pm_error err;

	if (hf_mode && pm_hf_mode__parse(hf_mode, &want))
		return pm_cli_errorf(PM_EXIT_USAGE, "--hf-mode", "unknown mode '%s' (auto, "
				     "kernel, strobe, burst, fixed or off)", hf_mode);
	if (pm_hf_mode__plan(l, want, &env, &hf, &err))
		return pm_cli_errorf(PM_EXIT_USAGE, NULL, "%s", err.msg);
	if (json)
		pm_record_plan__json(l, plan, seed, &hf);
	else
		pm_record_plan__text(l, plan, seed, &hf);
	return 0;
}
