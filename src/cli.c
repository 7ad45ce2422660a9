// SPDX-License-Identifier: GPL-2.0
/* What every command shares: errors, the reading commands' options and run. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pmprof/filter.h"
#include "pmprof/analysis.h"
#include "pmprof/evspec.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

static void say(const char *where, const struct pm_error *err, const char *msg)
{
	if (where && !strcmp(where, "-"))
		where = "(standard input)";
	fputs("pmprof: ", stderr);
	/* In a directory recording, the file inside it the offset is in. */
	if (where && err && err->part[0])
		fprintf(stderr, "%s/%s: ", where, err->part);
	else if (where)
		fprintf(stderr, "%s: ", where);
	if (err && err->has_offset)
		fprintf(stderr, "offset %" PRIu64 ": ", err->offset);
	fprintf(stderr, "%s\n", msg);
}

int pm_cli_error(int status, const char *where, const struct pm_error *err)
{
	say(where, err, err->msg[0] ? err->msg : pm_strerror(err->code));
	return status;
}

static void vsayf(const char *where, const char *fmt, va_list ap)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;

	pm_strbuf__vaddf(&sb, fmt, ap);
	say(where, NULL, pm_strbuf__str(&sb));
	pm_strbuf__release(&sb);
}

int pm_cli_errorf(int status, const char *where, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsayf(where, fmt, ap);
	va_end(ap);
	return status;
}

void pm_cli_warn(const char *where, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsayf(where, fmt, ap);
	va_end(ap);
}

int pm_cli_evspec_error(int status, const char *spec, const struct pm_error *err)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;

	pm_evspec__format_error(&sb, "pmprof: ", spec, err);
	fputs(pm_strbuf__str(&sb), stderr);
	pm_strbuf__release(&sb);
	return status;
}

/* "table, csv, tsv, json or html": the renderers, for messages. */
static void format_names(struct pm_strbuf *sb)
{
	const struct pm_renderer *r;
	size_t i;

	for (i = 0; (r = pm_renderer__at(i)); i++)
		pm_strbuf__addf(sb, "%s%s", i ? (pm_renderer__at(i + 1) ? ", " : " or ")
					      : "", r->name);
}

int pm_cli_format_cb(const struct pm_option *opt, const char *arg)
{
	const struct pm_renderer *r = pm_renderer__find(arg);
	struct pm_strbuf sb = PM_STRBUF_INIT;

	if (r) {
		*(const struct pm_renderer **)opt->value = r;
		return 0;
	}
	format_names(&sb);
	pm_opt_error(opt, "expects %s, not '%s'", pm_strbuf__str(&sb),
		     arg ? arg : "");
	pm_strbuf__release(&sb);
	return -1;
}

int pm_cmd__parse(struct pm_cmd *c, int argc, const char **argv,
		  const struct pm_option *opts, const char *const *usage,
		  int *nargs)
{
	int ret = pm_parse_options(argc, argv, opts, usage, 0);

	if (ret == PM_PARSE_HELP)
		return PM_EXIT_OK;
	if (ret < 0)
		return PM_EXIT_USAGE;
	if (!c->format)
		c->format = pm_renderer__find("table");
	if (c->ropts.weight && !(c->format->needs & PM_RENDER_NEEDS_STACKS))
		return pm_cli_errorf(PM_EXIT_USAGE, "--weight",
				     "only for a stack format (--format folded)");
	if (nargs) {
		*nargs = ret;
		return -1;
	}
	if (ret > 0)
		return pm_cli_errorf(PM_EXIT_USAGE, c->name,
				     "unexpected argument '%s'", argv[0]);
	return -1;
}

bool pm_cmd__format_is(const struct pm_cmd *c, const char *const *names)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	size_t i;

	for (i = 0; names[i]; i++)
		if (c->format == pm_renderer__find(names[i]))
			return true;
	for (i = 0; names[i]; i++)
		pm_strbuf__addf(&sb, "%s%s", i ? (names[i + 1] ? ", " : " or ") : "",
				names[i]);
	pm_cli_errorf(PM_EXIT_USAGE, "--format", "%s for %s, not '%s'",
		      pm_strbuf__str(&sb), c->name, c->format->name);
	pm_strbuf__release(&sb);
	return false;
}

unsigned int pm_cmd__needs(const struct pm_cmd *c)
{
	return c->format ? c->format->needs : 0;
}

int pm_cmd__render(const struct pm_cmd *c, const struct pm_report *rep)
{
	struct pm_error err = { 0 };

	if (pm_report__check_render(rep, c->format, &c->ropts, &err))
		return pm_cli_error(PM_EXIT_USAGE, NULL, &err);
	if (pm_report__render(rep, stdout, c->format, &c->ropts))
		return PM_EXIT_INPUT;	/* stdout failed: finish_stdout says */
	return PM_EXIT_OK;
}

int pm_cmd__report(struct pm_cmd *c, const char *input,
		   const struct pm_analysis *a, void *x, struct pm_report **out)
{
	struct pm_error err = { 0 };
	struct pm_report *rep = NULL;
	struct pm_session *s;
	int status = PM_EXIT_OK;

	*out = NULL;
	if (pm_session__open(&s, input, &c->sopts, &err))
		return pm_cli_error(PM_EXIT_INPUT, input, &err);
	if (pm_analysis__run(a, x, s, &rep, &err)) {
		status = pm_cli_error(PM_EXIT_INPUT, input, &err);
		pm_report__delete(rep);
	} else {
		for (size_t i = 0; i < pm_report__nr_warnings(rep); i++)
			pm_cli_warn(input, "%s", pm_report__warning(rep, i));
		*out = rep;
	}
	pm_session__delete(s);
	return status;
}

int pm_cmd__run(struct pm_cmd *c, const struct pm_analysis *a, void *x)
{
	struct pm_report *rep;
	const char *one = c->input;
	int status = pm_cmd__report_inputs(c, c->nr_inputs ? c->inputs : &one,
					   c->nr_inputs ? c->nr_inputs : 1, a, x, &rep);

	if (status)
		return status;
	pm_report__truncate(rep, (size_t)c->top);
	if (c->shape)
		status = c->shape(c, rep, c->shape_arg);
	if (!status)
		status = pm_cmd__render(c, rep);
	pm_report__delete(rep);
	return status;
}

int pm_cmd__run_filtered(struct pm_cmd *c, const struct pm_analysis *a, void *x,
			 const struct pm_filter_opts *fo)
{
	struct pm_filtered fa = { .inner = a, .x = x, .opts = fo };
	struct pm_error err = { 0 };
	struct pm_filter *probe;
	int status;

	if (!fo->cpus && !fo->time && !fo->pids && !fo->tids && !fo->comms)
		return pm_cmd__run(c, a, x);
	/* the syntax now (times: any recording's): a usage error */
	if (pm_filter__new(&probe, fo, 1, 2, &err))
		return pm_cli_error(PM_EXIT_USAGE, NULL, &err);
	pm_filter__delete(probe);
	status = pm_cmd__run(c, &pm_filtered_analysis, &fa);
	pm_filtered__release(&fa);
	return status;
}

int pm_cli_finish_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		if (errno == EPIPE)
			return status;
		pm_cli_errorf(status ? status : PM_EXIT_INPUT, "standard output",
			      "write error: %s", strerror(errno));
		return status ? status : PM_EXIT_INPUT;
	}
	return status;
}

static void oom(size_t bytes)
{
	/* No allocation here: stdio on stderr is unbuffered. */
	fprintf(stderr, "pmprof: out of memory (%zu bytes wanted)\n", bytes);
	exit(PM_EXIT_INPUT);
}

void pm_cli_init(void)
{
	pm_set_oom_handler(oom);
}
