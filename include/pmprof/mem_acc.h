/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory view (`pmprof mem`): samples that carry PERF_SAMPLE_DATA_SRC,
 * on any architecture, counted per code symbol, data source (decoded by
 * pmprof/mem.h) and data object. An accumulator as every analysis is
 * (pmprof/analysis.h): new, add, finish into a report, delete.
 */
#ifndef PMPROF_MEM_ACC_H
#define PMPROF_MEM_ACC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/analysis.h"
#include "pmprof/mem.h"

struct pm_report;

/*
 * What the caller knows about one sample. Rows are keyed by the code
 * location (dso, symbol), the whole data source (so op, TLB access and
 * every other field are one value per row) and, when the sample has an
 * address, the data object it resolves to.
 */
struct pm_mem_sample {
	bool has_data_src;		/* PERF_SAMPLE_DATA_SRC was sampled */
	uint64_t data_src;
	const char *dso;		/* code: NULL when unknown */
	const char *symbol;
	bool has_addr;			/* PERF_SAMPLE_ADDR was sampled */
	const char *data_dso;		/* the address's: NULL when unknown */
	const char *data_symbol;
};

enum pm_mem_sort {
	PM_MEM_SORT_SAMPLES,		/* descending */
	PM_MEM_SORT_SYMBOL,		/* ascending: dso, symbol */
	PM_MEM_SORT_OP,			/* ascending by op name */
	PM_MEM_SORT_TLB,		/* "hit", "miss", "N/A" order */
	PM_MEM_SORT_LEVEL,		/* ascending by level text */
	PM_MEM_SORT_DATA,		/* ascending: data dso, data symbol */
};

/* "samples", "symbol", "op", "tlb", "level", "data" (and perf's "sym",
 * "mem", "symbol_daddr"); -1 if unknown. */
int pm_mem_sort__parse(const char *s, enum pm_mem_sort *out);

struct pm_mem_opts {
	size_t sz;			/* sizeof(struct pm_mem_opts); 0: this size */
	enum pm_mem_sort sort;		/* ties: more samples, then first seen */
};

struct pm_mem_row {
	char *dso, *symbol;
	uint64_t data_src;		/* as decoded and re-encoded */
	struct pm_mem_src src;
	bool has_addr;
	char *data_dso, *data_symbol;
	uint64_t samples;
	size_t seq;			/* order of first sample */
};

struct pm_mem_acc;

struct pm_mem_acc *pm_mem_acc__new(const struct pm_mem_opts *opts);
void pm_mem_acc__delete(struct pm_mem_acc *acc);
/*
 * 0 when added; 1 when skipped (no data source), and counted; 2 when its
 * data source says nothing (pm_mem_src__is_na: what the kernel gives a
 * software event's sample), counted apart, not as a data source.
 */
int pm_mem_acc__add(struct pm_mem_acc *acc, const struct pm_mem_sample *s);

/* Every row in the sort order, in an array the caller frees (NULL: none). */
const struct pm_mem_row **pm_mem_acc__rows(const struct pm_mem_acc *acc,
					   size_t *nr);

/*
 * The report: summary "samples", "skipped", "na"; the note "N samples
 * with a data source, N whose data source is N/A (no field known), N
 * without"; one table "rows", sorted: samples, share
 * (percent of all samples), op, tlb, dtlb (perf's TLB text), level,
 * snoop, lock, blk, dso, symbol ("[unknown]" when unknown) and, when any
 * sample had an address, data_dso and data_symbol. JSON rows: dso,
 * symbol (null when unknown), samples, share, data_src (the u64 as hex),
 * the fields of pm_mem_fields, and data_dso, data_symbol for samples
 * with an address.
 */
int pm_mem_acc__finish(struct pm_mem_acc *acc, struct pm_report **out);

/* The view over a session: resolves each sample's code and data address. */
extern const struct pm_analysis pm_mem_analysis;

#endif
