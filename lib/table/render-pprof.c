// SPDX-License-Identifier: GPL-2.0
/*
 * The pprof format: the report's profile_* tables (pmprof/profile.h) as a
 * gzipped profile.proto (lib/table/profile.proto, packed by protobuf-c,
 * compressed by zlib), as `go tool pprof`, Pyroscope and Parca read it.
 *
 * Sample types: "samples" (count), then one per event column, named by the
 * event (count of its period). Labels: process, thread, cpu (numbers, of
 * unit "id": pprof drops a 0 without a unit) and comm. Every mapping says it has functions, files and lines, so that
 * pprof shows pmprof's names rather than symbolizing again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "pmprof/error.h"
#include "pmprof/hash.h"
#include "pmprof/util.h"
#include "table/internal.h"
#include "table/profile.pb-c.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;

/* profile_samples: Locations, Process, Thread, Command, CPU, Samples,
 * Period, then the events. */
enum { S_LOCS, S_PID, S_TID, S_COMM, S_CPU, S_SAMPLES, S_PERIOD, S_EVENTS };

/* A fleet's samples (several recordings) end with their Host: the
 * "host" label a continuous-profiling backend slices by. */
static bool has_host(const struct pm_table *t)
{
	return t->nr_cols > S_EVENTS && !strcmp(t->cols[t->nr_cols - 1].key, "host");
}

struct tables {
	const struct pm_table *samples, *locations, *mappings, *functions;
};

static bool find_tables(const struct pm_report *rep, struct tables *t)
{
	t->samples = pm_report__find_table(rep, "profile_samples");
	t->locations = pm_report__find_table(rep, "profile_locations");
	t->mappings = pm_report__find_table(rep, "profile_mappings");
	t->functions = pm_report__find_table(rep, "profile_functions");
	return t->samples && t->locations && t->mappings && t->functions &&
	       t->samples->nr_cols >= S_EVENTS && t->locations->nr_cols >= 5 &&
	       t->mappings->nr_cols >= 6 && t->functions->nr_cols >= 4;
}

static int pprof_check(const struct pm_report *rep,
		       const struct pm_render_opts *opts, struct pm_error *err)
{
	struct tables t;

	(void)opts;
	if (!find_tables(rep, &t))
		return pm_error__fmt(err, PM_EUSAGE,
				     "--format pprof: this command keeps no profile (report does)");
	return 0;
}

/* ---- the string table ---- */

struct strings {
	char **v;
	size_t nr, alloc;
	struct pm_hash index;
};

static uint64_t string_hash(const void *arg, size_t i)
{
	return pm_hash_str(((char *const *)arg)[i]);
}

static int64_t str_id(struct strings *st, const char *s)
{
	uint64_t hv = pm_hash_str(s ? s : "");
	size_t slot;

	if (!s)
		s = "";
	slot = PM_HASH_FIND(&st->index, hv, i, !strcmp(st->v[i], s));
	if (!pm_hash__empty(&st->index, slot))
		return (int64_t)pm_hash__at(&st->index, slot);
	pm_hash__reserve(&st->index, st->nr, string_hash, st->v);
	slot = PM_HASH_FIND(&st->index, hv, i, false);
	PM_GROW(st->v, st->alloc, st->nr + 1);
	st->v[st->nr] = (char *)s;	/* the report's: it outlives the packing */
	pm_hash__set(&st->index, slot, st->nr);
	return (int64_t)st->nr++;
}

/* ---- building the message ---- */

struct build {
	struct strings st;
	Profile prof;
	ValueType *types, **type_ptrs;
	Sample *samples, **sample_ptrs;
	Label *labels, **label_ptrs;
	uint64_t *loc_ids;
	int64_t *values;
	Mapping *maps, **map_ptrs;
	Location *locs, **loc_ptrs;
	Line *lines, **line_ptrs;
	Function *funcs, **func_ptrs;
};

static void build_release(struct build *b)
{
	free(b->st.v);
	pm_hash__release(&b->st.index);
	free(b->types);
	free(b->type_ptrs);
	free(b->samples);
	free(b->sample_ptrs);
	free(b->labels);
	free(b->label_ptrs);
	free(b->loc_ids);
	free(b->values);
	free(b->maps);
	free(b->map_ptrs);
	free(b->locs);
	free(b->loc_ptrs);
	free(b->lines);
	free(b->line_ptrs);
	free(b->funcs);
	free(b->func_ptrs);
}

static void add_types(struct build *b, const struct pm_table *t)
{
	size_t n = 1 + (t->nr_cols - S_EVENTS) - has_host(t);

	b->types = pm_calloc(n, sizeof(*b->types));
	b->type_ptrs = pm_calloc(n, sizeof(*b->type_ptrs));
	for (size_t i = 0; i < n; i++) {
		ValueType init = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;

		b->types[i] = init;
		b->types[i].type = str_id(&b->st, i ? t->cols[S_EVENTS + i - 1].name
						    : "samples");
		b->types[i].unit = str_id(&b->st, "count");
		b->type_ptrs[i] = &b->types[i];
	}
	b->prof.n_sample_type = n;
	b->prof.sample_type = b->type_ptrs;
	/* pprof shows the first event unless told otherwise */
	b->prof.default_sample_type = n > 1 ? b->types[1].type : b->types[0].type;
}

static size_t count_ids(const char *s)
{
	size_t n = *s ? 1 : 0;

	for (; *s; s++)
		n += *s == ';';
	return n;
}

static void add_samples(struct build *b, const struct pm_table *t)
{
	size_t nv = b->prof.n_sample_type, nids = 0, nl = 0, rows = t->nr_rows;
	static const char *const keys[] = { "process", "thread", "comm", "cpu" };

	for (size_t r = 0; r < rows; r++)
		nids += count_ids(pm_table__get_str(t, r, S_LOCS));
	b->samples = pm_calloc(rows + 1, sizeof(*b->samples));
	b->sample_ptrs = pm_calloc(rows + 1, sizeof(*b->sample_ptrs));
	b->labels = pm_calloc(5 * rows + 1, sizeof(*b->labels));
	b->label_ptrs = pm_calloc(5 * rows + 1, sizeof(*b->label_ptrs));
	b->loc_ids = pm_calloc(nids + 1, sizeof(*b->loc_ids));
	b->values = pm_calloc(nv * rows + 1, sizeof(*b->values));
	nids = 0;
	for (size_t r = 0; r < rows; r++) {
		Sample init = PERFTOOLS__PROFILES__SAMPLE__INIT;
		Sample *s = &b->samples[r];
		const char *p = pm_table__get_str(t, r, S_LOCS);

		*s = init;
		s->location_id = b->loc_ids + nids;
		while (p && *p) {
			b->loc_ids[nids++] = strtoull(p, (char **)&p, 10);
			if (*p == ';')
				p++;
		}
		s->n_location_id = (size_t)(b->loc_ids + nids - s->location_id);
		s->value = b->values + r * nv;
		s->n_value = nv;
		s->value[0] = (int64_t)pm_table__get_u64(t, r, S_SAMPLES);
		for (size_t v = 1; v < nv; v++)
			s->value[v] = (int64_t)pm_table__get_u64(t, r, S_EVENTS + v - 1);
		s->label = b->label_ptrs + nl;
		for (size_t k = 0; k < 4; k++) {
			Label linit = PERFTOOLS__PROFILES__LABEL__INIT;
			Label *l = &b->labels[nl];
			size_t col = k == 0 ? S_PID : k == 1 ? S_TID : k == 2 ? S_COMM : S_CPU;

			if (pm_table__is_null(t, r, col))
				continue;
			*l = linit;
			l->key = str_id(&b->st, keys[k]);
			if (col == S_COMM)
				l->str = str_id(&b->st, pm_table__get_str(t, r, col));
			else
				l->num = (int64_t)pm_table__get_u64(t, r, col);
			/* pprof drops a numeric label of 0 that has no unit */
			if (col != S_COMM)
				l->num_unit = str_id(&b->st, "id");
			b->label_ptrs[nl++] = l;
		}
		if (has_host(t)) {
			Label linit = PERFTOOLS__PROFILES__LABEL__INIT;
			Label *l = &b->labels[nl];

			*l = linit;
			l->key = str_id(&b->st, "host");
			l->str = str_id(&b->st, pm_table__get_str(t, r, t->nr_cols - 1));
			b->label_ptrs[nl++] = l;
		}
		s->n_label = (size_t)(b->label_ptrs + nl - s->label);
		b->sample_ptrs[r] = s;
	}
	b->prof.n_sample = rows;
	b->prof.sample = b->sample_ptrs;
}

static void add_mappings(struct build *b, const struct pm_table *t)
{
	b->maps = pm_calloc(t->nr_rows + 1, sizeof(*b->maps));
	b->map_ptrs = pm_calloc(t->nr_rows + 1, sizeof(*b->map_ptrs));
	for (size_t r = 0; r < t->nr_rows; r++) {
		Mapping init = PERFTOOLS__PROFILES__MAPPING__INIT;
		Mapping *m = &b->maps[r];

		*m = init;
		m->id = pm_table__get_u64(t, r, 0);
		m->memory_start = pm_table__get_u64(t, r, 1);
		m->memory_limit = pm_table__get_u64(t, r, 2);
		m->file_offset = pm_table__get_u64(t, r, 3);
		m->filename = str_id(&b->st, pm_table__get_str(t, r, 4));
		m->build_id = str_id(&b->st, pm_table__get_str(t, r, 5));
		m->has_functions = m->has_filenames = m->has_line_numbers = true;
		b->map_ptrs[r] = m;
	}
	b->prof.n_mapping = t->nr_rows;
	b->prof.mapping = b->map_ptrs;
}

static void add_locations(struct build *b, const struct pm_table *t)
{
	size_t nl = 0;

	b->locs = pm_calloc(t->nr_rows + 1, sizeof(*b->locs));
	b->loc_ptrs = pm_calloc(t->nr_rows + 1, sizeof(*b->loc_ptrs));
	b->lines = pm_calloc(t->nr_rows + 1, sizeof(*b->lines));
	b->line_ptrs = pm_calloc(t->nr_rows + 1, sizeof(*b->line_ptrs));
	for (size_t r = 0; r < t->nr_rows; r++) {
		Location init = PERFTOOLS__PROFILES__LOCATION__INIT;
		Line linit = PERFTOOLS__PROFILES__LINE__INIT;
		Location *l = &b->locs[r];
		uint64_t fn = pm_table__get_u64(t, r, 3);

		*l = init;
		l->id = pm_table__get_u64(t, r, 0);
		l->mapping_id = pm_table__get_u64(t, r, 1);
		l->address = pm_table__get_u64(t, r, 2);
		if (fn) {
			b->lines[nl] = linit;
			b->lines[nl].function_id = fn;
			b->lines[nl].line = (int64_t)pm_table__get_u64(t, r, 4);
			b->line_ptrs[nl] = &b->lines[nl];
			l->line = &b->line_ptrs[nl++];
			l->n_line = 1;
		}
		b->loc_ptrs[r] = l;
	}
	b->prof.n_location = t->nr_rows;
	b->prof.location = b->loc_ptrs;
}

static void add_functions(struct build *b, const struct pm_table *t)
{
	b->funcs = pm_calloc(t->nr_rows + 1, sizeof(*b->funcs));
	b->func_ptrs = pm_calloc(t->nr_rows + 1, sizeof(*b->func_ptrs));
	for (size_t r = 0; r < t->nr_rows; r++) {
		Function init = PERFTOOLS__PROFILES__FUNCTION__INIT;
		Function *f = &b->funcs[r];

		*f = init;
		f->id = pm_table__get_u64(t, r, 0);
		f->name = str_id(&b->st, pm_table__get_str(t, r, 1));
		f->system_name = str_id(&b->st, pm_table__get_str(t, r, 2));
		f->filename = str_id(&b->st, pm_table__get_str(t, r, 3));
		b->func_ptrs[r] = f;
	}
	b->prof.n_function = t->nr_rows;
	b->prof.function = b->func_ptrs;
}

/* ---- gzip ---- */

static int gzip_write(const uint8_t *buf, size_t len, FILE *out)
{
	uint8_t chunk[1 << 16];
	z_stream z = { 0 };
	int ret, flush;

	/* 16 + window bits: a gzip header and trailer, as pprof wants */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	z.next_in = (uint8_t *)buf;
	do {
		size_t step = PM_MIN(len, (size_t)1 << 30);

		z.avail_in = (uInt)step;
		len -= step;
		flush = len ? Z_NO_FLUSH : Z_FINISH;
		do {
			z.next_out = chunk;
			z.avail_out = sizeof(chunk);
			ret = deflate(&z, flush);
			if (ret == Z_STREAM_ERROR) {
				deflateEnd(&z);
				return -EIO;
			}
			fwrite(chunk, 1, sizeof(chunk) - z.avail_out, out);
		} while (z.avail_out == 0);
	} while (flush != Z_FINISH);
	deflateEnd(&z);
	return ferror(out) ? -EIO : 0;
}

static int pprof_render(const struct pm_report *rep, FILE *out,
			const struct pm_render_opts *opts)
{
	Profile init = PERFTOOLS__PROFILES__PROFILE__INIT;
	struct build b = { .prof = init };
	struct tables t;
	uint8_t *buf;
	size_t len;
	int ret;

	(void)opts;
	if (!find_tables(rep, &t))
		return -EINVAL;
	str_id(&b.st, "");		/* string 0 is always "" */
	add_types(&b, t.samples);
	add_samples(&b, t.samples);
	add_mappings(&b, t.mappings);
	add_locations(&b, t.locations);
	add_functions(&b, t.functions);
	b.prof.n_string_table = b.st.nr;
	b.prof.string_table = b.st.v;
	len = perftools__profiles__profile__get_packed_size(&b.prof);
	buf = pm_zalloc(len + 1);
	perftools__profiles__profile__pack(&b.prof, buf);
	ret = gzip_write(buf, len, out);
	free(buf);
	build_release(&b);
	return ret;
}

const struct pm_renderer pm_render_pprof = {
	.name = "pprof",
	.help = "pprof's gzipped profile.proto (go tool pprof, Pyroscope, Parca)",
	.render = pprof_render,
	.needs = PM_RENDER_NEEDS_PROFILE,
	.check = pprof_check,
};
