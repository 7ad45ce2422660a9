// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof diff (pmprof/diff.h): two finished reports, the first ranked
 * table of each matched row by row, shares and every other number
 * compared, and the share changes tested.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diff-int.h"
#include "diff-match.h"
#include "pmprof/report.h"
#include "pmprof/strbuf.h"
#include "pmprof/table.h"

/* The table to compare: the first one with rows to rank and key columns. */
static const struct pm_table *ranked_table(const struct pm_report *rep)
{
	for (size_t i = 0; i < pm_report__nr_tables(rep); i++) {
		const struct pm_table *t = pm_report__table(rep, i);

		if (pm_table__flags(t) & (PM_TABLE_JSON_ONLY | PM_TABLE_WHOLE))
			continue;
		for (size_t c = 0; c < pm_table__nr_columns(t); c++)
			if (pm_table__column(t, c)->flags & PM_COLF_KEY)
				return t;
	}
	return NULL;
}

static bool numeric(enum pm_table_type ty)
{
	return ty == PM_COL_U64 || ty == PM_COL_I64 || ty == PM_COL_DOUBLE ||
	       ty == PM_COL_PERCENT;
}

static bool integer(enum pm_table_type ty)
{
	return ty == PM_COL_U64 || ty == PM_COL_I64;
}

/* A column's value in JSON (the plain one of a table/JSON pair). */
static bool json_number(const struct pm_table_column *c)
{
	return numeric(c->type) && !(c->flags & PM_COLF_KEY) &&
	       (!c->show || (c->show & PM_SHOW_JSON));
}

/* The column of t with c's name and group, or -1. */
static int same_column(const struct pm_table *t, const struct pm_table_column *c,
		       enum pm_table_type type)
{
	for (size_t i = 0; i < pm_table__nr_columns(t); i++) {
		const struct pm_table_column *x = pm_table__column(t, i);

		if (x->type == type && !strcmp(x->name, c->name) &&
		    !strcmp(x->group ? x->group : "", c->group ? c->group : ""))
			return (int)i;
	}
	return -1;
}

static int by_key(const struct pm_table *t, const char *key)
{
	for (size_t i = 0; i < pm_table__nr_columns(t); i++) {
		const struct pm_table_column *x = pm_table__column(t, i);

		if (json_number(x) && x->key && !strcmp(x->key, key))
			return (int)i;
	}
	return -1;
}

double pm_diff__z_critical(double confidence)
{
	double lo = 0, hi = 40, alpha = 1 - confidence;

	/* P(|Z| > z) = erfc(z / sqrt 2), falling in z: bisect */
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (erfc(mid / M_SQRT2) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* One side of the comparison. */
struct side {
	const struct pm_table *t;
	int overhead, samples, period;
	double total;		/* the samples the shares are of */
};

static void side_init(struct side *s, const struct pm_report *rep,
		      const struct pm_table *t)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;

	s->t = t;
	s->overhead = by_key(t, "overhead");
	s->samples = by_key(t, "samples");
	s->period = by_key(t, "period");
	s->total = 0;
	/* the table's own count (rows cut by --percent-limit still count),
	 * else the report's, else the rows' sum */
	if (!pm_summary__text(pm_table__summary((struct pm_table *)t), "samples", &sb) ||
	    !pm_summary__text(pm_report__summary((struct pm_report *)rep), "samples", &sb))
		s->total = strtod(pm_strbuf__str(&sb), NULL);
	pm_strbuf__release(&sb);
	if (s->total <= 0 && s->samples >= 0)
		for (size_t r = 0; r < pm_table__nr_rows(t); r++)
			s->total += pm_table__get_double(t, r, (size_t)s->samples);
}

static double get(const struct pm_table *t, long row, int col)
{
	return row < 0 || col < 0 ? 0 : pm_table__get_double(t, (size_t)row, (size_t)col);
}

/* The row's share, %: its Overhead, else its samples'. */
static double share(const struct side *s, long row)
{
	if (s->overhead >= 0)
		return get(s->t, row, s->overhead);
	return s->total > 0 ? 100 * get(s->t, row, s->samples) / s->total : 0;
}

struct out_cols {
	int base, new, delta, ratio, wdiff, z, sig;
	size_t first_other;
};

static int col(struct pm_table *t, const char *name, const char *key,
	       enum pm_table_type type, unsigned int show)
{
	return pm_table__add_column(t, &(struct pm_table_column){
		.name = name, .key = key, .type = type, .show = show,
		.null_text = "" });
}

static void add_share_columns(struct pm_table *t, unsigned int compute,
			      struct out_cols *oc)
{
	oc->delta = oc->ratio = oc->wdiff = -1;
	oc->base = col(t, "Baseline", "baseline", PM_COL_PERCENT, 0);
	oc->new = col(t, "New", "new", PM_COL_PERCENT, 0);
	if (compute & PM_DIFF_DELTA)
		oc->delta = col(t, "Delta", "delta", PM_COL_PERCENT, 0);
	if (compute & PM_DIFF_RATIO)
		oc->ratio = col(t, "Ratio", "ratio", PM_COL_DOUBLE, 0);
	if (compute & PM_DIFF_WDIFF)
		oc->wdiff = col(t, "Weighted diff", "wdiff", PM_COL_DOUBLE, 0);
	oc->z = col(t, "z", NULL, PM_COL_DOUBLE, 0);
	oc->sig = col(t, "Significant", "significant", PM_COL_BOOL, 0);
}

/* The column of base's column bc with this suffix: "GROUP NAME SUFFIX"
 * in text ("metrics CPI delta"), "GROUP_KEY_SUFFIX" in JSON. */
static int named_col(struct pm_table *t, const struct pm_table_column *bc,
		     const char *suffix, enum pm_table_type type,
		     struct pm_strbuf *sb, struct pm_strbuf *kb)
{
	const char *grp = bc->group ? bc->group : "";

	pm_strbuf__reset(sb);
	pm_strbuf__reset(kb);
	pm_strbuf__addf(sb, "%s%s%s%s%s", grp, *grp ? " " : "", bc->name,
			*suffix ? " " : "", suffix);
	pm_strbuf__addf(kb, "%s%s%s%s%s", grp, *grp ? "_" : "",
			bc->key ? bc->key : bc->name, *suffix ? "_" : "", suffix);
	for (char *p = (char *)pm_strbuf__str(kb); *p; p++)
		if (*p == ' ')
			*p = '_';
	return col(t, pm_strbuf__str(sb), pm_strbuf__str(kb), type, 0);
}

/* What each other number of base gets: NEW's value, its delta, ratio. */
struct other {
	int bcol, ncol, out;		/* out: first of its output columns */
	int bci, nci, sig;		/* the intervals, and "X sig" */
};

static size_t add_other_columns(struct pm_table *t, const struct side *b,
				const struct side *n, unsigned int compute,
				struct other *o)
{
	struct pm_strbuf sb = PM_STRBUF_INIT, kb = PM_STRBUF_INIT;
	size_t nr = 0;

	for (size_t c = 0; c < pm_table__nr_columns(b->t); c++) {
		const struct pm_table_column *bc = pm_table__column(b->t, c);
		int nc = same_column(n->t, bc, bc->type);
		struct pm_table_column ci = *bc;

		if (!json_number(bc) || nc < 0 || (int)c == b->overhead)
			continue;
		o[nr] = (struct other){ .bcol = (int)c, .ncol = nc, .bci = -1,
					.nci = -1, .sig = -1 };
		o[nr].out = named_col(t, bc, "", bc->type, &sb, &kb);
		if (compute & PM_DIFF_DELTA)
			named_col(t, bc, "delta", integer(bc->type) ? PM_COL_I64 :
				  PM_COL_DOUBLE, &sb, &kb);
		if (compute & PM_DIFF_RATIO)
			named_col(t, bc, "ratio", PM_COL_DOUBLE, &sb, &kb);
		/* metrics --ci: the metric's interval on both sides */
		ci.group = "ci95";
		o[nr].bci = same_column(b->t, &ci, PM_COL_RANGE);
		o[nr].nci = same_column(n->t, &ci, PM_COL_RANGE);
		if (o[nr].bci >= 0 && o[nr].nci >= 0)
			o[nr].sig = named_col(t, bc, "sig", PM_COL_BOOL, &sb, &kb);
		nr++;
	}
	pm_strbuf__release(&sb);
	pm_strbuf__release(&kb);
	return nr;
}

static void set_other(struct pm_table *t, size_t r, const struct side *b,
		      const struct side *n, const struct pm_diff_pair *p,
		      unsigned int compute, const struct other *o)
{
	double vb = get(b->t, p->base, o->bcol), vn = get(n->t, p->new, o->ncol);
	int c = o->out;
	double bl, bh, nl, nh;

	if (p->new >= 0)
		pm_table__set_double(t, r, (size_t)c, vn);
	if (compute & PM_DIFF_DELTA)
		pm_table__set_double(t, r, (size_t)++c, vn - vb);
	if (compute & PM_DIFF_RATIO) {
		c++;
		if (p->base >= 0 && p->new >= 0 && vb != 0)
			pm_table__set_double(t, r, (size_t)c, vn / vb);
	}
	if (o->sig >= 0 && p->base >= 0 && p->new >= 0 &&
	    pm_table__get_range(b->t, (size_t)p->base, (size_t)o->bci, &bl, &bh) &&
	    pm_table__get_range(n->t, (size_t)p->new, (size_t)o->nci, &nl, &nh))
		pm_table__set_bool(t, r, (size_t)o->sig, nh < bl || nl > bh);
}

/* The two-proportion z of the row's samples (pooled); NaN without any. */
static double share_z(const struct side *b, const struct side *n,
		      const struct pm_diff_pair *p)
{
	double xb = get(b->t, p->base, b->samples), xn = get(n->t, p->new, n->samples);
	double pool, se;

	if (b->samples < 0 || n->samples < 0 || b->total <= 0 || n->total <= 0)
		return NAN;
	pool = (xb + xn) / (b->total + n->total);
	se = sqrt(pool * (1 - pool) * (1 / b->total + 1 / n->total));
	if (!(se > 0))
		return 0;
	return (xn / n->total - xb / b->total) / se;
}

/* perf diff's order: the greatest change of share first, then by the
 * baseline's share, then by the new one's. */
static int by_change(const struct pm_table *t, size_t a, size_t b, void *arg)
{
	const struct out_cols *oc = arg;
	double x, y;

	x = fabs(pm_table__get_double(t, a, (size_t)oc->new) -
		 pm_table__get_double(t, a, (size_t)oc->base));
	y = fabs(pm_table__get_double(t, b, (size_t)oc->new) -
		 pm_table__get_double(t, b, (size_t)oc->base));
	if (x != y)
		return x < y ? 1 : -1;
	x = pm_table__get_double(t, a, (size_t)oc->base);
	y = pm_table__get_double(t, b, (size_t)oc->base);
	if (x != y)
		return x < y ? 1 : -1;
	x = pm_table__get_double(t, a, (size_t)oc->new);
	y = pm_table__get_double(t, b, (size_t)oc->new);
	return x < y ? 1 : x > y ? -1 : 0;
}

static void fill(struct pm_table *t, const struct side *b, const struct side *n,
		 const struct pm_diff_opts *o, const struct out_cols *oc,
		 const struct other *other, size_t nr_other, const size_t *keys,
		 size_t nr_keys)
{
	double zc = pm_diff__z_critical(o->confidence);
	struct pm_diff_match m;

	pm_diff_match__run(&m, b->t, n->t, -1);
	for (size_t i = 0; i < m.nr; i++) {
		const struct pm_diff_pair *p = &m.pairs[i];
		const struct side *has = p->base >= 0 ? b : n;
		long hr = p->base >= 0 ? p->base : p->new;
		size_t r = pm_table__add_row(t);
		double sb = share(b, p->base), sn = share(n, p->new);
		double z = share_z(b, n, p);

		for (size_t k = 0; k < nr_keys; k++) {
			const char *s = pm_table__get_str(has->t, (size_t)hr, keys[k]);

			pm_table__set_str(t, r, k, s);
		}
		if (p->base >= 0)
			pm_table__set_double(t, r, (size_t)oc->base, sb);
		if (p->new >= 0)
			pm_table__set_double(t, r, (size_t)oc->new, sn);
		if (oc->delta >= 0)
			pm_table__set_double(t, r, (size_t)oc->delta, sn - sb);
		if (oc->ratio >= 0 && p->base >= 0 && p->new >= 0 && sb > 0)
			pm_table__set_double(t, r, (size_t)oc->ratio, sn / sb);
		if (oc->wdiff >= 0) {
			int bp = b->period >= 0 ? b->period : b->samples;
			int np = n->period >= 0 ? n->period : n->samples;

			pm_table__set_double(t, r, (size_t)oc->wdiff,
					     get(n->t, p->new, np) * (double)o->w_new -
					     get(b->t, p->base, bp) * (double)o->w_base);
		}
		if (!isnan(z)) {
			pm_table__set_double(t, r, (size_t)oc->z, z);
			pm_table__set_bool(t, r, (size_t)oc->sig, fabs(z) > zc);
		}
		for (size_t k = 0; k < nr_other; k++)
			set_other(t, r, b, n, p, o->compute, &other[k]);
	}
	pm_diff_match__release(&m);
}

int pm_diff__reports(const struct pm_report *base, const struct pm_report *new,
		     const struct pm_diff_opts *opts, struct pm_report **out,
		     struct pm_error *err)
{
	struct pm_diff_opts o = *opts;
	const struct pm_table *bt = ranked_table(base), *nt = ranked_table(new);
	struct side b, n;
	struct out_cols oc;
	struct other *other;
	size_t *keys, nr_keys = 0, nr_other;
	struct pm_table *t;
	struct pm_report *rep;
	int ret;

	*out = NULL;
	if (!o.compute)
		o.compute = PM_DIFF_DELTA;
	if (!(o.confidence > 0 && o.confidence < 1))
		o.confidence = 0.95;
	if (!bt || !nt)
		return pm_error__fmt(err, PM_EUSAGE, "the %s recording has no functions to compare",
				     bt ? "new" : "base");
	side_init(&b, base, bt);
	side_init(&n, new, nt);
	t = pm_table__new();
	pm_table__set_name(t, "functions");
	keys = calloc(pm_table__nr_columns(bt) + 1, sizeof(*keys));
	other = calloc(pm_table__nr_columns(bt) + 1, sizeof(*other));
	/* the key columns first (the JSON and table twins alike) */
	for (size_t c = 0; c < pm_table__nr_columns(bt); c++) {
		const struct pm_table_column *kc = pm_table__column(bt, c);

		if (kc->type != PM_COL_STRING ||
		    (!(kc->flags & PM_COLF_KEY) && (kc->group || !(kc->show & PM_SHOW_JSON) ||
						    (strcmp(kc->name, "dso") && strcmp(kc->name, "symbol")))))
			continue;
		keys[nr_keys++] = c;
		pm_table__add_column(t, kc);
	}
	add_share_columns(t, o.compute, &oc);
	nr_other = add_other_columns(t, &b, &n, o.compute, other);
	fill(t, &b, &n, &o, &oc, other, nr_other, keys, nr_keys);
	pm_table__sort_by(t, by_change, &oc);
	rep = pm_report__new();
	pm_table__set_title(t, "Baseline and New: each function's share of its recording's samples; "
			    "Delta in percentage points");
	pm_table__add_comment(t, "Significant: a two-proportion z test of the samples' shares, "
			      "|z| > %.2f (%.4g%% confidence)", pm_diff__z_critical(o.confidence),
			      100 * o.confidence);
	pm_summary__add_u64(pm_report__summary(rep), "base_samples", "Baseline samples",
			    (uint64_t)b.total);
	pm_summary__add_u64(pm_report__summary(rep), "new_samples", "New samples",
			    (uint64_t)n.total);
	pm_summary__add_double(pm_report__summary(rep), "confidence", NULL, o.confidence);
	pm_report__add_table(rep, t);
	free(keys);
	free(other);
	ret = pm_diff__stacks(base, new, &o, rep, err);
	if (ret) {
		pm_report__delete(rep);
		return ret;
	}
	*out = rep;
	return 0;
}

int pm_diff_compute__parse(const char *s, struct pm_diff_opts *o,
			   struct pm_error *err)
{
	const char *p = s;

	o->compute = 0;
	o->w_base = o->w_new = 1;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (len == 5 && !strncmp(p, "delta", 5)) {
			o->compute |= PM_DIFF_DELTA;
		} else if (len == 5 && !strncmp(p, "ratio", 5)) {
			o->compute |= PM_DIFF_RATIO;
		} else if (!strncmp(p, "wdiff:", 6)) {
			char *end;

			/* wdiff:B,N takes the next word as N */
			o->w_base = strtoll(p + 6, &end, 10);
			if (end == p + 6 || *end != ',')
				goto bad;
			o->w_new = strtoll(end + 1, &end, 10);
			if (*end && *end != ',')
				goto bad;
			o->compute |= PM_DIFF_WDIFF;
			len = (size_t)(end - p);
		} else if (len == 5 && !strncmp(p, "wdiff", 5)) {
			o->compute |= PM_DIFF_WDIFF;
		} else {
			goto bad;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	if (o->compute)
		return 0;
bad:
	return pm_error__fmt(err, PM_EUSAGE,
			     "'%s': delta, ratio, wdiff or wdiff:B,N, comma apart", s);
}
