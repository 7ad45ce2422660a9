/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarative command-line options, in the style of git's and perf's
 * parse-options: each command lists its options once, and usage, --help
 * and error messages that name the option all come from that list.
 */
#ifndef PMPROF_OPTIONS_H
#define PMPROF_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum pm_opt_type {
	PM_OPT_END,
	PM_OPT_GROUP,		/* a heading in --help */
	PM_OPT_BOOL,		/* bool *; --no-NAME clears it */
	PM_OPT_INT,		/* int * */
	PM_OPT_U64,		/* uint64_t * (accepts 0x, k/M/G not) */
	PM_OPT_DOUBLE,		/* double * */
	PM_OPT_STRING,		/* const char ** */
	PM_OPT_STRING_LIST,	/* struct pm_opt_list *, repeatable */
	PM_OPT_CALLBACK,	/* cb(opt, arg); arg NULL for no-arg options */
};

enum pm_opt_flags {
	PM_OPT_NOARG = 1 << 0,	/* CALLBACK without an argument */
	PM_OPT_OPTARG = 1 << 1,	/* argument only as --name=value */
};

struct pm_option;
typedef int (*pm_opt_cb)(const struct pm_option *opt, const char *arg);

struct pm_option {
	enum pm_opt_type type;
	char short_name;
	const char *long_name;
	void *value;
	const char *argh;	/* the argument's name in --help */
	const char *help;
	unsigned int flags;
	pm_opt_cb cb;
};

struct pm_opt_list {
	const char **items;
	int nr;
};

#define PM_OPT_END_MARK { .type = PM_OPT_END }
#define OPT_GROUP(h) { .type = PM_OPT_GROUP, .help = (h) }
#define OPT_BOOLEAN(s, l, v, h) \
	{ .type = PM_OPT_BOOL, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_INTEGER(s, l, v, a, h) \
	{ .type = PM_OPT_INT, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_U64(s, l, v, a, h) \
	{ .type = PM_OPT_U64, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_DOUBLE(s, l, v, a, h) \
	{ .type = PM_OPT_DOUBLE, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = PM_OPT_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_STRING_LIST(s, l, v, a, h) \
	{ .type = PM_OPT_STRING_LIST, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_CALLBACK(s, l, v, a, h, f) \
	{ .type = PM_OPT_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .cb = (f) }
#define OPT_CALLBACK_NOARG(s, l, v, h, f) \
	{ .type = PM_OPT_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .cb = (f), .flags = PM_OPT_NOARG }
#define OPT_END() PM_OPT_END_MARK

enum pm_parse_flags {
	/* Stop at the first non-option (record's workload command). */
	PM_PARSE_STOP_AT_NON_OPTION = 1 << 0,
};

/* Returned by pm_parse_options() after printing --help. */
#define PM_PARSE_HELP (-2)

/*
 * Parse argv[1..argc) in place. Returns the number of arguments left in
 * argv (non-options, in order, from argv[0]), PM_PARSE_HELP after -h or
 * --help (usage printed to stdout), or -1 after printing an error that
 * names the option, plus the usage, to stderr.
 */
int pm_parse_options(int argc, const char **argv,
		     const struct pm_option *opts, const char *const *usage,
		     unsigned int flags);

/* Print usage and the option list. */
void pm_usage_with_options(FILE *out, const char *const *usage,
			   const struct pm_option *opts);

/* For callbacks: print "pmprof: option `NAME' ..." and return -1. */
int pm_opt_error(const struct pm_option *opt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
