// SPDX-License-Identifier: GPL-2.0
/*
 * DSOs on real ELF files built here with gcc: a PIE and a non-PIE
 * executable with a shared library, stripped copies with debug files
 * found by .gnu_debuglink, by build id and in a build-id cache, --symfs.
 *
 * Independent answers: the programs print the run-time addresses of
 * their functions and their own /proc/self/maps, so a lookup goes the way
 * a sample does (run-time address + mapping -> DSO address -> symbol) and
 * must land on the symbol readelf -s lists at that address. Source lines
 * are compared with addr2line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <elf.h>
#include <errno.h>

#include "pmprof/dso.h"
#include "pmprof/error.h"
#include "unit/symtest.h"

static const char lib_src[] =
	"int lib_counter = 7;\n"
	"__attribute__((noinline)) static int lib_impl(int x)\n"
	"{\n"
	"	return x * lib_counter + 1;\n"
	"}\n"
	"int lib_fn(int x) __attribute__((alias(\"lib_impl\")));\n"
	"void *lib_addr(void) { return (void *)lib_impl; }\n";

static const char prog_src[] =
	"#include <stdio.h>\n"
	"int lib_fn(int);\n"
	"void *lib_addr(void);\n"
	"int data_obj[64] = { 1, 2, 3 };\n"
	"__attribute__((noinline)) int alpha_fn(int x)\n"
	"{\n"
	"	return x * 3 + data_obj[x & 7];\n"
	"}\n"
	"__attribute__((noinline)) static int gamma_local(int x)\n"
	"{\n"
	"	return (x ^ 0x55) + lib_fn(x);\n"
	"}\n"
	"__attribute__((noinline)) int beta_fn(int x)\n"
	"{\n"
	"	return gamma_local(x) + alpha_fn(x);\n"
	"}\n"
	"int main(void)\n"
	"{\n"
	"	char line[1024];\n"
	"	FILE *f = fopen(\"/proc/self/maps\", \"r\");\n"
	"	printf(\"SYM alpha_fn %p\\n\", (void *)alpha_fn);\n"
	"	printf(\"SYM beta_fn %p\\n\", (void *)beta_fn);\n"
	"	printf(\"SYM gamma_local %p\\n\", (void *)gamma_local);\n"
	"	printf(\"SYM lib_fn %p\\n\", lib_addr());\n"
	"	printf(\"DATA data_obj %p\\n\", (void *)data_obj);\n"
	"	while (f && fgets(line, sizeof(line), f))\n"
	"		printf(\"MAP %s\", line);\n"
	"	return beta_fn(3) == 12345;\n"
	"}\n";

/* One run-time address and the mapping (from /proc/self/maps) holding it. */
struct rt_addr {
	char name[64];
	bool data;
	uint64_t addr;
	uint64_t start, pgoff;
	char path[512];
};

struct fixture {
	char *dir;
	char bin[600], lib[600];
	struct rt_addr a[8];
	size_t nr;
};

static bool build_and_run(struct fixture *fx, bool pie)
{
	char src[600], lsrc[600];
	char *out, *line, *save = NULL;
	struct { uint64_t lo, hi, off; char path[512]; } maps[256];
	size_t nmaps = 0;

	fx->dir = st_mkdtemp();
	snprintf(src, sizeof(src), "%s/prog.c", fx->dir);
	snprintf(lsrc, sizeof(lsrc), "%s/lib.c", fx->dir);
	snprintf(fx->bin, sizeof(fx->bin), "%s/prog", fx->dir);
	snprintf(fx->lib, sizeof(fx->lib), "%s/libst.so", fx->dir);
	st_write(src, prog_src);
	st_write(lsrc, lib_src);
	out = st_run("cd '%s' && gcc -g -O1 -shared -fPIC -o libst.so lib.c && "
		     "gcc -g -O1 %s -o prog prog.c -L. -lst -Wl,-rpath,'%s' && ./prog",
		     fx->dir, pie ? "-fPIE -pie" : "-fno-pie -no-pie", fx->dir);
	if (!out)
		return false;
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "MAP ", 4) && nmaps < 256 &&
		    sscanf(line + 4, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %*s %*s %511s",
			   &maps[nmaps].lo, &maps[nmaps].hi, &maps[nmaps].off,
			   maps[nmaps].path) == 4) {
			nmaps++;
		} else if ((!strncmp(line, "SYM ", 4) || !strncmp(line, "DATA ", 5)) &&
			   fx->nr < PM_ARRAY_SIZE(fx->a)) {
			struct rt_addr *r = &fx->a[fx->nr++];

			r->data = line[0] == 'D';
			sscanf(strchr(line, ' ') + 1, "%63s %" SCNx64, r->name,
			       &r->addr);
		}
	}
	free(out);
	for (size_t i = 0; i < fx->nr; i++) {
		struct rt_addr *r = &fx->a[i];

		for (size_t m = 0; m < nmaps; m++)
			if (r->addr >= maps[m].lo && r->addr < maps[m].hi) {
				r->start = maps[m].lo;
				r->pgoff = maps[m].off;
				strcpy(r->path, maps[m].path);
			}
		if (!r->path[0])
			return false;
	}
	return fx->nr == 5;
}

static int setup_pie(void **state)
{
	struct fixture *fx = pm_zalloc(sizeof(*fx));

	*state = fx;
	return build_and_run(fx, true) ? 0 : -1;
}

static int setup_nopie(void **state)
{
	struct fixture *fx = pm_zalloc(sizeof(*fx));

	*state = fx;
	return build_and_run(fx, false) ? 0 : -1;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	if (fx->dir)
		st_rmdir(fx->dir);
	free(fx);
	return 0;
}

/* readelf's value and size of a symbol (any table) in a file. */
static bool readelf_sym(const char *file, const char *name, uint64_t *value,
			uint64_t *size)
{
	struct st_sym *v = NULL;
	size_t n = st_readelf_syms("readelf", file, NULL, &v);
	bool ok = false;

	for (size_t i = 0; i < n && !ok; i++)
		if (!strcmp(v[i].name, name) && strcmp(v[i].ndx, "UND")) {
			*value = v[i].value;
			*size = v[i].size;
			ok = true;
		}
	free(v);
	return ok;
}

/*
 * Resolve every printed address through `dsos`: files are looked up by
 * the name `rename` gives (default: the mapped path), as a recording
 * would name them. `local`: static functions must be found (a symtab).
 */
static void check_lookups(struct fixture *fx, struct pm_dsos *dsos,
			  const char *bin_name, const char *lib_name,
			  const char *readelf_bin, bool local)
{
	for (size_t i = 0; i < fx->nr; i++) {
		struct rt_addr *r = &fx->a[i];
		bool is_lib = strstr(r->path, "libst.so") != NULL;
		const char *name = is_lib ? (lib_name ? lib_name : r->path) :
				   (bin_name ? bin_name : r->path);
		const char *file = is_lib ? fx->lib : readelf_bin;
		struct pm_dso *dso = pm_dsos__findnew(dsos, name);
		const struct pm_symbol *s;
		uint64_t value, size, a;

		assert_true(readelf_sym(file, r->name, &value, &size));
		a = pm_dso__map_ip(dso, r->start, r->pgoff, r->addr);
		/* the run-time address lands on readelf's value */
		assert_int_equal(a, value);
		assert_int_equal(pm_dso__unmap_ip(dso, r->start, r->pgoff, a),
				 r->addr);
		if (r->data) {
			s = pm_dso__find_data(dso, a + 8);
		} else if (!local && !strcmp(r->name, "gamma_local")) {
			pm_dso__put(dso);
			continue;
		} else {
			s = pm_dso__find_symbol(dso, a + size - 1);
		}
		assert_non_null(s);
		assert_int_equal(s->start, value);
		if (strcmp(s->name, r->name)) {
			/* an alias at the same address (lib_fn/lib_impl) */
			struct st_sym *v = NULL;
			size_t n = st_readelf_syms("readelf", file, NULL, &v);

			assert_true(st_alias(v, n, value, s->name));
			free(v);
		}
		if (!r->data)
			assert_null(pm_dso__find_symbol(dso, a + size) &&
				    pm_dso__find_symbol(dso, a + size)->start == value ?
				    "past the end" : NULL);
		pm_dso__put(dso);
	}
}

static void test_lookup_plain(void **state)
{
	struct fixture *fx = *state;
	struct pm_dsos *dsos = pm_dsos__new(NULL);
	struct pm_dso *dso;
	struct pm_elf_info info;
	const uint8_t *id;
	char *note;

	check_lookups(fx, dsos, NULL, NULL, fx->bin, true);
	dso = pm_dsos__findnew(dsos, fx->bin);
	assert_int_equal(pm_dso__elf_info(dso, &info), 0);
	assert_int_equal(info.machine, EM_X86_64);
	assert_int_equal(info.data, ELFDATA2LSB);
	assert_string_equal(pm_dso__path(dso), fx->bin);
	assert_string_equal(pm_dso__short_name(dso), "prog");
	/* the file's build id, as readelf -n shows it */
	note = st_run("readelf -n '%s' | sed -n 's/.*Build ID: //p'", fx->bin);
	assert_non_null(note);
	if (*note) {
		char hex[129];
		size_t n = pm_dso__build_id(dso, &id);

		note[strcspn(note, "\n")] = '\0';
		assert_string_equal(pm_build_id__hex(id, n, hex), note);
	}
	free(note);
	pm_dso__put(dso);
	pm_dsos__delete(dsos);
}

/* PLT stubs are named as objdump labels them: "<lib_fn@plt>". */
static void test_plt(void **state)
{
	struct fixture *fx = *state;
	struct pm_dsos *dsos = pm_dsos__new(NULL);
	struct pm_dso *dso = pm_dsos__findnew(dsos, fx->bin);
	char *txt = st_run("objdump -d -j .plt -j .plt.sec '%s'", fx->bin);
	char *line, *save = NULL;
	size_t checked = 0;

	assert_non_null(txt);
	for (line = strtok_r(txt, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		uint64_t addr;
		char name[256], *end;
		const struct pm_symbol *s;

		if (sscanf(line, "%" SCNx64 " <%255[^>]>:", &addr, name) != 2 ||
		    !(end = strstr(name, "@plt")) || end[4])
			continue;
		s = pm_dso__find_symbol(dso, addr);
		assert_non_null(s);
		assert_string_equal(s->name, name);
		assert_int_equal(s->start, addr);
		checked++;
	}
	/* printf/fopen/fgets/lib_fn... at least the library call */
	assert_true(checked >= 2);
	free(txt);
	pm_dso__put(dso);
	pm_dsos__delete(dsos);
}

static void test_srcline(void **state)
{
	struct fixture *fx = *state;
	struct pm_dsos *dsos = pm_dsos__new(NULL);
	struct pm_dso *dso = pm_dsos__findnew(dsos, fx->bin);
	struct pm_srcline sl;
	uint64_t value, size;
	char *want, *colon;

	assert_true(readelf_sym(fx->bin, "beta_fn", &value, &size));
	want = st_run("addr2line -e '%s' %#" PRIx64, fx->bin, value + 4);
	assert_non_null(want);
	want[strcspn(want, "\n")] = '\0';
	colon = strrchr(want, ':');
	assert_non_null(colon);
	*colon = '\0';
	assert_int_equal(pm_dso__srcline(dso, value + 4, &sl), 0);
	assert_string_equal(sl.file, want);
	assert_int_equal(sl.line, atoi(colon + 1));
	assert_int_equal(pm_dso__srcline(dso, 0x10, &sl), -ENOENT);
	free(want);
	pm_dso__put(dso);
	pm_dsos__delete(dsos);
}

static char *build_id_hex(const char *file)
{
	char *id = st_run("readelf -n '%s' | sed -n 's/.*Build ID: //p'", file);

	if (id)
		id[strcspn(id, "\n")] = '\0';
	return id;
}

static void test_debuglink(void **state)
{
	struct fixture *fx = *state;
	struct pm_dsos *dsos;
	struct pm_dso *dso;
	char *r, bin[700], dbg[700];

	snprintf(bin, sizeof(bin), "%s/stripped", fx->dir);
	snprintf(dbg, sizeof(dbg), "%s/stripped.debug", fx->dir);
	r = st_run("cd '%s' && cp prog stripped && "
		   "objcopy --only-keep-debug stripped stripped.debug && "
		   "strip --strip-all stripped && "
		   "objcopy --add-gnu-debuglink=stripped.debug stripped && "
		   "readelf -S stripped | grep -c gnu_debuglink", fx->dir);
	assert_non_null(r);
	free(r);

	/* the stripped binary alone has no .symtab */
	r = st_run("readelf -S '%s' | grep -c '\\.symtab' || true", bin);
	assert_int_equal(atoi(r), 0);
	free(r);

	dsos = pm_dsos__new(NULL);
	/* the program ran as "prog": pretend it was "stripped" */
	check_lookups(fx, dsos, bin, NULL, fx->bin, true);
	dso = pm_dsos__findnew(dsos, bin);
	assert_string_equal(pm_dso__path(dso), bin);
	assert_string_equal(pm_dso__symbol_path(dso), dbg);
	pm_dso__put(dso);
	pm_dsos__delete(dsos);

	/*
	 * Without build ids the debuglink CRC decides: a debug file that
	 * changed since the link was made is refused.
	 */
	snprintf(bin, sizeof(bin), "%s/nobid", fx->dir);
	snprintf(dbg, sizeof(dbg), "%s/nobid.debug", fx->dir);
	r = st_run("cd '%s' && gcc -g -O1 -Wl,--build-id=none -o nobid prog.c "
		   "-L. -lst && objcopy --only-keep-debug nobid nobid.debug && "
		   "strip --strip-all nobid && "
		   "objcopy --add-gnu-debuglink=nobid.debug nobid && echo ok",
		   fx->dir);
	assert_non_null(r);
	free(r);
	dsos = pm_dsos__new(NULL);
	dso = pm_dsos__findnew(dsos, bin);
	assert_int_equal(pm_dso__load(dso, NULL), 0);
	assert_string_equal(pm_dso__symbol_path(dso), dbg);
	assert_non_null(pm_symtab__find_name(pm_dso__symtab(dso), "gamma_local"));
	pm_dso__put(dso);
	pm_dsos__delete(dsos);

	r = st_run("echo garbage >> '%s' && echo ok", dbg);
	free(r);
	dsos = pm_dsos__new(NULL);
	dso = pm_dsos__findnew(dsos, bin);
	pm_dso__load(dso, NULL);
	assert_string_equal(pm_dso__symbol_path(dso), bin);	/* .dynsym */
	assert_null(pm_symtab__find_name(pm_dso__symtab(dso), "gamma_local"));
	pm_dso__put(dso);
	pm_dsos__delete(dsos);
}

static void test_debug_by_build_id(void **state)
{
	struct fixture *fx = *state;
	struct pm_symconf conf = { .sz = sizeof(conf) };
	struct pm_dsos *dsos;
	struct pm_dso *dso;
	char *id = build_id_hex(fx->bin), *r, bin[700], ddir[700], want[900];

	if (!id || strlen(id) < 4) {
		free(id);
		skip();
	}
	snprintf(bin, sizeof(bin), "%s/nolink", fx->dir);
	snprintf(ddir, sizeof(ddir), "%s/debugroot", fx->dir);
	snprintf(want, sizeof(want), "%s/.build-id/%.2s/%s.debug", ddir, id,
		 id + 2);
	r = st_run("cd '%s' && cp prog nolink && strip --strip-all nolink && "
		   "mkdir -p '%s/.build-id/%.2s' && "
		   "objcopy --only-keep-debug prog '%s'", fx->dir, ddir, id,
		   want);
	assert_non_null(r);
	free(r);
	conf.debug_dir = ddir;
	conf.no_buildid_cache = true;
	dsos = pm_dsos__new(&conf);
	check_lookups(fx, dsos, bin, NULL, fx->bin, true);
	dso = pm_dsos__findnew(dsos, bin);
	assert_string_equal(pm_dso__symbol_path(dso), want);
	pm_dso__put(dso);

	/* the binary is gone: the debug file alone, found by the recorded
	 * build id, gives symbols and (guessed) address mapping */
	dso = pm_dsos__findnew(dsos, "/nonexistent/prog");
	{
		uint8_t raw[20];

		for (int i = 0; i < 20; i++)
			sscanf(id + 2 * i, "%2hhx", &raw[i]);
		pm_dso__set_build_id(dso, raw, 20);
	}
	pm_dso__put(dso);
	check_lookups(fx, dsos, "/nonexistent/prog", NULL, fx->bin, true);
	pm_dsos__delete(dsos);
	free(id);
}

static void test_buildid_cache_and_symfs(void **state)
{
	struct fixture *fx = *state;
	struct pm_symconf conf = { .sz = sizeof(conf) };
	struct pm_dsos *dsos;
	struct pm_dso *dso;
	char *id = build_id_hex(fx->bin), *r, cache[700], symfs[700];
	uint8_t raw[20], wrong[20];

	if (!id || strlen(id) != 40) {
		free(id);
		skip();
	}
	for (int i = 0; i < 20; i++)
		sscanf(id + 2 * i, "%2hhx", &raw[i]);
	/* perf's cache layout: .build-id/ab/cdef... -> dir with "elf" */
	snprintf(cache, sizeof(cache), "%s/cache", fx->dir);
	r = st_run("mkdir -p '%s/.build-id/%.2s/%s' && cp '%s' '%s/.build-id/%.2s/%s/elf'",
		   cache, id, id + 2, fx->bin, cache, id, id + 2);
	assert_non_null(r);
	free(r);
	conf.buildid_dir = cache;
	dsos = pm_dsos__new(&conf);
	pm_dsos__set_build_id(dsos, "/gone/away/prog", raw, 20);
	check_lookups(fx, dsos, "/gone/away/prog", NULL, fx->bin, true);
	pm_dsos__delete(dsos);

	/* --symfs: DIR + the recorded path */
	snprintf(symfs, sizeof(symfs), "%s/symfs", fx->dir);
	r = st_run("mkdir -p '%s/opt/st' && cp '%s' '%s/opt/st/prog' && "
		   "cp '%s' '%s/opt/st/libst.so'", symfs, fx->bin, symfs,
		   fx->lib, symfs);
	free(r);
	memset(&conf, 0, sizeof(conf));
	conf.symfs = symfs;
	conf.no_buildid_cache = true;
	dsos = pm_dsos__new(&conf);
	check_lookups(fx, dsos, "/opt/st/prog", "/opt/st/libst.so", fx->bin,
		      true);
	/* a recorded build id that the file does not have: refused */
	memcpy(wrong, raw, 20);
	wrong[0] ^= 0xff;
	dso = pm_dsos__findnew(dsos, "/opt/st/libst.so.other");
	pm_dso__put(dso);
	dso = pm_dsos__findnew(dsos, "/opt/st/prog2");
	r = st_run("cp '%s' '%s/opt/st/prog2'", fx->bin, symfs);
	free(r);
	pm_dso__set_build_id(dso, wrong, 20);
	assert_true(pm_dso__load(dso, NULL) < 0);
	assert_non_null(strstr(pm_dso__load_error(dso)->msg, "build id"));
	assert_null(pm_dso__find_symbol(dso, 0x1000));
	pm_dso__put(dso);
	pm_dsos__delete(dsos);
	free(id);
}

static void test_stripped_lib_dynsym(void **state)
{
	struct fixture *fx = *state;
	struct pm_dsos *dsos = pm_dsos__new(&(struct pm_symconf){
		.sz = sizeof(struct pm_symconf), .no_debuginfo = true });
	struct pm_dso *dso;
	char lib[700], *r;
	uint64_t value, size;

	snprintf(lib, sizeof(lib), "%s/libstripped.so", fx->dir);
	r = st_run("cp '%s' '%s' && strip --strip-all '%s'", fx->lib, lib, lib);
	free(r);
	/* .dynsym still has the exported name; the local alias is gone */
	assert_true(readelf_sym(fx->lib, "lib_impl", &value, &size));
	dso = pm_dsos__findnew(dsos, lib);
	assert_int_equal(pm_dso__load(dso, NULL), 0);
	assert_string_equal(pm_dso__find_symbol(dso, value)->name, "lib_fn");
	assert_null(pm_symtab__find_name(pm_dso__symtab(dso), "lib_impl"));
	assert_true(readelf_sym(fx->lib, "lib_counter", &value, &size));
	assert_string_equal(pm_dso__find_data(dso, value + 3)->name,
			    "lib_counter");
	pm_dso__put(dso);
	pm_dsos__delete(dsos);
}

/* Every FUNC symbol readelf lists in libc lands on itself or an alias. */
static void test_libc_against_readelf(void **state)
{
	char *path = st_run("gcc -print-file-name=libc.so.6");
	struct pm_dsos *dsos = pm_dsos__new(NULL);
	struct pm_dso *dso;
	struct st_sym *v = NULL;
	size_t n, checked = 0;
	bool same;

	(void)state;
	assert_non_null(path);
	path[strcspn(path, "\n")] = '\0';
	if (path[0] != '/') {
		free(path);
		pm_dsos__delete(dsos);
		skip();
	}
	dso = pm_dsos__findnew(dsos, path);
	assert_int_equal(pm_dso__load(dso, NULL), 0);
	n = st_readelf_syms("readelf", path, ".dynsym", &v);
	assert_true(n > 100);
	/* names come from this file unless a debug file (libc6-dbg) won */
	same = !strcmp(pm_dso__symbol_path(dso), path);
	for (size_t i = 0; i < n; i++) {
		const struct pm_symbol *s;

		if (strcmp(v[i].type, "FUNC") || !strcmp(v[i].ndx, "UND") ||
		    v[i].size == 0)
			continue;
		s = pm_dso__find_symbol(dso, v[i].value + v[i].size - 1);
		assert_non_null(s);
		assert_true(s->start >= v[i].value);
		assert_true(s->start < v[i].value + v[i].size);
		if (same)
			assert_true(st_alias(v, n, s->start, s->raw_name));
		if (s->start == v[i].value)
			checked++;
	}
	assert_true(checked > 100);
	free(v);
	free(path);
	pm_dso__put(dso);
	pm_dsos__delete(dsos);
}

/*
 * The vdso through the build-id cache, as a report made on another host
 * finds it: record's writer puts this process's image in perf's layout
 * ([vdso]/HEX/vdso), and a session that may not use the host's image
 * resolves the functions from there. The id comes from readelf.
 */
static void check_vdso_cache(const char *dir, const char *image_path,
			     const struct st_sym *v, size_t n)
{
	struct pm_symconf conf = { .sz = sizeof(conf) };
	char *id = build_id_hex(image_path), cache[700], file[900], *r;
	struct pm_dsos *dsos;
	struct pm_dso *dso;
	struct pm_error err;
	uint8_t raw[20];
	size_t checked = 0;

	if (!id || strlen(id) != 40) {
		free(id);
		print_message("this vdso has no 20-byte build id: no cache check\n");
		return;
	}
	for (int i = 0; i < 20; i++)
		sscanf(id + 2 * i, "%2hhx", &raw[i]);
	snprintf(cache, sizeof(cache), "%s/debug", dir);
	assert_int_equal(pm_buildid_cache__add(cache, "[vdso]", NULL, raw, 20, &err), 1);
	snprintf(file, sizeof(file), "%s/[vdso]/%s/vdso", cache, id);
	r = st_run("cmp '%s' '%s' && echo same", file, image_path);
	assert_non_null(r);
	assert_string_equal(r, "same\n");
	free(r);
	/* an id that is not this image's is refused, nothing written */
	raw[0] ^= 0xff;
	assert_true(pm_buildid_cache__add(cache, "[vdso]", NULL, raw, 20, &err) < 0);
	raw[0] ^= 0xff;

	conf.buildid_dir = cache;
	conf.host = false;
	dsos = pm_dsos__new(&conf);
	pm_dsos__set_build_id(dsos, "[vdso]", raw, 20);
	dso = pm_dsos__findnew(dsos, "[vdso]");
	for (size_t i = 0; i < n; i++) {
		const struct pm_symbol *s;

		if (strcmp(v[i].type, "FUNC") || !strcmp(v[i].ndx, "UND"))
			continue;
		s = pm_dso__find_symbol(dso, v[i].value);
		assert_non_null(s);
		assert_true(st_alias(v, n, v[i].value, s->name));
		checked++;
	}
	assert_true(checked > 0);
	pm_dso__put(dso);
	pm_dsos__delete(dsos);
	free(id);
}

/* The vdso of this process, against readelf on a dump of its image. */
static void test_vdso(void **state)
{
	struct pm_symconf conf = { .sz = sizeof(conf), .host = true,
				   .no_buildid_cache = true };
	struct pm_dsos *dsos;
	struct pm_dso *dso;
	char *dir = st_mkdtemp(), path[600], *maps, *p;
	struct st_sym *v = NULL;
	size_t n, checked = 0;
	uint64_t lo = 0, hi = 0;
	FILE *f;

	(void)state;
	/* this process's own view of its maps: under qemu-user another
	 * process (grep) would see qemu's, not the emulated program's */
	f = fopen("/proc/self/maps", "r");
	maps = NULL;
	if (f) {
		char line[512];

		while (!maps && fgets(line, sizeof(line), f))
			if (strstr(line, "[vdso]"))
				maps = strdup(line);
		fclose(f);
	}
	if (!maps || sscanf(maps, "%" SCNx64 "-%" SCNx64, &lo, &hi) != 2) {
		free(maps);
		st_rmdir(dir);
		print_message("no [vdso] in /proc/self/maps: nothing to compare\n");
		skip();
	}
	free(maps);
	snprintf(path, sizeof(path), "%s/vdso.so", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	p = (char *)(uintptr_t)lo;
	assert_int_equal(fwrite(p, 1, hi - lo, f), hi - lo);
	fclose(f);
	n = st_readelf_syms("readelf", path, ".dynsym", &v);
	dsos = pm_dsos__new(&conf);
	dso = pm_dsos__findnew(dsos, "[vdso]");
	assert_int_equal(pm_dso__kind(dso), PM_DSO_VDSO);
	for (size_t i = 0; i < n; i++) {
		const struct pm_symbol *s;
		uint64_t a;

		if (strcmp(v[i].type, "FUNC") || !strcmp(v[i].ndx, "UND"))
			continue;
		/* a sample at the symbol's place in the mapping (pgoff 0):
		 * the vdso is linked at its file offsets */
		a = pm_dso__map_ip(dso, lo, 0, lo + v[i].value);
		assert_int_equal(a, v[i].value);
		s = pm_dso__find_symbol(dso, a);
		assert_non_null(s);
		assert_true(st_alias(v, n, v[i].value, s->name));
		checked++;
	}
	assert_true(checked > 0);
	pm_dso__put(dso);
	pm_dsos__delete(dsos);
	check_vdso_cache(dir, path, v, n);
	free(v);
	st_rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest pie[] = {
		cmocka_unit_test(test_lookup_plain),
		cmocka_unit_test(test_plt),
		cmocka_unit_test(test_srcline),
		cmocka_unit_test(test_debuglink),
		cmocka_unit_test(test_debug_by_build_id),
		cmocka_unit_test(test_buildid_cache_and_symfs),
		cmocka_unit_test(test_stripped_lib_dynsym),
	};
	const struct CMUnitTest nopie[] = {
		cmocka_unit_test(test_lookup_plain),
		cmocka_unit_test(test_plt),
		cmocka_unit_test(test_debuglink),
		cmocka_unit_test(test_debug_by_build_id),
	};
	const struct CMUnitTest host[] = {
		cmocka_unit_test(test_libc_against_readelf),
		cmocka_unit_test(test_vdso),
	};
	int r = 0;

	if (!st_have("gcc") || !st_have("readelf") || !st_have("objcopy")) {
		const struct CMUnitTest none[] = {
			cmocka_unit_test(test_vdso),
		};
		return cmocka_run_group_tests(none, NULL, NULL);
	}
	r |= cmocka_run_group_tests_name("pie", pie, setup_pie, teardown);
	r |= cmocka_run_group_tests_name("nopie", nopie, setup_nopie, teardown);
	r |= cmocka_run_group_tests_name("host", host, NULL, NULL);
	return r;
}
