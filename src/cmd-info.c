// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof info: the header, the features and every event's attr decoded
 * (what `perf report --header-only` and `perf evlist -v` show together).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/attr_print.h"
#include "pmprof/json.h"
#include "info.h"
#include "pmprof/perfdata.h"

static void hex_id(char *buf, size_t size, const uint8_t *id, unsigned int n)
{
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && 2 * i + 2 < size; i++)
		snprintf(buf + 2 * i, size - 2 * i, "%02x", id[i]);
}

static const char *compressor_name(uint32_t type)
{
	return type == 1 ? "Zstd" : "unknown";
}

/* A pipe carries the header as records: read until the first real one. */
static int read_pipe_header(struct pm_reader *r, struct pm_error *err)
{
	struct pm_record rec;
	int ret;

	while ((ret = pm_reader__next(r, &rec, err)) > 0) {
		if (rec.type < PM_RECORD_HEADER_ATTR ||
		    rec.type == PM_RECORD_FINISHED_INIT ||
		    rec.type == PM_RECORD_FINISHED_ROUND)
			return 0;
	}
	return ret;
}

static void print_text(const struct pm_reader *r)
{
	const struct pm_features *f = pm_reader__features(r);
	struct pm_strbuf sb = PM_STRBUF_INIT;
	uint32_t i;
	size_t e;

	info_fields_text(r, info_top, stdout);
	info_fields_text(r, info_header, stdout);
	info_fields_text(r, info_names, stdout);
	info_fields_text(r, info_nrcpus, stdout);
	info_fields_text(r, info_cpu_names, stdout);
	info_fields_text(r, info_memory, stdout);
	if (f->nr_cmdline) {
		printf("# cmdline         :");
		for (i = 0; i < f->nr_cmdline; i++)
			printf(" %s", f->cmdline[i] ? f->cmdline[i] : "");
		putchar('\n');
	}
	for (e = 0; e < pm_reader__nr_events(r); e++) {
		const struct pm_event *ev = pm_reader__event(r, e);

		printf("# event : name = %s, id = {", ev->name);
		for (i = 0; i < ev->nr_ids; i++)
			printf("%s %" PRIu64, i ? "," : "", ev->ids[i]);
		pm_strbuf__reset(&sb);
		pm_attr__describe(&sb, &ev->attr);
		printf(" }, %s\n", pm_strbuf__str(&sb));
	}
	for (i = 0; i < f->nr_groups; i++)
		printf("# group: %s leader %u, %u members\n",
		       f->groups[i].name ? f->groups[i].name : "{anon_group}",
		       f->groups[i].leader_idx, f->groups[i].nr_members);
	for (i = 0; i < f->topology.nr_core_siblings; i++)
		printf("# sibling sockets : %s\n", f->topology.core_siblings[i]);
	for (i = 0; i < f->topology.nr_die_siblings; i++)
		printf("# sibling dies    : %s\n", f->topology.die_siblings[i]);
	for (i = 0; i < f->topology.nr_thread_siblings; i++)
		printf("# sibling threads : %s\n", f->topology.thread_siblings[i]);
	for (i = 0; i < f->topology.nr_cpus; i++) {
		printf("# CPU %u: Core ID %d, ", i, f->topology.cpus[i].core_id);
		if (f->topology.has_die)
			printf("Die ID %d, ", f->topology.cpus[i].die_id);
		printf("Socket ID %d\n", f->topology.cpus[i].socket_id);
	}
	if (f->nr_pmu_mappings) {
		printf("# pmu mappings    :");
		for (i = 0; i < f->nr_pmu_mappings; i++)
			printf("%s %s = %u", i ? "," : "", f->pmu_mappings[i].name,
			       f->pmu_mappings[i].type);
		putchar('\n');
	}
	for (i = 0; i < f->nr_build_ids; i++) {
		char id[48];

		hex_id(id, sizeof(id), f->build_ids[i].build_id, f->build_ids[i].size);
		printf("# build id        : %s %s\n", id, f->build_ids[i].filename);
	}
	if (pm_features__has(f, PM_FEAT_SAMPLE_TIME))
		printf("# sample duration : %" PRIu64 " ns (first %" PRIu64 ", last %" PRIu64 ")\n",
		       f->sample_time_last - f->sample_time_first,
		       f->sample_time_first, f->sample_time_last);
	if (pm_features__has(f, PM_FEAT_CLOCKID))
		printf("# clockid frequency: %" PRIu64 " MHz\n",
		       f->clockid_res_ns ? 1000 / f->clockid_res_ns : 0);
	if (pm_features__has(f, PM_FEAT_CLOCK_DATA))
		printf("# clock data      : clockid %u, tod %" PRIu64 " ns, clockid %" PRIu64 " ns\n",
		       f->clock_data.clockid, f->clock_data.tod_ns,
		       f->clock_data.clockid_ns);
	if (pm_features__has(f, PM_FEAT_COMPRESSED))
		printf("# compressed      : %s, level = %u, ratio = %u\n",
		       compressor_name(f->compressed.type), f->compressed.level,
		       f->compressed.ratio);
	printf("# features        :");
	for (i = 0; i < PM_FEAT_BITS; i++) {
		const char *name = pm_feature_name(i);

		if (!pm_features__has(f, i))
			continue;
		if (name)
			printf(" %s", name);
		else
			printf(" feature%u", i);
		printf("(%" PRIu64 ")", f->section[i].size);
	}
	putchar('\n');
	pm_strbuf__release(&sb);
}

static void json_string_list(struct pm_json *j, const char *key, char **list,
			     uint32_t n)
{
	uint32_t i;

	pm_json__key(j, key);
	pm_json__begin_array(j);
	for (i = 0; i < n; i++)
		pm_json__string(j, list[i]);
	pm_json__end_array(j);
}

static void print_json(const struct pm_reader *r)
{
	const struct pm_features *f = pm_reader__features(r);
	struct pm_json j;
	uint32_t i;
	size_t e;

	pm_json__init(&j, stdout);
	pm_json__begin_object(&j);
	info_fields_json(r, info_top, &j);
	pm_json__key(&j, "header");
	pm_json__begin_object(&j);
	info_fields_json(r, info_header, &j);
	pm_json__end_object(&j);

	pm_json__key(&j, "features");
	pm_json__begin_object(&j);
	pm_json__key(&j, "present");
	pm_json__begin_array(&j);
	for (i = 0; i < PM_FEAT_BITS; i++) {
		if (!pm_features__has(f, i))
			continue;
		pm_json__begin_object(&j);
		pm_json__kv_u64(&j, "id", i);
		pm_json__kv_string(&j, "name", pm_feature_name(i));
		pm_json__kv_u64(&j, "offset", f->section[i].offset);
		pm_json__kv_u64(&j, "size", f->section[i].size);
		pm_json__end_object(&j);
	}
	pm_json__end_array(&j);
	info_fields_json(r, info_names, &j);
	info_fields_json(r, info_cpu_names, &j);
	info_fields_json(r, info_nrcpus, &j);
	info_fields_json(r, info_memory, &j);
	json_string_list(&j, "cmdline", f->cmdline, f->nr_cmdline);
	pm_json__key(&j, "build_ids");
	pm_json__begin_array(&j);
	for (i = 0; i < f->nr_build_ids; i++) {
		pm_json__begin_object(&j);
		pm_json__kv_i64(&j, "pid", f->build_ids[i].pid);
		pm_json__key(&j, "build_id");
		pm_json__hexbytes(&j, f->build_ids[i].build_id, f->build_ids[i].size);
		pm_json__kv_string(&j, "filename", f->build_ids[i].filename);
		pm_json__end_object(&j);
	}
	pm_json__end_array(&j);
	pm_json__key(&j, "pmu_mappings");
	pm_json__begin_object(&j);
	for (i = 0; i < f->nr_pmu_mappings; i++)
		pm_json__kv_u64(&j, f->pmu_mappings[i].name ? f->pmu_mappings[i].name : "",
				f->pmu_mappings[i].type);
	pm_json__end_object(&j);
	pm_json__key(&j, "groups");
	pm_json__begin_array(&j);
	for (i = 0; i < f->nr_groups; i++) {
		pm_json__begin_object(&j);
		pm_json__kv_string(&j, "name", f->groups[i].name);
		pm_json__kv_u64(&j, "leader_idx", f->groups[i].leader_idx);
		pm_json__kv_u64(&j, "nr_members", f->groups[i].nr_members);
		pm_json__end_object(&j);
	}
	pm_json__end_array(&j);
	if (pm_features__has(f, PM_FEAT_SAMPLE_TIME)) {
		pm_json__kv_u64(&j, "sample_time_first", f->sample_time_first);
		pm_json__kv_u64(&j, "sample_time_last", f->sample_time_last);
	}
	if (pm_features__has(f, PM_FEAT_CLOCKID))
		pm_json__kv_u64(&j, "clockid_res_ns", f->clockid_res_ns);
	if (pm_features__has(f, PM_FEAT_CLOCK_DATA)) {
		pm_json__key(&j, "clock_data");
		pm_json__begin_object(&j);
		pm_json__kv_u64(&j, "version", f->clock_data.version);
		pm_json__kv_u64(&j, "clockid", f->clock_data.clockid);
		pm_json__kv_u64(&j, "tod_ns", f->clock_data.tod_ns);
		pm_json__kv_u64(&j, "clockid_ns", f->clock_data.clockid_ns);
		pm_json__end_object(&j);
	}
	if (pm_features__has(f, PM_FEAT_COMPRESSED)) {
		pm_json__key(&j, "compressed");
		pm_json__begin_object(&j);
		pm_json__kv_u64(&j, "version", f->compressed.version);
		pm_json__kv_u64(&j, "type", f->compressed.type);
		pm_json__kv_u64(&j, "level", f->compressed.level);
		pm_json__kv_u64(&j, "ratio", f->compressed.ratio);
		pm_json__kv_u64(&j, "mmap_len", f->compressed.mmap_len);
		pm_json__end_object(&j);
	}
	if (f->topology.nr_cpus || f->topology.nr_core_siblings) {
		pm_json__key(&j, "cpu_topology");
		pm_json__begin_object(&j);
		json_string_list(&j, "core_siblings", f->topology.core_siblings,
				 f->topology.nr_core_siblings);
		json_string_list(&j, "thread_siblings", f->topology.thread_siblings,
				 f->topology.nr_thread_siblings);
		pm_json__key(&j, "cpus");
		pm_json__begin_array(&j);
		for (i = 0; i < f->topology.nr_cpus; i++) {
			pm_json__begin_object(&j);
			pm_json__kv_i64(&j, "core_id", f->topology.cpus[i].core_id);
			pm_json__kv_i64(&j, "socket_id", f->topology.cpus[i].socket_id);
			if (f->topology.has_die)
				pm_json__kv_i64(&j, "die_id", f->topology.cpus[i].die_id);
			pm_json__end_object(&j);
		}
		pm_json__end_array(&j);
		pm_json__end_object(&j);
	}
	pm_json__end_object(&j);

	pm_json__key(&j, "events");
	pm_json__begin_array(&j);
	for (e = 0; e < pm_reader__nr_events(r); e++) {
		const struct pm_event *ev = pm_reader__event(r, e);

		pm_json__begin_object(&j);
		pm_json__kv_u64(&j, "idx", (uint64_t)ev->idx);
		pm_json__kv_string(&j, "name", ev->name);
		pm_json__kv_u64(&j, "group_leader", (uint64_t)ev->leader_idx);
		pm_json__key(&j, "ids");
		pm_json__begin_array(&j);
		for (i = 0; i < ev->nr_ids; i++)
			pm_json__u64(&j, ev->ids[i]);
		pm_json__end_array(&j);
		pm_json__key(&j, "attr");
		pm_attr__json(&j, &ev->attr);
		pm_json__end_object(&j);
	}
	pm_json__end_array(&j);
	pm_json__end_object(&j);
	putchar('\n');
}

static const char *const info_usage[] = {
	"pmprof info [-i FILE] [--format table|json]",
	NULL,
};

int cmd_info(int argc, const char **argv)
{
	static const char *const formats[] = { "table", "json", NULL };
	struct pm_cmd c = PM_CMD_INIT("info");
	const struct pm_option options[] = {
		OPT_INPUT(&c),
		OPT_FORMAT(&c),
		OPT_END(),
	};
	struct pm_error err = { 0 };
	struct pm_reader *r;
	int status;

	status = pm_cmd__parse(&c, argc, argv, options, info_usage, NULL);
	if (status >= 0)
		return status;
	if (!pm_cmd__format_is(&c, formats))
		return PM_EXIT_USAGE;
	if (pm_reader__open(&r, c.input, NULL, &err))
		return pm_cli_error(PM_EXIT_INPUT, c.input, &err);
	if (pm_reader__is_pipe(r) && read_pipe_header(r, &err) < 0) {
		pm_reader__delete(r);
		return pm_cli_error(PM_EXIT_INPUT, c.input, &err);
	}
	if (c.format == pm_renderer__find("json"))
		print_json(r);
	else
		print_text(r);
	pm_reader__delete(r);
	return PM_EXIT_OK;
}
