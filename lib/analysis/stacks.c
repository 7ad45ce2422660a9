// SPDX-License-Identifier: GPL-2.0
/*
 * The stack accumulator (pmprof/stacks.h). A stack is kept as its frames'
 * identities (symbol pointer, or the address where there is no symbol:
 * two words a frame), so that a sample costs a hash of a few words; names
 * are made once per distinct stack, at the end.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/stacks.h"
#include "pmprof/strbuf.h"
#include "pmprof/table.h"
#include "pmprof/util.h"
#include "chain-memo-int.h"
#include "weights-int.h"

struct pm_stacks {
	struct wtab w;
	uint64_t *cur_words;		/* the sample being added */
	size_t nr_cur, alloc_cur;
	size_t cur;			/* its key */
	bool has_cur;
	struct chain_memo memo;		/* raw chain -> its key */
};

struct pm_stacks *pm_stacks__new(void)
{
	return pm_zalloc(sizeof(struct pm_stacks));
}

void pm_stacks__delete(struct pm_stacks *st)
{
	if (!st)
		return;
	wtab__release(&st->w);
	chain_memo__release(&st->memo);
	free(st->cur_words);
	free(st);
}

size_t pm_stacks__column(struct pm_stacks *st, int id, const char *name)
{
	return wtab__column(&st->w, id, name);
}

/* Room reserved by the caller (begin). */
static void push_frame(struct pm_stacks *st, const struct pm_addr_loc *loc,
		       uint64_t unknown_addr)
{
	st->cur_words[st->nr_cur++] = (uintptr_t)loc->sym;
	st->cur_words[st->nr_cur++] = loc->sym ? 0 : unknown_addr;
}

void pm_stacks__begin(struct pm_stacks *st, struct pm_session *s,
		      const struct pm_sample_ctx *ctx)
{
	const struct pm_addr_loc *chain;
	size_t n;
	const uint64_t *memo = chain_memo__get(&st->memo, s, ctx, &n);
	uint64_t key;

	st->has_cur = true;
	if (memo) {
		st->cur = memo[0];
		return;
	}
	n = pm_session__callchain(s, &chain);
	st->nr_cur = 0;
	PM_GROW(st->cur_words, st->alloc_cur, 2 * n + 2);
	for (size_t i = 0; i < n; i++) {
		/* The sampled address is the report's self row: its file
		 * offset where unresolved; callers by their address. */
		if (i == 0 && chain[0].ip == ctx->ip.ip)
			push_frame(st, &ctx->ip, ctx->ip.rel);
		else
			push_frame(st, &chain[i], chain[i].ip);
	}
	if (!n)
		push_frame(st, &ctx->ip, ctx->ip.rel);
	st->cur = wtab__find(&st->w, st->cur_words, st->nr_cur);
	key = st->cur;
	chain_memo__put(&st->memo, &key, 1);
}

void pm_stacks__add(struct pm_stacks *st, size_t col, uint64_t period)
{
	if (st->has_cur)
		wtab__add(&st->w, st->cur, col, period);
}

void pm_stacks__add_value(struct pm_stacks *st, size_t col, uint64_t v)
{
	if (st->has_cur)
		wtab__add_value(&st->w, st->cur, col, v);
}

/* "main" or "f (inlined)", else the address, as the report's JSON. */
static void frame_name(struct pm_strbuf *sb, const uint64_t *frame)
{
	const struct pm_symbol *sym = (const struct pm_symbol *)(uintptr_t)frame[0];

	if (sym)
		pm_strbuf__addf(sb, "%s%s", sym->name, sym->inlined ? " (inlined)" : "");
	else
		pm_strbuf__addf(sb, "%#.16" PRIx64, frame[1]);
}

/* A key's stack as the table names it. */
struct named {
	char *stack;
	size_t k;
};

static int named_cmp(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->stack, ((const struct named *)b)->stack);
}

struct pm_table *pm_stacks__table(const struct pm_stacks *st)
{
	static const struct pm_table_column stack_col = {
		.name = "Stack", .key = "stack", .type = PM_COL_STRING,
		.flags = PM_COLF_KEY,
	};
	const struct wtab *w = &st->w;
	struct pm_table *t = pm_table__new();
	struct pm_strbuf sb = PM_STRBUF_INIT;
	struct named *nm = pm_calloc(w->nr + 1, sizeof(*nm));
	uint64_t *sum = pm_calloc(w->nr_cols + 2, sizeof(*sum));
	size_t n = 0;

	pm_table__set_name(t, "stacks");
	pm_table__set_flags(t, PM_TABLE_WHOLE);
	pm_table__add_column(t, &stack_col);
	wtab__add_columns(w, t);
	for (size_t k = 0; k < w->nr; k++) {
		const uint64_t *words = wtab__words(w, k);
		size_t frames = w->keys[k].nr / 2;

		if (!w->keys[k].samples)
			continue;
		/* outermost first, as flame graphs read */
		for (size_t f = frames; f-- > 0;) {
			frame_name(&sb, words + 2 * f);
			if (f)
				pm_strbuf__addc(&sb, ';');
		}
		nm[n++] = (struct named){ pm_strbuf__detach(&sb), k };
	}
	/* in byte order; keys of one name (a fleet's sessions each have
	 * their own symbols) are one row */
	qsort(nm, n, sizeof(*nm), named_cmp);
	for (size_t i = 0, j; i < n; i = j) {
		size_t row = pm_table__add_row(t);

		memset(sum, 0, (w->nr_cols + 2) * sizeof(*sum));
		for (j = i; j < n && !strcmp(nm[j].stack, nm[i].stack); j++) {
			sum[0] += w->keys[nm[j].k].samples;
			sum[1] += w->keys[nm[j].k].period;
			for (size_t c = 0; c < w->nr_cols; c++)
				sum[2 + c] += wtab__value(w, nm[j].k, c);
		}
		pm_table__set_str(t, row, 0, nm[i].stack);
		for (size_t c = 0; c < w->nr_cols + 2; c++)
			pm_table__set_u64(t, row, 1 + c, sum[c]);
	}
	for (size_t i = 0; i < n; i++)
		free(nm[i].stack);
	free(nm);
	free(sum);
	pm_strbuf__release(&sb);
	return t;
}
