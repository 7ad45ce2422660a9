// SPDX-License-Identifier: GPL-2.0
/*
 * Workload models: JSON (jansson) into struct pm_sim_model, with every
 * value checked so that a bad model gives a message naming the field
 * rather than a strange run.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/period.h"
#include "pmprof/attr.h"
#include "pmprof/sim.h"
#include "pmprof/util.h"
#include "sim-int.h"

/* ---- distributions --------------------------------------------------- */

double pm_sim_dist__mean(const struct pm_sim_dist *d)
{
	switch (d->kind) {
	case PM_SIM_CONST:
		return d->a;
	case PM_SIM_NORMAL:
	case PM_SIM_LOGNORMAL:
		return d->a;
	case PM_SIM_UNIFORM:
		return (d->a + d->b) / 2;
	}
	return d->a;
}

/* A double in [0, 1) from the top 53 bits. */
static double unit(uint64_t *rng)
{
	return (double)(pm_splitmix64(rng) >> 11) * (1.0 / 9007199254740992.0);
}

static double std_normal(uint64_t *rng)
{
	/* Box-Muller; u1 in (0, 1] so that log() is finite. */
	double u1 = 1.0 - unit(rng), u2 = unit(rng);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

double pm_sim_dist__draw(const struct pm_sim_dist *d, uint64_t *rng)
{
	double v = d->a;

	switch (d->kind) {
	case PM_SIM_CONST:
		break;
	case PM_SIM_NORMAL:
		v = d->a + d->b * std_normal(rng);
		break;
	case PM_SIM_LOGNORMAL: {
		/* The underlying normal's parameters from the value's mean
		 * and sd: s^2 = ln(1 + sd^2/mean^2), mu = ln(mean) - s^2/2. */
		double s2 = log(1.0 + (d->b * d->b) / (d->a * d->a));

		v = exp(log(d->a) - s2 / 2 + sqrt(s2) * std_normal(rng));
		break;
	}
	case PM_SIM_UNIFORM:
		v = d->a + (d->b - d->a) * unit(rng);
		break;
	}
	if (d->max > 0 && !(v <= d->max))	/* a normal's tail, an inf */
		v = d->max;
	return v > 0 ? v : 0;
}

uint64_t pm_sim__round(double x, uint64_t *rng)
{
	double f = floor(x), u = unit(rng);	/* drawn even for 0: the
						   sequence runs on */

	if (x <= 0)
		return 0;
	return (uint64_t)f + (u < x - f ? 1 : 0);
}

/* ---- parsing ---------------------------------------------------------- */

struct ctx {
	const char *origin;
	struct pm_error *err;
};

static int bad(struct ctx *c, const char *what, const char *why)
{
	/* The caller names the model (pm_cli_input_error prints it). */
	(void)c->origin;
	return pm_error__fmt(c->err, PM_EFORMAT, "%s: %s", what, why);
}

static int get_number(struct ctx *c, json_t *v, const char *what, double *out)
{
	if (!json_is_number(v))
		return bad(c, what, "expected a number");
	*out = json_number_value(v);
	if (!isfinite(*out) || *out < 0)
		return bad(c, what, "expected a finite number >= 0");
	return 0;
}

/* A number from 0 to max. */
static int get_number_max(struct ctx *c, json_t *v, const char *what,
			  double max, double *out)
{
	char why[96];

	if (get_number(c, v, what, out))
		return -PM_EFORMAT;
	if (*out > max) {
		snprintf(why, sizeof(why), "at most %g", max);
		return bad(c, what, why);
	}
	return 0;
}

static int get_pair(struct ctx *c, json_t *v, const char *what, double *a,
		    double *b)
{
	if (!json_is_array(v) || json_array_size(v) != 2)
		return bad(c, what, "expected [a, b]");
	if (get_number(c, json_array_get(v, 0), what, a) ||
	    get_number(c, json_array_get(v, 1), what, b))
		return -PM_EFORMAT;
	return 0;
}

static int parse_dist_params(struct ctx *c, json_t *v, const char *what,
			     struct pm_sim_dist *d);

/* A distribution whose every parameter (mean, spread, bounds) is at most
 * max; its draws are clamped there too. */
static int parse_dist(struct ctx *c, json_t *v, const char *what, double max,
		      struct pm_sim_dist *d)
{
	char why[96];
	int ret = parse_dist_params(c, v, what, d);

	if (ret)
		return ret;
	if (d->a > max || d->b > max) {
		snprintf(why, sizeof(why), "at most %g", max);
		return bad(c, what, why);
	}
	d->max = max;
	return 0;
}

static int parse_dist_params(struct ctx *c, json_t *v, const char *what,
			     struct pm_sim_dist *d)
{
	const char *key;
	json_t *val;

	memset(d, 0, sizeof(*d));
	if (json_is_number(v))
		return get_number(c, v, what, &d->a);
	if (!json_is_object(v) || json_object_size(v) != 1)
		return bad(c, what, "a distribution is a number or one of {\"const\": v}, {\"normal\": [mean, sd]}, {\"lognormal\": [mean, sd]}, {\"uniform\": [lo, hi]}");
	json_object_foreach(v, key, val) {
		if (!strcmp(key, "const")) {
			return get_number(c, val, what, &d->a);
		} else if (!strcmp(key, "normal")) {
			d->kind = PM_SIM_NORMAL;
			return get_pair(c, val, what, &d->a, &d->b);
		} else if (!strcmp(key, "lognormal")) {
			d->kind = PM_SIM_LOGNORMAL;
			if (get_pair(c, val, what, &d->a, &d->b))
				return -PM_EFORMAT;
			if (d->a <= 0)
				return bad(c, what, "a lognormal needs a mean above 0");
			return 0;
		} else if (!strcmp(key, "uniform")) {
			d->kind = PM_SIM_UNIFORM;
			if (get_pair(c, val, what, &d->a, &d->b))
				return -PM_EFORMAT;
			if (d->b < d->a)
				return bad(c, what, "uniform [lo, hi] needs lo <= hi");
			return 0;
		}
		return bad(c, what, "unknown distribution (const, normal, lognormal, uniform)");
	}
	return 0;
}

static int get_uint(struct ctx *c, json_t *obj, const char *key, uint64_t min,
		    uint64_t max, uint64_t dflt, uint64_t *out)
{
	json_t *v = json_object_get(obj, key);
	char why[96];

	if (!v) {
		*out = dflt;
		return 0;
	}
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (uint64_t)json_integer_value(v) < min ||
	    (uint64_t)json_integer_value(v) > max) {
		snprintf(why, sizeof(why), "expected an integer from %llu to %llu",
			 (unsigned long long)min, (unsigned long long)max);
		return bad(c, key, why);
	}
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

static int get_string(struct ctx *c, json_t *obj, const char *key,
		      const char *dflt, char **out)
{
	json_t *v = json_object_get(obj, key);

	if (v && !json_is_string(v))
		return bad(c, key, "expected a string");
	*out = pm_strdup(v ? json_string_value(v) : dflt);
	return 0;
}

/* A stream's name: perf's canonical generic name, else the one the
 * simulator counts for the vendors' names of cycles, instructions and the
 * top-down streams (lib/sim/topdown.c). */
static const char *canonical(const char *ev)
{
	static const char *const vendor[][2] = {
		{ "cpu_cycles", "cycles" },
		{ "ls_not_halted_cyc", "cycles" },
		{ "inst_retired", "instructions" },
		{ "topdown-fe-bound", "stall_slot_frontend" },
		{ "topdown-be-bound", "stall_slot_backend" },
		{ "topdown-retiring", "op_retired" },
		{ "de_no_dispatch_per_slot.no_ops_from_frontend", "stall_slot_frontend" },
		{ "de_no_dispatch_per_slot.backend_stalls", "stall_slot_backend" },
		{ "de_src_op_disp.all", "op_spec" },
		{ "ex_ret_ops", "op_retired" },
	};
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(vendor); i++)
		if (!strcmp(ev, vendor[i][0]))
			return vendor[i][1];
	return pm_event_name__canonical(ev);
}

int pm_sim_model__stream(const struct pm_sim_model *m, const char *event)
{
	const char *ev = canonical(event);
	size_t i;

	for (i = 0; i < m->nr_streams; i++)
		if (!strcmp(m->streams[i], ev))
			return (int)i;
	return -1;
}

static size_t add_stream(struct pm_sim_model *m, const char *ev)
{
	int s = pm_sim_model__stream(m, ev);

	if (s >= 0)
		return (size_t)s;
	m->streams = pm_reallocarray(m->streams, m->nr_streams + 1, sizeof(char *));
	m->streams[m->nr_streams] = pm_strdup(canonical(ev));
	return m->nr_streams++;
}

static const char *const top_keys[] = {
	"name", "description", "arch", "cpu", "ghz", "iterations", "threads",
	"cpus", "timeslice_ms", "order", "nest", "skid", "interrupt",
	"functions", "slots", NULL,
};
static const char *const func_keys[] = {
	"name", "size", "calls", "instructions", "cpi", "per_ki",
	"after_interrupt", "topdown", NULL,
};
static const char *const topdown_keys[] = {
	"frontend", "backend", "bad_speculation", NULL,
};

/* Unknown keys are mistakes (a misspelt "per_ki" would silently give 0). */
static int check_keys(struct ctx *c, json_t *obj, const char *const *keys,
		      const char *where)
{
	const char *key;
	json_t *v;
	size_t i;

	json_object_foreach(obj, key, v) {
		for (i = 0; keys[i]; i++)
			if (!strcmp(key, keys[i]))
				break;
		if (!keys[i]) {
			char why[160];

			snprintf(why, sizeof(why), "unknown key '%s'", key);
			return bad(c, where, why);
		}
	}
	return 0;
}

/* First pass over the functions: every event named anywhere. */
static int collect_streams(struct ctx *c, struct pm_sim_model *m, json_t *funcs)
{
	size_t i;
	json_t *f;

	add_stream(m, "cycles");
	add_stream(m, "instructions");
	json_array_foreach(funcs, i, f) {
		json_t *rates = json_object_get(f, "per_ki");
		json_t *after = json_object_get(f, "after_interrupt");
		const char *key;
		json_t *v;

		if (rates && !json_is_object(rates))
			return bad(c, "per_ki", "expected an object {event: distribution}");
		if (after && !json_is_object(after))
			return bad(c, "after_interrupt", "expected an object {event: count}");
		json_object_foreach(rates, key, v) {
			if (!strcmp(canonical(key), "cycles") ||
			    !strcmp(canonical(key), "instructions"))
				return bad(c, key, "cycles and instructions come from \"cpi\" and \"instructions\", not per_ki");
			if (pm_sim_td__is_stream(canonical(key)))
				return bad(c, key, "the slot events come from \"slots\" and each function's \"topdown\", not per_ki");
			add_stream(m, key);
		}
		json_object_foreach(after, key, v) {
			if (pm_sim_td__is_stream(canonical(key)))
				return bad(c, key, "an interrupt's cycles stall the backend: its slot events follow from \"cycles\"");
			add_stream(m, key);
		}
	}
	for (i = 0; i < PM_SIM_TDS__NR; i++)
		m->td_stream[i] = m->slots ? (int)add_stream(m, pm_sim_td_stream_names[i]) : -1;
	return 0;
}

/* "topdown": {"frontend", "backend", "bad_speculation"}: fractions of
 * the call's slots; what is left retires. */
static int parse_topdown(struct ctx *c, struct pm_sim_model *m, json_t *td,
			 struct pm_sim_func *fn)
{
	static const char *const keys[3] = {
		[PM_SIM_TD_FRONTEND] = "frontend", [PM_SIM_TD_BACKEND] = "backend",
		[PM_SIM_TD_BAD_SPEC] = "bad_speculation",
	};
	char what[300];
	double sum = 0;
	size_t k;

	if (!json_is_object(td))
		return bad(c, "topdown", "expected {\"frontend\", \"backend\", \"bad_speculation\": distribution}");
	if (check_keys(c, td, topdown_keys, "topdown"))
		return -PM_EFORMAT;
	if (!m->slots)
		return bad(c, fn->name, "\"topdown\" needs the model's \"slots\" (the issue width)");
	for (k = 0; k < 3; k++) {
		json_t *v = json_object_get(td, keys[k]);

		snprintf(what, sizeof(what), "%s.topdown.%s", fn->name, keys[k]);
		if (v && parse_dist(c, v, what, 1.0, &fn->topdown[k]))
			return -PM_EFORMAT;
		sum += pm_sim_dist__mean(&fn->topdown[k]);
	}
	if (sum > 1)
		return bad(c, fn->name, "topdown fractions of more than the whole: frontend + backend + bad_speculation above 1");
	fn->has_topdown = true;
	return 0;
}

static int parse_func(struct ctx *c, struct pm_sim_model *m, json_t *f,
		      struct pm_sim_func *fn)
{
	json_t *rates = json_object_get(f, "per_ki");
	json_t *after = json_object_get(f, "after_interrupt");
	json_t *v;
	const char *key;
	char what[300];
	uint64_t u;

	if (!json_is_object(f))
		return bad(c, "functions", "each function is an object");
	if (check_keys(c, f, func_keys, "function"))
		return -PM_EFORMAT;
	v = json_object_get(f, "name");
	if (!json_is_string(v) || !json_string_length(v))
		return bad(c, "functions", "each function needs a \"name\"");
	fn->name = pm_strdup(json_string_value(v));
	fn->per_ki = pm_calloc(m->nr_streams, sizeof(*fn->per_ki));
	fn->has_rate = pm_calloc(m->nr_streams, sizeof(*fn->has_rate));
	fn->after_irq = pm_calloc(m->nr_streams, sizeof(*fn->after_irq));
	if (get_uint(c, f, "size", 16, 1 << 20, 256, &fn->size) ||
	    get_uint(c, f, "calls", 1, 1000000, 1, &u))
		return -PM_EFORMAT;
	fn->calls = (uint32_t)u;
	if (!json_object_get(f, "instructions") || !json_object_get(f, "cpi"))
		return bad(c, fn->name, "needs \"instructions\" (per call) and \"cpi\"");
	/* Fields are named "function.field" in messages. */
	snprintf(what, sizeof(what), "%s.instructions", fn->name);
	if (parse_dist(c, json_object_get(f, "instructions"), what,
		       PM_SIM_MAX_INSTRUCTIONS, &fn->instructions))
		return -PM_EFORMAT;
	snprintf(what, sizeof(what), "%s.cpi", fn->name);
	if (parse_dist(c, json_object_get(f, "cpi"), what, PM_SIM_MAX_CPI,
		       &fn->cpi))
		return -PM_EFORMAT;
	if (pm_sim_dist__mean(&fn->instructions) < 1)
		return bad(c, fn->name, "a call needs at least one instruction");
	if (pm_sim_dist__mean(&fn->cpi) <= 0)
		return bad(c, fn->name, "cpi must be above 0");
	json_object_foreach(rates, key, v) {
		int s = pm_sim_model__stream(m, key);

		snprintf(what, sizeof(what), "%s.per_ki.%s", fn->name, key);
		if (parse_dist(c, v, what, PM_SIM_MAX_PER_KI, &fn->per_ki[s]))
			return -PM_EFORMAT;
		fn->has_rate[s] = true;
	}
	json_object_foreach(after, key, v) {
		int s = pm_sim_model__stream(m, key);

		if (s == PM_SIM_INSTRUCTIONS)
			return bad(c, "after_interrupt", "an interrupt adds no user instructions");
		snprintf(what, sizeof(what), "%s.after_interrupt.%s", fn->name, key);
		if (get_number_max(c, v, what, PM_SIM_MAX_EVENTS, &fn->after_irq[s]))
			return -PM_EFORMAT;
	}
	if ((v = json_object_get(f, "topdown")) && parse_topdown(c, m, v, fn))
		return -PM_EFORMAT;
	return 0;
}

static int parse_order(struct ctx *c, json_t *root, struct pm_sim_model *m)
{
	json_t *v = json_object_get(root, "order");
	const char *s = v ? json_string_value(v) : "shuffle";

	if (!s)
		return bad(c, "order", "expected a string");
	if (!strcmp(s, "fixed"))
		m->order = PM_SIM_ORDER_FIXED;
	else if (!strcmp(s, "shuffle"))
		m->order = PM_SIM_ORDER_SHUFFLE;
	else if (!strcmp(s, "random"))
		m->order = PM_SIM_ORDER_RANDOM;
	else
		return bad(c, "order", "fixed, shuffle or random");
	return 0;
}

static int parse_nest(struct ctx *c, json_t *root, struct pm_sim_model *m)
{
	json_t *v = json_object_get(root, "nest");
	double a = 1, b = 1;

	if (v && json_is_array(v)) {
		if (get_pair(c, v, "nest", &a, &b))
			return -PM_EFORMAT;
	} else if (v) {
		if (get_number(c, v, "nest", &a))
			return -PM_EFORMAT;
		b = a;
	}
	if (a != floor(a) || b != floor(b) || a < 1 || b > 3 || a > b)
		return bad(c, "nest", "depths are 1 to 3: N or [MIN, MAX]");
	m->nest_min = (uint32_t)a;
	m->nest_max = (uint32_t)b;
	return 0;
}

static int parse_root(struct ctx *c, json_t *root, struct pm_sim_model *m)
{
	json_t *funcs, *v, *f;
	uint64_t u;
	size_t i, j;

	if (!json_is_object(root))
		return bad(c, "model", "expected a JSON object");
	if (check_keys(c, root, top_keys, "model"))
		return -PM_EFORMAT;
	if (get_string(c, root, "name", "model", &m->name) ||
	    get_string(c, root, "description", "", &m->description) ||
	    get_string(c, root, "arch", "x86_64", &m->arch) ||
	    get_string(c, root, "cpu", "simulated CPU", &m->cpu))
		return -PM_EFORMAT;
	if (!m->name[0] || strchr(m->name, '/'))
		return bad(c, "name", "a non-empty name without '/' (it names the ELF)");
	m->ghz = 2.0;
	if ((v = json_object_get(root, "ghz")) && get_number(c, v, "ghz", &m->ghz))
		return -PM_EFORMAT;
	if (m->ghz < 0.01 || m->ghz > 100)
		return bad(c, "ghz", "a clock from 0.01 to 100 GHz");
	if (get_uint(c, root, "iterations", 1, UINT64_MAX >> 20, 1000, &m->iterations) ||
	    get_uint(c, root, "threads", 1, 256, 1, &u))
		return -PM_EFORMAT;
	m->threads = (uint32_t)u;
	if (get_uint(c, root, "cpus", 1, 256, 1, &u))
		return -PM_EFORMAT;
	m->cpus = (uint32_t)u;
	m->timeslice_ms = 4;
	if ((v = json_object_get(root, "timeslice_ms")) &&
	    get_number_max(c, v, "timeslice_ms", PM_SIM_MAX_TIMESLICE_MS,
			   &m->timeslice_ms))
		return -PM_EFORMAT;
	if (m->timeslice_ms < 0.01)
		return bad(c, "timeslice_ms", "at least 0.01");
	if (parse_order(c, root, m) || parse_nest(c, root, m))
		return -PM_EFORMAT;
	m->skid.kind = PM_SIM_CONST;
	if ((v = json_object_get(root, "skid")) &&
	    parse_dist(c, v, "skid", PM_SIM_MAX_SKID, &m->skid))
		return -PM_EFORMAT;
	if ((v = json_object_get(root, "interrupt"))) {
		json_t *cy = json_object_get(v, "cycles");

		if (!json_is_object(v) || json_object_size(v) != (cy ? 1 : 0))
			return bad(c, "interrupt", "expected {\"cycles\": N}");
		if (cy && get_number_max(c, cy, "interrupt.cycles",
					 PM_SIM_MAX_IRQ_CYCLES, &m->irq_cycles))
			return -PM_EFORMAT;
	}
	if (get_uint(c, root, "slots", 1, PM_SIM_MAX_SLOTS, 0, &u))
		return -PM_EFORMAT;
	m->slots = (uint32_t)u;
	funcs = json_object_get(root, "functions");
	if (!json_is_array(funcs) || !json_array_size(funcs))
		return bad(c, "functions", "expected a non-empty array");
	if (collect_streams(c, m, funcs))
		return -PM_EFORMAT;
	m->funcs = pm_calloc(json_array_size(funcs), sizeof(*m->funcs));
	json_array_foreach(funcs, i, f) {
		m->nr_funcs = i + 1;
		if (parse_func(c, m, f, &m->funcs[i]))
			return -PM_EFORMAT;
		for (j = 0; j < i; j++)
			if (!strcmp(m->funcs[j].name, m->funcs[i].name))
				return bad(c, m->funcs[i].name, "two functions with this name");
		if (!strncmp(m->funcs[i].name, "nest_", 5) ||
		    !strcmp(m->funcs[i].name, "main") ||
		    !strcmp(m->funcs[i].name, "run_one") ||
		    !strcmp(m->funcs[i].name, "run_behaviours"))
			return bad(c, m->funcs[i].name, "the name of one of the driver's functions");
	}
	return 0;
}

int pm_sim_model__parse(struct pm_sim_model **out, const char *json,
			size_t len, const char *origin, struct pm_error *err)
{
	struct ctx c = { .origin = origin ? origin : "model", .err = err };
	struct pm_sim_model *m;
	json_error_t jerr;
	json_t *root;
	int ret;

	*out = NULL;
	root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return pm_error__fmt(err, PM_EFORMAT, "line %d column %d: %s",
				     jerr.line, jerr.column, jerr.text);
	m = pm_zalloc(sizeof(*m));
	ret = parse_root(&c, root, m);
	json_decref(root);
	if (ret) {
		pm_sim_model__delete(m);
		return ret;
	}
	*out = m;
	return 0;
}

int pm_sim_model__load(struct pm_sim_model **out, const char *name,
		       struct pm_error *err)
{
	const char *text = pm_sim_builtin_model(name);
	char *buf = NULL;
	size_t len = 0, alloc = 0, n;
	FILE *f;
	int ret;

	if (text)
		return pm_sim_model__parse(out, text, strlen(text), name, err);
	f = fopen(name, "rb");
	if (!f)
		return pm_error__fmt(err, errno, "%s (builtin models: arm-benchmark, resonant, topdown)",
				     strerror(errno));
	do {
		PM_GROW(buf, alloc, len + 65536);
		n = fread(buf + len, 1, alloc - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return pm_error__fmt(err, EIO, "read error");
	}
	fclose(f);
	ret = pm_sim_model__parse(out, buf, len, name, err);
	free(buf);
	return ret;
}

void pm_sim_model__delete(struct pm_sim_model *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr_funcs; i++) {
		free(m->funcs[i].name);
		free(m->funcs[i].per_ki);
		free(m->funcs[i].has_rate);
		free(m->funcs[i].after_irq);
	}
	for (i = 0; i < m->nr_streams; i++)
		free(m->streams[i]);
	free(m->streams);
	free(m->funcs);
	free(m->name);
	free(m->description);
	free(m->arch);
	free(m->cpu);
	free(m);
}
