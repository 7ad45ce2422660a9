// SPDX-License-Identifier: GPL-2.0
/*
 * A C++ workload for tests/cli/unwind-perf.sh: namespaces, a class
 * hierarchy with virtual calls, a template, and small functions the
 * compiler inlines (frames of their own with --inline), run for about a
 * second. No frame pointers: only DWARF unwinding sees its callers.
 */
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <unistd.h>
#include <vector>

static void (*volatile leave)(int) = _exit;

namespace shapes {

static volatile double sink;

struct Shape {
	virtual ~Shape() = default;
	virtual double area(long n) const = 0;
};

/* inlined into the areas below */
static inline double step(double x, long i)
{
	return x * 1.0000001 + static_cast<double>(i & 7);
}

struct Square : Shape {
	double side = 1.5;
	__attribute__((noinline)) double area(long n) const override
	{
		double x = side;

		for (long i = 0; i < n; i++)
			x = step(x, i);
		return x;
	}
};

struct Circle : Shape {
	double r = 0.5;
	__attribute__((noinline)) double area(long n) const override
	{
		double x = r;

		for (long i = 0; i < n; i++)
			x = step(x, i) * 0.9999999;
		return x;
	}
};

template <typename T>
__attribute__((noinline)) double total(const std::vector<std::unique_ptr<T>> &v,
				       long n)
{
	double sum = 0;

	for (const auto &s : v)
		sum += s->area(n);
	return sum;
}

} // namespace shapes

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? std::atol(argv[1]) : 60;
	std::vector<std::unique_ptr<shapes::Shape>> v;

	v.emplace_back(new shapes::Square);
	v.emplace_back(new shapes::Circle);
	for (long r = 0; r < rounds; r++)
		shapes::sink = shapes::sink + shapes::total(v, 4000000);
	std::printf("%g\n", static_cast<double>(shapes::sink));
	std::fflush(stdout);
	/* as tests/programs/report-prog.c: no exit handlers, a plain call */
	leave(0);
	return 0;
}
