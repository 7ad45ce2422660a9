// SPDX-License-Identifier: GPL-2.0
/*
 * The non-sample records as pmprof dump shows them: per record type its
 * decoder (records.h) and its fields under perf's names, in one table.
 */
#include <inttypes.h>
#include <string.h>

#include "dump.h"
#include "pmprof/records.h"

/* Every decoder as the table holds them. */
typedef int (*decode_fn)(struct pm_reader *r, const struct pm_record *rec,
			 void *out, struct pm_error *err);
#define DECODER(what)							\
	static int dec_##what(struct pm_reader *r,			\
			      const struct pm_record *rec, void *out,	\
			      struct pm_error *err)			\
	{								\
		return pm_rec__##what(r, rec, out, err);		\
	}
DECODER(mmap)
DECODER(comm)
DECODER(task)
DECODER(lost)
DECODER(lost_samples)
DECODER(throttle)
DECODER(read)
DECODER(aux)
DECODER(itrace_start)
DECODER(switch)
DECODER(namespaces)
DECODER(ksymbol)
DECODER(bpf_event)
DECODER(cgroup)
DECODER(text_poke)
DECODER(aux_output_hw_id)
DECODER(id_index)
DECODER(auxtrace)
DECODER(time_conv)
DECODER(compressed)

/* ---- the conditions and the fields that need more than a member ---- */

static bool is_mmap2(const void *v)
{
	return ((const struct pm_rec_mmap *)v)->is_mmap2;
}

static bool mmap2_build_id(const void *v)
{
	return is_mmap2(v) && ((const struct pm_rec_mmap *)v)->has_build_id;
}

static bool mmap2_inode(const void *v)
{
	return is_mmap2(v) && !((const struct pm_rec_mmap *)v)->has_build_id;
}

static bool cpu_wide(const void *v)
{
	return ((const struct pm_rec_switch *)v)->cpu_wide;
}

static void switch_direction(const struct dump_ctx *c)
{
	const struct pm_rec_switch *sw = c->v;

	f_str(c->o, "direction", sw->out ? (sw->preempt ? "out-preempt" : "out")
					 : "in");
}

/* READ: its event, then what its read_format holds (members by id). */
static void read_counts(const struct dump_ctx *c)
{
	const struct pm_rec_read *rd = c->v;
	uint64_t rf = rd->read_format;
	struct pm_read_value v;

	if (rd->event)
		f_str(c->o, "event", rd->event->name);
	if (rf & PM_FORMAT_TOTAL_TIME_ENABLED)
		f_u64(c->o, "time_enabled", rd->time_enabled);
	if (rf & PM_FORMAT_TOTAL_TIME_RUNNING)
		f_u64(c->o, "time_running", rd->time_running);
	if (rf & PM_FORMAT_GROUP)
		f_u64(c->o, "nr", rd->nr);
	for (uint64_t i = 0; i < rd->nr; i++) {
		char k[48];

		pm_rec_read__member(c->r, rd, i, &v);
		snprintf(k, sizeof(k), (rf & PM_FORMAT_GROUP) ? "value[%" PRIu64 "]" : "value", i);
		f_u64(c->o, k, v.value);
		if (rf & PM_FORMAT_ID) {
			snprintf(k, sizeof(k), (rf & PM_FORMAT_GROUP) ? "id[%" PRIu64 "]" : "id", i);
			f_u64(c->o, k, v.id);
		}
		if (rf & PM_FORMAT_LOST) {
			snprintf(k, sizeof(k), (rf & PM_FORMAT_GROUP) ? "lost[%" PRIu64 "]" : "lost", i);
			f_u64(c->o, k, v.lost);
		}
	}
}

static void poke_bytes(const struct dump_ctx *c)
{
	const struct pm_rec_text_poke *t = c->v;

	f_bytes(c->o, "old_bytes", t->bytes, t->old_len);
	f_bytes(c->o, "new_bytes", t->bytes + t->old_len, t->new_len);
}

static void id_index_entries(const struct dump_ctx *c)
{
	const struct pm_rec_id_index *idx = c->v;
	struct out *o = c->o;
	uint64_t i;

	if (o->json) {
		pm_json__key(&o->j, "entries");
		pm_json__begin_array(&o->j);
	} else {
		fputs(" entries=[", o->f);
	}
	for (i = 0; i < idx->nr; i++) {
		struct pm_id_index_entry e;

		pm_rec_id_index__entry(c->r, idx, i, &e);
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
}

/* Records of the header, which the reader applied rather than decodes. */
static void tracing_data(const struct dump_ctx *c)
{
	f_u64(c->o, "size", c->rec->extra_size);
}

static void header_attr(const struct dump_ctx *c)
{
	uint32_t n = pm_reader__nr_events(c->r);
	const struct pm_event *ev = n ? pm_reader__event(c->r, n - 1) : NULL;

	if (ev && pm_reader__is_pipe(c->r)) {
		f_str(c->o, "event", ev->name);
		f_u64(c->o, "nr_ids", ev->nr_ids);
	}
}

static void header_feature(const struct dump_ctx *c)
{
	uint64_t feat;
	const char *name;

	if (c->rec->size < 16)
		return;
	feat = pm_reader__u64(c->r, c->rec->data + 8);
	name = feat < PM_FEAT_BITS ? pm_feature_name((unsigned)feat) : NULL;
	f_u64(c->o, "feat_id", feat);
	if (name)
		f_str(c->o, "feature", name);
}

/* ---- the table ---- */

#define M struct pm_rec_mmap
static const struct dump_field mmap_fields[] = {
	DF(M, pid, D_I32), DF(M, tid, D_I32), DF(M, start, D_ADDR),
	DF(M, len, D_ADDR), DF(M, pgoff, D_ADDR),
	{ "build_id", D_BYTES, offsetof(M, build_id), sizeof(((M *)0)->build_id),
	  offsetof(M, build_id_size), 1, mmap2_build_id },
	DF_WHEN(M, maj, D_U64, mmap2_inode), DF_WHEN(M, min, D_U64, mmap2_inode),
	DF_WHEN(M, ino, D_U64, mmap2_inode),
	DF_WHEN(M, ino_generation, D_U64, mmap2_inode),
	DF_WHEN(M, prot, D_U64, is_mmap2), DF_WHEN(M, flags, D_U64, is_mmap2),
	DF(M, filename, D_STR), DF_END,
};
#undef M

static const struct dump_field comm_fields[] = {
	DF(struct pm_rec_comm, pid, D_I32), DF(struct pm_rec_comm, tid, D_I32),
	DF(struct pm_rec_comm, comm, D_STR), DF(struct pm_rec_comm, exec, D_U64),
	DF_END,
};

static const struct dump_field task_fields[] = {
	DF(struct pm_rec_task, pid, D_I32), DF(struct pm_rec_task, ppid, D_I32),
	DF(struct pm_rec_task, tid, D_I32), DF(struct pm_rec_task, ptid, D_I32),
	DF(struct pm_rec_task, time, D_U64), DF_END,
};

static const struct dump_field lost_fields[] = {
	DF(struct pm_rec_lost, id, D_U64), DF(struct pm_rec_lost, lost, D_U64),
	DF_END,
};

static const struct dump_field lost_samples_fields[] = {
	DF(struct pm_rec_lost_samples, lost, D_U64), DF_END,
};

static const struct dump_field throttle_fields[] = {
	DF(struct pm_rec_throttle, time, D_U64), DF(struct pm_rec_throttle, id, D_U64),
	DF(struct pm_rec_throttle, stream_id, D_U64), DF_END,
};

static const struct dump_field read_fields[] = {
	DF(struct pm_rec_read, pid, D_I32), DF(struct pm_rec_read, tid, D_I32),
	DF_FN(read_counts), DF_END,
};

static const struct dump_field aux_fields[] = {
	DF(struct pm_rec_aux, aux_offset, D_U64), DF(struct pm_rec_aux, aux_size, D_U64),
	DF(struct pm_rec_aux, flags, D_ADDR), DF_END,
};

static const struct dump_field itrace_start_fields[] = {
	DF(struct pm_rec_itrace_start, pid, D_I32),
	DF(struct pm_rec_itrace_start, tid, D_I32), DF_END,
};

static const struct dump_field switch_fields[] = {
	DF_FN(switch_direction),
	DF_WHEN(struct pm_rec_switch, next_prev_pid, D_I32, cpu_wide),
	DF_WHEN(struct pm_rec_switch, next_prev_tid, D_I32, cpu_wide), DF_END,
};

static const struct dump_field namespaces_fields[] = {
	DF(struct pm_rec_namespaces, pid, D_I32),
	DF(struct pm_rec_namespaces, tid, D_I32),
	DF_AS("nr_namespaces", struct pm_rec_namespaces, nr, D_U64), DF_END,
};

static const struct dump_field ksymbol_fields[] = {
	DF(struct pm_rec_ksymbol, addr, D_ADDR), DF(struct pm_rec_ksymbol, len, D_U64),
	DF(struct pm_rec_ksymbol, ksym_type, D_U64),
	DF(struct pm_rec_ksymbol, flags, D_U64), DF(struct pm_rec_ksymbol, name, D_STR),
	DF_END,
};

static const struct dump_field bpf_event_fields[] = {
	DF_AS("type", struct pm_rec_bpf_event, bpf_type, D_U64),
	DF(struct pm_rec_bpf_event, flags, D_U64), DF(struct pm_rec_bpf_event, id, D_U64),
	{ "tag", D_BYTES, offsetof(struct pm_rec_bpf_event, tag), 8, 8, 0 },
	DF_END,
};

static const struct dump_field cgroup_fields[] = {
	DF(struct pm_rec_cgroup, id, D_U64), DF(struct pm_rec_cgroup, path, D_STR),
	DF_END,
};

static const struct dump_field text_poke_fields[] = {
	DF(struct pm_rec_text_poke, addr, D_ADDR), DF_FN(poke_bytes), DF_END,
};

static const struct dump_field aux_output_hw_id_fields[] = {
	DF(struct pm_rec_aux_output_hw_id, hw_id, D_U64), DF_END,
};

static const struct dump_field id_index_fields[] = {
	DF(struct pm_rec_id_index, nr, D_U64), DF_FN(id_index_entries), DF_END,
};

static const struct dump_field auxtrace_fields[] = {
	DF(struct pm_rec_auxtrace, size, D_U64), DF(struct pm_rec_auxtrace, offset, D_U64),
	DF(struct pm_rec_auxtrace, reference, D_U64), DF(struct pm_rec_auxtrace, idx, D_U64),
	DF(struct pm_rec_auxtrace, tid, D_I32), DF(struct pm_rec_auxtrace, cpu, D_I32),
	DF_END,
};

static const struct dump_field time_conv_fields[] = {
	DF(struct pm_rec_time_conv, time_shift, D_U64),
	DF(struct pm_rec_time_conv, time_mult, D_U64),
	DF(struct pm_rec_time_conv, time_zero, D_U64), DF_END,
};

static const struct dump_field compressed_fields[] = {
	DF(struct pm_rec_compressed, data_size, D_U64), DF_END,
};

static const struct dump_field tracing_data_fields[] = { DF_FN(tracing_data), DF_END };
static const struct dump_field header_attr_fields[] = { DF_FN(header_attr), DF_END };
static const struct dump_field header_feature_fields[] = { DF_FN(header_feature), DF_END };

struct layout {
	uint32_t type;
	decode_fn decode;	/* NULL: the fields read the record */
	const struct dump_field *fields;
};

static const struct layout layouts[] = {
	{ PM_RECORD_MMAP, dec_mmap, mmap_fields },
	{ PM_RECORD_MMAP2, dec_mmap, mmap_fields },
	{ PM_RECORD_COMM, dec_comm, comm_fields },
	{ PM_RECORD_FORK, dec_task, task_fields },
	{ PM_RECORD_EXIT, dec_task, task_fields },
	{ PM_RECORD_LOST, dec_lost, lost_fields },
	{ PM_RECORD_LOST_SAMPLES, dec_lost_samples, lost_samples_fields },
	{ PM_RECORD_THROTTLE, dec_throttle, throttle_fields },
	{ PM_RECORD_UNTHROTTLE, dec_throttle, throttle_fields },
	{ PM_RECORD_READ, dec_read, read_fields },
	{ PM_RECORD_AUX, dec_aux, aux_fields },
	{ PM_RECORD_ITRACE_START, dec_itrace_start, itrace_start_fields },
	{ PM_RECORD_SWITCH, dec_switch, switch_fields },
	{ PM_RECORD_SWITCH_CPU_WIDE, dec_switch, switch_fields },
	{ PM_RECORD_NAMESPACES, dec_namespaces, namespaces_fields },
	{ PM_RECORD_KSYMBOL, dec_ksymbol, ksymbol_fields },
	{ PM_RECORD_BPF_EVENT, dec_bpf_event, bpf_event_fields },
	{ PM_RECORD_CGROUP, dec_cgroup, cgroup_fields },
	{ PM_RECORD_TEXT_POKE, dec_text_poke, text_poke_fields },
	{ PM_RECORD_AUX_OUTPUT_HW_ID, dec_aux_output_hw_id, aux_output_hw_id_fields },
	{ PM_RECORD_ID_INDEX, dec_id_index, id_index_fields },
	{ PM_RECORD_AUXTRACE, dec_auxtrace, auxtrace_fields },
	{ PM_RECORD_TIME_CONV, dec_time_conv, time_conv_fields },
	{ PM_RECORD_COMPRESSED, dec_compressed, compressed_fields },
	{ PM_RECORD_COMPRESSED2, dec_compressed, compressed_fields },
	{ PM_RECORD_HEADER_TRACING_DATA, NULL, tracing_data_fields },
	{ PM_RECORD_HEADER_ATTR, NULL, header_attr_fields },
	{ PM_RECORD_HEADER_FEATURE, NULL, header_feature_fields },
};

int dump_record_fields(struct out *o, struct pm_reader *r,
		       const struct pm_record *rec, struct pm_error *err)
{
	union pm_rec_any v;
	size_t i;

	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		const struct layout *l = &layouts[i];
		struct dump_ctx c = { o, r, rec, &v };

		if (l->type != rec->type)
			continue;
		memset(&v, 0, sizeof(v));
		if (l->decode && l->decode(r, rec, &v, err))
			return -1;
		dump_fields(&c, l->fields);
		return 0;
	}
	return 0;	/* layout unknown or empty: offset, type and size say it */
}
