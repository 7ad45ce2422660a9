// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof top's full-screen front end (ncurses): the last interval's table
 * as the text renderer prints it, under a status line, redrawn at each
 * interval and key. Keys: s sorts by the next column (then back to the
 * analysis's order), / filters by symbol (an empty filter shows all),
 * q quits. endwin() restores the terminal (leaves the alternate screen,
 * shows the cursor) on every way out: q, a signal, the stream's end.
 */
#include <curses.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "pmprof/table.h"
#include "top.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *sort_name(struct top_feed *f, const struct top_ui *ui)
{
	const char *names[64];
	size_t n = top_feed__columns(f, names, 64);

	if (ui->view.sort < 0 || (size_t)ui->view.sort >= n || (size_t)ui->view.sort >= 64)
		return "default";
	return names[ui->view.sort];
}

static void draw(struct top_feed *f, const struct top_ui *ui)
{
	struct pm_live_stats st;
	struct pm_table *t = top_feed__view(f, &ui->view, &st);
	int rows, cols, y = 3;
	char which[64] = "";

	if (st.nr_events > 1)
		snprintf(which, sizeof(which), ", event %zu of %zu", st.view_event + 1,
			 st.nr_events);
	getmaxyx(stdscr, rows, cols);
	erase();
	mvprintw(0, 0, "pmprof top: %s, interval %llu (%g s): %llu samples%s%s%s (%llu in all)",
		 ui->mode, (unsigned long long)st.intervals, ui->delay,
		 (unsigned long long)st.samples, st.event ? " of " : "",
		 st.event ? st.event : "", which, (unsigned long long)st.total);
	mvprintw(1, 0, "sort: %s  filter: %s  keys: s sort, / filter, %sq quit",
		 sort_name(f, ui), ui->filter[0] ? ui->filter : "(none)",
		 st.nr_events > 1 ? "E next event, " : "");
	if (!t) {
		mvaddstr(y, 0, "no samples yet");
	} else {
		char *buf = NULL, *line, *save = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (m) {
			top_render(t, m);
			fclose(m);
			for (line = strtok_r(buf, "\n", &save); line && y < rows;
			     line = strtok_r(NULL, "\n", &save), y++)
				mvaddnstr(y, 0, line, cols);
		}
		free(buf);
		pm_table__delete(t);
	}
	refresh();
}

/* "/": read the filter on the last line, keys echoed, the cursor shown. */
static void read_filter(struct top_ui *ui)
{
	char buf[sizeof(ui->filter)];
	int rows, cols;

	getmaxyx(stdscr, rows, cols);
	(void)cols;
	move(rows - 1, 0);
	clrtoeol();
	addstr("filter (symbol contains): ");
	echo();
	curs_set(1);
	nodelay(stdscr, FALSE);
	if (getnstr(buf, (int)sizeof(buf) - 1) != ERR) {
		snprintf(ui->filter, sizeof(ui->filter), "%s", buf);
		ui->view.filter = ui->filter;
	}
	nodelay(stdscr, TRUE);
	curs_set(0);
	noecho();
}

/* Keys waiting: false on q. */
static bool take_keys(struct top_feed *f, struct top_ui *ui)
{
	int c;

	while ((c = getch()) != ERR) {
		const char *names[1];
		int n;

		switch (c) {
		case 'q':
		case 'Q':
			return false;
		case 's':
			n = (int)top_feed__columns(f, names, 0);
			ui->view.sort = ui->view.sort + 1 >= n ? -1 : ui->view.sort + 1;
			break;
		case '/':
			read_filter(ui);
			break;
		case 'E':	/* perf top's key for the event shown */
			if (top_feed__view_events(f) > ui->view.event + 1)
				ui->view.event++;
			else
				ui->view.event = 0;
			break;
		default:	/* KEY_RESIZE among them: redrawn below */
			break;
		}
	}
	return true;
}

int top_tui__run(struct top_feed *f, struct top_ui *ui, volatile int *quit)
{
	struct pollfd pfd[2] = {
		{ .fd = STDIN_FILENO, .events = POLLIN },
		{ .fd = top_feed__wake_fd(f), .events = POLLIN },
	};
	double next = now_s() + ui->delay;
	int status = 0;

	if (!initscr()) {
		fprintf(stderr, "pmprof top: cannot use the terminal (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		return PM_EXIT_USAGE;
	}
	cbreak();
	noecho();
	nodelay(stdscr, TRUE);
	keypad(stdscr, TRUE);
	curs_set(0);
	draw(f, ui);
	while (!*quit) {
		double left = next - now_s();

		if (left > 0 && !f->done) {
			if (poll(pfd, 2, (int)ceil(left * 1000)) < 0 && errno != EINTR)
				break;
			if (*quit || !take_keys(f, ui))
				break;
			draw(f, ui);
			continue;
		}
		if ((status = top_feed__tick(f)))
			break;
		draw(f, ui);
		if (f->done)
			break;
		next += ui->delay;
		if (next < now_s())
			next = now_s() + ui->delay;
	}
	endwin();
	return status;
}
