// SPDX-License-Identifier: GPL-2.0
/*
 * perf report's sample and row filters (filter.h). Lists are split once
 * into sorted arrays; a sample is tested against small sorted sets, so a
 * filter costs a few comparisons per sample.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/dso.h"
#include "pmprof/error.h"
#include "pmprof/filter.h"
#include "pmprof/util.h"

/* ---- --time ---- */

#define NSEC_PER_SEC 1000000000ULL

/* "SEC[.FRAC]" with up to nine decimals, in ns. */
static bool parse_seconds(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	if (!isdigit((unsigned char)*s))
		return false;
	for (; isdigit((unsigned char)*s); s++) {
		if (sec > (UINT64_MAX / NSEC_PER_SEC - 9) / 10)
			return false;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++) {
			if (++digits > 9)
				return false;
			frac = frac * 10 + (uint64_t)(*s - '0');
		}
		for (int i = digits; i < 9; i++)
			frac *= 10;
	}
	if (*s)
		return false;
	*ns = sec * NSEC_PER_SEC + frac;
	return true;
}

/* "START,STOP" (either empty). */
static bool parse_abs_range(char *s, struct pm_time_range *r)
{
	char *comma = strchr(s, ',');

	r->start = r->end = 0;
	if (!comma)
		return false;
	*comma = '\0';
	if (*s && !parse_seconds(s, &r->start))
		return false;
	if (comma[1] && !parse_seconds(comma + 1, &r->end))
		return false;
	return !(r->end && r->end < r->start);
}

/* "N%" as a fraction. */
static bool parse_percent(const char *s, double *v)
{
	size_t len = strlen(s);
	char *end;

	if (len < 2 || s[len - 1] != '%')
		return false;
	*v = strtod(s, &end);
	return end == s + len - 1 && isfinite(*v);
}

/* A slice from fractions lo..hi of [first, last]; the end excluded
 * (perf's), unless it is the last sample's time. */
static bool set_slice(struct pm_time_range *r, double lo, double hi,
		      uint64_t first, uint64_t last)
{
	uint64_t total = last - first;

	if (lo < 0 || lo > 1 || hi < 0 || hi > 1)
		return false;
	r->start = first + (uint64_t)round(lo * (double)total);
	r->end = first + (uint64_t)round(hi * (double)total);
	if (r->end > r->start && r->end != last)
		r->end--;
	return true;
}

/* "P%/N": the N-th slice of P%. */
static bool parse_slash(char *s, struct pm_time_range *r, uint64_t first,
			uint64_t last)
{
	char *slash = strchr(s, '/'), *end;
	double p;
	long n;

	if (!slash)
		return false;
	*slash = '\0';
	if (!parse_percent(s, &p) || p <= 0)
		return false;
	n = strtol(slash + 1, &end, 10);
	if (*end || end == slash + 1)
		return false;
	p /= 100;
	return set_slice(r, p * (double)(n - 1), p * (double)n, first, last);
}

/* "A%-B%". */
static bool parse_dash(char *s, struct pm_time_range *r, uint64_t first,
		       uint64_t last)
{
	char *dash = strchr(s, '-');
	double a, b;

	if (!dash)
		return false;
	*dash = '\0';
	if (!parse_percent(s, &a) || !parse_percent(dash + 1, &b))
		return false;
	return set_slice(r, a / 100, b / 100, first, last);
}

static int bad_time(struct pm_error *err, const char *spec, const char *why)
{
	return pm_error__fmt(err, PM_EUSAGE, "--time '%s': %s", spec, why);
}

static int parse_percent_ranges(char *s, const char *spec, uint64_t first,
				uint64_t last, struct pm_time_range *v,
				size_t *nr, struct pm_error *err)
{
	bool slash = strchr(s, '/'), dash = strchr(s, '-');
	char *save = NULL, *w;

	if (!first && !last)
		return bad_time(err, spec, "the recording has no first and last sample times (perf's SAMPLE_TIME feature) for percentages");
	if (!slash && !dash) {	/* "P%": the first slice */
		double p;

		if (!parse_percent(s, &p) || p <= 0 ||
		    !set_slice(&v[0], 0, p / 100, first, last))
			return bad_time(err, spec, "not a percentage");
		*nr = 1;
		return 0;
	}
	for (w = strtok_r(s, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (!(slash ? parse_slash(w, &v[*nr], first, last) :
			      parse_dash(w, &v[*nr], first, last)))
			return bad_time(err, spec, slash ?
					"percent slices are P%/N, within 0% to 100%" :
					"percent ranges are A%-B%, within 0% to 100%");
		(*nr)++;
	}
	return 0;
}

static int parse_abs_ranges(char *s, const char *spec, struct pm_time_range *v,
			    size_t *nr, struct pm_error *err)
{
	char *save = NULL, *w;

	for (w = strtok_r(s, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (!parse_abs_range(w, &v[*nr]))
			return bad_time(err, spec, "ranges are START,STOP in seconds (up to nine decimals; either may be empty), apart by spaces");
		if (*nr && v[*nr - 1].end >= v[*nr].start)
			return bad_time(err, spec, "ranges must be in order and apart");
		(*nr)++;
	}
	if (!*nr)
		return bad_time(err, spec, "no range");
	return 0;
}

int pm_time_ranges__parse(const char *spec, uint64_t first, uint64_t last,
			  struct pm_time_range **out, size_t *nr,
			  struct pm_error *err)
{
	char *s = pm_strdup(spec);
	size_t max = 1;
	struct pm_time_range *v;
	int ret;

	for (const char *p = spec; *p; p++)
		max += *p == ',' || *p == ' ';
	v = pm_calloc(max, sizeof(*v));
	*nr = 0;
	if (strchr(s, '%'))
		ret = parse_percent_ranges(s, spec, first, last, v, nr, err);
	else
		ret = parse_abs_ranges(s, spec, v, nr, err);
	free(s);
	if (ret) {
		free(v);
		*nr = 0;
		v = NULL;
	}
	*out = v;
	return ret;
}

bool pm_time_ranges__skip(const struct pm_time_range *r, size_t nr,
			  uint64_t time)
{
	if (!nr || !time)
		return false;
	if (nr == 1)
		return (r->start && time < r->start) || (r->end && time > r->end);
	for (size_t i = 0; i < nr; i++)
		if (time >= r[i].start && (!r[i].end || time <= r[i].end))
			return false;
	return true;
}

/* ---- lists ---- */

struct str_list {
	char **v;
	size_t nr;
};

struct int_list {
	int64_t *v;
	size_t nr;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* "a,b,c" (blanks around words dropped), sorted. */
static void split_strs(struct str_list *l, const char *s)
{
	char *copy = pm_strdup(s), *save = NULL, *w;

	for (w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		char *e = w + strlen(w);

		while (isspace((unsigned char)*w))
			w++;
		while (e > w && isspace((unsigned char)e[-1]))
			*--e = '\0';
		if (!*w)
			continue;
		l->v = pm_realloc(l->v, (l->nr + 1) * sizeof(*l->v));
		l->v[l->nr++] = pm_strdup(w);
	}
	free(copy);
	qsort(l->v, l->nr, sizeof(*l->v), cmp_str);
}

static bool has_str(const struct str_list *l, const char *s)
{
	return s && bsearch(&s, l->v, l->nr, sizeof(*l->v), cmp_str);
}

/* "1,5-7" into numbers (ranges only when allowed), sorted. */
static bool split_ints(struct int_list *l, const char *s, bool ranges)
{
	const char *p = s;

	while (*p) {
		char *end;
		long long a = strtoll(p, &end, 10), b = a;

		if (end == p || a < 0)
			return false;
		p = end;
		if (*p == '-' && ranges) {
			b = strtoll(p + 1, &end, 10);
			if (end == p + 1 || b < a || b - a > 65536)
				return false;
			p = end;
		}
		for (long long x = a; x <= b; x++) {
			l->v = pm_realloc(l->v, (l->nr + 1) * sizeof(*l->v));
			l->v[l->nr++] = x;
		}
		if (*p == ',')
			p++;
		else if (*p)
			return false;
	}
	qsort(l->v, l->nr, sizeof(*l->v), cmp_i64);
	return l->nr > 0;
}

static bool has_int(const struct int_list *l, int64_t x)
{
	return bsearch(&x, l->v, l->nr, sizeof(*l->v), cmp_i64);
}

/* ---- the filter ---- */

struct pm_filter {
	struct pm_filter_opts o;
	struct int_list cpus, pids, tids;
	struct str_list comms, dsos, syms;
	struct pm_time_range *time;
	size_t nr_time;
};

static int bad_list(struct pm_error *err, const char *opt, const char *v,
		    const char *what)
{
	return pm_error__fmt(err, PM_EUSAGE, "%s '%s': %s", opt, v, what);
}

int pm_filter__new(struct pm_filter **out, const struct pm_filter_opts *opts,
		   uint64_t first, uint64_t last, struct pm_error *err)
{
	struct pm_filter *f = pm_zalloc(sizeof(*f));
	const struct pm_filter_opts *o = &f->o;
	int ret = 0;

	*out = NULL;
	if (opts) {
		size_t sz = opts->sz ? PM_MIN(opts->sz, sizeof(f->o)) : sizeof(f->o);

		memcpy(&f->o, opts, sz);
	}
	if (o->cpus && !split_ints(&f->cpus, o->cpus, true))
		ret = bad_list(err, "--cpu", o->cpus, "CPUs are numbers and ranges, such as 0-3,8");
	else if (o->pids && !split_ints(&f->pids, o->pids, false))
		ret = bad_list(err, "--pid", o->pids, "process ids are numbers, comma-separated");
	else if (o->tids && !split_ints(&f->tids, o->tids, false))
		ret = bad_list(err, "--tid", o->tids, "thread ids are numbers, comma-separated");
	else if (o->time)
		ret = pm_time_ranges__parse(o->time, first, last, &f->time,
					    &f->nr_time, err);
	if (ret) {
		pm_filter__delete(f);
		return ret;
	}
	if (o->comms)
		split_strs(&f->comms, o->comms);
	if (o->dsos)
		split_strs(&f->dsos, o->dsos);
	if (o->symbols)
		split_strs(&f->syms, o->symbols);
	/* the strings were the caller's */
	f->o.cpus = f->o.time = f->o.pids = f->o.tids = NULL;
	f->o.comms = f->o.dsos = f->o.symbols = NULL;
	*out = f;
	return 0;
}

static void free_strs(struct str_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i]);
	free(l->v);
}

void pm_filter__delete(struct pm_filter *f)
{
	if (!f)
		return;
	free(f->cpus.v);
	free(f->pids.v);
	free(f->tids.v);
	free_strs(&f->comms);
	free_strs(&f->dsos);
	free_strs(&f->syms);
	free(f->time);
	free(f);
}

bool pm_filter__filters_rows(const struct pm_filter *f)
{
	return f && (f->pids.nr || f->tids.nr || f->comms.nr || f->dsos.nr ||
		     f->syms.nr);
}

bool pm_filter__drop(const struct pm_filter *f, const struct pm_sample_ctx *ctx)
{
	const struct pm_sample *smp = ctx->sample;

	if (!f)
		return false;
	if (f->cpus.nr && (!(smp->sample_type & PM_SAMPLE_CPU) ||
			   !has_int(&f->cpus, smp->cpu)))
		return true;
	if (f->nr_time && (smp->sample_type & PM_SAMPLE_TIME) &&
	    pm_time_ranges__skip(f->time, f->nr_time, smp->time))
		return true;
	return f->o.hide_unresolved && !ctx->ip.sym;
}

bool pm_filter__thread(const struct pm_filter *f, const struct pm_thread *t)
{
	if (!f)
		return true;
	if (f->comms.nr && !has_str(&f->comms, t->comm))
		return false;
	if (f->pids.nr && !has_int(&f->pids, t->pid))
		return false;
	return !f->tids.nr || has_int(&f->tids, t->tid);
}

bool pm_filter__row(const struct pm_filter *f, const struct pm_dso *dso,
		    const struct pm_symbol *sym)
{
	if (!f)
		return true;
	if (f->dsos.nr && (!dso || !(has_str(&f->dsos, pm_dso__short_name(dso)) ||
				     has_str(&f->dsos, pm_dso__name(dso)))))
		return false;
	return !f->syms.nr || (sym && has_str(&f->syms, sym->name));
}

bool pm_filter__hides_entry(const struct pm_filter *f,
			    const struct pm_addr_loc *loc)
{
	return f && f->o.hide_unresolved && !loc->sym;
}
