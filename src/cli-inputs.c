// SPDX-License-Identifier: GPL-2.0
/*
 * A fleet: several recordings (one per host) added up by one analysis.
 * -i again and again, or a directory of *.data files; each recording has
 * its own session, so that its samples resolve against its own binaries
 * (build ids), and the analysis keeps the sums (pm_analysis__run_inputs).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "pmprof/report.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

/*
 * The lists outlive the parse: kept here, not only in the command's
 * struct on its stack, and freed when the next command (the unit tests
 * run several in one process) starts its own, or at exit. A pointer only
 * ever written would be optimised away, and the lists reported as leaks.
 */
static const char **inputs_kept, **symfs_kept;

static void free_kept(void)
{
	free(inputs_kept);
	free(symfs_kept);
	inputs_kept = symfs_kept = NULL;
}

/* Before the first entry of a command's list: the last command's is dead. */
static void start_list(const char ***kept)
{
	static bool registered;

	if (!registered && !atexit(free_kept))
		registered = true;
	free(*kept);
	*kept = NULL;
}

int pm_cli_inputs_cb(const struct pm_option *opt, const char *arg)
{
	struct pm_cmd *c = opt->value;

	if (!c->inputs)
		start_list(&inputs_kept);
	c->inputs = inputs_kept = pm_reallocarray(c->inputs, c->nr_inputs + 1,
						  sizeof(*c->inputs));
	c->inputs[c->nr_inputs++] = arg;
	c->input = c->inputs[0];
	return 0;
}

int pm_cli_symfs_cb(const struct pm_option *opt, const char *arg)
{
	struct pm_cmd *c = opt->value;

	if (!c->symfs)
		start_list(&symfs_kept);
	c->symfs = symfs_kept = pm_reallocarray(c->symfs, c->nr_symfs + 1,
						sizeof(*c->symfs));
	c->symfs[c->nr_symfs++] = arg;
	c->sopts.symfs = arg;
	return 0;
}

static void push(char ***list, size_t *nr, char *s)
{
	*list = pm_reallocarray(*list, *nr + 1, sizeof(**list));
	(*list)[(*nr)++] = s;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);

	return n > k && !strcmp(s + n - k, tail);
}

int pm_cli_expand_input(const char *path, char ***list, size_t *nr)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	size_t first = *nr;
	struct stat st;
	struct dirent *de;
	DIR *d;

	if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode)) {
		/* perf's directory format: one recording, "data" its header */
		pm_strbuf__addf(&sb, "%s/data", path);
		if (!stat(pm_strbuf__str(&sb), &st) && S_ISREG(st.st_mode)) {
			pm_strbuf__release(&sb);
			push(list, nr, pm_strdup(path));
			return 0;
		}
		pm_strbuf__release(&sb);
		if (!(d = opendir(path)))
			return pm_cli_errorf(PM_EXIT_INPUT, path, "%s", strerror(errno));
		while ((de = readdir(d)))
			if (de->d_name[0] != '.' && ends_with(de->d_name, ".data")) {
				pm_strbuf__addf(&sb, "%s/%s", path, de->d_name);
				push(list, nr, pm_strbuf__detach(&sb));
			}
		closedir(d);
		if (*nr == first)
			return pm_cli_errorf(PM_EXIT_INPUT, path,
					     "a directory without perf's \"data\" file "
					     "and without recordings named *.data");
		qsort(*list + first, *nr - first, sizeof(**list), cmp_names);
		return 0;
	}
	push(list, nr, pm_strdup(path));
	return 0;
}

void pm_free_inputs(char **list, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(list[i]);
	free(list);
}

static bool records_event(struct pm_reader *r, const char *name)
{
	for (size_t i = 0; i < pm_reader__nr_events(r); i++) {
		const char *x = pm_reader__event(r, i)->name;

		if (x && !strcmp(x, name))
			return true;
	}
	return false;
}

/* A fleet's recordings need not record the same events: the analyses
 * match them by name. An event some lack is counted from those that
 * have it, and the notes say which lack it. */
static void say_missing_events(struct pm_report *rep, char **in,
			       struct pm_session **s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct pm_reader *r = pm_session__reader(s[i]);

		for (size_t e = 0; e < pm_reader__nr_events(r); e++) {
			const char *name = pm_reader__event(r, e)->name;
			struct pm_strbuf sb = PM_STRBUF_INIT;
			bool said = false;

			if (!name)
				continue;
			/* once a name: at its first recording, its first event */
			for (size_t j = 0; j < i && !said; j++)
				said = records_event(pm_session__reader(s[j]), name);
			for (size_t k = 0; k < e && !said; k++)
				said = pm_reader__event(r, k)->name &&
				       !strcmp(pm_reader__event(r, k)->name, name);
			for (size_t j = i + 1; j < n && !said; j++)
				if (!records_event(pm_session__reader(s[j]), name))
					pm_strbuf__addf(&sb, "%s%s", sb.len ? ", " : "", in[j]);
			for (size_t j = 0; j < i; j++)	/* none before i has it */
				pm_strbuf__addf(&sb, "%s%s", sb.len ? ", " : "", in[j]);
			if (!said && sb.len)
				pm_report__add_note(rep, "event %s: not recorded in %s "
						    "(its counts are the other recordings' alone)",
						    name, pm_strbuf__str(&sb));
			pm_strbuf__release(&sb);
		}
	}
}

/* The members of event e's group in r, by name, in order. */
static void group_of(struct pm_reader *r, size_t e, struct pm_strbuf *sb)
{
	int leader = pm_reader__event(r, e)->leader_idx;

	for (size_t i = 0; i < pm_reader__nr_events(r); i++) {
		const struct pm_event *m = pm_reader__event(r, i);

		if (m->leader_idx == leader)
			pm_strbuf__addf(sb, "%s%s", sb->len ? "," : "",
					m->name ? m->name : "?");
	}
}

/* The index of the event called name that leads its group in r, or -1. */
static long leader_named(struct pm_reader *r, const char *name)
{
	for (size_t f = 0; f < pm_reader__nr_events(r); f++) {
		const struct pm_event *o = pm_reader__event(r, f);

		if ((size_t)o->leader_idx == f && o->name && !strcmp(o->name, name))
			return (long)f;
	}
	return -1;
}

/*
 * report --group puts a group's members in columns by position: a
 * recording whose group of a leader has other members, or another
 * order, than an earlier recording's would mix its columns. Each group
 * is held against the first recording that has its leader (the ones
 * between were held against the same).
 */
static int same_groups(struct pm_session **s, char **in, size_t n)
{
	int status = 0;

	for (size_t j = 1; j < n && !status; j++) {
		struct pm_reader *rj = pm_session__reader(s[j]);

		for (size_t e = 0; e < pm_reader__nr_events(rj) && !status; e++) {
			const struct pm_event *ev = pm_reader__event(rj, e);
			struct pm_strbuf mine = PM_STRBUF_INIT, theirs = PM_STRBUF_INIT;
			size_t k = 0;
			long f = -1;

			if ((size_t)ev->leader_idx != e || !ev->name)
				continue;
			while (k < j && (f = leader_named(pm_session__reader(s[k]), ev->name)) < 0)
				k++;
			if (f < 0)
				continue;
			group_of(rj, e, &mine);
			group_of(pm_session__reader(s[k]), (size_t)f, &theirs);
			if (strcmp(pm_strbuf__str(&mine), pm_strbuf__str(&theirs)))
				status = pm_cli_errorf(PM_EXIT_INPUT, in[j],
					"--group: its group of %s is {%s}, %s's {%s}: "
					"a fleet's groups need the same members in the same order",
					ev->name, pm_strbuf__str(&mine), in[k],
					pm_strbuf__str(&theirs));
			pm_strbuf__release(&mine);
			pm_strbuf__release(&theirs);
		}
	}
	return status;
}

static const char *host_of(struct pm_session *s, const char *input)
{
	const struct pm_features *f = pm_reader__features(pm_session__reader(s));

	return f && f->hostname && *f->hostname ? f->hostname : input;
}

/* What the report says of its recordings: each one's file and host. */
static void say_inputs(struct pm_report *rep, char **in, struct pm_session **s,
		       size_t n)
{
	const char **v = pm_calloc(n + 1, sizeof(*v));
	struct pm_strbuf sb = PM_STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		v[i] = in[i];
		pm_strbuf__addf(&sb, "%s%s (%s)", i ? ", " : "", in[i], host_of(s[i], in[i]));
	}
	pm_report__add_comment(rep, "%zu recordings added up: %s", n, pm_strbuf__str(&sb));
	pm_summary__add_strs(pm_report__summary(rep), "inputs", NULL, v, n);
	pm_strbuf__release(&sb);
	free(v);
}

static int run_fleet(struct pm_cmd *c, char **in, const char *const *symfs,
		     size_t n, const struct pm_analysis *a, void *x,
		     struct pm_report **out)
{
	struct pm_session_opts so = c->sopts;
	struct pm_session **s = pm_calloc(n, sizeof(*s));
	struct pm_error err = { 0 };
	struct pm_report *rep = NULL;
	int status = PM_EXIT_OK;
	size_t opened = 0, failed;

	for (; opened < n && !status; opened++) {
		so.symfs = symfs[opened];
		if (pm_session__open(&s[opened], in[opened], &so, &err)) {
			status = pm_cli_error(PM_EXIT_INPUT, in[opened], &err);
			break;
		}
	}
	if (!status && c->same_groups)
		status = same_groups(s, in, n);
	if (!status && pm_analysis__run_inputs(a, x, s, n, &rep, &failed, &err)) {
		status = pm_cli_error(err.code == -PM_EUSAGE ? PM_EXIT_USAGE : PM_EXIT_INPUT,
				      err.code == -PM_EUSAGE ? c->name : in[failed], &err);
		pm_report__delete(rep);
		rep = NULL;
	}
	if (rep) {
		for (size_t i = 0; i < pm_report__nr_warnings(rep); i++)
			pm_cli_warn(c->name, "%s", pm_report__warning(rep, i));
		say_inputs(rep, in, s, n);
		say_missing_events(rep, in, s, n);
	}
	for (size_t i = 0; i < opened; i++)
		pm_session__delete(s[i]);
	free(s);
	*out = rep;
	return status;
}

int pm_cmd__report_inputs(struct pm_cmd *c, const char *const *inputs, size_t n,
			  const struct pm_analysis *a, void *x,
			  struct pm_report **out)
{
	const char **symfs = NULL;
	char **in = NULL;
	size_t nr = 0;
	int status = PM_EXIT_OK;

	*out = NULL;
	/* --symfs once: every recording's; else once per -i */
	if (c->nr_symfs > 1 && c->nr_symfs != n)
		return pm_cli_errorf(PM_EXIT_USAGE, "--symfs",
				     "given %zu times for %zu -i: once, or once per -i",
				     c->nr_symfs, n);
	for (size_t i = 0; i < n && !status; i++) {
		size_t before = nr;

		status = pm_cli_expand_input(inputs[i], &in, &nr);
		symfs = pm_reallocarray(symfs, nr + 1, sizeof(*symfs));
		for (size_t k = before; k < nr; k++)
			symfs[k] = c->nr_symfs > 1 ? c->symfs[i] : c->sopts.symfs;
	}
	if (!status && nr == 1) {
		struct pm_session_opts keep = c->sopts;

		c->sopts.symfs = symfs[0];
		status = pm_cmd__report(c, in[0], a, x, out);
		c->sopts = keep;
	} else if (!status) {
		status = run_fleet(c, in, symfs, nr, a, x, out);
	}
	free(symfs);
	pm_free_inputs(in, nr);
	return status;
}
