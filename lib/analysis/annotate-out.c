// SPDX-License-Identifier: GPL-2.0
/*
 * Finishing annotate: the chosen functions in order, each disassembled
 * once (lib/disasm), its sampled addresses laid on the instructions that
 * hold them, source lines (libdw) put before their instructions with the
 * line's totals, and all of it as one table per function.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "annotate-int.h"
#include "pmprof/table.h"
#include "pmprof/util.h"

/* What a row shows: an instruction's (or a line's) sums. */
struct an_cell {
	uint64_t samples, period, windows, discarded;
	uint64_t *sums;
	struct pm_profileme_row pm;
};

struct an_line {
	const char *file;	/* libdw's, valid while the DSO lives */
	int line;
	struct an_cell c;
};

struct an_cols {
	int pct, samples, period, windows, discarded, counters;
	int killed, invalid, mispr, taken, stall, pctr1, traps;
	int addr, source, code;
};

/* A source file's lines, read once per function. */
#define AN_MAX_SOURCE (64 << 20)
struct an_source {
	char *path, *buf;
	const char **lines;
	size_t nr;
};

/* An instruction's sums into a row's; its window sums are by event,
 * the row's by counter. */
static void cell_add(struct an_cell *c, const struct an_insn *in,
		     const struct pm_annotate *a)
{
	size_t i;

	c->samples += in->samples;
	c->period += in->period;
	c->windows += in->windows;
	c->discarded += in->discarded;
	if (in->sums)
		for (i = 0; i < a->nr_counters; i++)
			c->sums[i] += in->sums[a->counter_ev[i]];
	pm_profileme_row__merge(&c->pm, in->pm);
}

static void cell_add_cell(struct an_cell *c, const struct an_cell *o,
			  size_t nr_counters)
{
	size_t i;

	c->samples += o->samples;
	c->period += o->period;
	c->windows += o->windows;
	c->discarded += o->discarded;
	for (i = 0; i < nr_counters; i++)
		c->sums[i] += o->sums[i];
	pm_profileme_row__merge(&c->pm, &o->pm);
}

/* ---- order ------------------------------------------------------------- */

static int cmp_funcs(const void *pa, const void *pb)
{
	const struct an_func *a = *(const struct an_func *const *)pa;
	const struct an_func *b = *(const struct an_func *const *)pb;
	int c;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (a->ev->idx != b->ev->idx)
		return a->ev->idx < b->ev->idx ? -1 : 1;
	if ((c = strcmp(pm_dso__short_name(a->dso), pm_dso__short_name(b->dso))))
		return c;
	if ((c = strcmp(a->sym->name, b->sym->name)))
		return c;
	if (a->sl1 != b->sl1)
		return a->sl1 < b->sl1 ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* ---- columns ------------------------------------------------------------ */

static int col(struct pm_table *t, const char *name, const char *key,
	       enum pm_table_type type, int digits)
{
	struct pm_table_column c = { .name = name, .key = key, .type = type,
				     .digits = digits };

	return pm_table__add_column(t, &c);
}

static void add_columns(struct pm_annotate *a, struct pm_table *t,
			const struct an_func *f, struct an_cols *c)
{
	size_t i;

	memset(c, 0xff, sizeof(*c));	/* -1: not in this table */
	c->pct = col(t, "Percent", "percent", PM_COL_PERCENT, 2);
	c->samples = col(t, "Samples", "samples", PM_COL_U64, 0);
	c->period = col(t, "Period", "period", PM_COL_U64, 0);
	/* Window columns where the event reads counters. */
	if (a->nr_counters && (f->ev->attr.sample_type & PM_SAMPLE_READ)) {
		c->windows = col(t, "Windows", "windows", PM_COL_U64, 0);
		c->discarded = col(t, "Discarded", "discarded", PM_COL_U64, 0);
		for (i = 0; i < a->nr_counters; i++) {
			const char *n = pm_metrics__counter_name(a->metrics, i);
			int k = col(t, n, n, PM_COL_U64, 0);

			if (!i)
				c->counters = k;
		}
	}
	if (f->sl1 >= 0) {
		c->killed = col(t, "killed%", "killed_pct", PM_COL_PERCENT, 1);
		c->invalid = col(t, "invalid%", "invalid_pct", PM_COL_PERCENT, 1);
		c->mispr = col(t, "mispr%", "mispredicted_pct", PM_COL_PERCENT, 1);
		c->taken = col(t, "taken%", "taken_pct", PM_COL_PERCENT, 1);
		c->stall = col(t, "stall%", "stalled_pct", PM_COL_PERCENT, 1);
		c->pctr1 = col(t, "pctr1", "pctr1_mean", PM_COL_DOUBLE, 1);
		c->traps = col(t, "traps", "traps", PM_COL_STRING, 0);
	}
	c->addr = col(t, "Address", "address", PM_COL_HEX, 0);
	c->source = col(t, "Source", "source", PM_COL_STRING, 0);
	c->code = col(t, "Code", "code", PM_COL_STRING, 0);
}

static double pct(uint64_t n, uint64_t d)
{
	return d ? 100.0 * (double)n / (double)d : 0.0;
}

static void set_cell(struct pm_annotate *a, struct pm_table *t, size_t row,
		     const struct an_cols *c, const struct an_func *f,
		     const struct an_cell *cell)
{
	size_t i;

	pm_table__set_double(t, row, (size_t)c->pct, pct(cell->period, f->period));
	pm_table__set_u64(t, row, (size_t)c->samples, cell->samples);
	pm_table__set_u64(t, row, (size_t)c->period, cell->period);
	if (c->windows >= 0) {
		pm_table__set_u64(t, row, (size_t)c->windows, cell->windows);
		pm_table__set_u64(t, row, (size_t)c->discarded, cell->discarded);
		for (i = 0; i < a->nr_counters; i++)
			pm_table__set_u64(t, row, (size_t)c->counters + i, cell->sums[i]);
	}
	if (c->killed >= 0 && cell->pm.samples) {
		const struct pm_profileme_row *r = &cell->pm;

		pm_table__set_double(t, row, (size_t)c->killed, pct(r->killed, r->samples));
		pm_table__set_double(t, row, (size_t)c->invalid, pct(r->invalid, r->samples));
		pm_table__set_double(t, row, (size_t)c->mispr,
				     pct(r->mispredicted, r->samples));
		pm_table__set_double(t, row, (size_t)c->taken, pct(r->taken, r->samples));
		pm_table__set_double(t, row, (size_t)c->stall, pct(r->stalled, r->samples));
		pm_table__set_double(t, row, (size_t)c->pctr1,
				     (double)r->pctr1_sum / (double)r->samples);
		pm_strbuf__reset(&a->scratch);
		pm_profileme_row__traps(r, &a->scratch);
		pm_table__set_str(t, row, (size_t)c->traps, pm_strbuf__str(&a->scratch));
	}
}

/* ---- source lines ---------------------------------------------------------- */

static void source_release(struct an_source *src)
{
	free(src->path);
	free(src->buf);
	free(src->lines);
	memset(src, 0, sizeof(*src));
}

/* Line n (1-based) of file, or NULL when the file cannot be read. */
static const char *source_text(struct an_source *src, const char *file, int n)
{
	size_t len, alloc = 0;
	struct stat st;
	char *p;

	if (!src->path || strcmp(src->path, file)) {
		source_release(src);
		src->path = pm_strdup(file);
		/* DWARF names any path: read regular files of sane size only
		 * (not /dev/zero, not a FIFO that would block). */
		if (stat(file, &st) || !S_ISREG(st.st_mode) ||
		    st.st_size > AN_MAX_SOURCE ||
		    pm_read_file(file, &src->buf, &len, NULL))
			src->buf = NULL;
		for (p = src->buf; p && *p; ) {
			char *nl = strchr(p, '\n');

			PM_GROW(src->lines, alloc, src->nr + 1);
			src->lines[src->nr++] = p;
			if (!nl)
				break;
			*nl = '\0';
			if (nl > p && nl[-1] == '\r')
				nl[-1] = '\0';
			p = nl + 1;
		}
	}
	return n >= 1 && (size_t)n <= src->nr ? src->lines[n - 1] : NULL;
}

static bool srcline(struct pm_annotate *a, struct pm_dso *dso, uint64_t addr,
		    struct pm_srcline *sl)
{
	return !a->opts.no_source && !pm_dso__srcline(dso, addr, sl) && sl->file;
}

static struct an_line *find_line(struct an_line *lines, size_t nr,
				 const struct pm_srcline *sl)
{
	size_t i;

	for (i = nr; i-- > 0; )
		if (lines[i].line == sl->line && !strcmp(lines[i].file, sl->file))
			return &lines[i];
	return NULL;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* ---- one table ------------------------------------------------------------ */

/* A row to show: a disassembled instruction or a sampled address no
 * instruction holds (objdump failed, or stopped short). */
struct an_row {
	uint64_t addr;
	const char *text;
	struct an_cell c;
};

static int cmp_rows(const void *pa, const void *pb)
{
	const struct an_row *a = pa, *b = pb;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static struct an_row *lay_out(struct pm_annotate *a, const struct an_func *f,
			      const struct pm_disasm *d, uint64_t *sums_pool,
			      size_t *nr_rows)
{
	size_t nr = d->nr, i, nc = a->nr_counters;
	struct an_row *rows = pm_calloc(d->nr + f->nr + 1, sizeof(*rows));

	for (i = 0; i < d->nr + f->nr; i++)
		rows[i].c.sums = nc ? sums_pool + i * nc : NULL;
	for (i = 0; i < d->nr; i++) {
		rows[i].addr = d->insns[i].addr;
		rows[i].text = d->insns[i].text;
	}
	for (i = 0; i < f->nr; i++) {
		const struct pm_insn *in = pm_disasm__find(d, f->insns[i].addr);
		struct an_row *r = in ? &rows[in - d->insns] : &rows[nr++];

		if (!in)
			r->addr = f->insns[i].addr;
		cell_add(&r->c, &f->insns[i], a);
	}
	/* f's addresses are sorted, but not among the instructions. */
	if (nr > d->nr)
		qsort(rows, nr, sizeof(*rows), cmp_rows);
	*nr_rows = nr;
	return rows;
}

static void build_table(struct pm_annotate *a, struct pm_annotation *out,
			const struct an_func *f, const struct pm_disasm *d)
{
	size_t nc = a->nr_counters, nr_rows, nr_lines = 0, alloc_lines = 0, i;
	uint64_t *pool = pm_calloc((d->nr + f->nr + 1) * (nc ? nc : 1),
				   sizeof(uint64_t));
	uint64_t *line_pool = NULL;
	struct an_line *lines = NULL, *cur = NULL;
	struct an_source src = { 0 };
	struct pm_table *t = pm_table__new();
	struct an_row *rows = lay_out(a, f, d, pool, &nr_rows);
	struct pm_srcline sl;
	struct an_cols c;

	add_columns(a, t, f, &c);
	/* The line totals first: a line's instructions need not be adjacent. */
	if (nc)
		line_pool = pm_calloc(nr_rows * nc + 1, sizeof(uint64_t));
	for (i = 0; i < nr_rows; i++) {
		struct an_line *l;

		if (!srcline(a, f->dso, rows[i].addr, &sl))
			continue;
		if (!(l = find_line(lines, nr_lines, &sl))) {
			PM_GROW(lines, alloc_lines, nr_lines + 1);
			l = &lines[nr_lines++];
			memset(l, 0, sizeof(*l));
			l->file = sl.file;
			l->line = sl.line;
			l->c.sums = nc ? line_pool + (nr_lines - 1) * nc : NULL;
		}
		cell_add_cell(&l->c, &rows[i].c, nc);
	}
	for (i = 0; i < nr_rows; i++) {
		size_t row;

		if (srcline(a, f->dso, rows[i].addr, &sl)) {
			struct an_line *l = find_line(lines, nr_lines, &sl);

			if (l != cur) {
				const char *text = source_text(&src, l->file, l->line);

				row = pm_table__add_row(t);
				set_cell(a, t, row, &c, f, &l->c);
				pm_table__set_strf(t, row, (size_t)c.source, "%s:%d",
						   base_name(l->file), l->line);
				if (text)
					pm_table__set_str(t, row, (size_t)c.code, text);
				cur = l;
			}
		} else {
			cur = NULL;
		}
		row = pm_table__add_row(t);
		set_cell(a, t, row, &c, f, &rows[i].c);
		pm_table__set_u64(t, row, (size_t)c.addr, rows[i].addr);
		if (cur)
			pm_table__set_strf(t, row, (size_t)c.source, "%s:%d",
					   base_name(cur->file), cur->line);
		if (rows[i].text)
			pm_table__set_str(t, row, (size_t)c.code, rows[i].text);
	}
	out->table = t;
	source_release(&src);
	free(lines);
	free(line_pool);
	free(rows);
	free(pool);
}

/* perf annotate's header line, then what the table covers. */
static void title(const struct pm_annotation *x)
{
	pm_table__set_title(x->table, "Percent | Source code & Disassembly of %s (%s) "
			    "for %s (%" PRIu64 " samples, percent: local period)",
			    x->symbol, x->dso, x->event, x->samples);
	pm_table__add_comment(x->table, "%s: 0x%" PRIx64 "..0x%" PRIx64,
			      x->path ? x->path : "no file", x->start, x->end);
	if (x->pctr1)
		pm_table__add_comment(x->table, "ProfileMe SL1 %d: pctr1 counts %s",
				      x->sl1, x->pctr1);
	if (x->windows || x->discarded)
		pm_table__add_comment(x->table, "windows: %" PRIu64 " kept, %" PRIu64
				      " discarded", x->windows, x->discarded);
}

/* ---- finish --------------------------------------------------------------- */

/* Disassemblies already made, by DSO and symbol (several tables can show
 * one function: one per event, per SL1). */
struct an_dis {
	const struct pm_dso *dso;
	const struct pm_symbol *sym;
	struct pm_disasm d;
	const char *error;	/* a note's text, or NULL */
};

static struct an_dis *disassemble(struct pm_annotate *a, struct an_dis **cache,
				  size_t *nr, struct an_func *f)
{
	struct pm_elf_info info;
	struct pm_error err = { 0 };
	struct an_dis *x;
	const char *path;
	size_t i;

	for (i = 0; i < *nr; i++)
		if ((*cache)[i].dso == f->dso && (*cache)[i].sym == f->sym)
			return &(*cache)[i];
	*cache = pm_reallocarray(*cache, *nr + 1, sizeof(**cache));
	x = &(*cache)[(*nr)++];
	memset(x, 0, sizeof(*x));
	x->dso = f->dso;
	x->sym = f->sym;
	pm_dso__load(f->dso, NULL);
	path = pm_dso__path(f->dso);
	if (!path || pm_dso__elf_info(f->dso, &info))
		an_note(a, "%s: no disassembly: no object file for %s",
			f->sym->name, pm_dso__name(f->dso));
	else if (pm_disasm__range(&x->d, path, &info, f->sym->start,
				  f->sym->end, &a->opts.disasm, &err))
		an_note(a, "%s: no disassembly: %s", f->sym->name, err.msg);
	else
		return x;
	x->error = a->notes[a->nr_notes - 1];	/* the note's text */
	return x;
}

int pm_annotate__finish(struct pm_annotate *a, struct pm_session *s,
			struct pm_error *err)
{
	struct an_dis *cache = NULL;
	struct an_func **order;
	size_t nr_cache = 0, n, i;
	int ret;

	if ((ret = an_add_events(a, s, err)))	/* a recording without samples */
		return ret;
	a->nr_counters = pm_metrics__nr_counters(a->metrics);
	a->counter_ev = pm_calloc(a->nr_counters + 1, sizeof(*a->counter_ev));
	for (i = 0; i < a->nr_counters; i++) {
		int ev = pm_metrics__counter_event(a->metrics, i);

		/* An event the windows know but annotate did not: count 0. */
		a->counter_ev[i] = ev >= 0 && (size_t)ev < a->nr_events ?
				   ev : (int)a->nr_events;
	}
	a->sum.windows = a->nr_counters > 0;
	order = pm_calloc(a->nr_funcs + 1, sizeof(*order));
	if (a->nr_funcs)	/* a->funcs is NULL without any */
		memcpy(order, a->funcs, a->nr_funcs * sizeof(*order));
	qsort(order, a->nr_funcs, sizeof(*order), cmp_funcs);
	n = a->opts.top && a->opts.top < a->nr_funcs ? a->opts.top : a->nr_funcs;
	a->out = pm_calloc(n + 1, sizeof(*a->out));
	for (i = 0; i < n; i++) {
		struct an_func *f = order[i];
		struct pm_annotation *o = &a->out[a->nr_out++];
		struct an_dis *x = disassemble(a, &cache, &nr_cache, f);

		o->event = f->ev->name;
		o->dso = pm_dso__short_name(f->dso);
		o->path = pm_dso__path(f->dso);
		o->symbol = f->sym->name;
		o->start = f->sym->start;
		o->end = f->sym->end;
		o->sl1 = f->sl1;
		o->pctr1 = f->sl1 >= 0 ? pm_profileme_pctr1__name((unsigned)f->sl1) : NULL;
		o->samples = f->samples;
		o->period = f->period;
		o->windows = f->windows;
		o->discarded = f->discarded;
		o->disasm_error = x->error;
		build_table(a, o, f, &x->d);
		title(o);
	}
	if (a->sum.windows && n)
		an_note(a, "Window counts are charged to the instruction where the "
			"window's closing sample was taken; with skid that is "
			"often an instruction or more after the ones that caused "
			"the events.");
	if (a->sum.pal)
		an_note(a, "%" PRIu64 " ProfileMe samples at PALcode addresses are "
			"in no function.", a->sum.pal);
	/* The instructions' text lives in the tables now. */
	for (i = 0; i < nr_cache; i++)
		pm_disasm__release(&cache[i].d);
	free(cache);
	free(order);
	return 0;
}
