/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DCPI-style ProfileMe analysis (`pmprof profileme`): each sample's
 * ProfileMe status (decoded and classified by pmprof/profileme.h) summed
 * into rows by symbol (DSO and symbol of the sample's IP) or by
 * instruction (PC), one set of rows per SL1 value, as means of PCTR1
 * counting different things cannot be mixed. An accumulator as every
 * analysis is (pmprof/analysis.h): new, add, finish into a report, delete.
 */
#ifndef PMPROF_PROFILEME_ACC_H
#define PMPROF_PROFILEME_ACC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/analysis.h"
#include "pmprof/profileme.h"

struct pm_report;
struct pm_table;

enum pm_profileme_view {
	PM_PROFILEME_BY_SYMBOL,
	PM_PROFILEME_BY_PC,
};

enum pm_profileme_sort {
	PM_PROFILEME_SORT_SAMPLES,	/* descending, as all the rates */
	PM_PROFILEME_SORT_KILLED,	/* by killed / samples */
	PM_PROFILEME_SORT_INVALID,
	PM_PROFILEME_SORT_MISPREDICTED,
	PM_PROFILEME_SORT_TAKEN,
	PM_PROFILEME_SORT_STALLED,
	PM_PROFILEME_SORT_PCTR1,	/* by the mean */
	PM_PROFILEME_SORT_PC,		/* ascending; PAL entries after PCs */
	PM_PROFILEME_SORT_SYMBOL,	/* ascending by DSO then symbol */
};

/* "samples", "killed", "invalid", "mispr" or "mispredicted", "taken",
 * "stall" or "stalled", "pctr1", "pc", "symbol"; -1 if unknown. */
int pm_profileme_sort__parse(const char *s, enum pm_profileme_sort *out);

struct pm_profileme_opts {
	size_t sz;			/* sizeof(struct pm_profileme_opts); 0: this size */
	enum pm_profileme_view view;
	enum pm_profileme_sort sort;	/* ties: more samples, then first seen */
	const char *arch;		/* the recording's HEADER_ARCH; NULL:
					   the session's, at the first sample */
};

/* What the caller knows about one sample. */
struct pm_profileme_sample {
	const void *raw;		/* PERF_SAMPLE_RAW payload, or NULL */
	size_t raw_size;
	uint32_t attr_type;		/* the event's perf_event_attr.type */
	const char *dso;		/* NULL: unknown */
	const char *symbol;		/* NULL: unknown ("sym+0x1c" in the pc view) */
	const char *srcline;		/* pc view: "file.c:12", or NULL */
};

struct pm_profileme_row {
	char *dso;
	char *symbol;
	char *srcline;
	bool pal;		/* pc view: a PAL address ... */
	uint64_t pc;		/* ... at this entry offset; else the PC */
	uint64_t samples;
	uint64_t killed;
	uint64_t invalid;
	uint64_t mispredicted;
	uint64_t taken;
	uint64_t stalled;
	uint64_t pctr1_sum;
	uint64_t traps[PM_TRAP__NR];
	size_t seq;		/* order of first sample, for stable ties */
};

/* Count one sample's class into a row (samples, killed, ..., traps). */
void pm_profileme_row__add(struct pm_profileme_row *r,
			   const struct pm_profileme_class *cls);
/* Add the counts of row o (NULL: none) to r's (names and keys stay). */
void pm_profileme_row__merge(struct pm_profileme_row *r,
			     const struct pm_profileme_row *o);
/* The row's traps as "dtb1=3 replay=1" (most first, ties in the enum's
 * order), appended to sb. */
void pm_profileme_row__traps(const struct pm_profileme_row *r,
			     struct pm_strbuf *sb);

struct pm_profileme_acc;

/* opts NULL: by symbol, by samples, the arch set later. */
struct pm_profileme_acc *pm_profileme_acc__new(const struct pm_profileme_opts *opts);
void pm_profileme_acc__delete(struct pm_profileme_acc *acc);
/* The recording's HEADER_ARCH, if opts did not say (a pipe brings it late). */
void pm_profileme_acc__set_arch(struct pm_profileme_acc *acc, const char *arch);

/* Add a sample: PM_PROFILEME_OK, or why it was skipped (and counted). */
enum pm_profileme_status pm_profileme_acc__add(struct pm_profileme_acc *acc,
					       const struct pm_profileme_sample *s);

uint64_t pm_profileme_acc__samples(const struct pm_profileme_acc *acc);
uint64_t pm_profileme_acc__skipped(const struct pm_profileme_acc *acc);
uint64_t pm_profileme_acc__skipped_by(const struct pm_profileme_acc *acc,
				      enum pm_profileme_status why);

/* Rows of one SL1 value in the sort order, in an array the caller frees;
 * NULL and *nr 0 when none. */
const struct pm_profileme_row **
pm_profileme_acc__rows(const struct pm_profileme_acc *acc, unsigned sl1,
		       size_t *nr);

/*
 * The table of one SL1 value (sorted), or NULL when no sample had that
 * SL1. Columns:
 * samples, killed%, invalid%, mispr%, taken%, stall%, pctr1 (the mean),
 * then dso and symbol, or pc, dso, symbol (and srcline when a row has
 * one), then traps ("dtb1=3 replay=1", most first). JSON has instead:
 * dso, symbol, pc and srcline (pc view), samples, killed, invalid,
 * mispredicted, taken, stalled (counts), pctr1_sum, pctr1_mean and
 * "traps": {name: n} for the kinds seen, in the enum's order. Its
 * summary: sl1, pctr1 (what PCTR1 counted); its caption "pctr1 counts
 * <what>:".
 */
struct pm_table *pm_profileme_acc__table(const struct pm_profileme_acc *acc,
					 unsigned sl1);

/*
 * The report: summary samples, skipped, view ("symbol" or "pc"); the note
 * "N ProfileMe samples, N without ProfileMe data"; the tables above of
 * the SL1 values seen, under "tables" in JSON; CSV and TSV one table with
 * an sl1 column first (its header alone when no sample counted).
 */
int pm_profileme_acc__finish(struct pm_profileme_acc *acc,
			     struct pm_report **out);

/*
 * Over a session: the symbol view names the sample's IP; the instruction
 * view the profiled PC (PMPC) as symbol+offset and, when DWARF has it,
 * file:line. Finishing says on the report why nothing was counted in a
 * recording that is not Alpha's.
 */
extern const struct pm_analysis pm_profileme_analysis;

#endif
