// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof record: record a workload, processes or CPUs into perf.data with
 * perf record's options and defaults, plus short-window sampling (the hf
 * modes, see include/pmprof/record.h) and --metrics. --dry-run parses the
 * events as perf record would configure them and prints the attrs and
 * the sampling plan (the first windows of each event, from the model)
 * without opening anything.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "cli.h"
#include "record-options.h"
#include "record-plan.h"
#include "pmprof/evspec.h"
#include "pmprof/record.h"
#include "pmprof/symbols.h"
#include "pmprof/tracefs.h"
#include "pmprof/util.h"

struct record_cli {
	struct pm_opt_list events;	/* -e, repeatable */
	const char *period_arg;		/* -c */
	uint64_t period;
	const char *freq_arg;		/* -F: Hz or "max" */
	uint64_t freq;			/* -F, fitted to the kernel's maximum */
	uint64_t default_freq;		/* without -F: 4000, or the maximum below it */
	bool strict_freq;		/* --strict-freq */
	bool callgraph_fp;		/* -g */
	const char *callgraph;		/* --call-graph MODE[,SIZE] */
	bool timestamp;			/* -T */
	bool sample_cpu;		/* --sample-cpu */
	bool no_inherit;		/* -i */
	bool inherit_stat;		/* -s */
	const char *sysfs;		/* --sysfs DIR */
	bool dry_run;
	bool system_wide;		/* -a */
	const char *cpu_list;		/* -C */
	const char *pid_list;		/* -p */
	const char *tid_list;		/* -t */
	bool per_thread;		/* --per-thread */
	const char *clockid;		/* -k */
	const char *mmap_pages;		/* -m */
	const char *output;		/* -o */
	const char *hf_mode;		/* --hf-mode */
	struct pm_optarg metrics;	/* --metrics[=SET]: NULL for the default group */
	bool quiet;			/* -q */
	bool raw_samples;		/* -R */
	bool sample_addr;		/* -d */
	bool weight;			/* -W */
	bool branch_any;		/* -b */
	int delay_ms;			/* -D */
	bool no_buildid_cache;		/* -N */
	int comp_level;			/* -z[LEVEL], --compression-level[=LEVEL] */
	struct pm_optarg switch_output;	/* --switch-output[=signal|SIZE|TIME] */
	int switch_max_files;		/* --switch-max-files */
	const char *max_size_arg;	/* --max-size */
	const char *uid;		/* -u */
	const char *buildid_dir;	/* --buildid-dir */
	char metrics_spec[1024];
	int plan;			/* windows shown per event */
	uint64_t seed;
	const struct pm_renderer *format;
};

static const char *const record_usage[] = {
	"pmprof record [-e EVENT]... [-c N | -F HZ] [-a] [-C CPUS] [-p PID | -t TID]\n"
	"              [-g | --call-graph fp[,DEPTH]] [-T] [--sample-cpu] [-k CLOCKID]\n"
	"              [-m PAGES] [-o FILE] [--hf-mode auto|kernel|strobe|burst|fixed|off]\n"
	"              [--metrics [default|topdown]] [--sysfs DIR] [-- COMMAND [ARG]...]",
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
			return pm_cli_errorf(PM_EXIT_USAGE, "--call-graph",
					     "bad size '%s'", comma + 1);
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
		return pm_cli_errorf(PM_EXIT_USAGE, "--call-graph",
				     "unknown mode '%.*s' (fp, dwarf or no)", (int)len, s);
	}
	return 0;
}

/*
 * -c and -F as perf record takes them: neither may be 0; "-F max" is the
 * kernel's maximum rate, and a frequency above it (-F, or the default
 * 4000 Hz when the kernel has lowered its maximum) is lowered to it with
 * a warning, or refused with --strict-freq.
 */
static int resolve_freq(struct record_cli *rc)
{
	unsigned int max = 0;
	int have_max = pm_kernel__max_sample_rate(&max);
	uint64_t asked = PM_RECORD_DEFAULT_FREQ, f;
	bool user = rc->freq_arg != NULL;

	if (rc->period_arg) {
		char *end;

		errno = 0;
		rc->period = strtoull(rc->period_arg, &end, 0);
		if (end == rc->period_arg || *end || errno || rc->period_arg[0] == '-')
			return pm_cli_errorf(PM_EXIT_USAGE, NULL, "-c %s: give a period in events",
					     rc->period_arg);
		if (!rc->period)
			return pm_cli_errorf(PM_EXIT_USAGE, NULL, "-c 0: the period must be at least 1 event");
	}
	if (user && !strcasecmp(rc->freq_arg, "max")) {
		if (have_max) {
			return pm_cli_errorf(PM_EXIT_INPUT, NULL, "-F max: cannot read "
					     "/proc/sys/kernel/perf_event_max_sample_rate: %s",
					     strerror(-have_max));
		}
		if (!rc->quiet)
			fprintf(stderr, "pmprof record: -F max: sampling at %u Hz "
				"(kernel.perf_event_max_sample_rate)\n", max);
		rc->freq = max;
		return 0;
	}
	if (user) {
		char *end;

		errno = 0;
		asked = strtoull(rc->freq_arg, &end, 10);
		if (end == rc->freq_arg || *end || errno || rc->freq_arg[0] == '-')
			return pm_cli_errorf(PM_EXIT_USAGE, NULL, "-F %s: give a frequency in Hz or 'max'",
					     rc->freq_arg);
		if (!asked)
			return pm_cli_errorf(PM_EXIT_USAGE, NULL, "-F 0: frequency and count are zero "
					     "(give a frequency of at least 1 Hz)");
	}
	if (rc->period_arg)
		return 0;
	switch (pm_record__fit_freq(asked, rc->strict_freq && user, have_max ? 0 : max, &f)) {
	case PM_FREQ_TOO_HIGH:
		return pm_cli_errorf(PM_EXIT_USAGE, NULL, "-F %" PRIu64 ": above kernel."
				     "perf_event_max_sample_rate (%u Hz), and --strict-freq "
				     "refuses to lower it", asked, max);
	case PM_FREQ_LOWERED:
		if (!rc->quiet)
			fprintf(stderr, "pmprof record: %s %" PRIu64 " Hz is above "
				"kernel.perf_event_max_sample_rate: sampling at %" PRIu64 " Hz. The "
				"kernel lowers that limit when sampling interrupts take too long; "
				"raise it in /proc/sys/kernel/perf_event_max_sample_rate%s\n",
				user ? "-F" : "the default", asked, f,
				user ? ", or give --strict-freq to refuse instead" : "");
		break;
	case PM_FREQ_AS_ASKED:
		break;
	}
	if (user)
		rc->freq = f;
	else
		rc->default_freq = f;
	return 0;
}

/*
 * --metrics: the groups for this machine and the long period, then what
 * perf record's options add for the reference analysis: call graphs
 * fp,4, -T, --sample-cpu.
 */
static int choose_metrics(struct record_cli *rc)
{
	int ret;

	if (rc->events.nr)
		return pm_cli_errorf(PM_EXIT_USAGE, NULL, "--metrics chooses the events: do not give -e");
	ret = pm_record_choose_metrics(rc->metrics.arg, rc->sysfs, rc->period, rc->freq,
				       rc->hf_mode, rc->quiet, rc->metrics_spec,
				       sizeof(rc->metrics_spec));
	if (ret)
		return ret;
	if (!rc->callgraph_fp && !rc->callgraph)
		rc->callgraph = "fp,4";
	rc->timestamp = true;
	rc->sample_cpu = true;
	return 0;
}

/* Parse the events and configure them as perf record does. */
static int record_prepare(struct record_cli *rc, struct pm_evspec_list *list)
{
	struct pm_evspec_opts eo = { .sysfs_root = rc->sysfs, .mount_tracefs = !rc->sysfs };
	struct pm_record_defaults rd;
	struct pm_error err;
	char tracefs[256];
	bool had_tracefs = !pm_tracefs__find(rc->sysfs, tracefs, sizeof(tracefs));
	int i, ret;

	if (rc->period_arg && rc->freq_arg)
		return pm_cli_errorf(PM_EXIT_USAGE, NULL, "-c and -F are mutually exclusive");
	ret = resolve_freq(rc);
	if (ret)
		return ret;
	/* first: it sets the call graph, -T and --sample-cpu */
	if (rc->metrics.set && (ret = choose_metrics(rc)))
		return ret;
	memset(&rd, 0, sizeof(rd));
	rd.timestamp = rc->timestamp;
	rd.sample_cpu = rc->sample_cpu;
	rd.no_inherit = rc->no_inherit;
	rd.inherit_stat = rc->inherit_stat;
	rd.raw_samples = rc->raw_samples;
	rd.sample_addr = rc->sample_addr;
	rd.weight = rc->weight;
	rd.branch_stack = rc->branch_any ? PM_BRANCH_SAMPLE_ANY : 0;
	if (rc->delay_ms < 0)
		return pm_cli_errorf(PM_EXIT_USAGE, "-D", "%d: give a delay in milliseconds (pmprof "
				     "has no control fd to start disabled events later)", rc->delay_ms);
	rd.delay = rc->delay_ms > 0;
	if (rc->callgraph_fp)
		rd.callgraph = PM_CALLGRAPH_FP;
	if (rc->callgraph && parse_callgraph(rc->callgraph, &rd))
		return PM_EXIT_USAGE;
	rd.period = rc->period;
	rd.freq = rc->freq;
	rd.default_freq = rc->default_freq;
	if (rc->metrics.set) {
		if (pm_evspec__parse(list, rc->metrics_spec, &eo, &err))
			return pm_cli_errorf(PM_EXIT_USAGE, NULL, "%s", err.msg);
	} else if (!rc->events.nr) {
		/* perf's default: cycles, or cpu-clock without a hardware PMU */
		const char *dflt = rc->dry_run || pm_recorder__probe_event(0, 0) ?
				   "cycles" : "cpu-clock";

		if (pm_evspec__parse(list, dflt, &eo, &err))
			return pm_cli_errorf(PM_EXIT_USAGE, NULL, "%s", err.msg);
	}
	for (i = 0; i < rc->events.nr; i++) {
		if (pm_evspec__parse(list, rc->events.items[i], &eo, &err)) {
			return pm_cli_evspec_error(PM_EXIT_USAGE, rc->events.items[i], &err);
		}
	}
	if (!had_tracefs && !rc->quiet && !pm_tracefs__find(rc->sysfs, tracefs, sizeof(tracefs)))
		fprintf(stderr, "pmprof record: tracefs was not mounted: mounted it at %s, as perf does\n",
			tracefs);
	/* An event error's offset is in the event string, not a file. */
	if (pm_evspec__apply_record(list, &rd, &err))
		return pm_cli_errorf(PM_EXIT_USAGE, NULL, "%s", err.msg);
	/* --metrics: how long each group really counted (multiplexing) */
	for (i = 0; rc->metrics.set && i < (int)list->nr; i++)
		if (list->ev[i].attr.sample_type & PM_SAMPLE_READ)
			list->ev[i].attr.read_format |= PM_FORMAT_TOTAL_TIME_ENABLED |
							PM_FORMAT_TOTAL_TIME_RUNNING;
	return 0;
}

/* ---- recording ---- */

static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t switch_signal;

static void on_switch(int sig)
{
	(void)sig;
	switch_signal = 1;
}

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void on_child(int sig)
{
	(void)sig;	/* only to interrupt ppoll */
}

static void note_cb(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "pmprof record: %s\n", msg);
}

/* -m: a page count (a power of 2), or a size with K/M/G. */
static int parse_pages(const char *s, unsigned int *pages)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	long psz = sysconf(_SC_PAGESIZE);

	if (end == s || v == 0)
		return -1;
	if (*end) {
		unsigned long long mult = 1;

		switch (*end) {
		case 'k': case 'K': mult = 1ULL << 10; break;
		case 'm': case 'M': mult = 1ULL << 20; break;
		case 'g': case 'G': mult = 1ULL << 30; break;
		default: return -1;
		}
		if (end[1] && strcmp(end + 1, "B") && strcmp(end + 1, "b"))
			return -1;
		v = v * mult / (unsigned long long)psz;
		if (!v)
			v = 1;
		/* a size rounds up to a power of 2, as perf does */
		while (v & (v - 1))
			v = (v | (v - 1)) + 1;
	}
	if (v > (1ULL << 20) || (v & (v - 1)))
		return -1;
	*pages = (unsigned int)v;
	return 0;
}

static void progress(const struct pm_record_stats *st, bool final)
{
	if (final) {
		fputs("\r\033[K", stderr);
		return;
	}
	fprintf(stderr, "\r[ pmprof record: %" PRIu64 " samples, %.2f MB ]\033[K",
		st->samples, (double)st->bytes / 1e6);
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int run_record(struct record_cli *rc, struct pm_evspec_list *list,
		      int nargs, const char **args, int argc, const char **argv)
{
	struct pm_record_opts o = { .sz = sizeof(o) };
	struct pm_recorder *r = NULL;
	const struct pm_record_stats *st;
	struct sigaction sa;
	struct pm_error err;
	char **wargv = NULL;
	char *cache_dir = NULL;
	bool tty = isatty(2) && !rc->quiet;
	uint64_t last_progress = 0, max_size = 0, next_switch = 0;
	struct pm_switch_output so = { .mode = PM_SWITCH_NONE };
	struct pm_switched sw = { 0 };
	bool size_reached = false;
	int ret, i, status = 0;

	memset(&err, 0, sizeof(err));
	o.events = list;
	o.output = rc->output;
	o.system_wide = rc->system_wide;
	o.cpu_list = rc->cpu_list;
	o.pid_list = rc->pid_list;
	o.tid_list = rc->tid_list;
	o.pids_may_end = rc->uid != NULL;
	o.per_thread = rc->per_thread;
	o.clockid = -1;
	o.seed = rc->seed;
	o.delay_ms = rc->delay_ms > 0 ? (unsigned int)rc->delay_ms : 0;
	o.compression_level = rc->comp_level;
	o.note = rc->quiet ? NULL : note_cb;
	o.cmdline_argc = (uint32_t)argc;
	o.cmdline_argv = argv;
	if (rc->clockid && pm_clockid__parse(rc->clockid, &o.clockid))
		return pm_cli_errorf(PM_EXIT_USAGE, "-k", "unknown clock '%s' (monotonic, "
				     "monotonic_raw, realtime, boottime, tai or a number)",
				     rc->clockid);
	if (!rc->clockid && rc->metrics.set)
		o.clockid = CLOCK_MONOTONIC_RAW;	/* as Arm's reference recording */
	if (rc->mmap_pages && parse_pages(rc->mmap_pages, &o.mmap_pages))
		return pm_cli_errorf(PM_EXIT_USAGE, "-m", "%s: give a power of 2 of pages "
				     "(e.g. 128) or a size (e.g. 2M)", rc->mmap_pages);
	if (rc->hf_mode && pm_hf_mode__parse(rc->hf_mode, &o.hf_mode))
		return pm_cli_errorf(PM_EXIT_USAGE, "--hf-mode", "unknown mode '%s' (auto, "
				     "kernel, strobe, burst, fixed or off)", rc->hf_mode);
	o.sysfs_root = rc->sysfs;
	if (rc->pid_list && rc->tid_list)
		return pm_cli_errorf(PM_EXIT_USAGE, NULL, "-p and -t are mutually exclusive");
	if (rc->switch_output.set && pm_switch_output__parse(rc->switch_output.arg, &so))
		return pm_cli_errorf(PM_EXIT_USAGE, "--switch-output", "%s: give signal, a size "
				     "(e.g. 100M) or a time (e.g. 30s)", rc->switch_output.arg);
	if (so.mode && rc->output && !strcmp(rc->output, "-"))
		return pm_cli_errorf(PM_EXIT_USAGE, "--switch-output",
				     "needs a file, not standard output");
	if (rc->switch_max_files < 0)
		return pm_cli_errorf(PM_EXIT_USAGE, "--switch-max-files",
				     "%d: give a number of files", rc->switch_max_files);
	if (rc->max_size_arg && (pm_size__parse(rc->max_size_arg, &max_size) || !max_size))
		return pm_cli_errorf(PM_EXIT_USAGE, "--max-size", "%s: give a size "
				     "(e.g. 100M; B, K, M, G)", rc->max_size_arg);
	if (nargs > 0) {
		wargv = calloc((size_t)nargs + 1, sizeof(char *));
		for (i = 0; i < nargs; i++)
			wargv[i] = (char *)args[i];
		o.argv = wargv;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (so.mode == PM_SWITCH_SIGNAL) {
		sa.sa_handler = on_switch;
		sigaction(SIGUSR2, &sa, NULL);
	}
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	/* (after every usage check: nothing to free on those returns) */
	if (!rc->no_buildid_cache)
		o.buildid_dir = cache_dir = rc->buildid_dir ? pm_strdup(rc->buildid_dir) :
					    pm_buildid_cache__default_dir();
	ret = pm_recorder__new(&r, &o, &err);
	if (ret) {
		free(wargv);
		free(cache_dir);
		return pm_cli_error(ret == -PM_EUSAGE ? PM_EXIT_USAGE : PM_EXIT_INPUT,
				    NULL, &err);
	}
	st = pm_recorder__stats(r);
	if (!rc->quiet && st->mode != PM_HF_NONE) {
		fprintf(stderr, "pmprof record: hf mode %s", pm_hf_mode__name(st->mode));
		if (st->mode == PM_HF_BURST)
			fprintf(stderr, ", %s", pm_burst_scope__name(st->scope));
		fputc('\n', stderr);
	}
	ret = pm_recorder__start(r, &err);
	if (ret) {
		int exec_errno = st->exec_errno;

		pm_cli_error(0, NULL, &err);
		pm_recorder__finish(r, NULL);
		pm_recorder__delete(r);
		free(wargv);
		free(cache_dir);
		return exec_errno ? 127 : PM_EXIT_INPUT;
	}
	if (so.mode == PM_SWITCH_TIME)
		next_switch = mono_ms() + so.time_ns / 1000000;
	while (1) {
		if (stop_signal)
			pm_recorder__stop(r);
		ret = pm_recorder__poll(r, 100, &err);
		if (ret <= 0)
			break;
		if (max_size && !size_reached && st->total_bytes + st->bytes >= max_size) {
			/* perf's --max-size: stop, the file as it is then */
			size_reached = true;
			if (!rc->quiet)
				fprintf(stderr, "[ pmprof record: the output reached --max-size "
					"(%" PRIu64 " KB), stopping ]\n", max_size >> 10);
			pm_recorder__stop(r);
		}
		if ((so.mode == PM_SWITCH_SIGNAL && switch_signal) ||
		    (so.mode == PM_SWITCH_SIZE && st->bytes >= so.size) ||
		    (so.mode == PM_SWITCH_TIME && mono_ms() >= next_switch)) {
			switch_signal = 0;
			next_switch = mono_ms() + so.time_ns / 1000000;
			if (pm_record_switch_file(r, false, rc->switch_max_files, rc->quiet, &sw)) {
				ret = -1;
				break;
			}
		}
		if (tty && mono_ms() - last_progress >= 250) {
			last_progress = mono_ms();
			progress(st, false);
		}
	}
	if (tty)
		progress(st, true);
	if (ret < 0)	/* still close the file properly */
		pm_cli_error(0, NULL, &err);
	/* after a failed poll, finish fails for the same reason: say it once
	 * (the messages name the file) */
	if (pm_recorder__finish(r, &err)) {
		if (ret >= 0)
			pm_cli_error(0, NULL, &err);
		ret = -1;
	}
	if (pm_recorder__partial(r))
		fprintf(stderr, "[ pmprof record: %s not written: %.3f MB (%" PRIu64
			" samples) reached the disk, kept in %s ]\n",
			pm_recorder__output(r), (double)st->bytes / 1e6, st->samples,
			pm_recorder__partial(r));
	/* the last file is named like the others, as perf does */
	if (so.mode && ret >= 0 && pm_record_switch_file(r, true, rc->switch_max_files, rc->quiet, &sw))
		ret = -1;
	if (!rc->quiet && ret >= 0) {
		if (so.mode)
			fprintf(stderr, "[ pmprof record: Wrote %.3f MB in %d files (%" PRIu64
				" samples) ]\n", (double)(st->total_bytes + st->bytes) / 1e6, sw.nr,
				st->samples);
		else
			fprintf(stderr, "[ pmprof record: Wrote %.3f MB %s (%" PRIu64 " samples) ]\n",
				(double)st->bytes / 1e6, pm_recorder__output(r), st->samples);
		if (st->mode == PM_HF_BURST)
			fprintf(stderr, "[ pmprof record: %" PRIu64 " bursts of short windows ]\n",
				st->bursts);
		if (st->have_workload && st->workload_exited)
			fprintf(stderr, "[ pmprof record: the workload ran %.3f s user + %.3f s system ]\n",
				st->workload_user, st->workload_sys);
		if (st->throttles)
			fprintf(stderr, "[ pmprof record: the kernel throttled %" PRIu64 " times ]\n",
				st->throttles);
	}
	if (st->lost)
		fprintf(stderr, "pmprof record: lost %" PRIu64 " samples\n", st->lost);
	if (ret < 0)
		status = PM_EXIT_INPUT;
	else if (stop_signal || size_reached)
		status = 0;	/* stopped on purpose: the file is complete */
	else if (st->have_workload && st->workload_exited) {
		if (WIFEXITED(st->workload_status))
			status = WEXITSTATUS(st->workload_status);
		else if (WIFSIGNALED(st->workload_status))
			status = 128 + WTERMSIG(st->workload_status);
	}
	pm_recorder__delete(r);
	free(wargv);
	free(cache_dir);
	pm_switched__release(&sw);
	return status;
}

int cmd_record(int argc, const char **argv)
{
	struct record_cli rc = { .plan = 8 };
	struct pm_evspec_list list;
	const struct pm_option opts[] = {
		OPT_STRING_LIST('e', "event", &rc.events, "event",
				"event selector (perf syntax, plus hf-period, hf-rand, hf-burst, hf-jitter terms)"),
		OPT_STRING('c', "count", &rc.period_arg, "n", "sample every n events"),
		OPT_STRING('F', "freq", &rc.freq_arg, "hz",
			   "sample at this frequency, or 'max' (default 4000)"),
		OPT_BOOLEAN(0, "strict-freq", &rc.strict_freq,
			    "refuse a -F above kernel.perf_event_max_sample_rate instead of lowering it"),
		OPT_BOOLEAN('g', NULL, &rc.callgraph_fp, "record call graphs (frame pointers)"),
		OPT_STRING(0, "call-graph", &rc.callgraph, "mode[,size]",
			   "fp[,max_stack], dwarf[,dump_size] or no"),
		OPT_BOOLEAN('T', "timestamp", &rc.timestamp, "sample the time"),
		OPT_BOOLEAN(0, "sample-cpu", &rc.sample_cpu, "sample the cpu"),
		OPT_BOOLEAN('i', "no-inherit", &rc.no_inherit, "child tasks do not inherit counters"),
		OPT_BOOLEAN('s', "stat", &rc.inherit_stat,
			    "per-thread counts: each child thread's, written as it exits (report -T)"),
		OPT_BOOLEAN('a', "all-cpus", &rc.system_wide, "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &rc.cpu_list, "cpu", "list of CPUs to monitor (e.g. 0-3,5)"),
		OPT_STRING('p', "pid", &rc.pid_list, "pid", "record events on existing process ids"),
		OPT_STRING('t', "tid", &rc.tid_list, "tid", "record events on existing thread ids"),
		OPT_BOOLEAN(0, "per-thread", &rc.per_thread,
			    "events per thread on any CPU, a ring buffer per thread"),
		OPT_STRING('k', "clockid", &rc.clockid, "clockid",
			   "clockid for sample times (monotonic, monotonic_raw, ...)"),
		OPT_STRING('m', "mmap-pages", &rc.mmap_pages, "pages",
			   "ring buffer size per CPU: pages (a power of 2) or a size (2M)"),
		OPT_STRING('o', "output", &rc.output, "file", "output file name (default perf.data)"),
		OPT_STRING(0, "hf-mode", &rc.hf_mode, "mode",
			   "short windows: auto, kernel, strobe, burst, fixed or off (default auto)"),
		{ .type = PM_OPT_CALLBACK, .long_name = "metrics", .value = &rc.metrics,
		  .argh = "set", .flags = PM_OPT_OPTARG, .cb = pm_record_optarg_cb,
		  .help = "record the counter groups for per-function metrics: default (CPI, misses) or topdown" },
		OPT_BOOLEAN('R', "raw-samples", &rc.raw_samples,
			    "raw sample data (PERF_SAMPLE_RAW, e.g. ProfileMe status), with time and cpu"),
		OPT_BOOLEAN('d', "data", &rc.sample_addr, "record data addresses and data sources"),
		OPT_BOOLEAN('W', "weight", &rc.weight, "record the sample weight (latency)"),
		OPT_BOOLEAN('b', "branch-any", &rc.branch_any,
			    "record the branch stack of any taken branch"),
		OPT_INTEGER('D', "delay", &rc.delay_ms, "ms",
			    "wait this long after the program starts before sampling"),
		{ .type = PM_OPT_CALLBACK, .short_name = 'z', .long_name = "compression-level",
		  .value = &rc.comp_level, .argh = "n", .flags = PM_OPT_OPTARG, .cb = pm_record_comp_level_cb,
		  .help = "compress the records with zstd at this level (-z: 1, the fastest)" },
		{ .type = PM_OPT_CALLBACK, .long_name = "switch-output", .value = &rc.switch_output,
		  .argh = "signal|size|time", .flags = PM_OPT_OPTARG, .cb = pm_record_optarg_cb,
		  .help = "new file on SIGUSR2 (default), at a size (100M) or every so long (30s)" },
		OPT_INTEGER(0, "switch-max-files", &rc.switch_max_files, "n",
			    "with --switch-output: keep only the newest n files"),
		OPT_STRING(0, "max-size", &rc.max_size_arg, "size",
			   "stop when the output reaches this size (B, K, M, G)"),
		OPT_STRING('u', "uid", &rc.uid, "user", "record the processes of this user (name or uid)"),
		OPT_BOOLEAN('N', "no-buildid-cache", &rc.no_buildid_cache,
			    "do not copy the binaries sampled into the build-id cache"),
		OPT_STRING(0, "buildid-dir", &rc.buildid_dir, "dir",
			   "the build-id cache (default $HOME/.debug)"),
		OPT_BOOLEAN('q', "quiet", &rc.quiet, "print no messages but errors"),
		OPT_STRING(0, "sysfs", &rc.sysfs, "dir", "sysfs root for PMUs and tracepoints (default /sys)"),
		OPT_BOOLEAN(0, "dry-run", &rc.dry_run, "print the attrs and the sampling plan, open nothing"),
		OPT_INTEGER(0, "plan", &rc.plan, "n", "windows shown per event in the plan (default 8)"),
		OPT_U64(0, "seed", &rc.seed, "n", "seed of the model's jitter generator (default 0)"),
		OPT_FORMAT(&rc),
		OPT_END(),
	};
	int ret, nargs, i;
	char *uid_list = NULL;
	/* the command line as given, for the CMDLINE feature */
	const char **cmdline = calloc((size_t)argc + 2, sizeof(char *));

	cmdline[0] = "pmprof";
	for (i = 0; i < argc; i++)
		cmdline[i + 1] = argv[i];

	pm_evspec_list__init(&list);
	pm_record_metrics_space_form(&argc, argv);
	/* nargs: the workload command left in argv, for the recorder */
	nargs = pm_parse_options(argc, argv, opts, record_usage, PM_PARSE_STOP_AT_NON_OPTION);
	if (nargs == PM_PARSE_HELP || nargs < 0) {
		ret = nargs == PM_PARSE_HELP ? PM_EXIT_OK : PM_EXIT_USAGE;
		goto out;
	}
	if (rc.plan < 0 || rc.plan > 100000) {
		ret = pm_cli_errorf(PM_EXIT_USAGE, "--plan",
				    "%d out of range (0-100000)", rc.plan);
		goto out;
	}
	if (rc.uid) {
		if (rc.pid_list || rc.tid_list || rc.system_wide || rc.cpu_list || nargs > 0) {
			ret = pm_cli_errorf(PM_EXIT_USAGE, "-u", "records a user's processes: not "
					    "with -p, -t, -a, -C or a command");
			goto out;
		}
		if (!rc.dry_run && !(uid_list = pm_record_uid_pids(rc.uid))) {
			ret = PM_EXIT_USAGE;
			goto out;
		}
		rc.pid_list = uid_list;
	}
	ret = record_prepare(&rc, &list);
	if (ret)
		goto out;
	if (!rc.dry_run) {
		ret = run_record(&rc, &list, nargs, argv, argc + 1, cmdline);
		goto out;
	}
	ret = pm_record_plan__print(&list, rc.plan, rc.seed, rc.hf_mode, rc.sysfs,
				    rc.format == pm_renderer__find("json"));
out:
	pm_evspec_list__exit(&list);
	free(rc.events.items);
	free(cmdline);
	free(uid_list);
	return ret;
}
