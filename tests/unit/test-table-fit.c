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

#include "pmprof/table.h"
#include "pmprof/table-fit.h"

static char *render(const struct pm_table *t, enum pm_table_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(pm_table__render(t, out, f, NULL), 0);
	fclose(out);
	return buf;
}

static void check(const struct pm_table *t, enum pm_table_format f, const char *want)
{
	char *got = render(t, f);

	if (strcmp(got, want))
		fail_msg("got:\n%s\nwant:\n%s", got, want);
	free(got);
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
	check(t, PM_TABLE_TEXT,
	      "Symbol                          CPI  ±CPI   BMKI\n"
	      "std::vector<int>::push_back   1.50   0.25  12.00\n"
	      "main                         20.00?  3.00      -\n");
	/* only text shows it */
	check(t, PM_TABLE_CSV,
	      "Symbol,CPI,±CPI,BMKI\n"
	      "std::vector<int>::push_back,1.50,0.25,12.00\n"
	      "main,20.00,3.00,\n");
	assert_int_equal(pm_table__text_width(t), 48);	/* 27 + 6 + 4 + 5 + 3 x 2 */
	/* setting the value again clears it */
	pm_table__set_double(t, 1, 1, 2);
	check(t, PM_TABLE_TEXT,
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
	check(t, PM_TABLE_CSV,
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
	assert_string_equal(err.msg, "--columns: no column 'IPC' here; the columns are: "
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
	check(t, PM_TABLE_TEXT,
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
	check(t, PM_TABLE_TEXT,
	      "Symbol        CPI  ±CPI   BMKI\n"
	      "std::vect…   1.50  0.25  12.00\n"
	      "main        20.00  3.00      -\n");
	pm_table__delete(t);

	t = metrics_table();
	f.width = 25;
	assert_int_equal(pm_table__fit(t, &f, &gone), 1);
	assert_string_equal(pm_strbuf__str(&gone), "BMKI");
	check(t, PM_TABLE_TEXT,
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
	check(t, PM_TABLE_TEXT,
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
	check(t, PM_TABLE_TEXT,
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
	check(t, PM_TABLE_CSV,
	      "CPI,±CPI,BMKI\n"
	      "1.50,0.25,12.00\n"
	      "20.00,3.00,\n");
	assert_int_equal(pm_table__find_column(t, "BMKI"), 2);
	pm_table__delete(t);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
