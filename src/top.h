/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmprof top's parts: the feed (a recorder and the live profile it feeds,
 * top-feed.c), the terminal front end (top-tui.c) and the command
 * (cmd-top.c) that wires them and prints the plain --stdio tables.
 */
#ifndef PMPROF_TOP_H
#define PMPROF_TOP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "pmprof/error.h"
#include "pmprof/live.h"
#include "pmprof/session.h"

/*
 * The feed: `pmprof record -o -` runs in a child process (record's event
 * setup, bursts and windows as they are), writing perf.data's pipe format
 * into a pipe; a thread of this process reads that stream through a
 * session and hands each sample and record to a struct pm_live. The
 * caller ends intervals (top_feed__tick) and takes views, both under the
 * feed's lock.
 */
struct top_feed {
	pid_t child;
	struct pm_session *s;
	struct pm_live *live;
	pthread_t thread;
	bool thread_started;
	pthread_mutex_t lock;
	pthread_cond_t ticked;	/* a tick the thread did for the caller */
	bool tick_wanted;	/* the caller asks the thread to tick */
	int tick_ret;		/* and what pm_live__tick returned */
	struct pm_error tick_err;
	int wake[2];		/* the thread writes a byte here when it ends */
	volatile bool done;	/* the stream ended (or failed) */
	bool stopped;		/* top_feed__stop() was called */
	int ret;		/* the thread's: 0, or negative with err */
	struct pm_error err;
};

/*
 * Start `pmprof record -q -N -o - ARGV...` in a child (stderr_fd: its
 * standard error, -1 to keep ours), then open the stream. Returns -1 to go
 * on, or the exit status when the recording could not start (its
 * message printed: record's own, or the stream's).
 */
int top_feed__start(struct top_feed *f, int argc, const char **argv, int stderr_fd,
		    const struct pm_live_opts *lo, const struct pm_session_opts *so);
/* End the interval (see pm_live__tick): 0, or the exit status after
 * printing the error. */
int top_feed__tick(struct top_feed *f);
/* The last interval as v asks, with its stats (NULL: no table yet). */
struct pm_table *top_feed__view(struct top_feed *f, const struct pm_live_view *v,
				struct pm_live_stats *st);
/* How many tables (events) the last interval has. */
size_t top_feed__view_events(struct top_feed *f);
/* Column names for sorting: the number of columns; name(i) after. */
size_t top_feed__columns(struct top_feed *f, const char **names, size_t max);
/* The fd that becomes readable when the stream ends. */
int top_feed__wake_fd(const struct top_feed *f);
/* Ask the recorder to stop (SIGINT: it ends its workload and stream). */
void top_feed__stop(struct top_feed *f);
/* Wait for the end of the stream and of the recorder; release all.
 * Returns the exit status: the recorder's (0 when stopped on purpose),
 * or 2 after printing the stream's error. */
int top_feed__finish(struct top_feed *f);

/* The text renderer's lines of a table, for a screen or a pipe. */
void top_render(const struct pm_table *t, FILE *out);

/* What the front end shows and the keys change. */
struct top_ui {
	double delay;			/* -d, seconds */
	struct pm_live_view view;
	char filter[128];
	const char *mode;		/* "hotspots" or "metrics" */
};

/* One interval on standard output: a "# pmprof top: ..." line, the table
 * (t NULL: none yet), a blank line. 0, or the exit status of a failed
 * write. */
int top_print_interval(const struct pm_table *t, const struct pm_live_stats *st,
		       const struct top_ui *ui);

/* -i FILE: the recording replayed in intervals of its samples' times
 * (top-replay.c), printed as --stdio prints them. The exit status. */
int top_replay(const char *path, const struct top_ui *ui, const struct pm_live_opts *lo,
	       const struct pm_session_opts *so);

/* The full-screen front end (ncurses) until q, the end of the stream or
 * *quit (a signal); returns 0, or the exit status of a failed tick. */
int top_tui__run(struct top_feed *f, struct top_ui *ui, volatile int *quit);

#endif
