// SPDX-License-Identifier: GPL-2.0
/*
 * A stack snapshot, taken the way the kernel samples one for
 * `perf record --call-graph dwarf`, for the unwinder's tests on any
 * architecture (run natively, or an arm64 build under qemu-aarch64):
 *
 *   unwind-snap OUT
 *
 * Known call structure: main -> outer -> rec(3) -> rec(2) -> rec(1) ->
 * rec(0) -> leaf. In leaf the registers are stored (numbered as the
 * kernel's perf_regs.h numbers them) together with the pc of that point,
 * then the bytes of the stack from sp up (at most 8192, what perf dumps
 * by default), the process's maps, and the program's own backtrace() (the
 * unwinder of libgcc, independent of pmprof's): the frames an unwinder
 * must find. OUT gets text lines:
 *
 *   machine x86_64|aarch64
 *   reg IDX VALUE          (hex, one per sampled register)
 *   stack SP SIZE HEX...   (the bytes)
 *   map START END PGOFF PERMS PATH
 *   bt ADDR                (return addresses, leaf's own first)
 */
#include <execinfo.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Both CFI sections, so a test can strip one and keep the other. */
__asm__(".cfi_sections .eh_frame, .debug_frame");

#define NOINLINE __attribute__((noinline, noclone))
#define MAX_STACK 8192

#if defined(__x86_64__)
#define MACHINE "x86_64"
#define NREGS 24	/* AX..GS, R8..R15 */
#elif defined(__aarch64__)
#define MACHINE "aarch64"
#define NREGS 33	/* X0..X30, SP, PC */
#else
#error "unwind-snap knows x86-64 and arm64"
#endif

static uint64_t regs[NREGS];
static unsigned char stack[MAX_STACK];
static uint64_t stack_sp, stack_size;
static void *bt[64];
static int nr_bt;
static volatile int sink;

/* The stack's upper end, from the maps: the line holding sp. */
static uint64_t stack_end(uint64_t sp)
{
	char line[4096];
	uint64_t lo, hi, end = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &lo, &hi) == 2 &&
		    lo <= sp && sp < hi)
			end = hi;
	fclose(f);
	return end;
}

/* Runs below the leaf's frame: copies what lies above its sp untouched. */
NOINLINE static void copy_stack(uint64_t sp)
{
	uint64_t end = stack_end(sp);

	stack_sp = sp;
	stack_size = end > sp ? end - sp : 0;
	if (stack_size > MAX_STACK)
		stack_size = MAX_STACK;
	memcpy(stack, (const void *)(uintptr_t)sp, stack_size);
}

NOINLINE static void leaf(void)
{
#if defined(__x86_64__)
	/* perf_regs order: AX BX CX DX SI DI BP SP IP FLAGS CS SS DS ES FS GS R8..R15 */
	__asm__ volatile(
		"movq %%rax, 0(%0)\n\t"
		"movq %%rbx, 8(%0)\n\t"
		"movq %%rcx, 16(%0)\n\t"
		"movq %%rdx, 24(%0)\n\t"
		"movq %%rsi, 32(%0)\n\t"
		"movq %%rdi, 40(%0)\n\t"
		"movq %%rbp, 48(%0)\n\t"
		"movq %%rsp, 56(%0)\n\t"
		"movq %%r8, 128(%0)\n\t"
		"movq %%r9, 136(%0)\n\t"
		"movq %%r10, 144(%0)\n\t"
		"movq %%r11, 152(%0)\n\t"
		"movq %%r12, 160(%0)\n\t"
		"movq %%r13, 168(%0)\n\t"
		"movq %%r14, 176(%0)\n\t"
		"movq %%r15, 184(%0)\n\t"
		"1: leaq 1b(%%rip), %%r11\n\t"
		"movq %%r11, 64(%0)\n\t"
		: : "r"(regs) : "r11", "memory");
	copy_stack(regs[7]);
#else
	__asm__ volatile(
		"stp x0, x1, [%0, #0]\n\t"
		"stp x2, x3, [%0, #16]\n\t"
		"stp x4, x5, [%0, #32]\n\t"
		"stp x6, x7, [%0, #48]\n\t"
		"stp x8, x9, [%0, #64]\n\t"
		"stp x10, x11, [%0, #80]\n\t"
		"stp x12, x13, [%0, #96]\n\t"
		"stp x14, x15, [%0, #112]\n\t"
		"stp x16, x17, [%0, #128]\n\t"
		"stp x18, x19, [%0, #144]\n\t"
		"stp x20, x21, [%0, #160]\n\t"
		"stp x22, x23, [%0, #176]\n\t"
		"stp x24, x25, [%0, #192]\n\t"
		"stp x26, x27, [%0, #208]\n\t"
		"stp x28, x29, [%0, #224]\n\t"
		"str x30, [%0, #240]\n\t"
		"mov x9, sp\n\t"
		"str x9, [%0, #248]\n\t"
		"1: adr x9, 1b\n\t"
		"str x9, [%0, #256]\n\t"
		: : "r"(regs) : "x9", "memory");
	copy_stack(regs[31]);
#endif
	nr_bt = backtrace(bt, 64);
	sink++;
}

NOINLINE static void rec(int n)
{
	if (n > 0)
		rec(n - 1);
	else
		leaf();
	sink++;
}

NOINLINE static void outer(void)
{
	rec(3);
	sink++;
}

int main(int argc, char **argv)
{
	/* static: main's frame stays small, its callers within the dump */
	static char line[4096], path[4096];
	FILE *out, *maps;

	if (argc != 2) {
		fprintf(stderr, "usage: unwind-snap OUT\n");
		return 1;
	}
	outer();
	out = fopen(argv[1], "w");
	maps = fopen("/proc/self/maps", "r");
	if (!out || !maps) {
		perror(argv[1]);
		return 1;
	}
	fprintf(out, "machine %s\n", MACHINE);
	for (int i = 0; i < NREGS; i++)
		fprintf(out, "reg %d %" PRIx64 "\n", i, regs[i]);
	fprintf(out, "stack %" PRIx64 " %" PRIu64 " ", stack_sp, stack_size);
	for (uint64_t i = 0; i < stack_size; i++)
		fprintf(out, "%02x", stack[i]);
	fputc('\n', out);
	while (fgets(line, sizeof(line), maps)) {
		uint64_t lo, hi, off;
		char perms[8];

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %4095s",
			   &lo, &hi, perms, &off, path) == 5 && path[0] == '/')
			fprintf(out, "map %" PRIx64 " %" PRIx64 " %" PRIx64 " %s %s\n",
				lo, hi, off, perms, path);
	}
	for (int i = 0; i < nr_bt; i++)
		fprintf(out, "bt %" PRIxPTR "\n", (uintptr_t)bt[i]);
	fclose(maps);
	return fclose(out) ? 1 : 0;
}
