// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof list [--json] [--sysfs DIR] [PATTERN]: the events this machine
 * can open (legacy hardware, software and cache events that open here,
 * the tracepoints, each sysfs PMU's events and format terms) and the
 * group `record --metrics` would record here, with why. PATTERN is a
 * kind (hw, sw, cache, tracepoint, pmu), a glob (sched:*), or else a
 * part of the name. With --sysfs the PMUs and tracepoints come from DIR,
 * as record --sysfs reads them; nothing of another machine can be
 * probed, so its legacy events are listed as perf defines them.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/catalog.h"
#include "pmprof/evspec.h"
#include "pmprof/json.h"
#include "pmprof/record.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

struct list_cli {
	bool json;
	const char *sysfs;
	const char *pattern;
};

static const char *const list_usage[] = {
	"pmprof list [--json] [--sysfs DIR] [PATTERN]",
	NULL,
};

static const char *kind_label(enum pm_catalog_kind k)
{
	switch (k) {
	case PM_CAT_HARDWARE: return "Hardware event";
	case PM_CAT_SOFTWARE: return "Software event";
	case PM_CAT_CACHE: return "Hardware cache event";
	case PM_CAT_TRACEPOINT: return "Tracepoint event";
	default: return "Kernel PMU event";
	}
}

/* A kind keyword, as perf list takes them; -1 if the pattern is none. */
static int kind_keyword(const char *p)
{
	static const struct { const char *w; enum pm_catalog_kind k; } kw[] = {
		{ "hw", PM_CAT_HARDWARE }, { "hardware", PM_CAT_HARDWARE },
		{ "sw", PM_CAT_SOFTWARE }, { "software", PM_CAT_SOFTWARE },
		{ "cache", PM_CAT_CACHE }, { "tracepoint", PM_CAT_TRACEPOINT },
		{ "pmu", PM_CAT_PMU },
	};
	size_t i;

	for (i = 0; p && i < PM_ARRAY_SIZE(kw); i++)
		if (!strcmp(p, kw[i].w))
			return (int)kw[i].k;
	return -1;
}

static bool name_matches(const char *pattern, const char *name)
{
	if (!pattern)
		return true;
	if (strpbrk(pattern, "*?["))
		return !fnmatch(pattern, name, 0);
	return strstr(name, pattern) != NULL;
}

static bool wanted(const struct list_cli *lc, const struct pm_catalog_event *e)
{
	int k = kind_keyword(lc->pattern);

	if (k >= 0)
		return (int)e->kind == k;
	if (name_matches(lc->pattern, e->name))
		return true;
	return e->aliases && name_matches(lc->pattern, e->aliases);
}

/*
 * Does it open here? The legacy events are probed (a disabled counter on
 * this process); tracepoints and PMU events are what the kernel lists,
 * so they stay. Another machine's (--sysfs) cannot be probed.
 */
static bool opens_here(const struct list_cli *lc, const struct pm_catalog_event *e)
{
	if (lc->sysfs || e->kind == PM_CAT_TRACEPOINT || e->kind == PM_CAT_PMU)
		return true;
	return pm_recorder__probe_event(e->type, e->config);
}

static void print_json(const struct list_cli *lc, const struct pm_catalog *c, const bool *keep,
		       const struct pm_metrics_choice *mc)
{
	struct pm_json j;
	size_t i, k;

	pm_json__init(&j, stdout);
	pm_json__begin_object(&j);
	pm_json__kv_string(&j, "sysfs", lc->sysfs ? lc->sysfs : "/sys");
	pm_json__key(&j, "events");
	pm_json__begin_array(&j);
	for (i = 0; i < c->nr; i++) {
		const struct pm_catalog_event *e = &c->ev[i];

		if (!keep[i])
			continue;
		pm_json__begin_object(&j);
		pm_json__kv_string(&j, "name", e->name);
		pm_json__kv_string(&j, "kind", pm_catalog_kind__name(e->kind));
		pm_json__key(&j, "aliases");
		pm_json__begin_array(&j);
		for (const char *a = e->aliases; a && *a;) {
			const char *comma = strchr(a, ',');
			size_t n = comma ? (size_t)(comma - a) : strlen(a);

			pm_json__stringn(&j, a, n);
			a += n + (comma != NULL);
		}
		pm_json__end_array(&j);
		pm_json__kv_u64(&j, "type", e->type);
		if (e->kind == PM_CAT_PMU) {
			pm_json__kv_string(&j, "pmu", e->pmu);
			pm_json__kv_string(&j, "terms", e->value);
		} else {
			pm_json__kv_hex(&j, "config", e->config);
		}
		pm_json__end_object(&j);
	}
	pm_json__end_array(&j);
	pm_json__key(&j, "pmus");
	pm_json__begin_array(&j);
	for (i = 0; i < c->nr_pmus; i++) {
		const struct pm_catalog_pmu *p = &c->pmus[i];

		if (lc->pattern && kind_keyword(lc->pattern) < 0 && !name_matches(lc->pattern, p->name))
			continue;
		pm_json__begin_object(&j);
		pm_json__kv_string(&j, "name", p->name);
		pm_json__kv_u64(&j, "type", p->type);
		pm_json__kv_bool(&j, "core", p->core);
		pm_json__key(&j, "formats");
		pm_json__begin_object(&j);
		for (k = 0; k < p->nr_formats; k++)
			pm_json__kv_string(&j, p->formats[k].name, p->formats[k].spec);
		pm_json__end_object(&j);
		pm_json__end_object(&j);
	}
	pm_json__end_array(&j);
	pm_json__key(&j, "metrics");
	if (mc) {
		pm_json__begin_object(&j);
		pm_json__kv_string(&j, "spec", mc->spec);
		pm_json__kv_bool(&j, "hardware", mc->hw);
		pm_json__kv_string(&j, "why", mc->why);
		pm_json__end_object(&j);
	} else {
		pm_json__null(&j);
	}
	pm_json__end_object(&j);
	putchar('\n');
}

static void print_text(const struct list_cli *lc, const struct pm_catalog *c, const bool *keep,
		       const struct pm_metrics_choice *mc)
{
	size_t i, k, shown = 0;

	printf("\nList of events (to be used in -e)%s%s:\n\n", lc->sysfs ? " under " : "",
	       lc->sysfs ? lc->sysfs : "");
	for (i = 0; i < c->nr; i++) {
		const struct pm_catalog_event *e = &c->ev[i];
		char name[512];

		if (!keep[i])
			continue;
		shown++;
		/* perf's "branch-instructions OR branches" */
		snprintf(name, sizeof(name), "%s", e->name);
		for (const char *al = e->aliases; al && *al;) {
			const char *comma = strchr(al, ',');
			size_t len = comma ? (size_t)(comma - al) : strlen(al), have = strlen(name);

			snprintf(name + have, sizeof(name) - have, " OR %.*s", (int)len, al);
			al += len + (comma != NULL);
		}
		if (e->kind == PM_CAT_PMU)
			printf("  %-50s [%s: %s]\n", name, kind_label(e->kind), e->value);
		else
			printf("  %-50s [%s]\n", name, kind_label(e->kind));
	}
	if (!shown)
		printf("  (none%s%s)\n", lc->pattern ? " matches " : "", lc->pattern ? lc->pattern : "");
	if (c->nr_pmus) {
		printf("\nPMUs (%s/bus/event_source/devices):\n\n", lc->sysfs ? lc->sysfs : "/sys");
		for (i = 0; i < c->nr_pmus; i++) {
			const struct pm_catalog_pmu *p = &c->pmus[i];

			if (lc->pattern && kind_keyword(lc->pattern) < 0 &&
			    !name_matches(lc->pattern, p->name))
				continue;
			printf("  %s: type %u%s, terms:", p->name, p->type, p->core ? ", core PMU" : "");
			for (k = 0; k < p->nr_formats; k++)
				printf("%s %s=%s", k ? "," : "", p->formats[k].name, p->formats[k].spec);
			printf("%s\n", p->nr_formats ? "" : " (none)");
		}
	}
	if (!c->have_tracefs)
		printf("\n(no tracefs under %s/kernel: no tracepoints listed; record mounts it when "
		       "one is asked for, as perf does)\n", lc->sysfs ? lc->sysfs : "/sys");
	if (mc)
		printf("\nrecord --metrics would record here:\n  %s\n  (%s)\n", mc->spec, mc->why);
	else if (lc->sysfs)
		printf("\nrecord --metrics chooses by opening events on this machine: not for --sysfs\n");
}

int cmd_list(int argc, const char **argv)
{
	static const char *const formats[] = { "table", "json", NULL };
	struct pm_cmd cmd = PM_CMD_INIT("list");
	struct list_cli lc = { 0 };
	const struct pm_option opts[] = {
		OPT_BOOLEAN(0, "json", &lc.json, "JSON (as --format json)"),
		OPT_FORMAT(&cmd),
		OPT_STRING(0, "sysfs", &lc.sysfs, "dir", "PMUs and tracepoints of this sysfs root"),
		OPT_END(),
	};
	struct pm_metrics_choice mc;
	struct pm_catalog c;
	struct pm_error err;
	bool *keep;
	int n, ret;
	size_t i;

	if ((ret = pm_cmd__parse(&cmd, argc, argv, opts, list_usage, &n)) >= 0)
		return ret;
	if (n > 1)
		return pm_cli_errorf(PM_EXIT_USAGE, NULL, "list takes one PATTERN at most");
	if (!pm_cmd__format_is(&cmd, formats))
		return PM_EXIT_USAGE;
	lc.pattern = n ? argv[0] : NULL;
	if (pm_catalog__read(&c, lc.sysfs, &err))
		return pm_cli_error(PM_EXIT_INPUT, lc.sysfs ? lc.sysfs : "/sys", &err);
	keep = pm_calloc(c.nr ? c.nr : 1, sizeof(bool));
	for (i = 0; i < c.nr; i++)
		keep[i] = wanted(&lc, &c.ev[i]) && opens_here(&lc, &c.ev[i]);
	if (!lc.sysfs) {
		struct pm_metrics_request rq = { .set = NULL };
		struct pm_error merr;

		pm_recorder__choose_metrics(&rq, &mc, &merr);
	}
	if (lc.json || cmd.format == pm_renderer__find("json"))
		print_json(&lc, &c, keep, lc.sysfs ? NULL : &mc);
	else
		print_text(&lc, &c, keep, lc.sysfs ? NULL : &mc);
	free(keep);
	pm_catalog__release(&c);
	return PM_EXIT_OK;
}
