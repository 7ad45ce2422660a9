// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: pm_attr__decode on arbitrary bytes, in both byte
 * orders. Besides "never read past the buffer" (ASan), it checks that
 * encoding is stable: encode(decode(encode(decode(x)))) equals
 * encode(decode(x)), i.e. decode and encode agree on every field the
 * first decode kept.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/attr.h"

/* Larger than every attr size pmprof knows: all fields get encoded. */
#define ENC_SIZE 160

static void check(const uint8_t *data, size_t size, bool big_endian)
{
	uint8_t e1[ENC_SIZE], e2[ENC_SIZE];
	struct pm_attr a, b;
	struct pm_error err;

	if (pm_attr__decode(&a, data, size, big_endian, &err) < 0)
		return;		/* too short: an error is the right answer */
	pm_attr__encode(&a, e1, ENC_SIZE, big_endian);
	if (pm_attr__decode(&b, e1, ENC_SIZE, big_endian, &err) < 0)
		abort();
	pm_attr__encode(&b, e2, ENC_SIZE, big_endian);
	if (memcmp(e1, e2, ENC_SIZE))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check(data, size, false);
	check(data, size, true);
	return 0;
}
