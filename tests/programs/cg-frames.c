// SPDX-License-Identifier: GPL-2.0
/*
 * Frames for made-up call chains (tests/tools/cg_samples.py): prints
 * "NAME ADDRESS" for each of its functions and for a few of libc's, then
 * spins a quarter of a second so that a recording of it holds the maps
 * of both and samples of its process. The functions are defined so that
 * their names sort against their addresses (f_zeta lowest), the way a
 * test tells an order by name from an order by address.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define FRAME(name)							\
	__attribute__((noinline, used)) void name(void)			\
	{								\
		static volatile int sink;				\
		for (int i = 0; i < 8; i++)				\
			sink += i;					\
	}

FRAME(f_zeta)
FRAME(f_eta)
FRAME(f_delta)
FRAME(f_gamma)
FRAME(f_beta)
FRAME(f_alpha)
FRAME(f_top)
FRAME(f_root)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	static const struct { const char *name; void (*fn)(void); } own[] = {
		{ "f_zeta", f_zeta }, { "f_eta", f_eta }, { "f_delta", f_delta },
		{ "f_gamma", f_gamma }, { "f_beta", f_beta }, { "f_alpha", f_alpha },
		{ "f_top", f_top }, { "f_root", f_root },
	};
	volatile unsigned long x = 0;
	double end;

	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		printf("%s %#lx\n", own[i].name, (unsigned long)own[i].fn);
	printf("main %#lx\n", (unsigned long)main);
	/* libc's, through pointers: the functions, not the PLT */
	printf("abs %#lx\n", (unsigned long)(int (*)(int))abs);
	printf("labs %#lx\n", (unsigned long)(long (*)(long))labs);
	printf("getpid %#lx\n", (unsigned long)getpid);
	fflush(stdout);
	end = now() + 0.25;
	while (now() < end)
		x++;
	return 0;
}
