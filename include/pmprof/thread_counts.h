/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-thread counts (perf report -T): what the READ records of a
 * recording made with inherit_stat (record -s) say each thread counted,
 * summed per (pid, tid) and event (a thread read on several CPUs, or by
 * several inherited instances, has a record per instance).
 *
 * An accumulator as every analysis is (pmprof/analysis.h): new, a
 * record at a time, finish into a report's table. pm_with_threads_analysis
 * runs it beside another analysis, over one pass of the recording:
 *
 *	struct pm_with_threads wt = { &pm_hotspot_analysis, h,
 *				      pm_thread_counts__new() };
 *	pm_analysis__run(&pm_with_threads_analysis, &wt, s, &rep, &err);
 *
 * The report is the inner analysis's, with the "threads" table last.
 */
#ifndef PMPROF_THREAD_COUNTS_H
#define PMPROF_THREAD_COUNTS_H

#include <stdint.h>

#include "pmprof/analysis.h"
#include "pmprof/perfdata.h"

struct pm_report;
struct pm_thread_counts;

struct pm_thread_counts *pm_thread_counts__new(void);
void pm_thread_counts__delete(struct pm_thread_counts *tc);	/* NULL is fine */

/* A READ record counted (others are ignored): 0, or a negative code
 * with err saying what is wrong with the record, at its offset. */
int pm_thread_counts__record(struct pm_thread_counts *tc, struct pm_reader *r,
			     const struct pm_record *rec, struct pm_error *err);
uint64_t pm_thread_counts__nr_reads(const struct pm_thread_counts *tc);

/*
 * Append the "threads" table to rep: PID, TID, then a column per event
 * that was read (JSON: "pid", "tid", "counts": {EVENT: N}), threads and
 * events in the order of their first READ record (perf's). Without READ
 * records the table is empty, its comment and a warning of the report
 * say why (and how to record them).
 */
void pm_thread_counts__finish(struct pm_thread_counts *tc, struct pm_reader *r,
			      struct pm_report *rep);

/* Another analysis with the per-thread counts beside it. */
struct pm_with_threads {
	const struct pm_analysis *inner;
	void *x;			/* the inner analysis's */
	struct pm_thread_counts *tc;	/* the caller's to delete */
};

extern const struct pm_analysis pm_with_threads_analysis;

#endif
