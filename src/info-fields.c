// SPDX-License-Identifier: GPL-2.0
/*
 * What pmprof info shows, as field tables: each field once, with its
 * text label ("# label : value") and its JSON member, so that the two
 * formats cannot drift apart. The tables come in groups; text and JSON
 * show the groups in their own orders (info.h).
 */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "info.h"
#include "pmprof/attr_print.h"

/* ---- where the values are ---- */

static const void *header(const struct pm_reader *r)
{
	return pm_reader__header(r);
}

static const void *features(const struct pm_reader *r)
{
	return pm_reader__features(r);
}

static bool file_mode(const struct pm_reader *r)
{
	return !pm_reader__is_pipe(r);
}

/* ---- values that are more than a member ---- */

static void attr_size_text(const struct pm_reader *r, struct pm_strbuf *sb)
{
	uint64_t n = pm_reader__header(r)->attr_size;

	pm_strbuf__addf(sb, "%" PRIu64 " (a %" PRIu64 "-byte attr and its ids section)",
			n, n >= 16 ? n - 16 : 0);
}

static void data_size_text(const struct pm_reader *r, struct pm_strbuf *sb)
{
	pm_strbuf__addf(sb, "%" PRIu64 "%s", pm_reader__header(r)->data.size,
			pm_reader__interrupted(r) ? " (interrupted recording)" : "");
}

static void feat_offset_text(const struct pm_reader *r, struct pm_strbuf *sb)
{
	const struct pm_file_header *h = pm_reader__header(r);

	pm_strbuf__addf(sb, "%" PRIu64, h->data.offset + h->data.size);
}

static void interrupted_json(const struct pm_reader *r, struct pm_json *j)
{
	pm_json__bool(j, pm_reader__interrupted(r));
}

static const char *mode(const struct pm_reader *r)
{
	return pm_reader__is_pipe(r) ? "pipe" :
	       pm_reader__is_dir(r) ? "directory" : "file";
}

static void mode_text(const struct pm_reader *r, struct pm_strbuf *sb)
{
	pm_strbuf__addf(sb, "%s, %s", mode(r),
			pm_reader__big_endian(r) ? "big-endian" : "little-endian");
}

static void mode_json(const struct pm_reader *r, struct pm_json *j)
{
	pm_json__string(j, mode(r));
}

/* ---- a directory recording's files ---- */

static bool dir_mode(const struct pm_reader *r)
{
	return pm_reader__is_dir(r);
}

static void dir_text(const struct pm_reader *r, struct pm_strbuf *sb)
{
	pm_strbuf__addf(sb, "version %" PRIu64 ", %zu data files",
			pm_reader__features(r)->dir_format_version,
			pm_reader__nr_parts(r) - 1);
}

static void parts_text(const struct pm_reader *r, struct pm_strbuf *sb)
{
	size_t i;

	for (i = 0; i < pm_reader__nr_parts(r); i++)
		pm_strbuf__addf(sb, "%s%s, %" PRIu64 " bytes", i ? "\n" : "",
				pm_reader__part_name(r, i), pm_reader__part_size(r, i));
}

static void parts_json(const struct pm_reader *r, struct pm_json *j)
{
	size_t i;

	pm_json__begin_array(j);
	for (i = 0; i < pm_reader__nr_parts(r); i++) {
		pm_json__begin_object(j);
		pm_json__kv_string(j, "file", pm_reader__part_name(r, i));
		pm_json__kv_u64(j, "size", pm_reader__part_size(r, i));
		pm_json__end_object(j);
	}
	pm_json__end_array(j);
}

static void byte_order_json(const struct pm_reader *r, struct pm_json *j)
{
	pm_json__string(j, pm_reader__big_endian(r) ? "big" : "little");
}

static void file_text(const struct pm_reader *r, struct pm_strbuf *sb)
{
	pm_strbuf__adds(sb, pm_reader__name(r));
}

static void file_json(const struct pm_reader *r, struct pm_json *j)
{
	pm_json__string(j, pm_reader__name(r));
}

#define HDR(m) offsetof(struct pm_file_header, m)
#define FEAT(m) offsetof(struct pm_features, m)
#define SZ(T, m) sizeof(((T *)0)->m)

const struct info_field info_top[] = {
	{ "file", "file", .text = file_text, .json = file_json },
	{ "mode", "mode", .text = mode_text, .json = mode_json },
	{ NULL, "byte_order", .json = byte_order_json },
	{ "directory", "dir_format_version", INFO_U64, features, FEAT(dir_format_version), 8,
	  .shown = dir_mode, .json_when_shown = true, .text = dir_text },
	{ "part", "parts", .shown = dir_mode, .json_when_shown = true,
	  .text = parts_text, .json = parts_json },
	{ NULL },
};

const struct info_field info_header[] = {
	{ "header size", "size", INFO_U64, header, HDR(size),
	  SZ(struct pm_file_header, size), .shown = file_mode },
	{ "attr size", "attr_size", INFO_U64, header, HDR(attr_size),
	  SZ(struct pm_file_header, attr_size), .shown = file_mode,
	  .text = attr_size_text },
	{ NULL, "attrs_offset", INFO_U64, header, HDR(attrs.offset), 8 },
	{ NULL, "attrs_size", INFO_U64, header, HDR(attrs.size), 8 },
	{ "data offset", "data_offset", INFO_U64, header, HDR(data.offset), 8,
	  .shown = file_mode },
	{ "data size", "data_size", INFO_U64, header, HDR(data.size), 8,
	  .shown = file_mode, .text = data_size_text },
	{ "feat offset", NULL, .shown = file_mode, .text = feat_offset_text },
	{ NULL, "interrupted", .json = interrupted_json },
	{ NULL },
};

/* Strings show in text when set, in JSON always (null when unset). */
const struct info_field info_names[] = {
	{ "hostname", "hostname", INFO_STR, features, FEAT(hostname), 8 },
	{ "os release", "osrelease", INFO_STR, features, FEAT(osrelease), 8 },
	{ "perf version", "version", INFO_STR, features, FEAT(version), 8 },
	{ "arch", "arch", INFO_STR, features, FEAT(arch), 8 },
	{ NULL },
};

const struct info_field info_cpu_names[] = {
	{ "cpudesc", "cpudesc", INFO_STR, features, FEAT(cpudesc), 8 },
	{ "cpuid", "cpuid", INFO_STR, features, FEAT(cpuid), 8 },
	{ NULL },
};

/* Numbers show when the recording has their feature. */
const struct info_field info_nrcpus[] = {
	{ "nrcpus online", "nr_cpus_online", INFO_U64, features,
	  FEAT(nr_cpus_online), SZ(struct pm_features, nr_cpus_online),
	  .feat = PM_FEAT_NRCPUS },
	{ "nrcpus avail", "nr_cpus_avail", INFO_U64, features,
	  FEAT(nr_cpus_avail), SZ(struct pm_features, nr_cpus_avail),
	  .feat = PM_FEAT_NRCPUS },
	{ NULL },
};

const struct info_field info_memory[] = {
	{ "total memory", "total_mem_kb", INFO_U64, features, FEAT(total_mem_kb), 8,
	  .feat = PM_FEAT_TOTAL_MEM, .unit = " kB" },
	{ NULL },
};

/* ---- the walk ---- */

static uint64_t load(const void *base, size_t off, size_t size)
{
	const char *p = (const char *)base + off;
	uint32_t u32;
	uint64_t u64;

	if (size == 4) {
		memcpy(&u32, p, 4);
		return u32;
	}
	memcpy(&u64, p, 8);
	return u64;
}

static const char *str_at(const struct pm_reader *r, const struct info_field *f)
{
	const char *s;

	memcpy(&s, (const char *)f->where(r) + f->off, sizeof(s));
	return s;
}

static bool present(const struct pm_reader *r, const struct info_field *f)
{
	if (f->shown && !f->shown(r))
		return false;
	return !f->feat || pm_features__has(pm_reader__features(r), f->feat);
}

void info_fields_text(const struct pm_reader *r, const struct info_field *f,
		      FILE *out)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;

	for (; f->label || f->key; f++) {
		if (!f->label || !present(r, f))
			continue;
		pm_strbuf__reset(&sb);
		if (f->text)
			f->text(r, &sb);
		else if (f->kind == INFO_STR && str_at(r, f))
			pm_strbuf__adds(&sb, str_at(r, f));
		else if (f->kind == INFO_STR)
			continue;	/* not set: not shown */
		else
			pm_strbuf__addf(&sb, "%" PRIu64 "%s",
					load(f->where(r), f->off, f->size),
					f->unit ? f->unit : "");
		/* a value of several lines: a line each, with the label */
		for (const char *v = pm_strbuf__str(&sb), *nl; v; v = nl ? nl + 1 : NULL) {
			nl = strchr(v, '\n');
			fprintf(out, "# %-16s: %.*s\n", f->label,
				(int)(nl ? (size_t)(nl - v) : strlen(v)), v);
		}
	}
	pm_strbuf__release(&sb);
}

void info_fields_json(const struct pm_reader *r, const struct info_field *f,
		      struct pm_json *j)
{
	for (; f->label || f->key; f++) {
		if (!f->key || ((f->feat || f->json_when_shown) && !present(r, f)))
			continue;
		pm_json__key(j, f->key);
		if (f->json)
			f->json(r, j);
		else if (f->kind == INFO_STR)
			pm_json__string(j, str_at(r, f));
		else
			pm_json__u64(j, load(f->where(r), f->off, f->size));
	}
}
