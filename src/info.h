/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmprof info's field tables (info-fields.c): each field of the header
 * and the features once, with its text label and JSON member. Text shows
 * them as "# label : value" lines, JSON as members; the groups come in
 * each format's order (cmd-info.c), the fields of a group in the same.
 */
#ifndef PMPROF_INFO_H
#define PMPROF_INFO_H

#include <stdbool.h>
#include <stdio.h>

#include "pmprof/json.h"
#include "pmprof/perfdata.h"
#include "pmprof/strbuf.h"

enum info_kind { INFO_NONE, INFO_U64, INFO_STR };

struct info_field {
	const char *label;		/* text; NULL: JSON only */
	const char *key;		/* JSON; NULL: text only */
	enum info_kind kind;
	const void *(*where)(const struct pm_reader *r);	/* the struct */
	size_t off, size;		/* the member in it */
	unsigned feat;			/* shown when the recording has it */
	bool (*shown)(const struct pm_reader *r);	/* text: shown when */
	bool json_when_shown;		/* JSON too: only when shown */
	const char *unit;		/* text: after the number */
	void (*text)(const struct pm_reader *r, struct pm_strbuf *sb);
	void (*json)(const struct pm_reader *r, struct pm_json *j);
};

extern const struct info_field info_top[];	/* file, mode, byte order */
extern const struct info_field info_header[];	/* sizes and offsets */
extern const struct info_field info_names[];	/* hostname ... arch */
extern const struct info_field info_cpu_names[];	/* cpudesc, cpuid */
extern const struct info_field info_nrcpus[];
extern const struct info_field info_memory[];

void info_fields_text(const struct pm_reader *r, const struct info_field *f,
		      FILE *out);
void info_fields_json(const struct pm_reader *r, const struct info_field *f,
		      struct pm_json *j);

#endif
