// SPDX-License-Identifier: GPL-2.0
/*
 * A JIT in miniature for tests/cli/unwind-perf.sh (x86-64): copies a
 * counting loop into anonymous executable memory, names it in
 * /tmp/perf-PID.map as a JIT does for perf, runs it for a while and
 * prints the map file's path. The file stays: the test runs this with a
 * /tmp of its own.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
#if defined(__x86_64__)
	/* loop: dec %rdi; jnz loop; ret */
	static const unsigned char code[] = { 0x48, 0xff, 0xcf, 0x75, 0xfb, 0xc3 };
	unsigned char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void (*fn)(long);
	char path[64];
	FILE *f;

	if (p == MAP_FAILED)
		return 1;
	memcpy(p, code, sizeof(code));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	f = fopen(path, "w");
	if (!f)
		return 1;
	fprintf(f, "%lx %zx jitted_loop\n", (unsigned long)(uintptr_t)p, sizeof(code));
	fclose(f);
	fn = (void (*)(long))(uintptr_t)p;
	for (int i = 0; i < 4; i++)
		fn(200000000L);
	(void)argc;
	(void)argv;
	printf("%s\n", path);
	return 0;
#else
	(void)argc;
	(void)argv;
	return 2;	/* the machine code is x86-64's */
#endif
}
