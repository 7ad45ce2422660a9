// SPDX-License-Identifier: GPL-2.0
/*
 * Tables and renderers. Every expected string below was written by hand
 * from the format rules (widths counted in characters, two spaces between
 * columns), not captured from the code.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmprof/json.h"
#include "pmprof/report.h"
#include "pmprof/strbuf.h"
#include "pmprof/table.h"
#include "../../src/cli.h"


struct mem {
	char *buf;
	size_t len;
	FILE *f;
};

static void mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	assert_non_null(m->f);
}

static char *mem_close(struct mem *m)
{
	fclose(m->f);
	return m->buf;
}

static char *render(const struct pm_table *t, const char *f,
		    const struct pm_render_opts *o)
{
	struct mem m;

	mem_open(&m);
	assert_int_equal(pm_table__render(t, m.f, pm_renderer__find(f), o), 0);
	return mem_close(&m);
}

static void check(const struct pm_table *t, const char *f,
		  const struct pm_render_opts *o, const char *want)
{
	char *got = render(t, f, o);

	assert_string_equal(got, want);
	free(got);
}

/* Samples (u64), Overhead (percent), Command, Symbol: perf report's shape. */
static struct pm_table *report_table(void)
{
	struct pm_table *t = pm_table__new();
	size_t r;

	assert_int_equal(pm_table__add_col(t, "Samples", "samples", PM_COL_U64), 0);
	assert_int_equal(pm_table__add_col(t, "Overhead", "overhead",
					   PM_COL_PERCENT), 1);
	assert_int_equal(pm_table__add_col(t, "Command", "comm", PM_COL_STRING), 2);
	assert_int_equal(pm_table__add_col(t, "Symbol", "symbol", PM_COL_STRING), 3);

	r = pm_table__add_row(t);
	pm_table__set_u64(t, r, 0, 1200);
	pm_table__set_double(t, r, 1, 60.0);
	pm_table__set_str(t, r, 2, "bash");
	pm_table__set_str(t, r, 3, "main");
	r = pm_table__add_row(t);
	pm_table__set_u64(t, r, 0, 5);
	pm_table__set_double(t, r, 1, 0.25);
	pm_table__set_str(t, r, 2, "ls");
	pm_table__set_str(t, r, 3, "[k] do_syscall_64");
	r = pm_table__add_row(t);
	/* Samples and Symbol stay null; "löwe" is 4 characters, 5 bytes. */
	pm_table__set_double(t, r, 1, 39.75);
	pm_table__set_str(t, r, 2, "l\xc3\xb6we");
	return t;
}

static void test_text(void **state)
{
	struct pm_table *t = report_table();

	(void)state;
	/* Widths: 7 ("Samples"), 8 ("Overhead"), 7 ("Command"); the last
	 * column is a string and gets no padding. */
	check(t, "text", NULL,
	      "Samples  Overhead  Command  Symbol\n"
	      "   1200    60.00%  bash     main\n"
	      "      5     0.25%  ls       [k] do_syscall_64\n"
	      "      -    39.75%  l\xc3\xb6we     -\n");
	pm_table__delete(t);
}

static void test_text_no_header(void **state)
{
	struct pm_table *t = report_table();
	struct pm_render_opts o = { .no_header = true };

	(void)state;
	/* Without the header the widths come from the cells only: 4, 6, 4. */
	check(t, "text", &o,
	      "1200  60.00%  bash  main\n"
	      "   5   0.25%  ls    [k] do_syscall_64\n"
	      "   -  39.75%  l\xc3\xb6we  -\n");
	pm_table__delete(t);
}

static void test_text_perf_style(void **state)
{
	struct pm_table *t = pm_table__new();
	struct pm_render_opts o = { 0 };
	size_t r;

	(void)state;
	pm_table__add_col(t, "Samples", NULL, PM_COL_U64);
	pm_table__add_col(t, "Symbol", NULL, PM_COL_STRING);
	pm_table__set_title(t, "Report of %s", "perf.data");
	pm_table__add_comment(t, "%d samples", 13);
	pm_table__set_flags(t, PM_TABLE_PERF_HEADER);
	r = pm_table__add_row(t);
	pm_table__set_u64(t, r, 0, 3);
	pm_table__set_str(t, r, 1, "a");
	r = pm_table__add_row(t);
	pm_table__set_u64(t, r, 0, 10);
	pm_table__set_str(t, r, 1, "bb");
	/* Rows are indented by the width of "# " to stay under the header. */
	check(t, "text", &o,
	      "# Report of perf.data\n"
	      "# 13 samples\n"
	      "#\n"
	      "# Samples  Symbol\n"
	      "# .......  ......\n"
	      "#\n"
	      "        3  a\n"
	      "       10  bb\n");
	o.no_comments = true;
	pm_table__set_flags(t, 0);
	check(t, "text", &o,
	      "Samples  Symbol\n"
	      "      3  a\n"
	      "     10  bb\n");
	pm_table__delete(t);
}

static void test_text_types_units_align(void **state)
{
	struct pm_table *t = pm_table__new();
	struct pm_table_column addr = { .name = "Address", .type = PM_COL_HEX };
	struct pm_table_column delta = { .name = "Delta", .type = PM_COL_I64 };
	struct pm_table_column time = { .name = "Time", .type = PM_COL_DOUBLE,
					.unit = "ms", .digits = 3 };
	struct pm_table_column name = { .name = "Name", .type = PM_COL_STRING,
					.align = PM_ALIGN_RIGHT };
	struct pm_table_column cnt = { .name = "N", .type = PM_COL_U64,
				       .align = PM_ALIGN_LEFT };
	size_t r;

	(void)state;
	pm_table__add_column(t, &addr);
	pm_table__add_column(t, &delta);
	pm_table__add_column(t, &time);
	pm_table__add_column(t, &name);
	pm_table__add_column(t, &cnt);
	r = pm_table__add_row(t);
	pm_table__set_u64(t, r, 0, 0x4005d0);
	pm_table__set_i64(t, r, 1, -42);
	pm_table__set_double(t, r, 2, 1.5);
	pm_table__set_str(t, r, 3, "x");
	pm_table__set_u64(t, r, 4, 7);
	r = pm_table__add_row(t);
	pm_table__set_u64(t, r, 0, 0xffffffff81000000ull);
	pm_table__set_i64(t, r, 1, 7);
	pm_table__set_double(t, r, 2, 12.25);
	pm_table__set_str(t, r, 3, "long");
	pm_table__set_u64(t, r, 4, 1234);
	/* Widths 18, 5, 9 ("Time (ms)"), 4, 4; N is left-aligned and last. */
	check(t, "text", NULL,
	      "           Address  Delta  Time (ms)  Name  N\n"
	      "0x00000000004005d0    -42      1.500     x  7\n"
	      "0xffffffff81000000      7     12.250  long  1234\n");
	/* CSV carries neither units nor padding. */
	check(t, "csv", NULL,
	      "Address,Delta,Time,Name,N\n"
	      "0x00000000004005d0,-42,1.500,x,7\n"
	      "0xffffffff81000000,7,12.250,long,1234\n");
	pm_table__delete(t);
}

static void test_digits(void **state)
{
	struct pm_table *t = pm_table__new();
	struct pm_table_column pc = { .name = "pc", .type = PM_COL_HEX,
				      .digits = 8 };
	struct pm_table_column pct = { .name = "pct", .type = PM_COL_PERCENT,
				       .digits = 1 };
	struct pm_table_column whole = { .name = "w", .type = PM_COL_DOUBLE,
					 .digits = PM_TABLE_DIGITS_NONE };
	size_t r;

	(void)state;
	pm_table__add_column(t, &pc);
	pm_table__add_column(t, &pct);
	pm_table__add_column(t, &whole);
	r = pm_table__add_row(t);
	pm_table__set_u64(t, r, 0, 0x1234);
	pm_table__set_double(t, r, 1, 21.04);
	pm_table__set_double(t, r, 2, 2.75);	/* rounds to 3 */
	check(t, "text", NULL,
	      "        pc    pct  w\n"
	      "0x00001234  21.0%  3\n");
	check(t, "tsv", NULL, "pc\tpct\tw\n0x00001234\t21.0\t3\n");
	pm_table__delete(t);
}

/* One string column of awkward values, one number column. */
static struct pm_table *awkward_table(void)
{
	static const char *const values[] = {
		"plain", "has,comma", "say \"hi\"", "two\nlines", "cr\rhere",
		"tab\there", "back\\slash", "", NULL, "na\xc3\xafve \xe2\x82\xac",
	};
	struct pm_table *t = pm_table__new();
	size_t i, r;

	pm_table__add_col(t, "value", "v", PM_COL_STRING);
	pm_table__add_col(t, "n,o", "n", PM_COL_U64);
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		r = pm_table__add_row(t);
		pm_table__set_str(t, r, 0, values[i]);
		pm_table__set_u64(t, r, 1, i);
	}
	return t;
}

static void test_csv_quoting(void **state)
{
	struct pm_table *t = awkward_table();

	(void)state;
	/* RFC 4180: quote fields with a comma, quote, CR or LF; double the
	 * quotes. A tab needs no quoting; the empty string and null are both
	 * an empty field; UTF-8 passes through. */
	check(t, "csv", NULL,
	      "value,\"n,o\"\n"
	      "plain,0\n"
	      "\"has,comma\",1\n"
	      "\"say \"\"hi\"\"\",2\n"
	      "\"two\nlines\",3\n"
	      "\"cr\rhere\",4\n"
	      "tab\there,5\n"
	      "back\\slash,6\n"
	      ",7\n"
	      ",8\n"
	      "na\xc3\xafve \xe2\x82\xac,9\n");
	pm_table__delete(t);
}

static void test_tsv_escaping(void **state)
{
	struct pm_table *t = awkward_table();

	(void)state;
	check(t, "tsv", NULL,
	      "value\tn,o\n"
	      "plain\t0\n"
	      "has,comma\t1\n"
	      "say \"hi\"\t2\n"
	      "two\\nlines\t3\n"
	      "cr\\rhere\t4\n"
	      "tab\\there\t5\n"
	      "back\\\\slash\t6\n"
	      "\t7\n"
	      "\t8\n"
	      "na\xc3\xafve \xe2\x82\xac\t9\n");
	pm_table__delete(t);
}

static void test_text_escaping(void **state)
{
	struct pm_table *t = awkward_table();

	(void)state;
	pm_table__truncate(t, 6);
	/* Text keeps a row on one line; the widest value "two\nlines" is 10
	 * characters once escaped. The last column is a number: padded. */
	check(t, "text", NULL,
	      "value       n,o\n"
	      "plain         0\n"
	      "has,comma     1\n"
	      "say \"hi\"      2\n"
	      "two\\nlines    3\n"
	      "cr\\rhere      4\n"
	      "tab\\there     5\n");
	pm_table__delete(t);
}

static void test_json(void **state)
{
	struct pm_table *t = report_table();
	struct pm_table *a = awkward_table();
	size_t r;

	(void)state;
	check(t, "json", NULL,
	      "[{\"samples\":1200,\"overhead\":60,\"comm\":\"bash\",\"symbol\":\"main\"},"
	      "{\"samples\":5,\"overhead\":0.25,\"comm\":\"ls\","
	      "\"symbol\":\"[k] do_syscall_64\"},"
	      "{\"samples\":null,\"overhead\":39.75,\"comm\":\"l\xc3\xb6we\","
	      "\"symbol\":null}]\n");

	pm_table__truncate(a, 4);
	check(a, "json", NULL,
	      "[{\"v\":\"plain\",\"n\":0},{\"v\":\"has,comma\",\"n\":1},"
	      "{\"v\":\"say \\\"hi\\\"\",\"n\":2},{\"v\":\"two\\nlines\",\"n\":3}]\n");
	pm_table__delete(a);

	/* Hex addresses are strings of 16 digits; i64 keeps its sign. */
	a = pm_table__new();
	pm_table__add_col(a, "pc", NULL, PM_COL_HEX);
	pm_table__add_col(a, "d", NULL, PM_COL_I64);
	r = pm_table__add_row(a);
	pm_table__set_u64(a, r, 0, 0x120001234ull);
	pm_table__set_i64(a, r, 1, -3);
	check(a, "json", NULL,
	      "[{\"pc\":\"0x0000000120001234\",\"d\":-3}]\n");
	pm_table__delete(a);
	pm_table__delete(t);
}

static void test_json_embedded(void **state)
{
	struct pm_table *t = report_table();
	struct pm_json j;
	struct mem m;
	char *got;

	(void)state;
	pm_table__truncate(t, 2);
	mem_open(&m);
	pm_json__init(&j, m.f);
	pm_json__begin_object(&j);
	pm_json__kv_string(&j, "view", "symbol");
	pm_json__key(&j, "rows");
	pm_table__json_rows(t, &j);
	pm_json__key(&j, "first");
	pm_json__begin_object(&j);
	pm_table__json_row_fields(t, 0, &j);
	pm_json__kv_u64(&j, "extra", 9);
	pm_json__end_object(&j);
	pm_json__end_object(&j);
	got = mem_close(&m);
	assert_string_equal(got,
		"{\"view\":\"symbol\",\"rows\":["
		"{\"samples\":1200,\"overhead\":60,\"comm\":\"bash\",\"symbol\":\"main\"},"
		"{\"samples\":5,\"overhead\":0.25,\"comm\":\"ls\","
		"\"symbol\":\"[k] do_syscall_64\"}],"
		"\"first\":{\"samples\":1200,\"overhead\":60,\"comm\":\"bash\","
		"\"symbol\":\"main\",\"extra\":9}}");
	free(got);
	pm_table__delete(t);
}

static void test_html(void **state)
{
	struct pm_table *t = pm_table__new();
	size_t r;

	(void)state;
	pm_table__add_col(t, "n", NULL, PM_COL_U64);
	pm_table__add_col(t, "<sym>", NULL, PM_COL_STRING);
	pm_table__set_title(t, "A & B");
	pm_table__add_comment(t, "x < y");
	r = pm_table__add_row(t);
	pm_table__set_u64(t, r, 0, 1);
	pm_table__set_str(t, r, 1, "operator<<(\"a\", 'b') & \xc3\xa9");
	r = pm_table__add_row(t);
	pm_table__set_str(t, r, 1, "x");
	check(t, "html", NULL,
	      "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>A &amp; B</title>\n"
	      "<style>\ntable { border-collapse: collapse; }\n"
	      "th, td { padding: 0 0.5em; }\n.r { text-align: right; }\n"
	      "</style>\n</head>\n<body>\n"
	      "<p>x &lt; y</p>\n"
	      "<table>\n<caption>A &amp; B</caption>\n"
	      "<thead>\n<tr><th class=\"r\">n</th><th>&lt;sym&gt;</th></tr>\n"
	      "</thead>\n<tbody>\n"
	      "<tr><td class=\"r\">1</td><td>operator&lt;&lt;(&quot;a&quot;, "
	      "&#39;b&#39;) &amp; \xc3\xa9</td></tr>\n"
	      "<tr><td class=\"r\"></td><td>x</td></tr>\n"
	      "</tbody>\n</table>\n</body>\n</html>\n");
	pm_table__delete(t);
}

/* Rows (key, tag) where equal keys must keep their insertion order. */
static struct pm_table *sort_table(void)
{
	static const struct { int key; const char *tag; } rows[] = {
		{ 2, "a" }, { 1, "b" }, { 2, "c" }, { -1, "d" }, { 1, "e" },
		{ 2, "f" },
	};
	struct pm_table *t = pm_table__new();
	size_t i, r;

	pm_table__add_col(t, "key", NULL, PM_COL_U64);
	pm_table__add_col(t, "tag", NULL, PM_COL_STRING);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		r = pm_table__add_row(t);
		if (rows[i].key >= 0)
			pm_table__set_u64(t, r, 0, (uint64_t)rows[i].key);
		pm_table__set_str(t, r, 1, rows[i].tag);
	}
	return t;
}

static void expect_tags(const struct pm_table *t, const char *want)
{
	char got[32];
	size_t i;

	assert_int_equal(pm_table__nr_rows(t), strlen(want));
	for (i = 0; i < pm_table__nr_rows(t); i++)
		got[i] = pm_table__get_str(t, i, 1)[0];
	got[i] = '\0';
	assert_string_equal(got, want);
}

static int by_tag_desc(const struct pm_table *t, size_t a, size_t b, void *arg)
{
	(void)arg;
	return -strcmp(pm_table__get_str(t, a, 1), pm_table__get_str(t, b, 1));
}

/* Odd keys before even ones; equal parity keeps the order it had. */
static int odd_first(const struct pm_table *t, size_t a, size_t b, void *arg)
{
	int pa = (int)(pm_table__get_u64(t, a, 0) & 1);
	int pb = (int)(pm_table__get_u64(t, b, 0) & 1);

	(*(int *)arg)++;
	return pb - pa;
}

static void test_sort_stable(void **state)
{
	struct pm_table *t = sort_table();
	int calls = 0;

	(void)state;
	assert_int_equal(pm_table__sort(t, 0, true), 0);
	expect_tags(t, "acfbed");	/* null key last */
	pm_table__delete(t);

	t = sort_table();
	assert_int_equal(pm_table__sort(t, 0, false), 0);
	expect_tags(t, "beacfd");	/* null key still last */
	assert_int_equal(pm_table__sort(t, 1, true), 0);
	expect_tags(t, "fedcba");
	assert_int_equal(pm_table__sort(t, 5, true), -EINVAL);

	pm_table__sort_by(t, by_tag_desc, NULL);
	expect_tags(t, "fedcba");
	/* Current order f e d c b a; keys 2 1 - 2 1 2 (null reads 0: even). */
	pm_table__sort_by(t, odd_first, &calls);
	expect_tags(t, "ebfdca");
	assert_true(calls > 0);

	pm_table__truncate(t, 2);
	expect_tags(t, "eb");
	pm_table__truncate(t, 10);
	expect_tags(t, "eb");
	pm_table__truncate(t, 0);
	assert_int_equal(pm_table__nr_rows(t), 0);
	check(t, "text", NULL, "key  tag\n");
	check(t, "json", NULL, "[]\n");
	pm_table__delete(t);
}

static void test_sort_strings_utf8(void **state)
{
	struct pm_table *t = pm_table__new();
	const char *words[] = { "\xc3\xa9t\xc3\xa9", "zoo", "Apple", "apple" };
	size_t i, r;

	(void)state;
	pm_table__add_col(t, "w", NULL, PM_COL_STRING);
	for (i = 0; i < 4; i++) {
		r = pm_table__add_row(t);
		pm_table__set_str(t, r, 0, words[i]);
	}
	/* Bytewise: 'A' (0x41) < 'a' (0x61) < 'z' < U+00E9 (0xc3 0xa9). */
	pm_table__sort(t, 0, false);
	assert_string_equal(pm_table__get_str(t, 0, 0), "Apple");
	assert_string_equal(pm_table__get_str(t, 1, 0), "apple");
	assert_string_equal(pm_table__get_str(t, 2, 0), "zoo");
	assert_string_equal(pm_table__get_str(t, 3, 0), "\xc3\xa9t\xc3\xa9");
	pm_table__delete(t);
}

static void test_api_errors(void **state)
{
	struct pm_table *t = report_table();
	struct pm_table_column bad = { .name = NULL, .type = PM_COL_U64 };

	(void)state;
	assert_int_equal(pm_table__set_str(t, 0, 0, "x"), -EINVAL);
	assert_int_equal(pm_table__set_u64(t, 0, 2, 1), -EINVAL);
	assert_int_equal(pm_table__set_u64(t, 3, 0, 1), -EINVAL);
	assert_int_equal(pm_table__set_u64(t, 0, 4, 1), -EINVAL);
	assert_int_equal(pm_table__set_null(t, 9, 0), -EINVAL);
	assert_int_equal(pm_table__add_col(t, "late", NULL, PM_COL_U64), -EBUSY);
	assert_int_equal(pm_table__nr_columns(t), 4);
	assert_int_equal(pm_table__nr_rows(t), 3);

	/* Number setters convert to the column's type. */
	assert_int_equal(pm_table__set_u64(t, 2, 1, 3), 0);
	assert_true(pm_table__get_double(t, 2, 1) == 3.0);
	assert_int_equal(pm_table__set_double(t, 2, 0, 7.9), 0);
	assert_int_equal(pm_table__get_u64(t, 2, 0), 7);
	assert_false(pm_table__is_null(t, 2, 0));
	assert_int_equal(pm_table__set_null(t, 2, 0), 0);
	assert_true(pm_table__is_null(t, 2, 0));
	assert_null(pm_table__get_str(t, 2, 3));
	assert_null(pm_table__get_str(t, 0, 0));

	assert_int_equal(pm_table__find_column(t, "overhead"), 1);
	assert_int_equal(pm_table__find_column(t, "Symbol"), 3);
	assert_int_equal(pm_table__find_column(t, "nope"), -1);
	assert_string_equal(pm_table__column(t, 2)->key, "comm");
	assert_string_equal(pm_table__column(t, 2)->name, "Command");
	assert_null(pm_table__column(t, 4));

	assert_non_null(pm_renderer__find("text"));
	assert_ptr_equal(pm_renderer__find("text"), pm_renderer__find("table"));
	assert_non_null(pm_renderer__find("html"));
	assert_string_equal(pm_renderer__find("html")->name, "html");
	assert_null(pm_renderer__find("xml"));
	assert_string_equal(pm_renderer__find("tsv")->name, "tsv");
	assert_int_equal(pm_table__render(t, stdout, NULL, NULL), -EINVAL);
	pm_table__delete(t);

	t = pm_table__new();
	assert_int_equal(pm_table__add_column(t, &bad), -EINVAL);
	pm_table__delete(t);
	pm_table__delete(NULL);
}

/* ---- reports ----------------------------------------------------------- */

static char *render_report(const struct pm_report *rep, const char *f)
{
	struct mem m;

	mem_open(&m);
	assert_int_equal(pm_report__render(rep, m.f, pm_renderer__find(f), NULL), 0);
	return mem_close(&m);
}

static void check_report(const struct pm_report *rep, const char *f,
			 const char *want)
{
	char *got = render_report(rep, f);

	assert_string_equal(got, want);
	free(got);
}

/* A tree under a row: the same columns, drawn in text, nested in JSON,
 * rows after their parent in CSV with a depth column. */
static void test_trees(void **state)
{
	struct pm_table *t = pm_table__new();
	struct pm_table *kids, *grand;
	struct pm_report *rep = pm_report__new();
	size_t r;

	(void)state;
	pm_table__add_col(t, "n", NULL, PM_COL_U64);
	pm_table__add_col(t, "sym", NULL, PM_COL_STRING);
	r = pm_table__add_row(t);
	pm_table__set_u64(t, r, 0, 10);
	pm_table__set_str(t, r, 1, "main");
	kids = pm_table__children(t, r);
	assert_ptr_equal(kids, pm_table__children(t, r));
	assert_int_equal(pm_table__add_column(kids, &(struct pm_table_column){
		.name = "x", .type = PM_COL_U64 }), -EBUSY);
	r = pm_table__add_row(kids);
	pm_table__set_u64(kids, r, 0, 7);
	pm_table__set_str(kids, r, 1, "work");
	grand = pm_table__children(kids, r);
	pm_table__set_u64(grand, pm_table__add_row(grand), 0, 7);
	pm_table__set_str(grand, 0, 1, "leaf");
	r = pm_table__add_row(kids);
	pm_table__set_u64(kids, r, 0, 3);
	pm_table__set_str(kids, r, 1, "io");
	r = pm_table__add_row(t);
	pm_table__set_u64(t, r, 0, 1);
	pm_table__set_str(t, r, 1, "other");
	assert_null(pm_table__children_of(t, 1));
	assert_ptr_equal(pm_table__children_of(t, 0), kids);
	pm_report__add_table(rep, t);
	check_report(rep, "text",
		     " n  sym\n"
		     "10  main\n"
		     " 7  |-- work\n"
		     " 7  |   `-- leaf\n"
		     " 3  `-- io\n"
		     " 1  other\n");
	check_report(rep, "json",
		     "{\"rows\":[{\"n\":10,\"sym\":\"main\",\"children\":["
		     "{\"n\":7,\"sym\":\"work\",\"children\":[{\"n\":7,\"sym\":\"leaf\"}]},"
		     "{\"n\":3,\"sym\":\"io\"}]},{\"n\":1,\"sym\":\"other\"}]}\n");
	check_report(rep, "csv",
		     "depth,n,sym\n0,10,main\n1,7,work\n2,7,leaf\n1,3,io\n0,1,other\n");
	/* a sort moves a row's tree with it */
	pm_table__sort(t, 0, false);
	assert_string_equal(pm_table__get_str(t, 1, 1), "main");
	assert_ptr_equal(pm_table__children_of(t, 1), kids);
	pm_report__delete(rep);
}

/* A copy: the columns of a format, every row and tree, null cells null;
 * sorting and cutting it leaves the original as it was. */
static void test_copy(void **state)
{
	struct pm_table *t = pm_table__new(), *c, *kids;
	size_t r;

	(void)state;
	pm_table__add_col(t, "n", NULL, PM_COL_U64);
	pm_table__add_column(t, &(struct pm_table_column){ .name = "Symbol", .key = "symbol",
			     .type = PM_COL_STRING, .show = PM_SHOW_TABLE });
	pm_table__add_column(t, &(struct pm_table_column){ .name = "Symbol", .key = "symbol",
			     .type = PM_COL_STRING, .show = PM_SHOW_JSON });
	pm_table__add_col(t, "share", NULL, PM_COL_PERCENT);
	r = pm_table__add_row(t);
	pm_table__set_u64(t, r, 0, 5);
	pm_table__set_str(t, r, 1, "[.] b");
	pm_table__set_str(t, r, 2, "b");
	pm_table__set_double(t, r, 3, 62.5);
	kids = pm_table__children(t, r);
	pm_table__set_u64(kids, pm_table__add_row(kids), 0, 4);
	r = pm_table__add_row(t);
	pm_table__set_u64(t, r, 0, 3);
	pm_table__set_str(t, r, 1, "[.] a");
	pm_table__set_null(t, r, 3);

	c = pm_table__copy(t, PM_SHOW_TABLE);
	assert_int_equal(pm_table__nr_columns(c), 3);
	assert_string_equal(pm_table__column(c, 1)->name, "Symbol");
	assert_int_equal(pm_table__column(c, 1)->show, PM_SHOW_TABLE);
	assert_int_equal(pm_table__column(c, 2)->type, PM_COL_PERCENT);
	assert_int_equal(pm_table__nr_rows(c), 2);
	assert_string_equal(pm_table__get_str(c, 0, 1), "[.] b");
	assert_true(pm_table__get_double(c, 0, 2) == 62.5);
	assert_true(pm_table__is_null(c, 1, 2));
	assert_non_null(pm_table__children_of(c, 0));
	assert_ptr_not_equal(pm_table__children_of(c, 0), kids);
	assert_int_equal(pm_table__get_u64(pm_table__children_of(c, 0), 0, 0), 4);
	pm_table__sort(c, 1, false);
	pm_table__truncate(c, 1);
	assert_string_equal(pm_table__get_str(c, 0, 1), "[.] a");
	assert_int_equal(pm_table__nr_rows(t), 2);
	assert_string_equal(pm_table__get_str(t, 0, 1), "[.] b");
	pm_table__delete(c);
	/* 0: every column */
	c = pm_table__copy(t, 0);
	assert_int_equal(pm_table__nr_columns(c), 4);
	assert_string_equal(pm_table__get_str(c, 0, 2), "b");
	pm_table__delete(c);
	pm_table__delete(t);
}

/* Columns for one format, nested JSON, optional members, null texts. */
static void test_column_kinds(void **state)
{
	struct pm_table *t = pm_table__new();
	struct pm_report *rep = pm_report__new();
	size_t r;

	(void)state;
	pm_table__add_column(t, &(struct pm_table_column){
		.name = "sym", .type = PM_COL_STRING, .show = PM_SHOW_JSON });
	pm_table__add_column(t, &(struct pm_table_column){
		.name = "Symbol", .key = "sym", .type = PM_COL_STRING,
		.show = PM_SHOW_TABLE, .null_text = "[unknown]" });
	pm_table__add_column(t, &(struct pm_table_column){
		.name = "a", .type = PM_COL_U64, .group = "counts" });
	pm_table__add_column(t, &(struct pm_table_column){
		.name = "b", .type = PM_COL_U64, .group = "counts",
		.flags = PM_COLF_OPTIONAL });
	pm_table__add_column(t, &(struct pm_table_column){
		.name = "lo", .key = "v", .type = PM_COL_DOUBLE, .group = "m",
		.subgroup = "CPI" });
	pm_table__add_column(t, &(struct pm_table_column){
		.name = "ci", .type = PM_COL_RANGE, .group = "m", .subgroup = "IPC",
		.show = PM_SHOW_JSON });
	pm_table__add_column(t, &(struct pm_table_column){
		.name = "ok", .type = PM_COL_BOOL });
	r = pm_table__add_row(t);
	pm_table__set_str(t, r, 0, "main");
	pm_table__set_str(t, r, 1, "main");
	pm_table__set_u64(t, r, 2, 1);
	pm_table__set_u64(t, r, 3, 2);
	pm_table__set_double(t, r, 4, 1.5);
	pm_table__set_range(t, r, 5, 0.25, 0.75);
	pm_table__set_bool(t, r, 6, true);
	r = pm_table__add_row(t);
	pm_table__set_str(t, r, 0, NULL);
	pm_table__set_str(t, r, 1, NULL);
	assert_int_equal(pm_table__set_bool(t, r, 2, true), -EINVAL);
	assert_int_equal(pm_table__set_range(t, r, 4, 1, 2), -EINVAL);
	pm_report__add_table(rep, t);
	check_report(rep, "text",
		     "Symbol     a  b    lo  ok\n"
		     "main       1  2  1.50  yes\n"
		     "[unknown]  -  -     -  -\n");
	check_report(rep, "csv",
		     "Symbol,a,b,lo,ok\nmain,1,2,1.50,yes\n[unknown],,,,\n");
	check_report(rep, "json",
		     "{\"rows\":[{\"sym\":\"main\",\"counts\":{\"a\":1,\"b\":2},"
		     "\"m\":{\"CPI\":{\"v\":1.5},\"IPC\":{\"ci\":[0.25,0.75]}},\"ok\":true},"
		     "{\"sym\":null,\"counts\":{\"a\":null},"
		     "\"m\":{\"CPI\":{\"v\":null},\"IPC\":{\"ci\":null}},\"ok\":null}]}\n");
	pm_report__delete(rep);
}

/* Two tables: the report's header, notes, captions, summaries, the JSON
 * array of tables, CSV stacked with the merge column, columns joined. */
static struct pm_report *two_tables(void)
{
	static const char *const names[] = { "x", "y" };
	struct pm_report *rep = pm_report__new();
	struct pm_table *a = pm_table__new(), *b = pm_table__new();

	pm_report__set_title(rep, "Report");
	pm_report__add_comment(rep, "%s", "");
	pm_summary__add_u64(pm_report__summary(rep), "lost", "Lost", 2);
	pm_summary__add_i64(pm_report__summary(rep), "delta", NULL, -3);
	pm_summary__add_double(pm_report__summary(rep), "ratio", NULL, 0.5);
	pm_summary__add_bool(pm_report__summary(rep), "ok", NULL, false);
	pm_summary__add_strs(pm_report__summary(rep), "names", NULL, names, 2);
	pm_report__add_note(rep, "2 tables");
	pm_report__add_warning(rep, "careful");
	pm_report__set_tables_key(rep, "parts");
	pm_report__set_merge_column(rep, &(struct pm_table_column){
		.name = "Part", .key = "part", .type = PM_COL_STRING }, false);
	pm_table__add_col(a, "n", NULL, PM_COL_U64);
	pm_table__set_u64(a, pm_table__add_row(a), 0, 1);
	pm_table__set_u64(a, pm_table__add_row(a), 0, 2);
	pm_table__set_caption(a, "first:");
	pm_summary__add_str(pm_table__summary(a), "part", NULL, "A");
	pm_table__add_col(b, "n", NULL, PM_COL_U64);
	pm_table__add_col(b, "extra", NULL, PM_COL_STRING);
	pm_table__set_u64(b, pm_table__add_row(b), 0, 3);
	pm_table__set_str(b, 0, 1, "e");
	pm_table__set_name(b, "items");
	pm_table__set_flags(b, PM_TABLE_PERF_HEADER);
	pm_summary__add_str(pm_table__summary(b), "part", NULL, "B");
	pm_report__add_table(rep, a);
	pm_report__add_table(rep, b);
	return rep;
}

static void test_report_layout(void **state)
{
	struct pm_report *rep = two_tables();
	struct pm_table *t;

	(void)state;
	assert_int_equal(pm_report__nr_warnings(rep), 1);
	assert_string_equal(pm_report__warning(rep, 0), "careful");
	assert_null(pm_report__warning(rep, 1));
	assert_int_equal(pm_summary__nr(pm_report__summary(rep)), 5);
	assert_int_equal(pm_table__flags(pm_report__table(rep, 1)), PM_TABLE_PERF_HEADER);
	assert_ptr_equal(pm_report__find_table(rep, "items"), pm_report__table(rep, 1));
	assert_null(pm_report__find_table(rep, "none"));
	check_report(rep, "text",
		     "# Report\n#\n# Lost: 2\n#\n2 tables\n\nfirst:\n"
		     "n\n1\n2\n\n# n  extra\n# .  .....\n#\n  3  e\n");
	check_report(rep, "json",
		     "{\"lost\":2,\"delta\":-3,\"ratio\":0.5,\"ok\":false,"
		     "\"names\":[\"x\",\"y\"],\"parts\":["
		     "{\"part\":\"A\",\"rows\":[{\"n\":1},{\"n\":2}]},"
		     "{\"part\":\"B\",\"items\":[{\"n\":3,\"extra\":\"e\"}]}]}\n");
	check_report(rep, "csv", "Part,n,extra\nA,1,\nA,2,\nB,3,e\n");
	t = pm_report__merged(rep);
	assert_int_equal(pm_table__nr_rows(t), 3);
	assert_string_equal(pm_table__get_str(t, 2, 0), "B");
	pm_table__delete(t);
	pm_report__truncate(rep, 1);
	check_report(rep, "tsv", "Part\tn\textra\nA\t1\t\nB\t3\te\n");
	pm_report__delete(rep);
}

/* Several merge columns, in the order added, each from its table's
 * summary item (null without one, or a null one); always: with one
 * table too; set replaces them. */
static void test_merge_columns(void **state)
{
	struct pm_report *rep = pm_report__new();
	struct pm_table *a = pm_table__new(), *b = pm_table__new();

	(void)state;
	pm_report__add_merge_column(rep, &(struct pm_table_column){
		.name = "Part", .key = "part", .type = PM_COL_STRING }, true);
	pm_report__add_merge_column(rep, &(struct pm_table_column){
		.name = "Level", .key = "level", .type = PM_COL_I64 }, false);
	check_report(rep, "csv", "Part,Level\n");	/* always: with no table */
	pm_table__add_col(a, "n", NULL, PM_COL_U64);
	pm_table__set_u64(a, pm_table__add_row(a), 0, 1);
	pm_summary__add_str(pm_table__summary(a), "part", NULL, "A");
	pm_summary__add_i64(pm_table__summary(a), "level", NULL, -2);
	pm_report__add_table(rep, a);
	check_report(rep, "csv", "Part,Level,n\nA,-2,1\n");
	pm_table__add_col(b, "n", NULL, PM_COL_U64);
	pm_table__set_u64(b, pm_table__add_row(b), 0, 2);
	pm_table__set_u64(b, pm_table__add_row(b), 0, 3);
	pm_summary__add_str(pm_table__summary(b), "part", NULL, NULL);
	pm_report__add_table(rep, b);
	check_report(rep, "tsv", "Part\tLevel\tn\nA\t-2\t1\n\t\t2\n\t\t3\n");
	pm_report__set_merge_column(rep, &(struct pm_table_column){
		.name = "Level", .key = "level", .type = PM_COL_I64 }, false);
	check_report(rep, "csv", "Level,n\n-2,1\n,2\n,3\n");
	pm_report__delete(rep);
}

/* A table left out of text and JSON when empty keeps its columns in CSV. */
static void test_omit_empty(void **state)
{
	struct pm_report *rep = pm_report__new();
	struct pm_table *t = pm_table__new();
	struct pm_strbuf sb = PM_STRBUF_INIT;

	(void)state;
	pm_table__add_col(t, "n", NULL, PM_COL_U64);
	pm_table__set_flags(t, PM_TABLE_OMIT_EMPTY);
	pm_table__set_caption(t, "never shown");
	pm_summary__add_str(pm_report__summary(rep), "what", "What", NULL);
	assert_int_equal(pm_summary__text(pm_report__summary(rep), "what", &sb), 0);
	assert_string_equal(pm_strbuf__str(&sb), "-");
	assert_int_equal(pm_summary__text(pm_report__summary(rep), "no", &sb), -ENOENT);
	pm_strbuf__release(&sb);
	pm_report__add_note(rep, "nothing");
	pm_report__set_tables_key(rep, "tables");
	pm_report__add_table(rep, t);
	check_report(rep, "text", "# What: -\n#\nnothing\n");
	check_report(rep, "json", "{\"what\":null,\"tables\":[]}\n");
	check_report(rep, "csv", "n\n");
	pm_report__delete(rep);
}

/* The CLI's --format gives the renderer of that name, for every one. */
static void test_cli_formats(void **state)
{
	const struct pm_renderer *got, *r;
	struct pm_option opt = { .long_name = "format", .value = &got };
	size_t i;

	(void)state;
	for (i = 0; (r = pm_renderer__at(i)); i++) {
		got = NULL;
		assert_int_equal(pm_cli_format_cb(&opt, r->name), 0);
		assert_ptr_equal(got, r);
	}
	assert_int_equal(i, 7);
	assert_int_equal(pm_cli_format_cb(&opt, "text"), 0);
	assert_ptr_equal(got, pm_renderer__find("table"));
	assert_int_equal(pm_cli_format_cb(&opt, "xml"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_text_no_header),
		cmocka_unit_test(test_text_perf_style),
		cmocka_unit_test(test_text_types_units_align),
		cmocka_unit_test(test_digits),
		cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_tsv_escaping),
		cmocka_unit_test(test_text_escaping),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_embedded),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_sort_stable),
		cmocka_unit_test(test_sort_strings_utf8),
		cmocka_unit_test(test_api_errors),
		cmocka_unit_test(test_cli_formats),
		cmocka_unit_test(test_trees),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_column_kinds),
		cmocka_unit_test(test_report_layout),
		cmocka_unit_test(test_merge_columns),
		cmocka_unit_test(test_omit_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
