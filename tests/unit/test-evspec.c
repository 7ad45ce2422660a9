// SPDX-License-Identifier: GPL-2.0
/*
 * The event parser. Expected configs come from perf's tables (checked
 * against perf record -vv on this machine, see tests/cli/evspec-perf.sh)
 * and by hand for format bit scattering and hf terms. A small sysfs tree
 * (an Alpha `cpu` PMU with a profileme bit) is written to a temp dir.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "pmprof/evspec.h"
#include "pmprof/strbuf.h"

static char tree[64];

static void put(const char *rel, const char *text)
{
	char path[256], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	for (p = path + strlen(tree) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup_tree(void **state)
{
	(void)state;
	strcpy(tree, "/tmp/pmprof-evspec.XXXXXX");
	if (!mkdtemp(tree))
		return -1;
	put("bus/event_source/devices/cpu/type", "4\n");
	put("bus/event_source/devices/cpu/format/event", "config:0-7\n");
	put("bus/event_source/devices/cpu/format/umask", "config:8-15\n");
	put("bus/event_source/devices/cpu/format/profileme", "config:32\n");
	put("bus/event_source/devices/cpu/format/split", "config1:0-3,8-11\n");
	put("bus/event_source/devices/cpu/events/pm_retired", "event=0x1,profileme\n");
	put("bus/event_source/devices/cpu/events/needs_arg", "event=?\n");
	put("kernel/debug/tracing/events/sched/sched_switch/id", "316\n");
	return 0;
}

static int teardown_tree(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	return system(cmd) ? -1 : 0;
}

static int parse(struct pm_evspec_list *l, const char *s, struct pm_error *err)
{
	struct pm_evspec_opts o = { .sysfs_root = tree };

	pm_evspec_list__init(l);
	return pm_evspec__parse(l, s, &o, err);
}

static const struct pm_attr *one(struct pm_evspec_list *l, const char *s)
{
	struct pm_error err;
	int ret = parse(l, s, &err);

	if (ret)
		fail_msg("'%s' rejected: %s", s, err.msg);
	assert_int_equal(l->nr, 1);
	return &l->ev[0].attr;
}

/* The error for s; checks the offset and that the message holds `text`. */
static void bad(const char *s, size_t offset, const char *text)
{
	struct pm_evspec_list l;
	struct pm_error err;

	memset(&err, 0, sizeof(err));
	assert_int_equal(parse(&l, s, &err), -PM_EUSAGE);
	assert_int_equal(l.nr, 0);
	assert_true(err.has_offset);
	if (err.offset != offset || !strstr(err.msg, text))
		fail_msg("'%s': offset %llu msg '%s', want %zu '%s'", s,
			 (unsigned long long)err.offset, err.msg, offset, text);
	pm_evspec_list__exit(&l);
}

static void test_symbols(void **state)
{
	uint32_t type;
	uint64_t config;

	(void)state;
	assert_int_equal(pm_event_name__lookup("ref-cycles", 10, &type, &config), 0);
	assert_int_equal(type, 0);
	assert_int_equal(config, 9);
	assert_int_equal(pm_event_name__lookup("cs", 2, &type, &config), 0);
	assert_int_equal(type, 1);
	assert_int_equal(config, 3);
	assert_int_equal(pm_event_name__lookup("dummy", 5, &type, &config), 0);
	assert_int_equal(config, 9);
	/* prefix of a name is not the name */
	assert_int_equal(pm_event_name__lookup("cycles", 5, &type, &config), -1);
	assert_int_equal(pm_event_name__lookup("Cycles", 6, &type, &config), -1);
}

static int cache(const char *s, uint64_t *c)
{
	return pm_event_name__cache(s, strlen(s), c);
}

static void test_cache(void **state)
{
	uint64_t c;

	(void)state;
	/* id | op << 8 | result << 16 */
	assert_int_equal(cache("L1-dcache-load-misses", &c), 0);
	assert_int_equal(c, 0x10000);
	assert_int_equal(cache("L1-dcache-stores", &c), 0);
	assert_int_equal(c, 0x100);
	assert_int_equal(cache("d-tlb-prefetch-miss", &c), 0);
	assert_int_equal(c, 0x10203);
	assert_int_equal(cache("L1-dcache-speculative-read-misses", &c), 0);
	assert_int_equal(c, 0x10200);
	assert_int_equal(cache("node-misses-store", &c), 0);
	assert_int_equal(c, 0x10106);
	assert_int_equal(cache("LLC", &c), 0);
	assert_int_equal(c, 2);
	assert_int_equal(cache("btb-access", &c), 0);
	assert_int_equal(c, 5);
	/* not supported by perf: L1-icache writes, iTLB prefetches */
	assert_int_equal(cache("L1-icache-stores", &c), -1);
	assert_int_equal(cache("iTLB-prefetches", &c), -1);
	assert_int_equal(cache("LL-loads", &c), -1);
	assert_int_equal(cache("L1-dcache-loads-stores", &c), -1);
	assert_int_equal(cache("L1-dcache-load-misses-refs", &c), -1);
	assert_int_equal(cache("L1-dcache-", &c), -1);
}

static void test_format(void **state)
{
	int field;
	uint64_t mask, v;

	(void)state;
	assert_int_equal(pm_evspec_parse_format("config1:0-7,32-35", &field, &mask), 0);
	assert_int_equal(field, 1);
	assert_int_equal(mask, 0xf000000ffULL);
	assert_int_equal(pm_evspec_parse_format("config:63", &field, &mask), 0);
	assert_int_equal(field, 0);
	assert_int_equal(mask, 1ULL << 63);
	assert_int_equal(pm_evspec_parse_format("config3:0-63", &field, &mask), 0);
	assert_int_equal(field, 3);
	assert_int_equal(mask, UINT64_MAX);
	assert_int_equal(pm_evspec_parse_format("config:64", &field, &mask), -1);
	assert_int_equal(pm_evspec_parse_format("config:5-3", &field, &mask), -1);
	assert_int_equal(pm_evspec_parse_format("foo:1", &field, &mask), -1);
	assert_int_equal(pm_evspec_parse_format("config:1,", &field, &mask), -1);
	/* 0x3a over bits 0-3 and 8-11: 0xa low, 0x3 high */
	assert_int_equal(pm_evspec_format_value(0xf0f, 0x3a, &v), 0);
	assert_int_equal(v, 0x30a);
	assert_int_equal(pm_evspec_format_value(0xf, 16, &v), -1);
	assert_int_equal(pm_evspec_format_value(UINT64_MAX, UINT64_MAX, &v), 0);
	assert_int_equal(v, UINT64_MAX);
}

static void test_modifiers(void **state)
{
	struct pm_evspec_list l;
	const struct pm_attr *a;

	(void)state;
	a = one(&l, "cpu-clock");
	assert_true(pm_attr__flag(a, PM_ATTR_EXCLUDE_GUEST));	/* perf's default */
	pm_evspec_list__exit(&l);

	a = one(&l, "cpu-clock:k");
	assert_true(pm_attr__flag(a, PM_ATTR_EXCLUDE_USER));
	assert_true(pm_attr__flag(a, PM_ATTR_EXCLUDE_HV));
	assert_false(pm_attr__flag(a, PM_ATTR_EXCLUDE_KERNEL));
	assert_false(pm_attr__flag(a, PM_ATTR_EXCLUDE_GUEST));	/* as perf 6.1 */
	pm_evspec_list__exit(&l);

	a = one(&l, "cycles:uppp");
	assert_int_equal(pm_attr__precise_ip(a), 3);
	assert_true(pm_attr__flag(a, PM_ATTR_EXCLUDE_KERNEL));
	assert_true(pm_attr__flag(a, PM_ATTR_EXCLUDE_GUEST));
	pm_evspec_list__exit(&l);

	a = one(&l, "cycles:G");
	assert_true(pm_attr__flag(a, PM_ATTR_EXCLUDE_HOST));
	assert_false(pm_attr__flag(a, PM_ATTR_EXCLUDE_GUEST));
	assert_true(l.ev[0].exclude_GH);
	pm_evspec_list__exit(&l);

	a = one(&l, "cpu-clock:DIS");
	assert_true(pm_attr__flag(a, PM_ATTR_PINNED));
	assert_true(pm_attr__flag(a, PM_ATTR_EXCLUDE_IDLE));
	assert_true(l.ev[0].sample_read);
	pm_evspec_list__exit(&l);

	/* modifiers straight after the term list */
	a = one(&l, "cpu-clock/period=10/u");
	assert_true(pm_attr__flag(a, PM_ATTR_EXCLUDE_KERNEL));
	pm_evspec_list__exit(&l);

	bad("cpu-clock:uu", 10, "Bad modifier");
	bad("cpu-clock:pppp", 10, "Bad modifier");
	bad("cpu-clock:uq", 11, "Bad modifier");
	bad("cpu-clock:", 10, "modifiers");
}

static void test_groups(void **state)
{
	struct pm_evspec_list l;
	struct pm_error err;
	struct pm_evspec_opts o = { .sysfs_root = tree };

	(void)state;
	pm_evspec_list__init(&l);
	assert_int_equal(pm_evspec__parse(&l, "cpu-clock", &o, &err), 0);
	assert_int_equal(pm_evspec__parse(&l, "{task-clock,page-faults:D}:u,cs", &o, &err), 0);
	assert_int_equal(l.nr, 4);
	assert_int_equal(l.ev[0].group_leader, 0);
	assert_int_equal(l.ev[1].group_leader, 1);
	assert_int_equal(l.ev[2].group_leader, 1);
	assert_int_equal(l.ev[3].group_leader, 3);
	assert_int_equal(l.ev[1].nr_members, 2);
	assert_int_equal(l.ev[2].nr_members, 0);
	/* group modifier applies to both; a member keeps its own pinned */
	assert_true(pm_attr__flag(&l.ev[2].attr, PM_ATTR_EXCLUDE_KERNEL));
	assert_true(pm_attr__flag(&l.ev[2].attr, PM_ATTR_PINNED));
	assert_false(pm_attr__flag(&l.ev[1].attr, PM_ATTR_PINNED));
	assert_false(pm_attr__flag(&l.ev[3].attr, PM_ATTR_EXCLUDE_KERNEL));
	assert_string_equal(l.ev[2].name, "page-faults:D");
	/* a failing string appends nothing */
	assert_int_not_equal(pm_evspec__parse(&l, "cs,{bogus}", &o, &err), 0);
	assert_int_equal(l.nr, 4);
	pm_evspec_list__exit(&l);

	bad("{cpu-clock", 0, "not closed");
	bad("{cpu-clock,{cs}}", 11, "nest");
	bad("{}", 1, "parser error");
	bad("cpu-clock,", 9, "unexpected ','");
	bad(",cpu-clock", 0, "unexpected ','");
	bad("cpu-clock}", 9, "unexpected '}'");
}

static void test_terms(void **state)
{
	struct pm_evspec_list l;
	const struct pm_attr *a;

	(void)state;
	a = one(&l, "cpu-clock/config=2,config1=0x10,config2=3,config3=4,name=x,period=77/");
	assert_int_equal(a->config, 2);
	assert_int_equal(a->config1, 16);
	assert_int_equal(a->config2, 3);
	assert_int_equal(a->config3, 4);
	assert_string_equal(l.ev[0].name, "x");
	assert_int_equal(l.ev[0].term_period, 77);
	assert_true(l.ev[0].terms & PM_EVSPEC_T_PERIOD);
	pm_evspec_list__exit(&l);

	a = one(&l, "r1A8");
	assert_int_equal(a->type, 4);
	assert_int_equal(a->config, 0x1a8);
	pm_evspec_list__exit(&l);

	a = one(&l, "cpu-clock/call-graph=dwarf,stack-size=4097/");
	assert_int_equal(l.ev[0].callgraph, PM_CALLGRAPH_DWARF);
	assert_int_equal(l.ev[0].stack_size, 4104);	/* rounded up to 8 */
	pm_evspec_list__exit(&l);

	bad("cpu-clock/foo=1/", 10, "unknown term 'foo'");
	bad("cpu-clock/period=abc/", 17, "'period'");
	bad("cpu-clock/period=-1/", 17, "'period'");
	bad("cpu-clock/period=/", 17, "empty value");
	bad("cpu-clock/period/", 10, "needs a value");
	bad("cpu-clock/period=10", 19, "closing '/'");
	bad("cpu-clock/call-graph=lbr/", 21, "'call-graph'");
	bad("cpu-clock/freq=0/", 15, "'freq'");
	bad("nosuch", 0, "'nosuch'");
	bad("r", 0, "'r'");
	bad("rxyz", 0, "'rxyz'");
}

static void test_hf_terms(void **state)
{
	struct pm_evspec_list l;
	const struct pm_attr *a;

	(void)state;
	a = one(&l, "cycles/period=1000000,hf-period=300,hf-rand=7/");
	assert_int_equal(a->size, 144);
	assert_int_equal(a->hf_sample_period, 300);
	assert_int_equal(a->hf_sample_rand, 7);
	assert_int_equal(l.ev[0].hf_burst, 1);	/* default */
	assert_int_equal(l.ev[0].hf_jitter, 0);
	pm_evspec_list__exit(&l);

	a = one(&l, "cycles/hf-period=300,hf-burst=4,hf-jitter=599/");
	assert_int_equal(a->size, 144);
	assert_int_equal(l.ev[0].hf_burst, 4);
	assert_int_equal(l.ev[0].hf_jitter, 599);
	pm_evspec_list__exit(&l);

	a = one(&l, "cycles");
	assert_int_equal(a->size, 128);
	assert_int_equal(l.ev[0].hf_burst, 0);
	pm_evspec_list__exit(&l);

	bad("cycles/hf-period=0/", 17, "non-zero");
	bad("cycles/period=100,hf-period=100/", 18, "hf-period");
	bad("cycles/hf-period=10,hf-rand=16/", 28, "'hf-rand'");
	bad("cycles/period=10,hf-rand=1/", 17, "needs 'hf-period'");
	bad("cycles/hf-burst=2/", 7, "'hf-burst' needs");
	bad("cycles/hf-jitter=2/", 7, "'hf-jitter' needs");
	bad("cycles/hf-period=10,hf-jitter=20/", 20, "'hf-jitter'");
	bad("cycles/period=1000,hf-period=300,hf-burst=4/", 19, "hf-burst (4)");
	bad("cycles/hf-period=4294967296/", 17, "'hf-period'");
}

static void test_pmu(void **state)
{
	struct pm_evspec_list l;
	const struct pm_attr *a;

	(void)state;
	a = one(&l, "cpu/pm_retired/");
	assert_int_equal(a->type, 4);
	assert_int_equal(a->config, (1ULL << 32) | 1);
	pm_evspec_list__exit(&l);

	a = one(&l, "cpu/event=0x3c,umask=1,profileme,split=0x3a/");
	assert_int_equal(a->config, (1ULL << 32) | 0x100 | 0x3c);
	assert_int_equal(a->config1, 0x30a);
	pm_evspec_list__exit(&l);

	/* an alias found in any PMU, with a modifier */
	a = one(&l, "pm_retired:u");
	assert_int_equal(a->config, (1ULL << 32) | 1);
	assert_true(pm_attr__flag(a, PM_ATTR_EXCLUDE_KERNEL));
	pm_evspec_list__exit(&l);

	/* a later term's bits are or-ed into the alias's, as perf 6.1 does
	 * (tests/data/evspec-corpus.txt compares it with perf) */
	a = one(&l, "cpu/pm_retired,event=2/");
	assert_int_equal(a->config, (1ULL << 32) | 3);
	pm_evspec_list__exit(&l);

	a = one(&l, "sched:sched_switch");
	assert_int_equal(a->type, 2);
	assert_int_equal(a->config, 316);
	assert_true(l.ev[0].tracepoint);
	pm_evspec_list__exit(&l);

	bad("cpu/event=0x100/", 10, "value too big for format 'event'");
	bad("cpu/bogus=1/", 4, "unknown term 'bogus' for pmu 'cpu'");
	bad("cpu/needs_arg/", 4, "needs a value");
	bad("cpu", 0, "'cpu'");
	bad("sched:nope", 0, "sched:nope");
	bad("sched:sched_switch/period=1/", 19, "for tracepoint");
	bad("cpu/../", 4, "unknown term '..'");
}

static const struct pm_evspec_event *rec(struct pm_evspec_list *l, const char *s,
					 const struct pm_record_defaults *rd)
{
	struct pm_error err;

	if (parse(l, s, &err))
		fail_msg("'%s' rejected: %s", s, err.msg);
	if (pm_evspec__apply_record(l, rd, &err))
		fail_msg("'%s' record: %s", s, err.msg);
	return l->ev;
}

static void test_record_defaults(void **state)
{
	struct pm_evspec_list l;
	struct pm_record_defaults rd;
	struct pm_error err;
	const struct pm_evspec_event *ev;

	(void)state;
	memset(&rd, 0, sizeof(rd));
	ev = rec(&l, "cpu-clock", &rd);
	assert_true(pm_attr__flag(&ev->attr, PM_ATTR_FREQ));
	assert_int_equal(ev->attr.sample_period, 4000);
	assert_int_equal(ev->attr.sample_type, PM_SAMPLE_IP | PM_SAMPLE_TID |
			 PM_SAMPLE_TIME | PM_SAMPLE_PERIOD);
	assert_int_equal(ev->attr.read_format, PM_FORMAT_ID | PM_FORMAT_LOST);
	assert_true(pm_attr__flag(&ev->attr, PM_ATTR_MMAP));
	assert_true(pm_attr__flag(&ev->attr, PM_ATTR_DISABLED));
	pm_evspec_list__exit(&l);

	rd.period = 1000;
	rd.sample_cpu = true;
	ev = rec(&l, "cpu-clock,cycles/freq=99/", &rd);
	assert_false(pm_attr__flag(&ev[0].attr, PM_ATTR_FREQ));
	assert_int_equal(ev[0].attr.sample_period, 1000);
	assert_true(pm_attr__flag(&ev[1].attr, PM_ATTR_FREQ));
	assert_int_equal(ev[1].attr.sample_period, 99);
	/* the layouts differ (PERIOD): IDENTIFIER on both */
	assert_true(ev[0].attr.sample_type & PM_SAMPLE_IDENTIFIER);
	assert_true(ev[1].attr.sample_type & PM_SAMPLE_IDENTIFIER);
	assert_true(ev[0].attr.sample_type & PM_SAMPLE_CPU);
	assert_false(pm_attr__flag(&ev[1].attr, PM_ATTR_MMAP));	/* not tracking */
	pm_evspec_list__exit(&l);

	memset(&rd, 0, sizeof(rd));
	rd.callgraph = PM_CALLGRAPH_FP;
	ev = rec(&l, "{cpu-clock,page-faults}:S", &rd);
	assert_true(ev[0].attr.sample_type & PM_SAMPLE_READ);
	assert_true(ev[0].attr.sample_type & PM_SAMPLE_CALLCHAIN);
	assert_int_equal(ev[1].attr.sample_type, ev[0].attr.sample_type);
	assert_true(ev[1].attr.read_format & PM_FORMAT_GROUP);
	assert_int_equal(ev[1].attr.sample_period, 0);
	assert_false(pm_attr__flag(&ev[0].attr, PM_ATTR_INHERIT));
	/* perf 6.1 clears it; a recorder may set it again (-i: never) */
	assert_true(ev[0].inherit_read);
	assert_true(ev[1].inherit_read);
	assert_false(pm_attr__flag(&ev[1].attr, PM_ATTR_DISABLED));
	pm_evspec_list__exit(&l);

	memset(&rd, 0, sizeof(rd));
	rd.no_inherit = true;
	ev = rec(&l, "{cpu-clock,page-faults}:S", &rd);
	assert_false(ev[0].inherit_read);
	assert_false(pm_attr__flag(&ev[0].attr, PM_ATTR_INHERIT));
	pm_evspec_list__exit(&l);

	memset(&rd, 0, sizeof(rd));
	ev = rec(&l, "sched:sched_switch", &rd);
	assert_int_equal(ev->attr.sample_period, 1);
	assert_false(pm_attr__flag(&ev->attr, PM_ATTR_FREQ));
	assert_true(ev->attr.sample_type & PM_SAMPLE_RAW);
	pm_evspec_list__exit(&l);

	/* hf against the final period: -c 200 with hf-period 300 */
	rd.period = 200;
	assert_int_equal(parse(&l, "cycles/hf-period=300/", &err), 0);
	assert_int_equal(pm_evspec__apply_record(&l, &rd, &err), -PM_EUSAGE);
	assert_non_null(strstr(err.msg, "hf-period"));
	pm_evspec_list__exit(&l);
	/* hf on a member that does not sample */
	memset(&rd, 0, sizeof(rd));
	assert_int_equal(parse(&l, "{cycles,instructions/hf-period=3/}:S", &err), 0);
	assert_int_equal(pm_evspec__apply_record(&l, &rd, &err), -PM_EUSAGE);
	assert_non_null(strstr(err.msg, "instructions"));
	pm_evspec_list__exit(&l);
}

/* attr -> name in perf's naming, list order for pmprof list, cache names */
static void test_names(void **state)
{
	char buf[64];
	uint32_t type;
	uint64_t config;

	(void)state;
	assert_string_equal(pm_event_name__of(0, 0), "cycles");
	assert_string_equal(pm_event_name__of(0, 4), "branches");
	assert_string_equal(pm_event_name__of(1, 3), "context-switches");
	assert_null(pm_event_name__of(0, 99));
	assert_string_equal(pm_event_name__canonical("cpu-cycles"), "cycles");
	assert_string_equal(pm_event_name__canonical("branch-instructions"), "branches");
	assert_string_equal(pm_event_name__canonical("cs"), "context-switches");
	assert_string_equal(pm_event_name__canonical("r003c"), "r003c");
	/* perf list's "cpu-cycles OR cycles": the listed name first */
	assert_string_equal(pm_event_name__symbol_at(0, &type, &config), "cpu-cycles");
	assert_string_equal(pm_event_name__symbol_at(1, &type, &config), "cycles");
	assert_int_equal(type, 0);
	assert_int_equal(config, 0);
	assert_int_equal(pm_event_name__cache_at(0, buf, sizeof(buf), &config), 0);
	assert_string_equal(buf, "L1-dcache-loads");
	assert_int_equal(config, 0);
	assert_int_equal(pm_event_name__cache_at(1, buf, sizeof(buf), &config), 0);
	assert_string_equal(buf, "L1-dcache-load-misses");
	assert_int_equal(config, 0x10000);
	assert_int_equal(pm_event_name__cache_at(100000, buf, sizeof(buf), &config), -1);
}

static void test_error_print(void **state)
{
	struct pm_error err = { .has_offset = true, .offset = 3 };
	struct pm_strbuf sb = PM_STRBUF_INIT;

	(void)state;
	strcpy(err.msg, "boom");
	pm_evspec__format_error(&sb, "p: ", "abcdef", &err);
	assert_string_equal(pm_strbuf__str(&sb), "p: event syntax error: 'abcdef'\n"
			    "                           \\___ boom\n");
	pm_strbuf__release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_modifiers),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_terms),
		cmocka_unit_test(test_hf_terms),
		cmocka_unit_test(test_pmu),
		cmocka_unit_test(test_record_defaults),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_error_print),
	};

	return cmocka_run_group_tests(tests, setup_tree, teardown_tree);
}
