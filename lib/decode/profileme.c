// SPDX-License-Identifier: GPL-2.0
/*
 * Alpha ProfileMe payloads: checks, field decoding, trap naming and the
 * dump lines. The rules are those of the perf tool series (see
 * docs in the header); the bit layouts are the EV67/EV68 registers'.
 */
#include <inttypes.h>
#include <string.h>

#include "pmprof/abi.h"
#include "pmprof/bytes.h"
#include "pmprof/profileme.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

static const char *const status_str[PM_PROFILEME__NR_STATUS] = {
	[PM_PROFILEME_OK]		= "ProfileMe sample",
	[PM_PROFILEME_NOT_ALPHA]	= "not an Alpha recording",
	[PM_PROFILEME_NOT_CPU_EVENT]	= "not a cpu PMU event",
	[PM_PROFILEME_NO_RAW]		= "no raw data",
	[PM_PROFILEME_SHORT]		= "raw data under 28 bytes",
	[PM_PROFILEME_VERSION0]		= "ProfileMe version 0",
};

const char *pm_profileme_status__str(enum pm_profileme_status s)
{
	if ((unsigned)s < PM_PROFILEME__NR_STATUS)
		return status_str[s];
	return "?";
}

bool pm_profileme__arch_ok(const char *arch)
{
	return arch && !strcmp(arch, PM_PROFILEME_ARCH);
}

bool pm_profileme__event_ok(uint32_t attr_type)
{
	return attr_type == PM_TYPE_HARDWARE || attr_type == PM_TYPE_RAW;
}

enum pm_profileme_status pm_profileme__parse(struct pm_profileme *pm,
					     const void *raw, size_t size)
{
	const uint8_t *p = raw;

	memset(pm, 0, sizeof(*pm));
	if (!raw || !size)
		return PM_PROFILEME_NO_RAW;
	if (size < PM_PROFILEME_MIN_SIZE)
		return PM_PROFILEME_SHORT;
	/*
	 * The payload sits 4 bytes past an 8-byte boundary in the record and
	 * is little endian whatever the host: load each field by bytes.
	 */
	pm->version = pm_le32(p);
	pm->pmpc = pm_le64(p + 4);
	pm->i_stat = pm_le64(p + 12);
	pm->pctr_ctl = pm_le64(p + 20);
	if (pm->version < 1)
		return PM_PROFILEME_VERSION0;
	return PM_PROFILEME_OK;
}

enum pm_profileme_status pm_profileme__decode(struct pm_profileme *pm,
					      const char *arch,
					      uint32_t attr_type,
					      const void *raw, size_t size)
{
	memset(pm, 0, sizeof(*pm));
	if (!pm_profileme__arch_ok(arch))
		return PM_PROFILEME_NOT_ALPHA;
	if (!pm_profileme__event_ok(attr_type))
		return PM_PROFILEME_NOT_CPU_EVENT;
	return pm_profileme__parse(pm, raw, size);
}

static const struct {
	const char *name;
	const char *long_name;
} traps[PM_TRAP__NR + 1] = {
	[PM_TRAP_REPLAY]	= { "replay", "replay" },
	[PM_TRAP_DTB2_3L]	= { "dtb2-3l", "DTB double miss 3-level" },
	[PM_TRAP_DTB2_4L]	= { "dtb2-4l", "DTB double miss 4-level" },
	[PM_TRAP_FEN]		= { "fen", "FP disabled" },
	[PM_TRAP_UNALIGN]	= { "unalign", "unaligned" },
	[PM_TRAP_DTB1]		= { "dtb1", "DTB single miss" },
	[PM_TRAP_DFAULT]	= { "dfault", "Dstream fault" },
	[PM_TRAP_OPCDEC]	= { "opcdec", "OPCDEC" },
	[PM_TRAP_MCHK]		= { "mchk", "machine check" },
	[PM_TRAP_ARITH]		= { "arith", "arithmetic" },
	[PM_TRAP_MT_FPCR]	= { "mt_fpcr", "MT_FPCR" },
	[PM_TRAP_RESET]		= { "reset", "reset" },
	[PM_TRAP_OTHER]		= { "other", "other" },
	[PM_TRAP_IACV]		= { "iacv", "Istream access violation" },
	[PM_TRAP_ITBMISS]	= { "itbmiss", "ITB miss" },
	[PM_TRAP_INTR]		= { "intr", "interrupt" },
	[PM_TRAP_NONE]		= { "none", "none" },
};

const char *pm_profileme_trap__name(enum pm_profileme_trap t)
{
	return (unsigned)t <= PM_TRAP_NONE ? traps[t].name : "?";
}

const char *pm_profileme_trap__long_name(enum pm_profileme_trap t)
{
	return (unsigned)t <= PM_TRAP_NONE ? traps[t].long_name : "?";
}

enum pm_profileme_trap pm_profileme_trap__from_type(unsigned trap_type)
{
	/* TRAP_TYPE values 1, 9, 11 and 13 have no name. */
	static const signed char by_type[16] = {
		PM_TRAP_REPLAY, -1, PM_TRAP_DTB2_3L, PM_TRAP_DTB2_4L,
		PM_TRAP_FEN, PM_TRAP_UNALIGN, PM_TRAP_DTB1, PM_TRAP_DFAULT,
		PM_TRAP_OPCDEC, -1, PM_TRAP_MCHK, -1,
		PM_TRAP_ARITH, -1, PM_TRAP_MT_FPCR, PM_TRAP_RESET,
	};

	if (trap_type >= 16 || by_type[trap_type] < 0)
		return PM_TRAP_OTHER;
	return (enum pm_profileme_trap)by_type[trap_type];
}

enum pm_profileme_trap pm_profileme__redirect(const struct pm_profileme *pm)
{
	/* Redirect traps leave TRAP_TYPE alone: PMPC names the PAL entry. */
	if (!pm_profileme__is_pal(pm))
		return PM_TRAP_NONE;
	switch (pm_profileme__pal_offset(pm)) {
	case 0x481: return PM_TRAP_IACV;
	case 0x581: return PM_TRAP_ITBMISS;
	case 0x681: return PM_TRAP_INTR;
	default: return PM_TRAP_NONE;
	}
}

const char *pm_profileme_pctr1__name(unsigned sl1)
{
	static const char *const names[4] = {
		"cycles", "retire delay", "bcache misses", "mbox replays",
	};

	return sl1 < 4 ? names[sl1] : "?";
}

void pm_profileme__classify(const struct pm_profileme *pm,
			    struct pm_profileme_class *cls)
{
	enum pm_profileme_trap redirect = pm_profileme__redirect(pm);

	memset(cls, 0, sizeof(*cls));
	cls->killed = pm_profileme__killed(pm);
	cls->trapped = pm_profileme__trapped(pm);
	cls->invalid = !cls->trapped && !pm_profileme__val(pm);
	cls->taken = pm_profileme__tak(pm);
	cls->stalled = pm_profileme__stalled(pm);
	cls->sl1 = pm_profileme__sl1(pm);
	cls->pctr1 = pm_profileme__pctr1(pm);
	cls->trap = PM_TRAP_NONE;
	if (redirect != PM_TRAP_NONE)
		cls->trap = redirect;
	else if (cls->trapped && pm_profileme__mis(pm))
		cls->mispredicted = true;	/* a mispredict has no trap type */
	else if (cls->trapped)
		cls->trap = pm_profileme_trap__from_type(pm_profileme__trap_type(pm));
}

void pm_profileme__pc_key(const struct pm_profileme *pm, struct pm_strbuf *sb)
{
	if (pm_profileme__is_pal(pm))
		pm_strbuf__addf(sb, "PAL+0x%x", pm_profileme__pal_offset(pm));
	else
		pm_strbuf__addf(sb, "0x%016" PRIx64, pm_profileme__pc(pm));
}

void pm_profileme__dump(const struct pm_profileme *pm, struct pm_strbuf *sb)
{
	struct pm_profileme_class cls;
	const char *where = pm_profileme__is_pal(pm) ? "PAL" :
			    pm_profileme__is_kernel(pm) ? "kernel" : "user";

	pm_profileme__classify(pm, &cls);
	/* "mispredicted" whenever a live TRP has MIS, redirect or not. */
	pm_strbuf__addf(sb, "ProfileMe PMPC:\t%016" PRIx64 " %s trap %s%s\n",
			pm->pmpc, where, pm_profileme_trap__long_name(cls.trap),
			cls.trapped && pm_profileme__mis(pm) ?
			" mispredicted" : "");
	pm_strbuf__addf(sb, "ProfileMe I_STAT:\t%016" PRIx64
			" TRP %u MIS %u LSO %u TrapType %u ICM %u OVR %u\n",
			pm->i_stat, pm_profileme__trp(pm), pm_profileme__mis(pm),
			pm_profileme__lso(pm), pm_profileme__trap_type(pm),
			pm_profileme__icm(pm), pm_profileme__ovr(pm));
	pm_strbuf__addf(sb, "ProfileMe PCTR_CTL:\t%016" PRIx64
			" VAL %u TAK %u Stalled %u Killed %u SL0 %u SL1 %u"
			" PCTR0 %" PRIu32 " PCTR1 %" PRIu32 " (%s)\n",
			pm->pctr_ctl, pm_profileme__val(pm), pm_profileme__tak(pm),
			pm_profileme__stalled(pm), pm_profileme__killed(pm),
			pm_profileme__sl0(pm), pm_profileme__sl1(pm),
			pm_profileme__pctr0(pm), pm_profileme__pctr1(pm),
			pm_profileme_pctr1__name(pm_profileme__sl1(pm)));
}
