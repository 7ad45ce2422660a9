// SPDX-License-Identifier: GPL-2.0
/*
 * A workload of page faults for tests/cli/record-bursts.sh: ROUNDS times,
 * write one byte to each of PAGES fresh 4 KB pages of an anonymous map,
 * then drop them (MADV_DONTNEED), so that every write faults again.
 *   faulter ROUNDS PAGES
 * Prints "faults N": the writes that should each have faulted. Huge
 * pages are refused for the map (one fault would cover 512 pages).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long rounds, pages, page = sysconf(_SC_PAGESIZE), r, i;
	volatile char *map;

	if (argc != 3 || (rounds = atol(argv[1])) <= 0 || (pages = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: faulter ROUNDS PAGES\n");
		return 1;
	}
	map = mmap(NULL, (size_t)(pages * page), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		perror("faulter: mmap");
		return 1;
	}
	madvise((void *)map, (size_t)(pages * page), MADV_NOHUGEPAGE);
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < pages; i++)
			map[i * page] = (char)r;
		if (madvise((void *)map, (size_t)(pages * page), MADV_DONTNEED)) {
			perror("faulter: madvise");
			return 1;
		}
	}
	printf("faults %ld\n", rounds * pages);
	return 0;
}
