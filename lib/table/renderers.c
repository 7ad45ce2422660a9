// SPDX-License-Identifier: GPL-2.0
/*
 * The list of output formats. A format is one struct pm_renderer in its
 * own lib/table/render-NAME.c; listing it here gives it to every command
 * (--format NAME) and to --help.
 */
#include <string.h>

#include "pmprof/util.h"
#include "table/internal.h"

static const struct pm_renderer *const renderers[] = {
	&pm_render_text,
	&pm_render_csv,
	&pm_render_tsv,
	&pm_render_json,
	&pm_render_html,
	&pm_render_folded,
	&pm_render_pprof,
};

const struct pm_renderer *pm_renderer__find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	if (!strcmp(name, "text"))
		return &pm_render_text;
	for (i = 0; i < PM_ARRAY_SIZE(renderers); i++)
		if (!strcmp(name, renderers[i]->name))
			return renderers[i];
	return NULL;
}

const struct pm_renderer *pm_renderer__at(size_t i)
{
	return i < PM_ARRAY_SIZE(renderers) ? renderers[i] : NULL;
}
