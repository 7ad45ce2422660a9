/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PERF_SAMPLE_DATA_SRC: union perf_mem_data_src, a u64 of bit fields
 * (little-endian bit order, as the uapi header lays it out), decoded
 * field by field and named the way perf names the values. The constants
 * are pmprof's own copies of the ABI values, so nothing depends on the
 * host's <linux/perf_event.h>.
 */
#ifndef PMPROF_MEM_H
#define PMPROF_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pmprof/table.h"

struct pm_json;
struct pm_strbuf;

/* Field positions and widths in the u64. */
#define PM_MEM_OP_SHIFT		0	/* 5 bits */
#define PM_MEM_LVL_SHIFT	5	/* 14 bits */
#define PM_MEM_SNOOP_SHIFT	19	/* 5 bits */
#define PM_MEM_LOCK_SHIFT	24	/* 2 bits */
#define PM_MEM_TLB_SHIFT	26	/* 7 bits */
#define PM_MEM_LVLNUM_SHIFT	33	/* 4 bits */
#define PM_MEM_REMOTE_SHIFT	37	/* 1 bit */
#define PM_MEM_SNOOPX_SHIFT	38	/* 2 bits */
#define PM_MEM_BLK_SHIFT	40	/* 3 bits */
#define PM_MEM_HOPS_SHIFT	43	/* 3 bits */

/* mem_op */
#define PM_MEM_OP_NA		0x01
#define PM_MEM_OP_LOAD		0x02
#define PM_MEM_OP_STORE		0x04
#define PM_MEM_OP_PFETCH	0x08
#define PM_MEM_OP_EXEC		0x10

/* mem_lvl (the older, bit-per-level encoding) */
#define PM_MEM_LVL_NA		0x01
#define PM_MEM_LVL_HIT		0x02
#define PM_MEM_LVL_MISS		0x04
#define PM_MEM_LVL_L1		0x08
#define PM_MEM_LVL_LFB		0x10
#define PM_MEM_LVL_L2		0x20
#define PM_MEM_LVL_L3		0x40
#define PM_MEM_LVL_LOC_RAM	0x80
#define PM_MEM_LVL_REM_RAM1	0x100
#define PM_MEM_LVL_REM_RAM2	0x200
#define PM_MEM_LVL_REM_CCE1	0x400
#define PM_MEM_LVL_REM_CCE2	0x800
#define PM_MEM_LVL_IO		0x1000
#define PM_MEM_LVL_UNC		0x2000

/* mem_snoop, mem_snoopx */
#define PM_MEM_SNOOP_NA		0x01
#define PM_MEM_SNOOP_NONE	0x02
#define PM_MEM_SNOOP_HIT	0x04
#define PM_MEM_SNOOP_MISS	0x08
#define PM_MEM_SNOOP_HITM	0x10
#define PM_MEM_SNOOPX_FWD	0x01
#define PM_MEM_SNOOPX_PEER	0x02

/* mem_lock */
#define PM_MEM_LOCK_NA		0x01
#define PM_MEM_LOCK_LOCKED	0x02

/* mem_dtlb */
#define PM_MEM_TLB_NA		0x01
#define PM_MEM_TLB_HIT		0x02
#define PM_MEM_TLB_MISS		0x04
#define PM_MEM_TLB_L1		0x08
#define PM_MEM_TLB_L2		0x10
#define PM_MEM_TLB_WK		0x20	/* hardware walker */
#define PM_MEM_TLB_OS		0x40	/* OS fault handler */

/* mem_lvl_num (a number, not bits) */
#define PM_MEM_LVLNUM_L1	0x01
#define PM_MEM_LVLNUM_L2	0x02
#define PM_MEM_LVLNUM_L3	0x03
#define PM_MEM_LVLNUM_L4	0x04
#define PM_MEM_LVLNUM_L2_MHB	0x05
#define PM_MEM_LVLNUM_MSC	0x06
#define PM_MEM_LVLNUM_UNC	0x08
#define PM_MEM_LVLNUM_CXL	0x09
#define PM_MEM_LVLNUM_IO	0x0a
#define PM_MEM_LVLNUM_ANY_CACHE	0x0b
#define PM_MEM_LVLNUM_LFB	0x0c
#define PM_MEM_LVLNUM_RAM	0x0d
#define PM_MEM_LVLNUM_PMEM	0x0e
#define PM_MEM_LVLNUM_NA	0x0f

/* mem_blk */
#define PM_MEM_BLK_NA		0x01
#define PM_MEM_BLK_DATA		0x02
#define PM_MEM_BLK_ADDR		0x04

/* mem_hops (a number) */
#define PM_MEM_HOPS_0		0x01	/* remote core, same node */
#define PM_MEM_HOPS_1		0x02	/* remote node, same socket */
#define PM_MEM_HOPS_2		0x03	/* remote socket, same board */
#define PM_MEM_HOPS_3		0x04	/* remote board */

struct pm_mem_src {
	unsigned op;		/* PM_MEM_OP_* bits */
	unsigned lvl;		/* PM_MEM_LVL_* bits */
	unsigned snoop;		/* PM_MEM_SNOOP_* bits */
	unsigned lock;		/* PM_MEM_LOCK_* bits */
	unsigned dtlb;		/* PM_MEM_TLB_* bits */
	unsigned lvl_num;	/* PM_MEM_LVLNUM_*, 0 if not given */
	unsigned remote;	/* 0 or 1 */
	unsigned snoopx;	/* PM_MEM_SNOOPX_* bits */
	unsigned blk;		/* PM_MEM_BLK_* bits */
	unsigned hops;		/* PM_MEM_HOPS_*, 0 if not given */
};

void pm_mem_src__decode(struct pm_mem_src *m, uint64_t data_src);
/* The inverse, for writers and the simulator (extra bits are masked). */
uint64_t pm_mem_src__encode(const struct pm_mem_src *m);

/* "load", "store", "prefetch", "exec" or "N/A" (also for no op bit). */
const char *pm_mem_src__op(const struct pm_mem_src *m);
/* The TLB access: "hit", "miss" or "N/A". */
const char *pm_mem_src__tlb(const struct pm_mem_src *m);
/* "N/A", "Yes" (locked) or "No". */
const char *pm_mem_src__lock(const struct pm_mem_src *m);
/* A level number's name ("L1", "L2 MHB", "RAM", ...); NULL for 0. */
const char *pm_mem_lvl_num__name(unsigned lvl_num);
/* "core, same node", "node, same socket", "socket, same board",
 * "board"; NULL for 0 or an unknown value. */
const char *pm_mem_hops__name(unsigned hops);

/*
 * perf's descriptions, appended to sb:
 *   tlb:   the levels joined by " or " ("L1", "L2", "Walker", "Fault"),
 *          "N/A" without one, then " hit" and/or " miss"
 *   level: from mem_lvl_num when given ("Remote ", the hops, the level,
 *          " hit"/" miss"), else mem_lvl's levels joined by " or "
 *          ("L1", "LFB/MAB", "Local RAM", "Remote RAM (1 hop)", ...)
 *   snoop: mem_snoop's and mem_snoopx's names joined by " or " ("None",
 *          "Hit", "Miss", "HitM", "Fwd", "Peer"), or "N/A"
 *   blk:   "N/A", or "Data", "Addr" joined by a space
 */
void pm_mem_src__tlb_str(const struct pm_mem_src *m, struct pm_strbuf *sb);
void pm_mem_src__level_str(const struct pm_mem_src *m, struct pm_strbuf *sb);
void pm_mem_src__snoop_str(const struct pm_mem_src *m, struct pm_strbuf *sb);
void pm_mem_src__blk_str(const struct pm_mem_src *m, struct pm_strbuf *sb);

/* perf script's style: "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK No|BLK N/A". */
void pm_mem_src__format(const struct pm_mem_src *m, struct pm_strbuf *sb);

/*
 * The decoded fields as key/value pairs in an object the caller opened:
 * "op", "tlb" (as above), "dtlb" (the TLB description), "level",
 * "lvl_num" (name or null), "snoop", "lock", "blk", "hops" (name or
 * null), "remote" (bool).
 */
void pm_mem_src__json_fields(const struct pm_mem_src *m, struct pm_json *j);

/* ---- the memory view: samples per code symbol, data source, data object */

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

/* "samples", "symbol", "op", "tlb", "level", "data"; -1 if unknown. */
int pm_mem_sort__parse(const char *s, enum pm_mem_sort *out);

struct pm_mem_opts {
	enum pm_mem_sort sort;		/* ties: more samples, then first seen */
	size_t top;			/* rows shown; 0: all */
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
uint64_t pm_mem_acc__samples(const struct pm_mem_acc *acc);
uint64_t pm_mem_acc__skipped(const struct pm_mem_acc *acc);
uint64_t pm_mem_acc__na(const struct pm_mem_acc *acc);
/* No field tells anything: each is 0 or its NA value (the kernel's
 * PERF_MEM_NA, 0x5080021, and 0 alike). */
bool pm_mem_src__is_na(const struct pm_mem_src *m);

/* Every row in the sort order, in an array the caller frees (NULL: none). */
const struct pm_mem_row **pm_mem_acc__rows(const struct pm_mem_acc *acc,
					   size_t *nr);

/*
 * The table (sorted, top applied): samples, share%, op, tlb, dtlb
 * (perf's TLB text), level, snoop, lock, blk, dso, symbol and, when any
 * sample had an address, data_dso and data_symbol.
 */
struct pm_table *pm_mem_acc__table(const struct pm_mem_acc *acc);

/*
 * {"samples": N, "skipped": N, "na": N, "rows": [{"dso", "symbol", "op", "tlb",
 * "samples", "share" (percent of all samples), "data_src" (the u64),
 * then pm_mem_src__json_fields' "dtlb", "level", "lvl_num", "snoop",
 * "lock", "blk", "hops", "remote", and "data_dso", "data_symbol" for
 * samples with an address}]}
 */
void pm_mem_acc__write_json(const struct pm_mem_acc *acc, struct pm_json *j);

/* Text: "N samples with a data source, N without", a blank line, the
 * table. CSV, TSV, HTML: the table. JSON: the document above. */
int pm_mem_acc__render(const struct pm_mem_acc *acc, FILE *out,
		       enum pm_table_format format);

#endif
