// SPDX-License-Identifier: GPL-2.0
/*
 * attr-rules: the hf_sample attr rules of the running kernel, for the lab
 * (tests/lab/hf.sh). Opens a cycles event with hand-made 144-byte attrs
 * (the layout of the hf-period series: hf_sample at byte 136, bits 0-31
 * the window, 32-35 the random term, 36-63 reserved; bytes 128-135 the
 * slot later kernels give config3) and prints one line per case:
 * "NAME ok" or "NAME ERRNO-NAME".
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ATTR_SIZE 144

static void put64(uint8_t *b, int off, uint64_t v)
{
	memcpy(b + off, &v, 8);		/* little endian: the lab is arm64 */
}

static const char *name(int e)
{
	switch (e) {
	case 0: return "ok";
	case EINVAL: return "EINVAL";
	case E2BIG: return "E2BIG";
	case ENOENT: return "ENOENT";
	case EACCES: return "EACCES";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return strerror(e);
	}
}

/* a user-only cycles event: type 0, config 0, flags disabled|exclude_kernel|exclude_hv */
static void base(uint8_t *b, uint64_t period, int freq)
{
	uint32_t size = ATTR_SIZE;
	uint64_t flags = 1 | 1ULL << 5 | 1ULL << 6 | (freq ? 1ULL << 10 : 0);

	memset(b, 0, ATTR_SIZE);
	memcpy(b + 4, &size, 4);
	put64(b, 16, period);
	put64(b, 24, 1ULL << 8);	/* PERF_SAMPLE_PERIOD */
	put64(b, 40, flags);
}

static void run(const char *label, uint8_t *b)
{
	long fd = syscall(SYS_perf_event_open, b, 0, -1, -1, 0);

	printf("%s %s\n", label, name(fd < 0 ? errno : 0));
	if (fd >= 0)
		close((int)fd);
}

int main(void)
{
	uint8_t b[ATTR_SIZE];

	base(b, 20000, 0); put64(b, 136, 300);
	run("window", b);
	base(b, 20000, 0); put64(b, 136, 300 | 7ULL << 32);
	run("window+rand", b);
	base(b, 20000, 0); put64(b, 136, 20000);
	run("window-not-shorter", b);
	base(b, 0, 0); put64(b, 136, 300);
	run("window-without-sampling", b);
	base(b, 20000, 0); put64(b, 136, 4ULL << 32);
	run("rand-without-window", b);
	base(b, 1000, 1); put64(b, 136, 300);
	run("window-with-freq", b);
	base(b, 20000, 0); put64(b, 136, 300 | 1ULL << 40);
	run("reserved-bits", b);
	base(b, 20000, 0); put64(b, 128, 1);
	run("config3-slot", b);
	return 0;
}
