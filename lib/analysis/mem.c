// SPDX-License-Identifier: GPL-2.0
/*
 * The memory view's accumulator: samples carrying PERF_SAMPLE_DATA_SRC
 * counted per code symbol, data source and data object, on any
 * architecture (Alpha's DTB hits and misses from ProfileMe, x86 and Arm
 * data sources alike), turned into a table or the JSON of `pmprof mem`.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/json.h"
#include "pmprof/mem.h"
#include "pmprof/keymap.h"
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

	acc->opts = opts ? *opts : default_opts;
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

uint64_t pm_mem_acc__samples(const struct pm_mem_acc *acc)
{
	return acc->samples;
}

uint64_t pm_mem_acc__skipped(const struct pm_mem_acc *acc)
{
	return acc->skipped;
}

uint64_t pm_mem_acc__na(const struct pm_mem_acc *acc)
{
	return acc->na;
}

bool pm_mem_src__is_na(const struct pm_mem_src *m)
{
	return (m->op | PM_MEM_OP_NA) == PM_MEM_OP_NA &&
	       (m->lvl | PM_MEM_LVL_NA) == PM_MEM_LVL_NA &&
	       (!m->lvl_num || m->lvl_num == PM_MEM_LVLNUM_NA) &&
	       (m->snoop | PM_MEM_SNOOP_NA) == PM_MEM_SNOOP_NA && !m->snoopx &&
	       (m->lock | PM_MEM_LOCK_NA) == PM_MEM_LOCK_NA &&
	       (m->dtlb | PM_MEM_TLB_NA) == PM_MEM_TLB_NA &&
	       (m->blk | PM_MEM_BLK_NA) == PM_MEM_BLK_NA && !m->hops && !m->remote;
}

int pm_mem_sort__parse(const char *s, enum pm_mem_sort *out)
{
	static const struct {
		const char *name;
		enum pm_mem_sort sort;
	} keys[] = {
		{ "samples", PM_MEM_SORT_SAMPLES },
		{ "symbol", PM_MEM_SORT_SYMBOL },
		{ "sym", PM_MEM_SORT_SYMBOL },
		{ "op", PM_MEM_SORT_OP },
		{ "tlb", PM_MEM_SORT_TLB },
		{ "level", PM_MEM_SORT_LEVEL },
		{ "mem", PM_MEM_SORT_LEVEL },
		{ "data", PM_MEM_SORT_DATA },
		{ "symbol_daddr", PM_MEM_SORT_DATA },
	};
	size_t i;

	for (i = 0; s && i < PM_ARRAY_SIZE(keys); i++) {
		if (!strcmp(s, keys[i].name)) {
			*out = keys[i].sort;
			return 0;
		}
	}
	return -1;
}

static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return (a == NULL) - (b == NULL);	/* unknown last */
	return strcmp(a, b);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
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
		r = cmp_str(a->dso, b->dso);
		if (!r)
			r = cmp_str(a->symbol, b->symbol);
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
			r = cmp_str(a->data_dso, b->data_dso);
		if (!r)
			r = cmp_str(a->data_symbol, b->data_symbol);
		break;
	}
	if (!r)
		r = -cmp_u64(a->samples, b->samples);
	if (!r)
		r = cmp_u64(a->seq, b->seq);
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

static size_t shown(const struct pm_mem_acc *acc, size_t nr)
{
	return acc->opts.top && acc->opts.top < nr ? acc->opts.top : nr;
}

static double share(const struct pm_mem_acc *acc, const struct pm_mem_row *r)
{
	return acc->samples ? 100.0 * (double)r->samples / (double)acc->samples
			    : 0.0;
}

enum { C_SAMPLES, C_SHARE, C_OP, C_TLB, C_DTLB, C_LEVEL, C_SNOOP, C_LOCK,
       C_BLK, C_DSO, C_SYMBOL, C_DATA_DSO, C_DATA_SYMBOL };

struct pm_table *pm_mem_acc__table(const struct pm_mem_acc *acc)
{
	struct pm_table_column pct = { .name = "share", .key = "share",
				       .type = PM_COL_PERCENT, .digits = 2 };
	struct pm_strbuf sb = PM_STRBUF_INIT;
	const struct pm_mem_row **rows;
	struct pm_table *t = pm_table__new();
	size_t nr, i, n;

	pm_table__add_col(t, "samples", NULL, PM_COL_U64);
	pm_table__add_column(t, &pct);
	pm_table__add_col(t, "op", NULL, PM_COL_STRING);
	pm_table__add_col(t, "tlb", NULL, PM_COL_STRING);
	pm_table__add_col(t, "dtlb", NULL, PM_COL_STRING);
	pm_table__add_col(t, "level", NULL, PM_COL_STRING);
	pm_table__add_col(t, "snoop", NULL, PM_COL_STRING);
	pm_table__add_col(t, "lock", NULL, PM_COL_STRING);
	pm_table__add_col(t, "blk", NULL, PM_COL_STRING);
	pm_table__add_col(t, "dso", NULL, PM_COL_STRING);
	pm_table__add_col(t, "symbol", NULL, PM_COL_STRING);
	if (acc->any_addr) {
		pm_table__add_col(t, "data_dso", NULL, PM_COL_STRING);
		pm_table__add_col(t, "data_symbol", NULL, PM_COL_STRING);
	}
	rows = pm_mem_acc__rows(acc, &nr);
	for (i = 0; i < shown(acc, nr); i++) {
		const struct pm_mem_row *r = rows[i];

		n = pm_table__add_row(t);
		pm_table__set_u64(t, n, C_SAMPLES, r->samples);
		pm_table__set_double(t, n, C_SHARE, share(acc, r));
		pm_table__set_str(t, n, C_OP, pm_mem_src__op(&r->src));
		pm_table__set_str(t, n, C_TLB, pm_mem_src__tlb(&r->src));
		pm_strbuf__reset(&sb);
		pm_mem_src__tlb_str(&r->src, &sb);
		pm_table__set_str(t, n, C_DTLB, pm_strbuf__str(&sb));
		pm_strbuf__reset(&sb);
		pm_mem_src__level_str(&r->src, &sb);
		pm_table__set_str(t, n, C_LEVEL, pm_strbuf__str(&sb));
		pm_strbuf__reset(&sb);
		pm_mem_src__snoop_str(&r->src, &sb);
		pm_table__set_str(t, n, C_SNOOP, pm_strbuf__str(&sb));
		pm_table__set_str(t, n, C_LOCK, pm_mem_src__lock(&r->src));
		pm_strbuf__reset(&sb);
		pm_mem_src__blk_str(&r->src, &sb);
		pm_table__set_str(t, n, C_BLK, pm_strbuf__str(&sb));
		pm_table__set_str(t, n, C_DSO, r->dso ? r->dso : "[unknown]");
		pm_table__set_str(t, n, C_SYMBOL, r->symbol ? r->symbol : "[unknown]");
		if (acc->any_addr && r->has_addr) {
			pm_table__set_str(t, n, C_DATA_DSO,
					  r->data_dso ? r->data_dso : "[unknown]");
			pm_table__set_str(t, n, C_DATA_SYMBOL,
					  r->data_symbol ? r->data_symbol : "[unknown]");
		}
	}
	free(rows);
	pm_strbuf__release(&sb);
	return t;
}

void pm_mem_acc__write_json(const struct pm_mem_acc *acc, struct pm_json *j)
{
	const struct pm_mem_row **rows;
	size_t nr, i;

	pm_json__begin_object(j);
	pm_json__kv_u64(j, "samples", acc->samples);
	pm_json__kv_u64(j, "skipped", acc->skipped);
	pm_json__kv_u64(j, "na", acc->na);
	pm_json__key(j, "rows");
	pm_json__begin_array(j);
	rows = pm_mem_acc__rows(acc, &nr);
	for (i = 0; i < shown(acc, nr); i++) {
		const struct pm_mem_row *r = rows[i];

		pm_json__begin_object(j);
		pm_json__kv_string(j, "dso", r->dso);
		pm_json__kv_string(j, "symbol", r->symbol);
		pm_json__kv_u64(j, "samples", r->samples);
		pm_json__kv_double(j, "share", share(acc, r));
		pm_json__kv_hex(j, "data_src", r->data_src);
		pm_mem_src__json_fields(&r->src, j);
		if (r->has_addr) {
			pm_json__kv_string(j, "data_dso", r->data_dso);
			pm_json__kv_string(j, "data_symbol", r->data_symbol);
		}
		pm_json__end_object(j);
	}
	free(rows);
	pm_json__end_array(j);
	pm_json__end_object(j);
}

int pm_mem_acc__render(const struct pm_mem_acc *acc, FILE *out,
		       enum pm_table_format format)
{
	struct pm_table *t;
	struct pm_json j;
	int err = 0;

	switch (format) {
	case PM_TABLE_JSON:
		pm_json__init(&j, out);
		pm_mem_acc__write_json(acc, &j);
		putc('\n', out);
		break;
	case PM_TABLE_TEXT:
		fprintf(out, "%" PRIu64 " samples with a data source, %" PRIu64
			" whose data source is N/A (no field known), %" PRIu64 " without\n\n",
			acc->samples, acc->na, acc->skipped);
		/* fall through */
	case PM_TABLE_CSV:
	case PM_TABLE_TSV:
	case PM_TABLE_HTML:
		t = pm_mem_acc__table(acc);
		err = pm_table__render(t, out, format, NULL);
		pm_table__delete(t);
		break;
	default:
		return -EINVAL;
	}
	if (!err && ferror(out))
		err = -EIO;
	return err;
}
