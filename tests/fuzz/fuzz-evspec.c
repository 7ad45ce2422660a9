// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the event-spec parser (pm_evspec__parse) and what
 * perf record adds (pm_evspec__apply_record), against a small sysfs tree
 * written once to a temporary directory (a PMU with format bits and
 * aliases, an alias loop, a tracepoint), so that every kind of event can
 * be reached without the machine's /sys.
 *
 * Input: the -e strings, one a line (each line is one -e option appended
 * to the same list, as `pmprof record -e A -e B` does); after a NUL byte,
 * optional record options (see defaults_from()). Besides "no crash", it
 * checks what the header promises: an error has an offset inside the
 * string and appends nothing; a parsed list is well formed (every group
 * has one leader that counts its members, every event has a name).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmprof/evspec.h"
#include "pmprof/strbuf.h"

static char root[4096];

static void put(const char *rel, const char *text)
{
	char path[4096 + 128], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

static void remove_tree(void)
{
	char cmd[4096 + 32];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		return;
}

#define PMU "bus/event_source/devices/"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");

	(void)argc;
	(void)argv;
	snprintf(root, sizeof(root), "%s/pmprof-fuzz-evspec.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		abort();
	atexit(remove_tree);
	put(PMU "cpu/type", "4\n");
	put(PMU "cpu/format/event", "config:0-7\n");
	put(PMU "cpu/format/umask", "config:8-15\n");
	put(PMU "cpu/format/profileme", "config:32\n");
	put(PMU "cpu/format/split", "config1:0-3,8-11\n");
	put(PMU "cpu/format/wide", "config2:0-63\n");
	put(PMU "cpu/format/top", "config3:63\n");
	put(PMU "cpu/events/pm_retired", "event=0x1,profileme\n");
	put(PMU "cpu/events/needs_arg", "event=?\n");
	put(PMU "cpu/events/with_period", "event=0x3c,period=100000\n");
	put(PMU "cpu/events/loop_a", "loop_b\n");
	put(PMU "cpu/events/loop_b", "loop_a\n");
	put(PMU "uncore_x/type", "17\n");
	put(PMU "uncore_x/format/event", "config:0-7\n");
	put(PMU "uncore_x/events/clockticks", "event=0xff\n");
	put(PMU "badtype/type", "not a number\n");
	put("kernel/tracing/events/sched/sched_switch/id", "316\n");
	put("kernel/debug/tracing/events/irq/irq_handler_entry/id", "42\n");
	put("kernel/tracing/events/bad/noid/id", "x\n");
	return 0;
}

/* Record options from the bytes after the NUL: a flag byte, then -c and
 * -F as little-endian 32-bit numbers (missing bytes are zero). */
static void defaults_from(const uint8_t *p, size_t n,
			  struct pm_record_defaults *rd)
{
	uint8_t b[9] = { 0 };

	memcpy(b, p, n < sizeof(b) ? n : sizeof(b));
	memset(rd, 0, sizeof(*rd));
	rd->callgraph = (enum pm_callgraph_mode)(b[0] & 3);
	rd->sample_cpu = b[0] & 4;
	rd->timestamp = b[0] & 8;
	rd->no_inherit = b[0] & 16;
	rd->sample_identifier = b[0] & 32;
	rd->dump_size = b[0] & 64 ? 65528 : 0;
	rd->max_stack = b[0] & 128 ? 127 : 0;
	rd->period = (uint64_t)b[1] | (uint64_t)b[2] << 8 |
		     (uint64_t)b[3] << 16 | (uint64_t)b[4] << 24;
	rd->freq = (uint64_t)b[5] | (uint64_t)b[6] << 8 |
		   (uint64_t)b[7] << 16 | (uint64_t)b[8] << 24;
}

/* The events appended from `base` on form well-made groups. */
static void check_list(const struct pm_evspec_list *l, size_t base)
{
	size_t i, j;

	for (i = base; i < l->nr; i++) {
		const struct pm_evspec_event *ev = &l->ev[i];
		const struct pm_evspec_event *leader;
		int members = 0;

		if (!ev->name || !ev->name[0])
			abort();
		if (ev->group_leader < (int)base || (size_t)ev->group_leader > i)
			abort();
		leader = &l->ev[ev->group_leader];
		if (leader->group_leader != ev->group_leader)
			abort();
		if ((size_t)ev->group_leader == i) {
			for (j = i; j < l->nr; j++)
				if (l->ev[j].group_leader == (int)i)
					members++;
			if (ev->nr_members != members)
				abort();
		} else if (ev->nr_members != 0) {
			abort();
		}
		if (ev->attr.size != PM_EVSPEC_ATTR_SIZE &&
		    !(ev->terms & PM_EVSPEC_T_HF))
			abort();
		if ((ev->terms & PM_EVSPEC_T_HF) &&
		    (!ev->attr.hf_sample_period || !ev->hf_burst))
			abort();
	}
}

/* An error points into the string and says something. */
static void check_error(const char *str, const struct pm_error *err)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;

	if (!err->has_offset || err->offset > strlen(str) || !err->msg[0])
		abort();
	pm_evspec__format_error(&sb, "fuzz: ", str, err);
	if (!strstr(pm_strbuf__str(&sb), err->msg))
		abort();
	pm_strbuf__release(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t slen = nul ? (size_t)(nul - data) : size;
	struct pm_evspec_opts opts = { .sysfs_root = root };
	struct pm_record_defaults rd;
	struct pm_evspec_list list;
	struct pm_error err;
	char *buf = malloc(slen + 1), *line, *save = NULL;
	bool parsed_all = true;

	memcpy(buf, data, slen);
	buf[slen] = 0;
	pm_evspec_list__init(&list);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t base = list.nr;
		int ret;

		memset(&err, 0, sizeof(err));
		ret = pm_evspec__parse(&list, line, &opts, &err);
		if (ret) {
			if (ret != -PM_EUSAGE || list.nr != base)
				abort();
			check_error(line, &err);
			parsed_all = false;
			break;
		}
		if (list.nr == base)
			abort();	/* parsed, but no event */
		check_list(&list, base);
	}
	if (parsed_all && list.nr) {
		int ret;

		defaults_from(nul ? nul + 1 : data + size,
			      nul ? size - slen - 1 : 0, &rd);
		memset(&err, 0, sizeof(err));
		ret = pm_evspec__apply_record(&list, &rd, &err);
		if (ret && (ret != -PM_EUSAGE || !err.msg[0]))
			abort();
		if (!ret) {
			for (size_t i = 0; i < list.nr; i++) {
				const struct pm_attr *a = &list.ev[i].attr;

				/* Every sample says where and when. */
				if ((a->sample_type & (PM_SAMPLE_IP | PM_SAMPLE_TID |
						       PM_SAMPLE_TIME)) !=
				    (PM_SAMPLE_IP | PM_SAMPLE_TID | PM_SAMPLE_TIME))
					abort();
				/* Several events: each sample names its event. */
				if (list.nr > 1 &&
				    !(a->sample_type & (PM_SAMPLE_ID | PM_SAMPLE_IDENTIFIER)))
					abort();
			}
		}
	}
	pm_evspec_list__exit(&list);
	free(buf);
	return 0;
}
