// SPDX-License-Identifier: GPL-2.0
/*
 * The reduced program of tests/cli/profileme-bigendian.sh: the reader,
 * the ProfileMe decoder and accumulator, the memory accumulator and the
 * JSON writer, without the session (no libelf or libdw on the cross
 * target), so dso and symbol are always null. Built twice, for the host
 * and for s390x (big endian, run under qemu-user); both builds must print
 * the same JSON for the same fixture.
 *
 *	pm-json profileme|profileme-pc|mem FILE
 */
#include <stdio.h>
#include <string.h>

#include "pmprof/bytes.h"
#include "pmprof/error.h"
#include "pmprof/mem_acc.h"
#include "pmprof/perfdata.h"
#include "pmprof/profileme_acc.h"
#include "pmprof/report.h"

int main(int argc, char **argv)
{
	struct pm_profileme_opts po = { .sz = sizeof(po) };
	struct pm_report *rep = NULL;
	struct pm_profileme_acc *pacc = NULL;
	struct pm_mem_acc *macc = NULL;
	struct pm_error err = { 0 };
	struct pm_reader *r;
	struct pm_record rec;
	struct pm_sample s;
	bool mem;
	int ret;

	if (argc != 3)
		return 1;
	mem = !strcmp(argv[1], "mem");
	po.view = !strcmp(argv[1], "profileme-pc") ? PM_PROFILEME_BY_PC :
						      PM_PROFILEME_BY_SYMBOL;
	fprintf(stderr, "host: %s endian\n", PM_HOST_BIG_ENDIAN ? "big" : "little");
	if (pm_reader__open(&r, argv[2], NULL, &err)) {
		fprintf(stderr, "%s: %s\n", argv[2], err.msg);
		return 2;
	}
	if (mem)
		macc = pm_mem_acc__new(NULL);
	while ((ret = pm_reader__next(r, &rec, &err)) > 0) {
		if (rec.type != PM_RECORD_SAMPLE)
			continue;
		if (pm_reader__parse_sample(r, &rec, &s, &err)) {
			ret = -1;
			break;
		}
		if (!pacc && !mem) {
			po.arch = pm_reader__features(r)->arch;
			pacc = pm_profileme_acc__new(&po);
		}
		if (mem) {
			struct pm_mem_sample ms = {
				.has_data_src = s.sample_type & PM_SAMPLE_DATA_SRC,
				.data_src = s.data_src,
			};

			pm_mem_acc__add(macc, &ms);
		} else {
			struct pm_profileme_sample ps = {
				.raw = (s.sample_type & PM_SAMPLE_RAW) ? s.raw : NULL,
				.raw_size = (s.sample_type & PM_SAMPLE_RAW) ? s.raw_size : 0,
				.attr_type = s.event ? s.event->attr.type : UINT32_MAX,
			};

			pm_profileme_acc__add(pacc, &ps);
		}
	}
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", argv[2], err.msg);
		return 2;
	}
	if (mem) {
		pm_mem_acc__finish(macc, &rep);
		pm_mem_acc__delete(macc);
	} else {
		if (!pacc) {
			po.arch = pm_reader__features(r)->arch;
			pacc = pm_profileme_acc__new(&po);
		}
		pm_profileme_acc__finish(pacc, &rep);
		pm_profileme_acc__delete(pacc);
	}
	pm_report__render(rep, stdout, pm_renderer__find("json"), NULL);
	pm_report__delete(rep);
	pm_reader__delete(r);
	return 0;
}
