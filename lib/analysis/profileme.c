// SPDX-License-Identifier: GPL-2.0
/*
 * The DCPI-style ProfileMe accumulator: sums each sample's status into
 * its row (symbol or instruction), one row set per SL1 value, and
 * finishes into the report of `pmprof profileme`. No session here
 * (profileme-view.c feeds it from one), so that it builds alone.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profileme-int.h"
#include "pmprof/keymap.h"
#include "pmprof/lookup.h"
#include "pmprof/profileme_acc.h"
#include "pmprof/report.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"


static const struct pm_profileme_opts default_opts;

struct pm_profileme_acc *pm_profileme_acc__new(const struct pm_profileme_opts *opts)
{
	struct pm_profileme_acc *acc = pm_zalloc(sizeof(*acc));

	PM_OPTS_COPY(&acc->opts, opts, default_opts);
	acc->arch_set = acc->opts.arch != NULL;
	acc->arch = acc->opts.arch ? pm_strdup(acc->opts.arch) : NULL;
	acc->opts.arch = NULL;
	return acc;
}

void pm_profileme_acc__set_arch(struct pm_profileme_acc *acc, const char *arch)
{
	if (acc->arch_set)
		return;
	acc->arch_set = true;
	free(acc->arch);
	acc->arch = arch ? pm_strdup(arch) : NULL;
}

static void free_row(struct pm_profileme_row *r)
{
	free(r->dso);
	free(r->symbol);
	free(r->srcline);
	free(r);
}

void pm_profileme_acc__delete(struct pm_profileme_acc *acc)
{
	size_t s, i;

	if (!acc)
		return;
	for (s = 0; s < 4; s++) {
		struct pm_keymap *set = &acc->sets[s];

		for (i = 0; i < set->nr; i++)
			free_row(set->values[i]);
		pm_keymap__release(set);
	}
	free(acc->arch);
	pm_strbuf__release(&acc->sym);
	pm_strbuf__release(&acc->src);
	free(acc);
}

static void make_key(const struct pm_profileme_acc *acc,
		     const struct pm_profileme *pm,
		     const struct pm_profileme_sample *s, struct pm_strbuf *key)
{
	char pc[17];

	if (acc->opts.view == PM_PROFILEME_BY_SYMBOL) {
		pm_strbuf__addc(key, 'S');
		pm_key__add_str(key, s->dso);
		pm_key__add_str(key, s->symbol);
	} else if (pm_profileme__is_pal(pm)) {
		/* Every sample at a PAL entry is one row, whatever its IP. */
		pm_strbuf__addf(key, "A%x", pm_profileme__pal_offset(pm));
	} else {
		/* The same PC in two programs is two instructions. */
		snprintf(pc, sizeof(pc), "%016" PRIx64, pm_profileme__pc(pm));
		pm_strbuf__addc(key, 'P');
		pm_strbuf__adds(key, pc);
		pm_key__add_str(key, s->dso);
		pm_key__add_str(key, s->symbol);
	}
}

enum pm_profileme_status pm_profileme_acc__add(struct pm_profileme_acc *acc,
					       const struct pm_profileme_sample *s)
{
	struct pm_strbuf key = PM_STRBUF_INIT;
	struct pm_profileme_class cls;
	struct pm_profileme_row *row;
	struct pm_profileme pm;
	enum pm_profileme_status st;
	bool is_new;

	st = pm_profileme__decode(&pm, acc->arch, s->attr_type, s->raw,
				  s->raw_size);
	if (st != PM_PROFILEME_OK) {
		acc->skipped[st]++;
		return st;
	}
	pm_profileme__classify(&pm, &cls);
	make_key(acc, &pm, s, &key);
	row = pm_keymap__findnew_zeroed(&acc->sets[cls.sl1], key.buf, key.len,
					 sizeof(*row), &is_new);
	pm_strbuf__release(&key);
	if (is_new) {
		row->dso = s->dso ? pm_strdup(s->dso) : NULL;
		row->symbol = s->symbol ? pm_strdup(s->symbol) : NULL;
		row->pal = acc->opts.view == PM_PROFILEME_BY_PC &&
			   pm_profileme__is_pal(&pm);
		row->pc = row->pal ? pm_profileme__pal_offset(&pm) :
			  pm_profileme__pc(&pm);
		row->seq = acc->seq++;
	}
	if (!row->srcline && s->srcline && acc->opts.view == PM_PROFILEME_BY_PC)
		row->srcline = pm_strdup(s->srcline);

	acc->samples++;
	pm_profileme_row__add(row, &cls);
	return PM_PROFILEME_OK;
}

uint64_t pm_profileme_acc__samples(const struct pm_profileme_acc *acc)
{
	return acc->samples;
}

uint64_t pm_profileme_acc__skipped(const struct pm_profileme_acc *acc)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < PM_PROFILEME__NR_STATUS; i++)
		n += acc->skipped[i];
	return n;
}

uint64_t pm_profileme_acc__skipped_by(const struct pm_profileme_acc *acc,
				      enum pm_profileme_status why)
{
	return (unsigned)why < PM_PROFILEME__NR_STATUS ? acc->skipped[why] : 0;
}

static const struct pm_name sort_names[] = {
	{ "samples", PM_PROFILEME_SORT_SAMPLES },
	{ "killed", PM_PROFILEME_SORT_KILLED },
	{ "invalid", PM_PROFILEME_SORT_INVALID },
	{ "mispr", PM_PROFILEME_SORT_MISPREDICTED },
	{ "mispredicted", PM_PROFILEME_SORT_MISPREDICTED },
	{ "taken", PM_PROFILEME_SORT_TAKEN },
	{ "stall", PM_PROFILEME_SORT_STALLED },
	{ "stalled", PM_PROFILEME_SORT_STALLED },
	{ "pctr1", PM_PROFILEME_SORT_PCTR1 },
	{ "pc", PM_PROFILEME_SORT_PC },
	{ "symbol", PM_PROFILEME_SORT_SYMBOL },
	PM_NAMES_END
};

int pm_profileme_sort__parse(const char *s, enum pm_profileme_sort *out)
{
	int v = pm_name__value(sort_names, s);

	if (v < 0)
		return -1;
	*out = (enum pm_profileme_sort)v;
	return 0;
}

/* a/sa against b/sb without rounding: cross-multiply in 128 bits. */
static int cmp_rate(uint64_t a, uint64_t sa, uint64_t b, uint64_t sb)
{
	unsigned __int128 l = (unsigned __int128)a * sb;
	unsigned __int128 r = (unsigned __int128)b * sa;

	return l < r ? -1 : l > r;
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	enum pm_profileme_sort sort_key = *(const enum pm_profileme_sort *)arg;
	const struct pm_profileme_row *a = *(const struct pm_profileme_row *const *)pa;
	const struct pm_profileme_row *b = *(const struct pm_profileme_row *const *)pb;
	int r = 0;

	switch (sort_key) {
	case PM_PROFILEME_SORT_SAMPLES:
		break;
	case PM_PROFILEME_SORT_KILLED:
		r = -cmp_rate(a->killed, a->samples, b->killed, b->samples);
		break;
	case PM_PROFILEME_SORT_INVALID:
		r = -cmp_rate(a->invalid, a->samples, b->invalid, b->samples);
		break;
	case PM_PROFILEME_SORT_MISPREDICTED:
		r = -cmp_rate(a->mispredicted, a->samples, b->mispredicted,
			      b->samples);
		break;
	case PM_PROFILEME_SORT_TAKEN:
		r = -cmp_rate(a->taken, a->samples, b->taken, b->samples);
		break;
	case PM_PROFILEME_SORT_STALLED:
		r = -cmp_rate(a->stalled, a->samples, b->stalled, b->samples);
		break;
	case PM_PROFILEME_SORT_PCTR1:
		r = -cmp_rate(a->pctr1_sum, a->samples, b->pctr1_sum, b->samples);
		break;
	case PM_PROFILEME_SORT_PC:
		r = (int)a->pal - (int)b->pal;
		if (!r)
			r = pm_cmp_u64(a->pc, b->pc);
		break;
	case PM_PROFILEME_SORT_SYMBOL:
		r = pm_cmp_str_nulls_last(a->dso, b->dso);
		if (!r)
			r = pm_cmp_str_nulls_last(a->symbol, b->symbol);
		break;
	}
	if (!r)
		r = -pm_cmp_u64(a->samples, b->samples);
	if (!r)
		r = pm_cmp_u64(a->seq, b->seq);	/* unique: a total order */
	return r;
}

const struct pm_profileme_row **
pm_profileme_acc__rows(const struct pm_profileme_acc *acc, unsigned sl1,
		       size_t *nr)
{
	const struct pm_keymap *set;
	const struct pm_profileme_row **rows;

	*nr = 0;
	if (sl1 >= 4 || !acc->sets[sl1].nr)
		return NULL;
	set = &acc->sets[sl1];
	rows = pm_calloc(set->nr, sizeof(*rows));
	for (size_t i = 0; i < set->nr; i++)
		rows[i] = set->values[i];
	qsort_r(rows, set->nr, sizeof(*rows), cmp_rows,
		(void *)&acc->opts.sort);
	*nr = set->nr;
	return rows;
}

static double pct(uint64_t n, uint64_t d)
{
	return d ? 100.0 * (double)n / (double)d : 0.0;
}

static void pc_text(const struct pm_profileme_row *r, struct pm_strbuf *sb)
{
	if (r->pal)
		pm_strbuf__addf(sb, "PAL+0x%" PRIx64, r->pc);
	else
		pm_strbuf__addf(sb, "0x%016" PRIx64, r->pc);
}

static bool any_srcline(const struct pm_profileme_acc *acc, unsigned sl1)
{
	const struct pm_keymap *set = &acc->sets[sl1];

	if (acc->opts.view != PM_PROFILEME_BY_PC)
		return false;
	for (size_t i = 0; i < set->nr; i++)
		if (((const struct pm_profileme_row *)set->values[i])->srcline)
			return true;
	return false;
}

/* The counts JSON gives, beside the rates the table shows. */
enum { K_KILLED, K_INVALID, K_MISPR, K_TAKEN, K_STALLED, K__NR };

static const struct {
	const char *json, *name, *key;
} kinds[K__NR] = {
	[K_KILLED] = { "killed", "killed%", "killed_pct" },
	[K_INVALID] = { "invalid", "invalid%", "invalid_pct" },
	[K_MISPR] = { "mispredicted", "mispr%", "mispredicted_pct" },
	[K_TAKEN] = { "taken", "taken%", "taken_pct" },
	[K_STALLED] = { "stalled", "stall%", "stalled_pct" },
};

struct cols {
	int dso, symbol, pc, srcline, samples, count[K__NR], pctr1_sum;
	int rate[K__NR], mean, tpc, tdso, tsymbol, tsrcline, traps;
	int trap[PM_TRAP__NR];
};

static int add(struct pm_table *t, const char *name, const char *key,
	       enum pm_table_type type, unsigned show, unsigned flags)
{
	struct pm_table_column c = { .name = name, .key = key, .type = type,
				     .show = show, .flags = flags };

	if (show == PM_SHOW_TABLE && type == PM_COL_STRING)
		c.null_text = "[unknown]";
	return pm_table__add_column(t, &c);
}

static void add_columns(struct pm_table *t, const struct pm_profileme_acc *acc,
			unsigned sl1, struct cols *c)
{
	struct pm_table_column mean = { .name = "pctr1", .key = "pctr1_mean",
					.type = PM_COL_DOUBLE, .digits = 1 };
	bool by_pc = acc->opts.view == PM_PROFILEME_BY_PC;
	size_t k;

	c->pc = c->srcline = c->tpc = c->tsrcline = -1;
	c->dso = add(t, "dso", NULL, PM_COL_STRING, PM_SHOW_JSON, PM_COLF_KEY);
	c->symbol = add(t, "symbol", NULL, PM_COL_STRING, PM_SHOW_JSON, PM_COLF_KEY);
	if (by_pc) {
		c->pc = add(t, "pc", NULL, PM_COL_STRING, PM_SHOW_JSON, PM_COLF_KEY);
		c->srcline = add(t, "srcline", NULL, PM_COL_STRING, PM_SHOW_JSON, 0);
	}
	c->samples = add(t, "samples", NULL, PM_COL_U64, 0, 0);
	for (k = 0; k < K__NR; k++)
		c->count[k] = add(t, kinds[k].json, NULL, PM_COL_U64, PM_SHOW_JSON, 0);
	c->pctr1_sum = add(t, "pctr1_sum", NULL, PM_COL_U64, PM_SHOW_JSON, 0);
	for (k = 0; k < K__NR; k++) {
		struct pm_table_column r = { .name = kinds[k].name,
					     .key = kinds[k].key,
					     .type = PM_COL_PERCENT, .digits = 1,
					     .show = PM_SHOW_TABLE };

		c->rate[k] = pm_table__add_column(t, &r);
	}
	c->mean = pm_table__add_column(t, &mean);
	if (by_pc)
		c->tpc = add(t, "pc", NULL, PM_COL_STRING, PM_SHOW_TABLE, 0);
	c->tdso = add(t, "dso", NULL, PM_COL_STRING, PM_SHOW_TABLE, 0);
	c->tsymbol = add(t, "symbol", NULL, PM_COL_STRING, PM_SHOW_TABLE, 0);
	if (any_srcline(acc, sl1)) {
		struct pm_table_column src = { .name = "srcline",
					       .type = PM_COL_STRING,
					       .show = PM_SHOW_TABLE };

		c->tsrcline = pm_table__add_column(t, &src);
	}
	c->traps = add(t, "traps", NULL, PM_COL_STRING, PM_SHOW_TABLE, 0);
	for (k = 0; k < PM_TRAP__NR; k++) {
		struct pm_table_column tc = {
			.name = pm_profileme_trap__name((enum pm_profileme_trap)k),
			.type = PM_COL_U64, .show = PM_SHOW_JSON,
			.flags = PM_COLF_OPTIONAL, .group = "traps",
		};

		c->trap[k] = pm_table__add_column(t, &tc);
	}
}

static void add_row(struct pm_table *t, const struct pm_profileme_row *r,
		    const struct cols *c, struct pm_strbuf *sb)
{
	const uint64_t count[K__NR] = {
		[K_KILLED] = r->killed, [K_INVALID] = r->invalid,
		[K_MISPR] = r->mispredicted, [K_TAKEN] = r->taken,
		[K_STALLED] = r->stalled,
	};
	size_t n = pm_table__add_row(t), k;

	pm_table__set_str(t, n, (size_t)c->dso, r->dso);
	pm_table__set_str(t, n, (size_t)c->symbol, r->symbol);
	pm_strbuf__reset(sb);
	pc_text(r, sb);
	if (c->pc >= 0) {
		pm_table__set_str(t, n, (size_t)c->pc, pm_strbuf__str(sb));
		pm_table__set_str(t, n, (size_t)c->tpc, pm_strbuf__str(sb));
		pm_table__set_str(t, n, (size_t)c->srcline, r->srcline);
	}
	pm_table__set_u64(t, n, (size_t)c->samples, r->samples);
	for (k = 0; k < K__NR; k++) {
		pm_table__set_u64(t, n, (size_t)c->count[k], count[k]);
		pm_table__set_double(t, n, (size_t)c->rate[k],
				     pct(count[k], r->samples));
	}
	pm_table__set_u64(t, n, (size_t)c->pctr1_sum, r->pctr1_sum);
	pm_table__set_double(t, n, (size_t)c->mean,
			     (double)r->pctr1_sum / (double)r->samples);
	pm_table__set_str(t, n, (size_t)c->tdso, r->dso);
	pm_table__set_str(t, n, (size_t)c->tsymbol, r->symbol);
	if (c->tsrcline >= 0 && r->srcline)
		pm_table__set_str(t, n, (size_t)c->tsrcline, r->srcline);
	pm_strbuf__reset(sb);
	pm_profileme_row__traps(r, sb);
	pm_table__set_str(t, n, (size_t)c->traps, pm_strbuf__str(sb));
	for (k = 0; k < PM_TRAP__NR; k++)
		if (r->traps[k])
			pm_table__set_u64(t, n, (size_t)c->trap[k], r->traps[k]);
}

static struct pm_table *build_table(const struct pm_profileme_acc *acc,
				    unsigned sl1)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	const struct pm_profileme_row **rows;
	struct pm_table *t = pm_table__new();
	struct cols c;
	size_t nr, i;

	pm_table__set_caption(t, "pctr1 counts %s:", pm_profileme_pctr1__name(sl1));
	pm_table__set_flags(t, PM_TABLE_OMIT_EMPTY);
	pm_summary__add_u64(pm_table__summary(t), "sl1", NULL, sl1);
	pm_summary__add_str(pm_table__summary(t), "pctr1", NULL,
			    pm_profileme_pctr1__name(sl1));
	add_columns(t, acc, sl1, &c);
	rows = pm_profileme_acc__rows(acc, sl1, &nr);
	for (i = 0; i < nr; i++)
		add_row(t, rows[i], &c, &sb);
	free(rows);
	pm_strbuf__release(&sb);
	return t;
}

struct pm_table *pm_profileme_acc__table(const struct pm_profileme_acc *acc,
					 unsigned sl1)
{
	if (sl1 > 3 || !acc->sets[sl1].nr)
		return NULL;
	return build_table(acc, sl1);
}

int pm_profileme_acc__finish(struct pm_profileme_acc *acc,
			     struct pm_report **out)
{
	static const struct pm_table_column sl1 = {
		.name = "sl1", .type = PM_COL_U64,
	};
	struct pm_report *rep = pm_report__new();
	struct pm_summary *sum = pm_report__summary(rep);
	unsigned s;

	pm_summary__add_u64(sum, "samples", NULL, acc->samples);
	pm_summary__add_u64(sum, "skipped", NULL, pm_profileme_acc__skipped(acc));
	pm_summary__add_str(sum, "view", NULL,
			    acc->opts.view == PM_PROFILEME_BY_PC ? "pc" : "symbol");
	pm_report__add_note(rep, "%" PRIu64 " ProfileMe samples, %" PRIu64
			    " without ProfileMe data", acc->samples,
			    pm_profileme_acc__skipped(acc));
	pm_report__set_tables_key(rep, "tables");
	pm_report__set_merge_column(rep, &sl1, true);
	for (s = 0; s < 4; s++)
		if (acc->sets[s].nr)
			pm_report__add_table(rep, build_table(acc, s));
	/* No table for text and JSON, but CSV and TSV still get columns. */
	if (!pm_report__nr_tables(rep))
		pm_report__add_table(rep, build_table(acc, 0));
	*out = rep;
	return 0;
}
