/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `perf script` text for samples: one sample at a time, appended to a
 * strbuf, so that tools that import perf script output (FlameGraph's
 * stackcollapse-perf, the Firefox Profiler, speedscope) read pmprof's.
 *
 * Without a call chain a sample is one line:
 *	COMM TID [CPU] SECS.USECS: PERIOD EVENT:  IP SYM+OFF (DSO)
 * with one, the header line ends after the event and each frame follows
 * on a line of its own ("\tIP SYM+OFF (DSO)"), then a blank line. As in
 * perf: COMM is padded to 16 columns unless frames follow, the event's
 * name to the longest event name of the recording, TID is %5d
 * ("PID/TID" with both), CPU [%03d], PERIOD %10, IP %16x; a frame's IP is
 * its DSO's address (the address itself outside every map), the sampled
 * IP of a one-line sample the address as recorded; unknown symbols and
 * DSOs print as "[unknown]" (no offset), DSOs by their path.
 *
 * Which fields (perf script -F): the defaults are perf's for hardware and
 * software events (comm, tid, time, period, event, ip, sym, symoff, dso,
 * and cpu); a default field the event does not record is left out, a
 * field asked for by name that it does not record is an error.
 */
#ifndef PMPROF_SCRIPT_H
#define PMPROF_SCRIPT_H

#include <stdbool.h>

#include "pmprof/session.h"

struct pm_error;
struct pm_strbuf;

enum {
	PM_SCRIPT_COMM   = 1u << 0,
	PM_SCRIPT_TID    = 1u << 1,
	PM_SCRIPT_PID    = 1u << 2,
	PM_SCRIPT_CPU    = 1u << 3,
	PM_SCRIPT_TIME   = 1u << 4,
	PM_SCRIPT_PERIOD = 1u << 5,
	PM_SCRIPT_EVENT  = 1u << 6,
	PM_SCRIPT_IP     = 1u << 7,
	PM_SCRIPT_SYM    = 1u << 8,
	PM_SCRIPT_SYMOFF = 1u << 9,
	PM_SCRIPT_DSO    = 1u << 10,
};

#define PM_SCRIPT_DEFAULT (PM_SCRIPT_COMM | PM_SCRIPT_TID | PM_SCRIPT_CPU | \
	PM_SCRIPT_TIME | PM_SCRIPT_PERIOD | PM_SCRIPT_EVENT | PM_SCRIPT_IP | \
	PM_SCRIPT_SYM | PM_SCRIPT_SYMOFF | PM_SCRIPT_DSO)

struct pm_script_fields {
	unsigned int want;	/* the fields to print */
	unsigned int asked;	/* of those, the ones named (errors if absent) */
};

/*
 * -F's argument: "comm,tid,ip" (these fields), or "+pid,-period" (the
 * defaults with changes). *f starts from the defaults. -PM_EUSAGE naming
 * an unknown field, sym/symoff/dso without ip, or symoff without sym.
 */
int pm_script_fields__parse(const char *spec, struct pm_script_fields *f,
			    struct pm_error *err);

/* The fields an event's samples print: *out, or -PM_EUSAGE when a field
 * asked for is one the event does not record (err names both). */
int pm_script_fields__for_event(const struct pm_script_fields *f,
				const struct pm_event *ev, unsigned int *out,
				struct pm_error *err);

/* How wide perf prints event names: the longest of the recording's. */
int pm_script__event_width(struct pm_reader *r);

/* A sample (and its call chain, when it has one and ip is printed) as
 * perf script prints it, with these fields, the event's name right
 * aligned to event_width, appended to sb. */
void pm_script__format(unsigned int fields, int event_width, struct pm_session *s,
		       const struct pm_sample_ctx *ctx, struct pm_strbuf *sb);

#endif
