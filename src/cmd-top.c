// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof top: the hotspot profile, or per-function metrics from short
 * windows (--metrics), of a workload, processes or the system, redrawn
 * every -d seconds from what was sampled in that interval. Full screen
 * (top-tui.c) on a terminal; --stdio prints one table per interval.
 * The recording is `pmprof record`'s (top-feed.c), the tables those of
 * `report` and `metrics` (pmprof/live.h).
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/table.h"
#include "top.h"

static const char *const top_usage[] = {
	"pmprof top [--metrics] [-e EVENT]... [-c N | -F HZ] [-d SECONDS] [--stdio]\n"
	"           [--top N] [--hf-mode MODE] [-a | -C CPUS | -p PID | -t TID | -- COMMAND [ARG]...]",
	NULL,
};

static volatile int quit_signal;

static void on_quit(int sig)
{
	quit_signal = sig;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int top_print_interval(const struct pm_table *t, const struct pm_live_stats *st,
		       const struct top_ui *ui)
{
	char which[64] = "";

	if (st->nr_events > 1)
		snprintf(which, sizeof(which), ", event %zu of %zu", st->view_event + 1,
			 st->nr_events);
	printf("# pmprof top: %s, interval %llu (%g s): %llu samples%s%s%s (%llu in all)\n",
	       ui->mode, (unsigned long long)st->intervals, ui->delay,
	       (unsigned long long)st->samples, st->event ? " of " : "",
	       st->event ? st->event : "", which, (unsigned long long)st->total);
	if (t)
		top_render(t, stdout);
	putchar('\n');
	if (fflush(stdout) || ferror(stdout))
		return pm_cli_finish_stdout(PM_EXIT_INPUT);
	return 0;
}

/* Every event's table of the interval, one after the other. */
static int print_interval(struct top_feed *f, const struct top_ui *ui)
{
	struct pm_live_view v = ui->view;
	struct pm_live_stats st;
	int status;

	for (v.event = 0; ; v.event++) {
		struct pm_table *t = top_feed__view(f, &v, &st);

		status = top_print_interval(t, &st, ui);
		pm_table__delete(t);
		if (status || v.event + 1 >= st.nr_events)
			return status;
	}
}

/* --stdio: a table per interval until the stream ends or a signal. */
static int run_stdio(struct top_feed *f, struct top_ui *ui)
{
	double next = now_s() + ui->delay;
	struct pollfd pfd = { .fd = top_feed__wake_fd(f), .events = POLLIN };
	int status;

	while (!quit_signal) {
		double left = next - now_s();

		if (left > 0 && !f->done) {
			if (poll(&pfd, 1, (int)ceil(left * 1000)) < 0 && errno != EINTR)
				break;
			continue;
		}
		/* the interval's end, or the stream's: either way a table */
		if ((status = top_feed__tick(f)) || (status = print_interval(f, ui)))
			return status;
		if (f->done)
			break;
		next += ui->delay;
		if (next < now_s())
			next = now_s() + ui->delay;	/* we fell behind: skip ahead */
	}
	return 0;
}

int cmd_top(int argc, const char **argv)
{
	struct top_ui ui = { .delay = 2.0, .view = { .sort = -1 } };
	struct pm_opt_list events = { 0 };
	const char *freq = NULL, *count = NULL, *cpus = NULL, *pids = NULL, *tids = NULL;
	const char *hf_mode = NULL, *mmap_pages = NULL;
	bool stdio_mode = false, metrics = false, all_cpus = false;
	struct pm_cmd c = PM_CMD_INIT("top");
	const struct pm_option opts[] = {
		OPT_STRING_LIST('e', "event", &events, "event",
				"event selector, as record's (default: cycles, or cpu-clock)"),
		OPT_STRING('c', "count", &count, "n", "sample every n events"),
		OPT_STRING('F', "freq", &freq, "hz", "sample at this frequency, or 'max'"),
		OPT_BOOLEAN(0, "metrics", &metrics,
			    "per-function metrics from short windows (record's --metrics group)"),
		OPT_DOUBLE('d', "delay", &ui.delay, "seconds",
			   "the interval between refreshes (default 2)"),
		OPT_BOOLEAN(0, "stdio", &stdio_mode, "print a table per interval, no screen"),
		OPT_INPUT_HELP(&c, "replay a recording (with --stdio): intervals of its sample times"),
		OPT_TOP(&c),
		OPT_BOOLEAN('a', "all-cpus", &all_cpus, "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &cpus, "cpu", "list of CPUs to monitor (e.g. 0-3,5)"),
		OPT_STRING('p', "pid", &pids, "pid", "profile existing process ids"),
		OPT_STRING('t', "tid", &tids, "tid", "profile existing thread ids"),
		OPT_STRING(0, "hf-mode", &hf_mode, "mode",
			   "short windows: auto, kernel, burst, fixed or off (as record's)"),
		OPT_STRING('m', "mmap-pages", &mmap_pages, "pages", "ring buffer size per CPU"),
		OPT_SYMBOL_SOURCES(&c),
		OPT_END(),
	};
	const char **rargv = NULL;
	struct top_feed feed;
	int nargs, rargc = 0, status, i, log_fd = -1;
	FILE *log = NULL;
	struct sigaction sa;
	struct pm_live_opts lo = { .sz = sizeof(lo) };

	c.input = NULL;		/* -i: a replay */
	c.sopts.host = PM_HOST_YES;
	/* as record: the command's own options are its own */
	nargs = pm_parse_options(argc, argv, opts, top_usage, PM_PARSE_STOP_AT_NON_OPTION);
	if (nargs == PM_PARSE_HELP || nargs < 0) {
		status = nargs == PM_PARSE_HELP ? PM_EXIT_OK : PM_EXIT_USAGE;
		goto out;
	}
	if (!(ui.delay > 0 && ui.delay <= 3600)) {
		status = pm_cli_errorf(PM_EXIT_USAGE, "top", "-d %g: give an interval of seconds (above 0, "
					    "at most 3600)", ui.delay);
		goto out;
	}
	if (metrics && events.nr) {
		status = pm_cli_errorf(PM_EXIT_USAGE, "top", "--metrics chooses the events: do not give -e");
		goto out;
	}
	ui.view.top = (size_t)c.top;
	ui.mode = metrics ? "metrics" : "hotspots";
	lo.metrics = metrics;
	if (c.input) {
		if (!stdio_mode || events.nr || freq || count || cpus || pids || tids || all_cpus ||
		    hf_mode || mmap_pages || nargs > 0)
			status = pm_cli_errorf(PM_EXIT_USAGE, "top", "-i replays a recording: with --stdio, "
						    "without recording options or a command");
		else
			status = top_replay(c.input, &ui, &lo, &c.sopts);
		goto out;
	}
	if (!stdio_mode && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		status = pm_cli_errorf(PM_EXIT_USAGE, "top", "standard input and output are not a terminal: "
					    "give --stdio for a table per interval");
		goto out;
	}

	/* record's options as given; its checks and messages are record's */
	rargv = calloc((size_t)(2 * events.nr + 20 + nargs + 2), sizeof(*rargv));
	for (i = 0; i < events.nr; i++) {
		rargv[rargc++] = "-e";
		rargv[rargc++] = events.items[i];
	}
#define PASS(flag, v) do { if (v) { rargv[rargc++] = (flag); rargv[rargc++] = (v); } } while (0)
	PASS("-c", count);
	PASS("-F", freq);
	PASS("-C", cpus);
	PASS("-p", pids);
	PASS("-t", tids);
	PASS("--hf-mode", hf_mode);
	PASS("-m", mmap_pages);
#undef PASS
	if (all_cpus)
		rargv[rargc++] = "-a";
	if (metrics)
		rargv[rargc++] = "--metrics";
	if (nargs > 0) {
		rargv[rargc++] = "--";
		for (i = 0; i < nargs; i++)
			rargv[rargc++] = argv[i];
	}

	/* on the screen, the recorder's messages (and the workload's
	 * output) wait in a file until the screen is restored */
	if (!stdio_mode) {
		log = tmpfile();
		log_fd = log ? fileno(log) : -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_quit;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	status = top_feed__start(&feed, rargc, rargv, log_fd, &lo, &c.sopts);
	if (status >= 0)
		goto out;
	status = stdio_mode ? run_stdio(&feed, &ui) : top_tui__run(&feed, &ui, &quit_signal);
	if (!feed.done)
		top_feed__stop(&feed);
	{
		int fstatus = top_feed__finish(&feed);

		if (!status)
			status = fstatus;
	}
out:
	if (log) {
		char buf[4096];
		size_t n;

		rewind(log);
		while ((n = fread(buf, 1, sizeof(buf), log)) > 0)
			fwrite(buf, 1, n, stderr);
		fclose(log);
	}
	free(rargv);
	free(events.items);
	return status;
}
