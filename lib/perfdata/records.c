// SPDX-License-Identifier: GPL-2.0
/* Typed views of the non-sample records (layouts: perf-data-format.md). */
#include <inttypes.h>
#include <string.h>

#include "internal.h"
#include "pmprof/bytes.h"
#include "pmprof/records.h"

/* The body, after the header, must hold at least `min` bytes. */
static int body_at_least(const struct pm_record *rec, size_t min,
			 struct pm_error *err)
{
	if (pm_record__body_len(rec) < min)
		return pm_error__at(err, PM_EFORMAT, rec->offset,
				    "%s record of %u bytes is too short (needs %zu)",
				    pm_record_type_name(rec->type) ?
				    pm_record_type_name(rec->type) : "unknown",
				    rec->size, min + 8);
	return 0;
}

/*
 * r NULL: a record in the host's order that no reader read (the
 * recorder's ring buffers), whose strings the kernel NUL-terminates
 * within the record.
 */
#define SWAP (r ? r->swap : false)
#define BODY(rec) ((rec)->data + 8)
#define U16(off) pm_load16(BODY(rec) + (off), SWAP)
#define U32(off) pm_load32(BODY(rec) + (off), SWAP)
#define U64(off) pm_load64(BODY(rec) + (off), SWAP)

/* A string from `off` to the end of the body (minus any trailer: the
 * kernel NUL-terminates it, so stopping at the NUL is enough). */
static const char *str_at(struct pm_reader *r, const struct pm_record *rec,
			  size_t off)
{
	size_t len = pm_record__body_len(rec), avail = len > off ? len - off : 0;

	if (!r)
		return memchr(BODY(rec) + off, 0, avail) ? (const char *)BODY(rec) + off : "";
	return pm_reader__scratch_str(r, BODY(rec) + off, avail);
}

int pm_rec__mmap(struct pm_reader *r, const struct pm_record *rec,
		 struct pm_rec_mmap *m, struct pm_error *err)
{
	size_t fname;

	memset(m, 0, sizeof(*m));
	m->is_mmap2 = rec->type == PM_RECORD_MMAP2;
	if (body_at_least(rec, m->is_mmap2 ? 64 : 32, err))
		return -PM_EFORMAT;
	m->pid = U32(0);
	m->tid = U32(4);
	m->start = U64(8);
	m->len = U64(16);
	m->pgoff = U64(24);
	fname = 32;
	if (m->is_mmap2) {
		if (rec->misc & PM_MISC_MMAP_BUILD_ID) {
			m->has_build_id = true;
			m->build_id_size = BODY(rec)[32] <= 20 ? BODY(rec)[32] : 20;
			memcpy(m->build_id, BODY(rec) + 36, 20);
		} else {
			m->maj = U32(32);
			m->min = U32(36);
			m->ino = U64(40);
			m->ino_generation = U64(48);
		}
		m->prot = U32(56);
		m->flags = U32(60);
		fname = 64;
	}
	m->filename = str_at(r, rec, fname);
	return 0;
}

int pm_rec__comm(struct pm_reader *r, const struct pm_record *rec,
		 struct pm_rec_comm *c, struct pm_error *err)
{
	memset(c, 0, sizeof(*c));
	if (body_at_least(rec, 8, err))
		return -PM_EFORMAT;
	c->pid = U32(0);
	c->tid = U32(4);
	c->exec = rec->misc & PM_MISC_COMM_EXEC;
	c->comm = str_at(r, rec, 8);
	return 0;
}

int pm_rec__task(struct pm_reader *r, const struct pm_record *rec,
		 struct pm_rec_task *t, struct pm_error *err)
{
	memset(t, 0, sizeof(*t));
	if (body_at_least(rec, 24, err))
		return -PM_EFORMAT;
	t->pid = U32(0);
	t->ppid = U32(4);
	t->tid = U32(8);
	t->ptid = U32(12);
	t->time = U64(16);
	return 0;
}

int pm_rec__lost(struct pm_reader *r, const struct pm_record *rec,
		 struct pm_rec_lost *l, struct pm_error *err)
{
	if (body_at_least(rec, 16, err))
		return -PM_EFORMAT;
	l->id = U64(0);
	l->lost = U64(8);
	return 0;
}

int pm_rec__lost_samples(struct pm_reader *r, const struct pm_record *rec,
			 struct pm_rec_lost_samples *l, struct pm_error *err)
{
	if (body_at_least(rec, 8, err))
		return -PM_EFORMAT;
	l->lost = U64(0);
	return 0;
}

int pm_rec__throttle(struct pm_reader *r, const struct pm_record *rec,
		     struct pm_rec_throttle *t, struct pm_error *err)
{
	if (body_at_least(rec, 24, err))
		return -PM_EFORMAT;
	t->time = U64(0);
	t->id = U64(8);
	t->stream_id = U64(16);
	return 0;
}

/*
 * read(2)'s layout (perf-data-format.md): value, [enabled], [running],
 * [id], [lost]; with GROUP nr, [enabled], [running], then nr members of
 * {value, [id], [lost]}. Bytes of the times, and of one member.
 */
static size_t times_size(uint64_t rf)
{
	return 8 * (!!(rf & PM_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(rf & PM_FORMAT_TOTAL_TIME_RUNNING));
}

static size_t member_size(uint64_t rf)
{
	return 8 * (1 + !!(rf & PM_FORMAT_ID) + !!(rf & PM_FORMAT_LOST));
}

/* The READ record's event: the trailer's, else the one its (leader's)
 * id names, located by the first event's read_format, else the first. */
static const struct pm_event *read_event(struct pm_reader *r,
					 const struct pm_record *rec,
					 struct pm_error *err, int *ret)
{
	uint64_t rf = r->events[0]->attr.read_format;
	size_t at = 8 + 8 + times_size(rf) + 8 * !!(rf & PM_FORMAT_GROUP);
	struct pm_sample_id sid;
	const struct pm_event *ev;

	*ret = pm_reader__parse_sample_id(r, rec, &sid, err);
	if (*ret || sid.event)
		return sid.event;
	if (r->nr_events > 1 && (rf & PM_FORMAT_ID) &&
	    at + 8 <= pm_record__body_len(rec) &&
	    (ev = pm_reader__event_by_id(r, U64(at))))
		return ev;
	return r->events[0];
}

/* A member's {value, [id], [lost]} at p. */
static void load_member(const uint8_t *p, uint64_t rf, bool swap,
			struct pm_read_value *out)
{
	out->value = pm_load64(p, swap);
	p += 8;
	if (rf & PM_FORMAT_ID) {
		out->id = pm_load64(p, swap);
		p += 8;
	}
	out->lost = (rf & PM_FORMAT_LOST) ? pm_load64(p, swap) : 0;
}

int pm_rec__read(struct pm_reader *r, const struct pm_record *rec,
		 struct pm_rec_read *rd, struct pm_error *err)
{
	size_t off = 16, need, trailer = 0, body = pm_record__body_len(rec);
	bool group;
	uint64_t rf;
	int ret = 0;

	memset(rd, 0, sizeof(*rd));
	rd->nr = 1;
	if (body_at_least(rec, 16, err))
		return -PM_EFORMAT;
	rd->pid = U32(0);
	rd->tid = U32(4);
	rd->value.value = U64(8);
	if (!r || !r->nr_events)
		return 0;
	rd->event = read_event(r, rec, err, &ret);
	if (ret)
		return ret;
	rf = rd->read_format = rd->event->attr.read_format;
	group = rf & PM_FORMAT_GROUP;
	if (pm_attr__flag(&rd->event->attr, PM_ATTR_SAMPLE_ID_ALL))
		trailer = 8 * (size_t)__builtin_popcountll(rd->event->attr.sample_type &
							  PM_TRAILER_BITS);
	if (group) {
		rd->nr = rd->value.value;
		rd->value.value = 0;
		/* at least the leader, no more than the body could hold */
		if (!rd->nr || rd->nr > body / member_size(rf))
			return pm_error__at(err, PM_EFORMAT, rec->offset,
					    "READ record of %u bytes says %" PRIu64
					    " group members", rec->size, rd->nr);
	}
	need = 8 + (group ? 8 : 0) + times_size(rf) + (size_t)rd->nr * member_size(rf) +
	       trailer;
	if (need > body)
		return pm_error__at(err, PM_EFORMAT, rec->offset,
				    "READ record of %u bytes is too short for its event's "
				    "read_format %#" PRIx64 " (needs %zu)",
				    rec->size, rf, need + 8);
	if (rf & PM_FORMAT_TOTAL_TIME_ENABLED) {
		rd->time_enabled = U64(off);
		off += 8;
	}
	if (rf & PM_FORMAT_TOTAL_TIME_RUNNING) {
		rd->time_running = U64(off);
		off += 8;
	}
	if (group) {
		rd->members = BODY(rec) + off;
		load_member(rd->members, rf, r->swap, &rd->value);
	} else {
		/* the value came first, the times sit between */
		if (rf & PM_FORMAT_ID) {
			rd->value.id = U64(off);
			off += 8;
		}
		if (rf & PM_FORMAT_LOST)
			rd->value.lost = U64(off);
	}
	return 0;
}

void pm_rec_read__member(const struct pm_reader *r, const struct pm_rec_read *rd,
			 uint64_t i, struct pm_read_value *out)
{
	memset(out, 0, sizeof(*out));
	if (i >= rd->nr)
		return;
	if (!rd->members) {
		*out = rd->value;
		return;
	}
	load_member(rd->members + i * member_size(rd->read_format), rd->read_format,
		    r ? r->swap : false, out);
}

int pm_rec__aux(struct pm_reader *r, const struct pm_record *rec,
		struct pm_rec_aux *a, struct pm_error *err)
{
	if (body_at_least(rec, 24, err))
		return -PM_EFORMAT;
	a->aux_offset = U64(0);
	a->aux_size = U64(8);
	a->flags = U64(16);
	return 0;
}

int pm_rec__itrace_start(struct pm_reader *r, const struct pm_record *rec,
			 struct pm_rec_itrace_start *it, struct pm_error *err)
{
	if (body_at_least(rec, 8, err))
		return -PM_EFORMAT;
	it->pid = U32(0);
	it->tid = U32(4);
	return 0;
}

int pm_rec__switch(struct pm_reader *r, const struct pm_record *rec,
		   struct pm_rec_switch *sw, struct pm_error *err)
{
	memset(sw, 0, sizeof(*sw));
	sw->out = rec->misc & PM_MISC_SWITCH_OUT;
	sw->preempt = rec->misc & PM_MISC_SWITCH_OUT_PREEMPT;
	sw->cpu_wide = rec->type == PM_RECORD_SWITCH_CPU_WIDE;
	if (sw->cpu_wide) {
		if (body_at_least(rec, 8, err))
			return -PM_EFORMAT;
		sw->next_prev_pid = U32(0);
		sw->next_prev_tid = U32(4);
	}
	return 0;
}

int pm_rec__namespaces(struct pm_reader *r, const struct pm_record *rec,
		       struct pm_rec_namespaces *ns, struct pm_error *err)
{
	if (body_at_least(rec, 16, err))
		return -PM_EFORMAT;
	ns->pid = U32(0);
	ns->tid = U32(4);
	ns->nr = U64(8);
	if (ns->nr > (pm_record__body_len(rec) - 16) / 16)
		return pm_error__at(err, PM_EFORMAT, rec->offset,
				    "NAMESPACES record claims %" PRIu64 " entries", ns->nr);
	ns->entries = BODY(rec) + 16;
	return 0;
}

int pm_rec__ksymbol(struct pm_reader *r, const struct pm_record *rec,
		    struct pm_rec_ksymbol *k, struct pm_error *err)
{
	if (body_at_least(rec, 16, err))
		return -PM_EFORMAT;
	k->addr = U64(0);
	k->len = U32(8);
	k->ksym_type = U16(12);
	k->flags = U16(14);
	k->name = str_at(r, rec, 16);
	return 0;
}

int pm_rec__bpf_event(struct pm_reader *r, const struct pm_record *rec,
		      struct pm_rec_bpf_event *b, struct pm_error *err)
{
	if (body_at_least(rec, 16, err))
		return -PM_EFORMAT;
	b->bpf_type = U16(0);
	b->flags = U16(2);
	b->id = U32(4);
	memcpy(b->tag, BODY(rec) + 8, 8);
	return 0;
}

int pm_rec__cgroup(struct pm_reader *r, const struct pm_record *rec,
		   struct pm_rec_cgroup *c, struct pm_error *err)
{
	if (body_at_least(rec, 8, err))
		return -PM_EFORMAT;
	c->id = U64(0);
	c->path = str_at(r, rec, 8);
	return 0;
}

int pm_rec__text_poke(struct pm_reader *r, const struct pm_record *rec,
		      struct pm_rec_text_poke *t, struct pm_error *err)
{
	if (body_at_least(rec, 12, err))
		return -PM_EFORMAT;
	t->addr = U64(0);
	t->old_len = U16(8);
	t->new_len = U16(10);
	if ((size_t)t->old_len + t->new_len > pm_record__body_len(rec) - 12)
		return pm_error__at(err, PM_EFORMAT, rec->offset,
				    "TEXT_POKE bytes run past the record");
	t->bytes = BODY(rec) + 12;
	return 0;
}

int pm_rec__aux_output_hw_id(struct pm_reader *r, const struct pm_record *rec,
			     struct pm_rec_aux_output_hw_id *h,
			     struct pm_error *err)
{
	if (body_at_least(rec, 8, err))
		return -PM_EFORMAT;
	h->hw_id = U64(0);
	return 0;
}

int pm_rec__id_index(struct pm_reader *r, const struct pm_record *rec,
		     struct pm_rec_id_index *idx, struct pm_error *err)
{
	if (body_at_least(rec, 8, err))
		return -PM_EFORMAT;
	idx->nr = U64(0);
	if (idx->nr > (pm_record__body_len(rec) - 8) / 32)
		return pm_error__at(err, PM_EFORMAT, rec->offset,
				    "ID_INDEX record claims %" PRIu64
				    " entries, %zu fit", idx->nr,
				    (pm_record__body_len(rec) - 8) / 32);
	idx->entries = BODY(rec) + 8;
	return 0;
}

void pm_rec_id_index__entry(const struct pm_reader *r,
			    const struct pm_rec_id_index *idx, uint64_t i,
			    struct pm_id_index_entry *e)
{
	const uint8_t *p = idx->entries + 32 * i;

	e->id = pm_reader__u64(r, p);
	e->idx = pm_reader__u64(r, p + 8);
	e->cpu = pm_reader__u64(r, p + 16);
	e->tid = pm_reader__u64(r, p + 24);
}

int pm_rec__auxtrace(struct pm_reader *r, const struct pm_record *rec,
		     struct pm_rec_auxtrace *a, struct pm_error *err)
{
	if (body_at_least(rec, 36, err))
		return -PM_EFORMAT;
	a->size = U64(0);
	a->offset = U64(8);
	a->reference = U64(16);
	a->idx = U32(24);
	a->tid = U32(28);
	a->cpu = U32(32);
	return 0;
}

int pm_rec__time_conv(struct pm_reader *r, const struct pm_record *rec,
		      struct pm_rec_time_conv *t, struct pm_error *err)
{
	memset(t, 0, sizeof(*t));
	if (body_at_least(rec, 24, err))
		return -PM_EFORMAT;
	t->time_shift = U64(0);
	t->time_mult = U64(8);
	t->time_zero = U64(16);
	if (pm_record__body_len(rec) >= 42) {
		t->has_cycles = true;
		t->time_cycles = U64(24);
		t->time_mask = U64(32);
		t->cap_user_time_zero = BODY(rec)[40];
		t->cap_user_time_short = BODY(rec)[41];
	}
	return 0;
}

int pm_rec__compressed(const struct pm_reader *r, const struct pm_record *rec,
		       struct pm_rec_compressed *c, struct pm_error *err)
{
	if (rec->type == PM_RECORD_COMPRESSED2) {
		if (body_at_least(rec, 8, err))
			return -PM_EFORMAT;
		c->data_size = U64(0);
		if (c->data_size > pm_record__body_len(rec) - 8)
			return pm_error__at(err, PM_EFORMAT, rec->offset,
					    "COMPRESSED2 data size %" PRIu64
					    " exceeds the record", c->data_size);
		c->data = BODY(rec) + 8;
		return 0;
	}
	c->data_size = pm_record__body_len(rec);
	c->data = BODY(rec);
	return 0;
}
