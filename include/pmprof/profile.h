/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Samples by address: what the formats that keep addresses, mappings and
 * labels (pprof) are rendered from. An analysis that keeps a profile puts
 * four tables into its report:
 *
 *   "profile_samples"    Locations (location ids, the sampled one first,
 *                        ';' apart), Process, Thread, Command, CPU (null
 *                        when not sampled), Samples, Period, one column
 *                        per event (its period), as stacks.h's tables;
 *                        then, when the samples came from recordings of
 *                        more than one host (a fleet), Host (the
 *                        recording's HEADER_HOSTNAME), the last column
 *   "profile_locations"  Id, Mapping (0: none), Address (as recorded),
 *                        Function (0: unknown), Line (0: unknown)
 *   "profile_mappings"   Id, Start, Limit, Offset, File, Build ID ("" if
 *                        none)
 *   "profile_functions"  Id, Name, System Name (as in the file), File (its
 *                        source, "" if unknown)
 *
 * Ids count from 1. The call chain is the session's (as stacks.h); a
 * location is an address of a map (of a process, or the kernel's), so
 * that every address falls inside its mapping.
 */
#ifndef PMPROF_PROFILE_H
#define PMPROF_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "pmprof/session.h"

struct pm_profile;
struct pm_report;

struct pm_profile *pm_profile__new(void);
void pm_profile__delete(struct pm_profile *p);	/* NULL is fine */

/* The column of an event, as pm_stacks__column(). */
size_t pm_profile__column(struct pm_profile *p, int id, const char *name);
/* The current sample: its locations and labels. */
void pm_profile__begin(struct pm_profile *p, struct pm_session *s,
		       const struct pm_sample_ctx *ctx);
/* One sample of the current key, of this period, to column col. */
void pm_profile__add(struct pm_profile *p, size_t col, uint64_t period);
/* Another count of that sample (a group member's), to column col alone. */
void pm_profile__add_value(struct pm_profile *p, size_t col, uint64_t v);

/* Append the four tables to rep. */
void pm_profile__tables(struct pm_profile *p, struct pm_report *rep);

#endif
