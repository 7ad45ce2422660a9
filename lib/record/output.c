// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's output file around the records: header, attrs,
 * features, tracing data, the id index and the synthesized maps before
 * them; sample times, build ids (and the build-id cache) after them, and
 * the rename into place; --switch-output's next file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "recorder.h"
#include "pmprof/outfile.h"
#include "pmprof/symbols.h"
#include "pmprof/util.h"

static int write_events(struct pm_recorder *r, struct pm_error *err)
{
	int i, ret;

	for (i = 0; i < r->nr_ev; i++) {
		struct rec_event *re = &r->ev[i];
		struct pm_event e;

		memset(&e, 0, sizeof(e));
		e.idx = i;
		e.attr = re->file;
		e.name = re->name;
		e.ids = re->ids;
		e.nr_ids = re->nr_ids;
		e.leader_idx = re->leader;
		e.nr_members = re->nr_members;
		ret = pm_writer__add_event(r->w, &e, err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* The tracepoints' formats, for perf report/script (HEADER_TRACING_DATA). */
static int write_tracing_data(struct pm_recorder *r, struct pm_error *err)
{
	struct pm_tracepoint_ref *tps = pm_calloc((size_t)r->nr_ev, sizeof(*tps));
	struct pm_strbuf blob = PM_STRBUF_INIT;
	size_t n = 0;
	int i, ret = 0;

	for (i = 0; i < r->nr_ev; i++)
		if (!r->ev[i].dummy && r->ev[i].file.type == PM_TYPE_TRACEPOINT) {
			tps[n].name = r->ev[i].name;
			tps[n++].id = r->ev[i].file.config;
		}
	if (n)
		ret = pm_tracing_data__build(tps, n, &blob, err);
	if (n && !ret)
		ret = pm_writer__set_tracing_data(r->w, blob.buf, blob.len, err);
	pm_strbuf__release(&blob);
	free(tps);
	return ret;
}

static int write_id_index(struct pm_recorder *r, struct pm_error *err)
{
	struct pm_id_index_entry *e = pm_calloc(r->nr_inst ? r->nr_inst : 1, sizeof(*e));
	size_t i;
	int ret;

	for (i = 0; i < r->nr_inst; i++) {
		e[i].id = r->inst[i].id;
		e[i].idx = (uint64_t)r->inst[i].ev;
		e[i].cpu = (uint64_t)(int64_t)r->inst[i].cpu;
		e[i].tid = (uint64_t)(int64_t)r->inst[i].tid;
	}
	ret = pm_writer__id_index(r->w, e, r->nr_inst, err);
	free(e);
	return ret;
}

/*
 * The output file up to the first ring record: header, attrs, features,
 * tracing data, id index, the kernel's and the targets' maps. Again (a
 * --switch-output file) also synthesizes the running workload, whose
 * exec the new file did not see.
 */
int pm_rec_output__open(struct pm_recorder *r, const struct pm_writer_opts *wo, bool again,
			struct pm_error *err)
{
	struct pm_outfile_opts fo = { .sz = sizeof(fo), .keep_old = !again };
	int ret;

	/* the file: PATH.PID.partial until pm_rec_output__close renames it (outfile.h) */
	ret = pm_outfile__open(&r->file, r->output, &fo, err);
	if (ret)
		return ret;
	ret = pm_writer__open_fd(&r->w, pm_outfile__fd(r->file), pm_outfile__name(r->file), wo, err);
	if (ret)
		return ret;
	if ((ret = write_events(r, err)))
		return ret;
	if ((ret = pm_synth__system_features(r->w, err)) ||
	    (ret = pm_synth__pmu_caps(r->w, r->o.sysfs_root, err)))
		return ret;
	if ((ret = write_tracing_data(r, err)))
		return ret;
	if (r->o.cmdline_argc &&
	    (ret = pm_writer__set_cmdline(r->w, r->o.cmdline_argc, r->o.cmdline_argv, err)))
		return ret;
	{
		struct timespec res = { 0, 1 };

		clock_getres(r->clockid, &res);
		ret = pm_writer__set_clockid(r->w, (uint64_t)res.tv_sec * 1000000000ULL +
					     (uint64_t)res.tv_nsec, err);
		if (ret)
			return ret;
	}
	if ((ret = write_id_index(r, err)))
		return ret;
	if ((ret = pm_synth__kernel_mmap(r->w, &r->ktext, err)))
		return ret;
	if (r->o.system_wide || r->o.cpu_list) {
		ret = pm_synth__all(r->w, r->hits, err);
	} else if (again && r->child > 0 && !r->st.workload_exited) {
		/* a new file (--switch-output): the workload as it is now */
		ret = pm_synth__process(r->w, r->hits, (int)r->child, err);
	} else if (r->o.pid_list || r->o.tid_list) {
		int i, last = -1;

		for (i = 0; i < r->nr_threads && !ret; i++) {
			char path[64], line[128];
			FILE *f;
			int tgid = r->threads[i];

			snprintf(path, sizeof(path), "/proc/%d/status", r->threads[i]);
			f = fopen(path, "r");
			if (f) {
				while (fgets(line, sizeof(line), f))
					if (sscanf(line, "Tgid: %d", &tgid) == 1)
						break;
				fclose(f);
			}
			if (tgid != last)
				ret = pm_synth__process(r->w, r->hits, tgid, err);
			last = tgid;
		}
	}
	if (ret)
		return ret;
	r->have_time = false;
	/* -z: what the rings bring from now on, as perf compresses it */
	if (r->o.compression_level &&
	    (ret = pm_writer__set_compression(r->w, r->o.compression_level,
					      (r->pages + 1) * (uint32_t)sysconf(_SC_PAGESIZE), err)))
		return ret;
	return pm_writer__flush(r->w, err);
}

static void fill_buildid_cache(struct pm_recorder *r);

/* The end of one output file: sample times, build ids (and the cache),
 * the features and the header. */
int pm_rec_output__close(struct pm_recorder *r, struct pm_error *err)
{
	int ret;

	if (r->have_time && !pm_writer__is_pipe(r->w))
		pm_writer__set_sample_time(r->w, r->first_time, r->last_time, NULL);
	if (!pm_writer__is_pipe(r->w)) {
		ret = pm_hits__write_build_ids(r->hits, r->w, err);
		if (ret)
			return ret;
	}
	if (r->o.buildid_dir)
		fill_buildid_cache(r);
	r->st.bytes = pm_writer__offset(r->w);
	ret = pm_writer__close(r->w, err);	/* the fd stays r->file's */
	r->w = NULL;
	if (!ret) {
		struct stat sb;

		ret = pm_outfile__commit(r->file, err);
		r->file = NULL;
		if (!ret && !r->pipe_out && !stat(r->output, &sb))
			r->st.bytes = (uint64_t)sb.st_size;
	}
	return ret;
}

int pm_recorder__switch_output(struct pm_recorder *r, const char *rename_to,
			       struct pm_error *err)
{
	int ret;

	if (r->finished || !r->w || pm_writer__is_pipe(r->w))
		return pm_error__fmt(err, PM_EUSAGE, "--switch-output: no file to switch");
	ret = pm_rec_drain(r, false, err);
	if (!ret)
		ret = pm_rec_output__close(r, err);
	if (ret)
		return ret;
	r->st.total_bytes += r->st.bytes;
	if (rename(r->output, rename_to))
		return pm_error__fmt(err, -errno, "%s: cannot rename to %s: %s", r->output,
				     rename_to, strerror(errno));
	/* the new file's BUILD_ID lists what its own samples hit */
	pm_hits__clear_hits(r->hits);
	ret = pm_rec_output__open(r, &r->wo, true, err);
	if (ret)
		return ret;
	r->st.switches++;
	r->st.bytes = pm_writer__offset(r->w);
	return 0;
}

/* The files behind the samples, into the build-id cache: a recording
 * keeps its symbols after the program is rebuilt. Failures only warn. */
static void fill_buildid_cache(struct pm_recorder *r)
{
	struct pm_build_id_entry *v;
	size_t n = pm_hits__build_ids(r->hits, &v), i;

	for (i = 0; i < n; i++) {
		struct pm_error e;

		if (pm_buildid_cache__add(r->o.buildid_dir, v[i].filename, NULL, v[i].build_id,
					  v[i].size, &e) < 0)
			pm_rec__note(r, "build-id cache %s: %s", r->o.buildid_dir, e.msg);
	}
	free(v);
}
