// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof script: every sample as `perf script` prints it (pmprof/script.h),
 * streamed in time order: a recording of any size goes out sample by
 * sample, nothing is kept.
 */
#include <stdio.h>
#include <stdlib.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/script.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

static const char *const script_usage[] = {
	"pmprof script [-i FILE] [-F FIELDS] [--inline] [options]",
	NULL,
};

struct script_run {
	struct pm_script_fields fields;
	unsigned int *per_event;	/* fields + 1 by event index; 0: not yet */
	size_t nr_events;
	struct pm_strbuf line;
	struct pm_error err;
	int event_width;		/* -1: not yet known */
};

static int fields_of(struct script_run *sr, struct pm_session *s,
		     const struct pm_event *ev, unsigned int *out)
{
	size_t n = pm_reader__nr_events(pm_session__reader(s));

	if (n > sr->nr_events) {
		sr->per_event = pm_reallocarray(sr->per_event, n, sizeof(unsigned int));
		for (size_t i = sr->nr_events; i < n; i++)
			sr->per_event[i] = 0;
		sr->nr_events = n;
	}
	if ((size_t)ev->idx < sr->nr_events && sr->per_event[ev->idx]) {
		*out = sr->per_event[ev->idx] - 1;
		return 0;
	}
	if (pm_script_fields__for_event(&sr->fields, ev, out, &sr->err))
		return -1;
	if ((size_t)ev->idx < sr->nr_events)
		sr->per_event[ev->idx] = *out + 1;
	return 0;
}

static int one_sample(struct pm_session *s, const struct pm_sample_ctx *ctx,
		      void *arg)
{
	struct script_run *sr = arg;
	unsigned int f = sr->fields.want;

	if (ctx->event && fields_of(sr, s, ctx->event, &f))
		return 1;
	/* A pipe names its events before their samples. */
	if (sr->event_width < 0)
		sr->event_width = pm_script__event_width(pm_session__reader(s));
	pm_strbuf__reset(&sr->line);
	pm_script__format(f, sr->event_width, s, ctx, &sr->line);
	fwrite(pm_strbuf__str(&sr->line), 1, sr->line.len, stdout);
	return ferror(stdout) ? 2 : 0;
}

int cmd_script(int argc, const char **argv)
{
	struct pm_cmd c = PM_CMD_INIT("script");
	const char *spec = NULL;
	const struct pm_option options[] = {
		OPT_INPUT(&c),
		OPT_STRING('F', "fields", &spec, "fields",
			   "comm,tid,pid,cpu,time,period,event,ip,sym,symoff,dso; +f,-f change the defaults"),
		OPT_BOOLEAN(0, "inline", &c.sopts.inline_frames,
			    "inlined functions as call chain entries of their own"),
		OPT_SYMBOL_SOURCES(&c),
		OPT_END(),
	};
	struct script_run sr = { .line = PM_STRBUF_INIT, .event_width = -1 };
	struct pm_session *s;
	int status, ret;

	status = pm_cmd__parse(&c, argc, argv, options, script_usage, NULL);
	if (status >= 0)
		return status;
	sr.fields.want = PM_SCRIPT_DEFAULT;
	if (spec && pm_script_fields__parse(spec, &sr.fields, &sr.err))
		return pm_cli_error(PM_EXIT_USAGE, "-F", &sr.err);
	if (pm_session__open(&s, c.input, &c.sopts, &sr.err))
		return pm_cli_error(PM_EXIT_INPUT, c.input, &sr.err);
	ret = pm_session__run(s, one_sample, NULL, &sr, &sr.err);
	if (ret == 1)
		status = pm_cli_error(PM_EXIT_USAGE, "-F", &sr.err);
	else if (ret == 2)
		status = PM_EXIT_INPUT;	/* stdout failed: finish_stdout says */
	else if (ret < 0)
		status = pm_cli_error(PM_EXIT_INPUT, c.input, &sr.err);
	else
		status = PM_EXIT_OK;
	pm_strbuf__release(&sr.line);
	free(sr.per_event);
	pm_session__delete(s);
	return status;
}
