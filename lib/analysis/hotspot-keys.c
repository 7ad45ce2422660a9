// SPDX-License-Identifier: GPL-2.0
/*
 * The hotspot's sort keys, one descriptor each (as perf's sort entries in
 * tools/perf/util/sort.c): what a key is made of, how rows compare, what
 * column shows it. Keys are made of the session's identities (DSO and
 * symbol pointers, interned comm strings), so building and comparing one
 * costs a few word compares; names are only looked at for the table.
 */
#include <inttypes.h>
#include <string.h>

#include "hotspot-int.h"
#include "pmprof/error.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

static int64_t sample_cpu(const struct pm_sample *smp)
{
	return smp->sample_type & PM_SAMPLE_CPU ? (int64_t)smp->cpu : -1;
}

/* Unknown names sort first here, as perf's sort entries do. */
static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

/* ---- dso ---- */

static void dso_words(const struct pm_sample_ctx *ctx,
		      const struct pm_addr_loc *loc, uint64_t *w)
{
	(void)ctx;
	w[0] = (uintptr_t)loc->dso;
}

static const char *dso_name(const struct hot_entry *e)
{
	return e->dso ? pm_dso__short_name(e->dso) : NULL;
}

static int dso_cmp(const struct hot_entry *a, const struct hot_entry *b)
{
	return cmp_str(dso_name(a), dso_name(b));
}

static void dso_cells(struct pm_table *t, size_t row, size_t col,
		      const struct hot_entry *e)
{
	pm_table__set_str(t, row, col, e->dso ? dso_name(e) : "[unknown]");
}

/* ---- sym ---- */

static void sym_words(const struct pm_sample_ctx *ctx,
		      const struct pm_addr_loc *loc, uint64_t *w)
{
	(void)ctx;
	/* an unknown symbol is its address, as in perf */
	w[0] = (uintptr_t)loc->sym;
	w[1] = loc->sym ? 0 : loc->rel;
}

static int sym_cmp(const struct hot_entry *a, const struct hot_entry *b)
{
	int c = cmp_str(a->sym ? a->sym->name : NULL, b->sym ? b->sym->name : NULL);

	return c ? c : pm_cmp_u64(a->addr, b->addr);
}

/* perf's "[.] main" (the level, then the name or the address) in the
 * table; the bare name or address in JSON. perf marks a function inlined
 * at the address as " (inlined)". */
static void sym_cells(struct pm_table *t, size_t row, size_t col,
		      const struct hot_entry *e)
{
	if (e->sym) {
		const char *inl = e->sym->inlined ? " (inlined)" : "";

		pm_table__set_strf(t, row, col, "[%c] %s%s", e->level, e->sym->name, inl);
		pm_table__set_strf(t, row, col + 1, "%s%s", e->sym->name, inl);
	} else {
		pm_table__set_strf(t, row, col, "[%c] %#.16" PRIx64, e->level,
				   e->addr);
		pm_table__set_strf(t, row, col + 1, "%#.16" PRIx64, e->addr);
	}
}

/* ---- comm, pid, tid, cpu, pc ---- */

static void comm_words(const struct pm_sample_ctx *ctx,
		       const struct pm_addr_loc *loc, uint64_t *w)
{
	(void)loc;
	w[0] = (uintptr_t)ctx->thread->comm;
}

static int comm_cmp(const struct hot_entry *a, const struct hot_entry *b)
{
	return cmp_str(a->comm, b->comm);
}

static void comm_cells(struct pm_table *t, size_t row, size_t col,
		       const struct hot_entry *e)
{
	pm_table__set_str(t, row, col, e->comm);
}

static void pid_words(const struct pm_sample_ctx *ctx,
		      const struct pm_addr_loc *loc, uint64_t *w)
{
	(void)loc;
	w[0] = (uint32_t)ctx->thread->pid;
}

static int pid_cmp(const struct hot_entry *a, const struct hot_entry *b)
{
	return pm_cmp_u64((uint32_t)a->pid, (uint32_t)b->pid);
}

static void pid_cells(struct pm_table *t, size_t row, size_t col,
		      const struct hot_entry *e)
{
	pm_table__set_i64(t, row, col, e->pid);
}

static void tid_words(const struct pm_sample_ctx *ctx,
		      const struct pm_addr_loc *loc, uint64_t *w)
{
	(void)loc;
	w[0] = (uint32_t)ctx->thread->tid;
}

static int tid_cmp(const struct hot_entry *a, const struct hot_entry *b)
{
	return pm_cmp_u64((uint32_t)a->tid, (uint32_t)b->tid);
}

static void tid_cells(struct pm_table *t, size_t row, size_t col,
		      const struct hot_entry *e)
{
	pm_table__set_i64(t, row, col, e->tid);
}

static void cpu_words(const struct pm_sample_ctx *ctx,
		      const struct pm_addr_loc *loc, uint64_t *w)
{
	(void)loc;
	w[0] = (uint64_t)sample_cpu(ctx->sample);
}

static int cpu_cmp(const struct hot_entry *a, const struct hot_entry *b)
{
	return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
}

static void cpu_cells(struct pm_table *t, size_t row, size_t col,
		      const struct hot_entry *e)
{
	pm_table__set_i64(t, row, col, e->cpu);
}

static void pc_words(const struct pm_sample_ctx *ctx,
		     const struct pm_addr_loc *loc, uint64_t *w)
{
	(void)ctx;
	w[0] = loc->ip;
}

static int pc_cmp(const struct hot_entry *a, const struct hot_entry *b)
{
	return pm_cmp_u64(a->pc, b->pc);
}

static void pc_cells(struct pm_table *t, size_t row, size_t col,
		     const struct hot_entry *e)
{
	pm_table__set_u64(t, row, col, e->pc);
}

#define KEY_COL(n, k, ty) { .name = (n), .key = (k), .type = (ty), .flags = PM_COLF_KEY }

static const struct hot_key keys[PM_HOT_NR_KEYS] = {
	[PM_HOT_DSO] = { "dso", NULL, KEY_COL("Shared Object", "dso", PM_COL_STRING),
			 { 0 }, dso_words, dso_cmp, dso_cells },
	[PM_HOT_SYM] = { "sym", "symbol",
			 { .name = "Symbol", .key = "symbol", .type = PM_COL_STRING,
			   .flags = PM_COLF_KEY, .show = PM_SHOW_TABLE },
			 { .name = "Symbol", .key = "symbol", .type = PM_COL_STRING,
			   .flags = PM_COLF_KEY, .show = PM_SHOW_JSON },
			 sym_words, sym_cmp, sym_cells },
	[PM_HOT_COMM] = { "comm", NULL, KEY_COL("Command", "comm", PM_COL_STRING),
			  { 0 }, comm_words, comm_cmp, comm_cells },
	[PM_HOT_PID] = { "pid", NULL, KEY_COL("Pid", "pid", PM_COL_I64),
			 { 0 }, pid_words, pid_cmp, pid_cells },
	[PM_HOT_TID] = { "tid", NULL, KEY_COL("Tid", "tid", PM_COL_I64),
			 { 0 }, tid_words, tid_cmp, tid_cells },
	[PM_HOT_CPU] = { "cpu", NULL, KEY_COL("CPU", "cpu", PM_COL_I64),
			 { 0 }, cpu_words, cpu_cmp, cpu_cells },
	[PM_HOT_PC] = { "pc", NULL, KEY_COL("PC", "pc", PM_COL_HEX),
			{ 0 }, pc_words, pc_cmp, pc_cells },
};

const struct hot_key *hot_key__get(enum pm_hot_key k)
{
	return (unsigned)k < PM_HOT_NR_KEYS ? &keys[k] : NULL;
}

int hot_key__find(const char *p, size_t n)
{
	for (size_t i = 0; i < PM_HOT_NR_KEYS; i++)
		if ((strlen(keys[i].name) == n && !strncmp(p, keys[i].name, n)) ||
		    (keys[i].alias && strlen(keys[i].alias) == n &&
		     !strncmp(p, keys[i].alias, n)))
			return (int)i;
	return -1;
}

int pm_hot_keys__parse(const char *spec, enum pm_hot_key *out, size_t *nr,
		       struct pm_error *err)
{
	const char *p = spec;

	*nr = 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		int k = hot_key__find(p, n);

		if (k < 0) {
			struct pm_strbuf sb = PM_STRBUF_INIT;
			int ret;

			for (size_t i = 0; i < PM_HOT_NR_KEYS; i++)
				pm_strbuf__addf(&sb, "%s%s", i ? ", " : "", keys[i].name);
			ret = pm_error__fmt(err, PM_EUSAGE,
					    "unknown sort key '%.*s' (%s)", (int)n, p,
					    pm_strbuf__str(&sb));
			pm_strbuf__release(&sb);
			return ret;
		}
		for (size_t j = 0; j < *nr; j++)
			if (out[j] == (enum pm_hot_key)k)
				return pm_error__fmt(err, PM_EUSAGE,
					"sort key '%.*s' given twice", (int)n, p);
		if (*nr == PM_HOT_MAX_KEYS)
			return pm_error__fmt(err, PM_EUSAGE, "too many sort keys");
		out[(*nr)++] = (enum pm_hot_key)k;
		p += n;
		if (*p == ',')
			p++;
	}
	if (!*nr)
		return pm_error__fmt(err, PM_EUSAGE, "no sort key given");
	return 0;
}

/* perf's -F words that are no sort key: the shares and counts. */
static const char *const count_fields[] = {
	"overhead", "overhead_children", "sample", "period",
};

bool pm_hot_fields__has(const char *spec, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = spec; p && *p;) {
		size_t len = strcspn(p, ",");
		int k = hot_key__find(p, len);

		if ((len == n && !strncmp(p, word, n)) ||
		    (k >= 0 && !strcmp(keys[k].name, word)))
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

int pm_hot_fields__parse(const char *spec, enum pm_hot_key *out, size_t *nr,
			 struct pm_error *err)
{
	for (const char *p = spec; *p;) {
		size_t n = strcspn(p, ",");
		int k = hot_key__find(p, n);
		bool count = false;

		for (size_t i = 0; i < PM_ARRAY_SIZE(count_fields); i++)
			count |= strlen(count_fields[i]) == n &&
				 !strncmp(p, count_fields[i], n);
		if (k == -1 && !count)
			return pm_error__fmt(err, PM_EUSAGE,
					     "unknown field '%.*s' (overhead, overhead_children, "
					     "sample, period or a sort key)", (int)n, p);
		for (size_t j = 0; k >= 0 && j < *nr; j++)
			if (out[j] == (enum pm_hot_key)k)
				k = -2;		/* --sort has it */
		if (k >= 0 && *nr < PM_HOT_MAX_KEYS)
			out[(*nr)++] = (enum pm_hot_key)k;
		p += n + (p[n] == ',');
	}
	if (!strlen(spec))
		return pm_error__fmt(err, PM_EUSAGE, "no field given");
	return 0;
}
