// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

int pm_cli_input_error(const char *file, const struct pm_error *err)
{
	const char *msg = err->msg[0] ? err->msg : pm_strerror(err->code);
	const char *sep = err->part[0] ? "/" : "";

	if (!strcmp(file, "-"))
		file = "(standard input)";

	/* In a directory recording, the file inside it the offset is in. */
	if (err->has_offset)
		fprintf(stderr, "pmprof: %s%s%s: offset %" PRIu64 ": %s\n", file,
			sep, err->part, err->offset, msg);
	else
		fprintf(stderr, "pmprof: %s%s%s: %s\n", file, sep, err->part,
			msg);
	return PM_EXIT_INPUT;
}

int pm_cli_output_error(const struct pm_error *err)
{
	fprintf(stderr, "pmprof: %s\n", err->msg[0] ? err->msg : pm_strerror(err->code));
	return PM_EXIT_INPUT;
}

int pm_cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("pmprof: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return PM_EXIT_USAGE;
}

int pm_cli_parse_format(const char *s, enum pm_output_format *out)
{
	static const struct { const char *name; enum pm_output_format f; } formats[] = {
		{ "table", PM_FORMAT_TABLE }, { "text", PM_FORMAT_TABLE },
		{ "csv", PM_FORMAT_CSV }, { "tsv", PM_FORMAT_TSV },
		{ "json", PM_FORMAT_JSON },
	};
	size_t i;

	for (i = 0; s && i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(s, formats[i].name)) {
			*out = formats[i].f;
			return 0;
		}
	return -1;
}

int pm_cli_format_cb(const struct pm_option *opt, const char *arg)
{
	if (pm_cli_parse_format(arg, opt->value))
		return pm_opt_error(opt, "expects table, csv, tsv or json, not '%s'",
				    arg ? arg : "");
	return 0;
}

int pm_cli_finish_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		if (errno == EPIPE)
			return status;
		fprintf(stderr, "pmprof: write error on standard output: %s\n",
			strerror(errno));
		return status ? status : PM_EXIT_INPUT;
	}
	return status;
}

int pm_cli_parse_status(int ret)
{
	if (ret == PM_PARSE_HELP)
		return PM_EXIT_OK;
	if (ret < 0)
		return PM_EXIT_USAGE;
	return -1;
}
