// SPDX-License-Identifier: GPL-2.0
/*
 * The annotate analysis on fixture recordings from the kit: an x86-64
 * program of nops (one byte each, so every sampled address is an
 * instruction of its own) sampled by a counter group that reads its
 * members. Every expected number is worked out below from the sample
 * list, by hand: samples per instruction, the windows each closing
 * sample charges to its instruction, kept or discarded, and the counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "fixture/kit.h"
#include "pmprof/annotate.h"
#include "pmprof/report.h"
#include "pmprof/session.h"
#include "pmprof/strbuf.h"
#include "pmprof/table.h"
#include "pmprof/util.h"

#define PID	10
#define PROG	"/bin/prog"
#define TEXT	0x401000ull
#define F	0x401000ull	/* f: 16 nops */
#define G	0x401010ull	/* g: 16 nops */

struct dirs {
	char root[64], symfs[96], data[96];
};

static void make_dirs(struct dirs *d)
{
	char cmd[200];

	strcpy(d->root, "/tmp/pmprof-annotate-XXXXXX");
	assert_non_null(mkdtemp(d->root));
	snprintf(d->symfs, sizeof(d->symfs), "%s/symfs", d->root);
	snprintf(d->data, sizeof(d->data), "%s/perf.data", d->root);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/bin'", d->symfs);
	assert_int_equal(system(cmd), 0);
}

static void rm_dirs(struct dirs *d)
{
	char cmd[100];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->root);
	assert_int_equal(system(cmd), 0);
}

static void write_prog(const struct dirs *d)
{
	static const struct pm_elf_sym syms[] = {
		{ "f", F, 0x10, false, false },
		{ "g", G, 0x10, false, false },
	};
	uint8_t text[0x20];
	struct pm_elf_image elf = {
		.machine = PM_KIT_EM_X86_64, .text_addr = TEXT, .text = text,
		.text_size = sizeof(text), .syms = syms, .nr_syms = 2,
	};
	char path[160];

	memset(text, 0x90, sizeof(text));	/* nop */
	snprintf(path, sizeof(path), "%s" PROG, d->symfs);
	assert_int_equal(pm_kit__write_elf(path, &elf), 0);
}

/* One stream of {cycles,instructions} samples: ip, then the values read. */
struct s {
	uint64_t ip;
	uint64_t cycles, instructions;
};

/*
 * W1..W4 are the windows S1..S4 close (S0 opens):
 *   W1 f+2  300 cycles 200 instructions  f -> f: kept
 *   W2 g+1  100         50               f -> g: discarded by discard
 *   W3 g+1   50         50               g -> g: kept
 *   W4 f+2  550        200               g -> f: discarded by discard
 * Samples: f+0 1 (S0), f+2 2 (S1 S4), g+1 2 (S2 S3); a cpu-clock sample
 * at g+5 besides (no reads: no window).
 */
static const struct s stream[] = {
	{ F + 0, 1000, 500 },
	{ F + 2, 1300, 700 },
	{ G + 1, 1400, 750 },
	{ G + 1, 1450, 800 },
	{ F + 2, 2000, 1000 },
};

static void write_data(const struct dirs *d)
{
	struct pm_kit *k = pm_kit__new("x86_64", false);
	uint64_t st = PM_SAMPLE_IP | PM_SAMPLE_TID | PM_SAMPLE_TIME |
		      PM_SAMPLE_ID | PM_SAMPLE_PERIOD;
	uint64_t ids[2] = { 1000, 1010 };
	struct pm_read_value vals[2];
	size_t i;

	pm_kit__event(k, "cycles", 0, 0, st | PM_SAMPLE_READ, 100);
	pm_kit__event(k, "instructions", 0, 1, st | PM_SAMPLE_READ, 100);
	pm_kit__event(k, "cpu-clock", 1, 0, st, 100);
	pm_kit__attr(k, 0)->read_format = PM_FORMAT_ID | PM_FORMAT_GROUP;
	pm_kit__attr(k, 1)->read_format = PM_FORMAT_ID | PM_FORMAT_GROUP;
	pm_kit__set_ids(k, 0, &ids[0], 1);
	pm_kit__set_ids(k, 1, &ids[1], 1);
	pm_kit__group(k, 0, 2, NULL);
	pm_kit__comm(k, PID, PID, "prog");
	pm_kit__mmap(k, PID, TEXT, 0x1000, 0x1000, PROG);
	for (i = 0; i < PM_ARRAY_SIZE(stream); i++) {
		struct pm_sample s = { 0 };

		s.misc = PM_MISC_USER;
		s.ip = stream[i].ip;
		s.pid = s.tid = PID;
		s.time = 1000 + 10 * i;
		s.id = ids[0];
		s.period = 100 + i;		/* periods 100..104 */
		vals[0] = (struct pm_read_value){ .value = stream[i].cycles, .id = ids[0] };
		vals[1] = (struct pm_read_value){ .value = stream[i].instructions,
						  .id = ids[1] };
		s.read.nr = 2;
		s.read.values = vals;
		pm_kit__sample_full(k, 0, &s);
	}
	pm_kit__sample(k, 2, PID, G + 5, 2000, 7);
	pm_kit__save(k, d->data);
}

/* The program and the recording, in a new directory. */
static void fixture(struct dirs *d)
{
	make_dirs(d);
	write_prog(d);
	write_data(d);
}

struct run {
	struct pm_annotate *an;
	struct pm_error *err;
};

static int on_sample(struct pm_session *s, const struct pm_sample_ctx *ctx, void *arg)
{
	struct run *r = arg;

	return pm_annotate__add(r->an, s, ctx, r->err) ? -1 : 0;
}

static int on_record(struct pm_session *s, const struct pm_record *rec, void *arg)
{
	struct run *r = arg;

	return pm_annotate__record(r->an, s, rec, r->err) ? -1 : 0;
}

static struct pm_annotate *annotate(const struct dirs *d,
				    const struct pm_annotate_opts *ao,
				    struct pm_session **sp)
{
	struct pm_session_opts so = { .sz = sizeof(so), .symfs = d->symfs,
				      .host = PM_HOST_NO };
	struct pm_error err = { 0 };
	struct run r = { .an = pm_annotate__new(ao), .err = &err };

	assert_int_equal(pm_session__open(sp, d->data, &so, &err), 0);
	assert_int_equal(pm_session__run(*sp, on_sample, on_record, &r, &err), 0);
	assert_int_equal(pm_annotate__finish(r.an, *sp, &err), 0);
	return r.an;
}

static const struct pm_annotation *find(const struct pm_annotate *an,
					const char *event, const char *sym)
{
	size_t i;

	for (i = 0; i < pm_annotate__nr(an); i++) {
		const struct pm_annotation *x = pm_annotate__at(an, i);

		if (!strcmp(x->event, event) && !strcmp(x->symbol, sym))
			return x;
	}
	fail_msg("no annotation of %s for %s", sym, event);
	return NULL;
}

/* The row of an address (source rows have none). */
static size_t row_of(const struct pm_table *t, uint64_t addr)
{
	int c = pm_table__find_column(t, "address");
	size_t r;

	for (r = 0; r < pm_table__nr_rows(t); r++)
		if (!pm_table__is_null(t, r, (size_t)c) &&
		    pm_table__get_u64(t, r, (size_t)c) == addr)
			return r;
	fail_msg("no row at 0x%llx", (unsigned long long)addr);
	return 0;
}

static uint64_t cell(const struct pm_table *t, uint64_t addr, const char *col)
{
	int c = pm_table__find_column(t, col);

	assert_true(c >= 0);
	return pm_table__get_u64(t, row_of(t, addr), (size_t)c);
}

/* every instruction of [start, start + 16): one nop a byte */
static void check_nops(const struct pm_table *t, uint64_t start)
{
	int code = pm_table__find_column(t, "code");
	uint64_t a;

	assert_int_equal(pm_table__nr_rows(t), 16);	/* no DWARF: no source rows */
	for (a = start; a < start + 16; a++)
		assert_string_equal(pm_table__get_str(t, row_of(t, a), (size_t)code),
				    "nop");
}

static void test_windows_none(void **state)
{
	struct pm_annotate_opts ao = { .sz = sizeof(ao), .mode = PM_METRICS_NONE };
	const struct pm_annotation *f, *g;
	struct pm_session *s;
	struct pm_annotate *an;
	struct dirs d;

	(void)state;
	fixture(&d);
	an = annotate(&d, &ao, &s);
	assert_true(pm_annotate__summary(an)->windows);
	assert_int_equal(pm_annotate__summary(an)->samples, 6);
	/* cycles in f (3), cycles in g (2), cpu-clock in g (1): by samples */
	assert_int_equal(pm_annotate__nr(an), 3);
	assert_string_equal(pm_annotate__at(an, 0)->symbol, "f");
	f = find(an, "cycles", "f");
	g = find(an, "cycles", "g");
	assert_int_equal(f->samples, 3);
	assert_int_equal(f->period, 100 + 101 + 104);
	assert_int_equal(f->windows, 2);
	assert_int_equal(g->windows, 2);
	check_nops(f->table, F);
	check_nops(g->table, G);
	assert_int_equal(cell(f->table, F + 0, "samples"), 1);
	assert_int_equal(cell(f->table, F + 0, "windows"), 0);	/* S0 opens */
	assert_int_equal(cell(f->table, F + 2, "samples"), 2);
	assert_int_equal(cell(f->table, F + 2, "period"), 101 + 104);
	assert_int_equal(cell(f->table, F + 2, "windows"), 2);
	assert_int_equal(cell(f->table, F + 2, "cycles"), 300 + 550);
	assert_int_equal(cell(f->table, F + 2, "instructions"), 200 + 200);
	assert_int_equal(cell(f->table, F + 1, "samples"), 0);
	assert_int_equal(cell(g->table, G + 1, "windows"), 2);
	assert_int_equal(cell(g->table, G + 1, "cycles"), 100 + 50);
	assert_int_equal(cell(g->table, G + 1, "instructions"), 50 + 50);
	/* The share: f+2's period of f's. */
	assert_true(pm_table__get_double(f->table, row_of(f->table, F + 2),
		(size_t)pm_table__find_column(f->table, "percent")) ==
		100.0 * (101 + 104) / (100 + 101 + 104));
	/* The caveat, once. */
	assert_int_equal(pm_annotate__nr_notes(an), 1);
	assert_non_null(strstr(pm_annotate__note(an, 0), "skid"));
	pm_annotate__delete(an);
	pm_session__delete(s);
	rm_dirs(&d);
}

static void test_windows_discard(void **state)
{
	struct pm_annotate_opts ao = { .sz = sizeof(ao), .mode = PM_METRICS_DISCARD };
	const struct pm_annotation *f, *g;
	struct pm_session *s;
	struct pm_annotate *an;
	struct dirs d;

	(void)state;
	fixture(&d);
	an = annotate(&d, &ao, &s);
	f = find(an, "cycles", "f");
	g = find(an, "cycles", "g");
	assert_int_equal(f->windows, 1);
	assert_int_equal(f->discarded, 1);
	assert_int_equal(cell(f->table, F + 2, "windows"), 1);
	assert_int_equal(cell(f->table, F + 2, "discarded"), 1);
	assert_int_equal(cell(f->table, F + 2, "cycles"), 300);
	assert_int_equal(cell(f->table, F + 2, "instructions"), 200);
	assert_int_equal(cell(g->table, G + 1, "windows"), 1);
	assert_int_equal(cell(g->table, G + 1, "discarded"), 1);
	assert_int_equal(cell(g->table, G + 1, "cycles"), 50);
	pm_annotate__delete(an);
	pm_session__delete(s);
	rm_dirs(&d);
}

static void test_symbol_and_top(void **state)
{
	struct pm_annotate_opts ao = { .sz = sizeof(ao), .symbol = "g" };
	const struct pm_annotation *x;
	struct pm_session *s;
	struct pm_annotate *an;
	struct dirs d;

	(void)state;
	fixture(&d);
	an = annotate(&d, &ao, &s);
	/* g for cycles (2 samples), then g for cpu-clock (1) */
	assert_int_equal(pm_annotate__nr(an), 2);
	x = pm_annotate__at(an, 1);
	assert_string_equal(x->event, "cpu-clock");
	assert_int_equal(x->samples, 1);
	assert_int_equal(cell(x->table, G + 5, "samples"), 1);
	assert_int_equal(cell(x->table, G + 5, "period"), 7);
	/* cpu-clock reads no counters: no window columns */
	assert_int_equal(pm_table__find_column(x->table, "windows"), -1);
	assert_true(pm_table__find_column(pm_annotate__at(an, 0)->table, "windows") >= 0);
	pm_annotate__delete(an);
	pm_session__delete(s);

	ao.symbol = NULL;
	ao.top = 1;
	an = annotate(&d, &ao, &s);
	assert_int_equal(pm_annotate__nr(an), 1);
	assert_string_equal(pm_annotate__at(an, 0)->symbol, "f");
	pm_annotate__delete(an);
	pm_session__delete(s);
	rm_dirs(&d);
}

/* Without an objdump that runs, the sampled addresses alone, and why. */
static void test_no_disassembly(void **state)
{
	struct pm_annotate_opts ao = { .sz = sizeof(ao), .symbol = "f",
				       .disasm = { .objdump = "/nonexistent/objdump" } };
	const struct pm_annotation *f;
	struct pm_session *s;
	struct pm_annotate *an;
	struct dirs d;
	size_t i;
	bool said = false;

	(void)state;
	fixture(&d);
	an = annotate(&d, &ao, &s);
	f = find(an, "cycles", "f");
	assert_non_null(f->disasm_error);
	assert_int_equal(pm_table__nr_rows(f->table), 2);	/* f+0, f+2 */
	assert_int_equal(cell(f->table, F + 0, "samples"), 1);
	assert_int_equal(cell(f->table, F + 2, "samples"), 2);
	assert_true(pm_table__is_null(f->table, row_of(f->table, F + 2),
				      (size_t)pm_table__find_column(f->table, "code")));
	for (i = 0; i < pm_annotate__nr_notes(an); i++)
		said |= strstr(pm_annotate__note(an, i), "/nonexistent/objdump") != NULL;
	assert_true(said);
	pm_annotate__delete(an);
	pm_session__delete(s);
	rm_dirs(&d);
}

/* A summary item as text ("-" for null). */
static void check_item(const struct pm_summary *sum, const char *key,
		       const char *want)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;

	assert_int_equal(pm_summary__text(sum, key, &sb), 0);
	assert_string_equal(pm_strbuf__str(&sb), want);
	pm_strbuf__release(&sb);
}

static char *render(const struct pm_report *rep, const char *format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_int_equal(pm_report__render(rep, out, pm_renderer__find(format), NULL), 0);
	fclose(out);
	return buf;
}

static size_t count_lines(const char *s, const char *prefix)
{
	size_t n = 0, len = strlen(prefix);

	for (; *s; s = strchr(s, '\n') + 1) {
		n += !strncmp(s, prefix, len);
		if (!strchr(s, '\n'))
			break;
	}
	return n;
}

/* The analysis's report: a "rows" table per function with what it is in
 * its summary; JSON and CSV from lib/table's renderers. */
static void test_report(void **state)
{
	struct pm_annotate_opts ao = { .sz = sizeof(ao), .mode = PM_METRICS_NONE };
	struct pm_session_opts so = { .sz = sizeof(so), .host = PM_HOST_NO };
	struct pm_error err = { 0 };
	struct pm_report *rep = NULL;
	struct pm_session *s;
	struct pm_annotate *an;
	struct pm_table *t;
	json_t *root, *fn;
	json_error_t jerr;
	char *text;
	struct dirs d;

	(void)state;
	fixture(&d);
	so.symfs = d.symfs;
	an = pm_annotate__new(&ao);
	assert_int_equal(pm_session__open(&s, d.data, &so, &err), 0);
	assert_int_equal(pm_analysis__run(&pm_annotate_analysis, an, s, &rep, &err), 0);
	/* cycles f (3 samples), cycles g (2), cpu-clock g (1) */
	assert_int_equal(pm_report__nr_tables(rep), 3);
	t = pm_report__table(rep, 0);
	assert_string_equal(pm_table__name(t), "rows");
	assert_int_equal(pm_table__nr_rows(t), 16);
	check_item(pm_table__summary(t), "event", "cycles");
	check_item(pm_table__summary(t), "dso", "prog");
	check_item(pm_table__summary(t), "symbol", "f");
	check_item(pm_table__summary(t), "start", "0x401000");
	check_item(pm_table__summary(t), "end", "0x401010");
	check_item(pm_table__summary(t), "samples", "3");
	check_item(pm_table__summary(t), "period", "305");	/* 100 + 101 + 104 */
	check_item(pm_table__summary(t), "windows", "2");
	check_item(pm_table__summary(t), "sl1", "-");
	check_item(pm_table__summary(pm_report__table(rep, 2)), "event", "cpu-clock");
	check_item(pm_report__summary(rep), "samples", "6");
	/* the tables are the report's now */
	assert_null(pm_annotate__at(an, 0)->table);

	/* JSON: the totals, then each function's members and rows */
	text = render(rep, "json");
	root = json_loads(text, 0, &jerr);
	assert_non_null(root);
	assert_int_equal(json_integer_value(json_object_get(root, "samples")), 6);
	assert_int_equal(json_array_size(json_object_get(root, "notes")), 1);
	assert_int_equal(json_array_size(json_object_get(root, "functions")), 3);
	fn = json_array_get(json_object_get(root, "functions"), 1);
	assert_string_equal(json_string_value(json_object_get(fn, "symbol")), "g");
	assert_string_equal(json_string_value(json_object_get(fn, "start")), "0x401010");
	assert_true(json_is_null(json_object_get(fn, "sl1")));
	assert_int_equal(json_integer_value(json_object_get(fn, "samples")), 2);
	assert_int_equal(json_array_size(json_object_get(fn, "rows")), 16);
	json_decref(root);
	free(text);

	/* CSV: one header, then every function's 16 rows, each led by what
	 * the function is (SL1 empty: not ProfileMe) */
	text = render(rep, "csv");
	assert_int_equal(strncmp(text, "Event,DSO,Symbol,SL1,", 21), 0);
	assert_int_equal(count_lines(text, ""), 1 + 3 * 16);
	assert_int_equal(count_lines(text, "cycles,prog,f,,"), 16);
	assert_int_equal(count_lines(text, "cycles,prog,g,,"), 16);
	assert_int_equal(count_lines(text, "cpu-clock,prog,g,,"), 16);
	free(text);

	/* text: the header lines, then each table a blank line apart */
	text = render(rep, "table");
	assert_int_equal(strncmp(text, "# 6 samples, 3 annotated functions\n# Window counts ",
				 strlen("# 6 samples, 3 annotated functions\n# Window counts ")), 0);
	assert_non_null(strstr(text, "skid"));
	assert_int_equal(count_lines(text, "# Percent | Source code & Disassembly of f "), 1);
	free(text);
	pm_report__delete(rep);
	pm_annotate__delete(an);
	pm_session__delete(s);

	/* No function of that name: no table, and a warning saying so. */
	ao.symbol = "nosuch";
	an = pm_annotate__new(&ao);
	assert_int_equal(pm_session__open(&s, d.data, &so, &err), 0);
	assert_int_equal(pm_analysis__run(&pm_annotate_analysis, an, s, &rep, &err), 0);
	assert_int_equal(pm_report__nr_tables(rep), 0);
	assert_int_equal(pm_report__nr_warnings(rep), 1);
	assert_non_null(strstr(pm_report__warning(rep, 0), "'nosuch'"));
	pm_report__delete(rep);
	pm_annotate__delete(an);
	pm_session__delete(s);
	rm_dirs(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_windows_none),
		cmocka_unit_test(test_windows_discard),
		cmocka_unit_test(test_symbol_and_top),
		cmocka_unit_test(test_no_disassembly),
		cmocka_unit_test(test_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
