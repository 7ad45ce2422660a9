// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for tests/cli/report-perf.sh, with known functions:
 *   report-prog single     two hot functions and calls into libc
 *   report-prog threads    three threads, each in its own function
 *   report-prog stat       two threads with known work for record -s:
 *                          thread N (1, 2) writes N x 64 fresh pages and
 *                          sleeps N x 8 times (>= that many page faults
 *                          and context switches each); prints their tids
 *   report-prog forkexec   a child that execs PROG_CHILD (argv[2]) single
 *   report-prog syscalls   reads and writes: kernel samples
 *   report-prog jit        a loop in anonymous executable memory, as a JIT
 *                          leaves it (no /tmp/perf-PID.map); x86-64 only,
 *                          exits 77 elsewhere
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/syscall.h>
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

/* stat mode's thread: N x 64 pages written once each, N x 8 sleeps. */
static void *stat_thread(void *arg)
{
	long n = (long)arg, pages = n * 64, page = sysconf(_SC_PAGESIZE);
	struct timespec ms = { 0, 1000000 };
	char *m = mmap(NULL, (size_t)(pages * page), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return NULL;
	madvise(m, (size_t)(pages * page), MADV_NOHUGEPAGE);	/* a fault per page */
	for (long i = 0; i < pages; i++)
		m[i * page] = 1;
	for (long i = 0; i < n * 8; i++)
		nanosleep(&ms, NULL);
	spin_beta(n * 2000000);
	printf("stat thread %ld tid %ld pages %ld sleeps %ld\n", n,
	       (long)syscall(SYS_gettid), pages, n * 8);
	fflush(stdout);
	munmap(m, (size_t)(pages * page));
	return NULL;
}

static void stat_threads(void)
{
	pthread_t t[2];

	/* one after the other: the lines come out in order */
	for (long i = 0; i < 2; i++) {
		pthread_create(&t[i], NULL, stat_thread, (void *)(i + 1));
		pthread_join(t[i], NULL);
	}
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

/* mov ecx, 1000000; 1: dec ecx; jnz 1b; ret */
static int jit(void)
{
#if defined(__x86_64__)
	static const unsigned char code[] = {
		0xb9, 0x40, 0x42, 0x0f, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3,
	};
	void (*fn)(void);
	void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memcpy(m, code, sizeof(code));
	fn = (void (*)(void))m;
	for (int i = 0; i < 600; i++)
		fn();
	spin_beta(20000000);	/* and a little of the program itself */
	return 0;
#else
	fprintf(stderr, "report-prog: jit mode is x86-64 only\n");
	return 77;
#endif
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "single";

	if (!strcmp(mode, "single")) {
		single();
	} else if (!strcmp(mode, "threads")) {
		threads();
	} else if (!strcmp(mode, "stat")) {
		stat_threads();
	} else if (!strcmp(mode, "syscalls")) {
		syscalls();
	} else if (!strcmp(mode, "jit")) {
		return jit();
	} else if (!strcmp(mode, "forkexec") && argc > 2) {
		pid_t pid = fork();

		if (pid == 0) {
			execl(argv[2], argv[2], "single", (char *)NULL);
			_exit(127);
		}
		spin_beta(60000000);
		waitpid(pid, NULL, 0);
	} else {
		fprintf(stderr, "usage: report-prog single|threads|stat|syscalls|jit|forkexec CHILD\n");
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
