// SPDX-License-Identifier: GPL-2.0
/*
 * SAMPLE records as pmprof dump shows them: one field table, in the
 * kernel's order of the sample_type bits, and the sample_id_all trailer
 * of the other records.
 */
#include <inttypes.h>
#include <stdio.h>

#include "dump.h"
#include "pmprof/profileme.h"

static const char *cpumode_name(uint16_t misc)
{
	static const char *const names[] = {
		"unknown", "kernel", "user", "hypervisor", "guest-kernel",
		"guest-user", "mode6", "mode7",
	};

	return names[misc & PM_MISC_CPUMODE_MASK];
}

static void names(const struct dump_ctx *c)
{
	const struct pm_sample *s = c->v;

	f_str(c->o, "event", s->event->name);
	f_str(c->o, "cpumode", cpumode_name(s->misc));
}

static void read_values(const struct dump_ctx *c)
{
	const struct pm_sample *s = c->v;
	struct out *o = c->o;
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

static void callchain(const struct dump_ctx *c)
{
	const struct pm_sample *s = c->v;

	f_addr_list(c->o, "callchain", s->callchain, s->callchain_nr);
}

static void raw(const struct dump_ctx *c)
{
	const struct pm_sample *s = c->v;

	f_bytes(c->o, "raw", s->raw, s->raw_size);
}

static void branch_stack(const struct dump_ctx *c)
{
	const struct pm_sample *s = c->v;
	struct out *o = c->o;
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
		return;
	}
	fputs(" branch_stack=[", o->f);
	for (i = 0; i < s->branch_nr; i++)
		fprintf(o->f, "%s%#" PRIx64 "->%#" PRIx64, i ? "," : "",
			s->branches[i].from, s->branches[i].to);
	fputc(']', o->f);
}

static void regs(struct out *o, const char *k, const struct pm_regs *r)
{
	char key[32];

	snprintf(key, sizeof(key), "%s_abi", k);
	f_u64(o, key, r->abi);
	if (r->nr)
		f_addr_list(o, k, r->regs, r->nr);
}

static void regs_user(const struct dump_ctx *c)
{
	regs(c->o, "regs_user", &((const struct pm_sample *)c->v)->regs_user);
}

static void regs_intr(const struct dump_ctx *c)
{
	regs(c->o, "regs_intr", &((const struct pm_sample *)c->v)->regs_intr);
}

static void stack_user(const struct dump_ctx *c)
{
	const struct pm_sample *s = c->v;

	f_u64(c->o, "stack_user_size", s->stack_user_size);
	if (s->stack_user_size)
		f_u64(c->o, "stack_user_dyn_size", s->stack_user_dyn_size);
}

/* Alpha ProfileMe status under the sample, as perf report -D shows it. */
static void profileme(const struct dump_ctx *c)
{
	const struct pm_sample *s = c->v;
	struct out *o = c->o;
	struct pm_profileme pm;
	struct pm_profileme_class cls;

	if (pm_profileme__decode(&pm, o->arch, s->event->attr.type, s->raw,
				 s->raw_size) != PM_PROFILEME_OK)
		return;
	if (!o->json) {
		pm_profileme__dump(&pm, &o->lines);
		return;
	}
	pm_profileme__classify(&pm, &cls);
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
	pm_json__kv_bool(&o->j, "mispredicted", cls.mispredicted);
	pm_json__kv_string(&o->j, "trap", pm_profileme_trap__name(cls.trap));
	pm_json__end_object(&o->j);
}

/* A field shown when the sample has the bit (0: always). */
struct sample_field {
	uint64_t bit;
	struct dump_field f;
};

#define S struct pm_sample
static const struct sample_field sample_fields[] = {
	{ 0, DF_FN(names) },
	{ PM_SAMPLE_IDENTIFIER, DF(S, identifier, D_U64) },
	{ PM_SAMPLE_IP, DF(S, ip, D_ADDR) },
	{ PM_SAMPLE_TID, DF(S, pid, D_I32) },
	{ PM_SAMPLE_TID, DF(S, tid, D_I32) },
	{ PM_SAMPLE_TIME, DF(S, time, D_U64) },
	{ PM_SAMPLE_ADDR, DF(S, addr, D_ADDR) },
	{ PM_SAMPLE_ID, DF(S, id, D_U64) },
	{ PM_SAMPLE_STREAM_ID, DF(S, stream_id, D_U64) },
	{ PM_SAMPLE_CPU, DF(S, cpu, D_U64) },
	{ PM_SAMPLE_PERIOD, DF(S, period, D_U64) },
	{ PM_SAMPLE_READ, DF_FN(read_values) },
	{ PM_SAMPLE_CALLCHAIN, DF_FN(callchain) },
	{ PM_SAMPLE_RAW, DF_FN(raw) },
	{ PM_SAMPLE_BRANCH_STACK, DF_FN(branch_stack) },
	{ PM_SAMPLE_REGS_USER, DF_FN(regs_user) },
	{ PM_SAMPLE_STACK_USER, DF_FN(stack_user) },
	{ PM_SAMPLE_WEIGHT | PM_SAMPLE_WEIGHT_STRUCT, DF(S, weight, D_U64) },
	{ PM_SAMPLE_DATA_SRC, DF(S, data_src, D_ADDR) },
	{ PM_SAMPLE_TRANSACTION, DF(S, transaction, D_ADDR) },
	{ PM_SAMPLE_REGS_INTR, DF_FN(regs_intr) },
	{ PM_SAMPLE_PHYS_ADDR, DF(S, phys_addr, D_ADDR) },
	{ PM_SAMPLE_CGROUP, DF(S, cgroup, D_U64) },
	{ PM_SAMPLE_DATA_PAGE_SIZE, DF(S, data_page_size, D_U64) },
	{ PM_SAMPLE_CODE_PAGE_SIZE, DF(S, code_page_size, D_U64) },
	{ PM_SAMPLE_AUX, DF(S, aux_size, D_U64) },
	{ PM_SAMPLE_RAW, DF_FN(profileme) },
};
#undef S

void dump_sample(struct out *o, const struct pm_sample *s)
{
	struct dump_ctx c = { .o = o, .v = s };
	size_t i;

	for (i = 0; i < sizeof(sample_fields) / sizeof(sample_fields[0]); i++) {
		const struct sample_field *sf = &sample_fields[i];
		struct dump_field one[2] = { sf->f, DF_END };

		if (sf->bit && !(s->sample_type & sf->bit))
			continue;
		dump_fields(&c, one);
	}
}

/* The trailer: JSON as an object of its own, text as "sid." fields. */
#define SID struct pm_sample_id
static const struct sample_field sid_fields[] = {
	{ PM_SAMPLE_TID, DF(SID, pid, D_I32) },
	{ PM_SAMPLE_TID, DF(SID, tid, D_I32) },
	{ PM_SAMPLE_TIME, DF(SID, time, D_U64) },
	{ PM_SAMPLE_ID | PM_SAMPLE_IDENTIFIER, DF(SID, id, D_U64) },
	{ PM_SAMPLE_STREAM_ID, DF(SID, stream_id, D_U64) },
	{ PM_SAMPLE_CPU, DF(SID, cpu, D_U64) },
};
#undef SID

void dump_sample_id(struct out *o, const struct pm_sample_id *sid)
{
	struct dump_ctx c = { .o = o, .v = sid };
	size_t i;

	if (!sid->present)
		return;
	if (o->json) {
		pm_json__key(&o->j, "sample_id");
		pm_json__begin_object(&o->j);
	}
	for (i = 0; i < sizeof(sid_fields) / sizeof(sid_fields[0]); i++) {
		struct dump_field one[2] = { sid_fields[i].f, DF_END };
		char name[32];

		if (!(sid->present & sid_fields[i].bit))
			continue;
		if (!o->json) {
			snprintf(name, sizeof(name), "sid.%s", one[0].name);
			one[0].name = name;
		}
		dump_fields(&c, one);
	}
	if (o->json)
		pm_json__end_object(&o->j);
}
