// SPDX-License-Identifier: GPL-2.0
/*
 * The session's map lists (lib/session/maps.c) on their own: find, the
 * unmapped hole around an address the unwinder remembers, and the
 * version number that tells the unwinder when what it remembered is
 * stale. Expected ranges are worked out by hand from the maps below.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "session/internal.h"

static struct pm_map *add(struct pm_maps *m, struct pm_map_arena *a, uint64_t start,
			  uint64_t end)
{
	struct pm_map *map = pm_map_arena__new(a);

	map->start = start;
	map->end = end;
	pm_maps__insert(m, map, a);
	return map;
}

static void expect_hole(const struct pm_maps *m, uint64_t addr, uint64_t lo, uint64_t hi)
{
	uint64_t start = 1, end = 1;

	pm_maps__hole(m, addr, &start, &end);
	assert_int_equal(start, lo);
	assert_int_equal(end, hi);
}

static void test_holes(void **state)
{
	struct pm_map_arena a = { 0 };
	struct pm_maps *m = pm_maps__new();
	struct pm_map *x, *y, *z;

	(void)state;
	expect_hole(m, 0x1234, 0, UINT64_MAX);		/* nothing mapped */
	expect_hole(NULL, 0x1234, 0, UINT64_MAX);	/* no list at all */
	x = add(m, &a, 0x3000, 0x4000);
	z = add(m, &a, 0x8000, 0x9000);
	y = add(m, &a, 0x1000, 0x2000);			/* inserted out of order */

	assert_ptr_equal(pm_maps__find(m, 0x1000), y);
	assert_ptr_equal(pm_maps__find(m, 0x3fff), x);
	assert_ptr_equal(pm_maps__find(m, 0x8800), z);
	assert_null(pm_maps__find(m, 0x2000));		/* end is outside */

	expect_hole(m, 0, 0, 0x1000);			/* below the first */
	expect_hole(m, 0xfff, 0, 0x1000);
	expect_hole(m, 0x2000, 0x2000, 0x3000);		/* between, at an end */
	expect_hole(m, 0x2fff, 0x2000, 0x3000);
	expect_hole(m, 0x5000, 0x4000, 0x8000);
	expect_hole(m, 0x9000, 0x9000, UINT64_MAX);	/* past the last */
	expect_hole(m, UINT64_MAX - 1, 0x9000, UINT64_MAX);

	/* a map filling a hole: the hole is gone, its neighbours' bounds
	 * are the new holes */
	add(m, &a, 0x5000, 0x6000);
	expect_hole(m, 0x4800, 0x4000, 0x5000);
	expect_hole(m, 0x7000, 0x6000, 0x8000);
	pm_maps__put(m);
	pm_map_arena__free(&a);
}

static void test_versions(void **state)
{
	struct pm_map_arena a = { 0 };
	struct pm_maps *m = pm_maps__new(), *c, *n = pm_maps__new();
	uint64_t v0 = m->version, v1, v2;

	(void)state;
	assert_int_not_equal(v0, 0);			/* 0 means unknown */
	assert_int_not_equal(v0, n->version);		/* unique per list */
	add(m, &a, 0x1000, 0x2000);
	v1 = m->version;
	assert_int_not_equal(v1, v0);			/* a change, a new number */
	pm_maps__find(m, 0x1800);
	assert_int_equal(m->version, v1);		/* a lookup is no change */
	assert_ptr_equal(pm_maps__get(m), m);
	assert_int_equal(m->version, v1);
	pm_maps__put(m);

	/* a fork's copy has the same maps but a number of its own: what
	 * one process's unwinding kept is not the other's once either
	 * changes */
	c = pm_maps__clone(m);
	assert_int_equal(c->nr, 1);
	assert_int_not_equal(c->version, v1);
	pm_maps__clear(m);
	v2 = m->version;
	assert_int_not_equal(v2, v1);
	assert_null(pm_maps__find(m, 0x1800));
	assert_non_null(pm_maps__find(c, 0x1800));	/* the copy keeps its own */
	pm_maps__put(c);
	pm_maps__put(n);
	pm_maps__put(m);
	pm_map_arena__free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_holes),
		cmocka_unit_test(test_versions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
