/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Annotation (`pmprof annotate`): a function's disassembly with what was
 * sampled at each instruction, as perf annotate and DCPI's dcpilist show
 * it. An accumulator: create it with options, add every sample the
 * session resolved (and the records the windows need), finish into one
 * table per annotated function.
 *
 * What an instruction gets:
 *  - samples and period of each event at it, and its share of the
 *    function's period (perf annotate's "local period" percent);
 *  - in a recording with counter groups read at each sample (a metrics
 *    recording), the windows (pmprof/metrics.h, with its discard rule)
 *    that close at it and each counter's count in them. A window is
 *    charged to the instruction where its closing sample's interrupt
 *    landed: with skid that is usually a few instructions past the ones
 *    that caused the events (the report's note says so once);
 *  - for Alpha ProfileMe samples (pmprof/profileme.h), the status counts
 *    of `profileme --pc` at the profiled instruction (PMPC, which has no
 *    skid), one table per SL1 value as PCTR1 counts a different thing in
 *    each. Samples at PALcode addresses belong to no function: counted
 *    apart.
 * Source lines (DWARF, libdw) come before the instructions they compiled
 * to, with the totals of every instruction of that line in the function.
 */
#ifndef PMPROF_ANNOTATE_H
#define PMPROF_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmprof/analysis.h"
#include "pmprof/disasm.h"
#include "pmprof/metrics.h"
#include "pmprof/session.h"

struct pm_error;
struct pm_table;

struct pm_annotate_opts {
	size_t sz;		/* sizeof(struct pm_annotate_opts); 0: this size */
	const char *symbol;	/* only functions of this name (as shown, or
				   as in the file); NULL: every function
				   with samples */
	const char *dso;	/* only functions of this DSO (short name,
				   "libc.so.6", or as recorded); NULL: any */
	size_t top;		/* the first N functions (most samples
				   first); 0: all */
	bool no_source;		/* no source lines */
	enum pm_metrics_mode mode;	/* windows: none, discard, auto */
	struct pm_disasm_opts disasm;
};

struct pm_annotate;

struct pm_annotate *pm_annotate__new(const struct pm_annotate_opts *opts);
void pm_annotate__delete(struct pm_annotate *a);

/* A sample with its context (the session resolves a ProfileMe PC). */
int pm_annotate__add(struct pm_annotate *a, struct pm_session *s,
		     const struct pm_sample_ctx *ctx, struct pm_error *err);
/* Any other record: THROTTLE, UNTHROTTLE, LOST, LOST_SAMPLES and
 * ID_INDEX restart or scope the windows. */
int pm_annotate__record(struct pm_annotate *a, struct pm_session *s,
			const struct pm_record *rec, struct pm_error *err);

/* One annotated function. */
struct pm_annotation {
	const char *event;	/* the sampling event's name */
	const char *dso;	/* short name */
	const char *path;	/* the file disassembled, or NULL */
	const char *symbol;
	uint64_t start, end;	/* the symbol's [start, end) */
	int sl1;		/* ProfileMe's SL1 of this table; -1: none */
	const char *pctr1;	/* what PCTR1 counted, or NULL */
	uint64_t samples, period;
	uint64_t windows, discarded;	/* metrics recordings */
	const char *disasm_error;	/* why there is no disassembly */
	struct pm_table *table;	/* owned by the annotation */
};

/*
 * Disassemble and build the tables: functions by samples (descending;
 * ties by event, DSO, symbol, SL1), opts.top applied. Rows in address
 * order: a source row (Address null, Code the source text or file:line)
 * before each run of instructions of one line, then the instructions.
 * Columns: Percent, Samples, Period, [Windows, Discarded, one per
 * counter,] [ProfileMe: killed% invalid% mispr% taken% stall% pctr1
 * traps,] Address, Source (file:line), Code. Valid until delete.
 */
int pm_annotate__finish(struct pm_annotate *a, struct pm_session *s,
			struct pm_error *err);
size_t pm_annotate__nr(const struct pm_annotate *a);
const struct pm_annotation *pm_annotate__at(const struct pm_annotate *a,
					    size_t i);

/* Why something is left out or to be read with care: for the header. */
size_t pm_annotate__nr_notes(const struct pm_annotate *a);
const char *pm_annotate__note(const struct pm_annotate *a, size_t i);

/*
 * After finish: the annotations as a report (pmprof/report.h), a table
 * named "rows" per function, in order, each with what the function is
 * as its summary (event, dso, symbol, file, start, end, sl1, pctr1,
 * samples, period, windows, discarded, disasm_error); the report's
 * summary the totals and notes; text's header ("# N samples, M annotated
 * functions", the notes) as its notes; CSV and TSV with Event, DSO,
 * Symbol and SL1 first. The report takes the tables (the annotations'
 * table is NULL after it): call it once. 0; *out the caller's.
 */
struct pm_report;
int pm_annotate__report(struct pm_annotate *a, struct pm_report **out);

/* new, add and record, finish and report, as one analysis. */
extern const struct pm_analysis pm_annotate_analysis;

/* Totals over every sample added. */
struct pm_annotate_summary {
	uint64_t samples;	/* every sample */
	uint64_t unresolved;	/* in no known function */
	uint64_t pal;		/* ProfileMe samples at PALcode addresses */
	uint64_t profileme;	/* samples with ProfileMe data */
	bool windows;		/* the recording has counter windows */
};
const struct pm_annotate_summary *pm_annotate__summary(const struct pm_annotate *a);

#endif
