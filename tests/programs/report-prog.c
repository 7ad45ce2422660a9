// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for tests/cli/report-perf.sh, with known functions:
 *   report-prog single     two hot functions and calls into libc
 *   report-prog threads    three threads, each in its own function
 *   report-prog forkexec   a child that execs PROG_CHILD (argv[2]) single
 *   report-prog syscalls   reads and writes: kernel samples
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;
static void (*volatile leave)(int) = _exit;

NOINLINE static void spin_alpha(long n)
{
	unsigned long x = 1;

	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink += x;
}

NOINLINE void spin_beta(long n)
{
	unsigned long x = 7;

	for (long i = 0; i < n; i++)
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
	sink += x;
}

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

NOINLINE static void use_libc(int rounds)
{
	static char buf[1 << 16];
	static int v[4096];

	for (int r = 0; r < rounds; r++) {
		memset(buf, r, sizeof(buf));
		sink += strlen(buf);
		for (int i = 0; i < 4096; i++)
			v[i] = (i * 7919 + r) % 4096;
		qsort(v, 4096, sizeof(int), cmp);
	}
}

static void single(void)
{
	spin_alpha(150000000);
	spin_beta(100000000);
	use_libc(1500);
}

static void *thread_fn(void *arg)
{
	long which = (long)arg;

	if (which == 0)
		spin_alpha(120000000);
	else
		spin_beta(80000000);
	return NULL;
}

static void threads(void)
{
	pthread_t t[2];

	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, thread_fn, (void *)i);
	use_libc(800);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
}

static void syscalls(void)
{
	static char buf[1 << 16];
	int in = open("/dev/zero", O_RDONLY), out = open("/dev/null", O_WRONLY);

	for (int i = 0; i < 40000; i++) {
		if (read(in, buf, sizeof(buf)) < 0 || write(out, buf, sizeof(buf)) < 0)
			break;
		getppid();
	}
	close(in);
	close(out);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "single";

	if (!strcmp(mode, "single")) {
		single();
	} else if (!strcmp(mode, "threads")) {
		threads();
	} else if (!strcmp(mode, "syscalls")) {
		syscalls();
	} else if (!strcmp(mode, "forkexec") && argc > 2) {
		pid_t pid = fork();

		if (pid == 0) {
			execl(argv[2], argv[2], "single", (char *)NULL);
			_exit(127);
		}
		spin_beta(60000000);
		waitpid(pid, NULL, 0);
	} else {
		fprintf(stderr, "usage: report-prog single|threads|syscalls|forkexec CHILD\n");
		return 1;
	}
	/*
	 * _exit through a pointer the compiler cannot see through: no exit
	 * handlers run (perf's libunwind mis-unwinds libc's exit(), whose
	 * last call returns to the first byte of the next function), and
	 * main's frame stays a plain call.
	 */
	leave(0);
	return 0;
}
