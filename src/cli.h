/* SPDX-License-Identifier: GPL-2.0 */
/* What every command shares: exit codes, error printing, --format. */
#ifndef PMPROF_CLI_H
#define PMPROF_CLI_H

#include "options.h"
#include "pmprof/error.h"

/* Exit codes: 0 success, 1 usage error, 2 bad input. */
enum {
	PM_EXIT_OK = 0,
	PM_EXIT_USAGE = 1,
	PM_EXIT_INPUT = 2,
};

enum pm_output_format {
	PM_FORMAT_TABLE,
	PM_FORMAT_CSV,
	PM_FORMAT_TSV,
	PM_FORMAT_JSON,
};

/* "pmprof: FILE: offset N: message" on stderr; returns PM_EXIT_INPUT. */
int pm_cli_input_error(const char *file, const struct pm_error *err);
/* An output's error, whose message names the file: "pmprof: message"
 * on stderr; returns PM_EXIT_INPUT (a full disk is not a usage error). */
int pm_cli_output_error(const struct pm_error *err);
/* "pmprof: message" on stderr; returns PM_EXIT_USAGE. */
int pm_cli_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Parse a --format value; -1 with a message naming the option if unknown. */
int pm_cli_parse_format(const char *s, enum pm_output_format *out);
/* An OPT_CALLBACK for --format storing into an enum pm_output_format. */
int pm_cli_format_cb(const struct pm_option *opt, const char *arg);
#define OPT_FORMAT(v) \
	OPT_CALLBACK(0, "format", (v), "fmt", "table, csv, tsv or json", \
		     pm_cli_format_cb)

/*
 * The options that say where symbols come from, written straight into a
 * struct pm_session_opts: every command that resolves symbols takes them.
 */
#define OPT_SYMBOL_SOURCES(so) \
	OPT_STRING(0, "symfs", &(so)->symfs, "dir", \
		   "look for files relative to this directory"), \
	OPT_STRING(0, "kallsyms", &(so)->kallsyms, "file", \
		   "kernel symbols from this file"), \
	OPT_STRING('k', "vmlinux", &(so)->vmlinux, "file", \
		   "kernel symbols from this vmlinux"), \
	OPT_BOOLEAN(0, "no-demangle", &(so)->no_demangle, \
		    "do not demangle C++ and Rust names"), \
	OPT_STRING(0, "buildid-dir", &(so)->buildid_dir, "dir", \
		   "the build-id cache (default $HOME/.debug)")

/* Flush stdout and report a write error (disk full, closed pipe). */
int pm_cli_finish_stdout(int status);

/* Convert a parse-options result into an exit code (or -1: go on). */
int pm_cli_parse_status(int ret);

#endif
