// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol tables, demangling, kallsyms and perf-map parsing, DSO naming.
 * Expected values are written by hand here (or come from c++filt).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "pmprof/dso.h"
#include "pmprof/error.h"
#include "pmprof/symbols.h"
#include "unit/symtest.h"

static void test_symtab_lookup(void **state)
{
	struct pm_symtab *t = pm_symtab__new(false);
	const struct pm_symbol *s;

	(void)state;
	/* added out of order; one zero-size symbol, a gap after "c" */
	pm_symtab__add(t, 0x2000, 0x100, PM_SYM_FUNC, PM_BIND_GLOBAL, "c");
	pm_symtab__add(t, 0x1000, 0x10, PM_SYM_FUNC, PM_BIND_GLOBAL, "a");
	pm_symtab__add(t, 0x1800, 0, PM_SYM_NOTYPE, PM_BIND_LOCAL, "b");
	pm_symtab__finish(t);
	assert_int_equal(pm_symtab__nr(t), 3);
	/* in address order */
	assert_string_equal(pm_symtab__at(t, 0)->name, "a");
	assert_string_equal(pm_symtab__at(t, 1)->name, "b");
	assert_string_equal(pm_symtab__at(t, 2)->name, "c");
	assert_null(pm_symtab__at(t, 3));
	assert_null(pm_symtab__find(t, 0xfff));
	assert_string_equal(pm_symtab__find(t, 0x1000)->name, "a");
	assert_string_equal(pm_symtab__find(t, 0x100f)->name, "a");
	assert_null(pm_symtab__find(t, 0x1010));	/* a has a size */
	s = pm_symtab__find(t, 0x1fff);			/* b extends to c */
	assert_non_null(s);
	assert_string_equal(s->name, "b");
	assert_int_equal(s->end, 0x2000);
	assert_false(s->sized);
	assert_string_equal(pm_symtab__find(t, 0x20ff)->name, "c");
	assert_null(pm_symtab__find(t, 0x2100));
	assert_null(pm_symtab__find(t, UINT64_MAX));
	pm_symtab__delete(t);
}

static void test_symtab_last_zero_size(void **state)
{
	struct pm_symtab *t = pm_symtab__new(false);
	const struct pm_symbol *s;

	(void)state;
	pm_symtab__add(t, 0x4010, 0, PM_SYM_FUNC, PM_BIND_GLOBAL, "last");
	pm_symtab__finish(t);
	s = pm_symtab__find(t, 0x4010);
	assert_non_null(s);
	/* end of its page plus one page: 0x5000 + 0x1000 */
	assert_int_equal(s->end, 0x6000);
	pm_symtab__delete(t);
}

static void test_symtab_aliases(void **state)
{
	struct pm_symtab *t = pm_symtab__new(false);

	(void)state;
	/*
	 * perf's rules: among unsized aliases only the last added counts as
	 * having a length; with a length beats without; then non-weak over
	 * weak, global over local, fewer leading '_', the longer name.
	 */
	pm_symtab__add(t, 0x100, 0, PM_SYM_FUNC, PM_BIND_GLOBAL, "nosize1");
	pm_symtab__add(t, 0x100, 8, PM_SYM_FUNC, PM_BIND_WEAK, "weak");
	pm_symtab__add(t, 0x100, 0, PM_SYM_FUNC, PM_BIND_GLOBAL, "nosize2");
	pm_symtab__add(t, 0x180, 0, PM_SYM_FUNC, PM_BIND_GLOBAL, "__pi___thunk");
	pm_symtab__add(t, 0x180, 0, PM_SYM_FUNC, PM_BIND_GLOBAL, "__thunk");
	pm_symtab__add(t, 0x1c0, 4, PM_SYM_FUNC, PM_BIND_GLOBAL, "sized");
	pm_symtab__add(t, 0x1c0, 0, PM_SYM_FUNC, PM_BIND_GLOBAL, "unsized_longer");
	pm_symtab__add(t, 0x200, 8, PM_SYM_FUNC, PM_BIND_WEAK, "w");
	pm_symtab__add(t, 0x200, 8, PM_SYM_FUNC, PM_BIND_LOCAL, "l");
	pm_symtab__add(t, 0x200, 8, PM_SYM_FUNC, PM_BIND_GLOBAL, "__g");
	pm_symtab__add(t, 0x300, 8, PM_SYM_FUNC, PM_BIND_GLOBAL, "__libc_x");
	pm_symtab__add(t, 0x300, 8, PM_SYM_FUNC, PM_BIND_GLOBAL, "x");
	pm_symtab__add(t, 0x400, 8, PM_SYM_FUNC, PM_BIND_GLOBAL, "ab");
	pm_symtab__add(t, 0x400, 8, PM_SYM_FUNC, PM_BIND_GLOBAL, "abc");
	pm_symtab__finish(t);
	assert_int_equal(pm_symtab__nr(t), 6);
	assert_string_equal(pm_symtab__find(t, 0x100)->name, "nosize2");
	/* the size of the losing "weak" is kept */
	assert_int_equal(pm_symtab__find(t, 0x100)->end, 0x108);
	assert_string_equal(pm_symtab__find(t, 0x180)->name, "__thunk");
	assert_int_equal(pm_symtab__find(t, 0x180)->end, 0x1c0);
	assert_string_equal(pm_symtab__find(t, 0x1c0)->name, "unsized_longer");
	assert_string_equal(pm_symtab__find(t, 0x200)->name, "__g");
	assert_string_equal(pm_symtab__find(t, 0x300)->name, "x");
	assert_string_equal(pm_symtab__find(t, 0x407)->name, "abc");
	pm_symtab__delete(t);
}

static void test_symtab_nested(void **state)
{
	struct pm_symtab *t = pm_symtab__new(false);

	(void)state;
	/* an outer symbol holding a smaller one: after the inner ends, the
	 * outer one is found again */
	pm_symtab__add(t, 0x1000, 0x100, PM_SYM_FUNC, PM_BIND_GLOBAL, "outer");
	pm_symtab__add(t, 0x1010, 0x10, PM_SYM_FUNC, PM_BIND_LOCAL, "inner");
	pm_symtab__finish(t);
	assert_string_equal(pm_symtab__find(t, 0x1008)->name, "outer");
	assert_string_equal(pm_symtab__find(t, 0x1018)->name, "inner");
	assert_string_equal(pm_symtab__find(t, 0x1020)->name, "outer");
	assert_null(pm_symtab__find(t, 0x1100));
	pm_symtab__delete(t);
}

static void test_symtab_many(void **state)
{
	struct pm_symtab *t = pm_symtab__new(false);
	char name[32];

	(void)state;
	/* every 16 bytes a symbol of 12 bytes, added backwards */
	for (int i = 9999; i >= 0; i--) {
		snprintf(name, sizeof(name), "f%d", i);
		pm_symtab__add(t, 0x10000 + 16 * (uint64_t)i, 12, PM_SYM_FUNC,
			       PM_BIND_GLOBAL, name);
	}
	pm_symtab__finish(t);
	assert_int_equal(pm_symtab__nr(t), 10000);
	for (int i = 0; i < 10000; i += 7) {
		uint64_t a = 0x10000 + 16 * (uint64_t)i;

		snprintf(name, sizeof(name), "f%d", i);
		assert_string_equal(pm_symtab__find(t, a + 11)->name, name);
		assert_null(pm_symtab__find(t, a + 12));
	}
	pm_symtab__delete(t);
}

static void test_demangle(void **state)
{
	static const struct { const char *in, *out, *params; } cases[] = {
		{ "_ZN2ns3Foo3barEi", "ns::Foo::bar", "ns::Foo::bar(int)" },
		{ "_ZNKSt6vectorIiSaIiEE4sizeEv",
		  "std::vector<int, std::allocator<int> >::size",
		  "std::vector<int, std::allocator<int> >::size() const" },
		{ "_Z1fPKc.cold", "f", "f(char const*) [clone .cold]" },
		/* Rust legacy: the hash is dropped */
		{ "_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write",
		  "core::fmt::write" },
		{ "_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17h0123456789abcdefE",
		  "std::rt::lang_start::{{closure}}", "std::rt::lang_start::{{closure}}" },
		/* Rust v0 */
		{ "_RNvCs1234_7mycrate3foo", "mycrate::foo", "mycrate::foo" },
		{ "_RNvNtCs1234_7mycrate3abc3def", "mycrate::abc::def",
		  "mycrate::abc::def" },
		/* a PLT entry keeps its "@plt", after the demangled callee */
		{ "_ZN2ns2ItppEv@plt", "ns::It::operator++@plt", "ns::It::operator++()@plt" },
		/* a PLT stub keeps its suffix, as perf shows it */
		{ "_ZNSo5flushEv@plt", "std::ostream::flush@plt",
		  "std::ostream::flush()@plt" },
	};
	char *d;

	(void)state;
	for (size_t i = 0; i < PM_ARRAY_SIZE(cases); i++) {
		d = pm_demangle(cases[i].in);
		assert_non_null(d);
		assert_string_equal(d, cases[i].out);
		free(d);
		d = pm_demangle_params(cases[i].in);
		assert_non_null(d);
		assert_string_equal(d, cases[i].params);
		free(d);
	}
	assert_null(pm_demangle("main"));
	assert_null(pm_demangle("_start"));
	assert_null(pm_demangle(""));
	assert_null(pm_demangle("memcpy@plt"));
	assert_null(pm_demangle("_Zbogus@plt"));
}

/* Our demangler agrees with c++filt on the same names: `c++filt -p`
 * (no parameters) for the default, plain c++filt with parameters. */
static void test_demangle_cxxfilt(void **state)
{
	static const char *const names[] = {
		"_ZN9__gnu_cxx13new_allocatorIcE8allocateEmPKv",
		"_ZSt4endlIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_",
		"_ZN4core3ptr13drop_in_place17h1111111111111111E",
		"_ZZ4mainENKUlvE_clEv",
	};
	char *want, *got;

	(void)state;
	if (!st_have("c++filt"))
		skip();
	for (size_t i = 0; i < PM_ARRAY_SIZE(names); i++) {
		want = st_run("c++filt -p '%s'", names[i]);
		assert_non_null(want);
		want[strcspn(want, "\n")] = '\0';
		got = pm_demangle(names[i]);
		assert_non_null(got);
		assert_string_equal(got, want);
		free(got);
		free(want);
		want = st_run("c++filt '%s'", names[i]);
		assert_non_null(want);
		want[strcspn(want, "\n")] = '\0';
		got = pm_demangle_params(names[i]);
		assert_non_null(got);
		assert_string_equal(got, want);
		free(got);
		free(want);
	}
}

static void test_symtab_demangles(void **state)
{
	struct pm_symtab *t = pm_symtab__new(true);
	const struct pm_symbol *s;

	(void)state;
	pm_symtab__add(t, 0x10, 4, PM_SYM_FUNC, PM_BIND_GLOBAL, "_ZN2ns3Foo3barEi");
	pm_symtab__add(t, 0x20, 4, PM_SYM_FUNC, PM_BIND_GLOBAL, "_Zbogus");
	pm_symtab__finish(t);
	s = pm_symtab__find(t, 0x12);
	assert_string_equal(s->name, "ns::Foo::bar");
	assert_string_equal(s->raw_name, "_ZN2ns3Foo3barEi");
	/* not demanglable: kept as it is */
	assert_string_equal(pm_symtab__find(t, 0x20)->name, "_Zbogus");
	assert_ptr_equal(pm_symtab__find_name(t, "ns::Foo::bar"), s);
	pm_symtab__delete(t);
}

static const char kallsyms_text[] =
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81000100 t secondary_startup\n"
	"ffffffff81000300 W weak_fn\n"
	"ffffffff81000400 T _stext\n"
	"ffffffff81000400 T do_work\n"
	"ffffffff82000000 D init_data\n"
	"ffffffff82000040 b some_bss\n"
	"ffffffffc0a00000 t ext4_read\t[ext4]\n"
	"ffffffffc0a00080 T ext4_write\t[ext4]\n"
	"ffffffffc0b00000 t nat_fn\t[nf_nat]\n"
	"ffffffffc0b00000 d nat_data\t[nf_nat]\n";

static void test_kallsyms(void **state)
{
	struct pm_kallsyms *ks;
	struct pm_symtab *k, *m;
	struct pm_error err;

	(void)state;
	assert_int_equal(pm_kallsyms__parse(kallsyms_text,
					    sizeof(kallsyms_text) - 1, "test",
					    &ks, &err), 0);
	k = pm_kallsyms__kernel(ks);
	/* _text and startup_64 share an address, both unsized: as in
	 * perf the later line wins */
	assert_string_equal(pm_symtab__find(k, 0xffffffff81000050)->name,
			    "startup_64");
	assert_string_equal(pm_symtab__find(k, 0xffffffff810001ff)->name,
			    "secondary_startup");
	assert_string_equal(pm_symtab__find(k, 0xffffffff81000300)->name,
			    "weak_fn");
	assert_string_equal(pm_symtab__find(k, 0xffffffff81000400)->name,
			    "do_work");
	assert_int_equal(pm_kallsyms__addr(ks, "_text"), 0xffffffff81000000);
	assert_int_equal(pm_kallsyms__addr(ks, "_stext"), 0xffffffff81000400);
	assert_string_equal(pm_symtab__find(pm_kallsyms__kernel_data(ks),
					    0xffffffff82000008)->name,
			    "init_data");
	assert_int_equal(pm_kallsyms__nr_modules(ks), 2);
	assert_string_equal(pm_kallsyms__module_name(ks, 0), "[ext4]");
	assert_string_equal(pm_kallsyms__module_name(ks, 1), "[nf_nat]");
	m = pm_kallsyms__module(ks, "[ext4]");
	assert_non_null(m);
	assert_ptr_equal(m, pm_kallsyms__module(ks, "ext4"));
	assert_string_equal(pm_symtab__find(m, 0xffffffffc0a0007f)->name,
			    "ext4_read");
	assert_string_equal(pm_symtab__find(m, 0xffffffffc0a00080)->name,
			    "ext4_write");
	assert_null(pm_symtab__find(m, 0xffffffffc0b00000));
	assert_null(pm_kallsyms__module(ks, "[xfs]"));
	/* KASLR: the recording saw _text 0x200000 higher */
	pm_kallsyms__relocate(ks, 0x200000);
	assert_string_equal(pm_symtab__find(k, 0xffffffff81200400)->name,
			    "do_work");
	assert_int_equal(pm_kallsyms__addr(ks, "_text"), 0xffffffff81200000);
	pm_kallsyms__delete(ks);
}

/*
 * Borrowed names are the caller's pointers; the table sorts the same
 * whether the symbols come in address order (no sort needed) or not.
 */
static void test_symtab_borrowed(void **state)
{
	static const char names[][4] = { "a", "b", "c", "b2" };
	struct pm_symtab *in_order = pm_symtab__new(false);
	struct pm_symtab *shuffled = pm_symtab__new(false);

	(void)state;
	pm_symtab__borrow_names(in_order);
	pm_symtab__add(in_order, 0x1000, 0, PM_SYM_FUNC, PM_BIND_GLOBAL, names[0]);
	pm_symtab__add(in_order, 0x2000, 0, PM_SYM_FUNC, PM_BIND_LOCAL, names[1]);
	pm_symtab__add(in_order, 0x2000, 0, PM_SYM_FUNC, PM_BIND_GLOBAL, names[3]);
	pm_symtab__add(in_order, 0x3000, 0x10, PM_SYM_FUNC, PM_BIND_GLOBAL, names[2]);
	pm_symtab__add(shuffled, 0x3000, 0x10, PM_SYM_FUNC, PM_BIND_GLOBAL, names[2]);
	pm_symtab__add(shuffled, 0x2000, 0, PM_SYM_FUNC, PM_BIND_LOCAL, names[1]);
	pm_symtab__add(shuffled, 0x1000, 0, PM_SYM_FUNC, PM_BIND_GLOBAL, names[0]);
	pm_symtab__add(shuffled, 0x2000, 0, PM_SYM_FUNC, PM_BIND_GLOBAL, names[3]);
	pm_symtab__finish(in_order);
	pm_symtab__finish(shuffled);
	assert_int_equal(pm_symtab__nr(in_order), 3);
	assert_int_equal(pm_symtab__nr(shuffled), 3);
	assert_ptr_equal(pm_symtab__find(in_order, 0x1fff)->raw_name, names[0]);
	/* the global alias wins at 0x2000, and b ends where c starts */
	assert_ptr_equal(pm_symtab__find(in_order, 0x2fff)->raw_name, names[3]);
	assert_string_equal(pm_symtab__find(shuffled, 0x2fff)->name, "b2");
	assert_int_equal(pm_symtab__find(shuffled, 0x2000)->end, 0x3000);
	assert_string_equal(pm_symtab__find(shuffled, 0x1000)->name, "a");
	assert_null(pm_symtab__find(in_order, 0x3010));
	/* copies in the other table: not the caller's pointers */
	assert_ptr_not_equal(pm_symtab__find(shuffled, 0x1000)->raw_name, names[0]);
	pm_symtab__delete(in_order);
	pm_symtab__delete(shuffled);
}

/* kallsyms names outlive the text they were parsed from, which stays as
 * it was; a last line without its newline keeps its whole name. */
static void test_kallsyms_own_names(void **state)
{
	static const char text[] =
		"ffffffff81000000 T _text\n"
		"ffffffff81000100 t first_fn\n"
		"ffffffffc0a00000 t mod_fn\t[mymod]\n"
		"ffffffff81000200 T last_fn";
	char *buf = strdup(text);
	struct pm_kallsyms *ks;
	struct pm_error err;

	(void)state;
	assert_int_equal(pm_kallsyms__parse(buf, strlen(buf), "test", &ks, &err), 0);
	assert_string_equal(buf, text);
	memset(buf, 'x', strlen(buf));
	free(buf);
	assert_string_equal(pm_symtab__find(pm_kallsyms__kernel(ks),
					    0xffffffff81000150)->name, "first_fn");
	assert_string_equal(pm_symtab__find(pm_kallsyms__kernel(ks),
					    0xffffffff81000200)->name, "last_fn");
	assert_string_equal(pm_symtab__find(pm_kallsyms__module(ks, "mymod"),
					    0xffffffffc0a00000)->name, "mod_fn");
	assert_int_equal(pm_kallsyms__addr(ks, "_text"), 0xffffffff81000000);
	pm_kallsyms__delete(ks);
}

static void test_kallsyms_bad(void **state)
{
	static const char *const bad[] = {
		"ffffffff81000000 T\n",
		"zzzz T foo\n",
		"ffffffff81000000 T foo\t[ext4\n",
		"ffffffff81000000TT foo\n",
		"11112222333344445 T toolong\n",
	};
	struct pm_kallsyms *ks = NULL;
	struct pm_error err;

	(void)state;
	for (size_t i = 0; i < PM_ARRAY_SIZE(bad); i++) {
		assert_int_equal(pm_kallsyms__parse(bad[i], strlen(bad[i]),
						    "bad", &ks, &err),
				 -PM_EFORMAT);
		assert_non_null(strstr(err.msg, "line 1"));
	}
	/* kptr_restrict hides addresses: say so */
	assert_int_equal(pm_kallsyms__parse("0000000000000000 T a\n"
					    "0000000000000000 T b\n", 42,
					    "zero", &ks, &err), -PM_EFORMAT);
	assert_non_null(strstr(err.msg, "zero"));
	assert_int_equal(pm_kallsyms__parse("", 0, "empty", &ks, &err),
			 -PM_EFORMAT);
}

/* The real /proc/kallsyms, checked against its own lines read here. */
static void test_kallsyms_host(void **state)
{
	struct pm_kallsyms *ks;
	struct pm_error err;
	char *line;
	uint64_t addr = 0;
	char type, name[256];

	(void)state;
	line = st_run("grep -m1 ' [Tt] schedule$' /proc/kallsyms");
	if (!line || sscanf(line, "%" SCNx64 " %c %255s", &addr, &type,
			    name) != 3 || addr == 0) {
		free(line);
		skip();
	}
	free(line);
	assert_int_equal(pm_kallsyms__load(NULL, &ks, &err), 0);
	assert_string_equal(pm_symtab__find(pm_kallsyms__kernel(ks),
					    addr)->name, "schedule");
	pm_kallsyms__delete(ks);
}

/* The decision from given facts: the recording's and a made-up host's. */
static void test_kernel_ident(void **state)
{
	static const uint8_t bid_a[20] = { 0xaa, 1, 2, 3 }, bid_b[20] = { 0xbb, 1, 2, 3 };
	struct pm_kernel_ident host = {
		.osrelease = "6.18.0-test", .hostname = "vm",
		.build_id = bid_a, .build_id_size = 20, .text = 0xffffffff9a000000ULL,
	};
	struct pm_kernel_ident rec = host;
	char why[320];

	(void)state;
	/* build ids decide, whatever the rest says */
	assert_true(pm_kernel_ident__same(&rec, &host, why, sizeof(why)));
	assert_non_null(strstr(why, "aa010203"));
	assert_non_null(strstr(why, "is the running kernel's"));
	rec.build_id = bid_b;
	assert_false(pm_kernel_ident__same(&rec, &host, why, sizeof(why)));
	assert_non_null(strstr(why, "bb010203"));
	assert_non_null(strstr(why, "is not the running kernel's (aa010203"));
	rec.build_id = bid_a;
	rec.osrelease = "5.10.0-other";
	rec.text = 0xffffffff81000000ULL;
	assert_true(pm_kernel_ident__same(&rec, &host, why, sizeof(why)));

	/* no build id recorded: the same boot, or nothing */
	rec = host;
	rec.build_id = NULL;
	rec.build_id_size = 0;
	assert_true(pm_kernel_ident__same(&rec, &host, why, sizeof(why)));
	assert_non_null(strstr(why, "the same boot"));
	rec.text = 0xffffffff81000000ULL;	/* KASLR put it elsewhere: another boot */
	assert_false(pm_kernel_ident__same(&rec, &host, why, sizeof(why)));
	assert_non_null(strstr(why, "another boot"));
	rec.text = 0;				/* no kernel map to tell */
	assert_false(pm_kernel_ident__same(&rec, &host, why, sizeof(why)));
	rec.text = host.text;
	rec.osrelease = "5.10.0-23-amd64";	/* a Linux 5.x recording */
	assert_false(pm_kernel_ident__same(&rec, &host, why, sizeof(why)));
	assert_non_null(strstr(why, "5.10.0-23-amd64"));
	rec.osrelease = host.osrelease;
	rec.hostname = "elsewhere";
	assert_false(pm_kernel_ident__same(&rec, &host, why, sizeof(why)));
	assert_non_null(strstr(why, "elsewhere"));
	rec.hostname = NULL;			/* not recorded: not held against it */
	assert_true(pm_kernel_ident__same(&rec, &host, why, sizeof(why)));
	/* a recording that says nothing is not the running kernel's */
	assert_false(pm_kernel_ident__same(NULL, &host, why, sizeof(why)));
	memset(&rec, 0, sizeof(rec));
	assert_false(pm_kernel_ident__same(&rec, &host, why, sizeof(why)));
	/* a host whose build id cannot be read: the same-boot rules */
	rec = host;
	host.build_id = NULL;
	host.build_id_size = 0;
	assert_true(pm_kernel_ident__same(&rec, &host, why, sizeof(why)));
	assert_non_null(strstr(why, "the same boot"));
}

/* This machine as it is: its own facts are its own kernel's. */
static void test_kernel_host(void **state)
{
	struct pm_kernel_host h;
	struct pm_kernel_ident other;
	struct pm_error err;
	char *rel = st_run("uname -r");

	(void)state;
	assert_non_null(rel);
	rel[strcspn(rel, "\n")] = '\0';
	pm_kernel_host__read(&h);
	assert_string_equal(h.id.osrelease, rel);
	if (h.id.build_id_size || h.id.text)
		assert_int_equal(pm_kallsyms__check_host(&h.id, &err), 0);
	other = h.id;
	other.osrelease = "1.2.3-not-this-one";
	other.build_id = NULL;
	other.build_id_size = 0;
	assert_int_equal(pm_kallsyms__check_host(&other, &err), -PM_EUNSUP);
	assert_non_null(strstr(err.msg, "1.2.3-not-this-one"));
	assert_int_equal(pm_kallsyms__check_host(NULL, &err), -PM_EUNSUP);
	free(rel);
}

static void test_notes(void **state)
{
	/* namesz 4, descsz 4, type 3, "GNU\0", desc; after an unrelated note */
	static const uint8_t le[] = {
		4, 0, 0, 0,  2, 0, 0, 0,  1, 0, 0, 0,  'X', 'e', 'n', 0,  9, 9, 0, 0,
		4, 0, 0, 0,  4, 0, 0, 0,  3, 0, 0, 0,  'G', 'N', 'U', 0,
		0xde, 0xad, 0xbe, 0xef,
	};
	static const uint8_t be[] = {
		0, 0, 0, 4,  0, 0, 0, 4,  0, 0, 0, 3,  'G', 'N', 'U', 0,
		0x01, 0x02, 0x03, 0x04,
	};
	uint8_t id[20];
	char hex[41];

	/* the flag says "swap": the little-endian notes need it on a
	 * big-endian host (the s390x build), the big-endian ones elsewhere */
	const uint16_t one = 1;
	const bool host_be = *(const uint8_t *)&one == 0;

	(void)state;
	assert_int_equal(pm_notes__build_id(le, sizeof(le), host_be, id, 20), 4);
	assert_string_equal(pm_build_id__hex(id, 4, hex), "deadbeef");
	assert_int_equal(pm_notes__build_id(be, sizeof(be), !host_be, id, 20), 4);
	assert_string_equal(pm_build_id__hex(id, 4, hex), "01020304");
	/* truncated: descsz runs past the end */
	assert_int_equal(pm_notes__build_id(le + 20, sizeof(le) - 22, host_be,
					    id, 20), -PM_EFORMAT);
}

static void test_jitmap(void **state)
{
	static const char map[] =
		"7f0000001000 40 LazyCompile:*fib /tmp/x.js:1\n"
		"0x7f0000001040 0x20 stub\n"
		"\n"
		"7f0000002000 0 empty size\n";
	struct pm_symtab *t = pm_symtab__new(true);
	struct pm_error err;

	(void)state;
	assert_int_equal(pm_jitmap__parse(map, sizeof(map) - 1, "m", t, &err), 0);
	pm_symtab__finish(t);
	assert_string_equal(pm_symtab__find(t, 0x7f000000103f)->name,
			    "LazyCompile:*fib /tmp/x.js:1");
	assert_string_equal(pm_symtab__find(t, 0x7f0000001040)->name, "stub");
	assert_null(pm_symtab__find(t, 0x7f0000001060));
	assert_string_equal(pm_symtab__find(t, 0x7f0000002abc)->name,
			    "empty size");
	pm_symtab__delete(t);

	t = pm_symtab__new(false);
	assert_int_equal(pm_jitmap__parse("10 20 ok\nnot hex\n", 17, "m", t,
					  &err), -PM_EFORMAT);
	assert_int_equal(err.offset, 2);
	pm_symtab__delete(t);
}

static void test_jit_dso(void **state)
{
	char *dir = st_mkdtemp(), path[512];
	struct pm_symconf conf = { .sz = sizeof(conf) };
	struct pm_dsos *dsos;
	struct pm_dso *dso;
	const struct pm_symbol *s;

	(void)state;
	snprintf(path, sizeof(path), "%s/perf-4242.map", dir);
	st_write(path, "1000 100 jitted_one\n1100 80 _ZN2ns3Foo3barEi\n");
	conf.tmp_dir = dir;
	dsos = pm_dsos__new(&conf);
	dso = pm_dsos__jit(dsos, 4242);
	assert_int_equal(pm_dso__kind(dso), PM_DSO_JIT);
	assert_string_equal(pm_dso__name(dso), path);
	/* perf shows a JIT map as "[JIT] tid PID" */
	assert_string_equal(pm_dso__short_name(dso), "[JIT] tid 4242");
	/* absolute addresses: map_ip is the identity */
	assert_int_equal(pm_dso__map_ip(dso, 0x1000, 0, 0x1050), 0x1050);
	s = pm_dso__find_symbol(dso, 0x1050);
	assert_string_equal(s->name, "jitted_one");
	assert_string_equal(pm_dso__find_symbol(dso, 0x1100)->name,
			    "ns::Foo::bar");
	/* a pid without a map file: a load error, lookups miss */
	dso = pm_dsos__jit(dsos, 4243);
	assert_null(pm_dso__find_symbol(dso, 0x1050));
	assert_non_null(pm_dso__load_error(dso));
	pm_dsos__delete(dsos);
	st_rmdir(dir);
}

static void test_classify(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(pm_dso_classify("/usr/bin/ls", false), PM_DSO_ELF);
	assert_int_equal(pm_dso_classify("[kernel.kallsyms]_text", true),
			 PM_DSO_KERNEL);
	assert_int_equal(pm_dso_classify("[kernel.kallsyms]", false),
			 PM_DSO_KERNEL);
	assert_int_equal(pm_dso_classify("[vdso]", false), PM_DSO_VDSO);
	assert_int_equal(pm_dso_classify("//anon", false), PM_DSO_ANON);
	assert_int_equal(pm_dso_classify("[anon:jit]", false), PM_DSO_ANON);
	assert_int_equal(pm_dso_classify("[heap]", false), PM_DSO_ANON);
	assert_int_equal(pm_dso_classify("[stack]", false), PM_DSO_ANON);
	assert_int_equal(pm_dso_classify("/dev/zero", false), PM_DSO_ANON);
	assert_int_equal(pm_dso_classify("/anon_hugepage (deleted)", false),
			 PM_DSO_ANON);
	assert_int_equal(pm_dso_classify("[vsyscall]", false), PM_DSO_SPECIAL);
	assert_int_equal(pm_dso_classify("/tmp/perf-123.map", false),
			 PM_DSO_JIT);
	assert_int_equal(pm_dso_classify("/tmp/perf-12x.map", false),
			 PM_DSO_ELF);
	assert_int_equal(pm_dso_classify("[ext4]", true), PM_DSO_KMODULE);
	assert_int_equal(pm_dso_classify("/lib/modules/6.1/x/ext4.ko", true),
			 PM_DSO_KMODULE);
	assert_int_equal(pm_dso_classify("/lib/modules/6.1/x/ext4.ko", false),
			 PM_DSO_ELF);
	assert_string_equal(pm_kmod_name("/lib/modules/6.1/kernel/net/nf-nat.ko.zst",
					 buf, sizeof(buf)), "[nf_nat]");
	assert_string_equal(pm_kmod_name("ext4.ko", buf, sizeof(buf)), "[ext4]");
	assert_string_equal(pm_kmod_name("[xfs]", buf, sizeof(buf)), "[xfs]");
	assert_null(pm_kmod_name("/usr/lib/libc.so.6", buf, sizeof(buf)));
	assert_null(pm_kmod_name("/x/averyveryverylongmodulename.ko", buf, 8));
}

static void test_dsos(void **state)
{
	struct pm_dsos *dsos = pm_dsos__new(NULL);
	struct pm_dso *a, *b, *k, *keep;
	static const uint8_t id[20] = { 1, 2, 3 };
	const uint8_t *got;
	char name[64];

	(void)state;
	a = pm_dsos__findnew(dsos, "/usr/lib/libfoo.so");
	b = pm_dsos__findnew(dsos, "/usr/lib/libfoo.so");
	assert_ptr_equal(a, b);
	assert_string_equal(pm_dso__short_name(a), "libfoo.so");
	pm_dso__put(b);
	k = pm_dsos__findnew(dsos, "[kernel.kallsyms]_text");
	assert_ptr_equal(k, pm_dsos__kernel(dsos));
	assert_string_equal(pm_dso__name(k), "[kernel.kallsyms]");
	assert_string_equal(pm_dso__short_name(k), "[kernel.kallsyms]");
	pm_dso__put(k);
	pm_dsos__set_build_id(dsos, "[kernel.kallsyms]", id, 20);
	assert_int_equal(pm_dso__build_id(pm_dsos__kernel(dsos), &got), 20);
	assert_memory_equal(got, id, 20);
	/* enough names to make the hash grow */
	for (int i = 0; i < 300; i++) {
		snprintf(name, sizeof(name), "/lib/l%d.so", i);
		pm_dso__put(pm_dsos__findnew(dsos, name));
	}
	assert_int_equal(pm_dsos__nr(dsos), 302);
	keep = pm_dsos__findnew(dsos, "/lib/l150.so");
	assert_ptr_equal(keep, pm_dsos__at(dsos, 152));
	/* a missing file: a load error that names it, and no crash */
	assert_null(pm_dso__find_symbol(a, 0x1000));
	assert_non_null(strstr(pm_dso__load_error(a)->msg, "libfoo.so"));
	pm_dso__put(a);
	pm_dsos__delete(dsos);
	/* the DSO outlives its collection */
	assert_string_equal(pm_dso__name(keep), "/lib/l150.so");
	pm_dso__put(keep);
	pm_dso__put(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symtab_lookup),
		cmocka_unit_test(test_symtab_borrowed),
		cmocka_unit_test(test_kallsyms_own_names),
		cmocka_unit_test(test_symtab_last_zero_size),
		cmocka_unit_test(test_symtab_aliases),
		cmocka_unit_test(test_symtab_nested),
		cmocka_unit_test(test_symtab_many),
		cmocka_unit_test(test_demangle),
		cmocka_unit_test(test_demangle_cxxfilt),
		cmocka_unit_test(test_symtab_demangles),
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_kallsyms_bad),
		cmocka_unit_test(test_kallsyms_host),
		cmocka_unit_test(test_kernel_ident),
		cmocka_unit_test(test_kernel_host),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_jitmap),
		cmocka_unit_test(test_jit_dso),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_dsos),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
