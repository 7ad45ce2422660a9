// SPDX-License-Identifier: GPL-2.0
/*
 * pmprof dump: every record with its file offset, type and decoded
 * fields (the role of `perf report -D`). Each record's fields are listed
 * once, through an emitter that writes either "name=value" text or JSON.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"
#include "pmprof/attr_print.h"
#include "pmprof/json.h"
#include "pmprof/perfdata.h"
#include "pmprof/profileme.h"
#include "pmprof/strbuf.h"
#include "pmprof/records.h"

struct dump_opts {
	const char *input;
	enum pm_output_format format;
	bool hex;
	bool quiet;
	bool stats;
};

/* Field emitter: one record = one text line or one JSON object. */
struct out {
	bool json;
	FILE *f;
	struct pm_json j;
	const char *arch;	/* the recording's, for ProfileMe payloads */
	struct pm_strbuf lines;	/* detail lines printed under a record */
};

static void f_u64(struct out *o, const char *k, uint64_t v)
{
	if (o->json)
		pm_json__kv_u64(&o->j, k, v);
	else
		fprintf(o->f, " %s=%" PRIu64, k, v);
}

static void f_i64(struct out *o, const char *k, int64_t v)
{
	if (o->json)
		pm_json__kv_i64(&o->j, k, v);
	else
		fprintf(o->f, " %s=%" PRId64, k, v);
}

/* An address: hex in text, a number in JSON. */
static void f_addr(struct out *o, const char *k, uint64_t v)
{
	if (o->json)
		pm_json__kv_u64(&o->j, k, v);
	else
		fprintf(o->f, " %s=%#" PRIx64, k, v);
}

static void f_str(struct out *o, const char *k, const char *v)
{
	if (o->json)
		pm_json__kv_string(&o->j, k, v);
	else
		fprintf(o->f, " %s=%s", k, v ? v : "(null)");
}

static void f_bytes(struct out *o, const char *k, const uint8_t *p, size_t n)
{
	size_t i;

	if (o->json) {
		pm_json__key(&o->j, k);
		pm_json__hexbytes(&o->j, p, n);
		return;
	}
	fprintf(o->f, " %s=", k);
	for (i = 0; i < n; i++)
		fprintf(o->f, "%02x", p[i]);
}

static void f_addr_list(struct out *o, const char *k, const uint64_t *v,
			uint64_t n)
{
	uint64_t i;

	if (o->json) {
		pm_json__key(&o->j, k);
		pm_json__begin_array(&o->j);
		for (i = 0; i < n; i++)
			pm_json__u64(&o->j, v[i]);
		pm_json__end_array(&o->j);
		return;
	}
	fprintf(o->f, " %s=[", k);
	for (i = 0; i < n; i++)
		fprintf(o->f, "%s%#" PRIx64, i ? "," : "", v[i]);
	fputc(']', o->f);
}

static const char *cpumode_name(uint16_t misc)
{
	static const char *const names[] = {
		"unknown", "kernel", "user", "hypervisor", "guest-kernel",
		"guest-user", "mode6", "mode7",
	};

	return names[misc & PM_MISC_CPUMODE_MASK];
}

static void dump_read(struct out *o, const struct pm_sample *s)
{
	uint64_t rf = s->event->attr.read_format, i;

	if (rf & PM_FORMAT_TOTAL_TIME_ENABLED)
		f_u64(o, "time_enabled", s->read.time_enabled);
	if (rf & PM_FORMAT_TOTAL_TIME_RUNNING)
		f_u64(o, "time_running", s->read.time_running);
	if (o->json) {
		pm_json__key(&o->j, "read");
		pm_json__begin_array(&o->j);
		for (i = 0; i < s->read.nr; i++) {
			pm_json__begin_object(&o->j);
			if (rf & PM_FORMAT_ID)
				pm_json__kv_u64(&o->j, "id", s->read.values[i].id);
			pm_json__kv_u64(&o->j, "value", s->read.values[i].value);
			if (rf & PM_FORMAT_LOST)
				pm_json__kv_u64(&o->j, "lost", s->read.values[i].lost);
			pm_json__end_object(&o->j);
		}
		pm_json__end_array(&o->j);
		return;
	}
	fputs(" read=[", o->f);
	for (i = 0; i < s->read.nr; i++) {
		fprintf(o->f, "%s", i ? "," : "");
		if (rf & PM_FORMAT_ID)
			fprintf(o->f, "%" PRIu64 ":", s->read.values[i].id);
		fprintf(o->f, "%" PRIu64, s->read.values[i].value);
		if (rf & PM_FORMAT_LOST)
			fprintf(o->f, "/lost:%" PRIu64, s->read.values[i].lost);
	}
	fputc(']', o->f);
}

static void dump_regs(struct out *o, const char *k, const struct pm_regs *regs)
{
	char key[32];

	snprintf(key, sizeof(key), "%s_abi", k);
	f_u64(o, key, regs->abi);
	if (regs->nr)
		f_addr_list(o, k, regs->regs, regs->nr);
}

/* Alpha ProfileMe status under the sample, as perf report -D shows it. */
static void dump_profileme(struct out *o, const struct pm_sample *s)
{
	struct pm_profileme pm;
	struct pm_profileme_class c;

	if (pm_profileme__decode(&pm, o->arch, s->event->attr.type, s->raw,
				 s->raw_size) != PM_PROFILEME_OK)
		return;
	if (!o->json) {
		pm_profileme__dump(&pm, &o->lines);
		return;
	}
	pm_profileme__classify(&pm, &c);
	pm_json__key(&o->j, "profileme");
	pm_json__begin_object(&o->j);
	pm_json__kv_u64(&o->j, "version", pm.version);
	pm_json__kv_u64(&o->j, "pmpc", pm.pmpc);
	pm_json__kv_u64(&o->j, "i_stat", pm.i_stat);
	pm_json__kv_u64(&o->j, "pctr_ctl", pm.pctr_ctl);
	pm_json__kv_u64(&o->j, "pc", pm_profileme__pc(&pm));
	pm_json__kv_bool(&o->j, "pal", pm_profileme__is_pal(&pm));
	pm_json__kv_bool(&o->j, "kernel", pm_profileme__is_kernel(&pm));
	pm_json__kv_u64(&o->j, "ovr", pm_profileme__ovr(&pm));
	pm_json__kv_u64(&o->j, "icm", pm_profileme__icm(&pm));
	pm_json__kv_u64(&o->j, "trap_type", pm_profileme__trap_type(&pm));
	pm_json__kv_u64(&o->j, "lso", pm_profileme__lso(&pm));
	pm_json__kv_u64(&o->j, "trp", pm_profileme__trp(&pm));
	pm_json__kv_u64(&o->j, "mis", pm_profileme__mis(&pm));
	pm_json__kv_u64(&o->j, "tak", pm_profileme__tak(&pm));
	pm_json__kv_u64(&o->j, "val", pm_profileme__val(&pm));
	pm_json__kv_u64(&o->j, "sl1", pm_profileme__sl1(&pm));
	pm_json__kv_u64(&o->j, "sl0", pm_profileme__sl0(&pm));
	pm_json__kv_u64(&o->j, "pctr1", pm_profileme__pctr1(&pm));
	pm_json__kv_string(&o->j, "pctr1_counts",
			   pm_profileme_pctr1__name(pm_profileme__sl1(&pm)));
	pm_json__kv_u64(&o->j, "killed", pm_profileme__killed(&pm));
	pm_json__kv_u64(&o->j, "stalled", pm_profileme__stalled(&pm));
	pm_json__kv_u64(&o->j, "pctr0", pm_profileme__pctr0(&pm));
	pm_json__kv_bool(&o->j, "trapped", pm_profileme__trapped(&pm));
	pm_json__kv_bool(&o->j, "mispredicted", c.mispredicted);
	pm_json__kv_string(&o->j, "trap", pm_profileme_trap__name(c.trap));
	pm_json__end_object(&o->j);
}

static void dump_sample(struct out *o, const struct pm_sample *s)
{
	uint64_t st = s->sample_type;

	f_str(o, "event", s->event->name);
	f_str(o, "cpumode", cpumode_name(s->misc));
	if (st & PM_SAMPLE_IDENTIFIER)
		f_u64(o, "identifier", s->identifier);
	if (st & PM_SAMPLE_IP)
		f_addr(o, "ip", s->ip);
	if (st & PM_SAMPLE_TID) {
		f_i64(o, "pid", (int32_t)s->pid);
		f_i64(o, "tid", (int32_t)s->tid);
	}
	if (st & PM_SAMPLE_TIME)
		f_u64(o, "time", s->time);
	if (st & PM_SAMPLE_ADDR)
		f_addr(o, "addr", s->addr);
	if (st & PM_SAMPLE_ID)
		f_u64(o, "id", s->id);
	if (st & PM_SAMPLE_STREAM_ID)
		f_u64(o, "stream_id", s->stream_id);
	if (st & PM_SAMPLE_CPU)
		f_u64(o, "cpu", s->cpu);
	if (st & PM_SAMPLE_PERIOD)
		f_u64(o, "period", s->period);
	if (st & PM_SAMPLE_READ)
		dump_read(o, s);
	if (st & PM_SAMPLE_CALLCHAIN)
		f_addr_list(o, "callchain", s->callchain, s->callchain_nr);
	if (st & PM_SAMPLE_RAW)
		f_bytes(o, "raw", s->raw, s->raw_size);
	if (st & PM_SAMPLE_BRANCH_STACK) {
		uint64_t i;

		f_u64(o, "branch_nr", s->branch_nr);
		if (o->json) {
			pm_json__key(&o->j, "branch_stack");
			pm_json__begin_array(&o->j);
			for (i = 0; i < s->branch_nr; i++) {
				pm_json__begin_object(&o->j);
				pm_json__kv_u64(&o->j, "from", s->branches[i].from);
				pm_json__kv_u64(&o->j, "to", s->branches[i].to);
				pm_json__kv_u64(&o->j, "flags", s->branches[i].flags);
				pm_json__end_object(&o->j);
			}
			pm_json__end_array(&o->j);
		} else {
			fputs(" branch_stack=[", o->f);
			for (i = 0; i < s->branch_nr; i++)
				fprintf(o->f, "%s%#" PRIx64 "->%#" PRIx64, i ? "," : "",
					s->branches[i].from, s->branches[i].to);
			fputc(']', o->f);
		}
	}
	if (st & PM_SAMPLE_REGS_USER)
		dump_regs(o, "regs_user", &s->regs_user);
	if (st & PM_SAMPLE_STACK_USER) {
		f_u64(o, "stack_user_size", s->stack_user_size);
		if (s->stack_user_size)
			f_u64(o, "stack_user_dyn_size", s->stack_user_dyn_size);
	}
	if (st & (PM_SAMPLE_WEIGHT | PM_SAMPLE_WEIGHT_STRUCT))
		f_u64(o, "weight", s->weight);
	if (st & PM_SAMPLE_DATA_SRC)
		f_addr(o, "data_src", s->data_src);
	if (st & PM_SAMPLE_TRANSACTION)
		f_addr(o, "transaction", s->transaction);
	if (st & PM_SAMPLE_REGS_INTR)
		dump_regs(o, "regs_intr", &s->regs_intr);
	if (st & PM_SAMPLE_PHYS_ADDR)
		f_addr(o, "phys_addr", s->phys_addr);
	if (st & PM_SAMPLE_CGROUP)
		f_u64(o, "cgroup", s->cgroup);
	if (st & PM_SAMPLE_DATA_PAGE_SIZE)
		f_u64(o, "data_page_size", s->data_page_size);
	if (st & PM_SAMPLE_CODE_PAGE_SIZE)
		f_u64(o, "code_page_size", s->code_page_size);
	if (st & PM_SAMPLE_AUX)
		f_u64(o, "aux_size", s->aux_size);
	if (st & PM_SAMPLE_RAW)
		dump_profileme(o, s);
}

static void dump_sample_id(struct out *o, const struct pm_sample_id *sid)
{
	if (!sid->present)
		return;
	if (o->json) {
		pm_json__key(&o->j, "sample_id");
		pm_json__begin_object(&o->j);
	}
	if (sid->present & PM_SAMPLE_TID) {
		f_i64(o, o->json ? "pid" : "sid.pid", (int32_t)sid->pid);
		f_i64(o, o->json ? "tid" : "sid.tid", (int32_t)sid->tid);
	}
	if (sid->present & PM_SAMPLE_TIME)
		f_u64(o, o->json ? "time" : "sid.time", sid->time);
	if (sid->present & (PM_SAMPLE_ID | PM_SAMPLE_IDENTIFIER))
		f_u64(o, o->json ? "id" : "sid.id", sid->id);
	if (sid->present & PM_SAMPLE_STREAM_ID)
		f_u64(o, o->json ? "stream_id" : "sid.stream_id", sid->stream_id);
	if (sid->present & PM_SAMPLE_CPU)
		f_u64(o, o->json ? "cpu" : "sid.cpu", sid->cpu);
	if (o->json)
		pm_json__end_object(&o->j);
}

/* Non-sample records: each decoder's fields under perf's names. */
static int dump_other(struct out *o, struct pm_reader *r,
		      const struct pm_record *rec, struct pm_error *err)
{
	switch (rec->type) {
	case PM_RECORD_MMAP:
	case PM_RECORD_MMAP2: {
		struct pm_rec_mmap m;

		if (pm_rec__mmap(r, rec, &m, err))
			return -1;
		f_i64(o, "pid", (int32_t)m.pid);
		f_i64(o, "tid", (int32_t)m.tid);
		f_addr(o, "start", m.start);
		f_addr(o, "len", m.len);
		f_addr(o, "pgoff", m.pgoff);
		if (m.is_mmap2) {
			if (m.has_build_id) {
				f_bytes(o, "build_id", m.build_id, m.build_id_size);
			} else {
				f_u64(o, "maj", m.maj);
				f_u64(o, "min", m.min);
				f_u64(o, "ino", m.ino);
				f_u64(o, "ino_generation", m.ino_generation);
			}
			f_u64(o, "prot", m.prot);
			f_u64(o, "flags", m.flags);
		}
		f_str(o, "filename", m.filename);
		break;
	}
	case PM_RECORD_COMM: {
		struct pm_rec_comm c;

		if (pm_rec__comm(r, rec, &c, err))
			return -1;
		f_i64(o, "pid", (int32_t)c.pid);
		f_i64(o, "tid", (int32_t)c.tid);
		f_str(o, "comm", c.comm);
		f_u64(o, "exec", c.exec);
		break;
	}
	case PM_RECORD_FORK:
	case PM_RECORD_EXIT: {
		struct pm_rec_task t;

		if (pm_rec__task(r, rec, &t, err))
			return -1;
		f_i64(o, "pid", (int32_t)t.pid);
		f_i64(o, "ppid", (int32_t)t.ppid);
		f_i64(o, "tid", (int32_t)t.tid);
		f_i64(o, "ptid", (int32_t)t.ptid);
		f_u64(o, "time", t.time);
		break;
	}
	case PM_RECORD_LOST: {
		struct pm_rec_lost l;

		if (pm_rec__lost(r, rec, &l, err))
			return -1;
		f_u64(o, "id", l.id);
		f_u64(o, "lost", l.lost);
		break;
	}
	case PM_RECORD_LOST_SAMPLES: {
		struct pm_rec_lost_samples l;

		if (pm_rec__lost_samples(r, rec, &l, err))
			return -1;
		f_u64(o, "lost", l.lost);
		break;
	}
	case PM_RECORD_THROTTLE:
	case PM_RECORD_UNTHROTTLE: {
		struct pm_rec_throttle t;

		if (pm_rec__throttle(r, rec, &t, err))
			return -1;
		f_u64(o, "time", t.time);
		f_u64(o, "id", t.id);
		f_u64(o, "stream_id", t.stream_id);
		break;
	}
	case PM_RECORD_READ: {
		struct pm_rec_read rd;

		if (pm_rec__read(r, rec, &rd, err))
			return -1;
		f_i64(o, "pid", (int32_t)rd.pid);
		f_i64(o, "tid", (int32_t)rd.tid);
		f_u64(o, "value", rd.value.value);
		break;
	}
	case PM_RECORD_AUX: {
		struct pm_rec_aux a;

		if (pm_rec__aux(r, rec, &a, err))
			return -1;
		f_u64(o, "aux_offset", a.aux_offset);
		f_u64(o, "aux_size", a.aux_size);
		f_addr(o, "flags", a.flags);
		break;
	}
	case PM_RECORD_ITRACE_START: {
		struct pm_rec_itrace_start it;

		if (pm_rec__itrace_start(r, rec, &it, err))
			return -1;
		f_i64(o, "pid", (int32_t)it.pid);
		f_i64(o, "tid", (int32_t)it.tid);
		break;
	}
	case PM_RECORD_SWITCH:
	case PM_RECORD_SWITCH_CPU_WIDE: {
		struct pm_rec_switch sw;

		if (pm_rec__switch(r, rec, &sw, err))
			return -1;
		f_str(o, "direction", sw.out ? (sw.preempt ? "out-preempt" : "out") : "in");
		if (sw.cpu_wide) {
			f_i64(o, "next_prev_pid", (int32_t)sw.next_prev_pid);
			f_i64(o, "next_prev_tid", (int32_t)sw.next_prev_tid);
		}
		break;
	}
	case PM_RECORD_NAMESPACES: {
		struct pm_rec_namespaces ns;

		if (pm_rec__namespaces(r, rec, &ns, err))
			return -1;
		f_i64(o, "pid", (int32_t)ns.pid);
		f_i64(o, "tid", (int32_t)ns.tid);
		f_u64(o, "nr_namespaces", ns.nr);
		break;
	}
	case PM_RECORD_KSYMBOL: {
		struct pm_rec_ksymbol k;

		if (pm_rec__ksymbol(r, rec, &k, err))
			return -1;
		f_addr(o, "addr", k.addr);
		f_u64(o, "len", k.len);
		f_u64(o, "ksym_type", k.ksym_type);
		f_u64(o, "flags", k.flags);
		f_str(o, "name", k.name);
		break;
	}
	case PM_RECORD_BPF_EVENT: {
		struct pm_rec_bpf_event b;

		if (pm_rec__bpf_event(r, rec, &b, err))
			return -1;
		f_u64(o, "type", b.bpf_type);
		f_u64(o, "flags", b.flags);
		f_u64(o, "id", b.id);
		f_bytes(o, "tag", b.tag, 8);
		break;
	}
	case PM_RECORD_CGROUP: {
		struct pm_rec_cgroup c;

		if (pm_rec__cgroup(r, rec, &c, err))
			return -1;
		f_u64(o, "id", c.id);
		f_str(o, "path", c.path);
		break;
	}
	case PM_RECORD_TEXT_POKE: {
		struct pm_rec_text_poke t;

		if (pm_rec__text_poke(r, rec, &t, err))
			return -1;
		f_addr(o, "addr", t.addr);
		f_bytes(o, "old_bytes", t.bytes, t.old_len);
		f_bytes(o, "new_bytes", t.bytes + t.old_len, t.new_len);
		break;
	}
	case PM_RECORD_AUX_OUTPUT_HW_ID: {
		struct pm_rec_aux_output_hw_id h;

		if (pm_rec__aux_output_hw_id(r, rec, &h, err))
			return -1;
		f_u64(o, "hw_id", h.hw_id);
		break;
	}
	case PM_RECORD_ID_INDEX: {
		struct pm_rec_id_index idx;
		uint64_t i;

		if (pm_rec__id_index(r, rec, &idx, err))
			return -1;
		f_u64(o, "nr", idx.nr);
		if (o->json) {
			pm_json__key(&o->j, "entries");
			pm_json__begin_array(&o->j);
		} else {
			fputs(" entries=[", o->f);
		}
		for (i = 0; i < idx.nr; i++) {
			struct pm_id_index_entry e;

			pm_rec_id_index__entry(r, &idx, i, &e);
			if (o->json) {
				pm_json__begin_object(&o->j);
				pm_json__kv_u64(&o->j, "id", e.id);
				pm_json__kv_u64(&o->j, "idx", e.idx);
				pm_json__kv_i64(&o->j, "cpu", (int64_t)e.cpu);
				pm_json__kv_i64(&o->j, "tid", (int64_t)e.tid);
				pm_json__end_object(&o->j);
			} else {
				fprintf(o->f, "%s%" PRIu64 ":idx%" PRIu64 "/cpu%" PRId64
					"/tid%" PRId64, i ? "," : "", e.id, e.idx,
					(int64_t)e.cpu, (int64_t)e.tid);
			}
		}
		if (o->json)
			pm_json__end_array(&o->j);
		else
			fputc(']', o->f);
		break;
	}
	case PM_RECORD_AUXTRACE: {
		struct pm_rec_auxtrace a;

		if (pm_rec__auxtrace(r, rec, &a, err))
			return -1;
		f_u64(o, "size", a.size);
		f_u64(o, "offset", a.offset);
		f_u64(o, "reference", a.reference);
		f_u64(o, "idx", a.idx);
		f_i64(o, "tid", (int32_t)a.tid);
		f_i64(o, "cpu", (int32_t)a.cpu);
		break;
	}
	case PM_RECORD_TIME_CONV: {
		struct pm_rec_time_conv t;

		if (pm_rec__time_conv(r, rec, &t, err))
			return -1;
		f_u64(o, "time_shift", t.time_shift);
		f_u64(o, "time_mult", t.time_mult);
		f_u64(o, "time_zero", t.time_zero);
		break;
	}
	case PM_RECORD_COMPRESSED:
	case PM_RECORD_COMPRESSED2: {
		struct pm_rec_compressed c;

		if (pm_rec__compressed(r, rec, &c, err))
			return -1;
		f_u64(o, "data_size", c.data_size);
		break;
	}
	case PM_RECORD_HEADER_TRACING_DATA:
		f_u64(o, "size", rec->extra_size);
		break;
	case PM_RECORD_HEADER_ATTR: {
		uint32_t n = pm_reader__nr_events(r);
		const struct pm_event *ev = n ? pm_reader__event(r, n - 1) : NULL;

		if (ev && pm_reader__is_pipe(r)) {
			f_str(o, "event", ev->name);
			f_u64(o, "nr_ids", ev->nr_ids);
		}
		break;
	}
	case PM_RECORD_HEADER_FEATURE:
		if (rec->size >= 16) {
			uint64_t feat = pm_reader__u64(r, rec->data + 8);
			const char *name = feat < PM_FEAT_BITS ? pm_feature_name((unsigned)feat) : NULL;

			f_u64(o, "feat_id", feat);
			if (name)
				f_str(o, "feature", name);
		}
		break;
	default:
		break;	/* layout unknown or empty: offset, type and size say it */
	}
	return 0;
}

static void hexdump(FILE *f, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i += 16) {
		size_t k;

		fprintf(f, "\t%04zx: ", i);
		for (k = i; k < i + 16 && k < n; k++)
			fprintf(f, " %02x", p[k]);
		fputc('\n', f);
	}
}

static int dump_record(struct out *o, struct pm_reader *r,
		       const struct pm_record *rec, const struct dump_opts *opts,
		       struct pm_error *err)
{
	const char *tname = pm_record_type_name(rec->type);
	struct pm_sample s;
	int ret = 0;

	if (rec->type == PM_RECORD_SAMPLE) {
		if (pm_reader__parse_sample(r, rec, &s, err))
			return -1;
	}
	if (opts->quiet)
		return 0;
	if (o->json) {
		pm_json__begin_object(&o->j);
		/* a directory recording: the file the offset is in */
		if (pm_reader__is_dir(r))
			pm_json__kv_string(&o->j, "file",
					   pm_reader__part_name(r, rec->part));
		pm_json__kv_u64(&o->j, "offset", rec->offset);
		if (rec->compressed)
			pm_json__kv_u64(&o->j, "zoffset", rec->zoffset);
		pm_json__kv_string(&o->j, "type", tname ? tname : "UNKNOWN");
		if (!tname)
			pm_json__kv_u64(&o->j, "type_id", rec->type);
		pm_json__kv_u64(&o->j, "size", rec->size);
		pm_json__kv_u64(&o->j, "misc", rec->misc);
	} else {
		/* OFFSET@FILE in a directory recording, as perf report -D */
		if (pm_reader__is_dir(r))
			fprintf(o->f, "%#" PRIx64 "@%s", rec->offset,
				pm_reader__part_name(r, rec->part));
		else
			fprintf(o->f, "%#" PRIx64, rec->offset);
		if (rec->compressed)
			fprintf(o->f, "+z%#" PRIx64, rec->zoffset);
		fprintf(o->f, " [%#x] ", rec->size);
		if (tname)
			fputs(tname, o->f);
		else
			fprintf(o->f, "UNKNOWN(%u)", rec->type);
	}
	if (rec->type == PM_RECORD_SAMPLE) {
		dump_sample(o, &s);
	} else {
		struct pm_sample_id sid;

		ret = dump_other(o, r, rec, err);
		if (!ret && !pm_reader__parse_sample_id(r, rec, &sid, err))
			dump_sample_id(o, &sid);
	}
	if (o->json) {
		pm_json__end_object(&o->j);
		fputc('\n', o->f);
	} else {
		fputc('\n', o->f);
		if (o->lines.len) {
			fputs(pm_strbuf__str(&o->lines), o->f);
			pm_strbuf__reset(&o->lines);
		}
		if (opts->hex)
			hexdump(o->f, rec->data, rec->size);
	}
	return ret;
}

static void print_stats(const uint64_t *counts, uint64_t total, uint64_t bytes)
{
	uint32_t t;

	printf("%-20s %12s\n", "record type", "count");
	for (t = 0; t < 256; t++) {
		const char *name;

		if (!counts[t])
			continue;
		name = pm_record_type_name(t);
		if (name)
			printf("%-20s %12" PRIu64 "\n", name, counts[t]);
		else
			printf("UNKNOWN(%-3u)         %12" PRIu64 "\n", t, counts[t]);
	}
	printf("%-20s %12" PRIu64 "\n%-20s %12" PRIu64 "\n", "TOTAL", total,
	       "bytes", bytes);
}

static const char *const dump_usage[] = {
	"pmprof dump [-i FILE] [--format table|json] [--hex] [-q] [--stats]",
	NULL,
};

int cmd_dump(int argc, const char **argv)
{
	struct dump_opts opts = { .input = "perf.data" };
	const struct pm_option options[] = {
		OPT_STRING('i', "input", &opts.input, "file",
			   "input file name (- for standard input)"),
		OPT_FORMAT(&opts.format),
		OPT_BOOLEAN(0, "hex", &opts.hex, "add each record's bytes in hex"),
		OPT_BOOLEAN('q', "quiet", &opts.quiet,
			    "decode every record but print nothing (for timing)"),
		OPT_BOOLEAN(0, "stats", &opts.stats, "count records by type"),
		OPT_END(),
	};
	uint64_t counts[256] = { 0 }, total = 0, bytes = 0;
	struct pm_reader *r;
	struct pm_record rec;
	struct pm_error err = { 0 };
	struct out o = { 0 };
	int ret, status = PM_EXIT_OK;

	ret = pm_parse_options(argc, argv, options, dump_usage, 0);
	if (pm_cli_parse_status(ret) >= 0)
		return pm_cli_parse_status(ret);
	if (ret > 0)
		return pm_cli_usage_error("dump: unexpected argument '%s'", argv[0]);
	if (opts.format == PM_FORMAT_CSV || opts.format == PM_FORMAT_TSV)
		return pm_cli_usage_error("dump: --format takes table or json");
	if (pm_reader__open(&r, opts.input, NULL, &err))
		return pm_cli_input_error(opts.input, &err);
	o.json = opts.format == PM_FORMAT_JSON;
	o.f = stdout;
	pm_json__init(&o.j, stdout);
	if (opts.stats)
		opts.quiet = true;

	while ((ret = pm_reader__next(r, &rec, &err)) > 0) {
		/* A pipe names its arch only once HEADER_FEATURE went by. */
		o.arch = pm_reader__features(r)->arch;
		counts[rec.type < 256 ? rec.type : 255]++;
		total++;
		bytes += rec.size + rec.extra_size;
		if (dump_record(&o, r, &rec, &opts, &err)) {
			pm_reader__error_in(r, &rec, &err);
			status = pm_cli_input_error(opts.input, &err);
			break;
		}
	}
	if (ret < 0)
		status = pm_cli_input_error(opts.input, &err);
	if (opts.stats && status == PM_EXIT_OK)
		print_stats(counts, total, bytes);
	pm_strbuf__release(&o.lines);
	pm_reader__delete(r);
	return status;
}
