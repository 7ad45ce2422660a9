// SPDX-License-Identifier: GPL-2.0
/*
 * The session layer on hand-built recordings (the fixture kit) and ELF
 * files: threads and their names through COMM, FORK, EXEC and EXIT, maps
 * shared by threads and copied by fork, map overlaps, the kernel map with
 * kallsyms, JIT maps, callchains, data addresses, build ids, time order.
 * Every expected symbol and offset is worked out by hand from the ELF
 * layout the kit writes (.text at file offset 0x1000 + vaddr % 0x1000).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fixture/kit.h"
#include "pmprof/error.h"
#include "pmprof/records.h"
#include "pmprof/session.h"

#define BASE	0x555555554000ULL	/* where prog is loaded */
#define LIB	0x7f0000000000ULL	/* where lib's text is mapped */
#define LIB2	0x7f1000000000ULL
#define JIT	0x7e0000000000ULL
#define KTEXT	0xffffffff81000000ULL

static char dir[64];
static char prog[128], lib[128], exe2[128], ksyms[128];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	static const struct pm_elf_sym prog_syms[] = {
		{ "main", 0x1000, 0x100 },
		{ "work", 0x1100, 0x200 },
	};
	static const struct pm_elf_sym lib_syms[] = {
		{ "lib_fn", 0x2000, 0x80 },
	};
	static const struct pm_elf_sym exe_syms[] = {
		{ "child_main", 0x401000, 0x100 },
	};
	struct pm_elf_image e = { .machine = PM_KIT_EM_X86_64, .type = 3,
				.text_addr = 0x1000, .text_size = 0x1000,
				.syms = prog_syms, .nr_syms = 2 };
	char path[160];

	(void)state;
	strcpy(dir, "/tmp/pmprof-session.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	snprintf(lib, sizeof(lib), "%s/libx.so", dir);
	snprintf(exe2, sizeof(exe2), "%s/exe2", dir);
	snprintf(ksyms, sizeof(ksyms), "%s/kallsyms", dir);
	assert_int_equal(pm_kit__write_elf(prog, &e), 0);
	e.text_addr = 0x2000;
	e.syms = lib_syms;
	e.nr_syms = 1;
	assert_int_equal(pm_kit__write_elf(lib, &e), 0);
	e.type = 2;
	e.text_addr = 0x401000;
	e.syms = exe_syms;
	assert_int_equal(pm_kit__write_elf(exe2, &e), 0);
	write_file(ksyms, "ffffffff81000000 T _text\n"
			  "ffffffff81000100 T do_work\n"
			  "ffffffff81000200 T other_work\n"
			  "ffffffff81000300 D kdata\n"
			  "ffffffff81100000 T _etext\n"
			  "ffffffff83000000 T _sinittext\n"
			  /* as in 6.18's: an alias that wins _sinittext's
			   * address in the table */
			  "ffffffff83000000 t __pfx_set_reset_devices\n"
			  "ffffffff83000100 T start_kernel\n"
			  "ffffffff83000400 T x86_64_start_kernel\n"
			  "ffffffff83001000 T _einittext\n");
	snprintf(path, sizeof(path), "%s/perf-100.map", dir);
	write_file(path, "7e0000000100 40 jitted_fn\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* ---- building recordings ---- */

static struct pm_kit *kit_new(int *ev)
{
	struct pm_kit *k = pm_kit__new("x86_64", false);

	*ev = pm_kit__event(k, "cpu-clock", 1 /* software */, 0,
			    PM_KIT_SAMPLE_DEFAULT | PM_SAMPLE_CALLCHAIN |
			    PM_SAMPLE_ADDR, 1000);
	pm_kit__ev(k, *ev);	/* events written: records may follow */
	return k;
}

static void mmap_at(struct pm_kit *k, uint16_t misc, uint32_t pid,
		    uint32_t tid, uint64_t start, uint64_t len, uint64_t pgoff,
		    const char *file, uint64_t time)
{
	struct pm_rec_mmap m = {
		.is_mmap2 = true, .pid = pid, .tid = tid, .start = start,
		.len = len, .pgoff = pgoff, .prot = 5, .flags = 2,
		.filename = file,
	};
	struct pm_sample_id sid = { .pid = pid, .tid = tid, .time = time };
	struct pm_error err = { 0 };

	assert_int_equal(pm_writer__mmap(pm_kit__writer(k), misc, &m,
					 time ? &sid : NULL, &err), 0);
}

static void task_misc(struct pm_kit *k, uint32_t type, uint16_t misc, uint32_t pid,
		      uint32_t ppid, uint32_t tid, uint32_t ptid)
{
	struct pm_rec_task t = { .pid = pid, .ppid = ppid, .tid = tid,
				 .ptid = ptid };
	struct pm_error err = { 0 };

	assert_int_equal(pm_writer__task(pm_kit__writer(k), type, misc, &t, NULL,
					 &err), 0);
}

static void task(struct pm_kit *k, uint32_t type, uint32_t pid, uint32_t ppid,
		 uint32_t tid, uint32_t ptid)
{
	task_misc(k, type, 0, pid, ppid, tid, ptid);
}

static void comm(struct pm_kit *k, uint32_t pid, uint32_t tid,
		 const char *name, bool exec)
{
	struct pm_rec_comm c = { .pid = pid, .tid = tid, .comm = name,
				 .exec = exec };
	struct pm_error err = { 0 };

	assert_int_equal(pm_writer__comm(pm_kit__writer(k), 0, &c, NULL, &err), 0);
}

static void sample(struct pm_kit *k, int ev, uint32_t pid, uint32_t tid,
		   uint8_t cpumode, uint64_t ip, uint64_t time,
		   const uint64_t *cc, uint64_t nr)
{
	struct pm_sample s = { 0 };

	s.misc = cpumode;
	s.ip = ip;
	s.pid = pid;
	s.tid = tid;
	s.time = time;
	s.period = 1000;
	s.id = pm_kit__id(k, ev);
	s.callchain = cc;
	s.callchain_nr = nr;
	pm_kit__sample_full(k, ev, &s);
}

/* The session over a finished kit; records come from next_sample(). */
struct fixture {
	void *buf;
	struct pm_reader *r;
	struct pm_session *s;
};

static void open_fixture(struct fixture *f, struct pm_kit *k,
			 enum pm_session_host host)
{
	struct pm_session_opts o = { .sz = sizeof(o), .kallsyms = ksyms,
				     .tmp_dir = dir, .host = host,
				     .no_buildid_cache = true };
	struct pm_error err = { 0 };
	size_t len;

	f->buf = pm_kit__finish(k, &len);
	assert_int_equal(pm_reader__open_mem(&f->r, f->buf, len, "kit", &err), 0);
	assert_int_equal(pm_session__new(&f->s, f->r, &o, &err), 0);
}

static void close_fixture(struct fixture *f)
{
	pm_session__delete(f->s);
	pm_reader__delete(f->r);
	free(f->buf);
}

/* Process records in file order up to the next sample. */
static const struct pm_sample_ctx *next_sample(struct fixture *f)
{
	struct pm_record rec;
	struct pm_error err = { 0 };
	int ret;

	while ((ret = pm_reader__next(f->r, &rec, &err)) > 0) {
		ret = pm_session__process(f->s, &rec, &err);
		assert_true(ret >= 0);
		if (ret == 1)
			return pm_session__sample(f->s);
	}
	fail_msg("no more samples");
	return NULL;
}

static void assert_sym(const struct pm_addr_loc *loc, const char *dso,
		       const char *sym, uint64_t off)
{
	assert_non_null(loc->dso);
	assert_string_equal(pm_dso__short_name(loc->dso), dso);
	assert_non_null(loc->sym);
	assert_string_equal(loc->sym->name, sym);
	assert_int_equal(loc->sym_off, off);
}

/* ---- tests ---- */

static void test_threads_fork_exec(void **state)
{
	struct fixture f;
	const struct pm_sample_ctx *c;
	const struct pm_thread *parent, *thr;
	int ev;
	struct pm_kit *k = kit_new(&ev);

	(void)state;
	comm(k, 100, 100, "parent", false);
	/* prog's text: file offset 0x1000 = vaddr 0x1000 */
	mmap_at(k, PM_MISC_USER, 100, 100, BASE + 0x1000, 0x1000, 0x1000, prog, 0);
	/* lib's text (vaddr 0x2000) at file offset 0x1000 */
	mmap_at(k, PM_MISC_USER, 100, 100, LIB, 0x1000, 0x1000, lib, 0);
	sample(k, ev, 100, 100, PM_MISC_USER, BASE + 0x1150, 1, NULL, 0);
	/* a thread nobody announced: the leader's maps, a ":tid" name */
	sample(k, ev, 100, 101, PM_MISC_USER, LIB + 0x10, 2, NULL, 0);
	/* a thread by FORK: shares the maps, even ones mapped later */
	task(k, PM_RECORD_FORK, 100, 100, 102, 100);
	mmap_at(k, PM_MISC_USER, 100, 100, LIB2, 0x1000, 0x1000, lib, 0);
	sample(k, ev, 100, 102, PM_MISC_USER, LIB2 + 0x20, 3, NULL, 0);
	/* a process by FORK: a copy of the maps as they were */
	task(k, PM_RECORD_FORK, 200, 100, 200, 100);
	mmap_at(k, PM_MISC_USER, 100, 100, 0x7f2000000000ULL, 0x1000, 0x1000, lib, 0);
	sample(k, ev, 200, 200, PM_MISC_USER, BASE + 0x1010, 4, NULL, 0);
	sample(k, ev, 200, 200, PM_MISC_USER, 0x7f2000000010ULL, 5, NULL, 0);
	/* exec: a new name; the new image's maps replace the old as they
	 * come (perf keeps the old ones: samples inside execve after this
	 * record still run the old image) */
	comm(k, 200, 200, "child", true);
	sample(k, ev, 200, 200, PM_MISC_USER, BASE + 0x1010, 6, NULL, 0);
	mmap_at(k, PM_MISC_USER, 200, 200, 0x401000, 0x1000, 0x1000, exe2, 0);
	sample(k, ev, 200, 200, PM_MISC_USER, 0x401020, 7, NULL, 0);
	task(k, PM_RECORD_EXIT, 200, 100, 200, 100);
	sample(k, ev, 100, 100, PM_MISC_USER, BASE + 0x1000, 8, NULL, 0);
	open_fixture(&f, k, PM_HOST_NO);

	c = next_sample(&f);
	assert_int_equal(c->thread->pid, 100);
	assert_int_equal(c->thread->tid, 100);
	assert_string_equal(c->thread->comm, "parent");
	assert_int_equal(c->ip.level, '.');
	assert_sym(&c->ip, "prog", "work", 0x50);
	assert_int_equal(c->ip.addr, 0x1150);
	parent = c->thread;

	c = next_sample(&f);
	assert_int_equal(c->thread->tid, 101);
	assert_string_equal(c->thread->comm, ":101");
	assert_sym(&c->ip, "libx.so", "lib_fn", 0x10);
	assert_int_equal(c->ip.rel, 0x1010);

	c = next_sample(&f);
	thr = c->thread;
	assert_int_equal(thr->tid, 102);
	assert_string_equal(thr->comm, "parent");
	assert_ptr_equal(thr->comm, parent->comm);	/* interned */
	assert_sym(&c->ip, "libx.so", "lib_fn", 0x20);

	c = next_sample(&f);
	assert_int_equal(c->thread->pid, 200);
	assert_int_equal(c->thread->ppid, 100);
	assert_string_equal(c->thread->comm, "parent");
	assert_sym(&c->ip, "prog", "main", 0x10);
	c = next_sample(&f);
	assert_null(c->ip.map);			/* mapped after the fork */
	assert_null(c->ip.sym);
	assert_string_equal(pm_addr_loc__dso_name(&c->ip), "[unknown]");

	c = next_sample(&f);
	assert_string_equal(c->thread->comm, "child");
	assert_sym(&c->ip, "prog", "main", 0x10);	/* the old image, as perf */
	c = next_sample(&f);
	assert_sym(&c->ip, "exe2", "child_main", 0x20);
	assert_int_equal(c->ip.addr, 0x401020);
	assert_int_equal(c->ip.rel, 0x1020);	/* file offset, as perf shows */

	c = next_sample(&f);
	assert_ptr_equal(c->thread, parent);
	assert_true(pm_session__thread(f.s, 200)->exited);
	assert_false(parent->exited);
	/* the parent's maps were never touched by the child's exec */
	assert_sym(&c->ip, "prog", "main", 0);
	assert_int_equal(pm_session__nr_threads(f.s), 4);
	/* in creation order: the parent first, the current one of its tid */
	assert_ptr_equal(pm_session__thread_at(f.s, 0), parent);
	assert_null(pm_session__thread_at(f.s, 4));
	close_fixture(&f);
}

/*
 * perf record marks the FORK it synthesizes for a process running before
 * the recording with PERF_RECORD_MISC_FORK_EXEC: the child exec'ed since,
 * its own MMAPs follow, and the parent's maps are not its (perf does not
 * copy them; a copy resolves the child's stray addresses in the parent's
 * program).
 */
static void test_fork_exec_synthesized(void **state)
{
	struct fixture f;
	const struct pm_sample_ctx *c;
	int ev;
	struct pm_kit *k = kit_new(&ev);

	(void)state;
	comm(k, 100, 100, "driver", false);
	mmap_at(k, PM_MISC_USER, 100, 100, BASE + 0x1000, 0x1000, 0x1000, prog, 0);
	task_misc(k, PM_RECORD_FORK, PM_MISC_FORK_EXEC, 300, 100, 300, 100);
	comm(k, 300, 300, "tool", false);
	mmap_at(k, PM_MISC_USER, 300, 300, 0x401000, 0x1000, 0x1000, exe2, 0);
	task(k, PM_RECORD_FORK, 400, 100, 400, 100);	/* a real fork */
	sample(k, ev, 300, 300, PM_MISC_USER, BASE + 0x1010, 1, NULL, 0);
	sample(k, ev, 300, 300, PM_MISC_USER, 0x401020, 2, NULL, 0);
	sample(k, ev, 400, 400, PM_MISC_USER, BASE + 0x1010, 3, NULL, 0);
	open_fixture(&f, k, PM_HOST_NO);

	c = next_sample(&f);
	assert_int_equal(c->thread->ppid, 100);
	assert_null(c->ip.map);		/* not the parent's program */
	c = next_sample(&f);
	assert_sym(&c->ip, "exe2", "child_main", 0x20);
	c = next_sample(&f);		/* a plain FORK copies the maps */
	assert_sym(&c->ip, "prog", "main", 0x10);
	close_fixture(&f);
}

static void test_overlap(void **state)
{
	struct fixture f;
	const struct pm_sample_ctx *c;
	const struct pm_map *const *maps;
	int ev;
	struct pm_kit *k = kit_new(&ev);
	uint64_t a = 0x7f3000000000ULL;

	(void)state;
	comm(k, 100, 100, "p", false);
	mmap_at(k, PM_MISC_USER, 100, 100, a, 0x3000, 0x0, prog, 0);
	/* lib over [a + 0x2000, a + 0x2800): prog keeps both sides */
	mmap_at(k, PM_MISC_USER, 100, 100, a + 0x2000, 0x800, 0x1000, lib, 0);
	sample(k, ev, 100, 100, PM_MISC_USER, a + 0x1150, 1, NULL, 0);
	sample(k, ev, 100, 100, PM_MISC_USER, a + 0x2010, 2, NULL, 0);
	sample(k, ev, 100, 100, PM_MISC_USER, a + 0x2900, 3, NULL, 0);
	open_fixture(&f, k, PM_HOST_NO);

	c = next_sample(&f);
	assert_sym(&c->ip, "prog", "work", 0x50);
	c = next_sample(&f);
	assert_sym(&c->ip, "libx.so", "lib_fn", 0x10);
	c = next_sample(&f);
	assert_string_equal(pm_dso__short_name(c->ip.dso), "prog");
	assert_int_equal(c->ip.map->start, a + 0x2800);
	assert_int_equal(c->ip.map->pgoff, 0x2800);
	assert_int_equal(c->ip.rel, 0x2900);
	assert_null(c->ip.sym);		/* past prog's text */

	assert_int_equal(pm_session__maps(f.s, c->thread, &maps), 3);
	assert_int_equal(maps[0]->start, a);
	assert_int_equal(maps[0]->end, a + 0x2000);
	assert_int_equal(maps[0]->pgoff, 0);
	assert_int_equal(maps[1]->start, a + 0x2000);
	assert_int_equal(maps[1]->end, a + 0x2800);
	assert_int_equal(maps[2]->end, a + 0x3000);
	close_fixture(&f);
}

/* Kernel samples through --kallsyms; a callchain across the boundary. */
static void test_kernel_callchain(void **state)
{
	struct fixture f;
	const struct pm_sample_ctx *c;
	const struct pm_addr_loc *chain;
	struct pm_addr_loc loc;
	int ev;
	struct pm_kit *k = kit_new(&ev);
	const uint64_t cc[] = {
		PM_CONTEXT_KERNEL, KTEXT + 0x110, KTEXT + 0x250,
		PM_CONTEXT_USER, BASE + 0x1120, BASE + 0x1008,
	};

	(void)state;
	mmap_at(k, PM_MISC_KERNEL, (uint32_t)-1, 0, KTEXT, 0x100000, KTEXT,
		"[kernel.kallsyms]_text", 0);
	comm(k, 100, 100, "p", false);
	mmap_at(k, PM_MISC_USER, 100, 100, BASE + 0x1000, 0x1000, 0x1000, prog, 0);
	sample(k, ev, 100, 100, PM_MISC_KERNEL, KTEXT + 0x110, 1, cc, 6);
	sample(k, ev, 100, 100, PM_MISC_KERNEL, 0xffffffffa0000000ULL, 2, NULL, 0);
	open_fixture(&f, k, PM_HOST_NO);

	c = next_sample(&f);
	assert_int_equal(c->ip.level, 'k');
	assert_sym(&c->ip, "[kernel.kallsyms]", "do_work", 0x10);
	assert_int_equal(pm_session__callchain(f.s, &chain), 4);
	assert_int_equal(chain[0].ip, KTEXT + 0x110);
	assert_int_equal(chain[0].cpumode, PM_MISC_KERNEL);
	assert_sym(&chain[1], "[kernel.kallsyms]", "other_work", 0x50);
	assert_int_equal(chain[2].cpumode, PM_MISC_USER);
	assert_int_equal(chain[2].level, '.');
	assert_sym(&chain[2], "prog", "work", 0x20);
	assert_sym(&chain[3], "prog", "main", 0x8);
	/* DSO and symbol identities are pointers */
	assert_ptr_equal(chain[2].dso, chain[3].dso);
	assert_ptr_equal(chain[0].sym, c->ip.sym);

	/* data addresses find data objects (the kit's ELF files have no
	 * data sections: kallsyms does) and never functions */
	pm_session__resolve_data(f.s, c->thread, PM_MISC_KERNEL, KTEXT + 0x308, &loc);
	assert_sym(&loc, "[kernel.kallsyms]", "kdata", 0x8);
	pm_session__resolve_data(f.s, c->thread, PM_MISC_KERNEL, KTEXT + 0x110, &loc);
	assert_null(loc.sym);

	c = next_sample(&f);		/* outside the kernel map */
	assert_null(c->ip.dso);
	assert_int_equal(c->ip.level, 'k');
	assert_int_equal(c->ip.rel, 0xffffffffa0000000ULL);
	close_fixture(&f);
}

/*
 * A context marker perf does not know (-1 was seen ending a kernel chain
 * on 6.18): perf drops the whole chain, and so must we, or Children
 * counts those samples where perf does not. The sample itself stays.
 */
static void test_callchain_unknown_context(void **state)
{
	struct fixture f;
	const struct pm_sample_ctx *c;
	const struct pm_addr_loc *chain;
	int ev;
	struct pm_kit *k = kit_new(&ev);
	const uint64_t bad[] = {
		PM_CONTEXT_KERNEL, KTEXT + 0x110, KTEXT + 0x250,
		PM_CONTEXT_USER, BASE + 0x1120, (uint64_t)-1,
	};
	const uint64_t guest[] = { PM_CONTEXT_GUEST, KTEXT + 0x110 };
	const uint64_t good[] = { PM_CONTEXT_KERNEL, KTEXT + 0x110, KTEXT + 0x250 };

	(void)state;
	mmap_at(k, PM_MISC_KERNEL, (uint32_t)-1, 0, KTEXT, 0x100000, KTEXT,
		"[kernel.kallsyms]_text", 0);
	comm(k, 100, 100, "p", false);
	mmap_at(k, PM_MISC_USER, 100, 100, BASE + 0x1000, 0x1000, 0x1000, prog, 0);
	sample(k, ev, 100, 100, PM_MISC_KERNEL, KTEXT + 0x110, 1, bad, 6);
	sample(k, ev, 100, 100, PM_MISC_KERNEL, KTEXT + 0x110, 2, guest, 2);
	sample(k, ev, 100, 100, PM_MISC_KERNEL, KTEXT + 0x110, 3, good, 3);
	open_fixture(&f, k, PM_HOST_NO);

	c = next_sample(&f);
	assert_sym(&c->ip, "[kernel.kallsyms]", "do_work", 0x10);
	assert_int_equal(pm_session__callchain(f.s, &chain), 0);
	next_sample(&f);	/* PERF_CONTEXT_GUEST alone: not one perf takes either */
	assert_int_equal(pm_session__callchain(f.s, &chain), 0);
	next_sample(&f);	/* and the next sample's chain is whole again */
	assert_int_equal(pm_session__callchain(f.s, &chain), 2);
	assert_sym(&chain[1], "[kernel.kallsyms]", "other_work", 0x50);
	close_fixture(&f);
}

/*
 * The idle task's stack goes back into the kernel's init text, past the
 * _text .. _etext of the kernel MMAP: its functions are found all the
 * same (between _sinittext and _einittext, not beyond).
 */
static void test_kernel_inittext(void **state)
{
	struct fixture f;
	const struct pm_addr_loc *chain;
	int ev;
	struct pm_kit *k = kit_new(&ev);
	const uint64_t init = 0xffffffff83000000ULL;
	const uint64_t cc[] = {
		PM_CONTEXT_KERNEL, KTEXT + 0x110, init + 0x150, init + 0x410,
		init + 0x1008,
	};

	(void)state;
	mmap_at(k, PM_MISC_KERNEL, (uint32_t)-1, 0, KTEXT, 0x100000, KTEXT,
		"[kernel.kallsyms]_text", 0);
	sample(k, ev, 0, 0, PM_MISC_KERNEL, KTEXT + 0x110, 1, cc, 5);
	open_fixture(&f, k, PM_HOST_NO);
	next_sample(&f);
	assert_int_equal(pm_session__callchain(f.s, &chain), 4);
	assert_sym(&chain[0], "[kernel.kallsyms]", "do_work", 0x10);
	assert_sym(&chain[1], "[kernel.kallsyms]", "start_kernel", 0x50);
	assert_int_equal(chain[1].level, 'k');
	assert_int_equal(chain[1].rel, init + 0x150);
	assert_sym(&chain[2], "[kernel.kallsyms]", "x86_64_start_kernel", 0x10);
	assert_null(chain[3].dso);	/* past _einittext: no map */
	assert_null(chain[3].sym);
	close_fixture(&f);
}

/* Executable anonymous memory is looked up in /tmp/perf-PID.map. */
static void test_jit(void **state)
{
	struct fixture f;
	const struct pm_sample_ctx *c;
	int ev;
	struct pm_kit *k = kit_new(&ev);

	(void)state;
	comm(k, 100, 100, "java", false);
	mmap_at(k, PM_MISC_USER, 100, 100, JIT, 0x1000, 0, "//anon", 0);
	sample(k, ev, 100, 100, PM_MISC_USER, JIT + 0x110, 1, NULL, 0);
	open_fixture(&f, k, PM_HOST_NO);
	c = next_sample(&f);
	assert_sym(&c->ip, "[JIT] tid 100", "jitted_fn", 0x10);
	assert_int_equal(c->ip.rel, JIT + 0x110);
	close_fixture(&f);
}

/* Build ids of the BUILD_ID feature reach the DSOs. */
static void test_build_id(void **state)
{
	struct fixture f;
	const struct pm_sample_ctx *c;
	const uint8_t *id;
	struct pm_build_id_entry b = { .misc = PM_MISC_USER, .pid = 100,
				       .size = 20, .filename = prog };
	struct pm_error err = { 0 };
	int ev;
	struct pm_kit *k = kit_new(&ev);

	(void)state;
	for (int i = 0; i < 20; i++)
		b.build_id[i] = (uint8_t)(0xa0 + i);
	assert_int_equal(pm_writer__add_build_id(pm_kit__writer(k), &b, &err), 0);
	comm(k, 100, 100, "p", false);
	mmap_at(k, PM_MISC_USER, 100, 100, BASE + 0x1000, 0x1000, 0x1000, prog, 0);
	sample(k, ev, 100, 100, PM_MISC_USER, BASE + 0x1000, 1, NULL, 0);
	open_fixture(&f, k, PM_HOST_NO);
	c = next_sample(&f);
	assert_int_equal(pm_dso__build_id(c->ip.dso, &id), 20);
	assert_int_equal(id[0], 0xa0);
	assert_int_equal(id[19], 0xa0 + 19);
	close_fixture(&f);
}

struct seen {
	int samples;
	const char *sym[4];
	int throttles;
};

static int on_sample(struct pm_session *s, const struct pm_sample_ctx *c,
		     void *arg)
{
	struct seen *sn = arg;

	(void)s;
	if (sn->samples < 4)
		sn->sym[sn->samples] = c->ip.sym ? c->ip.sym->name : "?";
	sn->samples++;
	return 0;
}

static int on_record(struct pm_session *s, const struct pm_record *rec,
		     void *arg)
{
	struct seen *sn = arg;
	struct pm_rec_throttle t;

	if (rec->type == PM_RECORD_THROTTLE) {
		assert_int_equal(pm_rec__throttle(pm_session__reader(s), rec, &t,
						  NULL), 0);
		assert_int_equal(t.id, 77);
		sn->throttles++;
	}
	return 0;
}

/*
 * perf writes CPU buffers one after another: a sample can come before
 * the MMAP it needs. pm_session__run() delivers by time within rounds.
 */
static void test_time_order(void **state)
{
	struct fixture f;
	struct seen sn = { 0 };
	struct pm_error err = { 0 };
	struct pm_rec_throttle th = { .time = 30, .id = 77 };
	int ev;

	(void)state;
	for (int unordered = 0; unordered < 2; unordered++) {
		struct pm_kit *k = kit_new(&ev);
		struct pm_session_opts o = { .sz = sizeof(o), .tmp_dir = dir,
					     .host = PM_HOST_NO,
					     .unordered = unordered };
		size_t len;

		memset(&sn, 0, sizeof(sn));
		comm(k, 100, 100, "p", false);
		sample(k, ev, 100, 100, PM_MISC_USER, BASE + 0x1150, 20, NULL, 0);
		assert_int_equal(pm_writer__throttle(pm_kit__writer(k),
				 PM_RECORD_THROTTLE, 0, &th, NULL, &err), 0);
		mmap_at(k, PM_MISC_USER, 100, 100, BASE + 0x1000, 0x1000, 0x1000,
			prog, 10);
		assert_int_equal(pm_writer__finished_round(pm_kit__writer(k), &err), 0);
		sample(k, ev, 100, 100, PM_MISC_USER, BASE + 0x1000, 40, NULL, 0);
		f.buf = pm_kit__finish(k, &len);
		assert_int_equal(pm_reader__open_mem(&f.r, f.buf, len, "kit", &err), 0);
		assert_int_equal(pm_session__new(&f.s, f.r, &o, &err), 0);
		assert_int_equal(pm_session__run(f.s, on_sample, on_record, &sn,
						 &err), 0);
		assert_int_equal(sn.samples, 2);
		assert_int_equal(sn.throttles, 1);
		assert_string_equal(sn.sym[0], unordered ? "?" : "work");
		assert_string_equal(sn.sym[1], "main");
		close_fixture(&f);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_threads_fork_exec),
	cmocka_unit_test(test_fork_exec_synthesized),
	cmocka_unit_test(test_overlap),
	cmocka_unit_test(test_kernel_callchain),
	cmocka_unit_test(test_callchain_unknown_context),
	cmocka_unit_test(test_kernel_inittext),
	cmocka_unit_test(test_jit),
	cmocka_unit_test(test_build_id),
	cmocka_unit_test(test_time_order),
};

int main(void)
{
	return cmocka_run_group_tests(tests, setup, teardown);
}
