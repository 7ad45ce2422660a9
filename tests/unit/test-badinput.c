// SPDX-License-Identifier: GPL-2.0
/*
 * Bad input never crashes, hangs or passes silently: `pmprof info` and
 * `pmprof dump` run in-process on real recordings (tests/data/) cut at
 * every byte offset of their first 64 KiB and at random later ones, and
 * with random bytes corrupted. A cut file must fail with status 2 and a
 * message that names the file and an offset; a corrupted one may be
 * accepted (not every byte is checkable) but must not crash. Under the
 * sanitizers (.ci/run) this also catches reads out of bounds and leaks.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "builtin.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

struct blob {
	uint8_t *p;
	size_t len;
};

static struct blob load(const char *name)
{
	char path[512];
	struct blob b = { 0 };
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/tests/data/%s",
		 getenv("TOP") ? getenv("TOP") : TOP_SRCDIR, name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b.p = malloc((size_t)n);
	b.len = fread(b.p, 1, (size_t)n, f);
	fclose(f);
	assert_int_equal(b.len, (size_t)n);
	return b;
}

/* Where the command reads from, and where its output and stderr go. */
static int in_fd = -1, err_fd = -1, null_fd = -1;
static char in_path[64];

static void write_input(const uint8_t *p, size_t len)
{
	assert_int_equal(ftruncate(in_fd, 0), 0);
	assert_int_equal(pwrite(in_fd, p, len, 0), (ssize_t)len);
}

/* Cutting shorter and shorter needs no rewrite: just truncate. */
static void cut_input(size_t len)
{
	assert_int_equal(ftruncate(in_fd, (off_t)len), 0);
}

/* Run `pmprof CMD -i in_path [extra]`; its stderr lands in *msg. */
static int run(int (*cmd)(int, const char **), const char *name,
	       const char *extra, char *msg, size_t msg_size)
{
	const char *argv[6] = { name, "-i", in_path, extra, NULL };
	int argc = extra ? 4 : 3, saved_out, saved_err, status;
	ssize_t n;

	fflush(stdout);
	fflush(stderr);
	saved_out = dup(1);
	saved_err = dup(2);
	assert_int_equal(ftruncate(err_fd, 0), 0);
	lseek(err_fd, 0, SEEK_SET);
	dup2(null_fd, 1);	/* the output is not what is tested here */
	dup2(err_fd, 2);
	status = cmd(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	n = pread(err_fd, msg, msg_size - 1, 0);
	msg[n > 0 ? n : 0] = '\0';
	return status;
}

static void setup_fds(void)
{
	in_fd = memfd_create("pmprof-input", 0);
	err_fd = memfd_create("pmprof-stderr", 0);
	assert_true(in_fd >= 0 && err_fd >= 0);
	snprintf(in_path, sizeof(in_path), "/proc/self/fd/%d", in_fd);
	null_fd = open("/dev/null", O_WRONLY);
	assert_true(null_fd >= 0);
}

static void close_fds(void)
{
	close(in_fd);
	close(err_fd);
	close(null_fd);
}

static void check_cut(const struct blob *b, size_t len, bool rewrite)
{
	static int (*const cmds[])(int, const char **) = { cmd_info, cmd_dump };
	static const char *const names[] = { "info", "dump" };
	char msg[1024];
	size_t c;

	if (rewrite)
		write_input(b->p, len);
	else
		cut_input(len);
	for (c = 0; c < 2; c++) {
		int status = run(cmds[c], names[c], c ? "--format=json" : NULL,
				 msg, sizeof(msg));

		/* info stops at the header; a cut in the data is dump's. */
		if (c == 0 && status == 0)
			continue;
		if (status != 2)
			fail_msg("%s on a file cut at %zu of %zu: status %d (%s)",
				 names[c], len, b->len, status, msg);
		if (!strstr(msg, in_path) || (len > 0 && !strstr(msg, "offset")))
			fail_msg("%s at cut %zu: message lacks file or offset: %s",
				 names[c], len, msg);
	}
}

static void cut_everywhere(const char *file)
{
	struct blob b = load(file);
	size_t len, limit = b.len < 65536 ? b.len : 65536;
	int i;

	setup_fds();
	srandom(1234);
	for (i = 0; i < 300 && b.len > limit; i++)
		check_cut(&b, limit + (size_t)random() % (b.len - limit), true);
	write_input(b.p, limit);
	for (len = limit; len-- > 0;)
		check_cut(&b, len, false);
	free(b.p);
	close_fds();
}

static void test_cut_group_recording(void **state)
{
	(void)state;
	cut_everywhere("group-fp.data");
}

static void test_cut_compressed_recording(void **state)
{
	(void)state;
	cut_everywhere("compressed.data");
}

static void corrupt(const char *file, int rounds)
{
	struct blob b = load(file);
	uint8_t *copy = malloc(b.len);
	char msg[1024];
	int i, k;

	setup_fds();
	srandom(99);
	for (i = 0; i < rounds; i++) {
		int nbytes = 1 + (int)(random() % 8);
		int status;

		memcpy(copy, b.p, b.len);
		for (k = 0; k < nbytes; k++)
			copy[(size_t)random() % b.len] = (uint8_t)random();
		write_input(copy, b.len);
		status = run(cmd_dump, "dump", "--format=json", msg, sizeof(msg));
		if (status != 0 && status != 2)
			fail_msg("dump on corrupted input: status %d (%s)", status, msg);
		if (status == 2 && !strstr(msg, in_path))
			fail_msg("message lacks the file name: %s", msg);
		status = run(cmd_info, "info", NULL, msg, sizeof(msg));
		if (status != 0 && status != 2)
			fail_msg("info on corrupted input: status %d (%s)", status, msg);
	}
	free(copy);
	free(b.p);
	close_fds();
}

static void test_corrupt_group_recording(void **state)
{
	(void)state;
	corrupt("group-fp.data", 3000);
}

static void test_corrupt_pipe_recording(void **state)
{
	(void)state;
	corrupt("pipe.data", 1500);
}

static void test_corrupt_compressed_recording(void **state)
{
	(void)state;
	corrupt("compressed.data", 1500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut_group_recording),
		cmocka_unit_test(test_cut_compressed_recording),
		cmocka_unit_test(test_corrupt_group_recording),
		cmocka_unit_test(test_corrupt_pipe_recording),
		cmocka_unit_test(test_corrupt_compressed_recording),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
