// SPDX-License-Identifier: GPL-2.0
/*
 * The hf ABI probe's decision and its per-boot cache. The period
 * sequences are written out by hand: what a kernel with the feature
 * reports (P - H, H, P - H, ...), what a kernel that takes the 144 bytes
 * and ignores them reports (P every time), what the seed's hrtimer path
 * would report (P - H every time), a lost sample, too few samples. The
 * running kernel is probed for real in the lab (make check-lab); here it
 * is this machine's, which has no hf_sample: the probe must say absent.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "pmprof/hfprobe.h"

static const struct pm_hf_probe_plan plan = { .period = 1000, .hf_period = 100, .samples = 6 };

static enum pm_hf_verdict judge(const uint64_t *v, size_t n, char *why)
{
	return pm_hf_probe__judge(&plan, v, n, why, 320);
}

static void test_alternating_is_present(void **state)
{
	static const uint64_t v[] = { 900, 100, 900, 100, 900, 100, 900 };
	char why[320];

	(void)state;
	assert_int_equal(judge(v, 7, why), PM_HF_PRESENT);
	assert_non_null(strstr(why, "900 then 100"));
}

static void test_ignored_field_is_absent(void **state)
{
	static const uint64_t plain[] = { 1000, 1000, 1000, 1000, 1000, 1000 };
	/* the seed's hrtimer events: the long part reported every time */
	static const uint64_t seed_timer[] = { 900, 900, 900, 900, 900, 900 };
	char why[320];

	(void)state;
	assert_int_equal(judge(plain, 6, why), PM_HF_ABSENT);
	assert_non_null(strstr(why, "ignores hf_sample_period"));
	assert_non_null(strstr(why, "period is 1000"));
	assert_int_equal(judge(seed_timer, 6, why), PM_HF_ABSENT);
}

static void test_other_patterns(void **state)
{
	/* starts with the window: not as asked */
	static const uint64_t shifted[] = { 100, 900, 100, 900, 100, 900 };
	/* a window lost: only the two values, out of turn */
	static const uint64_t lost[] = { 900, 100, 900, 900, 100, 900 };
	/* periods the probe did not ask for */
	static const uint64_t other[] = { 500, 500, 1000, 500, 500, 1000 };
	char why[320];

	(void)state;
	assert_int_equal(judge(shifted, 6, why), PM_HF_UNCLEAR);
	assert_int_equal(judge(lost, 6, why), PM_HF_UNCLEAR);
	assert_non_null(strstr(why, "in part"));
	assert_int_equal(judge(other, 6, why), PM_HF_ABSENT);
	assert_non_null(strstr(why, "500, 500, 1000"));
}

static void test_too_few_samples(void **state)
{
	static const uint64_t v[] = { 900, 100, 900, 100, 900 };
	char why[320];

	(void)state;
	assert_int_equal(judge(v, 5, why), PM_HF_UNCLEAR);
	assert_non_null(strstr(why, "5 samples of the 6"));
	assert_int_equal(judge(v, 0, why), PM_HF_UNCLEAR);
}

static void test_plans(void **state)
{
	struct pm_hf_probe_plan p;

	(void)state;
	pm_hf_probe__plan(1, 0, &p);	/* cpu-clock: ns, above 10 us */
	assert_true(p.hf_period >= 10000 && p.hf_period < p.period);
	pm_hf_probe__plan(0, 0, &p);	/* cycles */
	assert_true(p.hf_period > 0 && p.hf_period < p.period);
	assert_true(p.samples >= 6);
}

static char dir[] = "/tmp/pmprof-hfprobe.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static struct pm_hf_probe answer(uint32_t type, enum pm_hf_verdict v, const char *why)
{
	struct pm_hf_probe p;

	memset(&p, 0, sizeof(p));
	p.type = type;
	p.config = 0;
	p.verdict = v;
	p.definite = true;
	snprintf(p.why, sizeof(p.why), "%s", why);
	return p;
}

static void test_cache_round_trip(void **state)
{
	char path[256];
	struct pm_hf_probe a = answer(0, PM_HF_PRESENT, "alternates"), got;
	struct pm_hf_probe b = answer(1, PM_HF_ABSENT, "ignores it");
	struct stat st;

	(void)state;
	/* a directory that does not exist yet: made 0700 */
	snprintf(path, sizeof(path), "%s/sub/hf-probe", dir);
	assert_int_equal(pm_hf_probe__cache_put(path, "boot-1", &a), 0);
	assert_int_equal(pm_hf_probe__cache_put(path, "boot-1", &b), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	snprintf(path, sizeof(path), "%s/sub", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	snprintf(path, sizeof(path), "%s/sub/hf-probe", dir);

	memset(&got, 0, sizeof(got));
	assert_int_equal(pm_hf_probe__cache_get(path, "boot-1", 0, 0, &got), 1);
	assert_int_equal(got.verdict, PM_HF_PRESENT);
	assert_string_equal(got.why, "alternates");
	assert_int_equal(pm_hf_probe__cache_get(path, "boot-1", 1, 0, &got), 1);
	assert_int_equal(got.verdict, PM_HF_ABSENT);
	assert_string_equal(got.why, "ignores it");
	/* another event, another boot: not known */
	assert_int_equal(pm_hf_probe__cache_get(path, "boot-1", 0, 1, &got), 0);
	assert_int_equal(pm_hf_probe__cache_get(path, "boot-2", 0, 0, &got), 0);

	/* a new boot's answer drops the old boot's lines */
	assert_int_equal(pm_hf_probe__cache_put(path, "boot-2", &b), 0);
	assert_int_equal(pm_hf_probe__cache_get(path, "boot-1", 1, 0, &got), 0);
	assert_int_equal(pm_hf_probe__cache_get(path, "boot-2", 1, 0, &got), 1);
	/* replacing an answer keeps one line for it */
	a = answer(1, PM_HF_PRESENT, "now present");
	assert_int_equal(pm_hf_probe__cache_put(path, "boot-2", &a), 0);
	assert_int_equal(pm_hf_probe__cache_get(path, "boot-2", 1, 0, &got), 1);
	assert_int_equal(got.verdict, PM_HF_PRESENT);
}

static void test_cache_untrusted(void **state)
{
	char path[256], link[256];
	struct pm_hf_probe a = answer(0, PM_HF_PRESENT, "alternates"), got;
	FILE *f;

	(void)state;
	/* a file others can write is not read */
	snprintf(path, sizeof(path), "%s/planted", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "boot-1 0 0 present planted\n");
	fclose(f);
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(pm_hf_probe__cache_get(path, "boot-1", 0, 0, &got), 0);
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(pm_hf_probe__cache_get(path, "boot-1", 0, 0, &got), 1);
	/* nor a symbolic link */
	snprintf(link, sizeof(link), "%s/link", dir);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(pm_hf_probe__cache_get(link, "boot-1", 0, 0, &got), 0);
	/* nor garbage */
	f = fopen(path, "w");
	fprintf(f, "boot-1 0 0 maybe x\nboot-1 zero 0 present x\n\n");
	fclose(f);
	assert_int_equal(pm_hf_probe__cache_get(path, "boot-1", 0, 0, &got), 0);
	/* no directory of others' is written into */
	snprintf(path, sizeof(path), "%s/open", dir);
	assert_int_equal(mkdir(path, 0777), 0);
	assert_int_equal(chmod(path, 0777), 0);
	snprintf(path, sizeof(path), "%s/open/hf-probe", dir);
	assert_int_equal(pm_hf_probe__cache_put(path, "boot-1", &a), -EPERM);
	/* a boot id that would break the format */
	snprintf(path, sizeof(path), "%s/x", dir);
	assert_int_equal(pm_hf_probe__cache_put(path, "a b", &a), -EINVAL);
}

static void test_cache_path(void **state)
{
	char buf[256];

	(void)state;
	setenv("PMPROF_HF_PROBE_CACHE", "none", 1);
	assert_int_equal(pm_hf_probe__cache_path(buf, sizeof(buf)), -1);
	setenv("PMPROF_HF_PROBE_CACHE", "/x/y", 1);
	assert_int_equal(pm_hf_probe__cache_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/x/y");
	unsetenv("PMPROF_HF_PROBE_CACHE");
	setenv("XDG_CACHE_HOME", "/xdg", 1);
	assert_int_equal(pm_hf_probe__cache_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/xdg/pmprof/hf-probe");
	setenv("XDG_CACHE_HOME", "relative", 1);	/* ignored, as the spec says */
	setenv("HOME", "/home/u", 1);
	assert_int_equal(pm_hf_probe__cache_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/u/.cache/pmprof/hf-probe");
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	assert_int_equal(pm_hf_probe__cache_path(buf, sizeof(buf)), -1);
}

/*
 * This machine's kernel has no hf_sample (E2BIG or EINVAL), or is a lab
 * kernel; either way the probe answers, and its answer is cached for
 * the boot: the second call says so.
 */
static void test_probe_this_kernel(void **state)
{
	char path[256];
	struct pm_hf_probe p;

	(void)state;
	snprintf(path, sizeof(path), "%s/live", dir);
	setenv("PMPROF_HF_PROBE_CACHE", path, 1);
	assert_int_equal(pm_hf_probe__kernel(1, 0, &p), 0);
	assert_true(p.verdict == PM_HF_PRESENT || p.verdict == PM_HF_ABSENT);
	assert_false(p.cached);
	assert_true(p.why[0] != 0);
	if (!p.definite) {
		unsetenv("PMPROF_HF_PROBE_CACHE");
		skip();
	}
	assert_int_equal(pm_hf_probe__kernel(1, 0, &p), 0);
	assert_true(p.cached);
	unsetenv("PMPROF_HF_PROBE_CACHE");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alternating_is_present),
		cmocka_unit_test(test_ignored_field_is_absent),
		cmocka_unit_test(test_other_patterns),
		cmocka_unit_test(test_too_few_samples),
		cmocka_unit_test(test_plans),
		cmocka_unit_test(test_cache_round_trip),
		cmocka_unit_test(test_cache_untrusted),
		cmocka_unit_test(test_cache_path),
		cmocka_unit_test(test_probe_this_kernel),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
