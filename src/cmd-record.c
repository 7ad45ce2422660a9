// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof record: for now only --dry-run, which parses the events as perf
 * record would configure them and prints the attrs and the sampling plan
 * (the first windows of each event, from the model) without opening
 * anything. The recorder proper builds on record_prepare(): options are
 * parsed into struct record_cli, events into a pm_evspec_list.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/evspec.h"
#include "pmprof/json.h"
#include "pmprof/period.h"

struct record_cli {
	struct pm_opt_list events;	/* -e, repeatable */
	uint64_t period;		/* -c */
	uint64_t freq;			/* -F */
	bool callgraph_fp;		/* -g */
	const char *callgraph;		/* --call-graph MODE[,SIZE] */
	bool timestamp;			/* -T */
	bool sample_cpu;		/* --sample-cpu */
	bool no_inherit;		/* -i */
	const char *sysfs;		/* --sysfs DIR */
	bool dry_run;
	int plan;			/* windows shown per event */
	uint64_t seed;
	enum pm_output_format format;
};

static const char *const record_usage[] = {
	"pmprof record [-e EVENT]... [-c N | -F HZ] [-g] --dry-run [--format json]",
	NULL,
};

/* "fp[,MAX_STACK]", "dwarf[,DUMP_SIZE]" or "no", as perf's --call-graph. */
static int parse_callgraph(const char *s, struct pm_record_defaults *rd)
{
	const char *comma = strchr(s, ',');
	size_t len = comma ? (size_t)(comma - s) : strlen(s);
	unsigned long long v = 0;
	char *end;

	if (comma) {
		v = strtoull(comma + 1, &end, 0);
		if (end == comma + 1 || *end || !v || v > 65528)
			return pm_cli_usage_error("--call-graph: bad size '%s'", comma + 1);
	}
	if (len == 2 && !strncmp(s, "fp", 2)) {
		rd->callgraph = PM_CALLGRAPH_FP;
		rd->max_stack = (uint32_t)v;
	} else if (len == 5 && !strncmp(s, "dwarf", 5)) {
		rd->callgraph = PM_CALLGRAPH_DWARF;
		rd->dump_size = (uint32_t)((v + 7) & ~7ULL);
	} else if (len == 2 && !strncmp(s, "no", 2) && !comma) {
		rd->callgraph = PM_CALLGRAPH_NONE;
	} else {
		return pm_cli_usage_error("--call-graph: unknown mode '%.*s' (fp, dwarf or no)",
					  (int)len, s);
	}
	return 0;
}

/* Parse the events and configure them as perf record does. */
static int record_prepare(struct record_cli *rc, struct pm_evspec_list *list)
{
	struct pm_evspec_opts eo = { .sysfs_root = rc->sysfs };
	struct pm_record_defaults rd;
	struct pm_error err;
	int i;

	memset(&rd, 0, sizeof(rd));
	rd.period = rc->period;
	rd.freq = rc->freq;
	rd.timestamp = rc->timestamp;
	rd.sample_cpu = rc->sample_cpu;
	rd.no_inherit = rc->no_inherit;
	if (rc->callgraph_fp)
		rd.callgraph = PM_CALLGRAPH_FP;
	if (rc->callgraph && parse_callgraph(rc->callgraph, &rd))
		return PM_EXIT_USAGE;
	if (rc->period && rc->freq)
		return pm_cli_usage_error("-c and -F are mutually exclusive");
	if (!rc->events.nr) {
		static const char *dflt = "cycles";

		if (pm_evspec__parse(list, dflt, &eo, &err))
			return pm_cli_usage_error("%s", err.msg);
	}
	for (i = 0; i < rc->events.nr; i++) {
		if (pm_evspec__parse(list, rc->events.items[i], &eo, &err)) {
			pm_evspec_error_print(stderr, "pmprof: ", rc->events.items[i], &err);
			return PM_EXIT_USAGE;
		}
	}
	if (pm_evspec__apply_record(list, &rd, &err))
		return pm_cli_usage_error("%s", err.msg);
	return 0;
}

/* ---- the sampling plan ---- */

struct window {
	uint64_t period;
	enum pm_window_kind kind;
	bool throttle, unthrottle_before;
};

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

			/* counting up to the tick cannot overflow: left > ev_n,
			 * or the event is stopped and nothing counts */
			if (left == ev_n) {
				pm_period__count(&m, &ev_n, next_tick, &ov);
				w[k].period = ov.period;
				w[k].kind = ov.kind;
				w[k].throttle = ov.throttle;
				w[k].unthrottle_before = unthr;
				unthr = false;
				k++;
			} else {
				pm_period__count(&m, &ev_n, next_tick, &ov);
			}
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
			w[k].period = ov.period;
			w[k].kind = ov.kind;
			w[k].throttle = ov.throttle;
			w[k].unthrottle_before = unthr;
			unthr = false;
			k++;
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

static const char *const read_format_names[] = {
	"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
};

static void bits_text(FILE *out, uint64_t v, bool sample)
{
	bool first = true;
	unsigned int b;

	for (b = 0; b < 64; b++) {
		const char *n;

		if (!(v >> b & 1))
			continue;
		n = sample ? pm_sample_bit_name(b) :
		    b < 5 ? read_format_names[b] : NULL;
		fprintf(out, "%s%s", first ? "" : "|", n ? n : "?");
		first = false;
	}
}

struct field {
	const char *name;
	uint64_t value;
};

/* Every attr field by perf's name, in perf's order. */
static size_t attr_fields(const struct pm_attr *a, struct field *f)
{
	size_t n = 0;
	unsigned int b;
	bool freq = pm_attr__flag(a, PM_ATTR_FREQ);

#define F(nm, v) do { f[n].name = (nm); f[n].value = (v); n++; } while (0)
	F("type", a->type);
	F("size", a->size);
	F("config", a->config);
	F("sample_period", freq ? 0 : a->sample_period);
	F("sample_freq", freq ? a->sample_period : 0);
	F("sample_type", a->sample_type);
	F("read_format", a->read_format);
	for (b = 0; b < PM_ATTR_NR_FLAG_BITS; b++) {
		if (b == PM_ATTR_PRECISE_IP + 1)
			continue;
		if (b == PM_ATTR_PRECISE_IP)
			F("precise_ip", pm_attr__precise_ip(a));
		else if (pm_attr_flag_name(b))
			F(pm_attr_flag_name(b), pm_attr__flag(a, b));
	}
	F("wakeup_events", a->wakeup_events);
	F("bp_type", a->bp_type);
	F("config1", a->config1);
	F("config2", a->config2);
	F("branch_sample_type", a->branch_sample_type);
	F("sample_regs_user", a->sample_regs_user);
	F("sample_stack_user", a->sample_stack_user);
	F("clockid", (uint64_t)(int64_t)a->clockid);
	F("sample_regs_intr", a->sample_regs_intr);
	F("aux_watermark", a->aux_watermark);
	F("sample_max_stack", a->sample_max_stack);
	F("aux_sample_size", a->aux_sample_size);
	F("sig_data", a->sig_data);
	F("config3", a->config3);
	F("hf_sample_period", a->hf_sample_period);
	F("hf_sample_rand", a->hf_sample_rand);
#undef F
	return n;
}

static void print_json(const struct pm_evspec_list *l, const struct record_cli *rc)
{
	struct pm_json j;
	struct field f[96];
	struct window *w = calloc((size_t)rc->plan + 1, sizeof(*w));
	size_t i, k, n;

	pm_json__init(&j, stdout);
	pm_json__begin_array(&j);
	for (i = 0; i < l->nr; i++) {
		const struct pm_evspec_event *ev = &l->ev[i];
		int nw = samples(l, i) ? plan_windows(ev, rc->seed, w, rc->plan) : 0;

		pm_json__begin_object(&j);
		pm_json__kv_u64(&j, "index", i);
		pm_json__kv_string(&j, "name", ev->name);
		pm_json__kv_u64(&j, "group_leader", (uint64_t)ev->group_leader);
		n = attr_fields(&ev->attr, f);
		for (k = 0; k < n; k++) {
			if (!strcmp(f[k].name, "clockid"))
				pm_json__kv_i64(&j, f[k].name, (int64_t)f[k].value);
			else
				pm_json__kv_u64(&j, f[k].name, f[k].value);
		}
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

static void print_text(const struct pm_evspec_list *l, const struct record_cli *rc)
{
	struct field f[96];
	struct window *w = calloc((size_t)rc->plan + 1, sizeof(*w));
	size_t i, k, n;

	for (i = 0; i < l->nr; i++) {
		const struct pm_evspec_event *ev = &l->ev[i];
		bool freq = pm_attr__flag(&ev->attr, PM_ATTR_FREQ);
		int nw = samples(l, i) ? plan_windows(ev, rc->seed, w, rc->plan) : 0;

		printf("event %zu: %s (group leader %d)\n", i, ev->name, ev->group_leader);
		n = attr_fields(&ev->attr, f);
		for (k = 0; k < n; k++) {
			if (!f[k].value)
				continue;
			if (!strcmp(f[k].name, "sample_type") || !strcmp(f[k].name, "read_format")) {
				printf("  %-32s ", f[k].name);
				bits_text(stdout, f[k].value, f[k].name[1] == 'a');
				putchar('\n');
			} else if (!strncmp(f[k].name, "config", 6) ||
				   !strcmp(f[k].name, "sample_regs_user")) {
				printf("  %-32s %#" PRIx64 "\n", f[k].name, f[k].value);
			} else {
				printf("  %-32s %" PRIu64 "\n", f[k].name, f[k].value);
			}
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
	free(w);
}

int cmd_record(int argc, const char **argv)
{
	struct record_cli rc = { .plan = 8, .format = PM_FORMAT_TABLE };
	struct pm_evspec_list list;
	const struct pm_option opts[] = {
		OPT_STRING_LIST('e', "event", &rc.events, "event",
				"event selector (perf syntax, plus hf-period, hf-rand, hf-burst, hf-jitter terms)"),
		OPT_U64('c', "count", &rc.period, "n", "sample every n events"),
		OPT_U64('F', "freq", &rc.freq, "hz", "sample at this frequency (default 4000)"),
		OPT_BOOLEAN('g', NULL, &rc.callgraph_fp, "record call graphs (frame pointers)"),
		OPT_STRING(0, "call-graph", &rc.callgraph, "mode[,size]",
			   "fp[,max_stack], dwarf[,dump_size] or no"),
		OPT_BOOLEAN('T', "timestamp", &rc.timestamp, "sample the time"),
		OPT_BOOLEAN(0, "sample-cpu", &rc.sample_cpu, "sample the cpu"),
		OPT_BOOLEAN('i', "no-inherit", &rc.no_inherit, "child tasks do not inherit counters"),
		OPT_STRING(0, "sysfs", &rc.sysfs, "dir", "sysfs root for PMUs and tracepoints (default /sys)"),
		OPT_BOOLEAN(0, "dry-run", &rc.dry_run, "print the attrs and the sampling plan, open nothing"),
		OPT_INTEGER(0, "plan", &rc.plan, "n", "windows shown per event in the plan (default 8)"),
		OPT_U64(0, "seed", &rc.seed, "n", "seed of the model's jitter generator (default 0)"),
		OPT_FORMAT(&rc.format),
		OPT_END(),
	};
	int ret, nargs;

	/* nargs: the workload command left in argv, for the recorder */
	nargs = pm_parse_options(argc, argv, opts, record_usage, PM_PARSE_STOP_AT_NON_OPTION);
	if ((ret = pm_cli_parse_status(nargs)) >= 0)
		return ret;
	(void)nargs;
	if (rc.plan < 0 || rc.plan > 100000)
		return pm_cli_usage_error("--plan: %d out of range (0-100000)", rc.plan);
	pm_evspec_list__init(&list);
	ret = record_prepare(&rc, &list);
	if (ret)
		goto out;
	if (!rc.dry_run) {
		ret = pm_cli_usage_error("record: recording is not built yet; use --dry-run to see the events");
		goto out;
	}
	if (rc.format == PM_FORMAT_JSON)
		print_json(&list, &rc);
	else
		print_text(&list, &rc);
out:
	pm_evspec_list__exit(&list);
	free(rc.events.items);
	return ret;
}
