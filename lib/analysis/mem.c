// SPDX-License-Identifier: GPL-2.0
/*
 * The memory view's accumulator: samples carrying PERF_SAMPLE_DATA_SRC
 * counted per code symbol, data source and data object, on any
 * architecture (Alpha's DTB hits and misses from ProfileMe, x86 and Arm
 * data sources alike), finished into the report of `pmprof mem`. No
 * session here (mem-view.c feeds it from one), so that it builds alone.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/keymap.h"
#include "pmprof/mem_acc.h"
#include "pmprof/lookup.h"
#include "pmprof/report.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

struct pm_mem_acc {
	struct pm_mem_opts opts;
	struct pm_keymap rows;	/* struct pm_mem_row *, by row key */
	uint64_t samples, skipped, na;
	bool any_addr;
};

static const struct pm_mem_opts default_opts;

struct pm_mem_acc *pm_mem_acc__new(const struct pm_mem_opts *opts)
{
	struct pm_mem_acc *acc = pm_zalloc(sizeof(*acc));

	PM_OPTS_COPY(&acc->opts, opts, default_opts);
	return acc;
}

void pm_mem_acc__delete(struct pm_mem_acc *acc)
{
	size_t i;

	if (!acc)
		return;
	for (i = 0; i < acc->rows.nr; i++) {
		struct pm_mem_row *r = acc->rows.values[i];

		free(r->dso);
		free(r->symbol);
		free(r->data_dso);
		free(r->data_symbol);
		free(r);
	}
	pm_keymap__release(&acc->rows);
	free(acc);
}

static char *dup_or_null(const char *s)
{
	return s ? pm_strdup(s) : NULL;
}

int pm_mem_acc__add(struct pm_mem_acc *acc, const struct pm_mem_sample *s)
{
	struct pm_strbuf key = PM_STRBUF_INIT;
	struct pm_mem_src src;
	struct pm_mem_row *row;
	uint64_t v;
	bool is_new;

	if (!s->has_data_src) {
		acc->skipped++;
		return 1;
	}
	/* Bits no field covers would split rows that print the same. */
	pm_mem_src__decode(&src, s->data_src);
	if (pm_mem_src__is_na(&src)) {
		acc->na++;
		return 2;
	}
	v = pm_mem_src__encode(&src);
	pm_strbuf__addf(&key, "%016" PRIx64, v);
	pm_key__add_str(&key, s->dso);
	pm_key__add_str(&key, s->symbol);
	pm_strbuf__addc(&key, s->has_addr ? 'A' : '-');
	if (s->has_addr) {
		pm_key__add_str(&key, s->data_dso);
		pm_key__add_str(&key, s->data_symbol);
	}
	row = pm_keymap__findnew_zeroed(&acc->rows, key.buf, key.len, sizeof(*row),
					 &is_new);
	pm_strbuf__release(&key);
	if (is_new) {
		row->dso = dup_or_null(s->dso);
		row->symbol = dup_or_null(s->symbol);
		row->data_src = v;
		row->src = src;
		row->has_addr = s->has_addr;
		if (s->has_addr) {
			row->data_dso = dup_or_null(s->data_dso);
			row->data_symbol = dup_or_null(s->data_symbol);
			acc->any_addr = true;
		}
		row->seq = acc->rows.nr - 1;
	}
	row->samples++;
	acc->samples++;
	return 0;
}

static const struct pm_name sort_names[] = {
	{ "samples", PM_MEM_SORT_SAMPLES },
	{ "symbol", PM_MEM_SORT_SYMBOL },
	{ "sym", PM_MEM_SORT_SYMBOL },
	{ "op", PM_MEM_SORT_OP },
	{ "tlb", PM_MEM_SORT_TLB },
	{ "level", PM_MEM_SORT_LEVEL },
	{ "mem", PM_MEM_SORT_LEVEL },
	{ "data", PM_MEM_SORT_DATA },
	{ "symbol_daddr", PM_MEM_SORT_DATA },
	PM_NAMES_END
};

int pm_mem_sort__parse(const char *s, enum pm_mem_sort *out)
{
	int v = pm_name__value(sort_names, s);

	if (v < 0)
		return -1;
	*out = (enum pm_mem_sort)v;
	return 0;
}

static int tlb_rank(const struct pm_mem_src *m)
{
	const char *t = pm_mem_src__tlb(m);

	return !strcmp(t, "hit") ? 0 : !strcmp(t, "miss") ? 1 : 2;
}

static int cmp_level(const struct pm_mem_row *a, const struct pm_mem_row *b)
{
	struct pm_strbuf x = PM_STRBUF_INIT, y = PM_STRBUF_INIT;
	int r;

	pm_mem_src__level_str(&a->src, &x);
	pm_mem_src__level_str(&b->src, &y);
	r = strcmp(pm_strbuf__str(&x), pm_strbuf__str(&y));
	pm_strbuf__release(&x);
	pm_strbuf__release(&y);
	return r;
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	enum pm_mem_sort key = *(const enum pm_mem_sort *)arg;
	const struct pm_mem_row *a = *(const struct pm_mem_row *const *)pa;
	const struct pm_mem_row *b = *(const struct pm_mem_row *const *)pb;
	int r = 0;

	switch (key) {
	case PM_MEM_SORT_SAMPLES:
		break;
	case PM_MEM_SORT_SYMBOL:
		r = pm_cmp_str_nulls_last(a->dso, b->dso);
		if (!r)
			r = pm_cmp_str_nulls_last(a->symbol, b->symbol);
		break;
	case PM_MEM_SORT_OP:
		r = strcmp(pm_mem_src__op(&a->src), pm_mem_src__op(&b->src));
		break;
	case PM_MEM_SORT_TLB:
		r = tlb_rank(&a->src) - tlb_rank(&b->src);
		break;
	case PM_MEM_SORT_LEVEL:
		r = cmp_level(a, b);
		break;
	case PM_MEM_SORT_DATA:
		r = (int)b->has_addr - (int)a->has_addr;
		if (!r)
			r = pm_cmp_str_nulls_last(a->data_dso, b->data_dso);
		if (!r)
			r = pm_cmp_str_nulls_last(a->data_symbol, b->data_symbol);
		break;
	}
	if (!r)
		r = -pm_cmp_u64(a->samples, b->samples);
	if (!r)
		r = pm_cmp_u64(a->seq, b->seq);
	return r;
}

const struct pm_mem_row **pm_mem_acc__rows(const struct pm_mem_acc *acc,
					   size_t *nr)
{
	const struct pm_mem_row **rows;

	*nr = 0;
	if (!acc->rows.nr)
		return NULL;
	rows = pm_calloc(acc->rows.nr, sizeof(*rows));
	for (size_t i = 0; i < acc->rows.nr; i++)
		rows[i] = acc->rows.values[i];
	qsort_r(rows, acc->rows.nr, sizeof(*rows), cmp_rows, (void *)&acc->opts.sort);
	*nr = acc->rows.nr;
	return rows;
}

static double share(const struct pm_mem_acc *acc, const struct pm_mem_row *r)
{
	return acc->samples ? 100.0 * (double)r->samples / (double)acc->samples
			    : 0.0;
}

/* JSON has the code location first and the raw data source; the table
 * ends with the code location, "[unknown]" where JSON has null. */
static const struct pm_table_column json_dso = {
	.name = "dso", .type = PM_COL_STRING, .show = PM_SHOW_JSON,
	.flags = PM_COLF_KEY,
}, json_symbol = {
	.name = "symbol", .type = PM_COL_STRING, .show = PM_SHOW_JSON,
	.flags = PM_COLF_KEY,
}, samples_col = {
	.name = "samples", .type = PM_COL_U64,
}, share_col = {
	.name = "share", .type = PM_COL_PERCENT, .digits = 2,
}, data_src_col = {
	.name = "data_src", .type = PM_COL_HEX, .digits = PM_TABLE_DIGITS_NONE,
	.show = PM_SHOW_JSON, .flags = PM_COLF_KEY,
}, table_dso = {
	.name = "dso", .type = PM_COL_STRING, .show = PM_SHOW_TABLE,
	.null_text = "[unknown]",
}, table_symbol = {
	.name = "symbol", .type = PM_COL_STRING, .show = PM_SHOW_TABLE,
	.null_text = "[unknown]",
}, data_dso = {
	.name = "data_dso", .type = PM_COL_STRING, .flags = PM_COLF_OPTIONAL,
	.null_text = "[unknown]",
}, data_symbol = {
	.name = "data_symbol", .type = PM_COL_STRING, .flags = PM_COLF_OPTIONAL,
	.null_text = "[unknown]",
};

struct cols {
	int dso, symbol, samples, share, data_src, field[PM_MEM_NR_FIELDS];
	int tdso, tsymbol, data_dso, data_symbol;
};

static void add_columns(struct pm_table *t, const struct pm_mem_acc *acc,
			struct cols *c)
{
	size_t i;

	c->dso = pm_table__add_column(t, &json_dso);
	c->symbol = pm_table__add_column(t, &json_symbol);
	c->samples = pm_table__add_column(t, &samples_col);
	c->share = pm_table__add_column(t, &share_col);
	c->data_src = pm_table__add_column(t, &data_src_col);
	for (i = 0; i < PM_MEM_NR_FIELDS; i++) {
		const struct pm_mem_field *f = &pm_mem_fields[i];
		struct pm_table_column col = {
			.name = f->name,
			.type = f->is_flag ? PM_COL_BOOL : PM_COL_STRING,
			.show = f->detail ? PM_SHOW_JSON : 0,
		};

		c->field[i] = pm_table__add_column(t, &col);
	}
	c->tdso = pm_table__add_column(t, &table_dso);
	c->tsymbol = pm_table__add_column(t, &table_symbol);
	c->data_dso = c->data_symbol = -1;
	if (acc->any_addr) {
		c->data_dso = pm_table__add_column(t, &data_dso);
		c->data_symbol = pm_table__add_column(t, &data_symbol);
	}
}

static void add_row(struct pm_table *t, const struct pm_mem_acc *acc,
		    const struct pm_mem_row *r, const struct cols *c,
		    struct pm_strbuf *sb)
{
	size_t n = pm_table__add_row(t), i;

	pm_table__set_str(t, n, (size_t)c->dso, r->dso);
	pm_table__set_str(t, n, (size_t)c->symbol, r->symbol);
	pm_table__set_u64(t, n, (size_t)c->samples, r->samples);
	pm_table__set_double(t, n, (size_t)c->share, share(acc, r));
	pm_table__set_u64(t, n, (size_t)c->data_src, r->data_src);
	for (i = 0; i < PM_MEM_NR_FIELDS; i++) {
		const struct pm_mem_field *f = &pm_mem_fields[i];

		pm_strbuf__reset(sb);
		if (f->is_flag)
			pm_table__set_bool(t, n, (size_t)c->field[i], f->flag(&r->src));
		else
			pm_table__set_str(t, n, (size_t)c->field[i], f->text(&r->src, sb));
	}
	pm_table__set_str(t, n, (size_t)c->tdso, r->dso);
	pm_table__set_str(t, n, (size_t)c->tsymbol, r->symbol);
	if (c->data_dso >= 0 && r->has_addr) {
		pm_table__set_str(t, n, (size_t)c->data_dso, r->data_dso);
		pm_table__set_str(t, n, (size_t)c->data_symbol, r->data_symbol);
	}
}

int pm_mem_acc__finish(struct pm_mem_acc *acc, struct pm_report **out)
{
	struct pm_report *rep = pm_report__new();
	struct pm_table *t = pm_table__new();
	struct pm_strbuf sb = PM_STRBUF_INIT;
	const struct pm_mem_row **rows;
	struct cols c;
	size_t nr, i;

	pm_summary__add_u64(pm_report__summary(rep), "samples", NULL, acc->samples);
	pm_summary__add_u64(pm_report__summary(rep), "skipped", NULL, acc->skipped);
	pm_summary__add_u64(pm_report__summary(rep), "na", NULL, acc->na);
	pm_report__add_note(rep, "%" PRIu64 " samples with a data source, %" PRIu64
			    " whose data source is N/A (no field known), %" PRIu64 " without",
			    acc->samples, acc->na, acc->skipped);
	add_columns(t, acc, &c);
	rows = pm_mem_acc__rows(acc, &nr);
	for (i = 0; i < nr; i++)
		add_row(t, acc, rows[i], &c, &sb);
	free(rows);
	pm_strbuf__release(&sb);
	pm_report__add_table(rep, t);
	*out = rep;
	return 0;
}
