// SPDX-License-Identifier: GPL-2.0
/*
 * The chain memo: a sample unwound on cached rules (rules.c) gives the
 * frames of every later sample that would make the unwinder read the
 * same values. Hot code is sampled again and again with the same stack
 * under it; its registers differ (loop counters, data), but the unwind
 * depends only on a few of them (the pc, the sp, a frame pointer) and on
 * the stack words it takes return addresses and CFA registers from.
 *
 * While a sample is unwound on cached rules, every input read (a sampled
 * register, a stack word) goes on a tape with its value, and each one
 * whose value the unwind went on to depend on is marked used: a pc (its
 * rule, its frame), a CFA register, a frame pointer tested. Values only
 * moved from register to register, or restored and never used, are not.
 * The unwinder being a function of the values it uses (the rules come
 * from the pc, memory is the stack bytes or the files), a sample whose
 * used inputs hold the same values, in the same maps, with the same sp,
 * pc, register set and stack size, takes every step the first one took
 * and gets its frames; by induction, each read lands where it did,
 * since its address came from values already equal.
 *
 * Moving frames back from libdwfl's places uses the bias of the
 * sample's latest value in an executable mapping of each file
 * (modules.c), which might be one the unwind did not depend on; so a
 * chain is kept only when the caller says the executable mappings of
 * each file it moved frames through have one bias in the process
 * (pm_unwind_input.one_bias).
 */
#include <stdlib.h>
#include <string.h>

#include "pmprof/util.h"
#include "unwind/internal.h"

/* Entries kept per key, and memory kept in all: beyond, none is added. */
#define MEMO_PER_KEY 16
#define MEMO_MAX_BYTES (64u << 20)

/* What must be equal before the used inputs are compared. */
struct uw_memo_key {
	uint64_t maps_version;
	uint64_t pc, sp;
	uint64_t regs_abi, regs_mask;
	uint64_t stack_size;
	uint64_t max;
	uint16_t machine;
	uint8_t big_endian;
	uint8_t pad[5];		/* zeroed: the key is compared as bytes */
};

struct uw_memo_entry {
	struct uw_memo_entry *next;
	size_t nr_used;
	struct uw_input *used;	/* the inputs the unwind depended on */
	size_t nr;
	struct pm_unwind_frame *frames;
	bool limit, failed;
	struct pm_error *err;	/* when failed */
};

static bool make_key(const struct pm_unwinder *u, struct uw_memo_key *k)
{
	const struct pm_unwind_input *in = u->cur.in;
	uint64_t pc, sp;

	if (u->no_memo || !in->maps_version || !in->one_bias ||
	    !pm_uw_pc_sp(in, &pc, &sp))
		return false;
	memset(k, 0, sizeof(*k));
	k->maps_version = in->maps_version;
	k->pc = pc;
	k->sp = sp;
	k->regs_abi = in->regs->abi;
	k->regs_mask = in->regs->mask;
	k->stack_size = in->stack_size;
	k->max = u->cur.max;
	k->machine = in->machine;
	k->big_endian = in->big_endian;
	return true;
}

int pm_uw_tape_add(struct pm_unwinder *u, bool stack, uint32_t at,
		   uint64_t value)
{
	struct uw_tape *t = &u->tape;
	struct uw_input *e;

	if (!t->on)
		return -1;
	if (t->nr == UW_TAPE_MAX) {
		t->full = true;
		return -1;
	}
	e = &t->v[t->nr];
	e->stack = stack;
	e->used = false;
	e->at = at;
	e->value = value;
	return (int)t->nr++;
}

/* The value of an input in the sample being unwound. */
static bool input_value(const struct uw_current *c, const struct uw_input *e,
			uint64_t *v)
{
	if (e->stack)
		return pm_uw_stack_word(c->in, c->sp, c->sp + e->at, v);
	return pm_uw_reg(c->in->regs, e->at, v);
}

static bool same_inputs(const struct uw_current *c,
			const struct uw_memo_entry *e)
{
	uint64_t v;

	for (size_t i = 0; i < e->nr_used; i++)
		if (!input_value(c, &e->used[i], &v) || v != e->used[i].value)
			return false;
	return true;
}

bool pm_uw_memo_find(struct pm_unwinder *u)
{
	struct uw_current *c = &u->cur;
	struct uw_memo_key k;
	struct uw_memo_entry *e;
	void **slot;
	bool is_new;

	if (!make_key(u, &k) || !u->memo.nr)
		return false;
	slot = pm_keymap__findnew(&u->memo, &k, sizeof(k), &is_new);
	for (e = *slot; e; e = e->next)
		if (same_inputs(c, e))
			break;
	if (!e)
		return false;
	memcpy(c->frames, e->frames, e->nr * sizeof(*e->frames));
	c->nr = e->nr;
	c->limit = e->limit;
	c->failed = e->failed;
	if (e->err)
		c->err = *e->err;
	return true;
}

void pm_uw_memo_record(struct pm_unwinder *u)
{
	struct uw_memo_key k;

	u->tape.nr = 0;
	u->tape.full = false;
	u->tape.on = u->memo_bytes < MEMO_MAX_BYTES && make_key(u, &k);
}

/* Frames are moved back with the bias of the file's latest value in an
 * executable mapping (modules.c): the same answer whatever else the
 * sample holds when the file's executable mappings have one bias. */
static bool one_bias(struct uw_current *c)
{
	if (c->framed_odd)
		return false;
	for (size_t i = 0; i < c->nr_framed; i++) {
		struct uw_module *m = (struct uw_module *)c->framed[i];

		if (m->bias_version != c->in->maps_version) {
			m->one_bias = c->in->one_bias(c->arg, m->ref);
			m->bias_version = c->in->maps_version;
		}
		if (!m->one_bias)
			return false;
	}
	return true;
}

void pm_uw_memo_add(struct pm_unwinder *u)
{
	struct uw_current *c = &u->cur;
	struct uw_tape *t = &u->tape;
	struct uw_memo_entry *e, **slot;
	struct uw_memo_key k;
	size_t n = 0, used = 0;
	bool is_new;

	if (!t->on || t->full || !make_key(u, &k) || !one_bias(c)) {
		t->on = false;
		return;
	}
	t->on = false;
	slot = (struct uw_memo_entry **)pm_keymap__findnew(&u->memo, &k,
							   sizeof(k), &is_new);
	for (e = *slot; e; e = e->next)
		n++;
	if (n >= MEMO_PER_KEY)
		return;
	for (size_t i = 0; i < t->nr; i++)
		used += t->v[i].used;
	e = pm_zalloc(sizeof(*e));
	e->used = pm_calloc(used ? used : 1, sizeof(*e->used));
	for (size_t i = 0; i < t->nr; i++)
		if (t->v[i].used)
			e->used[e->nr_used++] = t->v[i];
	e->frames = pm_calloc(c->nr ? c->nr : 1, sizeof(*e->frames));
	memcpy(e->frames, c->frames, c->nr * sizeof(*e->frames));
	e->nr = c->nr;
	e->limit = c->limit;
	e->failed = c->failed;
	if (c->failed) {
		e->err = pm_malloc(sizeof(*e->err));
		*e->err = c->err;
	}
	e->next = *slot;
	*slot = e;
	u->memo_bytes += sizeof(*e) + used * sizeof(*e->used) +
			 c->nr * sizeof(*e->frames) + sizeof(k);
}

void pm_uw_memo_free(struct pm_unwinder *u)
{
	for (size_t i = 0; i < u->memo.nr; i++) {
		struct uw_memo_entry *e = u->memo.values[i], *next;

		for (; e; e = next) {
			next = e->next;
			free(e->used);
			free(e->frames);
			free(e->err);
			free(e);
		}
	}
	pm_keymap__release(&u->memo);
	u->memo_bytes = 0;
}
