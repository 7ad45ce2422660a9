// SPDX-License-Identifier: GPL-2.0
/*
 * The stack accumulator (pmprof/stacks.h). A stack is kept as its frames'
 * identities (symbol pointer, or the address where there is no symbol),
 * so that a sample costs a hash of a few words; names are made once per
 * distinct stack, at the end.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/hash.h"
#include "pmprof/stacks.h"
#include "pmprof/strbuf.h"
#include "pmprof/table.h"
#include "pmprof/util.h"

struct stk_frame {
	const struct pm_symbol *sym;
	uint64_t addr;		/* no symbol: the address the report shows */
};

struct stk {
	uint64_t hash;
	size_t first, nr;	/* frames[first ..], callee first */
	uint64_t samples, period;
	uint64_t *v;		/* per column */
	size_t nv;
};

struct stk_col {
	int id;
	char *name;
};

struct pm_stacks {
	struct stk *stacks;
	size_t nr, alloc;
	struct pm_hash index;
	struct stk_frame *frames;	/* every stack's, back to back */
	size_t nr_frames, alloc_frames;
	struct stk_frame *cur_frames;	/* the sample being added */
	size_t nr_cur, alloc_cur;
	struct stk_col *cols;
	size_t nr_cols, alloc_cols;
	size_t cur;			/* the current stack */
	bool has_cur;
};

struct pm_stacks *pm_stacks__new(void)
{
	return pm_zalloc(sizeof(struct pm_stacks));
}

void pm_stacks__delete(struct pm_stacks *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nr; i++)
		free(st->stacks[i].v);
	free(st->stacks);
	pm_hash__release(&st->index);
	free(st->frames);
	free(st->cur_frames);
	for (size_t i = 0; i < st->nr_cols; i++)
		free(st->cols[i].name);
	free(st->cols);
	free(st);
}

size_t pm_stacks__column(struct pm_stacks *st, int id, const char *name)
{
	for (size_t i = 0; i < st->nr_cols; i++)
		if (st->cols[i].id == id)
			return i;
	PM_GROW(st->cols, st->alloc_cols, st->nr_cols + 1);
	st->cols[st->nr_cols].id = id;
	st->cols[st->nr_cols].name = pm_strdup(name ? name : "?");
	return st->nr_cols++;
}

static void push_frame(struct pm_stacks *st, const struct pm_addr_loc *loc,
		       uint64_t unknown_addr)
{
	PM_GROW(st->cur_frames, st->alloc_cur, st->nr_cur + 1);
	st->cur_frames[st->nr_cur].sym = loc->sym;
	st->cur_frames[st->nr_cur].addr = loc->sym ? 0 : unknown_addr;
	st->nr_cur++;
}

static uint64_t frames_hash(const struct stk_frame *f, size_t n)
{
	uint64_t x = 0xcbf29ce484222325ULL ^ n;

	for (size_t i = 0; i < n; i++) {
		x ^= (uintptr_t)f[i].sym;
		x *= 0x9e3779b97f4a7c15ULL;
		x ^= f[i].addr;
		x *= 0x9e3779b97f4a7c15ULL;
		x ^= x >> 29;
	}
	return x;
}

static uint64_t stack_hash(const void *arg, size_t i)
{
	return ((const struct stk *)arg)[i].hash;
}

static bool same_frames(const struct pm_stacks *st, const struct stk *k,
			uint64_t hv)
{
	return k->hash == hv && k->nr == st->nr_cur &&
	       !memcmp(st->frames + k->first, st->cur_frames,
		       k->nr * sizeof(*st->cur_frames));
}

void pm_stacks__begin(struct pm_stacks *st, struct pm_session *s,
		      const struct pm_sample_ctx *ctx)
{
	const struct pm_addr_loc *chain;
	size_t n = pm_session__callchain(s, &chain), slot;
	uint64_t hv;
	struct stk *k;

	st->nr_cur = 0;
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
	hv = frames_hash(st->cur_frames, st->nr_cur);
	slot = PM_HASH_FIND(&st->index, hv, i, same_frames(st, &st->stacks[i], hv));
	if (!pm_hash__empty(&st->index, slot)) {
		st->cur = pm_hash__at(&st->index, slot);
		st->has_cur = true;
		return;
	}
	pm_hash__reserve(&st->index, st->nr, stack_hash, st->stacks);
	slot = PM_HASH_FIND(&st->index, hv, i, false);
	PM_GROW(st->frames, st->alloc_frames, st->nr_frames + st->nr_cur);
	memcpy(st->frames + st->nr_frames, st->cur_frames,
	       st->nr_cur * sizeof(*st->frames));
	PM_GROW(st->stacks, st->alloc, st->nr + 1);
	k = &st->stacks[st->nr];
	*k = (struct stk){ .hash = hv, .first = st->nr_frames, .nr = st->nr_cur };
	st->nr_frames += st->nr_cur;
	pm_hash__set(&st->index, slot, st->nr);
	st->cur = st->nr++;
	st->has_cur = true;
}

void pm_stacks__add(struct pm_stacks *st, size_t col, uint64_t period)
{
	struct stk *k;

	if (!st->has_cur)
		return;
	k = &st->stacks[st->cur];
	if (col >= k->nv) {
		k->v = pm_reallocarray(k->v, st->nr_cols, sizeof(*k->v));
		memset(k->v + k->nv, 0, (st->nr_cols - k->nv) * sizeof(*k->v));
		k->nv = st->nr_cols;
	}
	k->samples++;
	k->period += period;
	k->v[col] += period;
}

/* "main" or "f (inlined)", else the address, as the report's JSON. */
static void frame_name(struct pm_strbuf *sb, const struct stk_frame *f)
{
	if (f->sym)
		pm_strbuf__addf(sb, "%s%s", f->sym->name,
				f->sym->inlined ? " (inlined)" : "");
	else
		pm_strbuf__addf(sb, "%#.16" PRIx64, f->addr);
}

struct pm_table *pm_stacks__table(const struct pm_stacks *st)
{
	static const struct pm_table_column stack_col = {
		.name = "Stack", .key = "stack", .type = PM_COL_STRING,
		.flags = PM_COLF_KEY,
	};
	struct pm_table *t = pm_table__new();
	struct pm_strbuf sb = PM_STRBUF_INIT;

	pm_table__set_name(t, "stacks");
	pm_table__set_flags(t, PM_TABLE_WHOLE);
	pm_table__add_column(t, &stack_col);
	pm_table__add_col(t, "Samples", "samples", PM_COL_U64);
	pm_table__add_col(t, "Period", "period", PM_COL_U64);
	for (size_t c = 0; c < st->nr_cols; c++)
		pm_table__add_col(t, st->cols[c].name, st->cols[c].name, PM_COL_U64);
	for (size_t i = 0; i < st->nr; i++) {
		const struct stk *k = &st->stacks[i];
		size_t row;

		if (!k->samples)
			continue;
		pm_strbuf__reset(&sb);
		/* outermost first, as flame graphs read */
		for (size_t f = k->nr; f-- > 0;) {
			frame_name(&sb, &st->frames[k->first + f]);
			if (f)
				pm_strbuf__addc(&sb, ';');
		}
		row = pm_table__add_row(t);
		pm_table__set_str(t, row, 0, pm_strbuf__str(&sb));
		pm_table__set_u64(t, row, 1, k->samples);
		pm_table__set_u64(t, row, 2, k->period);
		for (size_t c = 0; c < st->nr_cols; c++)
			pm_table__set_u64(t, row, 3 + c, c < k->nv ? k->v[c] : 0);
	}
	pm_strbuf__release(&sb);
	pm_table__sort(t, 0, false);
	return t;
}
