// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof inject: read a recording and write it again, through the reader
 * and the writer (perf inject without options). Turns a pipe capture into
 * a seekable file, a file into a pipe stream, or either byte order into
 * the other. Compressed records come out decompressed.
 *
 * The records the reader decodes are re-encoded from their decoded
 * fields, so a round trip checks both sides; the rest are copied (and
 * byte-swapped when their layout is known, refused when it is not).
 * A directory recording (perf record --threads) comes out as one file,
 * its records in the time order the reader merges them in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/bytes.h"
#include "pmprof/outfile.h"
#include "pmprof/perfdata.h"
#include "pmprof/records.h"
#include "pmprof/util.h"
#include "pmprof/writer.h"

struct inject {
	const char *input, *output, *order;
	bool pipe;

	struct pm_reader *r;
	struct pm_writer *w;
	bool in_big;			/* input byte order */
	bool out_big;
	bool started;			/* events and features handed over */
	struct pm_error err;

	/* Raw feature payloads seen in a pipe input (input order). */
	uint8_t *raw_feat[PM_FEAT_BITS];
	size_t raw_feat_len[PM_FEAT_BITS];
	uint8_t *tracing;		/* HEADER_TRACING_DATA's blob */
	size_t tracing_len;
};

static const char *const inject_usage[] = {
	"pmprof inject [-i IN] [-o OUT] [--byte-order big|little] [--pipe]",
	NULL,
};

/* Features the writer encodes itself (from pm_features or the events),
 * or that cannot survive: COMPRESSED (records come out decompressed),
 * DIR_FORMAT (a directory comes out as one file). */
static bool encoded_by_writer(unsigned int f)
{
	switch (f) {
	case PM_FEAT_HOSTNAME: case PM_FEAT_OSRELEASE: case PM_FEAT_VERSION:
	case PM_FEAT_ARCH: case PM_FEAT_NRCPUS: case PM_FEAT_CPUDESC:
	case PM_FEAT_CPUID: case PM_FEAT_TOTAL_MEM: case PM_FEAT_CMDLINE:
	case PM_FEAT_EVENT_DESC: case PM_FEAT_GROUP_DESC:
	case PM_FEAT_SAMPLE_TIME: case PM_FEAT_CLOCKID: case PM_FEAT_BUILD_ID:
	case PM_FEAT_COMPRESSED: case PM_FEAT_DIR_FORMAT:
		return true;
	}
	return false;
}

/* Payloads whose bytes do not depend on the byte order. */
static bool order_free(unsigned int f)
{
	return f == PM_FEAT_TRACING_DATA ||	/* self-describing */
	       f == PM_FEAT_BRANCH_STACK || f == PM_FEAT_STAT; /* empty */
}

/* What the warnings call the input. */
/* Hand every feature over: typed ones re-encoded, others copied. */
static int copy_features(struct inject *in)
{
	const struct pm_features *f = pm_reader__features(in->r);
	bool pipe_in = pm_reader__is_pipe(in->r);
	unsigned int i;
	int ret;

	ret = pm_writer__copy_features(in->w, f, &in->err);
	if (ret)
		return ret;
	if (in->tracing) {
		ret = pm_writer__set_tracing_data(in->w, in->tracing,
						  in->tracing_len, &in->err);
		if (ret)
			return ret;
	}
	for (i = 1; i < PM_FEAT_BITS; i++) {
		const uint8_t *buf;
		size_t len;

		if (!pm_features__has(f, i) || encoded_by_writer(i) ||
		    (i == PM_FEAT_TRACING_DATA && in->tracing))
			continue;
		if (in->in_big != in->out_big && !order_free(i)) {
			const char *name = pm_feature_name(i);

			pm_cli_warn(in->input, "dropping feature %s: its layout is not byte-swapped",
				    name ? name : "unknown");
			continue;
		}
		if (pipe_in) {
			buf = in->raw_feat[i];
			len = in->raw_feat_len[i];
		} else {
			buf = pm_reader__feature_bytes(in->r, i, &len);
		}
		if (!buf)
			continue;
		ret = pm_writer__set_raw_feature(in->w, i, buf, len, &in->err);
		if (ret)
			return ret;
	}
	return 0;
}

/* Events and features, once the reader knows them all. */
static int start(struct inject *in)
{
	size_t i, n = pm_reader__nr_events(in->r);
	int ret;

	in->started = true;
	if (!n)
		return pm_error__fmt(&in->err, PM_EFORMAT,
				     "the input has no events");
	for (i = 0; i < n; i++) {
		ret = pm_writer__add_event(in->w, pm_reader__event(in->r, i),
					   &in->err);
		if (ret < 0)
			return ret;
	}
	return copy_features(in);
}

static int keep_pipe_header(struct inject *in, const struct pm_record *rec)
{
	uint64_t feat;
	size_t len;

	if (rec->type == PM_RECORD_HEADER_TRACING_DATA) {
		free(in->tracing);
		in->tracing = pm_malloc(rec->extra_size + 1);
		memcpy(in->tracing, rec->extra, rec->extra_size);
		in->tracing_len = rec->extra_size;
		return 0;
	}
	if (rec->type != PM_RECORD_HEADER_FEATURE || rec->size < 16)
		return 0;
	feat = pm_reader__u64(in->r, rec->data + 8);
	if (feat == 0 || feat >= PM_FEAT_BITS)
		return 0;
	len = rec->size - 16u;
	free(in->raw_feat[feat]);
	in->raw_feat[feat] = pm_malloc(len + 1);
	memcpy(in->raw_feat[feat], rec->data + 16, len);
	in->raw_feat_len[feat] = len;
	return 0;
}

static bool header_record(uint32_t type)
{
	switch (type) {
	case PM_RECORD_HEADER_ATTR:
	case PM_RECORD_HEADER_EVENT_TYPE:
	case PM_RECORD_HEADER_TRACING_DATA:
	case PM_RECORD_HEADER_BUILD_ID:
	case PM_RECORD_HEADER_FEATURE:
		return true;
	}
	return false;
}

/* One record out: decoded and re-encoded where the reader decodes it. */
static int put(struct inject *in, const struct pm_record *rec)
{
	struct pm_reader *r = in->r;
	struct pm_writer *w = in->w;
	struct pm_error *err = &in->err;
	struct pm_sample_id sid;
	int ret;

	switch (rec->type) {
	case PM_RECORD_SAMPLE: {
		struct pm_sample s;

		ret = pm_reader__parse_sample(r, rec, &s, err);
		if (ret)
			return ret;
		return pm_writer__sample(w, &s, err);
	}
	case PM_RECORD_MMAP: case PM_RECORD_MMAP2: case PM_RECORD_COMM:
	case PM_RECORD_FORK: case PM_RECORD_EXIT: case PM_RECORD_LOST:
	case PM_RECORD_LOST_SAMPLES: case PM_RECORD_THROTTLE:
	case PM_RECORD_UNTHROTTLE:
		break;
	case PM_RECORD_FINISHED_ROUND:
		return pm_writer__finished_round(w, err);
	case PM_RECORD_ID_INDEX: {
		struct pm_rec_id_index idx;
		struct pm_id_index_entry *e;
		uint64_t i;

		ret = pm_rec__id_index(r, rec, &idx, err);
		if (ret)
			return ret;
		e = pm_calloc(idx.nr ? idx.nr : 1, sizeof(*e));
		for (i = 0; i < idx.nr; i++)
			pm_rec_id_index__entry(r, &idx, i, &e[i]);
		ret = pm_writer__id_index(w, e, idx.nr, err);
		free(e);
		return ret;
	}
	default:
		if (rec->extra_size)
			return pm_error__at(err, PM_EUNSUP, rec->offset,
					    "cannot rewrite a %s record: its payload outside the record is not supported",
					    pm_record_type_name(rec->type));
		return pm_writer__copy_record(w, rec->data, rec->size,
					      in->in_big, err);
	}

	ret = pm_reader__parse_sample_id(r, rec, &sid, err);
	if (ret)
		return ret;
	switch (rec->type) {
	case PM_RECORD_MMAP: case PM_RECORD_MMAP2: {
		struct pm_rec_mmap m;

		ret = pm_rec__mmap(r, rec, &m, err);
		return ret ? ret : pm_writer__mmap(w, rec->misc, &m, &sid, err);
	}
	case PM_RECORD_COMM: {
		struct pm_rec_comm c;

		ret = pm_rec__comm(r, rec, &c, err);
		/* c.exec comes back from misc: do not count it twice. */
		return ret ? ret : pm_writer__comm(w, rec->misc, &c, &sid, err);
	}
	case PM_RECORD_FORK: case PM_RECORD_EXIT: {
		struct pm_rec_task t;

		ret = pm_rec__task(r, rec, &t, err);
		return ret ? ret : pm_writer__task(w, rec->type, rec->misc, &t,
						   &sid, err);
	}
	case PM_RECORD_LOST: {
		struct pm_rec_lost l;

		ret = pm_rec__lost(r, rec, &l, err);
		return ret ? ret : pm_writer__lost(w, rec->misc, &l, &sid, err);
	}
	case PM_RECORD_LOST_SAMPLES: {
		struct pm_rec_lost_samples l;

		ret = pm_rec__lost_samples(r, rec, &l, err);
		return ret ? ret : pm_writer__lost_samples(w, rec->misc, &l,
							   &sid, err);
	}
	default: {
		struct pm_rec_throttle t;

		ret = pm_rec__throttle(r, rec, &t, err);
		return ret ? ret : pm_writer__throttle(w, rec->type, rec->misc,
						       &t, &sid, err);
	}
	}
}

static int run(struct inject *in)
{
	struct pm_record rec;
	size_t i;
	int ret;

	if (!pm_reader__is_pipe(in->r)) {
		ret = start(in);
		if (ret)
			return ret;
	}
	for (;;) {
		ret = pm_reader__next(in->r, &rec, &in->err);
		if (ret <= 0)
			break;
		/* Records that live in the header or wrap others. */
		if (header_record(rec.type)) {
			if (!in->started)
				keep_pipe_header(in, &rec);
			else if (rec.type == PM_RECORD_HEADER_TRACING_DATA &&
				 !pm_writer__is_pipe(in->w)) {
				ret = pm_writer__set_tracing_data(in->w, rec.extra,
								  rec.extra_size,
								  &in->err);
				if (ret)
					return ret;
			}
			continue;
		}
		if (rec.type == PM_RECORD_COMPRESSED ||
		    rec.type == PM_RECORD_COMPRESSED2)
			continue;
		if (!in->started) {
			ret = start(in);
			if (ret)
				return ret;
		}
		ret = put(in, &rec);
		if (ret) {
			/* the input's record, unless the output failed */
			if (!in->err.has_offset && !pm_writer__failed(in->w)) {
				in->err.has_offset = true;
				in->err.offset = rec.offset;
			}
			if (!pm_writer__failed(in->w))
				pm_reader__error_in(in->r, &rec, &in->err);
			return ret;
		}
	}
	if (ret < 0)
		return ret;
	if (!in->started) {
		ret = start(in);
		if (ret)
			return ret;
	}
	/* EVENT_UPDATE may have named events after they went over. */
	if (!pm_writer__is_pipe(in->w))
		for (i = 0; i < pm_reader__nr_events(in->r); i++) {
			ret = pm_writer__set_event_name(in->w, i,
							pm_reader__event(in->r, i)->name,
							&in->err);
			if (ret)
				return ret;
		}
	return 0;
}

/* Is `out` one of the files of a directory recording `in` is reading? */
static const char *output_in_input_dir(const struct inject *in)
{
	static char path[4096];
	size_t i;

	for (i = 0; pm_reader__is_dir(in->r) && i < pm_reader__nr_parts(in->r); i++) {
		snprintf(path, sizeof(path), "%s/%s", in->input,
			 pm_reader__part_name(in->r, i));
		if (pm_path__same_file(in->output, path))
			return path;
	}
	return NULL;
}

static bool fd_seekable(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISREG(st.st_mode);
}

int cmd_inject(int argc, const char **argv)
{
	struct pm_cmd c = PM_CMD_INIT("inject");
	struct inject in = { .output = "-" };
	const struct pm_option options[] = {
		OPT_INPUT_HELP(&c, "input file name (default -: standard input)"),
		OPT_STRING('o', "output", &in.output, "file",
			   "output file name (- for standard output, the default)"),
		OPT_STRING(0, "byte-order", &in.order, "order",
			   "big, little or native (the default)"),
		OPT_BOOLEAN(0, "pipe", &in.pipe,
			    "write a pipe stream (as perf record -o -)"),
		OPT_END(),
	};
	struct pm_writer_opts wo = { .sz = sizeof(wo) };
	struct pm_outfile_opts fo = { .sz = sizeof(fo) };
	int ret, status = PM_EXIT_OK;
	unsigned int i;

	c.input = "-";		/* a filter: standard input by default */
	status = pm_cmd__parse(&c, argc, argv, options, inject_usage, NULL);
	if (status >= 0)
		return status;
	status = PM_EXIT_OK;
	in.input = c.input;
	if (!in.order || !strcmp(in.order, "native"))
		wo.order = PM_ORDER_NATIVE;
	else if (!strcmp(in.order, "big"))
		wo.order = PM_ORDER_BIG;
	else if (!strcmp(in.order, "little"))
		wo.order = PM_ORDER_LITTLE;
	else
		return pm_cli_errorf(PM_EXIT_USAGE, "--byte-order",
				     "expects big, little or native, not '%s'", in.order);
	/* Like perf: standard output that cannot seek gets a pipe stream. */
	wo.pipe = in.pipe || (!strcmp(in.output, "-") &&
			      !fd_seekable(STDOUT_FILENO));

	fo.input = in.input;	/* never over the input: refused */
	wo.file = &fo;
	if (pm_reader__open(&in.r, in.input, NULL, &in.err))
		return pm_cli_error(PM_EXIT_INPUT, in.input, &in.err);
	/* The output never replaces the input: for a directory, any of its
	 * files (the file check above sees only the directory). */
	if (output_in_input_dir(&in)) {
		ret = pm_cli_errorf(PM_EXIT_USAGE, in.output, "is %s, a file of the input: "
				    "it would be overwritten", output_in_input_dir(&in));
		pm_reader__delete(in.r);
		return ret;
	}
	in.in_big = pm_reader__big_endian(in.r);
	if (pm_writer__open(&in.w, in.output, &wo, &in.err)) {
		pm_reader__delete(in.r);
		/* The output's messages name its files themselves. */
		return pm_cli_error(in.err.code == -PM_EUSAGE ? PM_EXIT_USAGE :
				    PM_EXIT_INPUT, NULL, &in.err);
	}
	in.out_big = pm_writer__big_endian(in.w);

	ret = run(&in);
	if (ret) {
		status = pm_cli_error(PM_EXIT_INPUT, pm_writer__failed(in.w) ?
				      NULL : in.input, &in.err);
		pm_writer__delete(in.w);	/* removes the partial output */
	} else if (pm_writer__close(in.w, &in.err)) {
		status = pm_cli_error(PM_EXIT_INPUT, NULL, &in.err);
	}
	pm_reader__delete(in.r);
	for (i = 0; i < PM_FEAT_BITS; i++)
		free(in.raw_feat[i]);
	free(in.tracing);
	return status;
}
