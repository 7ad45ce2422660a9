// SPDX-License-Identifier: GPL-2.0
/* perf_mem_data_src: the sample's data source, field by field, named. */
#include <stdbool.h>
#include <stddef.h>

#include "pmprof/json.h"
#include "pmprof/mem.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

#define FIELD(v, shift, bits) ((unsigned)((v) >> (shift)) & ((1u << (bits)) - 1))

void pm_mem_src__decode(struct pm_mem_src *m, uint64_t v)
{
	m->op      = FIELD(v, PM_MEM_OP_SHIFT, 5);
	m->lvl     = FIELD(v, PM_MEM_LVL_SHIFT, 14);
	m->snoop   = FIELD(v, PM_MEM_SNOOP_SHIFT, 5);
	m->lock    = FIELD(v, PM_MEM_LOCK_SHIFT, 2);
	m->dtlb    = FIELD(v, PM_MEM_TLB_SHIFT, 7);
	m->lvl_num = FIELD(v, PM_MEM_LVLNUM_SHIFT, 4);
	m->remote  = FIELD(v, PM_MEM_REMOTE_SHIFT, 1);
	m->snoopx  = FIELD(v, PM_MEM_SNOOPX_SHIFT, 2);
	m->blk     = FIELD(v, PM_MEM_BLK_SHIFT, 3);
	m->hops    = FIELD(v, PM_MEM_HOPS_SHIFT, 3);
}

static uint64_t put(unsigned v, unsigned shift, unsigned bits)
{
	return (uint64_t)(v & ((1u << bits) - 1)) << shift;
}

uint64_t pm_mem_src__encode(const struct pm_mem_src *m)
{
	return put(m->op, PM_MEM_OP_SHIFT, 5) |
	       put(m->lvl, PM_MEM_LVL_SHIFT, 14) |
	       put(m->snoop, PM_MEM_SNOOP_SHIFT, 5) |
	       put(m->lock, PM_MEM_LOCK_SHIFT, 2) |
	       put(m->dtlb, PM_MEM_TLB_SHIFT, 7) |
	       put(m->lvl_num, PM_MEM_LVLNUM_SHIFT, 4) |
	       put(m->remote, PM_MEM_REMOTE_SHIFT, 1) |
	       put(m->snoopx, PM_MEM_SNOOPX_SHIFT, 2) |
	       put(m->blk, PM_MEM_BLK_SHIFT, 3) |
	       put(m->hops, PM_MEM_HOPS_SHIFT, 3);
}

/* The first bit set wins, in the order perf checks them. */
const char *pm_mem_src__op(const struct pm_mem_src *m)
{
	if (m->op & PM_MEM_OP_NA)
		return "N/A";
	if (m->op & PM_MEM_OP_LOAD)
		return "load";
	if (m->op & PM_MEM_OP_STORE)
		return "store";
	if (m->op & PM_MEM_OP_PFETCH)
		return "prefetch";
	if (m->op & PM_MEM_OP_EXEC)
		return "exec";
	return "N/A";
}

static const char *op_upper(const struct pm_mem_src *m)
{
	if (m->op & PM_MEM_OP_NA)
		return "N/A";
	if (m->op & PM_MEM_OP_LOAD)
		return "LOAD";
	if (m->op & PM_MEM_OP_STORE)
		return "STORE";
	if (m->op & PM_MEM_OP_PFETCH)
		return "PFETCH";
	if (m->op & PM_MEM_OP_EXEC)
		return "EXEC";
	return "No";
}

const char *pm_mem_src__tlb(const struct pm_mem_src *m)
{
	if (m->dtlb & PM_MEM_TLB_HIT)
		return "hit";
	if (m->dtlb & PM_MEM_TLB_MISS)
		return "miss";
	return "N/A";
}

const char *pm_mem_src__lock(const struct pm_mem_src *m)
{
	if (m->lock & PM_MEM_LOCK_NA)
		return "N/A";
	return m->lock & PM_MEM_LOCK_LOCKED ? "Yes" : "No";
}

const char *pm_mem_lvl_num__name(unsigned n)
{
	static const char *const names[16] = {
		[PM_MEM_LVLNUM_L1] = "L1",
		[PM_MEM_LVLNUM_L2] = "L2",
		[PM_MEM_LVLNUM_L3] = "L3",
		[PM_MEM_LVLNUM_L4] = "L4",
		[PM_MEM_LVLNUM_L2_MHB] = "L2 MHB",
		[PM_MEM_LVLNUM_MSC] = "Memory-side Cache",
		[7] = "L7",	/* reserved: perf prints the number */
		[PM_MEM_LVLNUM_UNC] = "Uncached",
		[PM_MEM_LVLNUM_CXL] = "CXL",
		[PM_MEM_LVLNUM_IO] = "I/O",
		[PM_MEM_LVLNUM_ANY_CACHE] = "Any cache",
		[PM_MEM_LVLNUM_LFB] = "LFB/MAB",
		[PM_MEM_LVLNUM_RAM] = "RAM",
		[PM_MEM_LVLNUM_PMEM] = "PMEM",
		[PM_MEM_LVLNUM_NA] = "N/A",
	};

	return n < 16 ? names[n] : NULL;
}

const char *pm_mem_hops__name(unsigned hops)
{
	static const char *const names[] = {
		NULL, "core, same node", "node, same socket",
		"socket, same board", "board",
	};

	return hops < PM_ARRAY_SIZE(names) ? names[hops] : NULL;
}

/* Names of the set bits of `bits`, bit 0 first, joined by " or ". */
static bool add_bit_names(struct pm_strbuf *sb, unsigned bits,
			  const char *const *names, size_t nr, bool more)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (!(bits & (1u << i)) || !names[i])
			continue;
		if (more)
			pm_strbuf__adds(sb, " or ");
		pm_strbuf__adds(sb, names[i]);
		more = true;
	}
	return more;
}

void pm_mem_src__tlb_str(const struct pm_mem_src *m, struct pm_strbuf *sb)
{
	/* HIT and MISS qualify the levels; NA is what no level means. */
	static const char *const levels[7] = {
		NULL, NULL, NULL, "L1", "L2", "Walker", "Fault",
	};

	if (!add_bit_names(sb, m->dtlb, levels, 7, false))
		pm_strbuf__adds(sb, "N/A");
	if (m->dtlb & PM_MEM_TLB_HIT)
		pm_strbuf__adds(sb, " hit");
	if (m->dtlb & PM_MEM_TLB_MISS)
		pm_strbuf__adds(sb, " miss");
}

void pm_mem_src__level_str(const struct pm_mem_src *m, struct pm_strbuf *sb)
{
	static const char *const levels[14] = {
		NULL, NULL, NULL, "L1", "LFB/MAB", "L2", "L3", "Local RAM",
		"Remote RAM (1 hop)", "Remote RAM (2 hops)",
		"Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O",
		"Uncached",
	};
	const char *hit = m->lvl & PM_MEM_LVL_HIT ? " hit" :
			  m->lvl & PM_MEM_LVL_MISS ? " miss" : "";

	/* The level number, when given, is the newer and better encoding. */
	if (m->lvl_num && m->lvl_num != PM_MEM_LVLNUM_NA) {
		if (m->remote)
			pm_strbuf__adds(sb, "Remote ");
		if (pm_mem_hops__name(m->hops))
			pm_strbuf__addf(sb, "%s ", pm_mem_hops__name(m->hops));
		pm_strbuf__adds(sb, pm_mem_lvl_num__name(m->lvl_num));
		pm_strbuf__adds(sb, hit);
		return;
	}
	if (add_bit_names(sb, m->lvl, levels, 14, false))
		pm_strbuf__adds(sb, hit);
	else
		pm_strbuf__adds(sb, "N/A");
}

void pm_mem_src__snoop_str(const struct pm_mem_src *m, struct pm_strbuf *sb)
{
	static const char *const snoop[5] = { "N/A", "None", "Hit", "Miss", "HitM" };
	static const char *const snoopx[2] = { "Fwd", "Peer" };
	bool more;

	more = add_bit_names(sb, m->snoop, snoop, 5, false);
	more = add_bit_names(sb, m->snoopx, snoopx, 2, more);
	if (!more)
		pm_strbuf__adds(sb, "N/A");
}

void pm_mem_src__blk_str(const struct pm_mem_src *m, struct pm_strbuf *sb)
{
	if (!m->blk || (m->blk & PM_MEM_BLK_NA)) {
		pm_strbuf__adds(sb, "N/A");
		return;
	}
	if (m->blk & PM_MEM_BLK_DATA)
		pm_strbuf__adds(sb, "Data");
	if (m->blk & PM_MEM_BLK_ADDR)
		pm_strbuf__adds(sb, m->blk & PM_MEM_BLK_DATA ? " Addr" : "Addr");
}

void pm_mem_src__format(const struct pm_mem_src *m, struct pm_strbuf *sb)
{
	pm_strbuf__addf(sb, "|OP %s|LVL ", op_upper(m));
	pm_mem_src__level_str(m, sb);
	pm_strbuf__adds(sb, "|SNP ");
	pm_mem_src__snoop_str(m, sb);
	pm_strbuf__adds(sb, "|TLB ");
	pm_mem_src__tlb_str(m, sb);
	pm_strbuf__addf(sb, "|LCK %s|BLK ", pm_mem_src__lock(m));
	pm_mem_src__blk_str(m, sb);
}

/* The description-building fields, as text getters for the field list. */
static const char *op_text(const struct pm_mem_src *m, struct pm_strbuf *sb)
{
	(void)sb;
	return pm_mem_src__op(m);
}

static const char *tlb_text(const struct pm_mem_src *m, struct pm_strbuf *sb)
{
	(void)sb;
	return pm_mem_src__tlb(m);
}

static const char *lock_text(const struct pm_mem_src *m, struct pm_strbuf *sb)
{
	(void)sb;
	return pm_mem_src__lock(m);
}

static const char *lvl_num_text(const struct pm_mem_src *m, struct pm_strbuf *sb)
{
	(void)sb;
	return pm_mem_lvl_num__name(m->lvl_num);
}

static const char *hops_text(const struct pm_mem_src *m, struct pm_strbuf *sb)
{
	(void)sb;
	return pm_mem_hops__name(m->hops);
}

#define DESCRIBED(name, fn)						\
	static const char *name(const struct pm_mem_src *m,		\
				struct pm_strbuf *sb)			\
	{								\
		size_t at = sb->len;					\
									\
		fn(m, sb);						\
		return sb->buf + at;					\
	}
DESCRIBED(dtlb_text, pm_mem_src__tlb_str)
DESCRIBED(level_text, pm_mem_src__level_str)
DESCRIBED(snoop_text, pm_mem_src__snoop_str)
DESCRIBED(blk_text, pm_mem_src__blk_str)

static bool remote_flag(const struct pm_mem_src *m)
{
	return m->remote;
}

const struct pm_mem_field pm_mem_fields[PM_MEM_NR_FIELDS] = {
	{ .name = "op", .text = op_text },
	{ .name = "tlb", .text = tlb_text },
	{ .name = "dtlb", .text = dtlb_text },
	{ .name = "level", .text = level_text },
	{ .name = "lvl_num", .detail = true, .text = lvl_num_text },
	{ .name = "snoop", .text = snoop_text },
	{ .name = "lock", .text = lock_text },
	{ .name = "blk", .text = blk_text },
	{ .name = "hops", .detail = true, .text = hops_text },
	{ .name = "remote", .detail = true, .is_flag = true, .flag = remote_flag },
};

void pm_mem_src__json_fields(const struct pm_mem_src *m, struct pm_json *j)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	size_t i;

	for (i = 0; i < PM_MEM_NR_FIELDS; i++) {
		const struct pm_mem_field *f = &pm_mem_fields[i];

		pm_strbuf__reset(&sb);
		if (f->is_flag)
			pm_json__kv_bool(j, f->name, f->flag(m));
		else
			pm_json__kv_string(j, f->name, f->text(m, &sb));
	}
	pm_strbuf__release(&sb);
}

bool pm_mem_src__is_na(const struct pm_mem_src *m)
{
	return (m->op | PM_MEM_OP_NA) == PM_MEM_OP_NA &&
	       (m->lvl | PM_MEM_LVL_NA) == PM_MEM_LVL_NA &&
	       (!m->lvl_num || m->lvl_num == PM_MEM_LVLNUM_NA) &&
	       (m->snoop | PM_MEM_SNOOP_NA) == PM_MEM_SNOOP_NA && !m->snoopx &&
	       (m->lock | PM_MEM_LOCK_NA) == PM_MEM_LOCK_NA &&
	       (m->dtlb | PM_MEM_TLB_NA) == PM_MEM_TLB_NA &&
	       (m->blk | PM_MEM_BLK_NA) == PM_MEM_BLK_NA && !m->hops && !m->remote;
}
