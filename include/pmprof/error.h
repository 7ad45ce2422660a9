/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Errors travel as a negative errno-style return code plus a struct
 * pm_error the caller owns. The library never prints or exits; it says
 * what went wrong (and the byte offset, for a bad file) and the caller
 * says where: the CLI prints "pmprof: FILE: offset N: message". A message
 * names a file only when the call deals with more than the one its
 * caller gave (a DSO's ELF while reading a recording, say).
 *
 * Codes are negative everywhere: -errno, or -PM_E* for pmprof's own.
 */
#ifndef PMPROF_ERROR_H
#define PMPROF_ERROR_H

#include <stdbool.h>
#include <stdint.h>

/* pmprof's own codes, beyond errno's range (as libbpf does from 4000). */
enum {
	PM_EFORMAT = 4001,	/* the input is not a valid perf.data */
	PM_ETRUNC  = 4002,	/* the input ends before a structure does */
	PM_EUNSUP  = 4003,	/* valid, but a feature pmprof does not handle */
	PM_EUSAGE  = 4004,	/* bad option or argument */
};

struct pm_error {
	int code;		/* negative: -errno or -PM_E* */
	bool has_offset;	/* offset names the byte where it went wrong */
	uint64_t offset;
	char part[32];		/* the file of a directory recording it is
				   in ("data.1"), or empty */
	char msg[384];
};

/* Fill err (if not NULL) and return the negative code:
 * `return pm_error__fmt(err, EINVAL, ...)`. Callers write the code as
 * errno or PM_E* name it (positive); a code passed on from a return
 * (already negative) stays as it is, so no slip turns an error into 0. */
int pm_error__fmt(struct pm_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int pm_error__at(struct pm_error *err, int code, uint64_t offset,
		 const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void pm_error__clear(struct pm_error *err);

/* Text for a code (errno's strerror for errno codes). */
const char *pm_strerror(int code);

#endif
