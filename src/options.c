// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"
#include "suggest.h"

static void option_name(const struct pm_option *opt, char *buf, size_t n)
{
	if (opt->long_name)
		snprintf(buf, n, "--%s", opt->long_name);
	else
		snprintf(buf, n, "-%c", opt->short_name);
}

int pm_opt_error(const struct pm_option *opt, const char *fmt, ...)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	char name[64];
	va_list ap;

	option_name(opt, name, sizeof(name));
	va_start(ap, fmt);
	pm_strbuf__vaddf(&sb, fmt, ap);
	va_end(ap);
	pm_cli_errorf(-1, name, "%s", pm_strbuf__str(&sb));
	pm_strbuf__release(&sb);
	return -1;
}

static bool takes_arg(const struct pm_option *opt)
{
	switch (opt->type) {
	case PM_OPT_BOOL:
		return false;
	case PM_OPT_CALLBACK:
		return !(opt->flags & PM_OPT_NOARG);
	default:
		return true;
	}
}

static int set_value(const struct pm_option *opt, const char *arg, bool unset)
{
	char *end;

	switch (opt->type) {
	case PM_OPT_BOOL:
		*(bool *)opt->value = !unset;
		return 0;
	case PM_OPT_INT: {
		long v;

		errno = 0;
		v = strtol(arg, &end, 0);
		if (errno || *end || end == arg || v < -2147483647L - 1 ||
		    v > 2147483647L)
			return pm_opt_error(opt, "expects an integer, not '%s'", arg);
		*(int *)opt->value = (int)v;
		return 0;
	}
	case PM_OPT_U64: {
		unsigned long long v;

		errno = 0;
		if (*arg == '-')
			return pm_opt_error(opt, "expects a non-negative integer, not '%s'", arg);
		v = strtoull(arg, &end, 0);
		if (errno || *end || end == arg)
			return pm_opt_error(opt, "expects a non-negative integer, not '%s'", arg);
		*(uint64_t *)opt->value = v;
		return 0;
	}
	case PM_OPT_DOUBLE: {
		double v;

		errno = 0;
		v = strtod(arg, &end);
		if (errno || *end || end == arg)
			return pm_opt_error(opt, "expects a number, not '%s'", arg);
		*(double *)opt->value = v;
		return 0;
	}
	case PM_OPT_STRING:
		*(const char **)opt->value = arg;
		return 0;
	case PM_OPT_STRING_LIST: {
		struct pm_opt_list *l = opt->value;

		l->items = pm_reallocarray(l->items, (size_t)l->nr + 1,
					   sizeof(*l->items));
		l->items[l->nr++] = arg;
		return 0;
	}
	case PM_OPT_CALLBACK:
		return opt->cb(opt, unset ? NULL : arg);
	default:
		return -1;
	}
}

static const struct pm_option *find_long(const struct pm_option *opts,
					 const char *name, size_t len,
					 bool *unset)
{
	const struct pm_option *o;

	*unset = false;
	for (o = opts; o->type != PM_OPT_END; o++)
		if (o->long_name && strlen(o->long_name) == len &&
		    !strncmp(o->long_name, name, len))
			return o;
	if (len > 3 && !strncmp(name, "no-", 3)) {
		for (o = opts; o->type != PM_OPT_END; o++)
			if (o->type == PM_OPT_BOOL && o->long_name &&
			    strlen(o->long_name) == len - 3 &&
			    !strncmp(o->long_name, name + 3, len - 3)) {
				*unset = true;
				return o;
			}
	}
	return NULL;
}

static const struct pm_option *find_short(const struct pm_option *opts, char c)
{
	const struct pm_option *o;

	for (o = opts; o->type != PM_OPT_END; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

void pm_usage_with_options(FILE *out, const char *const *usage,
			   const struct pm_option *opts)
{
	const struct pm_option *o;

	fprintf(out, "\n usage: %s\n", *usage++);
	while (*usage)
		fprintf(out, "    or: %s\n", *usage++);
	fputc('\n', out);
	for (o = opts; o->type != PM_OPT_END; o++) {
		char left[96];
		int n = 0;

		if (o->type == PM_OPT_GROUP) {
			fprintf(out, "\n%s\n", o->help);
			continue;
		}
		if (o->short_name)
			n += snprintf(left + n, sizeof(left) - (size_t)n,
				      "-%c%s", o->short_name, o->long_name ? ", " : "");
		else
			n += snprintf(left + n, sizeof(left) - (size_t)n, "    ");
		if (o->long_name)
			n += snprintf(left + n, sizeof(left) - (size_t)n,
				      "--%s", o->long_name);
		if (takes_arg(o) && n < (int)sizeof(left))
			snprintf(left + n, sizeof(left) - (size_t)n, " <%s>",
				 o->argh ? o->argh : "n");
		if (strlen(left) > 24)
			fprintf(out, "    %s\n%28s  %s\n", left, "", o->help);
		else
			fprintf(out, "    %-24s  %s\n", left, o->help);
	}
	fputc('\n', out);
}

/*
 * An option's value: given inline (--name=v, -nv) or as the next argument.
 * On a missing value, sets *i to -1 so the caller adds the usage.
 */
static int take_value(const struct pm_option *o, const char *inline_arg,
		      int argc, const char **argv, int *i)
{
	if (inline_arg)
		return set_value(o, inline_arg, false);
	if (*i + 1 < argc)
		return set_value(o, argv[++*i], false);
	pm_opt_error(o, "requires a value");
	*i = -1;
	return -1;
}

/* "pmprof record": the first two words of the usage line. */
static int command_name(const char *const *usage, char *buf, size_t n)
{
	const char *u = usage && *usage ? *usage : "pmprof";
	const char *sp = strchr(u, ' ');
	size_t len = strlen(u);

	if (sp) {
		const char *sp2 = strpbrk(sp + 1, " \n");

		len = sp2 ? (size_t)(sp2 - u) : strlen(u);
	}
	return snprintf(buf, n, "%.*s", (int)len, u);
}

/*
 * One line for an unknown option, with the nearest known one when the
 * word looks like a typo of it (not the whole usage: issue 16).
 */
static int unknown_option(const char *const *usage, const struct pm_option *opts,
			  const char *name, size_t len, char short_name)
{
	const struct pm_option *o;
	const char **cands = NULL;
	const char *best = NULL;
	char cmd[128], shown[80];
	size_t n = 0;

	command_name(usage, cmd, sizeof(cmd));
	if (short_name) {
		snprintf(shown, sizeof(shown), "-%c", short_name);
		/* the same letter in the other case (-f for -F) */
		for (o = opts; o->type != PM_OPT_END; o++)
			if (o->short_name && o->short_name != short_name &&
			    (o->short_name | 0x20) == (short_name | 0x20))
				return pm_cli_errorf(-1, shown, "unknown switch; did you mean -%c?",
						     o->short_name);
		return pm_cli_errorf(-1, shown, "unknown switch (see '%s -h')", cmd);
	}
	snprintf(shown, sizeof(shown), "--%.*s", (int)(len < 64 ? len : 64), name);
	for (o = opts; o->type != PM_OPT_END; o++)
		if (o->long_name) {
			cands = pm_reallocarray(cands, n + 1, sizeof(*cands));
			cands[n++] = o->long_name;
		}
	best = pm_suggest(name, len, cands, n);
	if (best)
		pm_cli_errorf(-1, shown, "unknown option; did you mean --%s?", best);
	else
		pm_cli_errorf(-1, shown, "unknown option (see '%s -h')", cmd);
	free(cands);
	return -1;
}

static int bad_usage(const char *const *usage, const struct pm_option *opts)
{
	pm_usage_with_options(stderr, usage, opts);
	return -1;
}

int pm_parse_options(int argc, const char **argv,
		     const struct pm_option *opts, const char *const *usage,
		     unsigned int flags)
{
	int i, left = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || !a[1]) {
			if (flags & PM_PARSE_STOP_AT_NON_OPTION) {
				while (i < argc)
					argv[left++] = argv[i++];
				break;
			}
			argv[left++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			for (i++; i < argc; i++)
				argv[left++] = argv[i];
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			pm_usage_with_options(stdout, usage, opts);
			return PM_PARSE_HELP;
		}
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			const struct pm_option *o;
			bool unset;

			o = find_long(opts, name, len, &unset);
			if (!o)
				return unknown_option(usage, opts, name, len, 0);
			if (!takes_arg(o) || unset) {
				if (eq) {
					pm_opt_error(o, "takes no value");
					return bad_usage(usage, opts);
				}
				if (set_value(o, NULL, unset))
					return -1;
				continue;
			}
			if (!eq && (o->flags & PM_OPT_OPTARG)) {
				if (set_value(o, NULL, false))
					return -1;
				continue;
			}
			if (take_value(o, eq ? eq + 1 : NULL, argc, argv, &i))
				return i < 0 ? bad_usage(usage, opts) : -1;
			continue;
		}
		/* A cluster of short options: -vT, or -ifile / -i file. */
		for (a++; *a; a++) {
			const struct pm_option *o = find_short(opts, *a);

			if (!o)
				return unknown_option(usage, opts, NULL, 0, *a);
			if (!takes_arg(o)) {
				if (set_value(o, NULL, false))
					return -1;
				continue;
			}
			/* an optional value only ever sticks to its switch: -z5 */
			if (o->flags & PM_OPT_OPTARG) {
				if (set_value(o, a[1] ? a + 1 : NULL, false))
					return -1;
				break;
			}
			if (take_value(o, a[1] ? a + 1 : NULL, argc, argv, &i))
				return i < 0 ? bad_usage(usage, opts) : -1;
			break;
		}
	}
	argv[left] = NULL;
	return left;
}
