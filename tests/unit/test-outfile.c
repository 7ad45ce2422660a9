// SPDX-License-Identifier: GPL-2.0
/*
 * Output files (pmprof/outfile.h): what is on disk, under which name and
 * mode, at each step, read back with stat(2) and read(2) in a directory of
 * the test's own.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "pmprof/outfile.h"

static char dir[] = "/tmp/pmprof-outfile-XXXXXX";

static const char *at(const char *name)
{
	static char buf[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static void put(const char *name, const char *text, mode_t mode)
{
	int fd = open(at(name), O_WRONLY | O_CREAT | O_TRUNC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

/* The file's bytes as a string ("" if absent). */
static const char *contents(const char *path)
{
	static char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? 0 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_mode & 0777;
}

static void write_text(struct pm_outfile *f, const char *text)
{
	struct pm_error err = { 0 };

	assert_int_equal(pm_write_all(pm_outfile__fd(f), text, strlen(text),
				      pm_outfile__name(f), &err), 0);
}

static int setup(void **state)
{
	(void)state;
	umask(022);
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* Written under NAME.PID.partial; NAME appears only at commit, 0600. */
static void test_new_file(void **state)
{
	struct pm_error err = { 0 };
	struct pm_outfile *f;
	char partial[256];

	(void)state;
	assert_int_equal(pm_outfile__open(&f, at("new.data"), NULL, &err), 0);
	snprintf(partial, sizeof(partial), "%s/new.data.%d.partial", dir, (int)getpid());
	assert_string_equal(pm_outfile__partial(f), partial);
	assert_string_equal(pm_outfile__name(f), at("new.data"));
	write_text(f, "whole");
	assert_true(exists(partial));
	assert_false(exists(at("new.data")));
	assert_int_equal(mode_of(partial), 0600);
	assert_int_equal(pm_outfile__commit(f, &err), 0);
	assert_false(exists(partial));
	assert_string_equal(contents(at("new.data")), "whole");
	assert_int_equal(mode_of(at("new.data")), 0600);
}

/* Abort: the old file as it was, no partial; leave: the partial stays. */
static void test_abort_and_leave(void **state)
{
	struct pm_error err = { 0 };
	struct pm_outfile *f;
	char partial[256];

	(void)state;
	put("old.data", "old", 0644);
	assert_int_equal(pm_outfile__open(&f, at("old.data"), NULL, &err), 0);
	snprintf(partial, sizeof(partial), "%s", pm_outfile__partial(f));
	write_text(f, "half");
	pm_outfile__abort(f);
	assert_false(exists(partial));
	assert_string_equal(contents(at("old.data")), "old");

	assert_int_equal(pm_outfile__open(&f, at("old.data"), NULL, &err), 0);
	snprintf(partial, sizeof(partial), "%s", pm_outfile__partial(f));
	write_text(f, "recorded so far");
	pm_outfile__leave(f);
	assert_string_equal(contents(partial), "recorded so far");
	assert_string_equal(contents(at("old.data")), "old");
	/* our own pid's partial is not someone else's leftover: the next
	 * one gets another name */
	assert_int_equal(pm_outfile__open(&f, at("old.data"), NULL, &err), 0);
	assert_string_not_equal(pm_outfile__partial(f), partial);
	pm_outfile__abort(f);
	assert_string_equal(contents(partial), "recorded so far");
	unlink(partial);
}

/* Replaced: its mode kept. keep_old: NAME.old, and a new 0600 NAME. */
static void test_replace_and_keep_old(void **state)
{
	struct pm_outfile_opts o = { .sz = sizeof(o), .keep_old = true };
	struct pm_error err = { 0 };
	struct pm_outfile *f;

	(void)state;
	put("shared.data", "v1", 0640);
	assert_int_equal(pm_outfile__open(&f, at("shared.data"), NULL, &err), 0);
	write_text(f, "v2");
	assert_int_equal(pm_outfile__commit(f, &err), 0);
	assert_string_equal(contents(at("shared.data")), "v2");
	assert_int_equal(mode_of(at("shared.data")), 0640);

	put("rec.data", "first", 0644);
	assert_int_equal(pm_outfile__open(&f, at("rec.data"), &o, &err), 0);
	write_text(f, "second");
	assert_int_equal(pm_outfile__commit(f, &err), 0);
	assert_string_equal(contents(at("rec.data")), "second");
	assert_string_equal(contents(at("rec.data.old")), "first");
	assert_int_equal(mode_of(at("rec.data")), 0600);
	assert_int_equal(mode_of(at("rec.data.old")), 0644);
}

/* A symlink: its target replaced, the link kept; a dangling one creates
 * its target, as open(2) would. */
static void test_symlink(void **state)
{
	struct pm_error err = { 0 };
	struct pm_outfile *f;
	struct stat st;

	(void)state;
	put("target.data", "before", 0644);
	assert_int_equal(symlink("target.data", at("link.data")), 0);
	assert_int_equal(pm_outfile__open(&f, at("link.data"), NULL, &err), 0);
	write_text(f, "after");
	assert_int_equal(pm_outfile__commit(f, &err), 0);
	assert_int_equal(lstat(at("link.data"), &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_string_equal(contents(at("target.data")), "after");

	assert_int_equal(symlink("nowhere.data", at("dangling.data")), 0);
	assert_int_equal(pm_outfile__open(&f, at("dangling.data"), NULL, &err), 0);
	write_text(f, "made");
	assert_int_equal(pm_outfile__commit(f, &err), 0);
	assert_string_equal(contents(at("nowhere.data")), "made");
}

/* Devices in place (no partial); a full one says so and names itself;
 * a directory is refused. */
static void test_devices_and_directories(void **state)
{
	struct pm_error err = { 0 };
	struct pm_outfile *f;

	(void)state;
	assert_int_equal(pm_outfile__open(&f, "/dev/null", NULL, &err), 0);
	assert_null(pm_outfile__partial(f));
	write_text(f, "gone");
	assert_int_equal(pm_outfile__commit(f, &err), 0);

	assert_int_equal(pm_outfile__open(&f, "/dev/full", NULL, &err), 0);
	assert_int_equal(pm_write_all(pm_outfile__fd(f), "x", 1,
				      pm_outfile__name(f), &err), -ENOSPC);
	assert_string_equal(err.msg, "/dev/full: write failed: No space left on device");
	pm_outfile__abort(f);
	assert_true(exists("/dev/full"));

	assert_int_equal(pm_outfile__open(&f, "-", NULL, &err), 0);
	assert_int_equal(pm_outfile__fd(f), STDOUT_FILENO);
	assert_null(pm_outfile__partial(f));
	pm_outfile__abort(f);

	assert_int_equal(pm_outfile__open(&f, dir, NULL, &err), -EISDIR);
	assert_null(f);
}

/* The input, under any of its names, is refused. */
static void test_not_the_input(void **state)
{
	struct pm_error err = { 0 };
	struct pm_outfile_opts o = { .sz = sizeof(o) };
	struct pm_outfile *f;
	char dotted[300];

	(void)state;
	put("in.data", "input", 0644);
	assert_int_equal(link(at("in.data"), at("hard.data")), 0);
	assert_int_equal(symlink("in.data", at("soft.data")), 0);
	snprintf(dotted, sizeof(dotted), "%s/./in.data", dir);
	o.input = at("in.data");
	assert_int_equal(pm_outfile__open(&f, at("hard.data"), &o, &err), -PM_EUSAGE);
	assert_non_null(strstr(err.msg, "is the input file"));
	assert_int_equal(pm_outfile__open(&f, at("soft.data"), &o, &err), -PM_EUSAGE);
	assert_int_equal(pm_outfile__open(&f, dotted, &o, &err), -PM_EUSAGE);
	assert_string_equal(contents(at("in.data")), "input");
	/* another file is fine */
	assert_int_equal(pm_outfile__open(&f, at("out.data"), &o, &err), 0);
	pm_outfile__abort(f);
}

/* Partials of processes that are gone are found; live ones, others'
 * names and malformed ones are not. */
struct found {
	int n, pid;
	char partial[256];
};

static void on_partial(void *ctx, const char *partial, int pid)
{
	struct found *f = ctx;

	f->n++;
	f->pid = pid;
	snprintf(f->partial, sizeof(f->partial), "%s", partial);
}

static void test_partials(void **state)
{
	struct found found = { 0 };
	char names[4][64];
	int i, dead;
	pid_t p;

	(void)state;
	p = fork();
	if (!p)
		_exit(0);
	assert_true(p > 0);
	assert_int_equal(waitpid(p, NULL, 0), p);
	dead = (int)p;
	snprintf(names[0], sizeof(names[0]), "x.data.%d.partial", dead);
	snprintf(names[1], sizeof(names[1]), "x.data.%d.partial", 1);	/* init runs */
	snprintf(names[2], sizeof(names[2]), "x.data.%dx.partial", dead);
	snprintf(names[3], sizeof(names[3]), "y.data.%d.partial", dead);
	for (i = 0; i < 4; i++)
		put(names[i], "", 0600);
	assert_int_equal(pm_outfile__partials(at("x.data"), on_partial, &found), 1);
	assert_int_equal(found.n, 1);
	assert_int_equal(found.pid, dead);
	assert_string_equal(found.partial, at(names[0]));
}

static void test_same_file(void **state)
{
	char cwd[256];

	(void)state;
	put("one.data", "1", 0644);
	assert_true(pm_path__same_file(at("one.data"), at("one.data")));
	assert_false(pm_path__same_file(at("one.data"), at("two.data")));
	/* neither exists yet: the same directory and name */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	assert_true(pm_path__same_file("three.data", "./three.data"));
	assert_true(pm_path__same_file("three.data", at("three.data")));
	assert_false(pm_path__same_file("three.data", "four.data"));
	assert_true(pm_path__same_file("-", "-"));
	assert_false(pm_path__same_file("-", "three.data"));
	assert_int_equal(chdir(cwd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_file),
		cmocka_unit_test(test_abort_and_leave),
		cmocka_unit_test(test_replace_and_keep_old),
		cmocka_unit_test(test_symlink),
		cmocka_unit_test(test_devices_and_directories),
		cmocka_unit_test(test_not_the_input),
		cmocka_unit_test(test_partials),
		cmocka_unit_test(test_same_file),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
