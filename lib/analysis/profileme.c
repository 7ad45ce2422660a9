// SPDX-License-Identifier: GPL-2.0
/*
 * The DCPI-style ProfileMe accumulator: sums each sample's status into
 * its row (symbol or instruction), one row set per SL1 value, and turns
 * the rows into tables and the JSON document of `pmprof profileme`.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/json.h"
#include "pmprof/profileme.h"
#include "pmprof/strbuf.h"
#include "pmprof/keymap.h"
#include "pmprof/util.h"

struct pm_profileme_acc {
	char *arch;
	struct pm_profileme_opts opts;
	struct pm_keymap sets[4];	/* per SL1: struct pm_profileme_row * */
	uint64_t samples;
	uint64_t skipped[PM_PROFILEME__NR_STATUS];
	size_t seq;
};

static const struct pm_profileme_opts default_opts;

struct pm_profileme_acc *pm_profileme_acc__new(const char *arch,
					       const struct pm_profileme_opts *opts)
{
	struct pm_profileme_acc *acc = pm_zalloc(sizeof(*acc));

	acc->arch = arch ? pm_strdup(arch) : NULL;
	acc->opts = opts ? *opts : default_opts;
	return acc;
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

int pm_profileme_sort__parse(const char *s, enum pm_profileme_sort *out)
{
	static const struct {
		const char *name;
		enum pm_profileme_sort sort;
	} keys[] = {
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

/* a/sa against b/sb without rounding: cross-multiply in 128 bits. */
static int cmp_rate(uint64_t a, uint64_t sa, uint64_t b, uint64_t sb)
{
	unsigned __int128 l = (unsigned __int128)a * sb;
	unsigned __int128 r = (unsigned __int128)b * sa;

	return l < r ? -1 : l > r;
}

static int cmp_str_nulls_last(const char *a, const char *b)
{
	if (!a || !b)
		return (a == NULL) - (b == NULL);
	return strcmp(a, b);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
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
			r = cmp_u64(a->pc, b->pc);
		break;
	case PM_PROFILEME_SORT_SYMBOL:
		r = cmp_str_nulls_last(a->dso, b->dso);
		if (!r)
			r = cmp_str_nulls_last(a->symbol, b->symbol);
		break;
	}
	if (!r)
		r = -cmp_u64(a->samples, b->samples);
	if (!r)
		r = cmp_u64(a->seq, b->seq);	/* unique: a total order */
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

static size_t shown(const struct pm_profileme_acc *acc, size_t nr)
{
	return acc->opts.top && acc->opts.top < nr ? acc->opts.top : nr;
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

struct cols {
	int sl1, samples, killed, invalid, mispr, taken, stall, pctr1;
	int pc, dso, symbol, srcline, traps;
};

static bool any_srcline(const struct pm_profileme_acc *acc, int sl1)
{
	unsigned s;
	size_t i;

	if (acc->opts.view != PM_PROFILEME_BY_PC)
		return false;
	for (s = 0; s < 4; s++) {
		if (sl1 >= 0 && (unsigned)sl1 != s)
			continue;
		for (i = 0; i < acc->sets[s].nr; i++) {
			if (((const struct pm_profileme_row *)acc->sets[s].values[i])->srcline)
				return true;
		}
	}
	return false;
}

static int add_pct(struct pm_table *t, const char *name, const char *key)
{
	struct pm_table_column c = { .name = name, .key = key,
				     .type = PM_COL_PERCENT, .digits = 1 };

	return pm_table__add_column(t, &c);
}

static void add_columns(struct pm_table *t, const struct pm_profileme_acc *acc,
			int sl1, struct cols *c)
{
	struct pm_table_column mean = { .name = "pctr1", .key = "pctr1_mean",
					.type = PM_COL_DOUBLE, .digits = 1 };

	c->sl1 = c->pc = c->srcline = -1;
	if (sl1 < 0)
		c->sl1 = pm_table__add_col(t, "sl1", NULL, PM_COL_U64);
	c->samples = pm_table__add_col(t, "samples", NULL, PM_COL_U64);
	c->killed = add_pct(t, "killed%", "killed_pct");
	c->invalid = add_pct(t, "invalid%", "invalid_pct");
	c->mispr = add_pct(t, "mispr%", "mispredicted_pct");
	c->taken = add_pct(t, "taken%", "taken_pct");
	c->stall = add_pct(t, "stall%", "stalled_pct");
	c->pctr1 = pm_table__add_column(t, &mean);
	if (acc->opts.view == PM_PROFILEME_BY_PC)
		c->pc = pm_table__add_col(t, "pc", NULL, PM_COL_STRING);
	c->dso = pm_table__add_col(t, "dso", NULL, PM_COL_STRING);
	c->symbol = pm_table__add_col(t, "symbol", NULL, PM_COL_STRING);
	if (any_srcline(acc, sl1))
		c->srcline = pm_table__add_col(t, "srcline", NULL, PM_COL_STRING);
	c->traps = pm_table__add_col(t, "traps", NULL, PM_COL_STRING);
}

static void add_rows(struct pm_table *t, const struct pm_profileme_acc *acc,
		     unsigned sl1, const struct cols *c)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	const struct pm_profileme_row **rows;
	size_t nr, i, n;

	rows = pm_profileme_acc__rows(acc, sl1, &nr);
	for (i = 0; i < shown(acc, nr); i++) {
		const struct pm_profileme_row *r = rows[i];

		n = pm_table__add_row(t);
		if (c->sl1 >= 0)
			pm_table__set_u64(t, n, (size_t)c->sl1, sl1);
		pm_table__set_u64(t, n, (size_t)c->samples, r->samples);
		pm_table__set_double(t, n, (size_t)c->killed, pct(r->killed, r->samples));
		pm_table__set_double(t, n, (size_t)c->invalid, pct(r->invalid, r->samples));
		pm_table__set_double(t, n, (size_t)c->mispr,
				     pct(r->mispredicted, r->samples));
		pm_table__set_double(t, n, (size_t)c->taken, pct(r->taken, r->samples));
		pm_table__set_double(t, n, (size_t)c->stall, pct(r->stalled, r->samples));
		pm_table__set_double(t, n, (size_t)c->pctr1,
				     (double)r->pctr1_sum / (double)r->samples);
		if (c->pc >= 0) {
			pm_strbuf__reset(&sb);
			pc_text(r, &sb);
			pm_table__set_str(t, n, (size_t)c->pc, pm_strbuf__str(&sb));
		}
		pm_table__set_str(t, n, (size_t)c->dso, r->dso ? r->dso : "[unknown]");
		pm_table__set_str(t, n, (size_t)c->symbol,
				  r->symbol ? r->symbol : "[unknown]");
		if (c->srcline >= 0)
			pm_table__set_str(t, n, (size_t)c->srcline, r->srcline);
		pm_strbuf__reset(&sb);
		pm_profileme_row__traps(r, &sb);
		pm_table__set_str(t, n, (size_t)c->traps, pm_strbuf__str(&sb));
	}
	free(rows);
	pm_strbuf__release(&sb);
}

struct pm_table *pm_profileme_acc__table(const struct pm_profileme_acc *acc,
					 int sl1)
{
	struct pm_table *t;
	struct cols c;
	unsigned s;

	if (sl1 > 3 || (sl1 >= 0 && !acc->sets[sl1].nr))
		return NULL;
	t = pm_table__new();
	add_columns(t, acc, sl1, &c);
	for (s = 0; s < 4; s++) {
		if (sl1 < 0 || (unsigned)sl1 == s)
			add_rows(t, acc, s, &c);
	}
	return t;
}

static void write_row_json(const struct pm_profileme_acc *acc,
			   const struct pm_profileme_row *r, struct pm_json *j)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	size_t k;

	pm_json__begin_object(j);
	pm_json__kv_string(j, "dso", r->dso);
	pm_json__kv_string(j, "symbol", r->symbol);
	if (acc->opts.view == PM_PROFILEME_BY_PC) {
		pc_text(r, &sb);
		pm_json__kv_string(j, "pc", pm_strbuf__str(&sb));
		pm_json__kv_string(j, "srcline", r->srcline);
	}
	pm_json__kv_u64(j, "samples", r->samples);
	pm_json__kv_u64(j, "killed", r->killed);
	pm_json__kv_u64(j, "invalid", r->invalid);
	pm_json__kv_u64(j, "mispredicted", r->mispredicted);
	pm_json__kv_u64(j, "taken", r->taken);
	pm_json__kv_u64(j, "stalled", r->stalled);
	pm_json__kv_u64(j, "pctr1_sum", r->pctr1_sum);
	pm_json__kv_double(j, "pctr1_mean", (double)r->pctr1_sum / (double)r->samples);
	pm_json__key(j, "traps");
	pm_json__begin_object(j);
	for (k = 0; k < PM_TRAP__NR; k++) {
		if (r->traps[k])
			pm_json__kv_u64(j, pm_profileme_trap__name(
						(enum pm_profileme_trap)k),
					r->traps[k]);
	}
	pm_json__end_object(j);
	pm_json__end_object(j);
	pm_strbuf__release(&sb);
}

void pm_profileme_acc__write_json(const struct pm_profileme_acc *acc,
				  struct pm_json *j)
{
	const struct pm_profileme_row **rows;
	size_t nr, i;
	unsigned s;

	pm_json__begin_object(j);
	pm_json__kv_u64(j, "samples", acc->samples);
	pm_json__kv_u64(j, "skipped", pm_profileme_acc__skipped(acc));
	pm_json__kv_string(j, "view", acc->opts.view == PM_PROFILEME_BY_PC ?
			   "pc" : "symbol");
	pm_json__key(j, "tables");
	pm_json__begin_array(j);
	for (s = 0; s < 4; s++) {
		rows = pm_profileme_acc__rows(acc, s, &nr);
		if (!rows)
			continue;
		pm_json__begin_object(j);
		pm_json__kv_u64(j, "sl1", s);
		pm_json__kv_string(j, "pctr1", pm_profileme_pctr1__name(s));
		pm_json__key(j, "rows");
		pm_json__begin_array(j);
		for (i = 0; i < shown(acc, nr); i++)
			write_row_json(acc, rows[i], j);
		pm_json__end_array(j);
		pm_json__end_object(j);
		free(rows);
	}
	pm_json__end_array(j);
	pm_json__end_object(j);
}

int pm_profileme_acc__render(const struct pm_profileme_acc *acc, FILE *out,
			     enum pm_table_format format)
{
	struct pm_table *t;
	struct pm_json j;
	unsigned s;
	int err = 0;

	switch (format) {
	case PM_TABLE_TEXT:
		fprintf(out, "%" PRIu64 " ProfileMe samples, %" PRIu64
			" without ProfileMe data\n", acc->samples,
			pm_profileme_acc__skipped(acc));
		for (s = 0; s < 4 && !err; s++) {
			t = pm_profileme_acc__table(acc, (int)s);
			if (!t)
				continue;
			fprintf(out, "\npctr1 counts %s:\n",
				pm_profileme_pctr1__name(s));
			err = pm_table__render(t, out, format, NULL);
			pm_table__delete(t);
		}
		break;
	case PM_TABLE_JSON:
		pm_json__init(&j, out);
		pm_profileme_acc__write_json(acc, &j);
		putc('\n', out);
		break;
	case PM_TABLE_CSV:
	case PM_TABLE_TSV:
	case PM_TABLE_HTML:
		t = pm_profileme_acc__table(acc, -1);
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
