// SPDX-License-Identifier: GPL-2.0
/*
 * The disassembler (lib/disasm): objdump's output parsed into
 * instructions, and whole ranges of real files of three architectures
 * (x86-64 from the host compiler, Alpha, arm64 and big-endian s390x from
 * the Debian cross compilers) compared with what the target's own objdump
 * from binutils-<target> prints for the same range, read here with
 * sscanf: a different program and a different parser than pmprof's.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "pmprof/disasm.h"
#include "pmprof/error.h"
#include "pmprof/util.h"

/* ---- parsing ----------------------------------------------------------- */

static const char sample_out[] =
	"\n"
	"prog:     file format elf64-x86-64\n"
	"\n"
	"\n"
	"Disassembly of section .text:\n"
	"\n"
	"0000000000001130 <f>:\n"
	"    112c:\tnop\n"			/* before the range */
	"    1130:\tpush   %rbp\n"
	"    1131:\tmov    %rsp,%rbp\n"
	"    1134:\tmovl   $0x0,-0x4(%rbp)\n"
	"\n"
	"000000000000113b <g>:\n"
	"    113b:\tret    \n"		/* trailing blanks are the text's */
	"    1140:\tnop\n";		/* past the range */

static void test_parse(void **state)
{
	struct pm_disasm d = { 0 };
	struct pm_error err = { 0 };

	(void)state;
	assert_int_equal(pm_disasm__parse(&d, sample_out, strlen(sample_out),
					  0x1130, 0x113c, &err), 0);
	assert_int_equal(d.nr, 4);
	assert_int_equal(d.insns[0].addr, 0x1130);
	assert_int_equal(d.insns[0].size, 1);
	assert_string_equal(d.insns[0].text, "push   %rbp");
	assert_int_equal(d.insns[1].size, 3);
	assert_int_equal(d.insns[2].addr, 0x1134);
	assert_int_equal(d.insns[2].size, 7);
	assert_string_equal(d.insns[3].text, "ret    ");
	assert_int_equal(d.insns[3].size, 1);	/* to the range's end */
	/* Lookups: the instruction holding an address, mid-instruction too. */
	assert_ptr_equal(pm_disasm__find(&d, 0x1136), &d.insns[2]);
	assert_ptr_equal(pm_disasm__find(&d, 0x1130), &d.insns[0]);
	assert_null(pm_disasm__find(&d, 0x112f));
	assert_null(pm_disasm__find(&d, 0x113c));
	pm_disasm__release(&d);
	assert_int_equal(d.nr, 0);
}

static void test_parse_backwards(void **state)
{
	static const char out[] = "  10:\tnop\n  14:\tnop\n  12:\tnop\n";
	struct pm_disasm d = { 0 };
	struct pm_error err = { 0 };

	(void)state;
	assert_int_equal(pm_disasm__parse(&d, out, strlen(out), 0, 0x100, &err),
			 -PM_EFORMAT);
	assert_non_null(strstr(err.msg, "0x12"));
	pm_disasm__release(&d);
}

static void test_parse_not_insns(void **state)
{
	/* No colon-tab, too many digits, no digits: none is an instruction. */
	static const char out[] = "1130 nop\n  12345678901234567:\tnop\n:\tnop\n"
				  "  zz:\tnop\n  20:\tcall   30 <x>\n";
	struct pm_disasm d = { 0 };

	(void)state;
	assert_int_equal(pm_disasm__parse(&d, out, strlen(out), 0, 0x100, NULL), 0);
	assert_int_equal(d.nr, 1);
	assert_string_equal(d.insns[0].text, "call   30 <x>");
	pm_disasm__release(&d);
}

static void test_target_objdump(void **state)
{
	struct pm_elf_info alpha = { .machine = EM_ALPHA, .data = ELFDATA2LSB,
				     .elfclass = ELFCLASS64 };
	struct pm_elf_info ppc_be = { .machine = EM_PPC64, .data = ELFDATA2MSB };
	struct pm_elf_info ppc_le = { .machine = EM_PPC64, .data = ELFDATA2LSB };
	struct pm_elf_info odd = { .machine = 0x7fff };
	char buf[64];

	(void)state;
	assert_string_equal(pm_disasm__target_objdump(&alpha, buf, sizeof(buf)),
			    "alpha-linux-gnu-objdump");
	assert_string_equal(pm_disasm__target_objdump(&ppc_be, buf, sizeof(buf)),
			    "powerpc64-linux-gnu-objdump");
	assert_string_equal(pm_disasm__target_objdump(&ppc_le, buf, sizeof(buf)),
			    "powerpc64le-linux-gnu-objdump");
	assert_null(pm_disasm__target_objdump(&odd, buf, sizeof(buf)));
	assert_null(pm_disasm__target_objdump(&alpha, buf, 8));	/* too small */
}

/* ---- real files ----------------------------------------------------------- */

static const char prog_src[] =
	"__attribute__((noinline)) long leaf(long x)\n"
	"{\n"
	"\treturn x * 7 + (x >> 3);\n"
	"}\n"
	"__attribute__((noinline)) long middle(long x)\n"
	"{\n"
	"\tlong s = 0;\n"
	"\tfor (long i = 0; i < x; i++)\n"
	"\t\ts += leaf(i) ^ i;\n"
	"\treturn s;\n"
	"}\n"
	"void _start(void)\n"
	"{\n"
	"\tvolatile long r = middle(9);\n"
	"\t(void)r;\n"
	"\tfor (;;)\n"
	"\t\t;\n"
	"}\n";

struct target {
	const char *cc;		/* NULL: the host's cc */
	const char *objdump;	/* the target's own, from binutils-<target> */
	uint16_t machine;
	uint8_t data;
};

static const struct target host = { NULL, "x86_64-linux-gnu-objdump", EM_X86_64,
				    ELFDATA2LSB };
static const struct target alpha = { "alpha-linux-gnu-gcc-12",
				     "alpha-linux-gnu-objdump", EM_ALPHA,
				     ELFDATA2LSB };
static const struct target arm64 = { "aarch64-linux-gnu-gcc-12",
				     "aarch64-linux-gnu-objdump", EM_AARCH64,
				     ELFDATA2LSB };
static const struct target s390x = { "s390x-linux-gnu-gcc-12",
				     "s390x-linux-gnu-objdump", EM_S390,
				     ELFDATA2MSB };

static bool have(const char *tool)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

struct built {
	char dir[64], bin[128];
	uint64_t start, end;	/* middle's [start, end) from nm -S */
};

/* Build prog_src for the target; false when its compiler is missing. */
static bool build(const struct target *t, struct built *b)
{
	char src[160], cmd[1024], nm[64], line[256], name[64];
	uint64_t addr, size;
	FILE *p;

	if ((t->cc && !have(t->cc)) || !have(t->objdump))
		return false;
	strcpy(b->dir, "/tmp/pmprof-disasm-XXXXXX");
	assert_non_null(mkdtemp(b->dir));
	snprintf(src, sizeof(src), "%s/prog.c", b->dir);
	snprintf(b->bin, sizeof(b->bin), "%s/prog", b->dir);
	p = fopen(src, "w");
	assert_non_null(p);
	fputs(prog_src, p);
	assert_int_equal(fclose(p), 0);
	snprintf(cmd, sizeof(cmd), "%s -O1 -g -ffreestanding -nostdlib -static -o '%s' '%s'",
		 t->cc ? t->cc : "cc", b->bin, src);
	assert_int_equal(system(cmd), 0);
	/* nm of the same target: "ADDR SIZE T middle". */
	snprintf(nm, sizeof(nm), "%.*snm", (int)(strlen(t->objdump) - 7), t->objdump);
	snprintf(cmd, sizeof(cmd), "%s -S '%s'", nm, b->bin);
	p = popen(cmd, "r");
	assert_non_null(p);
	b->start = b->end = 0;
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, "%" SCNx64 " %" SCNx64 " %*c %63s", &addr, &size, name) == 3 &&
		    !strcmp(name, "middle")) {
			b->start = addr;
			b->end = addr + size;
		}
	pclose(p);
	assert_true(b->end > b->start);
	return true;
}

static void unbuild(struct built *b)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", b->dir);
	assert_int_equal(system(cmd), 0);
}

/* The target objdump's instruction lines, read with sscanf. */
static size_t expected(const struct target *t, const struct built *b,
		       uint64_t *addrs, char texts[][128], size_t max)
{
	char cmd[1024], line[512];
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s -d -z --no-show-raw-insn -C "
		 "--start-address=0x%" PRIx64 " --stop-address=0x%" PRIx64 " '%s'",
		 t->objdump, b->start, b->end, b->bin);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		uint64_t a;
		int off = 0;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, " %" SCNx64 ":\t%n", &a, &off) == 1 && off > 0 &&
		    line[off - 1] == '\t') {
			assert_true(n < max);
			addrs[n] = a;
			snprintf(texts[n], 128, "%s", line + off);
			n++;
		}
	}
	assert_int_equal(pclose(p), 0);
	return n;
}

static void range_case(const struct target *t, const char *objdump)
{
	struct pm_elf_info info = { .machine = t->machine, .data = t->data,
				    .elfclass = ELFCLASS64 };
	struct pm_disasm_opts opts = { .sz = sizeof(opts), .objdump = objdump };
	static char texts[512][128];
	uint64_t addrs[512];
	struct pm_error err = { 0 };
	struct pm_disasm d;
	struct built b;
	size_t n, i;

	if (!build(t, &b)) {
		/* scripts/deps.sh installs the cross compilers */
		print_message("no %s or %s: skipped\n", t->cc ? t->cc : "cc", t->objdump);
		skip();
	}
	n = expected(t, &b, addrs, texts, 512);
	assert_true(n > 3);
	assert_int_equal(pm_disasm__range(&d, b.bin, &info, b.start, b.end,
					  &opts, &err), 0);
	assert_string_equal(d.tool, objdump ? objdump : "objdump");
	assert_int_equal(d.nr, n);
	for (i = 0; i < n; i++) {
		assert_int_equal(d.insns[i].addr, addrs[i]);
		assert_string_equal(d.insns[i].text, texts[i]);
		assert_int_equal(d.insns[i].size,
				 (i + 1 < n ? addrs[i + 1] : b.end) - addrs[i]);
	}
	pm_disasm__release(&d);
	unbuild(&b);
}

static void test_range_x86(void **state) { (void)state; range_case(&host, NULL); }
static void test_range_alpha(void **state) { (void)state; range_case(&alpha, NULL); }
static void test_range_alpha_cross(void **state)
{
	(void)state;
	range_case(&alpha, "alpha-linux-gnu-objdump");
}
static void test_range_s390x(void **state) { (void)state; range_case(&s390x, NULL); }
static void test_range_arm64(void **state) { (void)state; range_case(&arm64, NULL); }

/* ---- errors ------------------------------------------------------------- */

static void test_no_objdump(void **state)
{
	struct pm_disasm_opts opts = { .sz = sizeof(opts),
				       .objdump = "/nonexistent/objdump" };
	struct pm_elf_info info = { .machine = EM_X86_64 };
	struct pm_error err = { 0 };
	struct pm_disasm d;

	(void)state;
	assert_int_equal(pm_disasm__range(&d, "/bin/sh", &info, 0x1000, 0x1010,
					  &opts, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "/nonexistent/objdump"));
	assert_int_equal(d.nr, 0);
}

static void test_not_elf(void **state)
{
	char path[] = "/tmp/pmprof-disasm-notelf-XXXXXX";
	struct pm_elf_info info = { .machine = EM_X86_64 };
	struct pm_error err = { 0 };
	struct pm_disasm d;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not an ELF file\n", 16), 16);
	close(fd);
	assert_int_equal(pm_disasm__range(&d, path, &info, 0x1000, 0x1010, NULL,
					  &err), -PM_EFORMAT);
	/* objdump's own words, and the file */
	assert_non_null(strstr(err.msg, "file format not recognized"));
	assert_non_null(strstr(err.msg, path));
	unlink(path);
}

static void test_empty_range(void **state)
{
	struct pm_error err = { 0 };
	struct pm_disasm d;

	(void)state;
	assert_int_equal(pm_disasm__range(&d, "/bin/sh", NULL, 0x20, 0x20, NULL,
					  &err), -EINVAL);
	assert_non_null(strstr(err.msg, "empty range"));
}

/* A path that looks like an option is still the file ("--" before it). */
static void test_dash_path(void **state)
{
	struct pm_elf_info info = { .machine = EM_X86_64 };
	struct pm_error err = { 0 };
	struct pm_disasm d;

	(void)state;
	assert_int_equal(pm_disasm__range(&d, "--version", &info, 0x1000, 0x1010,
					  NULL, &err), -PM_EFORMAT);
	assert_non_null(strstr(err.msg, "--version"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_backwards),
		cmocka_unit_test(test_parse_not_insns),
		cmocka_unit_test(test_target_objdump),
		cmocka_unit_test(test_range_x86),
		cmocka_unit_test(test_range_alpha),
		cmocka_unit_test(test_range_alpha_cross),
		cmocka_unit_test(test_range_s390x),
		cmocka_unit_test(test_range_arm64),
		cmocka_unit_test(test_no_objdump),
		cmocka_unit_test(test_not_elf),
		cmocka_unit_test(test_empty_range),
		cmocka_unit_test(test_dash_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
