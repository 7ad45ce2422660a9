/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Alpha ProfileMe: the PERF_SAMPLE_RAW payload of the Alpha cpu PMU
 * (EV67 and later) decoded into its register fields, classified by the
 * rules of the perf tool series (stale bits of killed instructions, trap
 * names from TRAP_TYPE and from the PALcode entry offset). The sums per
 * symbol or per instruction, in the style of DCPI, are the analysis of
 * pmprof/profileme_acc.h.
 *
 * The payload is little endian on every host: version (u32) then PMPC,
 * I_STAT and PCTR_CTL (u64 each, packed right after the u32): 28 bytes in
 * version 1. Later versions only append, so anything from 28 bytes and
 * version 1 up decodes; the rest is ignored.
 */
#ifndef PMPROF_PROFILEME_H
#define PMPROF_PROFILEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pm_strbuf;

#define PM_PROFILEME_MIN_SIZE	28
#define PM_PROFILEME_ARCH	"alpha"	/* HEADER_ARCH of Alpha recordings */

/* The payload, in host order. */
struct pm_profileme {
	uint32_t version;
	uint64_t pmpc;
	uint64_t i_stat;	/* bits 40:30 */
	uint64_t pctr_ctl;	/* bits 47:0 */
};

/* Why a sample was not decoded (0: it was). */
enum pm_profileme_status {
	PM_PROFILEME_OK = 0,
	PM_PROFILEME_NOT_ALPHA,		/* the recording's arch is not alpha */
	PM_PROFILEME_NOT_CPU_EVENT,	/* attr type not HARDWARE (0) or RAW (4) */
	PM_PROFILEME_NO_RAW,		/* no raw data */
	PM_PROFILEME_SHORT,		/* raw data under 28 bytes */
	PM_PROFILEME_VERSION0,		/* version 0 */
	PM_PROFILEME__NR_STATUS,
};

const char *pm_profileme_status__str(enum pm_profileme_status s);

/* "alpha" only; NULL (no HEADER_ARCH) is not Alpha. */
bool pm_profileme__arch_ok(const char *arch);
/* Only cpu PMU events carry ProfileMe status: a tracepoint's raw data or
 * another PMU's can look valid. */
bool pm_profileme__event_ok(uint32_t attr_type);

/* Copy the payload out (any alignment) and check its size and version. */
enum pm_profileme_status pm_profileme__parse(struct pm_profileme *pm,
					     const void *raw, size_t size);
/* All the checks, in the order: arch, event type, raw, size, version. */
enum pm_profileme_status pm_profileme__decode(struct pm_profileme *pm,
					      const char *arch,
					      uint32_t attr_type,
					      const void *raw, size_t size);

/* I_STAT fields. */
static inline unsigned pm_profileme__ovr(const struct pm_profileme *pm)
{ return (unsigned)(pm->i_stat >> 30) & 0x7; }
static inline unsigned pm_profileme__icm(const struct pm_profileme *pm)
{ return (unsigned)(pm->i_stat >> 33) & 0x1; }
static inline unsigned pm_profileme__trap_type(const struct pm_profileme *pm)
{ return (unsigned)(pm->i_stat >> 34) & 0xf; }
static inline unsigned pm_profileme__lso(const struct pm_profileme *pm)
{ return (unsigned)(pm->i_stat >> 38) & 0x1; }
static inline unsigned pm_profileme__trp(const struct pm_profileme *pm)
{ return (unsigned)(pm->i_stat >> 39) & 0x1; }
static inline unsigned pm_profileme__mis(const struct pm_profileme *pm)
{ return (unsigned)(pm->i_stat >> 40) & 0x1; }

/* PCTR_CTL fields. */
static inline unsigned pm_profileme__tak(const struct pm_profileme *pm)
{ return (unsigned)pm->pctr_ctl & 0x1; }
static inline unsigned pm_profileme__val(const struct pm_profileme *pm)
{ return (unsigned)(pm->pctr_ctl >> 1) & 0x1; }
static inline unsigned pm_profileme__sl1(const struct pm_profileme *pm)
{ return (unsigned)(pm->pctr_ctl >> 2) & 0x3; }
static inline unsigned pm_profileme__sl0(const struct pm_profileme *pm)
{ return (unsigned)(pm->pctr_ctl >> 4) & 0x1; }
static inline uint32_t pm_profileme__pctr1(const struct pm_profileme *pm)
{ return (uint32_t)(pm->pctr_ctl >> 6) & 0xfffff; }
static inline unsigned pm_profileme__killed(const struct pm_profileme *pm)
{ return (unsigned)(pm->pctr_ctl >> 26) & 0x1; }
static inline unsigned pm_profileme__stalled(const struct pm_profileme *pm)
{ return (unsigned)(pm->pctr_ctl >> 27) & 0x1; }
static inline uint32_t pm_profileme__pctr0(const struct pm_profileme *pm)
{ return (uint32_t)(pm->pctr_ctl >> 28) & 0xfffff; }

/* PMPC: the PC is bits 63:2; bit 0 marks a PALcode address; PC bit 63 a
 * kernel one. */
static inline uint64_t pm_profileme__pc(const struct pm_profileme *pm)
{ return pm->pmpc & ~(uint64_t)3; }
static inline bool pm_profileme__is_pal(const struct pm_profileme *pm)
{ return pm->pmpc & 1; }
static inline bool pm_profileme__is_kernel(const struct pm_profileme *pm)
{ return pm->pmpc >> 63; }
/* The PALcode entry offset, PMPC & 0x7fff (PAL bit included: 0x481). */
static inline unsigned pm_profileme__pal_offset(const struct pm_profileme *pm)
{ return (unsigned)pm->pmpc & 0x7fff; }

/* TRP is stale for an instruction killed before it was mapped (EV7), and
 * MIS and TRAP_TYPE with it. */
static inline bool pm_profileme__trapped(const struct pm_profileme *pm)
{ return pm_profileme__trp(pm) && !pm_profileme__killed(pm); }

/*
 * Trap kinds as the aggregation counts them, in the order they are listed:
 * the TRAP_TYPE names, "other" for the unnamed types (1, 9, 11, 13), then
 * the redirect traps named from the PALcode entry offset.
 */
enum pm_profileme_trap {
	PM_TRAP_REPLAY,
	PM_TRAP_DTB2_3L,
	PM_TRAP_DTB2_4L,
	PM_TRAP_FEN,
	PM_TRAP_UNALIGN,
	PM_TRAP_DTB1,
	PM_TRAP_DFAULT,
	PM_TRAP_OPCDEC,
	PM_TRAP_MCHK,
	PM_TRAP_ARITH,
	PM_TRAP_MT_FPCR,
	PM_TRAP_RESET,
	PM_TRAP_OTHER,
	PM_TRAP_IACV,		/* PAL entry 0x481 */
	PM_TRAP_ITBMISS,	/* PAL entry 0x581 */
	PM_TRAP_INTR,		/* PAL entry 0x681 */
	PM_TRAP__NR,
	PM_TRAP_NONE = PM_TRAP__NR,
};

/* "dtb1", "iacv", ... and "none"; the long names: "DTB single miss". */
const char *pm_profileme_trap__name(enum pm_profileme_trap t);
const char *pm_profileme_trap__long_name(enum pm_profileme_trap t);
/* A TRAP_TYPE value (0-15) as a trap kind: named or PM_TRAP_OTHER. */
enum pm_profileme_trap pm_profileme_trap__from_type(unsigned trap_type);
/* The redirect trap at a PAL address, or PM_TRAP_NONE. */
enum pm_profileme_trap pm_profileme__redirect(const struct pm_profileme *pm);

/* What PCTR1 counts for an SL1 value: "cycles", "retire delay",
 * "bcache misses", "mbox replays". */
const char *pm_profileme_pctr1__name(unsigned sl1);

/* One sample's contribution to its row. */
struct pm_profileme_class {
	bool killed;		/* PM_KILLED_BM */
	bool trapped;		/* TRP and not killed */
	bool invalid;		/* not trapped and VAL clear */
	bool mispredicted;	/* trapped, MIS, and no redirect trap */
	bool taken;		/* TAK */
	bool stalled;		/* PM_STALLED */
	unsigned sl1;
	uint32_t pctr1;
	/* A redirect trap; else, trapped and not a mispredict, the
	 * TRAP_TYPE's kind; else PM_TRAP_NONE. */
	enum pm_profileme_trap trap;
};

void pm_profileme__classify(const struct pm_profileme *pm,
			    struct pm_profileme_class *cls);

/* The per-instruction row key: "0x" and 16 hex digits of the PC (low two
 * bits clear), or "PAL+0x481" for a PAL address. Appended to sb. */
void pm_profileme__pc_key(const struct pm_profileme *pm, struct pm_strbuf *sb);

/*
 * The lines `dump` prints under a ProfileMe sample, appended to sb, one
 * per register with its hex value and then its fields (as perf does for
 * AMD IBS):
 *   ProfileMe PMPC:	<hex> PAL|kernel|user trap <name>[ mispredicted]
 *   ProfileMe I_STAT:	<hex> TRP n MIS n LSO n TrapType n ICM n OVR n
 *   ProfileMe PCTR_CTL:	<hex> VAL n TAK n Stalled n Killed n SL0 n SL1 n
 *                      PCTR0 n PCTR1 n (<what PCTR1 counted>)
 */
void pm_profileme__dump(const struct pm_profileme *pm, struct pm_strbuf *sb);

#endif
