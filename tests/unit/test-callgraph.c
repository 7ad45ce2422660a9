// SPDX-License-Identifier: GPL-2.0
/*
 * Call-graph trees: perf's -g words, frames merged by perf's function
 * key, children sorted and pruned per mode, and the paths a sample gives
 * each row in caller and callee order, with and without --children. The
 * expected trees are written out by hand from the chains fed in.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmprof/callgraph.h"
#include "pmprof/error.h"
#include "pmprof/report.h"
#include "pmprof/table.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

/* Symbols of one DSO: a (0x100), b (0x200), c (0x300), d (0x400). */
static struct pm_symbol syms[4] = {
	{ .start = 0x100, .end = 0x200, .name = "a" },
	{ .start = 0x200, .end = 0x300, .name = "b" },
	{ .start = 0x300, .end = 0x400, .name = "c" },
	{ .start = 0x400, .end = 0x500, .name = "d" },
};
static struct pm_map the_map;
static struct pm_dso *const the_dso = (struct pm_dso *)&the_map;

static struct pm_addr_loc loc(char name, uint64_t off)
{
	struct pm_addr_loc l = { .level = '.', .map = &the_map, .dso = the_dso };

	if (name == '?') {	/* unresolved: by address */
		l.ip = 0x9000 + off;
		return l;
	}
	l.sym = &syms[name - 'a'];
	l.ip = l.sym->start + off;
	l.addr = l.ip;
	return l;
}

/* "a(2)[b(1)]": each node's name, samples through it, then its children;
 * a '*' after the count marks one with paths ending there. */
static void dump(const struct pm_cg_node *n, struct pm_strbuf *sb)
{
	for (size_t i = 0; i < n->nr_kids; i++) {
		const struct pm_cg_node *k = n->kids[i];

		if (i)
			pm_strbuf__addc(sb, ' ');
		if (k->frame.sym)
			pm_strbuf__adds(sb, k->frame.sym->name);
		else
			pm_strbuf__addf(sb, "%#" PRIx64, k->frame.ip);
		pm_strbuf__addf(sb, "(%" PRIu64 "%s)", k->samples,
				k->self_samples ? "*" : "");
		if (k->nr_kids) {
			pm_strbuf__addc(sb, '[');
			dump(k, sb);
			pm_strbuf__addc(sb, ']');
		}
	}
}

static void assert_tree(const struct pm_cg_node *root, const char *want)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;

	dump(root, &sb);
	assert_string_equal(pm_strbuf__str(&sb), want);
	pm_strbuf__release(&sb);
}

static void test_parse(void **state)
{
	struct pm_cg_opts o;
	struct pm_error err = { 0 };

	(void)state;
	pm_cg_opts__init(&o);
	assert_int_equal(o.mode, PM_CG_GRAPH);
	assert_int_equal(o.order, PM_CG_CALLEE);
	assert_true(o.threshold == 0.5);
	assert_int_equal(pm_cg_opts__parse(&o, "fractal,2.5,10,caller,function,count", &err), 0);
	assert_int_equal(o.mode, PM_CG_FRACTAL);
	assert_int_equal(o.order, PM_CG_CALLER);
	assert_true(o.order_set && o.threshold_set);
	assert_true(o.threshold == 2.5);
	assert_int_equal(o.print_limit, 10);
	assert_int_equal(o.value, PM_CG_COUNT);
	assert_int_equal(pm_cg_opts__parse(&o, "callee", &err), 0);
	assert_int_equal(o.order, PM_CG_CALLEE);
	assert_int_equal(o.mode, PM_CG_FRACTAL);	/* kept */
	assert_int_equal(pm_cg_opts__parse(&o, "folded", &err), 0);
	assert_int_equal(o.mode, PM_CG_FOLDED);
	assert_int_equal(pm_cg_opts__parse(&o, "none", &err), 0);
	assert_int_equal(o.mode, PM_CG_NONE);
	assert_int_equal(pm_cg_opts__parse(&o, "graph,period", &err), 0);
	assert_int_equal(o.value, PM_CG_PERIOD);
	assert_int_equal(pm_cg_opts__parse(&o, "grpah", &err), -PM_EUSAGE);
	assert_non_null(strstr(err.msg, "'grpah'"));
	assert_int_equal(pm_cg_opts__parse(&o, "graph,address", &err), -PM_EUSAGE);
	assert_non_null(strstr(err.msg, "not supported"));
	assert_int_equal(pm_cg_opts__parse(&o, "101", &err), -PM_EUSAGE);
	assert_int_equal(pm_cg_opts__parse(&o, "1,2,3", &err), -PM_EUSAGE);
}

static void add_path(struct pm_cg_node *root, const char *names, uint64_t period)
{
	static uint64_t calls;
	struct pm_cg_frame f[16];
	size_t n = 0;

	calls++;
	for (const char *p = names; *p; p++) {
		/* resolved frames at a different address each time */
		struct pm_addr_loc l = loc(*p, *p == '?' ? (uint64_t)(p - names) : calls);

		pm_cg_frame__from_loc(&f[n++], &l);
	}
	pm_cg__add(root, f, n, period);
}

static void test_merge_and_sort(void **state)
{
	struct pm_cg_node *root = pm_cg__new();
	struct pm_cg_opts o;

	(void)state;
	pm_cg_opts__init(&o);
	o.threshold = 0;
	/* the same function at different addresses is one node */
	add_path(root, "abc", 10);
	add_path(root, "abd", 10);
	add_path(root, "abd", 10);
	add_path(root, "ab", 10);
	add_path(root, "c", 10);
	/* unresolved frames: one node per address */
	add_path(root, "??", 10);
	pm_cg__finish(root, &o, 60);
	assert_int_equal(root->period, 60);
	assert_int_equal(root->samples, 6);
	/* equal periods in perf's order, not the order they came in: the
	 * greater key first (a function and an unresolved frame: by address,
	 * c's 0x305 below 0x9000) */
	assert_tree(root, "a(4)[b(4*)[d(2*) c(1*)]] 0x9000(1)[0x9001(1*)] c(1*)");
	pm_cg__delete(root);
}

static void test_prune(void **state)
{
	struct pm_cg_node *root = pm_cg__new();
	struct pm_cg_opts o;

	(void)state;
	pm_cg_opts__init(&o);
	/* graph: children under 10% of the event's 100 go */
	o.threshold = 10;
	add_path(root, "ab", 80);
	add_path(root, "ac", 9);
	add_path(root, "d", 11);
	pm_cg__finish(root, &o, 100);
	assert_tree(root, "a(2)[b(1*)] d(1*)");
	pm_cg__delete(root);

	/* fractal: children under 10% of their parent's children go */
	root = pm_cg__new();
	o.mode = PM_CG_FRACTAL;
	add_path(root, "ab", 10);
	add_path(root, "ac", 1);
	add_path(root, "d", 1000);
	pm_cg__finish(root, &o, 1011);
	/* a's children: 11; c's 1 < ceil(1.1); a (11) >= ceil(101.1)? no */
	assert_tree(root, "d(1*)");
	pm_cg__delete(root);

	root = pm_cg__new();
	add_path(root, "ab", 10);
	add_path(root, "ac", 1);
	add_path(root, "d", 50);
	pm_cg__finish(root, &o, 61);
	assert_tree(root, "d(1*) a(2)[b(1*)]");
	pm_cg__delete(root);

	/* flat: nothing pruned, chains chosen by their self period */
	root = pm_cg__new();
	o.mode = PM_CG_FLAT;
	add_path(root, "ab", 10);
	add_path(root, "ac", 1);
	pm_cg__finish(root, &o, 11);
	/* in key order (c's start above b's), as perf walks them */
	assert_tree(root, "a(2)[c(1*) b(1*)]");
	assert_int_equal(root->min_self, 1);	/* 10% of 11 */
	pm_cg__delete(root);
}

/* A row per symbol name; sample chains callee first ("dcba": d sampled,
 * called by c, ... a the outermost). */
struct rows {
	struct pm_cg_node *tree[4];
	const struct pm_addr_loc *chain;
};

static void *row_of(void *arg, size_t i)
{
	struct rows *r = arg;

	return &r->tree[r->chain[i].sym - syms];
}

static struct pm_cg_node *tree_of(void *arg, void *row)
{
	(void)arg;
	if (!*(struct pm_cg_node **)row)
		*(struct pm_cg_node **)row = pm_cg__new();
	return *(struct pm_cg_node **)row;
}

static void feed(struct rows *r, const char *callee_first, enum pm_cg_order order,
		 bool children)
{
	struct pm_addr_loc chain[16];
	size_t n = strlen(callee_first);

	for (size_t i = 0; i < n; i++)
		chain[i] = loc(callee_first[i], i);
	r->chain = chain;
	pm_callgraph__add_sample(chain, n, order, children, 100, row_of(r, 0),
				 row_of, tree_of, r);
}

static void finish_rows(struct rows *r)
{
	struct pm_cg_opts o;

	pm_cg_opts__init(&o);
	o.threshold = 0;
	for (int i = 0; i < 4; i++)
		if (r->tree[i])
			pm_cg__finish(r->tree[i], &o, 300);
}

static void free_rows(struct rows *r)
{
	for (int i = 0; i < 4; i++)
		pm_cg__delete(r->tree[i]);
}

static void test_sample_paths(void **state)
{
	struct rows r = { { NULL } };

	(void)state;
	/* no children, callee order: the sample's row, its chain leaf first */
	feed(&r, "dcba", PM_CG_CALLEE, false);
	feed(&r, "dba", PM_CG_CALLEE, false);
	feed(&r, "cba", PM_CG_CALLEE, false);
	finish_rows(&r);
	assert_null(r.tree[0]);
	assert_tree(r.tree[3], "d(2)[c(1)[b(1)[a(1*)]] b(1)[a(1*)]]");
	assert_tree(r.tree[2], "c(1)[b(1)[a(1*)]]");
	free_rows(&r);

	/* children, caller order: a caller's row shows what it calls
	 * (d and c tie under b: d, the greater start, first) */
	memset(&r, 0, sizeof(r));
	feed(&r, "dcba", PM_CG_CALLER, true);
	feed(&r, "dba", PM_CG_CALLER, true);
	finish_rows(&r);
	assert_tree(r.tree[3], "a(2)[b(2)[d(1*) c(1)[d(1*)]]]");
	assert_tree(r.tree[0], "a(2)[b(2)[d(1*) c(1)[d(1*)]]]");
	assert_tree(r.tree[1], "b(2)[d(1*) c(1)[d(1*)]]");
	assert_tree(r.tree[2], "c(1)[d(1*)]");
	free_rows(&r);

	/* children, callee order: a row shows who calls it */
	memset(&r, 0, sizeof(r));
	feed(&r, "dcba", PM_CG_CALLEE, true);
	feed(&r, "dba", PM_CG_CALLEE, true);
	finish_rows(&r);
	assert_tree(r.tree[3], "d(2)[c(1)[b(1)[a(1*)]] b(1)[a(1*)]]");
	assert_tree(r.tree[1], "b(2)[a(2*)]");
	assert_tree(r.tree[0], "a(2*)");
	free_rows(&r);

	/* recursion: a row gets one path per sample, at its first entry in
	 * display order; the sample's own row takes its whole chain */
	memset(&r, 0, sizeof(r));
	feed(&r, "dbcba", PM_CG_CALLER, true);
	feed(&r, "bcba", PM_CG_CALLER, true);
	finish_rows(&r);
	assert_tree(r.tree[1], "b(1)[c(1)[b(1)[d(1*)]]] a(1)[b(1)[c(1)[b(1*)]]]");
	assert_tree(r.tree[2], "c(2)[b(2*)[d(1*)]]");
	assert_tree(r.tree[3], "a(1)[b(1)[c(1)[b(1)[d(1*)]]]]");
	free_rows(&r);
}

/* The entries --max-stack keeps, as a string of 0s and 1s. */
static const char *kept(size_t n, size_t recorded, size_t max, enum pm_cg_order order)
{
	static char buf[32];

	for (size_t i = 0; i < n; i++)
		buf[i] = pm_callgraph__keeps(i, n, recorded, max, order) ? '1' : '0';
	buf[n] = '\0';
	return buf;
}

static void test_max_stack(void **state)
{
	(void)state;
	/* frame pointers: all recorded; the first max in display order */
	assert_string_equal(kept(5, 5, 2, PM_CG_CALLEE), "11000");
	assert_string_equal(kept(5, 5, 2, PM_CG_CALLER), "00011");
	assert_string_equal(kept(5, 5, 0, PM_CG_CALLER), "11111");
	/* dwarf: 3 recorded (kernel) entries, then 4 unwound: each part on
	 * its own, the unwound ones to their innermost in either order */
	assert_string_equal(kept(7, 3, 2, PM_CG_CALLEE), "1101100");
	assert_string_equal(kept(7, 3, 2, PM_CG_CALLER), "0111100");
	assert_string_equal(kept(7, 3, 5, PM_CG_CALLER), "1111111");
	assert_string_equal(kept(4, 0, 3, PM_CG_CALLER), "1110");
}

/* ---- the view in text: perf's graph, flat and folded layouts ---- */

/* A table of perf's call-graph columns: share (the branch value),
 * period (what flows through), name (the frames). */
static struct pm_table *graph_table(unsigned int flags)
{
	struct pm_table *t = pm_table__new();

	pm_table__add_column(t, &(struct pm_table_column){
		.name = "Overhead", .type = PM_COL_PERCENT, .flags = PM_COLF_TREE_VALUE });
	pm_table__add_column(t, &(struct pm_table_column){
		.name = "Period", .type = PM_COL_U64, .flags = PM_COLF_TREE_WEIGHT });
	pm_table__add_column(t, &(struct pm_table_column){
		.name = "Symbol", .type = PM_COL_STRING, .flags = PM_COLF_TREE });
	pm_table__set_flags(t, flags);
	return t;
}

static size_t node(struct pm_table *t, double pct, uint64_t period, const char *name)
{
	size_t r = pm_table__add_row(t);

	pm_table__set_double(t, r, 0, pct);
	pm_table__set_u64(t, r, 1, period);
	pm_table__set_str(t, r, 2, name);
	return r;
}

static char *render_as(const struct pm_table *t, const char *format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct pm_render_opts o = { .sz = sizeof(o), .no_header = true };

	assert_non_null(f);
	assert_int_equal(pm_table__render(t, f, pm_renderer__find(format), &o), 0);
	fclose(f);
	return buf;
}

static void test_graph_text(void **state)
{
	struct pm_table *t = graph_table(PM_TABLE_CALL_GRAPH), *k, *main_kids, *w;
	size_t r;
	char *got;

	(void)state;
	/* main: all of the row, one line of frames; below it work (with
	 * leaf continuing its line: as heavy, the only child) and idle */
	r = node(t, 60, 60, "[.] main");
	k = pm_table__children(t, r);
	main_kids = pm_table__children(k, node(k, 60, 60, "main"));
	w = pm_table__children(main_kids, node(main_kids, 40, 40, "work"));
	node(w, 40, 40, "leaf");
	node(main_kids, 20, 20, "idle");
	/* a row whose only node is lighter than it: a branch at the top */
	r = node(t, 30, 30, "[.] other");
	k = pm_table__children(t, r);
	k = pm_table__children(k, node(k, 25, 25, "other"));
	node(k, 25, 25, "caller");
	got = render_as(t, "text");
	assert_string_equal(got,
		"60.00%  60  [.] main\n"
		"            |\n"
		"            ---main\n"
		"               |\n"
		"               |--40.00%--work\n"
		"               |          leaf\n"
		"               |\n"
		"                --20.00%--idle\n"
		"\n"
		"30.00%  30  [.] other\n"
		"            |\n"
		"             --25.00%--other\n"
		"                       caller\n"
		"\n");
	free(got);
	pm_table__delete(t);
}

/* graph_table's columns and the remainder's and more's (JSON only). */
static struct pm_table *rest_table(void)
{
	struct pm_table *t = graph_table(PM_TABLE_CALL_GRAPH);

	pm_table__add_column(t, &(struct pm_table_column){
		.name = "rest", .type = PM_COL_BOOL, .show = PM_SHOW_JSON,
		.flags = PM_COLF_OPTIONAL | PM_COLF_TREE_REST });
	pm_table__add_column(t, &(struct pm_table_column){
		.name = "more", .type = PM_COL_BOOL, .show = PM_SHOW_JSON,
		.flags = PM_COLF_OPTIONAL | PM_COLF_TREE_MORE });
	return t;
}

static void test_graph_rest_text(void **state)
{
	struct pm_table *t = rest_table(), *k;
	size_t r;
	char *got;

	(void)state;
	/* perf's fractal remainder: after the last child, no separator line
	 * before it, the last child's pipe going on to it */
	k = pm_table__children(t, node(t, 100, 100, "[.] leaf"));
	k = pm_table__children(k, node(k, 100, 100, "leaf"));
	node(k, 50, 50, "a");
	node(k, 30, 30, "b");
	r = node(k, 20, 20, "[...]");
	pm_table__set_bool(k, r, 3, true);
	/* more left than shown, with no remainder to say so: the last
	 * child's pipe goes on all the same */
	k = pm_table__children(t, node(t, 100, 100, "[.] other"));
	k = pm_table__children(k, node(k, 100, 100, "other"));
	node(k, 60, 60, "c");
	r = node(k, 40, 40, "d");
	pm_table__set_bool(k, r, 4, true);
	got = render_as(t, "text");
	assert_string_equal(got,
		"100.00%  100  [.] leaf\n"
		"            |\n"
		"            ---leaf\n"
		"               |\n"
		"               |--50.00%--a\n"
		"               |\n"
		"               |--30.00%--b\n"
		"                --20.00%--[...]\n"
		"\n"
		"100.00%  100  [.] other\n"
		"            |\n"
		"            ---other\n"
		"               |\n"
		"               |--60.00%--c\n"
		"               |\n"
		"               |--40.00%--d\n"
		"\n");
	free(got);
	pm_table__delete(t);
}

static void test_chains_text(void **state)
{
	struct pm_table *t = graph_table(PM_TABLE_CALL_CHAINS), *k;
	char *got;

	(void)state;
	k = pm_table__children(t, node(t, 50, 50, "[.] leaf"));
	node(k, 30, 30, "leaf;work;main");
	node(k, 20, 20, "leaf;main");
	got = render_as(t, "text");
	assert_string_equal(got,
		"50.00%  50  [.] leaf\n"
		"           30.00%\n"
		"                leaf\n"
		"                work\n"
		"                main\n"
		"\n"
		"           20.00%\n"
		"                leaf\n"
		"                main\n"
		"\n");
	free(got);
	pm_table__set_flags(t, PM_TABLE_CALL_FOLDED);
	got = render_as(t, "text");
	assert_string_equal(got,
		"50.00%  50  [.] leaf\n"
		"30.00% leaf;work;main\n"
		"20.00% leaf;main\n");
	free(got);
	pm_table__delete(t);
	/* JSON: the nodes nested under the table's tree member, which the
	 * trees made after it take too */
	t = graph_table(PM_TABLE_CALL_GRAPH);
	pm_table__set_tree_key(t, "callgraph");
	k = pm_table__children(t, node(t, 50, 50, "[.] leaf"));
	k = pm_table__children(k, node(k, 50, 50, "leaf"));
	node(k, 50, 50, "main");
	got = render_as(t, "json");
	assert_string_equal(got,
		"[{\"Overhead\":50,\"Period\":50,\"Symbol\":\"[.] leaf\",\"callgraph\":["
		"{\"Overhead\":50,\"Period\":50,\"Symbol\":\"leaf\",\"callgraph\":["
		"{\"Overhead\":50,\"Period\":50,\"Symbol\":\"main\"}]}]}]\n");
	free(got);
	pm_table__delete(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_merge_and_sort),
		cmocka_unit_test(test_prune),
		cmocka_unit_test(test_sample_paths),
		cmocka_unit_test(test_max_stack),
		cmocka_unit_test(test_graph_text),
		cmocka_unit_test(test_graph_rest_text),
		cmocka_unit_test(test_chains_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
