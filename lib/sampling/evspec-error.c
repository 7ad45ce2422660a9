// SPDX-License-Identifier: GPL-2.0
/* A parse error of the -e parser, in perf's two-line form. */
#include <string.h>

#include "pmprof/error.h"
#include "pmprof/evspec.h"
#include "pmprof/strbuf.h"

void pm_evspec__format_error(struct pm_strbuf *sb, const char *prefix,
			     const char *str, const struct pm_error *err)
{
	static const char lead[] = "event syntax error: '";
	size_t off = err->has_offset ? (size_t)err->offset : 0, len = strlen(str);

	if (!prefix)
		prefix = "";
	if (off > len)
		off = len;
	pm_strbuf__addf(sb, "%s%s%s'\n", prefix, lead, str);
	pm_strbuf__addf(sb, "%*s\\___ %s\n", (int)(strlen(prefix) + strlen(lead) + off),
			"", err->msg);
}
