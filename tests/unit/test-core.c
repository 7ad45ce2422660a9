// SPDX-License-Identifier: GPL-2.0
/*
 * The core utilities every layer uses: the hash index, name tables, the
 * byte buffer, options structs of other sizes, the out-of-memory handler,
 * the comparison helpers, the ABI names and the JSON writer's hex.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pmprof/abi.h"
#include "pmprof/bytebuf.h"
#include "pmprof/bytes.h"
#include "pmprof/hash.h"
#include "pmprof/json.h"
#include "pmprof/lookup.h"
#include "pmprof/util.h"

struct elem {
	uint64_t key;
	int value;
};

static uint64_t elem_hash(const void *arg, size_t i)
{
	return pm_hash64(((const struct elem *)arg)[i].key);
}

/* Find or add key in a hash over elems; returns its index. */
static size_t findnew(struct pm_hash *ix, struct elem *elems, size_t *nr,
		      uint64_t key)
{
	size_t s = PM_HASH_FIND(ix, pm_hash64(key), i, elems[i].key == key);

	if (!pm_hash__empty(ix, s))
		return pm_hash__at(ix, s);
	pm_hash__reserve(ix, *nr, elem_hash, elems);
	s = PM_HASH_FIND(ix, pm_hash64(key), i, false);
	elems[*nr] = (struct elem){ key, (int)*nr };
	pm_hash__set(ix, s, *nr);
	return (*nr)++;
}

static void test_hash(void **state)
{
	enum { N = 5000 };
	struct elem *elems = calloc(N, sizeof(*elems));
	struct pm_hash ix = PM_HASH_INIT;
	size_t nr = 0, i, s;

	(void)state;
	/* an index without slots finds nothing */
	s = PM_HASH_FIND(&ix, 42, k, elems[k].key == 42);
	assert_true(pm_hash__empty(&ix, s));
	/* keys that collide in the low bits: multiples of 4096 */
	for (i = 0; i < N; i++)
		assert_int_equal(findnew(&ix, elems, &nr, i << 12), i);
	assert_int_equal(nr, N);
	/* found again after every rehash, in insertion order */
	for (i = 0; i < N; i++)
		assert_int_equal(findnew(&ix, elems, &nr, i << 12), i);
	assert_int_equal(nr, N);
	/* the load stays under one half */
	assert_true((ix.mask + 1) >= 2 * N);
	s = PM_HASH_FIND(&ix, pm_hash64(7), k, elems[k].key == 7);
	assert_true(pm_hash__empty(&ix, s));
	pm_hash__release(&ix);
	assert_null(ix.slots);
	free(elems);
	/* FNV-1a of "a" */
	assert_true(pm_hash_str("a") == 0xaf63dc4c8601ec8cull);
	assert_true(pm_hash_bytes("ab", 2) == pm_hash_str("ab"));
}

enum color { RED, GREEN, BLUE };

static void test_lookup(void **state)
{
	static const struct pm_name colors[] = {
		{ "red", RED }, { "green", GREEN }, { "vert", GREEN },
		{ "blue", BLUE }, PM_NAMES_END,
	};

	(void)state;
	assert_int_equal(pm_name__value(colors, "vert"), GREEN);
	assert_int_equal(pm_name__value(colors, "blue"), BLUE);
	assert_int_equal(pm_name__value(colors, "Blue"), -1);
	assert_int_equal(pm_name__value(colors, NULL), -1);
	assert_int_equal(pm_name__valuen(colors, "redder", 3), RED);
	assert_string_equal(pm_name__of(colors, GREEN), "green");
	assert_null(pm_name__of(colors, 7));
}

static void test_bytebuf(void **state)
{
	struct pm_bytebuf b = PM_BYTEBUF_INIT;
	static const uint8_t want[] = {
		0x34, 0x12, 0x12, 0x34, 0x78, 0x56, 0x34, 0x12,
		1, 0, 0, 0, 0, 0, 0, 0, 0xaa,
	};

	(void)state;
	pm_bytebuf__u16(&b, 0x1234, PM_HOST_BIG_ENDIAN);	/* little */
	pm_bytebuf__u16(&b, 0x1234, !PM_HOST_BIG_ENDIAN);	/* big */
	pm_bytebuf__u32(&b, 0x12345678, PM_HOST_BIG_ENDIAN);
	pm_bytebuf__u64(&b, 1, PM_HOST_BIG_ENDIAN);
	pm_bytebuf__add(&b, "\xaa", 1);
	assert_int_equal(b.len, sizeof(want));
	assert_memory_equal(b.data, want, sizeof(want));
	pm_bytebuf__pad8(&b);
	assert_int_equal(b.len, 24);
	assert_int_equal(b.data[23], 0);
	/* writing past the end zero-extends */
	*pm_bytebuf__at(&b, 40, 1) = 7;
	assert_int_equal(b.len, 41);
	assert_int_equal(b.data[30], 0);
	assert_int_equal(b.data[40], 7);
	pm_bytebuf__reset(&b);
	assert_int_equal(b.len, 0);
	pm_bytebuf__release(&b);
	assert_null(b.data);
}

/* Version 1 of an options struct, and version 2 that adds a member. */
struct opts_v1 {
	size_t sz;
	uint64_t a;
};

struct opts_v2 {
	size_t sz;
	uint64_t a;
	uint64_t b;
};

static void test_opts_copy(void **state)
{
	static const struct opts_v2 defaults = { 0, 1, 2 };
	struct opts_v1 old = { sizeof(old), 10 };
	struct opts_v2 cur = { sizeof(cur), 20, 30 }, got;
	struct { struct opts_v2 o; uint64_t later; } newer = { { sizeof(newer), 40, 50 }, 60 };

	(void)state;
	PM_OPTS_COPY(&got, NULL, defaults);
	assert_int_equal(got.a, 1);
	assert_int_equal(got.b, 2);
	assert_int_equal(got.sz, sizeof(got));
	/* an older caller: what it lacks keeps the default */
	PM_OPTS_COPY(&got, &old, defaults);
	assert_int_equal(got.a, 10);
	assert_int_equal(got.b, 2);
	PM_OPTS_COPY(&got, &cur, defaults);
	assert_int_equal(got.b, 30);
	/* a newer caller: what we do not know is left out */
	PM_OPTS_COPY(&got, &newer, defaults);
	assert_int_equal(got.a, 40);
	assert_int_equal(got.b, 50);
	assert_int_equal(got.sz, sizeof(got));
	/* sz 0: this size */
	cur.sz = 0;
	PM_OPTS_COPY(&got, &cur, defaults);
	assert_int_equal(got.b, 30);
}

static jmp_buf oom_jump;
static size_t oom_bytes;

static void oom_handler(size_t bytes)
{
	oom_bytes = bytes;
	longjmp(oom_jump, 1);
}

static void test_oom_handler(void **state)
{
	pm_oom_fn old;
	void *volatile p = NULL;

	(void)state;
	old = pm_set_oom_handler(oom_handler);
	if (!setjmp(oom_jump))
		p = pm_reallocarray(NULL, SIZE_MAX / 2, 4);
	assert_null(p);
	assert_int_equal(oom_bytes, SIZE_MAX);
	oom_bytes = 0;
	if (!setjmp(oom_jump))
		p = pm_malloc(SIZE_MAX - 16);
	assert_null(p);
	assert_int_equal(oom_bytes, SIZE_MAX - 16);
	assert_ptr_equal(pm_set_oom_handler(old), oom_handler);
	pm_set_oom_handler(NULL);	/* back to the default */
}

static void test_compare(void **state)
{
	(void)state;
	assert_int_equal(pm_cmp_u64(1, 2), -1);
	assert_int_equal(pm_cmp_u64(UINT64_MAX, 0), 1);
	assert_int_equal(pm_cmp_u64(5, 5), 0);
	assert_true(pm_cmp_str_nulls_last("a", "b") < 0);
	assert_true(pm_cmp_str_nulls_last(NULL, "b") > 0);
	assert_true(pm_cmp_str_nulls_last("b", NULL) < 0);
	assert_int_equal(pm_cmp_str_nulls_last(NULL, NULL), 0);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(pm_record_type_name(PM_RECORD_SAMPLE), "SAMPLE");
	assert_null(pm_record_type_name(100000));
	assert_string_equal(pm_context_name(PM_CONTEXT_KERNEL), "kernel");
	assert_string_equal(pm_context_name(PM_CONTEXT_GUEST_USER), "guest user");
	assert_null(pm_context_name(7));
}

static void test_json_hex(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct pm_json j;

	(void)state;
	pm_json__init(&j, out);
	pm_json__begin_object(&j);
	pm_json__kv_hex(&j, "a", 0x1f);
	pm_json__kv_hex(&j, "b", 0);
	pm_json__end_object(&j);
	fclose(out);
	assert_string_equal(text, "{\"a\":\"0x1f\",\"b\":\"0x0\"}");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_bytebuf),
		cmocka_unit_test(test_opts_copy),
		cmocka_unit_test(test_oom_handler),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_json_hex),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
