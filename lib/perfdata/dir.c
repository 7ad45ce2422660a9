// SPDX-License-Identifier: GPL-2.0
/*
 * Directory recordings, as `perf record --threads` writes them: DIR/data
 * holds the header (with the DIR_FORMAT feature, version 1) and the
 * records written outside the recording threads (the synthesized ones),
 * and each thread writes its ring buffers' records to DIR/data.N, a file
 * of bare records with no header. perf report reads them all and delivers
 * the records in time order: so does this, by merging the parts on each
 * record's time (records without one keep their place in their part).
 * Ties go to the part with the lower index (DIR/data first, then data.N
 * by N), so the order does not depend on how readdir lists the files.
 *
 * The header of a recording cut short (data size 0) has no features to
 * say DIR_FORMAT: data.N files beside it are enough.
 *
 * perf reads every "data.*" file of the directory; perf itself only ever
 * writes data.0, data.1, ...: those are the parts here, and other names
 * are left alone. Empty files are parts with no records.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dir-int.h"
#include "pmprof/util.h"

#define MAX_DATA_FILES 65536	/* the largest N taken */
/* perf writes a file per recording thread, at most one per CPU: more
 * is not a recording, and each file costs a mapping and merge work. */
#define MAX_PARTS 4096

char *pm_path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = pm_malloc(n);

	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* "data.N" with N decimal (perf's "data.%d"): N, else -1. */
static long data_file_number(const char *name)
{
	const char *p = name + 5;
	long n = 0;

	if (strncmp(name, "data.", 5) || !*p || (p[0] == '0' && p[1]))
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || n >= MAX_DATA_FILES)
			return -1;
		n = n * 10 + (*p - '0');
	}
	return n < MAX_DATA_FILES ? n : -1;
}

struct data_file {
	long n;
	uint64_t size;
};

static int by_number(const void *a, const void *b)
{
	const struct data_file *x = a, *y = b;

	return (x->n > y->n) - (x->n < y->n);
}

/* The data.N regular files of the directory, by N; without any, an
 * error when `required`. */
static int list_data_files(const char *path, bool required,
			   struct data_file **out, size_t *nr,
			   struct pm_error *err)
{
	struct data_file *v = NULL;
	size_t alloc = 0;
	struct dirent *de;
	DIR *dir = opendir(path);

	*nr = 0;
	if (!dir)
		return pm_error__fmt(err, errno, "cannot list the directory: %s",
				     strerror(errno));
	while ((de = readdir(dir))) {
		long n = data_file_number(de->d_name);
		struct stat st;

		if (n < 0 || fstatat(dirfd(dir), de->d_name, &st, 0) ||
		    !S_ISREG(st.st_mode))
			continue;
		if (*nr == MAX_PARTS) {
			closedir(dir);
			free(v);
			return pm_error__fmt(err, PM_EUNSUP,
					     "more than %d data.N files: not a recording of perf's",
					     MAX_PARTS);
		}
		PM_GROW(v, alloc, *nr + 1);
		v[*nr].n = n;
		v[(*nr)++].size = (uint64_t)st.st_size;
	}
	closedir(dir);
	if (!*nr) {
		free(v);
		*out = NULL;
		return required ? pm_error__fmt(err, PM_EFORMAT,
						"a directory recording (DIR_FORMAT) without data.N files")
				: 0;
	}
	qsort(v, *nr, sizeof(*v), by_number);
	*out = v;
	return 0;
}

/* Map one data.N file as a stream of records from offset 0 to its end. */
static int open_part(struct pm_part *p, const char *dir, uint32_t idx,
		     const struct data_file *f, bool interrupted,
		     struct pm_error *err)
{
	char *path = pm_path_join(dir, p->name);
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	free(path);
	p->st = &p->own;
	p->own.src.fd = -1;
	p->own.part = idx;
	if (fd < 0)
		return pm_error__fmt(err, errno, "cannot open: %s", strerror(errno));
	ret = pm_source__map(&p->own.src, fd, f->size, err);
	close(fd);
	if (ret)
		return ret;
	p->own.first_record = p->own.pos = 0;
	p->own.data_end = p->own.src.map_size;
	/* A recording cut short (no data size in the header) may end any
	 * of its files inside a record: read up to it, as in DIR/data. */
	p->own.interrupted = interrupted;
	return 0;
}

/* ---- the merge: a heap of parts by the key of their next record ------ */

static uint64_t head_key(const struct pm_part *p)
{
	/* A part whose batch is used up is there to report its error. */
	return p->idx < p->cur->nr ? p->cur->recs[p->idx].key : p->out_key;
}

static bool before(const struct pm_dir *d, uint32_t a, uint32_t b)
{
	uint64_t ka = head_key(&d->parts[a]), kb = head_key(&d->parts[b]);

	return ka < kb || (ka == kb && a < b);
}

static void sift_down(struct pm_dir *d, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		uint32_t t;

		if (l < d->heap_nr && before(d, d->heap[l], d->heap[m]))
			m = l;
		if (r < d->heap_nr && before(d, d->heap[r], d->heap[m]))
			m = r;
		if (m == i)
			return;
		t = d->heap[i];
		d->heap[i] = d->heap[m];
		d->heap[m] = t;
		i = m;
	}
}

static void sift_up(struct pm_dir *d, size_t i)
{
	while (i && before(d, d->heap[i], d->heap[(i - 1) / 2])) {
		uint32_t t = d->heap[i];

		d->heap[i] = d->heap[(i - 1) / 2];
		d->heap[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void pop_top(struct pm_dir *d)
{
	d->heap[0] = d->heap[--d->heap_nr];
	sift_down(d, 0);
}

/* Give part p its next batch; it leaves the merge when it has no more. */
static bool take_batch(struct pm_dir *d, struct pm_part *p)
{
	p->cur = pm_decode__next_batch(d, p);
	p->idx = 0;
	if (p->cur->nr || p->cur->ret < 0)
		return true;
	pm_decode__put_batch(d, p->cur);
	p->cur = NULL;
	return false;
}

static void start(struct pm_dir *d)
{
	size_t i;

	pm_decode__start(d, pm_decode__choose_threads(d));
	d->heap_nr = 0;
	for (i = 0; i < d->nr_parts; i++) {
		d->parts[i].out_key = 0;
		if (take_batch(d, &d->parts[i])) {
			d->heap[d->heap_nr] = (uint32_t)i;
			sift_up(d, d->heap_nr++);
		}
	}
}

/* Back to before start(): batches returned, decoder threads joined. */
static void stop(struct pm_dir *d)
{
	size_t i;

	pm_decode__stop(d);
	if (d->release)
		pm_decode__put_batch(d, d->release);
	d->release = NULL;
	for (i = 0; i < d->nr_parts; i++) {
		if (d->parts[i].cur)
			pm_decode__put_batch(d, d->parts[i].cur);
		d->parts[i].cur = NULL;
	}
	d->heap_nr = 0;
}

int pm_dir__next(struct pm_reader *r, struct pm_record *rec,
		 struct pm_error *err)
{
	struct pm_dir *d = r->dir;
	const struct pm_batch_rec *br;
	struct pm_part *p;
	struct pm_batch *b;

	/* The last record handed out stays valid until now. */
	if (d->release) {
		pm_decode__put_batch(d, d->release);
		d->release = NULL;
	}
	if (!d->heap_nr)
		return 0;
	p = &d->parts[d->heap[0]];
	b = p->cur;
	if (p->idx == b->nr) {
		/* Every record before the failure is out: now the error. */
		if (err) {
			*err = b->err;
			snprintf(err->part, sizeof(err->part), "%s", p->name);
		}
		return b->ret;
	}
	br = &b->recs[p->idx++];
	memset(rec, 0, sizeof(*rec));
	rec->offset = br->offset;
	rec->zoffset = br->zoffset;
	rec->part = p->st->part;
	rec->compressed = br->compressed;
	rec->type = br->type;
	rec->misc = br->misc;
	rec->size = br->size;
	rec->data = br->data;
	rec->extra = br->extra;
	rec->extra_size = br->extra_size;
	p->out_key = br->key;
	if (p->idx == b->nr && !b->ret) {
		d->release = b;
		p->cur = NULL;
		if (b->end || !take_batch(d, p)) {
			pop_top(d);
			return 1;
		}
	}
	sift_down(d, 0);
	return 1;
}

int pm_dir__rewind(struct pm_reader *r, struct pm_error *err)
{
	struct pm_dir *d = r->dir;
	size_t i;

	(void)err;
	stop(d);
	for (i = 0; i < d->nr_parts; i++)
		pm_stream__rewind(d->parts[i].st);
	start(d);
	return 0;
}

int pm_dir__open(struct pm_reader *r, const char *path,
		 const struct pm_reader_opts *opts, struct pm_error *err)
{
	bool said = pm_features__has(&r->feat, PM_FEAT_DIR_FORMAT);
	struct data_file *files = NULL;
	struct pm_dir *d;
	size_t nr, i;
	int ret;

	if (said && r->feat.dir_format_version != 1)
		return pm_error__fmt(err, PM_EUNSUP,
				     "directory format version %" PRIu64
				     " (DIR_FORMAT) is not supported: perf writes version 1",
				     r->feat.dir_format_version);
	if (pm_source__is_stream(&r->main.src))
		return pm_error__fmt(err, PM_EFORMAT,
				     "the header of a directory recording must be a regular file");
	ret = list_data_files(path, said, &files, &nr, err);
	if (ret || !nr)
		return ret;	/* !nr: a cut recording, DIR/data all of it */
	d = pm_zalloc(sizeof(*d));
	d->r = r;
	d->nr_parts = nr + 1;
	d->parts = pm_calloc(d->nr_parts, sizeof(*d->parts));
	d->heap = pm_calloc(d->nr_parts, sizeof(*d->heap));
	{
		static const struct pm_reader_opts defaults;
		struct pm_reader_opts o;

		PM_OPTS_COPY(&o, opts, defaults);
		d->decode_threads = o.decode_threads;
	}
	r->dir = d;
	r->main.part = 0;
	d->parts[0].st = &r->main;
	snprintf(d->parts[0].name, sizeof(d->parts[0].name), "data");
	for (i = 0; i < nr; i++) {
		struct pm_part *p = &d->parts[i + 1];

		snprintf(p->name, sizeof(p->name), "data.%ld", files[i].n);
		ret = open_part(p, path, (uint32_t)(i + 1), &files[i],
				r->interrupted, err);
		if (ret) {
			if (err)
				snprintf(err->part, sizeof(err->part), "%s", p->name);
			break;
		}
	}
	free(files);
	if (ret)
		return ret;	/* pm_reader__delete frees the rest */
	start(d);
	return 0;
}

void pm_dir__delete(struct pm_dir *d)
{
	size_t i;

	if (!d)
		return;
	if (d->heap)
		stop(d);
	pm_decode__free_list(d->free_batches);
	for (i = 0; i < d->nr_parts; i++)
		pm_decode__release_part(&d->parts[i]);
	for (i = 1; i < d->nr_parts; i++)
		pm_stream__release(&d->parts[i].own);
	free(d->parts);
	free(d->heap);
	free(d);
}

size_t pm_dir__nr_parts(const struct pm_dir *d)
{
	return d->nr_parts;
}

const struct pm_stream *pm_dir__part(const struct pm_dir *d, size_t i)
{
	return d->parts[i].st;
}

const char *pm_dir__part_name(const struct pm_dir *d, size_t i)
{
	return d->parts[i].name;
}

unsigned int pm_dir__decode_threads(const struct pm_dir *d)
{
	return pm_decode__nr_threads(d);
}
