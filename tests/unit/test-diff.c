// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof diff's analysis (lib/analysis/diff*.c) on reports built by hand:
 * every expected share, delta, ratio and z below is worked out in the
 * comments from the counts, not taken from the code.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmprof/diff.h"
#include "pmprof/error.h"
#include "pmprof/report.h"
#include "pmprof/table.h"

/* A report of one ranked table: Symbol (the key) and samples, a stacks
 * table with the same rows as one-frame stacks. */
static struct pm_report *report_of(const char *const *syms, const uint64_t *n,
				   size_t nr)
{
	struct pm_report *rep = pm_report__new();
	struct pm_table *t = pm_table__new(), *st = pm_table__new();
	uint64_t total = 0;

	pm_table__add_column(t, &(struct pm_table_column){
		.name = "Symbol", .key = "symbol", .type = PM_COL_STRING,
		.flags = PM_COLF_KEY });
	pm_table__add_col(t, "Samples", "samples", PM_COL_U64);
	pm_table__set_name(st, "stacks");
	pm_table__set_flags(st, PM_TABLE_WHOLE);
	pm_table__add_col(st, "Stack", "stack", PM_COL_STRING);
	pm_table__add_col(st, "Samples", "samples", PM_COL_U64);
	pm_table__add_col(st, "Period", "period", PM_COL_U64);
	for (size_t i = 0; i < nr; i++) {
		size_t r = pm_table__add_row(t);

		pm_table__set_str(t, r, 0, syms[i]);
		pm_table__set_u64(t, r, 1, n[i]);
		r = pm_table__add_row(st);
		pm_table__set_strf(st, r, 0, "main;%s", syms[i]);
		pm_table__set_u64(st, r, 1, n[i]);
		pm_table__set_u64(st, r, 2, 10 * n[i]);
		total += n[i];
	}
	pm_summary__add_u64(pm_table__summary(t), "samples", NULL, total);
	pm_report__add_table(rep, t);
	pm_report__add_table(rep, st);
	return rep;
}

static char *rendered(const struct pm_report *rep, const char *format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(pm_report__render(rep, f, pm_renderer__find(format), NULL), 0);
	fclose(f);
	return buf;
}

static int row_of(const struct pm_table *t, const char *sym)
{
	for (size_t r = 0; r < pm_table__nr_rows(t); r++)
		if (!strcmp(pm_table__get_str(t, r, 0), sym))
			return (int)r;
	return -1;
}

static double cell(const struct pm_table *t, const char *sym, const char *col)
{
	int r = row_of(t, sym), c = pm_table__find_column(t, col);

	assert_true(r >= 0 && c >= 0);
	return pm_table__get_double(t, (size_t)r, (size_t)c);
}

/*
 * base: A 100, B 900 of 1000; new: A 300, C 700 of 1000.
 * A: 10% -> 30%, delta 20, ratio 3; pooled p = 400/2000 = 0.2,
 *    se = sqrt(0.2 * 0.8 * (1/1000 + 1/1000)) = 0.0178885,
 *    z = 0.2 / 0.0178885 = 11.1803.
 * B: 90% -> none: delta -90; p = 900/2000 = 0.45,
 *    se = sqrt(0.45 * 0.55 * 0.002) = 0.0222486, z = -0.9 / se = -40.452.
 * C: none -> 70%: delta 70.
 * Order: the greatest change first: B, C, A.
 */
static void test_shares(void **state)
{
	static const char *const bs[] = { "A", "B" }, *const ns[] = { "A", "C" };
	static const uint64_t bn[] = { 100, 900 }, nn[] = { 300, 700 };
	struct pm_report *b = report_of(bs, bn, 2), *n = report_of(ns, nn, 2), *d;
	struct pm_diff_opts o = { .sz = sizeof(o), .compute = PM_DIFF_DELTA | PM_DIFF_RATIO,
				  .confidence = 0.95 };
	struct pm_error err = { 0 };
	const struct pm_table *t;
	char *json;

	(void)state;
	assert_int_equal(pm_diff__reports(b, n, &o, &d, &err), 0);
	t = pm_report__find_table(d, "functions");
	assert_non_null(t);
	assert_int_equal(pm_table__nr_rows(t), 3);
	assert_string_equal(pm_table__get_str(t, 0, 0), "B");
	assert_string_equal(pm_table__get_str(t, 1, 0), "C");
	assert_string_equal(pm_table__get_str(t, 2, 0), "A");
	assert_true(fabs(cell(t, "A", "baseline") - 10) < 1e-9);
	assert_true(fabs(cell(t, "A", "new") - 30) < 1e-9);
	assert_true(fabs(cell(t, "A", "delta") - 20) < 1e-9);
	assert_true(fabs(cell(t, "A", "ratio") - 3) < 1e-9);
	assert_true(fabs(cell(t, "A", "z") - 11.1803) < 1e-3);
	assert_true(fabs(cell(t, "B", "z") + 40.452) < 1e-2);
	assert_true(fabs(cell(t, "B", "delta") + 90) < 1e-9);
	assert_true(fabs(cell(t, "C", "delta") - 70) < 1e-9);
	/* no ratio where a side has none */
	assert_true(pm_table__is_null(t, (size_t)row_of(t, "C"),
				      (size_t)pm_table__find_column(t, "ratio")));
	assert_true(pm_table__is_null(t, (size_t)row_of(t, "B"),
				      (size_t)pm_table__find_column(t, "new")));
	json = rendered(d, "json");
	/* A's |z| 11.2 > 1.96: the first "true" is in A's row, the last one */
	assert_non_null(strstr(strstr(json, "\"symbol\":\"A\""), "\"significant\":true"));
	free(json);
	pm_report__delete(d);
	pm_report__delete(b);
	pm_report__delete(n);
}

/* The same counts either side: z 0, nothing significant. */
static void test_no_change(void **state)
{
	static const char *const s[] = { "A", "B" };
	static const uint64_t c[] = { 100, 900 };
	struct pm_report *b = report_of(s, c, 2), *n = report_of(s, c, 2), *d;
	struct pm_diff_opts o = { .sz = sizeof(o) };
	struct pm_error err = { 0 };
	const struct pm_table *t;
	char *json;

	(void)state;
	assert_int_equal(pm_diff__reports(b, n, &o, &d, &err), 0);
	t = pm_report__find_table(d, "functions");
	for (size_t r = 0; r < pm_table__nr_rows(t); r++)
		assert_true(fabs(pm_table__get_double(t, r, (size_t)pm_table__find_column(t, "z"))) < 1e-12);
	json = rendered(d, "json");
	assert_non_null(strstr(json, "\"significant\":false"));
	assert_null(strstr(json, "\"significant\":true"));
	free(json);
	pm_report__delete(d);
	pm_report__delete(b);
	pm_report__delete(n);
}

/* The stacks side by side: FlameGraph's difffolded lines, in byte order. */
static void test_folded(void **state)
{
	static const char *const bs[] = { "A", "B" }, *const ns[] = { "A", "C" };
	static const uint64_t bn[] = { 100, 900 }, nn[] = { 300, 700 };
	struct pm_report *b = report_of(bs, bn, 2), *n = report_of(ns, nn, 2), *d;
	struct pm_diff_opts o = { .sz = sizeof(o), .weight = "period" };
	struct pm_error err = { 0 };
	char *buf;

	(void)state;
	assert_int_equal(pm_diff__reports(b, n, &o, &d, &err), 0);
	buf = rendered(d, "folded");
	assert_string_equal(buf, "main;A 1000 3000\nmain;B 9000 0\nmain;C 0 7000\n");
	free(buf);
	pm_report__delete(d);
	o.weight = "cycles";
	assert_int_not_equal(pm_diff__reports(b, n, &o, &d, &err), 0);
	assert_non_null(strstr(err.msg, "cycles"));
	pm_report__delete(b);
	pm_report__delete(n);
}

/* 1.959964 and 3.890592: the normal quantiles of 0.975 and 0.99995. */
static void test_quantiles_and_compute(void **state)
{
	struct pm_diff_opts o = { .sz = sizeof(o) };
	struct pm_error err = { 0 };

	(void)state;
	assert_true(fabs(pm_diff__z_critical(0.95) - 1.959964) < 1e-5);
	assert_true(fabs(pm_diff__z_critical(0.9999) - 3.890592) < 1e-5);
	assert_int_equal(pm_diff_compute__parse("delta,ratio", &o, &err), 0);
	assert_int_equal(o.compute, PM_DIFF_DELTA | PM_DIFF_RATIO);
	assert_int_equal(pm_diff_compute__parse("wdiff:2,3,delta", &o, &err), 0);
	assert_int_equal(o.compute, PM_DIFF_WDIFF | PM_DIFF_DELTA);
	assert_int_equal(o.w_base, 2);
	assert_int_equal(o.w_new, 3);
	assert_int_not_equal(pm_diff_compute__parse("delta,bogus", &o, &err), 0);
	assert_int_not_equal(pm_diff_compute__parse("wdiff:2", &o, &err), 0);
	assert_int_not_equal(pm_diff_compute__parse("", &o, &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_no_change),
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_quantiles_and_compute),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
