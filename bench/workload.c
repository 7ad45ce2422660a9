// SPDX-License-Identifier: GPL-2.0
/*
 * workload: a program with known per-function behaviour, to profile.
 *
 * Seven behaviours, each a separate non-inlined function whose hardware
 * signature is known in advance (the shape of Arm's benchmark for the
 * hf-period series):
 *   branch_mispredicts   computed jump over 32 targets picked by an LFSR
 *   int_divider_stalls   chains of dependent 64-bit integer divides
 *   double_to_int        double to integer conversions
 *   fp_divider_stalls    chains of dependent double divides
 *   isb                  serializing barriers
 *   dcache_miss          a pointer chase that misses the data cache
 *   nops                 runs of 8 NOPs
 * plus the ProfileMe demonstration loop: one branch on random bytes
 * (profileme_branch_random) and the same loop on the same bytes sorted
 * (profileme_branch_sorted).
 *
 * Every behaviour feeds its result into a volatile sink or an asm operand
 * so that -O2 cannot fold it away. Run with --help for the options.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* noclone: a specialised copy would carry another symbol name. */
#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

/* Keep a value live in a register and opaque to the optimiser. */
#define OPAQUE(x) __asm__ volatile("" : "+r"(x))
/* Same for a double: "+m" works on every architecture. */
#define OPAQUE_FP(x) __asm__ volatile("" : "+m"(x))

/*
 * Per-call inner counts, as in Arm's benchmark except for two: its 8
 * computed jumps and 1500 NOP steps per call weigh next to nothing on an
 * x86-64 core beside the divider chains, so these do more, to give every
 * behaviour a visible share of the profile (a few percent at least).
 */
#define BRANCH_STEPS	1024
#define INTDIV_STEPS	2048
#define D2I_STEPS	3000
#define FPDIV_STEPS	2048
#define ISB_STEPS	256
#define CHASE_NODES	2048
#define CHASE_STEPS	96
#define NOP_STEPS	6000

/* ~1.5 s on a 2-core x86-64 VM with the defaults below. */
#define DEFAULT_ITERATIONS	12000
#define PROFILEME_BYTES		(1u << 15)
#define DEFAULT_PM_ROUNDS	10000

static volatile uint64_t sink;	/* results go here, so nothing is dead */
static volatile uint64_t int_divisor = 3;
static volatile double fp_divisor = 1.0000001;

/* Per-thread state: each thread walks its own LFSR and chase cursor. */
static __thread uint32_t lfsr = 0xace1u;
static __thread char *chase_cursor;

/* The chase chain, shared read-only by all threads once built. */
static char *chase_base;
static size_t chase_stride;

/*
 * gcc 12 sets up no frame pointer in a leaf function even with
 * -fno-omit-frame-pointer, so a frame-pointer callchain sampled in a leaf
 * loses the leaf's caller. Each behaviour calls this first: it is then no
 * leaf, its frame exists for its whole body, and nest_1 shows in chains.
 */
NOINLINE void frame_anchor(void)
{
	__asm__ volatile("");
}

static uint32_t lfsr_step(uint32_t v)
{
	/* 32-bit Galois LFSR, taps 32,22,2,1: period 2^32-1. */
	return (v >> 1) ^ (-(v & 1u) & 0x80200003u);
}

/*
 * 32 distinct targets reached through one indirect jump whose target is
 * effectively random: the indirect branch predictor misses most of them.
 */
NOINLINE void branch_mispredicts(void)
{
#define T(n) &&t##n
	static void *const targets[32] = {
		T(0), T(1), T(2), T(3), T(4), T(5), T(6), T(7),
		T(8), T(9), T(10), T(11), T(12), T(13), T(14), T(15),
		T(16), T(17), T(18), T(19), T(20), T(21), T(22), T(23),
		T(24), T(25), T(26), T(27), T(28), T(29), T(30), T(31),
	};
#undef T
	uint32_t v = lfsr;
	uint64_t acc = 0;
	int i = 0;

	frame_anchor();
next:
	if (i++ == BRANCH_STEPS)
		goto done;
	v = lfsr_step(v);
	goto *targets[v & 31];
	/* Each target does a different thing, so none can be merged. */
#define L(n) t##n: acc = acc * 33 + (n) + 1; OPAQUE(acc); goto next;
	L(0) L(1) L(2) L(3) L(4) L(5) L(6) L(7)
	L(8) L(9) L(10) L(11) L(12) L(13) L(14) L(15)
	L(16) L(17) L(18) L(19) L(20) L(21) L(22) L(23)
	L(24) L(25) L(26) L(27) L(28) L(29) L(30) L(31)
#undef L
done:
	lfsr = v;
	sink = acc;
}

/* Four dependent 64-bit divides per step: each needs the previous one. */
NOINLINE void int_divider_stalls(void)
{
	uint64_t d = int_divisor, x = ~0ULL;

	frame_anchor();
	OPAQUE(d);
	for (int i = 0; i < INTDIV_STEPS; i++) {
		/* OR the top bit back so the dividend stays 64 bits wide. */
		x = (x / d) | (1ULL << 63);
		x = (x / d) | (1ULL << 63);
		x = (x / d) | (1ULL << 63);
		x = (x / d) | (1ULL << 63);
		OPAQUE(x);
	}
	sink = x;
}

NOINLINE void double_to_int(void)
{
	double v = 0.5;
	int64_t acc = 0;

	frame_anchor();
	OPAQUE_FP(v);
	for (int i = 0; i < D2I_STEPS; i++) {
		acc += (int64_t)v;
		v += 1.25;
		OPAQUE(acc);
	}
	sink = (uint64_t)acc;
}

/* Four dependent double divides per step. */
NOINLINE void fp_divider_stalls(void)
{
	double d = fp_divisor, x = 1e300;

	frame_anchor();
	for (int i = 0; i < FPDIV_STEPS; i++) {
		x = x / d;
		x = x / d;
		x = x / d;
		x = x / d;
		OPAQUE_FP(x);
	}
	sink = (uint64_t)(x > 1.0);
}

static inline void serialize(void)
{
#if defined(__aarch64__)
	__asm__ volatile("isb" ::: "memory");
#elif defined(__x86_64__) || defined(__i386__)
	/* mfence drains stores; lfence waits for all prior instructions. */
	__asm__ volatile("mfence\n\tlfence" ::: "memory");
#else
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/* Four serializing barriers per step. */
NOINLINE void isb(void)
{
	frame_anchor();
	for (int i = 0; i < ISB_STEPS; i++) {
		serialize();
		serialize();
		serialize();
		serialize();
	}
}

/*
 * Nodes CHASE_NODES apart by a stride of (cache line x associativity), in
 * a random cyclic order (Sattolo's shuffle), so each step is a dependent
 * load that misses.
 */
static void chase_init(uint32_t seed)
{
	long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
	long ways = sysconf(_SC_LEVEL1_DCACHE_ASSOC);
	uint32_t *order, r = seed ? seed : 0x2545f491u;

	if (line <= 0 || line > 1024)
		line = 64;
	if (ways <= 0 || ways > 64)
		ways = 8;
	chase_stride = (size_t)line * (size_t)ways;
	chase_base = aligned_alloc((size_t)line, chase_stride * CHASE_NODES);
	order = malloc(sizeof(*order) * CHASE_NODES);
	if (!chase_base || !order) {
		perror("workload");
		exit(1);
	}
	memset(chase_base, 0, chase_stride * CHASE_NODES);
	for (uint32_t i = 0; i < CHASE_NODES; i++)
		order[i] = i;
	for (uint32_t i = CHASE_NODES - 1; i > 0; i--) {
		uint32_t j;

		r = lfsr_step(r);
		j = r % i;	/* j < i: one cycle through all nodes */
		uint32_t t = order[i]; order[i] = order[j]; order[j] = t;
	}
	for (uint32_t i = 0; i < CHASE_NODES; i++) {
		char *from = chase_base + (size_t)order[i] * chase_stride;
		char *to = chase_base + (size_t)order[(i + 1) % CHASE_NODES] * chase_stride;

		memcpy(from, &to, sizeof(to));
	}
	free(order);
}

NOINLINE void dcache_miss(void)
{
	char *p = chase_cursor ? chase_cursor : chase_base;

	frame_anchor();
	for (int i = 0; i < CHASE_STEPS; i++)
		p = *(char *volatile *)p;
	chase_cursor = p;
}

/* Eight NOPs per step. */
NOINLINE void nops(void)
{
	frame_anchor();
	for (int i = 0; i < NOP_STEPS; i++) {
#if defined(__x86_64__) || defined(__aarch64__) || defined(__i386__) || \
    defined(__arm__) || defined(__riscv) || defined(__alpha__)
		__asm__ volatile("nop\n\tnop\n\tnop\n\tnop\n\t"
				 "nop\n\tnop\n\tnop\n\tnop");
#else
		__asm__ volatile("" ::: "memory");
#endif
	}
}

/* The ProfileMe loop: a branch taken when the byte is >= 128. */
#define PROFILEME_LOOP(data, n, sum)					\
	for (size_t i_ = 0; i_ < (n); i_++) {				\
		if ((data)[i_] >= 128) {				\
			/* volatile asm: no if-conversion, no vectors */ \
			__asm__ volatile("");				\
			(sum) += (data)[i_];				\
		}							\
	}

NOINLINE uint64_t profileme_branch_random(const uint8_t *data, size_t n)
{
	uint64_t sum = 0;

	PROFILEME_LOOP(data, n, sum);
	return sum;
}

NOINLINE uint64_t profileme_branch_sorted(const uint8_t *data, size_t n)
{
	uint64_t sum = 0;

	PROFILEME_LOOP(data, n, sum);
	return sum;
}

struct behaviour {
	const char *name;
	void (*fn)(void);
};

static const struct behaviour behaviours[] = {
	{ "branch_mispredicts", branch_mispredicts },
	{ "int_divider_stalls", int_divider_stalls },
	{ "double_to_int", double_to_int },
	{ "fp_divider_stalls", fp_divider_stalls },
	{ "isb", isb },
	{ "dcache_miss", dcache_miss },
	{ "nops", nops },
};
#define NR_BEHAVIOURS ((int)(sizeof(behaviours) / sizeof(behaviours[0])))

/* Nesting: the behaviour runs 1, 2 or 3 frames below run_one. */
NOINLINE void nest_1(void (*fn)(void))
{
	fn();
	__asm__ volatile("");	/* no tail call: keep this frame */
}

NOINLINE void nest_2(void (*fn)(void))
{
	nest_1(fn);
	__asm__ volatile("");
}

NOINLINE void nest_3(void (*fn)(void))
{
	nest_2(fn);
	__asm__ volatile("");
}

struct config {
	unsigned long iterations;
	uint32_t seed;		/* 0: reshuffle every iteration */
	int fixed;		/* declaration order, never shuffled */
	int nest;		/* 1-3 */
	int only;		/* index into behaviours[], -1 for all */
	int twice;		/* this one runs twice an iteration; -1: none */
	int threads;
	int fork_child;
	int profileme;
	unsigned long pm_rounds;
	int verbose;
	int truth;		/* measure each behaviour instead */
	int elapsed;		/* print the loop's elapsed time */
	const char *until;	/* stop once this path exists */
};

/*
 * --truth: what each behaviour costs in this run, measured by the program
 * itself, for the lab to compare pmprof's figures with. Every call is
 * bracketed by two reads of a user-only `instructions` counter (exact
 * under QEMU's -icount) and of CLOCK_MONOTONIC; what the brackets cost on
 * their own (measured around an empty function) is taken off.
 */
struct truth {
	unsigned long calls;
	uint64_t instructions;
	uint64_t ns;
};

static struct truth truths[16];
static int truth_fd = -1;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t instructions_now(void)
{
	uint64_t v = 0;

	if (truth_fd >= 0 && read(truth_fd, &v, sizeof(v)) != sizeof(v))
		v = 0;
	return v;
}

NOINLINE void empty_behaviour(void)
{
	__asm__ volatile("");
}

static void truth_open(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	truth_fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

/* One bracketed call: adds its instructions and time to *t. */
static void measure(void (*fn)(void), struct truth *t)
{
	uint64_t i0, t0, i1, t1;

	i0 = instructions_now();
	t0 = now_ns();
	fn();
	t1 = now_ns();
	i1 = instructions_now();
	t->calls++;
	t->instructions += i1 - i0;
	t->ns += t1 - t0;
}

static NOINLINE void run_one(const struct config *c, void (*fn)(void))
{
	if (c->truth) {
		for (int i = 0; i < NR_BEHAVIOURS; i++)
			if (behaviours[i].fn == fn)
				measure(fn, &truths[i]);
		return;
	}
	switch (c->nest) {
	case 3: nest_3(fn); break;
	case 2: nest_2(fn); break;
	default: nest_1(fn); break;
	}
	__asm__ volatile("");
}

static void shuffle(int *order, int n, uint32_t *r)
{
	for (int i = n - 1; i > 0; i--) {
		int j, t;

		*r = lfsr_step(*r);
		j = (int)(*r % (uint32_t)(i + 1));
		t = order[i]; order[i] = order[j]; order[j] = t;
	}
}

static void run_behaviours(const struct config *c, unsigned int thread)
{
	int order[NR_BEHAVIOURS];
	uint32_t r = (c->seed ? c->seed : 0x9e3779b9u) + thread * 0x6d2b79f5u;

	if (!r)
		r = 1;
	lfsr = 0xace1u + thread;
	for (int i = 0; i < NR_BEHAVIOURS; i++)
		order[i] = i;
	if (!c->fixed && c->seed)
		shuffle(order, NR_BEHAVIOURS, &r);	/* one fixed order */
	for (unsigned long it = 0; it < c->iterations; it++) {
		/* a test's workload runs until the test has seen what it
		 * waits for, however slow the machine, and then exits 0 */
		if (c->until && !access(c->until, F_OK))
			break;
		if (c->only >= 0) {
			run_one(c, behaviours[c->only].fn);
			continue;
		}
		if (!c->fixed && !c->seed)
			shuffle(order, NR_BEHAVIOURS, &r);	/* Arm's seed 0 */
		for (int i = 0; i < NR_BEHAVIOURS; i++) {
			run_one(c, behaviours[order[i]].fn);
			if (order[i] == c->twice)
				run_one(c, behaviours[order[i]].fn);
		}
	}
}

static void print_truth(void)
{
	struct truth base = { 0, 0, 0 };

	/* the brackets alone, as often as the busiest behaviour was called */
	for (int k = 0; k < 1000; k++)
		measure(empty_behaviour, &base);
	for (int i = 0; i < NR_BEHAVIOURS; i++) {
		const struct truth *t = &truths[i];
		uint64_t ins_brackets = t->calls * base.instructions / base.calls;
		uint64_t ns_brackets = t->calls * base.ns / base.calls;
		/* Time is not exact: when the host delays the brackets'
		 * own measurement, a short behaviour's time can be less
		 * than the brackets' average. Say 0 then, not a wrapped
		 * negative. */
		uint64_t ins = t->instructions > ins_brackets ? t->instructions - ins_brackets : 0;
		uint64_t ns = t->ns > ns_brackets ? t->ns - ns_brackets : 0;

		if (truth_fd >= 0)
			printf("truth %s %lu %llu %llu\n", behaviours[i].name, t->calls,
			       (unsigned long long)ins, (unsigned long long)ns);
		else
			printf("truth %s %lu - %llu\n", behaviours[i].name, t->calls,
			       (unsigned long long)ns);
	}
}

static int cmp_u8(const void *a, const void *b)
{
	return *(const uint8_t *)a - *(const uint8_t *)b;
}

static void run_profileme(const struct config *c)
{
	uint8_t *data = malloc(PROFILEME_BYTES);
	uint32_t r = c->seed ? c->seed : 0x1234567u;
	uint64_t a = 0, b = 0;

	if (!data) {
		perror("workload");
		exit(1);
	}
	for (size_t i = 0; i < PROFILEME_BYTES; i++) {
		r = lfsr_step(r);
		data[i] = (uint8_t)(r >> 7);
	}
	for (unsigned long k = 0; k < c->pm_rounds; k++)
		a += profileme_branch_random(data, PROFILEME_BYTES);
	qsort(data, PROFILEME_BYTES, 1, cmp_u8);
	for (unsigned long k = 0; k < c->pm_rounds; k++)
		b += profileme_branch_sorted(data, PROFILEME_BYTES);
	if (a != b) {	/* same bytes, same sum: a cheap self-check */
		fprintf(stderr, "workload: profileme sums differ\n");
		exit(1);
	}
	sink = a;
	free(data);
}

static struct config cfg = {
	.iterations = DEFAULT_ITERATIONS,
	.nest = 1,
	.only = -1,
	.twice = -1,
	.threads = 1,
	.pm_rounds = DEFAULT_PM_ROUNDS,
};

static void *thread_main(void *arg)
{
	run_behaviours(&cfg, (unsigned int)(uintptr_t)arg);
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: workload [options] [SEED [NEST]]\n"
"\n"
"Runs seven behaviours with known hardware signatures, each in its own\n"
"function, ITERATIONS times (all seven per iteration unless --only):\n"
"  branch_mispredicts int_divider_stalls double_to_int fp_divider_stalls\n"
"  isb dcache_miss nops\n"
"SEED and NEST as positional arguments mirror Arm's `benchmark SEED NEST`.\n"
"\n"
"  -n, --iterations N  iterations (default %d: 1.5-2 s)\n"
"  -s, --seed S        0 (default): reshuffle the order every iteration;\n"
"                      S > 0: one order drawn from S, kept for the run\n"
"  -F, --fixed         run in the order listed above, never shuffled\n"
"  -d, --nest D        call each behaviour through D frames, 1-3\n"
"                      (nest_D -> ... -> nest_1 -> behaviour; default 1)\n"
"  -o, --only NAME     run one behaviour alone\n"
"  -x, --twice NAME    run NAME twice in each iteration, the others once\n"
"                      (a second recording to diff against the first)\n"
"  -t, --threads N     run the loop in N threads (the main thread and\n"
"                      N-1 more), each doing all the iterations\n"
"  -f, --fork          also fork and exec a child copy of this command\n"
"                      (without --fork), and wait for it\n"
"  -p, --profileme     run the ProfileMe loop instead: a branch on %u\n"
"                      random bytes (profileme_branch_random), then on the\n"
"                      same bytes sorted (profileme_branch_sorted)\n"
"  -r, --rounds N      ProfileMe passes over the bytes (default %d)\n"
"  -l, --list          print the behaviour names and exit\n"
"  -T, --truth         measure instead of being profiled: make the same\n"
"                      calls (one thread, no nesting), each between two\n"
"                      reads of a user-only instructions counter (exact\n"
"                      under QEMU's -icount) and of the clock; print\n"
"                      \"truth NAME CALLS INSTRUCTIONS NS\" per behaviour\n"
"                      (INSTRUCTIONS \"-\" without such a counter)\n"
"  -e, --elapsed       print \"elapsed NS\": the behaviours' loop, on\n"
"                      CLOCK_MONOTONIC (guest time under QEMU's -icount)\n"
"  -u, --until PATH    stop before the next iteration once PATH exists\n"
"                      (at most ITERATIONS; for tests that wait for\n"
"                      something to happen while the workload runs)\n"
"  -v, --verbose       print what ran\n"
"  -h, --help          this text\n",
		DEFAULT_ITERATIONS, PROFILEME_BYTES, DEFAULT_PM_ROUNDS);
}

static int parse_ulong(const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	return errno || end == s || *end || *s == '-' ? -1 : 0;
}

static int find_behaviour(const char *name)
{
	for (int i = 0; i < NR_BEHAVIOURS; i++)
		if (!strcmp(behaviours[i].name, name))
			return i;
	return -1;
}

static int bad_arg(const char *what, const char *arg)
{
	fprintf(stderr, "workload: bad %s '%s' (try --help)\n", what, arg);
	return 1;
}

/*
 * Exec a copy of ourselves with the same arguments minus --fork/-f. By
 * the executable's real path, not /proc/self/exe: the kernel names a
 * process after the basename of the path it execs, and the child must be
 * "workload" as its parent is, not "exe".
 */
static pid_t spawn_child(int argc, char **argv)
{
	char **args = calloc((size_t)argc + 1, sizeof(*args));
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	pid_t pid;
	int n = 0;

	if (!args)
		return -1;
	self[len > 0 ? len : 0] = '\0';
	for (int i = 0; i < argc; i++)
		if (i == 0 || (strcmp(argv[i], "--fork") && strcmp(argv[i], "-f")))
			args[n++] = argv[i];
	args[n] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (self[0])
			execv(self, args);
		execvp(argv[0], args);
		perror("workload: exec");
		_exit(127);
	}
	free(args);
	return pid;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "iterations", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "fixed", no_argument, NULL, 'F' },
		{ "nest", required_argument, NULL, 'd' },
		{ "only", required_argument, NULL, 'o' },
		{ "twice", required_argument, NULL, 'x' },
		{ "threads", required_argument, NULL, 't' },
		{ "fork", no_argument, NULL, 'f' },
		{ "profileme", no_argument, NULL, 'p' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "list", no_argument, NULL, 'l' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "truth", no_argument, NULL, 'T' },
		{ "elapsed", no_argument, NULL, 'e' },
		{ "until", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	pid_t child = -1;
	int opt, status = 0;

	while ((opt = getopt_long(argc, argv, "n:s:Fd:o:x:t:fpr:lvhTeu:", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'n':
			if (parse_ulong(optarg, &cfg.iterations))
				return bad_arg("iteration count", optarg);
			break;
		case 's':
			if (parse_ulong(optarg, &v) || v > UINT32_MAX)
				return bad_arg("seed", optarg);
			cfg.seed = (uint32_t)v;
			break;
		case 'F': cfg.fixed = 1; break;
		case 'd':
			if (parse_ulong(optarg, &v) || v < 1 || v > 3)
				return bad_arg("nesting depth (1-3)", optarg);
			cfg.nest = (int)v;
			break;
		case 'o':
			cfg.only = find_behaviour(optarg);
			if (cfg.only < 0)
				return bad_arg("behaviour name", optarg);
			break;
		case 'x':
			cfg.twice = find_behaviour(optarg);
			if (cfg.twice < 0)
				return bad_arg("behaviour name", optarg);
			break;
		case 't':
			if (parse_ulong(optarg, &v) || v < 1 || v > 256)
				return bad_arg("thread count (1-256)", optarg);
			cfg.threads = (int)v;
			break;
		case 'f': cfg.fork_child = 1; break;
		case 'p': cfg.profileme = 1; break;
		case 'r':
			if (parse_ulong(optarg, &cfg.pm_rounds))
				return bad_arg("round count", optarg);
			break;
		case 'l':
			for (int i = 0; i < NR_BEHAVIOURS; i++)
				puts(behaviours[i].name);
			return 0;
		case 'v': cfg.verbose = 1; break;
		case 'T': cfg.truth = 1; break;
		case 'e': cfg.elapsed = 1; break;
		case 'u': cfg.until = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 1;
		}
	}
	if (optind < argc) {	/* Arm's positional form: SEED [NEST] */
		if (parse_ulong(argv[optind], &v) || v > UINT32_MAX)
			return bad_arg("seed", argv[optind]);
		cfg.seed = (uint32_t)v;
		optind++;
	}
	if (optind < argc) {
		if (parse_ulong(argv[optind], &v) || v < 1 || v > 3)
			return bad_arg("nesting depth (1-3)", argv[optind]);
		cfg.nest = (int)v;
		optind++;
	}
	if (optind < argc)
		return bad_arg("argument", argv[optind]);

	if (cfg.fork_child) {
		child = spawn_child(argc, argv);
		if (child < 0) {
			perror("workload: fork");
			return 1;
		}
	}

	if (cfg.truth && (cfg.profileme || cfg.threads > 1))
		return bad_arg("option with --truth", cfg.profileme ? "--profileme" : "--threads");
	if (cfg.truth)
		truth_open();
	uint64_t start = now_ns();
	if (cfg.profileme) {
		run_profileme(&cfg);
	} else {
		chase_init(cfg.seed);
		if (cfg.threads == 1) {
			run_behaviours(&cfg, 0);
		} else {
			pthread_t tids[256];
			int err;

			/* The main thread is worker 0: N threads in all. */
			for (int i = 1; i < cfg.threads; i++) {
				err = pthread_create(&tids[i], NULL, thread_main,
						     (void *)(uintptr_t)i);
				if (err) {
					fprintf(stderr, "workload: pthread_create: %s\n",
						strerror(err));
					return 1;
				}
			}
			run_behaviours(&cfg, 0);
			for (int i = 1; i < cfg.threads; i++)
				pthread_join(tids[i], NULL);
		}
		free(chase_base);
	}
	if (cfg.elapsed)
		printf("elapsed %llu\n", (unsigned long long)(now_ns() - start));
	if (cfg.truth)
		print_truth();

	if (child > 0) {
		if (waitpid(child, &status, 0) < 0) {
			perror("workload: waitpid");
			return 1;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "workload: child failed (status 0x%x)\n",
				status);
			return 1;
		}
	}
	if (cfg.verbose)
		printf("workload: pid %d, %s, %lu iterations, %d thread(s), "
		       "nest %d, seed %u%s\n", (int)getpid(),
		       cfg.profileme ? "profileme" :
		       cfg.only >= 0 ? behaviours[cfg.only].name : "all",
		       cfg.profileme ? cfg.pm_rounds : cfg.iterations,
		       cfg.threads, cfg.nest, cfg.seed,
		       child > 0 ? ", forked a child" : "");
	return 0;
}
