// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the perf.data reader: open from memory, walk every
 * record, and decode each one the way `pmprof dump` does (samples, the
 * sample_id trailer, and every typed record view).
 */
#include <stddef.h>
#include <stdint.h>

#include "pmprof/perfdata.h"
#include "pmprof/records.h"

static void decode_other(struct pm_reader *r, const struct pm_record *rec)
{
	struct pm_error err;
	union pm_rec_any u;
	struct pm_id_index_entry e;
	uint64_t i;

	switch (rec->type) {
	case PM_RECORD_MMAP:
	case PM_RECORD_MMAP2: pm_rec__mmap(r, rec, &u.mmap, &err); break;
	case PM_RECORD_COMM: pm_rec__comm(r, rec, &u.comm, &err); break;
	case PM_RECORD_FORK:
	case PM_RECORD_EXIT: pm_rec__task(r, rec, &u.task, &err); break;
	case PM_RECORD_LOST: pm_rec__lost(r, rec, &u.lost, &err); break;
	case PM_RECORD_LOST_SAMPLES: pm_rec__lost_samples(r, rec, &u.lost_samples, &err); break;
	case PM_RECORD_THROTTLE:
	case PM_RECORD_UNTHROTTLE: pm_rec__throttle(r, rec, &u.throttle, &err); break;
	case PM_RECORD_READ: pm_rec__read(r, rec, &u.read, &err); break;
	case PM_RECORD_AUX: pm_rec__aux(r, rec, &u.aux, &err); break;
	case PM_RECORD_ITRACE_START: pm_rec__itrace_start(r, rec, &u.itrace_start, &err); break;
	case PM_RECORD_SWITCH:
	case PM_RECORD_SWITCH_CPU_WIDE: pm_rec__switch(r, rec, &u.sw, &err); break;
	case PM_RECORD_NAMESPACES: pm_rec__namespaces(r, rec, &u.namespaces, &err); break;
	case PM_RECORD_KSYMBOL: pm_rec__ksymbol(r, rec, &u.ksymbol, &err); break;
	case PM_RECORD_BPF_EVENT: pm_rec__bpf_event(r, rec, &u.bpf_event, &err); break;
	case PM_RECORD_CGROUP: pm_rec__cgroup(r, rec, &u.cgroup, &err); break;
	case PM_RECORD_TEXT_POKE: pm_rec__text_poke(r, rec, &u.text_poke, &err); break;
	case PM_RECORD_AUX_OUTPUT_HW_ID: pm_rec__aux_output_hw_id(r, rec, &u.aux_output_hw_id, &err); break;
	case PM_RECORD_ID_INDEX:
		if (!pm_rec__id_index(r, rec, &u.id_index, &err))
			for (i = 0; i < u.id_index.nr; i++)
				pm_rec_id_index__entry(r, &u.id_index, i, &e);
		break;
	case PM_RECORD_AUXTRACE: pm_rec__auxtrace(r, rec, &u.auxtrace, &err); break;
	case PM_RECORD_TIME_CONV: pm_rec__time_conv(r, rec, &u.time_conv, &err); break;
	case PM_RECORD_COMPRESSED:
	case PM_RECORD_COMPRESSED2: pm_rec__compressed(r, rec, &u.compressed, &err); break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pm_reader *r;
	struct pm_record rec;
	struct pm_sample s;
	struct pm_sample_id sid;
	struct pm_error err;
	uint64_t i, sum = 0;
	int n = 0;

	if (pm_reader__open_mem(&r, data, size, "fuzz", &err))
		return 0;
	/* Bound the walk: a small input may decompress to many records. */
	while (n++ < 100000 && pm_reader__next(r, &rec, &err) > 0) {
		if (rec.type == PM_RECORD_SAMPLE) {
			if (pm_reader__parse_sample(r, &rec, &s, &err))
				continue;
			/* Touch what the parser handed out, so ASan checks it. */
			for (i = 0; i < s.callchain_nr; i++)
				sum += s.callchain[i];
			for (i = 0; i < s.read.nr; i++)
				sum += s.read.values[i].value;
			for (i = 0; i < s.raw_size; i++)
				sum += s.raw[i];
			for (i = 0; i < s.regs_user.nr; i++)
				sum += s.regs_user.regs[i];
		} else {
			decode_other(r, &rec);
			pm_reader__parse_sample_id(r, &rec, &sid, &err);
		}
	}
	pm_reader__delete(r);
	return (int)(sum & 0);
}
