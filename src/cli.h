/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every command shares: exit codes, the one way to report an error,
 * the options every reading command takes, and the run of an analysis
 * from a recording to its rendered report.
 *
 * A reading command is its own options and logic around this:
 *
 *	struct pm_cmd c = PM_CMD_INIT("report");
 *	const struct pm_option options[] = {
 *		OPT_INPUT(&c), ...its own..., OPT_TOP(&c), OPT_FORMAT(&c),
 *		OPT_SYMBOL_SOURCES(&c), OPT_END(),
 *	};
 *	if ((status = pm_cmd__parse(&c, argc, argv, options, usage)) >= 0)
 *		return status;
 *	...check its options, make its analysis x...
 *	status = pm_cmd__run(&c, &pm_hotspot_analysis, x);
 */
#ifndef PMPROF_CLI_H
#define PMPROF_CLI_H

#include <stdint.h>

#include "options.h"
#include "pmprof/analysis.h"
#include "pmprof/error.h"
#include "pmprof/report.h"
#include "pmprof/session.h"

/* Exit codes: 0 success, 1 usage error, 2 bad input. */
enum {
	PM_EXIT_OK = 0,
	PM_EXIT_USAGE = 1,
	PM_EXIT_INPUT = 2,
};

/*
 * The one error function of the CLI. The library says what went wrong
 * (err->msg, and the byte offset when it has one); the CLI says where:
 *	pmprof: WHERE: offset N: message
 * WHERE is the file (or "(standard input)" for "-") or the option, and
 * is left out when NULL. Returns status, so: return pm_cli_error(...).
 */
int pm_cli_error(int status, const char *where, const struct pm_error *err);
int pm_cli_errorf(int status, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same on standard error, for what is no error (exit status stays). */
void pm_cli_warn(const char *where, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * An event-spec error (pmprof/evspec.h) in perf's two-line form, a caret
 * under the offending term:
 *	pmprof: event syntax error: 'SPEC'
 *	                                  \___ message
 * Returns status.
 */
int pm_cli_evspec_error(int status, const char *spec, const struct pm_error *err);

/* OPT_INPUTS' and --symfs' callbacks: a struct pm_cmd *. The last
 * --symfs is the one of a command of one recording. */
int pm_cli_inputs_cb(const struct pm_option *opt, const char *arg);
int pm_cli_symfs_cb(const struct pm_option *opt, const char *arg);

/* An OPT_CALLBACK for --format: a const struct pm_renderer **. */
int pm_cli_format_cb(const struct pm_option *opt, const char *arg);

/* What every reading command shares (the options macros below). */
struct pm_cmd {
	const char *name;			/* the command, for messages */
	const char *input;			/* -i, default perf.data */
	const char **inputs;			/* OPT_INPUTS: every -i, in order */
	size_t nr_inputs;
	const char **symfs;			/* every --symfs, in order: the */
	size_t nr_symfs;			/* Nth is the Nth -i's (a fleet) */
	const struct pm_renderer *format;	/* --format, default table */
	uint64_t top;				/* --top: rows kept per table */
	struct pm_session_opts sopts;		/* --symfs --kallsyms -k --no-demangle */
	struct pm_render_opts ropts;		/* -q, where a command has it */
	/* The command's last say on its report, after --top and before it
	 * is rendered (metrics' --columns and the fit to the terminal): 0,
	 * or an exit status, its message printed. NULL: none. */
	int (*shape)(struct pm_cmd *c, struct pm_report *rep, void *arg);
	void *shape_arg;
	/* A fleet's groups must have the same members in the same order
	 * (report --group: a column per member, by position). */
	bool same_groups;
};

#define PM_CMD_INIT(n) { .name = (n), .input = "perf.data", \
	.sopts = { .sz = sizeof(struct pm_session_opts) }, \
	.ropts = { .sz = sizeof(struct pm_render_opts) } }

#define OPT_INPUT(c) \
	OPT_INPUT_HELP(c, "input file name (default perf.data; - for standard input)")
#define OPT_INPUT_HELP(c, h) OPT_STRING('i', "input", &(c)->input, "file", h)
/* -i again and again: a fleet (pm_cmd__run adds the recordings up). */
#define OPT_INPUTS(c) \
	OPT_CALLBACK('i', "input", (c), "file", \
		     "input file name (default perf.data; - for standard input); " \
		     "again, or a directory of *.data files: their sum (a fleet)", \
		     pm_cli_inputs_cb)
#define OPT_TOP(c) \
	OPT_U64(0, "top", &(c)->top, "n", "show the first N rows of each table")
#define OPT_FORMAT(c) \
	OPT_CALLBACK(0, "format", &(c)->format, "fmt", \
		     "table, csv, tsv, json, html, folded or pprof", pm_cli_format_cb)
/* What a stack weighs in the stack formats (folded). */
#define OPT_WEIGHT(c) \
	OPT_STRING(0, "weight", &(c)->ropts.weight, "samples|period|event", \
		   "folded: weigh each stack by its samples (default), period, or an event's period")
/* The options that say where symbols come from. */
#define OPT_SYMBOL_SOURCES(c) \
	OPT_CALLBACK(0, "symfs", (c), "dir", \
		     "look for files relative to this directory (again: one per -i, in order)", \
		     pm_cli_symfs_cb), \
	OPT_STRING(0, "kallsyms", &(c)->sopts.kallsyms, "file", \
		   "kernel symbols from this file"), \
	OPT_STRING('k', "vmlinux", &(c)->sopts.vmlinux, "file", \
		   "kernel symbols from this vmlinux"), \
	OPT_BOOLEAN(0, "no-demangle", &(c)->sopts.no_demangle, \
		    "do not demangle C++ and Rust names"), \
	OPT_STRING(0, "buildid-dir", &(c)->sopts.buildid_dir, "dir", \
		   "the build-id cache (default $HOME/.debug)")

/* perf's sample filters (pmprof/filter.h), for a command whose samples
 * they leave out: run it with pm_cmd__run_filtered(). */
#define OPT_SAMPLE_FILTERS(fo) \
	OPT_STRING('C', "cpu", &(fo)->cpus, "cpus", "only samples of these CPUs (0-3,8)"), \
	OPT_STRING(0, "time", &(fo)->time, "spec", \
		   "only samples in these times: START,STOP seconds or percent slices (10%/2)"), \
	OPT_STRING(0, "pid", &(fo)->pids, "pids", "only samples of these processes"), \
	OPT_STRING(0, "tid", &(fo)->tids, "tids", "only samples of these threads"), \
	OPT_STRING(0, "comm", &(fo)->comms, "comms", "only samples of these commands")

/*
 * Parse the command line. Returns -1 to go on, else the exit status to
 * return: 0 after --help, 1 after a bad option or a left-over argument.
 * nargs NULL: no arguments may be left; else *nargs gets their number.
 */
int pm_cmd__parse(struct pm_cmd *c, int argc, const char **argv,
		  const struct pm_option *opts, const char *const *usage,
		  int *nargs);

/* Is the --format one of these names (NULL-terminated)? Else a usage
 * error naming them is printed and false returned. */
bool pm_cmd__format_is(const struct pm_cmd *c, const char *const *names);

/*
 * The recordings one -i (or BASE, NEW of diff) names: itself; for a
 * directory without perf's "data" file (perf record -o DIR --threads
 * writes one recording as a directory holding "data"), the entries in
 * it named *.data, in name order. Appended to *list (pm_free_inputs()).
 * 0, or an exit status, the error printed (no *.data in the directory).
 */
int pm_cli_expand_input(const char *path, char ***list, size_t *nr);
void pm_free_inputs(char **list, size_t nr);

/*
 * Open c->input (every OPT_INPUTS recording: a fleet, added up by one
 * analysis, pm_analysis__run_inputs()), run the analysis x over it, keep c->top rows of each
 * table, say the report's warnings and render it to standard output in
 * c->format. Returns the exit status (the error printed when not 0).
 */
int pm_cmd__run(struct pm_cmd *c, const struct pm_analysis *a, void *x);

/*
 * The analysis x over the recording input (opened with c's session
 * options), its warnings said: *out the report, the caller's. The
 * exit status (the error printed when not 0, *out NULL then). What
 * pm_cmd__run() and each side of pmprof diff open a recording with.
 */
int pm_cmd__report(struct pm_cmd *c, const char *input,
		   const struct pm_analysis *a, void *x, struct pm_report **out);
/* The same over several recordings, each opened with c's session
 * options: a fleet's sum (inputs as -i names them: directories are
 * expanded here). A bad input is named in the message. */
int pm_cmd__report_inputs(struct pm_cmd *c, const char *const *inputs, size_t n,
			  const struct pm_analysis *a, void *x,
			  struct pm_report **out);

/* pm_cmd__run() behind the filters fo sets (none set: as it): the samples
 * they leave out never reach x. A bad filter is a usage error. */
struct pm_filter_opts;
int pm_cmd__run_filtered(struct pm_cmd *c, const struct pm_analysis *a, void *x,
			 const struct pm_filter_opts *fo);

/* What c's format needs the analysis to keep (PM_RENDER_NEEDS_*). */
unsigned int pm_cmd__needs(const struct pm_cmd *c);

/* Render a report to standard output in c's format: the exit status
 * (1 when the format cannot draw this report, e.g. folded without
 * stacks or with an unknown --weight). */
int pm_cmd__render(const struct pm_cmd *c, const struct pm_report *rep);

/* Flush stdout and report a write error (disk full, closed pipe). */
int pm_cli_finish_stdout(int status);

/* Set the library's out-of-memory handler: a message, exit 2. */
void pm_cli_init(void);

#endif
