// SPDX-License-Identifier: GPL-2.0
/*
 * The hotspot analysis on a hand-built recording (the fixture kit and an
 * ELF whose symbols the test chose): every share, sample count and order
 * below is added up here from the samples, not taken from pmprof.
 *
 *   prog (pid 100, "prog") and the same file in pid 200 ("other"):
 *     main 0x1000-0x1100, work 0x1100-0x1300, leaf 0x1300-0x1400
 *   cpu-clock samples (period, ip, callchain):
 *     100 leaf  <- work <- main     (pid 100, cpu 0)
 *     100 leaf  <- work <- main     (pid 100, cpu 1)
 *     300 work  <- main             (pid 100, cpu 0)
 *     500 main                      (pid 200, cpu 1)
 *      50 0x100, outside every map  (pid 100, cpu 0)
 *   total 1050: self main 500, work 300, leaf 200, unknown 50;
 *   children main 1000, work 500, leaf 200, unknown 50.
 *   A second event (task-clock), one sample of 70 in work.
 *   Stacks (outermost first): main;work;leaf 2 samples 200, main;work 1
 *   of 300 (and task-clock's 1 of 70), main 1 of 500, 0x100 1 of 50.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "fixture/kit.h"
#include "pmprof/analysis.h"
#include "pmprof/error.h"
#include "pmprof/hotspot.h"
#include "pmprof/report.h"
#include "pmprof/session.h"
#include "pmprof/table.h"
#include "table/profile.pb-c.h"

#define BASE 0x555555554000ULL

static char dir[64], prog[128];

static int setup(void **state)
{
	static const struct pm_elf_sym syms[] = {
		{ "main", 0x1000, 0x100 },
		{ "work", 0x1100, 0x200 },
		{ "leaf", 0x1300, 0x100 },
	};
	struct pm_elf_image e = { .machine = PM_KIT_EM_X86_64, .type = 3,
				.text_addr = 0x1000, .text_size = 0x1000,
				.syms = syms, .nr_syms = 3 };

	(void)state;
	strcpy(dir, "/tmp/pmprof-hotspot.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	assert_int_equal(pm_kit__write_elf(prog, &e), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(prog);
	return rmdir(dir);
}

static void sample(struct pm_kit *k, int ev, uint32_t pid, uint32_t cpu,
		   uint64_t ip, uint64_t period, const uint64_t *cc, uint64_t nr)
{
	static uint64_t time = 1000;
	struct pm_sample s = { 0 };

	s.misc = PM_MISC_USER;
	s.ip = ip;
	s.pid = s.tid = pid;
	s.cpu = cpu;
	s.time = time++;
	s.period = period;
	s.id = pm_kit__id(k, ev);
	s.callchain = cc;
	s.callchain_nr = nr;
	pm_kit__sample_full(k, ev, &s);
}

/* The recording of the file comment; its bytes (free them). */
static void *recording(size_t *len)
{
	const uint64_t leaf1[] = { BASE + 0x1310, BASE + 0x1120, BASE + 0x1010 };
	const uint64_t leaf2[] = { BASE + 0x1320, BASE + 0x1120, BASE + 0x1010 };
	const uint64_t work[] = { BASE + 0x1150, BASE + 0x1010 };
	const uint64_t mainc[] = { BASE + 0x1010 };
	const uint64_t unknown[] = { 0x100 };
	struct pm_kit *k = pm_kit__new("x86_64", false);
	int clock, task;

	clock = pm_kit__event(k, "cpu-clock", 1, 0,
			      PM_KIT_SAMPLE_DEFAULT | PM_SAMPLE_CALLCHAIN, 1000);
	task = pm_kit__event(k, "task-clock", 1, 1,
			     PM_KIT_SAMPLE_DEFAULT | PM_SAMPLE_CALLCHAIN, 1000);
	pm_kit__comm(k, 100, 100, "prog");
	pm_kit__comm(k, 200, 200, "other");
	pm_kit__mmap(k, 100, BASE + 0x1000, 0x1000, 0x1000, prog);
	pm_kit__mmap(k, 200, BASE + 0x1000, 0x1000, 0x1000, prog);
	sample(k, clock, 100, 0, leaf1[0], 100, leaf1, 3);
	sample(k, clock, 100, 1, leaf2[0], 100, leaf2, 3);
	sample(k, clock, 100, 0, work[0], 300, work, 2);
	sample(k, clock, 200, 1, mainc[0], 500, mainc, 1);
	sample(k, clock, 100, 0, unknown[0], 50, unknown, 1);
	sample(k, task, 100, 0, work[0], 70, work, 2);
	return pm_kit__finish(k, len);
}

/* The report of the recording with these options. */
/* A cell's column by name (JSON-only columns are looked up second). */
static size_t col(const struct pm_table *t, const char *name)
{
	return pm_kit__column(t, name);
}

static struct pm_report *report(const struct pm_hotspot_opts *o)
{
	struct pm_session_opts so = { .sz = sizeof(so), .host = PM_HOST_NO,
				      .no_buildid_cache = true };
	size_t len;
	void *buf = recording(&len);
	struct pm_report *rep = pm_kit__hotspot(buf, len, &so, o);

	free(buf);
	return rep;
}

static const char *str(const struct pm_table *t, size_t row, const char *name)
{
	const char *s = pm_table__get_str(t, row, col(t, name));

	assert_non_null(s);
	return s;
}

static double pct(const struct pm_table *t, size_t row, const char *name)
{
	return pm_table__get_double(t, row, col(t, name));
}

static bool close_to(double a, double b)
{
	return a - b < 1e-9 && b - a < 1e-9;
}

static void test_dso_sym(void **state)
{
	struct pm_hotspot_opts o = { .sz = sizeof(o) };
	struct pm_report *rep = report(&o);
	const struct pm_table *t;

	(void)state;
	assert_int_equal(pm_report__nr_tables(rep), 2);	/* two events */
	t = pm_report__table(rep, 0);
	assert_int_equal(pm_table__nr_rows(t), 4);
	/* by period: main 500, work 300, leaf 200, the unknown address 50 */
	assert_string_equal(str(t, 0, "Symbol"), "[.] main");
	assert_string_equal(str(t, 1, "Symbol"), "[.] work");
	assert_string_equal(str(t, 2, "Symbol"), "[.] leaf");
	assert_string_equal(str(t, 3, "Symbol"), "[.] 0x0000000000000100");
	assert_string_equal(str(t, 0, "dso"), "prog");
	assert_string_equal(str(t, 3, "dso"), "[unknown]");
	assert_true(close_to(pct(t, 0, "overhead"), 100.0 * 500 / 1050));
	assert_true(close_to(pct(t, 2, "overhead"), 100.0 * 200 / 1050));
	assert_int_equal(pm_table__get_u64(t, 0, col(t, "samples")), 1);
	assert_int_equal(pm_table__get_u64(t, 2, col(t, "samples")), 2);
	assert_int_equal(pm_table__get_u64(t, 1, col(t, "period")), 300);
	/* the second event: its own table, its own total */
	t = pm_report__table(rep, 1);
	assert_int_equal(pm_table__nr_rows(t), 1);
	assert_true(close_to(pct(t, 0, "overhead"), 100.0));
	pm_report__delete(rep);
}

/* JSON names the bare symbol; CSV stacks both events behind an Event column. */
static void test_formats(void **state)
{
	struct pm_hotspot_opts o = { .sz = sizeof(o) };
	struct pm_report *rep = report(&o);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	(void)state;
	assert_int_equal(pm_report__render(rep, out, pm_renderer__find("json"), NULL), 0);
	fclose(out);
	assert_non_null(strstr(text, "{\"lost_samples\":0,\"events\":[{\"event\":\"cpu-clock\","
				     "\"samples\":5,\"event_count\":1050,\"rows\":["
				     "{\"overhead\":47.61904761904762"));
	assert_non_null(strstr(text, "\"dso\":\"prog\",\"symbol\":\"main\"}"));
	assert_non_null(strstr(text, "\"symbol\":\"0x0000000000000100\"}"));
	free(text);
	text = NULL;
	out = open_memstream(&text, &len);
	assert_int_equal(pm_report__render(rep, out, pm_renderer__find("csv"), NULL), 0);
	fclose(out);
	assert_non_null(strstr(text, "Event,Overhead,Samples,Period,Shared Object,Symbol\n"
				     "cpu-clock,47.62,1,500,prog,[.] main\n"));
	assert_non_null(strstr(text, "\ntask-clock,100.00,1,70,prog,[.] work\n"));
	free(text);
	pm_report__delete(rep);
}

static void test_children(void **state)
{
	struct pm_hotspot_opts o = { .sz = sizeof(o), .children = true };
	struct pm_report *rep = report(&o);
	const struct pm_table *t = pm_report__table(rep, 0);

	(void)state;
	/* by Children: main 1000, work 500, leaf 200, unknown 50 */
	assert_string_equal(str(t, 0, "Symbol"), "[.] main");
	assert_true(close_to(pct(t, 0, "children"), 100.0 * 1000 / 1050));
	assert_true(close_to(pct(t, 0, "self"), 100.0 * 500 / 1050));
	assert_string_equal(str(t, 1, "Symbol"), "[.] work");
	assert_true(close_to(pct(t, 1, "children"), 100.0 * 500 / 1050));
	assert_string_equal(str(t, 2, "Symbol"), "[.] leaf");
	assert_true(close_to(pct(t, 2, "children"), pct(t, 2, "self")));
	pm_report__delete(rep);
}

static void test_keys(void **state)
{
	struct pm_hotspot_opts o = { .sz = sizeof(o) };
	struct pm_error err = { 0 };
	struct pm_report *rep;
	const struct pm_table *t;

	(void)state;
	assert_int_equal(pm_hot_keys__parse("comm,pid", o.keys, &o.nr_keys, &err), 0);
	rep = report(&o);
	t = pm_report__table(rep, 0);
	/* prog/100: 100 + 100 + 300 + 50 = 550; other/200: 500 */
	assert_int_equal(pm_table__nr_rows(t), 2);
	assert_string_equal(str(t, 0, "comm"), "prog");
	assert_int_equal(pm_table__get_i64(t, 0, col(t, "pid")), 100);
	assert_int_equal(pm_table__get_u64(t, 0, col(t, "period")), 550);
	assert_string_equal(str(t, 1, "comm"), "other");
	/* no dso or symbol key: JSON still has them, null */
	assert_true(pm_table__is_null(t, 0, col(t, "symbol")));
	pm_report__delete(rep);

	/* cpu: 0 has 100 + 300 + 50, 1 has 100 + 500; the tie order of
	 * equal periods falls to the key (cpu ascending) */
	assert_int_equal(pm_hot_keys__parse("cpu", o.keys, &o.nr_keys, &err), 0);
	rep = report(&o);
	t = pm_report__table(rep, 0);
	assert_int_equal(pm_table__get_i64(t, 0, col(t, "cpu")), 1);
	assert_int_equal(pm_table__get_u64(t, 0, col(t, "period")), 600);
	assert_int_equal(pm_table__get_i64(t, 1, col(t, "cpu")), 0);
	pm_report__delete(rep);

	/* pc: every address its own row; leaf's two are apart */
	assert_int_equal(pm_hot_keys__parse("sym,pc", o.keys, &o.nr_keys, &err), 0);
	rep = report(&o);
	t = pm_report__table(rep, 0);
	assert_int_equal(pm_table__nr_rows(t), 5);
	assert_int_equal(pm_table__get_u64(t, 0, col(t, "pc")), BASE + 0x1010);
	pm_report__delete(rep);

	assert_int_equal(pm_hot_keys__parse("symbol", o.keys, &o.nr_keys, &err), 0);
	assert_int_equal(o.nr_keys, 1);
	assert_int_equal(o.keys[0], PM_HOT_SYM);
	assert_int_equal(pm_hot_keys__parse("dso,bogus", o.keys, &o.nr_keys, &err),
			 -PM_EUSAGE);
	assert_string_equal(err.msg, "unknown sort key 'bogus' (dso, sym, comm, pid, tid, cpu, pc)");
	assert_int_equal(pm_hot_keys__parse("sym,symbol", o.keys, &o.nr_keys, &err),
			 -PM_EUSAGE);
	assert_string_equal(err.msg, "sort key 'symbol' given twice");
	assert_int_equal(pm_hot_keys__parse("", o.keys, &o.nr_keys, &err), -PM_EUSAGE);
}

static void test_percent_limit_and_top(void **state)
{
	struct pm_hotspot_opts o = { .sz = sizeof(o), .percent_limit = 20 };
	struct pm_report *rep = report(&o);
	const struct pm_table *t = pm_report__table(rep, 0);

	(void)state;
	/* leaf (19.05%) and the unknown (4.76%) are below 20% */
	assert_int_equal(pm_table__nr_rows(t), 2);
	assert_string_equal(str(t, 1, "Symbol"), "[.] work");
	pm_report__truncate(rep, 1);
	assert_int_equal(pm_table__nr_rows(pm_report__table(rep, 0)), 1);
	pm_report__delete(rep);
}

static char *folded(const struct pm_report *rep, const char *weight)
{
	struct pm_render_opts ro = { .sz = sizeof(ro), .weight = weight };
	struct pm_error err = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_int_equal(pm_report__check_render(rep, pm_renderer__find("folded"),
						 &ro, &err), 0);
	assert_int_equal(pm_report__render(rep, out, pm_renderer__find("folded"), &ro), 0);
	fclose(out);
	return text;
}

/* opts.stacks: the stacks table, and the folded format drawn from it. */
static void test_stacks(void **state)
{
	struct pm_hotspot_opts o = { .sz = sizeof(o), .stacks = true };
	struct pm_render_opts ro = { .sz = sizeof(ro), .weight = "cycles" };
	struct pm_report *rep = report(&o);
	const struct pm_table *t = pm_report__find_table(rep, "stacks");
	struct pm_error err = { 0 };
	char *text;

	(void)state;
	assert_non_null(t);
	assert_int_equal(pm_report__nr_tables(rep), 3);	/* two events, stacks */
	assert_int_equal(pm_table__nr_rows(t), 4);
	assert_string_equal(str(t, 0, "stack"), "0x0000000000000100");
	assert_string_equal(str(t, 3, "stack"), "main;work;leaf");
	assert_int_equal(pm_table__get_u64(t, 2, col(t, "samples")), 2);
	assert_int_equal(pm_table__get_u64(t, 2, col(t, "period")), 370);
	assert_int_equal(pm_table__get_u64(t, 2, col(t, "task-clock")), 70);
	text = folded(rep, NULL);
	assert_string_equal(text, "0x0000000000000100 1\nmain 1\nmain;work 2\n"
				  "main;work;leaf 2\n");
	free(text);
	text = folded(rep, "period");
	assert_string_equal(text, "0x0000000000000100 50\nmain 500\nmain;work 370\n"
				  "main;work;leaf 200\n");
	free(text);
	text = folded(rep, "cpu-clock");
	assert_string_equal(text, "0x0000000000000100 50\nmain 500\nmain;work 300\n"
				  "main;work;leaf 200\n");
	free(text);
	text = folded(rep, "task-clock");	/* stacks of weight 0 left out */
	assert_string_equal(text, "main;work 70\n");
	free(text);
	assert_int_equal(pm_report__check_render(rep, pm_renderer__find("folded"),
						 &ro, &err), -PM_EUSAGE);
	assert_non_null(strstr(err.msg, "no event 'cycles'"));
	/* --top trims the event tables, not the picture */
	pm_report__truncate(rep, 1);
	assert_int_equal(pm_table__nr_rows(pm_report__find_table(rep, "stacks")), 4);
	pm_report__delete(rep);
	/* without opts.stacks there is nothing to fold */
	o.stacks = false;
	rep = report(&o);
	assert_null(pm_report__find_table(rep, "stacks"));
	assert_int_equal(pm_report__check_render(rep, pm_renderer__find("folded"),
						 NULL, &err), -PM_EUSAGE);
	assert_non_null(strstr(err.msg, "keeps no call stacks"));
	pm_report__delete(rep);
}

/* HTML with stacks: the stacks as the page script's JSON, not as a table. */
static void test_html_stacks(void **state)
{
	struct pm_hotspot_opts o = { .sz = sizeof(o), .stacks = true };
	struct pm_report *rep = report(&o);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	(void)state;
	assert_int_equal(pm_report__render(rep, out, pm_renderer__find("html"), NULL), 0);
	fclose(out);
	assert_non_null(strstr(text, "{\"columns\":[\"samples\",\"period\",\"cpu-clock\","
				     "\"task-clock\"],\n\"stacks\":["));
	assert_non_null(strstr(text, "\n[\"main;work\",[2,370,300,70]]"));
	assert_non_null(strstr(text, "\n[\"0x0000000000000100\",[1,50,50,0]]"));
	assert_non_null(strstr(text, "<div id=\"pm-fg\"></div>"));
	assert_non_null(strstr(text, "<table class=\"pm-sortable\">"));
	assert_null(strstr(text, "<th>Stack</th>"));
	assert_null(strstr(text, " src="));
	free(text);
	pm_report__delete(rep);
}

/* The pprof output, gunzipped and unpacked. */
static Perftools__Profiles__Profile *pprof(const struct pm_report *rep)
{
	Perftools__Profiles__Profile *p;
	char *gz = NULL;
	size_t gzlen = 0, cap = 1 << 20;
	uint8_t *raw = malloc(cap);
	FILE *out = open_memstream(&gz, &gzlen);
	z_stream z = { 0 };

	assert_int_equal(pm_report__render(rep, out, pm_renderer__find("pprof"), NULL), 0);
	fclose(out);
	assert_true(gzlen > 18 && (uint8_t)gz[0] == 0x1f && (uint8_t)gz[1] == 0x8b);
	assert_int_equal(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
	z.next_in = (uint8_t *)gz;
	z.avail_in = (uInt)gzlen;
	z.next_out = raw;
	z.avail_out = (uInt)cap;
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	p = perftools__profiles__profile__unpack(NULL, z.total_out, raw);
	assert_non_null(p);
	inflateEnd(&z);
	free(raw);
	free(gz);
	return p;
}

static const char *pstr(const Perftools__Profiles__Profile *p, int64_t i)
{
	assert_true(i >= 0 && (size_t)i < p->n_string_table);
	return p->string_table[i];
}

static const Perftools__Profiles__Location *
ploc(const Perftools__Profiles__Profile *p, uint64_t id)
{
	for (size_t i = 0; i < p->n_location; i++)
		if (p->location[i]->id == id)
			return p->location[i];
	fail_msg("no location %llu", (unsigned long long)id);
	return NULL;
}

static const char *pfunc(const Perftools__Profiles__Profile *p, uint64_t loc)
{
	const Perftools__Profiles__Location *l = ploc(p, loc);

	if (!l->n_line)
		return NULL;
	for (size_t i = 0; i < p->n_function; i++)
		if (p->function[i]->id == l->line[0]->function_id)
			return pstr(p, p->function[i]->name);
	fail_msg("no function %llu", (unsigned long long)l->line[0]->function_id);
	return NULL;
}

/* opts.profile: the pprof profile of the file comment's samples. */
static void test_pprof(void **state)
{
	struct pm_hotspot_opts o = { .sz = sizeof(o), .profile = true };
	struct pm_report *rep = report(&o);
	Perftools__Profiles__Profile *p = pprof(rep);
	int found = 0;

	(void)state;
	assert_string_equal(pstr(p, 0), "");
	assert_int_equal(p->n_sample_type, 3);
	assert_string_equal(pstr(p, p->sample_type[0]->type), "samples");
	assert_string_equal(pstr(p, p->sample_type[1]->type), "cpu-clock");
	assert_string_equal(pstr(p, p->sample_type[2]->type), "task-clock");
	assert_string_equal(pstr(p, p->default_sample_type), "cpu-clock");
	/* leaf twice (two addresses), work (both events: one key), main,
	 * the unknown address */
	assert_int_equal(p->n_sample, 5);
	for (size_t i = 0; i < p->n_sample; i++) {
		const Perftools__Profiles__Sample *s = p->sample[i];
		const char *leaf = pfunc(p, s->location_id[0]);
		int64_t pid = -1, cpu = -1;

		assert_int_equal(s->n_value, 3);
		for (size_t k = 0; k < s->n_label; k++) {
			if (!strcmp(pstr(p, s->label[k]->key), "process"))
				pid = s->label[k]->num;
			if (!strcmp(pstr(p, s->label[k]->key), "cpu"))
				cpu = s->label[k]->num;
		}
		if (leaf && !strcmp(leaf, "work")) {
			found++;
			assert_int_equal(s->n_location_id, 2);
			assert_string_equal(pfunc(p, s->location_id[1]), "main");
			assert_int_equal(s->value[0], 2);
			assert_int_equal(s->value[1], 300);
			assert_int_equal(s->value[2], 70);
			assert_int_equal(pid, 100);
			assert_int_equal(cpu, 0);
		} else if (leaf && !strcmp(leaf, "main")) {
			found++;
			assert_int_equal(s->value[1], 500);
			assert_int_equal(pid, 200);
			assert_int_equal(cpu, 1);
		} else if (!leaf) {
			found++;
			assert_int_equal(ploc(p, s->location_id[0])->address, 0x100);
			assert_int_equal(ploc(p, s->location_id[0])->mapping_id, 0);
			assert_int_equal(s->value[1], 50);
		} else {
			assert_string_equal(leaf, "leaf");
			assert_int_equal(s->n_location_id, 3);
			assert_int_equal(s->value[1], 100);
		}
	}
	assert_int_equal(found, 3);
	/* prog in two processes: a mapping each, both the file */
	assert_int_equal(p->n_mapping, 2);
	assert_string_equal(pstr(p, p->mapping[0]->filename), prog);
	assert_int_equal(p->mapping[0]->memory_start, BASE + 0x1000);
	assert_int_equal(p->mapping[0]->memory_limit, BASE + 0x2000);
	assert_int_equal(p->mapping[0]->file_offset, 0x1000);
	perftools__profiles__profile__free_unpacked(p, NULL);
	pm_report__delete(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dso_sym),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_children),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_percent_limit_and_top),
		cmocka_unit_test(test_stacks),
		cmocka_unit_test(test_pprof),
		cmocka_unit_test(test_html_stacks),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
