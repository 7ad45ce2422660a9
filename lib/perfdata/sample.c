// SPDX-License-Identifier: GPL-2.0
/*
 * SAMPLE records and the sample_id_all trailer of the others. Fields come
 * in the kernel's order (perf-data-format.md, section 5); every count read
 * from the record is checked against the bytes left before it is used, so
 * a hostile nr can neither overrun nor make us allocate without bound.
 *
 * The parsers need no reader (pm_sample__parse, pm_sample_id__parse): the
 * recorder parses its ring buffers' records with them too. The reader's
 * versions add the lookup of the record's event by its id.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "pmprof/bytes.h"
#include "pmprof/util.h"

struct walk {
	bool swap;
	const struct pm_record *rec;
	const uint8_t *p, *end;
	const char *field;	/* the field being read, for messages */
	struct pm_error *err;
	bool failed;
};

/* Report that the record ends before the field does. Kept out of line:
 * the per-field checks below are on every sample's hot path. */
static __attribute__((noinline, cold)) bool short_record(struct walk *w,
							  uint64_t n)
{
	if (w->failed)
		return false;
	pm_error__at(w->err, PM_EFORMAT, pm_record__offset_of(w->rec, w->p),
		     "sample field %s needs %" PRIu64
		     " bytes, the record has %zu left",
		     w->field, n, (size_t)(w->end - w->p));
	w->failed = true;
	return false;
}

static inline bool have(struct walk *w, uint64_t n)
{
	if (__builtin_expect(!w->failed && n <= (uint64_t)(w->end - w->p), 1))
		return true;
	return short_record(w, n);
}

static inline uint64_t u64(struct walk *w, const char *field)
{
	uint64_t v;

	w->field = field;
	if (!have(w, 8))
		return 0;
	v = pm_load64(w->p, w->swap);
	w->p += 8;
	return v;
}

/* Two u32s that share a u64 slot: pid/tid, cpu/res. */
static inline void u32_pair(struct walk *w, const char *field, uint32_t *a, uint32_t *b)
{
	w->field = field;
	if (!have(w, 8))
		return;
	*a = pm_load32(w->p, w->swap);
	*b = pm_load32(w->p + 4, w->swap);
	w->p += 8;
}

/*
 * n u64s in host order: the record's own bytes when they already are
 * (host order, aligned), else a copy in a scratch array.
 */
static const uint64_t *u64_array(struct walk *w, const char *field, uint64_t n,
				 uint64_t **scratch, size_t *alloc)
{
	const uint64_t *direct;
	uint64_t i;

	w->field = field;
	if (n > (uint64_t)(w->end - w->p) / 8) {
		have(w, n * 8 > n ? n * 8 : UINT64_MAX);
		return NULL;
	}
	if (!w->swap && !((uintptr_t)w->p & 7)) {
		direct = (const uint64_t *)(const void *)w->p;
		w->p += n * 8;
		return direct;
	}
	PM_GROW(*scratch, *alloc, (size_t)n + 1);
	if (!w->swap) {
		memcpy(*scratch, w->p, (size_t)n * 8);
	} else {
		for (i = 0; i < n; i++)
			(*scratch)[i] = pm_load64(w->p + 8 * i, true);
	}
	w->p += n * 8;
	return *scratch;
}

static void parse_read(struct walk *w, struct pm_sample_scratch *r,
		       const struct pm_attr *attr, struct pm_sample *s)
{
	uint64_t rf = attr->read_format;
	uint64_t i, nr = 1, entry;

	if (rf & PM_FORMAT_GROUP)
		nr = u64(w, "READ.nr");
	if (!(rf & PM_FORMAT_GROUP)) {
		/* value, [enabled], [running], [id], [lost] */
		PM_GROW(r->rv, r->rv_alloc, 1);
		r->rv[0].value = u64(w, "READ.value");
		if (rf & PM_FORMAT_TOTAL_TIME_ENABLED)
			s->read.time_enabled = u64(w, "READ.time_enabled");
		if (rf & PM_FORMAT_TOTAL_TIME_RUNNING)
			s->read.time_running = u64(w, "READ.time_running");
		r->rv[0].id = rf & PM_FORMAT_ID ? u64(w, "READ.id") : 0;
		r->rv[0].lost = rf & PM_FORMAT_LOST ? u64(w, "READ.lost") : 0;
		s->read.nr = 1;
		s->read.values = r->rv;
		return;
	}
	if (rf & PM_FORMAT_TOTAL_TIME_ENABLED)
		s->read.time_enabled = u64(w, "READ.time_enabled");
	if (rf & PM_FORMAT_TOTAL_TIME_RUNNING)
		s->read.time_running = u64(w, "READ.time_running");
	entry = 8 * (1 + !!(rf & PM_FORMAT_ID) + !!(rf & PM_FORMAT_LOST));
	w->field = "READ.values";
	if (w->failed || nr > (uint64_t)(w->end - w->p) / entry) {
		have(w, nr > UINT64_MAX / entry ? UINT64_MAX : nr * entry);
		return;
	}
	PM_GROW(r->rv, r->rv_alloc, (size_t)nr + 1);
	/* The whole block is known to fit: load without per-field checks. */
	{
		const uint8_t *p = w->p;
		bool id = rf & PM_FORMAT_ID, lost = rf & PM_FORMAT_LOST;
		bool swap = w->swap;

		for (i = 0; i < nr; i++) {
			r->rv[i].value = pm_load64(p, swap);
			p += 8;
			r->rv[i].id = id ? pm_load64(p, swap) : 0;
			p += id ? 8 : 0;
			r->rv[i].lost = lost ? pm_load64(p, swap) : 0;
			p += lost ? 8 : 0;
		}
		w->p = p;
	}
	s->read.nr = nr;
	s->read.values = r->rv;
}

static void parse_regs(struct walk *w, struct pm_sample_scratch *r, uint64_t mask,
		       struct pm_regs *regs, size_t *regs_used, const char *field)
{
	unsigned int n = (unsigned int)__builtin_popcountll(mask);

	regs->abi = u64(w, field);
	regs->mask = mask;
	if (!regs->abi || w->failed)
		return;
	w->field = field;
	if (!have(w, 8ULL * n))
		return;
	PM_GROW(r->regs, r->regs_alloc, *regs_used + n + 1);
	for (unsigned int i = 0; i < n; i++)
		r->regs[*regs_used + i] = pm_load64(w->p + 8 * i, w->swap);
	regs->nr = n;
	/* Pointer fixed up by the caller: r->regs may move until done. */
	regs->regs = (const uint64_t *)(uintptr_t)*regs_used;
	*regs_used += n;
	w->p += 8ULL * n;
}

static const struct pm_event *event_of_sample(const struct pm_reader *r,
					      const struct pm_record *rec)
{
	const struct pm_id_entry *e;
	size_t body = pm_record__body_len(rec);
	uint64_t id;

	if (r->nr_events == 1)
		return r->events[0];
	if (r->id_pos < 0 || (size_t)(r->id_pos + 1) * 8 > body)
		return r->nr_events ? r->events[0] : NULL;
	id = pm_load64(rec->data + 8 + 8 * (size_t)r->id_pos, r->swap);
	e = pm_idmap__find(&r->ids, id);
	if (e)
		return r->events[e->idx];
	return id == 0 && r->nr_events ? r->events[0] : NULL;
}

int pm_sample__parse(const struct pm_attr *attr, bool swap,
		     const struct pm_record *rec, struct pm_sample *s,
		     struct pm_sample_scratch *r, struct pm_error *err)
{
	struct walk w = { .swap = swap, .rec = rec, .err = err };
	size_t regs_used = 0;
	uint64_t st;

	memset(s, 0, sizeof(*s));
	w.p = rec->data + 8;
	w.end = rec->data + rec->size;
	st = s->sample_type = attr->sample_type;
	s->misc = rec->misc;
	s->cpumode = rec->misc & PM_MISC_CPUMODE_MASK;

	if (st & PM_SAMPLE_IDENTIFIER)
		s->identifier = u64(&w, "IDENTIFIER");
	if (st & PM_SAMPLE_IP)
		s->ip = u64(&w, "IP");
	if (st & PM_SAMPLE_TID)
		u32_pair(&w, "TID", &s->pid, &s->tid);
	if (st & PM_SAMPLE_TIME)
		s->time = u64(&w, "TIME");
	if (st & PM_SAMPLE_ADDR)
		s->addr = u64(&w, "ADDR");
	if (st & PM_SAMPLE_ID)
		s->id = u64(&w, "ID");
	if (st & PM_SAMPLE_STREAM_ID)
		s->stream_id = u64(&w, "STREAM_ID");
	if (st & PM_SAMPLE_CPU)
		u32_pair(&w, "CPU", &s->cpu, &s->cpu_res);
	if (st & PM_SAMPLE_PERIOD)
		s->period = u64(&w, "PERIOD");
	else if (!pm_attr__flag(attr, PM_ATTR_FREQ))
		s->period = attr->sample_period;	/* fixed: as perf does */
	if (st & PM_SAMPLE_READ)
		parse_read(&w, r, attr, s);
	if (st & PM_SAMPLE_CALLCHAIN) {
		uint64_t nr = u64(&w, "CALLCHAIN.nr");

		if (!w.failed) {
			s->callchain = u64_array(&w, "CALLCHAIN", nr, &r->callchain,
						 &r->callchain_alloc);
			s->callchain_nr = s->callchain ? nr : 0;
		}
	}
	if (st & PM_SAMPLE_RAW) {
		w.field = "RAW.size";
		if (have(&w, 4)) {
			s->raw_size = pm_load32(w.p, swap);
			w.p += 4;
			w.field = "RAW";
			if (have(&w, s->raw_size)) {
				s->raw = w.p;
				w.p += s->raw_size;
			}
		}
	}
	if (st & PM_SAMPLE_BRANCH_STACK) {
		uint64_t nr = u64(&w, "BRANCH_STACK.nr"), i;

		if (attr->branch_sample_type & PM_BRANCH_HW_INDEX)
			s->branch_hw_idx = u64(&w, "BRANCH_STACK.hw_idx");
		w.field = "BRANCH_STACK";
		if (!w.failed && nr > (uint64_t)(w.end - w.p) / 24) {
			have(&w, nr > UINT64_MAX / 24 ? UINT64_MAX : nr * 24);
		} else if (!w.failed) {
			PM_GROW(r->branches, r->branches_alloc, (size_t)nr + 1);
			for (i = 0; i < nr; i++) {
				r->branches[i].from = pm_load64(w.p, swap);
				r->branches[i].to = pm_load64(w.p + 8, swap);
				r->branches[i].flags = pm_load64(w.p + 16, swap);
				w.p += 24;
			}
			s->branch_nr = nr;
			s->branches = r->branches;
			/* Linux 6.8's branch counters: a u64 per entry, skipped */
			if (attr->branch_sample_type & PM_BRANCH_COUNTERS) {
				w.field = "BRANCH_STACK.counters";
				if (have(&w, nr * 8))
					w.p += nr * 8;
			}
		}
	}
	if (st & PM_SAMPLE_REGS_USER)
		parse_regs(&w, r, attr->sample_regs_user, &s->regs_user,
			   &regs_used, "REGS_USER");
	if (st & PM_SAMPLE_STACK_USER) {
		s->stack_user_size = u64(&w, "STACK_USER.size");
		if (s->stack_user_size && !w.failed) {
			w.field = "STACK_USER";
			if (have(&w, s->stack_user_size)) {
				s->stack_user = w.p;
				w.p += s->stack_user_size;
				s->stack_user_dyn_size = u64(&w, "STACK_USER.dyn_size");
			}
		}
	}
	if (st & (PM_SAMPLE_WEIGHT | PM_SAMPLE_WEIGHT_STRUCT))
		s->weight = u64(&w, "WEIGHT");
	if (st & PM_SAMPLE_DATA_SRC)
		s->data_src = u64(&w, "DATA_SRC");
	if (st & PM_SAMPLE_TRANSACTION)
		s->transaction = u64(&w, "TRANSACTION");
	if (st & PM_SAMPLE_REGS_INTR)
		parse_regs(&w, r, attr->sample_regs_intr, &s->regs_intr,
			   &regs_used, "REGS_INTR");
	if (st & PM_SAMPLE_PHYS_ADDR)
		s->phys_addr = u64(&w, "PHYS_ADDR");
	if (st & PM_SAMPLE_CGROUP)
		s->cgroup = u64(&w, "CGROUP");
	if (st & PM_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = u64(&w, "DATA_PAGE_SIZE");
	if (st & PM_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = u64(&w, "CODE_PAGE_SIZE");
	if (st & PM_SAMPLE_AUX) {
		s->aux_size = u64(&w, "AUX.size");
		w.field = "AUX";
		if (!w.failed && have(&w, s->aux_size)) {
			s->aux = w.p;
			w.p += s->aux_size;
		}
	}
	if (w.failed)
		return err ? err->code : -PM_EFORMAT;
	/* The register arrays were filled at indexes; point into them now
	 * that r->regs has stopped moving. */
	if (s->regs_user.nr)
		s->regs_user.regs = r->regs + (uintptr_t)s->regs_user.regs;
	else
		s->regs_user.regs = NULL;
	if (s->regs_intr.nr)
		s->regs_intr.regs = r->regs + (uintptr_t)s->regs_intr.regs;
	else
		s->regs_intr.regs = NULL;
	return 0;
}

int pm_reader__parse_sample(struct pm_reader *r, const struct pm_record *rec,
			    struct pm_sample *s, struct pm_error *err)
{
	const struct pm_event *ev = event_of_sample(r, rec);
	int ret;

	if (!ev) {
		memset(s, 0, sizeof(*s));
		return pm_error__at(err, PM_EFORMAT, rec->offset,
				    "sample belongs to no event of the recording");
	}
	ret = pm_sample__parse(&ev->attr, r->swap, rec, s, &r->scratch, err);
	s->event = ev;
	return ret;
}

void pm_sample_scratch__release(struct pm_sample_scratch *sc)
{
	free(sc->rv);
	free(sc->callchain);
	free(sc->branches);
	free(sc->regs);
	memset(sc, 0, sizeof(*sc));
}

int pm_sample_type__id_pos(uint64_t st)
{
	if (st & PM_SAMPLE_IDENTIFIER)
		return 0;
	if (st & PM_SAMPLE_ID)
		return !!(st & PM_SAMPLE_IP) + !!(st & PM_SAMPLE_TID) +
		       !!(st & PM_SAMPLE_TIME) + !!(st & PM_SAMPLE_ADDR);
	return -1;
}

int pm_sample_type__is_pos(uint64_t st)
{
	if (st & PM_SAMPLE_IDENTIFIER)
		return 1;
	if (st & PM_SAMPLE_ID)
		return 1 + !!(st & PM_SAMPLE_CPU) + !!(st & PM_SAMPLE_STREAM_ID);
	return -1;
}

/* Kernel records carry the trailer; perf's own (64 and up) do not. */
static bool has_trailer(uint32_t type)
{
	return type != PM_RECORD_SAMPLE && type < PM_RECORD_KERNEL_MAX;
}

/* The event a non-sample record's trailer names (NULL: no trailer). */
static const struct pm_event *event_of_trailer(const struct pm_reader *r,
					       const struct pm_record *rec)
{
	size_t body = pm_record__body_len(rec);
	const struct pm_id_entry *e;

	if (!has_trailer(rec->type) || !r->nr_events ||
	    !pm_attr__flag(&r->events[0]->attr, PM_ATTR_SAMPLE_ID_ALL))
		return NULL;
	if (r->nr_events == 1 || r->is_pos <= 0 || (size_t)r->is_pos * 8 > body)
		return r->events[0];
	e = pm_idmap__find(&r->ids, pm_load64(rec->data + rec->size -
					      8 * (size_t)r->is_pos, r->swap));
	return e ? r->events[e->idx] : r->events[0];
}

/* The trailer's size for its event's sample_type, checked against rec. */
static int trailer_size(const struct pm_record *rec, uint64_t st, size_t *n,
			struct pm_error *err)
{
	*n = 8 * (size_t)__builtin_popcountll(st);
	if (*n > pm_record__body_len(rec))
		return pm_error__at(err, PM_EFORMAT, rec->offset,
				    "%s record (%u bytes) is too short for its sample_id trailer (%zu bytes)",
				    pm_record_type_name(rec->type), rec->size, *n);
	return 0;
}

int pm_reader__record_time(const struct pm_reader *r,
			   const struct pm_record *rec, uint64_t *time,
			   struct pm_error *err)
{
	const struct pm_event *ev;
	uint64_t st;
	size_t pos, n;
	int ret;

	if (rec->type == PM_RECORD_SAMPLE) {
		/* TIME follows IDENTIFIER, IP and TID: where, all events
		 * usually agree (time_pos); else their own sample_type says. */
		if (r->time_pos == PM_TIME_POS_NONE)
			return 0;
		if (r->time_pos >= 0) {
			pos = (size_t)r->time_pos;
		} else {
			ev = event_of_sample(r, rec);
			st = ev ? ev->attr.sample_type : 0;
			if (!(st & PM_SAMPLE_TIME))
				return 0;
			pos = (size_t)__builtin_popcountll(st & (PM_SAMPLE_IDENTIFIER |
						PM_SAMPLE_IP | PM_SAMPLE_TID));
		}
		if (8 + 8 * pos + 8 > rec->size)
			return 0;
		*time = pm_load64(rec->data + 8 + 8 * pos, r->swap);
		return 1;
	}
	ev = event_of_trailer(r, rec);
	if (!ev)
		return 0;
	st = ev->attr.sample_type & PM_TRAILER_BITS;
	if (!(st & PM_SAMPLE_TIME))
		return 0;
	ret = trailer_size(rec, st, &n, err);
	if (ret)
		return ret;
	*time = pm_load64(rec->data + rec->size - n + 8 * !!(st & PM_SAMPLE_TID),
			  r->swap);
	return 1;
}

int pm_sample_id__parse(const struct pm_attr *attr, bool swap,
			const struct pm_record *rec, struct pm_sample_id *sid,
			struct pm_error *err)
{
	struct walk w = { .swap = swap, .rec = rec, .err = err };
	uint64_t st = attr->sample_type & PM_TRAILER_BITS;
	size_t n;
	int ret;

	memset(sid, 0, sizeof(*sid));
	ret = trailer_size(rec, st, &n, err);
	if (ret)
		return ret;
	w.p = rec->data + rec->size - n;
	w.end = rec->data + rec->size;
	sid->present = st;
	if (st & PM_SAMPLE_TID)
		u32_pair(&w, "TID", &sid->pid, &sid->tid);
	if (st & PM_SAMPLE_TIME)
		sid->time = u64(&w, "TIME");
	if (st & PM_SAMPLE_ID)
		sid->id = u64(&w, "ID");
	if (st & PM_SAMPLE_STREAM_ID)
		sid->stream_id = u64(&w, "STREAM_ID");
	if (st & PM_SAMPLE_CPU)
		u32_pair(&w, "CPU", &sid->cpu, &sid->cpu_res);
	if (st & PM_SAMPLE_IDENTIFIER)
		sid->id = u64(&w, "IDENTIFIER");
	return 0;
}

int pm_reader__parse_sample_id(struct pm_reader *r,
			       const struct pm_record *rec,
			       struct pm_sample_id *sid, struct pm_error *err)
{
	const struct pm_event *ev = event_of_trailer(r, rec);
	int ret;

	if (!ev) {
		memset(sid, 0, sizeof(*sid));
		return 0;
	}
	ret = pm_sample_id__parse(&ev->attr, r->swap, rec, sid, err);
	if (!ret)
		sid->event = ev;
	return ret;
}
