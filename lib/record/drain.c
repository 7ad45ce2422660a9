// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's drain: every record of the rings copied to the writer as
 * it comes, its samples and side-band parsed with perfdata's parsers (as
 * the reader's, without a reader) to follow sample times, the DSOs the
 * samples hit (for build ids) and the bursts.
 */
#include <linux/perf_event.h>
#include <string.h>
#include <time.h>

#include "recorder.h"
#include "pmprof/bytes.h"
#include "pmprof/records.h"

/* The trailer's time of a non-sample record (0 if none). */
static uint64_t trailer_time(const struct pm_recorder *r, const struct pm_record *rec)
{
	struct pm_sample_id sid;
	struct pm_error e;

	if (!pm_attr__flag(&r->ev[0].open, PM_ATTR_SAMPLE_ID_ALL) ||
	    pm_sample_id__parse(&r->ev[0].open, false, rec, &sid, &e) ||
	    !(sid.present & PM_SAMPLE_TIME))
		return 0;
	return sid.time;
}

static void track_time(struct pm_recorder *r, uint64_t t)
{
	if (!r->have_time || t < r->first_time)
		r->first_time = t;
	if (!r->have_time || t > r->last_time)
		r->last_time = t;
	r->have_time = true;
}

/* A record as it came, into the file. */
static int write_record(struct pm_recorder *r, const struct perf_event_header *h, size_t size,
			struct pm_error *err)
{
	int ret = pm_writer__raw(r->w, h, size, err);

	if (ret)
		return ret;
	r->st.records++;
	r->round_dirty = true;
	return 0;
}

/*
 * The id (where the first event's sample_type puts it, as for every
 * event of a recording) says whose sample it is, and so how the rest
 * reads. A sample that does not parse (the kernel writes none) is
 * written, and nothing followed in it. A burst leader's sample that ends
 * its long phase only says so: it is not written.
 */
static int handle_sample(struct pm_recorder *r, const struct perf_event_header *h,
			 const struct pm_record *rec, struct pm_error *err)
{
	const struct pm_attr *attr = &r->ev[0].open;
	int pos = pm_sample_type__id_pos(r->sample_type0);
	struct instance *in = NULL;
	struct pm_sample s;
	struct pm_error perr;
	bool parsed;
	int ret;

	if (pos >= 0 && 8 + ((size_t)pos + 1) * 8 <= rec->size)
		in = pm_rec_open__by_id(r, pm_load64(rec->data + 8 + (size_t)pos * 8, false));
	if (in)
		attr = &r->ev[in->ev].open;
	parsed = !pm_sample__parse(attr, false, rec, &s, &r->scratch, &perr);
	if (!parsed || !in || !r->ev[in->ev].burst)
		in = NULL;
	if (!in || !pm_rec_burst__in_gap(in)) {
		ret = write_record(r, h, rec->size, err);
		if (ret)
			return ret;
		r->st.samples++;
		if (parsed && (attr->sample_type & PM_SAMPLE_TIME))
			track_time(r, s.time);
		if (parsed)
			pm_hits__hit(r->hits, s.pid, s.ip, s.cpumode);
	}
	if (!in)
		return 0;
	in->pid_last = s.pid;
	in->tid_last = s.tid;
	in->cpu_last = s.cpu;
	return pm_rec_burst__sample(r, in, s.time, err);
}

/* What the side-band says about the DSOs samples hit, what was lost. */
static int handle_record(struct pm_recorder *r, const struct perf_event_header *h,
			 size_t size, struct pm_error *err)
{
	struct pm_record rec = {
		.type = h->type, .misc = h->misc, .size = (uint16_t)size,
		.data = (const uint8_t *)h,
	};
	union pm_rec_any v;
	struct pm_error perr;
	struct instance *in;
	int ret;

	/* records views without a reader: host order, strings in place */
	if (h->type == PERF_RECORD_SAMPLE)
		return handle_sample(r, h, &rec, err);
	ret = write_record(r, h, size, err);
	if (ret)
		return ret;
	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (!pm_rec__mmap(NULL, &rec, &v.mmap, &perr))
			pm_hits__mmap(r->hits, v.mmap.pid, v.mmap.start, v.mmap.len,
				      v.mmap.filename);
		break;
	case PERF_RECORD_COMM:
		if (!pm_rec__comm(NULL, &rec, &v.comm, &perr) && v.comm.exec)
			pm_hits__exec(r->hits, v.comm.pid);
		break;
	case PERF_RECORD_FORK:
		if (!pm_rec__task(NULL, &rec, &v.task, &perr))
			pm_hits__fork(r->hits, v.task.pid, v.task.ppid);
		break;
	case PERF_RECORD_LOST:
		if (pm_rec__lost(NULL, &rec, &v.lost, &perr))
			break;
		r->st.lost += v.lost.lost;
		r->st.lost_records++;
		in = pm_rec_open__by_id(r, v.lost.id);
		if (in && r->ev[in->ev].burst)
			return pm_rec_burst__lost(r, in, trailer_time(r, &rec), err);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (!pm_rec__lost_samples(NULL, &rec, &v.lost_samples, &perr))
			r->st.lost += v.lost_samples.lost;
		break;
	case PERF_RECORD_THROTTLE:
		r->st.throttles++;
		break;
	case PERF_RECORD_UNTHROTTLE:
		r->st.unthrottles++;
		break;
	default:
		break;
	}
	return 0;
}

int pm_rec_drain(struct pm_recorder *r, bool lazy, struct pm_error *err)
{
	uint64_t now = 0;
	int i, ret = 0;

	for (i = 0; i < r->nr_rings && !ret; i++) {
		struct pm_ring *rb = &r->rings[i];
		const struct perf_event_header *h;
		size_t size;

		pm_ring__begin(rb);
		while (!ret && (h = pm_ring__next(rb, &size)))
			ret = handle_record(r, h, size, err);
		pm_ring__end(rb);
	}
	/*
	 * On disk as it comes, a round at a time: what a drain takes is
	 * written by the first drain PM_REC_FLUSH_NS after the last write
	 * (polls time out every 100 ms), so a killed recorder loses little.
	 * Not at every wakeup: a burst recording is woken at every sample
	 * (several a millisecond), and a write and a FINISHED_ROUND each
	 * time cost a seventh of the recording's overhead (bench/lab.sh).
	 */
	if (lazy) {
		now = pm_rec__clock_ns(CLOCK_MONOTONIC);
		if (now - r->flushed_ns < PM_REC_FLUSH_NS)
			goto out;
	}
	if (!ret && r->round_dirty) {
		ret = pm_writer__finished_round(r->w, err);
		r->round_dirty = false;
	}
	if (!ret)
		ret = pm_writer__flush(r->w, err);
	r->flushed_ns = now ? now : pm_rec__clock_ns(CLOCK_MONOTONIC);
out:
	r->st.bytes = pm_writer__offset(r->w);
	return ret;
}
