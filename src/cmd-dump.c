// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof dump: every record with its file offset, type and decoded
 * fields (the role of `perf report -D`). Each record's fields are listed
 * once, in the field tables of dump-records.c and dump-sample.c, and
 * written as "name=value" text or JSON by one emitter (dump-out.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"
#include "dump.h"
#include "pmprof/perfdata.h"

struct dump_opts {
	bool hex;
	bool quiet;
	bool stats;
};

static void hexdump(FILE *f, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i += 16) {
		size_t k;

		fprintf(f, "\t%04zx: ", i);
		for (k = i; k < i + 16 && k < n; k++)
			fprintf(f, " %02x", p[k]);
		fputc('\n', f);
	}
}

static int dump_record(struct out *o, struct pm_reader *r,
		       const struct pm_record *rec, const struct dump_opts *opts,
		       struct pm_error *err)
{
	const char *tname = pm_record_type_name(rec->type);
	struct pm_sample s;
	int ret = 0;

	if (rec->type == PM_RECORD_SAMPLE) {
		if (pm_reader__parse_sample(r, rec, &s, err))
			return -1;
	}
	if (opts->quiet)
		return 0;
	if (o->json) {
		pm_json__begin_object(&o->j);
		/* a directory recording: the file the offset is in */
		if (pm_reader__is_dir(r))
			pm_json__kv_string(&o->j, "file",
					   pm_reader__part_name(r, rec->part));
		pm_json__kv_u64(&o->j, "offset", rec->offset);
		if (rec->compressed)
			pm_json__kv_u64(&o->j, "zoffset", rec->zoffset);
		pm_json__kv_string(&o->j, "type", tname ? tname : "UNKNOWN");
		if (!tname)
			pm_json__kv_u64(&o->j, "type_id", rec->type);
		pm_json__kv_u64(&o->j, "size", rec->size);
		pm_json__kv_u64(&o->j, "misc", rec->misc);
	} else {
		/* OFFSET@FILE in a directory recording, as perf report -D */
		if (pm_reader__is_dir(r))
			fprintf(o->f, "%#" PRIx64 "@%s", rec->offset,
				pm_reader__part_name(r, rec->part));
		else
			fprintf(o->f, "%#" PRIx64, rec->offset);
		if (rec->compressed)
			/* 0x always (%#x prints 0 bare): one pattern parses every line */
			fprintf(o->f, "+z0x%" PRIx64, rec->zoffset);
		fprintf(o->f, " [%#x] ", rec->size);
		if (tname)
			fputs(tname, o->f);
		else
			fprintf(o->f, "UNKNOWN(%u)", rec->type);
	}
	if (rec->type == PM_RECORD_SAMPLE) {
		dump_sample(o, &s);
	} else {
		struct pm_sample_id sid;

		ret = dump_record_fields(o, r, rec, err);
		if (!ret && !pm_reader__parse_sample_id(r, rec, &sid, err))
			dump_sample_id(o, &sid);
	}
	if (o->json) {
		pm_json__end_object(&o->j);
		fputc('\n', o->f);
	} else {
		fputc('\n', o->f);
		if (o->lines.len) {
			fputs(pm_strbuf__str(&o->lines), o->f);
			pm_strbuf__reset(&o->lines);
		}
		if (opts->hex)
			hexdump(o->f, rec->data, rec->size);
	}
	return ret;
}

static void print_stats(const uint64_t *counts, uint64_t total, uint64_t bytes)
{
	uint32_t t;

	printf("%-20s %12s\n", "record type", "count");
	for (t = 0; t < 256; t++) {
		const char *name;

		if (!counts[t])
			continue;
		name = pm_record_type_name(t);
		if (name)
			printf("%-20s %12" PRIu64 "\n", name, counts[t]);
		else
			printf("UNKNOWN(%-3u)         %12" PRIu64 "\n", t, counts[t]);
	}
	printf("%-20s %12" PRIu64 "\n%-20s %12" PRIu64 "\n", "TOTAL", total,
	       "bytes", bytes);
}

static const char *const dump_usage[] = {
	"pmprof dump [-i FILE] [--format table|json] [--hex] [-q] [--stats]",
	NULL,
};

int cmd_dump(int argc, const char **argv)
{
	static const char *const formats[] = { "table", "json", NULL };
	struct pm_cmd c = PM_CMD_INIT("dump");
	struct dump_opts opts = { 0 };
	const struct pm_option options[] = {
		OPT_INPUT(&c),
		OPT_FORMAT(&c),
		OPT_BOOLEAN(0, "hex", &opts.hex, "add each record's bytes in hex"),
		OPT_BOOLEAN('q', "quiet", &opts.quiet,
			    "decode every record but print nothing (for timing)"),
		OPT_BOOLEAN(0, "stats", &opts.stats, "count records by type"),
		OPT_END(),
	};
	uint64_t counts[256] = { 0 }, total = 0, bytes = 0;
	struct pm_reader *r;
	struct pm_record rec;
	struct pm_error err = { 0 };
	struct out o = { 0 };
	int ret, status;

	status = pm_cmd__parse(&c, argc, argv, options, dump_usage, NULL);
	if (status >= 0)
		return status;
	status = PM_EXIT_OK;
	if (!pm_cmd__format_is(&c, formats))
		return PM_EXIT_USAGE;
	if (pm_reader__open(&r, c.input, NULL, &err))
		return pm_cli_error(PM_EXIT_INPUT, c.input, &err);
	o.json = c.format == pm_renderer__find("json");
	o.f = stdout;
	pm_json__init(&o.j, stdout);
	if (opts.stats)
		opts.quiet = true;

	while ((ret = pm_reader__next(r, &rec, &err)) > 0) {
		/* A pipe names its arch only once HEADER_FEATURE went by. */
		o.arch = pm_reader__features(r)->arch;
		counts[rec.type < 256 ? rec.type : 255]++;
		total++;
		bytes += rec.size + rec.extra_size;
		if (dump_record(&o, r, &rec, &opts, &err)) {
			pm_reader__error_in(r, &rec, &err);
			status = pm_cli_error(PM_EXIT_INPUT, c.input, &err);
			break;
		}
	}
	if (ret < 0)
		status = pm_cli_error(PM_EXIT_INPUT, c.input, &err);
	if (opts.stats && status == PM_EXIT_OK)
		print_stats(counts, total, bytes);
	pm_strbuf__release(&o.lines);
	pm_reader__delete(r);
	return status;
}
