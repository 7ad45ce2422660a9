// SPDX-License-Identifier: GPL-2.0
/* The catalog of events for `pmprof list` (see catalog.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/catalog.h"
#include "pmprof/evspec.h"
#include "pmprof/strbuf.h"
#include "pmprof/tracefs.h"
#include "pmprof/util.h"
#include "sampling/evspec-int.h"

const char *pm_catalog_kind__name(enum pm_catalog_kind k)
{
	static const char *const names[] = {
		[PM_CAT_HARDWARE] = "hardware", [PM_CAT_SOFTWARE] = "software",
		[PM_CAT_CACHE] = "cache", [PM_CAT_TRACEPOINT] = "tracepoint",
		[PM_CAT_PMU] = "pmu",
	};

	return (size_t)k < PM_ARRAY_SIZE(names) ? names[k] : "?";
}

static struct pm_catalog_event *add(struct pm_catalog *c, enum pm_catalog_kind kind,
				    const char *name, uint32_t type, uint64_t config)
{
	struct pm_catalog_event *e;

	PM_GROW(c->ev, c->alloc, c->nr + 1);
	e = &c->ev[c->nr++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->name = pm_strdup(name);
	e->type = type;
	e->config = config;
	return e;
}

/* The legacy symbols: one entry per event, its other spellings aside. */
static void read_symbols(struct pm_catalog *c)
{
	struct pm_catalog_event *last = NULL;
	const char *name;
	uint32_t type;
	uint64_t config;
	size_t i;

	for (i = 0; (name = pm_event_name__symbol_at(i, &type, &config)); i++) {
		if (last && last->type == type && last->config == config) {
			struct pm_strbuf sb = PM_STRBUF_INIT;

			pm_strbuf__addf(&sb, "%s%s%s", last->aliases ? last->aliases : "",
					last->aliases ? "," : "", name);
			free(last->aliases);
			last->aliases = pm_strbuf__detach(&sb);
			continue;
		}
		last = add(c, type == 0 ? PM_CAT_HARDWARE : PM_CAT_SOFTWARE, name, type, config);
	}
}

static void read_cache(struct pm_catalog *c)
{
	char name[64];
	uint64_t config;
	size_t i;

	for (i = 0; !pm_event_name__cache_at(i, name, sizeof(name), &config); i++)
		add(c, PM_CAT_CACHE, name, 3, config);
}

static void read_tracepoints(struct pm_catalog *c, const char *root)
{
	char dir[512];
	struct pm_strbuf p = PM_STRBUF_INIT;
	char **sys;
	size_t nsys, i, j;

	if (pm_tracefs__find(root, dir, sizeof(dir)))
		return;
	c->have_tracefs = true;
	pm_strbuf__addf(&p, "%s/events", dir);
	sys = pm_sysfs_list_dir(p.buf, &nsys);
	for (i = 0; i < nsys; i++) {
		char **tps;
		size_t ntp;

		pm_strbuf__reset(&p);
		pm_strbuf__addf(&p, "%s/events/%s", dir, sys[i]);
		tps = pm_sysfs_list_dir(p.buf, &ntp);
		for (j = 0; j < ntp; j++) {
			struct pm_strbuf name = PM_STRBUF_INIT;
			char idp[1024];
			FILE *f;
			unsigned long long id;

			snprintf(idp, sizeof(idp), "%s/events/%s/%s/id", dir, sys[i], tps[j]);
			f = fopen(idp, "r");
			if (!f)
				continue;	/* "enable", "filter": not events */
			if (fscanf(f, "%llu", &id) == 1) {
				pm_strbuf__addf(&name, "%s:%s", sys[i], tps[j]);
				add(c, PM_CAT_TRACEPOINT, name.buf, 2, id);
			}
			fclose(f);
			pm_strbuf__release(&name);
		}
		pm_sysfs_free_list(tps, ntp);
	}
	pm_sysfs_free_list(sys, nsys);
	pm_strbuf__release(&p);
}

static void read_pmus(struct pm_catalog *c, const char *root)
{
	size_t n, i, k;
	char **names = pm_sysfs_pmus(root, &n);

	c->pmus = pm_calloc(n ? n : 1, sizeof(*c->pmus));
	for (i = 0; i < n; i++) {
		struct pm_catalog_pmu *pmu = &c->pmus[c->nr_pmus];
		char **fmts, **evs;
		size_t nf, ne;

		if (pm_sysfs_pmu_type(root, names[i], &pmu->type))
			continue;
		c->nr_pmus++;
		pmu->name = pm_strdup(names[i]);
		pmu->core = pm_sysfs_pmu_is_core(root, names[i]);
		fmts = pm_sysfs_pmu_dir(root, names[i], "format", &nf);
		pmu->formats = pm_calloc(nf ? nf : 1, sizeof(*pmu->formats));
		for (k = 0; k < nf; k++) {
			char *spec = pm_sysfs_read(root, "bus/event_source/devices/%s/format/%s",
						   names[i], fmts[k]);

			if (!spec)
				continue;
			pmu->formats[pmu->nr_formats].name = pm_strdup(fmts[k]);
			pmu->formats[pmu->nr_formats++].spec = spec;
		}
		pm_sysfs_free_list(fmts, nf);
		evs = pm_sysfs_pmu_dir(root, names[i], "events", &ne);
		for (k = 0; k < ne; k++) {
			struct pm_strbuf name = PM_STRBUF_INIT;
			struct pm_catalog_event *e;
			char *value;

			/* perf's companions of an alias: EVENT.unit, .scale, ... */
			if (strchr(evs[k], '.'))
				continue;
			value = pm_sysfs_pmu_alias(root, names[i], evs[k]);
			if (!value)
				continue;
			pm_strbuf__addf(&name, "%s/%s/", names[i], evs[k]);
			e = add(c, PM_CAT_PMU, name.buf, pmu->type, 0);
			e->value = value;
			pm_strbuf__release(&name);
		}
		pm_sysfs_free_list(evs, ne);
	}
	/* the PMU pointers once the array no longer moves */
	for (i = 0, k = 0; i < c->nr; i++)
		if (c->ev[i].kind == PM_CAT_PMU) {
			const char *slash = strchr(c->ev[i].name, '/');

			for (k = 0; k < c->nr_pmus; k++)
				if (strlen(c->pmus[k].name) == (size_t)(slash - c->ev[i].name) &&
				    !strncmp(c->pmus[k].name, c->ev[i].name, (size_t)(slash - c->ev[i].name)))
					c->ev[i].pmu = c->pmus[k].name;
		}
	pm_sysfs_free_list(names, n);
}

int pm_catalog__read(struct pm_catalog *c, const char *sysfs_root, struct pm_error *err)
{
	(void)err;
	memset(c, 0, sizeof(*c));
	read_symbols(c);
	read_cache(c);
	read_tracepoints(c, sysfs_root);
	read_pmus(c, sysfs_root);
	return 0;
}

void pm_catalog__release(struct pm_catalog *c)
{
	size_t i, k;

	for (i = 0; i < c->nr; i++) {
		free(c->ev[i].name);
		free(c->ev[i].aliases);
		free(c->ev[i].value);
	}
	free(c->ev);
	for (i = 0; i < c->nr_pmus; i++) {
		for (k = 0; k < c->pmus[i].nr_formats; k++) {
			free(c->pmus[i].formats[k].name);
			free(c->pmus[i].formats[k].spec);
		}
		free(c->pmus[i].formats);
		free(c->pmus[i].name);
	}
	free(c->pmus);
	memset(c, 0, sizeof(*c));
}
