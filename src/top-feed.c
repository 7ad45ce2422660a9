// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof top's feed: `pmprof record -o -` in a child process, its stream
 * read back through a session by a thread that hands every sample and
 * record to the live profile (pmprof/live.h).
 *
 * A child rather than the recorder in this process: record's own loop,
 * signals and workload handling stay exactly as `pmprof record` has them,
 * and the stream is the one `pmprof record -o - | pmprof report -i -`
 * reads. A thread for the stream because reading a pipe blocks, while the
 * front end must redraw and take keys meanwhile.
 *
 * Locking: the thread holds the lock while it hands a sample or a record
 * to the live profile; views take it too. An interval ends in the thread,
 * between two records it handed over, when the caller asks
 * (top_feed__tick): the session is then between records. Only when no
 * record comes for a while (an idle workload: the thread waits in the
 * pipe's read) does the caller end the interval itself, under the lock;
 * finishing an interval reads the events (known before the first sample)
 * and the names its accumulator copied or points to (symbols live as long
 * as the session), nothing that applying a record changes.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/table.h"
#include "top.h"

#define STREAM_NAME "the recorder's stream"

/* Under the lock: the interval the caller asked to end. */
static void tick_if_wanted(struct top_feed *f)
{
	if (!f->tick_wanted)
		return;
	f->tick_ret = pm_live__tick(f->live, f->s, &f->tick_err);
	f->tick_wanted = false;
	pthread_cond_broadcast(&f->ticked);
}

static int on_sample(struct pm_session *s, const struct pm_sample_ctx *ctx, void *arg)
{
	struct top_feed *f = arg;
	int ret;

	pthread_mutex_lock(&f->lock);
	tick_if_wanted(f);
	ret = pm_live__sample(f->live, s, ctx, &f->err);
	pthread_mutex_unlock(&f->lock);
	return ret;
}

static int on_record(struct pm_session *s, const struct pm_record *rec, void *arg)
{
	struct top_feed *f = arg;
	int ret;

	pthread_mutex_lock(&f->lock);
	tick_if_wanted(f);
	ret = pm_live__record(f->live, s, rec, &f->err);
	pthread_mutex_unlock(&f->lock);
	return ret;
}

static void *feed_thread(void *arg)
{
	struct top_feed *f = arg;
	struct pm_error err = { 0 };
	int ret = pm_session__run(f->s, on_sample, on_record, f, &err);

	/* the callbacks' errors are in f->err already */
	if (ret < 0 && err.msg[0])
		f->err = err;
	f->ret = ret < 0 ? ret : 0;
	f->done = true;
	if (write(f->wake[1], "", 1) < 0) {
		/* the main loop also polls f->done */
	}
	return NULL;
}

/* The recorder, in the child: stdout is the pipe. Never returns. */
static void run_recorder(int out_fd, int stderr_fd, int argc, const char **argv)
{
	const char **args = calloc((size_t)argc + 6, sizeof(*args));
	int n = 0, i;

	/* die with top, rather than record for nobody */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (dup2(out_fd, STDOUT_FILENO) < 0 ||
	    (stderr_fd >= 0 && dup2(stderr_fd, STDERR_FILENO) < 0))
		_exit(PM_EXIT_INPUT);
	close(out_fd);
	args[n++] = "record";
	args[n++] = "-q";	/* top says what matters; errors still print */
	args[n++] = "-N";	/* no build-id cache to fill at the end */
	args[n++] = "-o";
	args[n++] = "-";
	for (i = 0; i < argc; i++)
		args[n++] = argv[i];
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	_exit(pm_cli_finish_stdout(cmd_record(n, args)));
}

static int child_status(pid_t pid, bool stopped)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return PM_EXIT_INPUT;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return stopped && WTERMSIG(st) == SIGINT ? 0 : 128 + WTERMSIG(st);
	return PM_EXIT_INPUT;
}

int top_feed__start(struct top_feed *f, int argc, const char **argv, int stderr_fd,
		    const struct pm_live_opts *lo, const struct pm_session_opts *so)
{
	struct pm_error err = { 0 };
	char path[64];
	int fds[2];

	memset(f, 0, sizeof(*f));
	f->child = -1;
	f->wake[0] = f->wake[1] = -1;
	if (pipe2(fds, O_CLOEXEC) || pipe2(f->wake, O_CLOEXEC)) {
		fprintf(stderr, "pmprof top: pipe: %s\n", strerror(errno));
		return PM_EXIT_INPUT;
	}
	fflush(NULL);
	f->child = fork();
	if (f->child < 0) {
		fprintf(stderr, "pmprof top: fork: %s\n", strerror(errno));
		return PM_EXIT_INPUT;
	}
	if (f->child == 0) {
		close(fds[0]);
		run_recorder(fds[1], stderr_fd, argc, argv);
	}
	close(fds[1]);
	/* the stream's header comes first: a recorder that could not start
	 * ends it before, having said why */
	snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
	if (pm_session__open(&f->s, path, so, &err)) {
		int status;

		close(fds[0]);
		status = child_status(f->child, false);
		f->child = -1;
		if (status)
			return status;
		return pm_cli_error(PM_EXIT_INPUT, STREAM_NAME, &err);
	}
	close(fds[0]);	/* the reader has its own descriptor of the pipe */
	f->live = pm_live__new(lo);
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->ticked, NULL);
	if (pthread_create(&f->thread, NULL, feed_thread, f)) {
		fprintf(stderr, "pmprof top: cannot start a thread\n");
		top_feed__stop(f);
		return top_feed__finish(f) ? : PM_EXIT_INPUT;
	}
	f->thread_started = true;
	return -1;
}

int top_feed__tick(struct top_feed *f)
{
	struct timespec until;
	int ret;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += 200 * 1000000L;	/* records come every 100 ms when busy */
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&f->lock);
	memset(&f->tick_err, 0, sizeof(f->tick_err));
	f->tick_wanted = true;
	while (f->tick_wanted && !f->done &&
	       pthread_cond_timedwait(&f->ticked, &f->lock, &until) == 0)
		;
	if (f->tick_wanted) {	/* no record came: the thread waits in read */
		f->tick_ret = pm_live__tick(f->live, f->s, &f->tick_err);
		f->tick_wanted = false;
	}
	ret = f->tick_ret;
	pthread_mutex_unlock(&f->lock);
	return ret ? pm_cli_error(PM_EXIT_INPUT, STREAM_NAME, &f->tick_err) : 0;
}

struct pm_table *top_feed__view(struct top_feed *f, const struct pm_live_view *v,
				struct pm_live_stats *st)
{
	struct pm_table *t;

	pthread_mutex_lock(&f->lock);
	t = pm_live__view(f->live, v);
	if (st)
		pm_live__stats(f->live, v, st);
	pthread_mutex_unlock(&f->lock);
	return t;
}

size_t top_feed__view_events(struct top_feed *f)
{
	struct pm_live_stats st;

	pthread_mutex_lock(&f->lock);
	pm_live__stats(f->live, NULL, &st);
	pthread_mutex_unlock(&f->lock);
	return st.nr_events;
}

size_t top_feed__columns(struct top_feed *f, const char **names, size_t max)
{
	size_t n, i;

	pthread_mutex_lock(&f->lock);
	n = pm_live__nr_columns(f->live);
	for (i = 0; i < n && i < max; i++)
		names[i] = pm_live__column_name(f->live, i);
	pthread_mutex_unlock(&f->lock);
	return n;
}

int top_feed__wake_fd(const struct top_feed *f)
{
	return f->wake[0];
}

void top_feed__stop(struct top_feed *f)
{
	if (f->child > 0 && !f->stopped)
		kill(f->child, SIGINT);
	f->stopped = true;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int top_feed__finish(struct top_feed *f)
{
	int status = 0, waited;

	if (f->thread_started) {
		/* the recorder ends its stream once stopped; one that does not
		 * within 10 s is killed, which ends it too */
		for (waited = 0; f->stopped && !f->done && waited < 10000; waited += 50)
			sleep_ms(50);
		if (!f->done && f->stopped && f->child > 0)
			kill(f->child, SIGKILL);
		pthread_join(f->thread, NULL);
		pthread_mutex_destroy(&f->lock);
		pthread_cond_destroy(&f->ticked);
	}
	if (f->child > 0)
		status = child_status(f->child, f->stopped);
	if (f->ret < 0 && !(f->stopped && status != 0))
		status = pm_cli_error(PM_EXIT_INPUT, STREAM_NAME, &f->err);
	pm_live__delete(f->live);
	pm_session__delete(f->s);
	if (f->wake[0] >= 0)
		close(f->wake[0]);
	if (f->wake[1] >= 0)
		close(f->wake[1]);
	memset(f, 0, sizeof(*f));
	return status;
}

void top_render(const struct pm_table *t, FILE *out)
{
	pm_table__render(t, out, pm_renderer__find("table"), NULL);
}
