// SPDX-License-Identifier: GPL-2.0
/*
 * Write a large group recording for the metrics benchmark, fast, with the
 * project's writer: `{cycles/period=1000/,instructions}:uS` sampled N
 * times by one thread, the ips spread over the given function addresses
 * of a real ELF file mapped at MAP_START (so perf and pmprof both find
 * the symbols). Instructions per window vary so that every function gets
 * its own CPI.
 *
 *	metrics-gen OUT N ELF MAP_START ADDR...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/writer.h"

static void die(const char *what, const struct pm_error *err)
{
	fprintf(stderr, "metrics-gen: %s: %s\n", what, err->msg);
	exit(1);
}

int main(int argc, char **argv)
{
	struct pm_event ev[2];
	uint64_t ids[2] = { 101, 102 };
	struct pm_error err = { 0 };
	struct pm_writer *w;
	struct pm_rec_comm c = { .pid = 100, .tid = 100, .comm = "bench" };
	struct pm_rec_mmap m = { .is_mmap2 = true, .pid = 100, .tid = 100,
				 .pgoff = 0, .prot = 5, .flags = 2 };
	struct pm_read_value vals[2];
	struct pm_sample s = { 0 };
	uint64_t n, i, nfn, *fn, cyc = 0, ins = 0, x = 88172645463325252ULL;
	int e;

	if (argc < 6) {
		fprintf(stderr, "usage: metrics-gen OUT N ELF MAP_START ADDR...\n");
		return 1;
	}
	n = strtoull(argv[2], NULL, 0);
	m.filename = argv[3];
	m.start = strtoull(argv[4], NULL, 0);
	m.len = 64 << 20;
	nfn = (uint64_t)(argc - 5);
	fn = calloc(nfn, sizeof(*fn));
	for (i = 0; i < nfn; i++)
		fn[i] = m.start + strtoull(argv[5 + i], NULL, 16);

	if (pm_writer__open(&w, argv[1], NULL, &err))
		die(argv[1], &err);
	memset(ev, 0, sizeof(ev));
	for (e = 0; e < 2; e++) {
		ev[e].idx = e;
		ev[e].leader_idx = 0;
		ev[e].nr_members = e ? 1 : 2;
		ev[e].name = e ? "instructions:u" : "cycles/period=1000/u";
		ev[e].attr.type = 0;			/* PERF_TYPE_HARDWARE */
		ev[e].attr.size = 128;
		ev[e].attr.config = (uint64_t)e;	/* cycles, instructions */
		ev[e].attr.sample_period = e ? 0 : 1000;
		ev[e].attr.sample_type = PM_SAMPLE_IP | PM_SAMPLE_TID |
					 PM_SAMPLE_PERIOD | PM_SAMPLE_READ |
					 PM_SAMPLE_IDENTIFIER;
		ev[e].attr.read_format = PM_FORMAT_GROUP | PM_FORMAT_ID;
		ev[e].attr.flags = 1ULL << PM_ATTR_SAMPLE_ID_ALL |
				   1ULL << PM_ATTR_EXCLUDE_KERNEL |
				   1ULL << PM_ATTR_EXCLUDE_HV;
		if (!e)
			ev[e].attr.flags |= 1ULL << PM_ATTR_MMAP |
					    1ULL << PM_ATTR_COMM |
					    1ULL << PM_ATTR_MMAP2;
		ev[e].ids = &ids[e];
		ev[e].nr_ids = 1;
		if (pm_writer__add_event(w, &ev[e], &err) < 0)
			die("event", &err);
	}
	pm_writer__set_string(w, PM_FEAT_ARCH, "x86_64", &err);
	if (pm_writer__comm(w, 0, &c, NULL, &err) ||
	    pm_writer__mmap(w, PM_MISC_USER, &m, NULL, &err))
		die("comm/mmap", &err);
	s.sample_type = ev[0].attr.sample_type;
	s.misc = PM_MISC_USER;
	s.pid = s.tid = 100;
	s.period = 1000;
	s.identifier = ids[0];
	s.read.values = vals;
	s.read.nr = 2;
	vals[0].id = ids[0];
	vals[1].id = ids[1];
	for (i = 0; i < n; i++) {
		uint64_t f;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		f = x % nfn;
		cyc += 1000;
		ins += 200 + (f * 37) % 1500 + (x >> 40) % 64;
		s.ip = fn[f];
		vals[0].value = cyc;
		vals[1].value = ins;
		if (pm_writer__sample(w, &s, &err))
			die("sample", &err);
	}
	if (pm_writer__close(w, &err))
		die("close", &err);
	free(fn);
	return 0;
}
