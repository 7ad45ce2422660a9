// SPDX-License-Identifier: GPL-2.0
/*
 * The truth of a simulated run: what every function really counted, the
 * metrics pmprof metrics estimates computed from those counts, and the
 * sampling's own accounting. Written as JSON with the one JSON writer.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pmprof/json.h"
#include "pmprof/sim.h"
#include "pmprof/util.h"

static int stream(const struct pm_sim_result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nr_streams; i++)
		if (!strcmp(r->streams[i], name))
			return (int)i;
	return -1;
}

static uint64_t count(const struct pm_sim_result *r, long func, int s)
{
	return func < 0 ? r->totals[s] : r->funcs[func].counts[s];
}

/* name: numerator stream, denominator stream (NULL: the program's total of
 * the numerator: a share), scale. */
static const struct {
	const char *name, *num, *den;
	double scale;
} metric_defs[] = {
	{ "CPI", "cycles", "instructions", 1 },
	{ "IPC", "instructions", "cycles", 1 },
	{ "BMKI", "branch-misses", "instructions", 1000 },
	{ "CMKI", "cache-misses", "instructions", 1000 },
	{ "%CM", "cache-misses", "cache-references", 100 },
	{ "%CY", "cycles", NULL, 100 },
	{ "%I", "instructions", NULL, 100 },
	{ "%BM", "branch-misses", NULL, 100 },
	{ "%L1DA", "cache-references", NULL, 100 },
	{ "%L1DM", "cache-misses", NULL, 100 },
	/* top-down level 1, from the model's slot counts (topdown.c) */
	{ "FE%", "stall_slot_frontend", "slots", 100 },
	{ "BAD%", "topdown-bad-spec", "slots", 100 },
	{ "BE%", "stall_slot_backend", "slots", 100 },
	{ "RET%", "op_retired", "slots", 100 },
};

int pm_sim_result__metric(const struct pm_sim_result *r, long func,
			  const char *name, double *value)
{
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(metric_defs); i++) {
		int n, d;
		uint64_t num, den;

		if (strcmp(name, metric_defs[i].name))
			continue;
		n = stream(r, metric_defs[i].num);
		d = metric_defs[i].den ? stream(r, metric_defs[i].den) : n;
		if (n < 0 || d < 0 || func >= (long)r->nr_funcs)
			return -ENOENT;
		num = count(r, func, n);
		den = metric_defs[i].den ? count(r, func, d) : r->totals[n];
		if (!den)
			return -EDOM;
		*value = metric_defs[i].scale * (double)num / (double)den;
		return 0;
	}
	return -ENOENT;
}

static void metrics_obj(struct pm_json *j, const struct pm_sim_result *r,
			long func)
{
	size_t i;

	pm_json__key(j, "metrics");
	pm_json__begin_object(j);
	for (i = 0; i < PM_ARRAY_SIZE(metric_defs); i++) {
		double v;

		if (!pm_sim_result__metric(r, func, metric_defs[i].name, &v))
			pm_json__kv_double(j, metric_defs[i].name, v);
	}
	pm_json__end_object(j);
}

static void counts_obj(struct pm_json *j, const struct pm_sim_result *r,
		       const char *key, const uint64_t *c)
{
	size_t s;

	pm_json__key(j, key);
	pm_json__begin_object(j);
	for (s = 0; s < r->nr_streams; s++)
		pm_json__kv_u64(j, r->streams[s], c[s]);
	pm_json__end_object(j);
}

int pm_sim_result__write_truth(const struct pm_sim_result *r,
			       const struct pm_sim_model *m,
			       const struct pm_sim_opts *o, int fd,
			       const char *name, struct pm_error *err)
{
	struct pm_json j;
	int dfd = dup(fd);	/* fclose() closes it, fd stays the caller's */
	FILE *f = dfd < 0 ? NULL : fdopen(dfd, "w");
	size_t i;
	int ret = 0;

	if (!f) {
		ret = pm_error__fmt(err, errno, "%s: %s", name, strerror(errno));
		if (dfd >= 0)
			close(dfd);
		return ret;
	}
	pm_json__init(&j, f);
	pm_json__begin_object(&j);
	pm_json__kv_string(&j, "model", m->name);
	pm_json__kv_string(&j, "spec", o->spec);
	pm_json__kv_u64(&j, "seed", o->seed);
	pm_json__kv_u64(&j, "iterations", o->iterations ? o->iterations : m->iterations);
	pm_json__kv_u64(&j, "threads", m->threads);
	pm_json__kv_u64(&j, "cpus", m->cpus);
	pm_json__kv_double(&j, "ghz", m->ghz);
	pm_json__kv_string(&j, "elf", r->elf_path);
	pm_json__kv_u64(&j, "duration_ns", r->duration_ns);
	pm_json__key(&j, "sampling");
	pm_json__begin_object(&j);
	pm_json__kv_u64(&j, "overflows", r->overflows);
	pm_json__kv_u64(&j, "samples", r->samples);
	pm_json__kv_u64(&j, "throttles", r->throttles);
	pm_json__kv_u64(&j, "unthrottles", r->unthrottles);
	pm_json__kv_u64(&j, "records", r->records);
	pm_json__kv_u64(&j, "bytes", r->bytes);
	pm_json__kv_u64(&j, "interrupt_ns", r->irq_ns);
	pm_json__kv_u64(&j, "uncounted_cycles", r->uncounted_cycles);
	pm_json__end_object(&j);
	pm_json__key(&j, "events");
	pm_json__begin_array(&j);
	for (i = 0; i < r->nr_streams; i++)
		pm_json__string(&j, r->streams[i]);
	pm_json__end_array(&j);
	counts_obj(&j, r, "totals", r->totals);
	counts_obj(&j, r, "tail", r->tail);
	metrics_obj(&j, r, -1);
	pm_json__key(&j, "functions");
	pm_json__begin_array(&j);
	for (i = 0; i < r->nr_funcs; i++) {
		const struct pm_sim_truth_func *tf = &r->funcs[i];

		pm_json__begin_object(&j);
		pm_json__kv_string(&j, "symbol", tf->name);
		pm_json__kv_u64(&j, "calls", tf->calls);
		pm_json__kv_u64(&j, "samples", tf->samples);
		pm_json__kv_double(&j, "%samples", r->samples ?
				   100.0 * (double)tf->samples / (double)r->samples : 0);
		counts_obj(&j, r, "counts", tf->counts);
		counts_obj(&j, r, "perturbation", tf->perturbation);
		metrics_obj(&j, r, (long)i);
		pm_json__end_object(&j);
	}
	pm_json__end_array(&j);
	pm_json__end_object(&j);
	fputc('\n', f);
	if ((ferror(f) | fclose(f)) && !ret)
		ret = pm_error__fmt(err, errno ? errno : EIO, "%s: write failed: %s",
				    name, strerror(errno ? errno : EIO));
	return ret;
}
