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
#include <string.h>
#include <cmocka.h>

#include "pmprof/callgraph.h"
#include "pmprof/error.h"
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
	assert_tree(root, "a(4)[b(4*)[d(2*) c(1*)]] c(1*) 0x9000(1)[0x9001(1*)]");
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
	assert_tree(root, "a(2)[b(1*) c(1*)]");
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

	/* children, caller order: a caller's row shows what it calls */
	memset(&r, 0, sizeof(r));
	feed(&r, "dcba", PM_CG_CALLER, true);
	feed(&r, "dba", PM_CG_CALLER, true);
	finish_rows(&r);
	assert_tree(r.tree[3], "a(2)[b(2)[c(1)[d(1*)] d(1*)]]");
	assert_tree(r.tree[0], "a(2)[b(2)[c(1)[d(1*)] d(1*)]]");
	assert_tree(r.tree[1], "b(2)[c(1)[d(1*)] d(1*)]");
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_merge_and_sort),
		cmocka_unit_test(test_prune),
		cmocka_unit_test(test_sample_paths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
