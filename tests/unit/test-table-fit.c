// SPDX-License-Identifier: GPL-2.0
/*
 * Tables that fit (pmprof/table-fit.h): marks, --columns, the fit to a
 * width. The expected text is written by hand from the rules (widths in
 * characters, two spaces between columns, "…" one character), not
 * captured from the code.
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

#include "pmprof/report.h"
#include "pmprof/table.h"
#include "pmprof/table-fit.h"

/* The table alone, or the report when t is NULL, in format f. */
static void check_either(const struct pm_table *t, const struct pm_report *rep,
			 const char *f, const char *want)
{
	char *got = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&got, &len);

	assert_non_null(out);
	assert_int_equal(t ? pm_table__render(t, out, pm_renderer__find(f), NULL)
			   : pm_report__render(rep, out, pm_renderer__find(f), NULL), 0);
	fclose(out);
	if (strcmp(got, want))
		fail_msg("got:\n%s\nwant:\n%s", got, want);
	free(got);
}

static void check(const struct pm_table *t, const char *f, const char *want)
{
	check_either(t, NULL, f, want);
}

static void check_report(const struct pm_report *rep, const char *f, const char *want)
{
	check_either(NULL, rep, f, want);
}

/* Symbol, CPI, ±CPI (key CPI:ci), BMKI: a metrics table in small. */
static struct pm_table *metrics_table(void)
{
	struct pm_table *t = pm_table__new();
	struct pm_table_column ci = { .name = "±CPI", .key = "CPI:ci", .type = PM_COL_DOUBLE };

	pm_table__add_col(t, "Symbol", "symbol", PM_COL_STRING);
	pm_table__add_col(t, "CPI", NULL, PM_COL_DOUBLE);
	pm_table__add_column(t, &ci);
	pm_table__add_col(t, "BMKI", NULL, PM_COL_DOUBLE);
	pm_table__add_row(t);
	pm_table__set_str(t, 0, 0, "std::vector<int>::push_back");
	pm_table__set_double(t, 0, 1, 1.5);
	pm_table__set_double(t, 0, 2, 0.25);
	pm_table__set_double(t, 0, 3, 12);
	pm_table__add_row(t);
	pm_table__set_str(t, 1, 0, "main");
	pm_table__set_double(t, 1, 1, 20);
	pm_table__set_double(t, 1, 2, 3);
	return t;
}

static void test_marks(void **state)
{
	struct pm_table *t = metrics_table();

	(void)state;
	/* a value only; a mark, then the other cells padded to align */
	assert_int_equal(pm_table__set_mark(t, 1, 3, '?'), -EINVAL);
	assert_int_equal(pm_table__set_mark(t, 9, 1, '?'), -EINVAL);
	assert_int_equal(pm_table__set_mark(t, 1, 1, '?'), 0);
	check(t, "table",
	      "Symbol                          CPI  ±CPI   BMKI\n"
	      "std::vector<int>::push_back   1.50   0.25  12.00\n"
	      "main                         20.00?  3.00      -\n");
	/* only text shows it */
	check(t, "csv",
	      "Symbol,CPI,±CPI,BMKI\n"
	      "std::vector<int>::push_back,1.50,0.25,12.00\n"
	      "main,20.00,3.00,\n");
	assert_int_equal(pm_table__text_width(t), 48);	/* 27 + 6 + 4 + 5 + 3 x 2 */
	/* setting the value again clears it */
	pm_table__set_double(t, 1, 1, 2);
	check(t, "table",
	      "Symbol                        CPI  ±CPI   BMKI\n"
	      "std::vector<int>::push_back  1.50  0.25  12.00\n"
	      "main                         2.00  3.00      -\n");
	pm_table__delete(t);
}

static void test_keep_columns(void **state)
{
	struct pm_table *t = metrics_table();
	struct pm_error err = { 0 };

	(void)state;
	/* any case; the interval goes with its metric */
	assert_int_equal(pm_table__keep_columns(t, 1, "cpi", &err), 0);
	check(t, "csv",
	      "Symbol,CPI,±CPI\n"
	      "std::vector<int>::push_back,1.50,0.25\n"
	      "main,20.00,3.00\n");
	pm_table__delete(t);

	t = metrics_table();
	assert_int_equal(pm_table__keep_columns(t, 1, "BMKI,,", &err), 0);
	assert_int_equal(pm_table__nr_columns(t), 2);
	assert_string_equal(pm_table__column(t, 1)->name, "BMKI");
	pm_table__delete(t);

	t = metrics_table();
	assert_int_equal(pm_table__keep_columns(t, 1, "CPI,IPC", &err), -PM_EUSAGE);
	assert_string_equal(err.msg, "no column 'IPC' here; the columns are: "
			    "Symbol, CPI, BMKI");
	assert_int_equal(pm_table__nr_columns(t), 4);	/* untouched */
	pm_table__delete(t);
}

static void test_fit_cuts_the_symbol(void **state)
{
	struct pm_table *t = metrics_table();
	struct pm_table_fit f = { .width = 40, .elastic = 0, .min_elastic = 10, .fixed = 1 };
	struct pm_strbuf gone = PM_STRBUF_INIT;

	(void)state;
	/* 27 + 2 + 5 + 2 + 4 + 2 + 5 = 47: the symbol gives 7 */
	assert_int_equal(pm_table__fit(t, &f, &gone), 0);
	check(t, "table",
	      "Symbol                  CPI  ±CPI   BMKI\n"
	      "std::vector<int>::p…   1.50  0.25  12.00\n"
	      "main                  20.00  3.00      -\n");
	assert_int_equal(pm_table__text_width(t), 40);
	assert_string_equal(pm_strbuf__str(&gone), "");
	pm_strbuf__release(&gone);
	pm_table__delete(t);
}

static void test_fit_leaves_out(void **state)
{
	struct pm_table *t = metrics_table();
	struct pm_table_fit f = { .width = 30, .elastic = 0, .min_elastic = 10, .fixed = 1 };
	struct pm_strbuf gone = PM_STRBUF_INIT;

	(void)state;
	/*
	 * At 10 the symbol leaves 10 + 2 + 5 + 2 + 4 + 2 + 5 = 30 - no
	 * column need go, but the symbol is no wider. At 25 BMKI goes
	 * (10 + 2 + 5 + 2 + 4 = 23), and the symbol takes the 2 left.
	 */
	assert_int_equal(pm_table__fit(t, &f, &gone), 0);
	check(t, "table",
	      "Symbol        CPI  ±CPI   BMKI\n"
	      "std::vect…   1.50  0.25  12.00\n"
	      "main        20.00  3.00      -\n");
	pm_table__delete(t);

	t = metrics_table();
	f.width = 25;
	assert_int_equal(pm_table__fit(t, &f, &gone), 1);
	assert_string_equal(pm_strbuf__str(&gone), "BMKI");
	check(t, "table",
	      "Symbol          CPI  ±CPI\n"
	      "std::vector…   1.50  0.25\n"
	      "main          20.00  3.00\n");
	pm_table__delete(t);

	/* at 20 CPI goes with its interval; the symbol takes the room left */
	t = metrics_table();
	f.width = 20;
	pm_strbuf__reset(&gone);
	assert_int_equal(pm_table__fit(t, &f, &gone), 3);
	assert_string_equal(pm_strbuf__str(&gone), "CPI, ±CPI, BMKI");
	check(t, "table",
	      "Symbol\n"
	      "std::vector<int>::p…\n"
	      "main\n");
	pm_strbuf__release(&gone);
	pm_table__delete(t);
}

static void test_fit_utf8_and_escapes(void **state)
{
	struct pm_table *t = pm_table__new();
	struct pm_table_fit f = { .width = 8, .elastic = 0, .min_elastic = 4 };

	(void)state;
	pm_table__add_col(t, "Name", NULL, PM_COL_STRING);
	pm_table__add_row(t);
	pm_table__set_str(t, 0, 0, "ééééééééé");	/* 9 characters */
	pm_table__add_row(t);
	pm_table__set_str(t, 1, 0, "a\tbcdefghij");	/* "a\\tbc..." is 12 */
	assert_int_equal(pm_table__text_width(t), 12);
	assert_int_equal(pm_table__fit(t, &f, NULL), 0);
	check(t, "table",
	      "Name\n"
	      "ééééééé…\n"
	      "a\\tbcde…\n");
	assert_int_equal(pm_table__text_width(t), 8);
	pm_table__delete(t);
}

static void test_remove_column(void **state)
{
	struct pm_table *t = metrics_table();

	(void)state;
	pm_table__remove_column(t, 0);
	pm_table__remove_column(t, 9);	/* none: nothing */
	check(t, "csv",
	      "CPI,±CPI,BMKI\n"
	      "1.50,0.25,12.00\n"
	      "20.00,3.00,\n");
	assert_int_equal(pm_table__find_column(t, "BMKI"), 2);
	pm_table__delete(t);
}

/*
 * A comparison's columns: a JSON-only dso first, then per metric its
 * JSON subgroup - measured, truth, a table-only err and a JSON-only
 * error.
 */
static void sub_col(struct pm_table *t, const char *sub, const char *name,
		    const char *key, unsigned int show)
{
	pm_table__add_column(t, &(struct pm_table_column){
		.name = name, .key = key, .type = PM_COL_DOUBLE, .show = show,
		.group = "metrics", .subgroup = sub });
}

static struct pm_table *compare_table(void)
{
	struct pm_table *t = pm_table__new();
	static const double v[] = { 1.5, 1.4, 7.14, 7.14, 2, 2.5, -20, -20 };

	pm_table__add_column(t, &(struct pm_table_column){
		.name = "dso", .type = PM_COL_STRING, .show = PM_SHOW_JSON });
	pm_table__add_col(t, "Symbol", "symbol", PM_COL_STRING);
	sub_col(t, "CPI", "CPI", "measured", 0);
	sub_col(t, "CPI", "true CPI", "truth", 0);
	sub_col(t, "CPI", "err", "err", PM_SHOW_TABLE);
	sub_col(t, "CPI", "error", "error", PM_SHOW_JSON);
	sub_col(t, "BMKI", "BMKI", "measured", 0);
	sub_col(t, "BMKI", "true BMKI", "truth", 0);
	sub_col(t, "BMKI", "err", "err", PM_SHOW_TABLE);
	sub_col(t, "BMKI", "error", "error", PM_SHOW_JSON);
	pm_table__add_row(t);
	pm_table__set_str(t, 0, 0, "prog");
	pm_table__set_str(t, 0, 1, "main");
	for (size_t i = 0; i < 8; i++)
		pm_table__set_double(t, 0, 2 + i, v[i]);
	return t;
}

static void test_subgroups_and_json_columns(void **state)
{
	struct pm_table *t = compare_table();
	struct pm_table_fit f = { .width = 40, .elastic = -1, .fixed = 1 };
	struct pm_strbuf gone = PM_STRBUF_INIT;
	struct pm_error err = { 0 };

	(void)state;
	/* 6 + 4 + 8 + 4 + 4 + 9 + 6 and 6 x 2 between: dso and error not shown */
	assert_int_equal(pm_table__text_width(t), 53);
	/* the fixed column counts among the shown ones: Symbol, not dso; the
	 * truth and the err go with their metric, the JSON columns stay */
	assert_int_equal(pm_table__keep_columns(t, 1, "cpi", &err), 0);
	check(t, "csv", "Symbol,CPI,true CPI,err\nmain,1.50,1.40,7.14\n");
	assert_int_equal(pm_table__nr_columns(t), 7);
	pm_table__delete(t);

	/* the names offered are those text shows, one per metric */
	t = compare_table();
	assert_int_equal(pm_table__keep_columns(t, 1, "dso", &err), -PM_EUSAGE);
	assert_string_equal(err.msg, "no column 'dso' here; the columns are: Symbol, CPI, BMKI");
	pm_table__delete(t);

	/* BMKI leaves with its truth and err (4 + 9 + 6 and 3 x 2: 53 - 25) */
	t = compare_table();
	assert_int_equal(pm_table__fit(t, &f, &gone), 3);
	assert_string_equal(pm_strbuf__str(&gone), "BMKI, true BMKI, err");
	check(t, "table",
	      "Symbol   CPI  true CPI   err\n"
	      "main    1.50      1.40  7.14\n");
	assert_int_equal(pm_table__text_width(t), 28);
	pm_strbuf__release(&gone);
	pm_table__delete(t);
}

/* A row's tree shares the table's columns: a column taken out goes from
 * its nodes too. */
static void test_remove_column_with_tree(void **state)
{
	struct pm_table *t = metrics_table(), *kids = pm_table__children(t, 1);
	size_t r = pm_table__add_row(kids);

	(void)state;
	pm_table__set_str(kids, r, 0, "leaf");
	pm_table__set_double(kids, r, 1, 4);
	pm_table__set_double(kids, r, 2, 0.5);
	pm_table__set_double(kids, r, 3, 7);
	pm_table__remove_column(t, 1);
	check(t, "csv",
	      "depth,Symbol,±CPI,BMKI\n"
	      "0,std::vector<int>::push_back,0.25,12.00\n"
	      "0,main,3.00,\n"
	      "1,leaf,0.50,7.00\n");
	pm_table__delete(t);
}

/* A table of facts about the report: JSON shows it, --top keeps it. */
static void test_json_only_table(void **state)
{
	struct pm_report *rep = pm_report__new();
	struct pm_table *t = pm_table__new(), *g = pm_table__new();

	(void)state;
	pm_table__set_name(t, "functions");
	pm_table__add_col(t, "Symbol", "symbol", PM_COL_STRING);
	pm_table__add_col(t, "#", "samples", PM_COL_U64);
	pm_table__add_row(t);
	pm_table__set_str(t, 0, 0, "main");
	pm_table__set_u64(t, 0, 1, 5);
	pm_table__add_row(t);
	pm_table__set_str(t, 1, 0, "f");
	pm_table__set_u64(t, 1, 1, 3);
	pm_table__set_name(g, "groups");
	pm_table__set_flags(g, PM_TABLE_JSON_ONLY);
	pm_table__add_col(g, "leader", NULL, PM_COL_STRING);
	pm_table__add_col(g, "events", NULL, PM_COL_U64);
	pm_table__add_row(g);
	pm_table__set_str(g, 0, 0, "cycles");
	pm_table__set_u64(g, 0, 1, 2);
	pm_table__add_row(g);
	pm_table__set_str(g, 1, 0, "slots");
	pm_table__set_u64(g, 1, 1, 4);
	pm_report__add_table(rep, t);
	pm_report__add_table(rep, g);

	check_report(rep, "table", "Symbol  #\nmain    5\nf       3\n");
	check_report(rep, "csv", "Symbol,#\nmain,5\nf,3\n");
	check_report(rep, "tsv", "Symbol\t#\nmain\t5\nf\t3\n");
	check_report(rep, "json",
		     "{\"functions\":[{\"symbol\":\"main\",\"samples\":5},{\"symbol\":\"f\",\"samples\":3}],"
		     "\"groups\":[{\"leader\":\"cycles\",\"events\":2},{\"leader\":\"slots\",\"events\":4}]}\n");
	pm_report__truncate(rep, 1);
	assert_int_equal(pm_table__nr_rows(t), 1);
	assert_int_equal(pm_table__nr_rows(g), 2);
	pm_report__delete(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_keep_columns),
		cmocka_unit_test(test_fit_cuts_the_symbol),
		cmocka_unit_test(test_fit_leaves_out),
		cmocka_unit_test(test_fit_utf8_and_escapes),
		cmocka_unit_test(test_remove_column),
		cmocka_unit_test(test_subgroups_and_json_columns),
		cmocka_unit_test(test_json_only_table),
		cmocka_unit_test(test_remove_column_with_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
