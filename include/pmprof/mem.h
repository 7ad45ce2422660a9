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
/* No field tells anything: each is 0 or its NA value (the kernel's
 * PERF_MEM_NA, 0x5080021, and 0 alike). */
bool pm_mem_src__is_na(const struct pm_mem_src *m);

/*
 * The decoded fields by name, in one list that the memory view's columns
 * and the JSON below both come from: "op", "tlb" (as above), "dtlb" (the
 * TLB description), "level", "lvl_num" (name or null), "snoop", "lock",
 * "blk", "hops" (name or null), "remote" (a flag). `detail` fields are
 * JSON's only (the level text already tells them).
 */
struct pm_mem_field {
	const char *name;
	bool detail;
	bool is_flag;		/* a yes/no: flag() */
	/* The text (static, or appended to sb and returned), NULL: none. */
	const char *(*text)(const struct pm_mem_src *m, struct pm_strbuf *sb);
	bool (*flag)(const struct pm_mem_src *m);
};

#define PM_MEM_NR_FIELDS 10
extern const struct pm_mem_field pm_mem_fields[PM_MEM_NR_FIELDS];

/* The fields as key/value pairs in an object the caller opened. */
void pm_mem_src__json_fields(const struct pm_mem_src *m, struct pm_json *j);

#endif
