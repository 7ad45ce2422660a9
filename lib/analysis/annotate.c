// SPDX-License-Identifier: GPL-2.0
/*
 * The annotate accumulator: every sample lands on its function's
 * instruction (the sample's IP, or the ProfileMe PC), with its period,
 * the window its counter reads close (through the metrics accumulator,
 * which keeps the streams and the discard rule) and its ProfileMe status.
 * Functions and their addresses are kept in sorted arrays: a sample costs
 * two binary searches, a new address one insertion.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "annotate-int.h"
#include "pmprof/records.h"
#include "pmprof/table.h"
#include "pmprof/util.h"

static const struct pm_annotate_opts default_opts;

static void on_window(void *arg, const struct pm_metrics_window *w);

struct pm_annotate *pm_annotate__new(const struct pm_annotate_opts *opts)
{
	struct pm_annotate *a = pm_zalloc(sizeof(*a));
	struct pm_metrics_opts mo = { 0 };

	a->opts = opts ? *opts : default_opts;
	if (a->opts.symbol)
		a->symbol = pm_strdup(a->opts.symbol);
	a->opts.symbol = a->symbol;
	if (a->opts.dso)
		a->dso = pm_strdup(a->opts.dso);
	a->opts.dso = a->dso;
	mo.mode = a->opts.mode;
	mo.window = on_window;
	mo.window_arg = a;
	a->metrics = pm_metrics__new(&mo);
	pm_strbuf__init(&a->scratch);
	return a;
}

static void free_func(struct an_func *f)
{
	size_t i;

	for (i = 0; i < f->nr; i++) {
		free(f->insns[i].sums);
		free(f->insns[i].pm);
	}
	free(f->insns);
	free(f);
}

void pm_annotate__delete(struct pm_annotate *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->nr_funcs; i++)
		free_func(a->funcs[i]);
	free(a->funcs);
	free(a->counter_ev);
	for (i = 0; i < a->nr_out; i++)
		pm_table__delete(a->out[i].table);
	free(a->out);
	for (i = 0; i < a->nr_notes; i++)
		free(a->notes[i]);
	free(a->notes);
	pm_metrics__delete(a->metrics);
	pm_strbuf__release(&a->scratch);
	free(a->symbol);
	free(a->dso);
	free(a);
}

void an_note(struct pm_annotate *a, const char *fmt, ...)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	pm_strbuf__vaddf(&sb, fmt, ap);
	va_end(ap);
	a->notes = pm_reallocarray(a->notes, a->nr_notes + 1, sizeof(*a->notes));
	a->notes[a->nr_notes++] = pm_strbuf__detach(&sb);
}

/* ---- functions and instructions ---------------------------------------- */

static int cmp_ptr(const void *a, const void *b)
{
	return a < b ? -1 : a > b;
}

static int cmp_key(const struct an_func *f, const struct pm_event *ev,
		   const struct pm_dso *dso, const struct pm_symbol *sym, int sl1)
{
	int c;

	if (f->ev != ev)
		return ev ? (f->ev ? (f->ev->idx < ev->idx ? -1 : 1) : -1) : 1;
	if ((c = cmp_ptr(f->dso, dso)) || (c = cmp_ptr(f->sym, sym)))
		return c;
	return f->sl1 < sl1 ? -1 : f->sl1 > sl1;
}

static struct an_func *find_func(struct pm_annotate *a, const struct pm_event *ev,
				 struct pm_dso *dso, const struct pm_symbol *sym,
				 int sl1)
{
	size_t lo = 0, hi = a->nr_funcs;
	struct an_func *f;

	if (a->last && !cmp_key(a->last, ev, dso, sym, sl1))
		return a->last;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_key(a->funcs[mid], ev, dso, sym, sl1);

		if (!c)
			return a->last = a->funcs[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	f = pm_zalloc(sizeof(*f));
	f->ev = ev;
	f->dso = dso;
	f->sym = sym;
	f->sl1 = sl1;
	f->seq = a->nr_funcs;
	PM_GROW(a->funcs, a->alloc_funcs, a->nr_funcs + 1);
	memmove(a->funcs + lo + 1, a->funcs + lo,
		(a->nr_funcs - lo) * sizeof(*a->funcs));
	a->funcs[lo] = f;
	a->nr_funcs++;
	return a->last = f;
}

static struct an_insn *find_insn(struct an_func *f, uint64_t addr)
{
	size_t lo = 0, hi = f->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->insns[mid].addr == addr)
			return &f->insns[mid];
		if (f->insns[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	PM_GROW(f->insns, f->alloc, f->nr + 1);
	memmove(f->insns + lo + 1, f->insns + lo, (f->nr - lo) * sizeof(*f->insns));
	memset(&f->insns[lo], 0, sizeof(f->insns[lo]));
	f->insns[lo].addr = addr;
	f->nr++;
	return &f->insns[lo];
}

/* Is the function one the options ask for (its name, its DSO's)? */
static bool selected(struct pm_annotate *a, struct pm_dso *dso,
		     const struct pm_symbol *sym)
{
	if (!a->symbol && !a->dso)
		return true;
	if (sym != a->last_sym || dso != a->last_dso) {
		a->last_sym = sym;
		a->last_dso = dso;
		a->last_selected =
			(!a->symbol || !strcmp(sym->name, a->symbol) ||
			 (sym->raw_name && !strcmp(sym->raw_name, a->symbol))) &&
			(!a->dso || !strcmp(pm_dso__short_name(dso), a->dso) ||
			 !strcmp(pm_dso__name(dso), a->dso));
	}
	return a->last_selected;
}

/* ---- windows ------------------------------------------------------------- */

int an_add_events(struct pm_annotate *a, struct pm_session *s,
		  struct pm_error *err)
{
	int ret;

	if (a->events_added)
		return 0;
	a->events_added = true;
	ret = pm_metrics__add_reader_events(a->metrics, pm_session__reader(s), err);
	a->nr_events = pm_reader__nr_events(pm_session__reader(s));
	return ret;
}

static void on_window(void *arg, const struct pm_metrics_window *w)
{
	struct pm_annotate *a = arg;
	struct an_insn *in = a->cur;
	size_t i;

	if (!in)
		return;
	if (!w->kept) {
		in->discarded++;
		a->cur_func->discarded++;
		return;
	}
	in->windows++;
	a->cur_func->windows++;
	if (!in->sums)
		in->sums = pm_calloc(a->nr_events + 1, sizeof(*in->sums));
	for (i = 0; i < w->nr; i++)
		if (w->events[i] >= 0 && (size_t)w->events[i] < a->nr_events)
			in->sums[w->events[i]] += w->delta[i];
}

/* ---- samples --------------------------------------------------------------- */

/*
 * Where a ProfileMe sample is: its profiled PC (no skid), in loc; false
 * when it has no ProfileMe data (then the IP counts, with no status).
 */
static bool profileme_pc(struct pm_annotate *a, struct pm_session *s,
			 const struct pm_sample_ctx *ctx, struct pm_profileme *pm,
			 struct pm_addr_loc *loc)
{
	const struct pm_sample *smp = ctx->sample;
	const char *arch = pm_reader__features(pm_session__reader(s))->arch;

	if (!ctx->event || !(smp->sample_type & PM_SAMPLE_RAW) ||
	    pm_profileme__decode(pm, arch, ctx->event->attr.type, smp->raw,
				 smp->raw_size) != PM_PROFILEME_OK)
		return false;
	a->sum.profileme++;
	if (!pm_profileme__is_pal(pm))
		pm_session__resolve(s, ctx->thread,
				    pm_profileme__is_kernel(pm) ? PM_MISC_KERNEL
								: PM_MISC_USER,
				    pm_profileme__pc(pm), loc);
	return true;
}

int pm_annotate__add(struct pm_annotate *a, struct pm_session *s,
		     const struct pm_sample_ctx *ctx, struct pm_error *err)
{
	struct pm_metrics_loc mloc = {
		.dso = ctx->ip.dso,
		.sym = ctx->ip.sym,
		.dso_name = pm_addr_loc__dso_name(&ctx->ip),
		.sym_name = ctx->ip.sym ? ctx->ip.sym->name : NULL,
	};
	struct pm_addr_loc loc = ctx->ip;
	struct pm_profileme pm;
	struct pm_profileme_class cls;
	bool has_pm;
	int ret;

	if ((ret = an_add_events(a, s, err)))
		return ret;
	a->sum.samples++;
	a->cur = NULL;
	has_pm = profileme_pc(a, s, ctx, &pm, &loc);
	if (has_pm && pm_profileme__is_pal(&pm)) {
		a->sum.pal++;
	} else if (!loc.sym || !loc.dso) {
		a->sum.unresolved++;
	} else if (ctx->event && selected(a, loc.dso, loc.sym)) {
		int sl1 = -1;

		if (has_pm) {
			pm_profileme__classify(&pm, &cls);
			sl1 = (int)cls.sl1;
		}
		a->cur_func = find_func(a, ctx->event, loc.dso, loc.sym, sl1);
		a->cur = find_insn(a->cur_func, loc.addr);
		a->cur_func->samples++;
		a->cur_func->period += ctx->sample->period;
		a->cur->samples++;
		a->cur->period += ctx->sample->period;
		if (has_pm) {
			if (!a->cur->pm)
				a->cur->pm = pm_zalloc(sizeof(*a->cur->pm));
			pm_profileme_row__add(a->cur->pm, &cls);
		}
	}
	ret = pm_metrics__sample(a->metrics, ctx->sample, &mloc, err);
	a->cur = NULL;
	if (ret && err) {	/* a read that fits no group: bad input */
		err->has_offset = true;
		err->offset = ctx->record_offset;
	}
	return ret;
}

int pm_annotate__record(struct pm_annotate *a, struct pm_session *s,
			const struct pm_record *rec, struct pm_error *err)
{
	int ret;

	if (rec->type != PM_RECORD_THROTTLE && rec->type != PM_RECORD_UNTHROTTLE &&
	    rec->type != PM_RECORD_LOST && rec->type != PM_RECORD_LOST_SAMPLES &&
	    rec->type != PM_RECORD_ID_INDEX)
		return 0;
	if ((ret = an_add_events(a, s, err)))
		return ret;
	return pm_metrics__record(a->metrics, pm_session__reader(s), rec, err);
}

const struct pm_annotate_summary *pm_annotate__summary(const struct pm_annotate *a)
{
	return &a->sum;
}

size_t pm_annotate__nr(const struct pm_annotate *a)
{
	return a->nr_out;
}

const struct pm_annotation *pm_annotate__at(const struct pm_annotate *a,
					    size_t i)
{
	return i < a->nr_out ? &a->out[i] : NULL;
}

size_t pm_annotate__nr_notes(const struct pm_annotate *a)
{
	return a->nr_notes;
}

const char *pm_annotate__note(const struct pm_annotate *a, size_t i)
{
	return i < a->nr_notes ? a->notes[i] : NULL;
}
