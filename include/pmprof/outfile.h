/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files that are written whole or not at all: what record, inject
 * and sim write (perf.data, the simulator's ELF and truth), and what
 * pm_writer__open() writes.
 *
 *	struct pm_outfile *f;
 *
 *	pm_outfile__open(&f, "perf.data", &opts, &err);
 *	pm_write_all(pm_outfile__fd(f), buf, len, pm_outfile__name(f), &err);
 *	pm_outfile__commit(f, &err);	(or pm_outfile__abort(f) on error)
 *
 * A regular file, new or existing, is written to a temporary file in the
 * same directory, PATH.PID.partial (PID: the writing process), and renamed
 * over PATH only by pm_outfile__commit(): whatever happens before (an
 * error, a full disk, a kill), PATH keeps its old contents or stays absent.
 * pm_outfile__abort() removes the temporary file; pm_outfile__leave()
 * keeps it (record: the data recorded so far). pm_outfile__partials() finds
 * the ones that processes now gone left beside PATH. (No fsync: this
 * protects against failures of the process, not of the machine.)
 *
 * New files are created 0600 (they can hold copies of user stacks), as
 * perf does; a file that is replaced keeps its permission bits (and, for
 * root, its owner), as writing over it would. With keep_old, an existing
 * non-empty PATH becomes PATH.old at commit instead (perf record's
 * backup), and the new PATH is a new file.
 *
 * A symlink at PATH is followed, as open(2) and perf inject do: its target
 * is replaced (the temporary file goes beside the target), the link stays.
 * (perf record instead renames the link itself to PATH.old and writes a
 * new PATH.)
 *
 * "-" is standard output, and a character device, FIFO or socket
 * (/dev/null, /dev/full, a named pipe) is written in place: no temporary
 * file, no rename, nothing removed on abort. A directory is refused.
 */
#ifndef PMPROF_OUTFILE_H
#define PMPROF_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "pmprof/error.h"

struct pm_outfile_opts {
	size_t sz;			/* sizeof(struct pm_outfile_opts) */
	bool keep_old;			/* an existing PATH becomes PATH.old */
	/* Refuse (-PM_EUSAGE) when PATH is this file: same device and
	 * inode, whatever the names ("-": standard input). */
	const char *input;
};

struct pm_outfile;

int pm_outfile__open(struct pm_outfile **out, const char *path,
		     const struct pm_outfile_opts *opts, struct pm_error *err);
int pm_outfile__fd(const struct pm_outfile *f);
/* The name to show: PATH as given, "(standard output)" for "-". */
const char *pm_outfile__name(const struct pm_outfile *f);
/* The temporary file being written; NULL when written in place. */
const char *pm_outfile__partial(const struct pm_outfile *f);
/* Rename into place (after PATH.old with keep_old), close, free. */
int pm_outfile__commit(struct pm_outfile *f, struct pm_error *err);
/* Close, remove the temporary file, free. NULL is fine. */
void pm_outfile__abort(struct pm_outfile *f);
/* Close and free, keeping the temporary file under its name. */
void pm_outfile__leave(struct pm_outfile *f);

/*
 * Each PATH.PID.partial (and PATH.PID-N.partial) beside PATH whose PID no
 * longer runs: fn(ctx, partial, pid) for each. Returns the count.
 */
int pm_outfile__partials(const char *path,
			 void (*fn)(void *ctx, const char *partial, int pid),
			 void *ctx);

/*
 * Are a and b the same file? Both existing: the same device and inode.
 * Otherwise the same directory and name, once a symlink at the name is
 * followed. "-" is only the same as "-".
 */
bool pm_path__same_file(const char *a, const char *b);

/* write(2) until done, retrying EINTR; a short write is an error that
 * names `name` (ENOSPC: "No space left on device"). */
int pm_write_all(int fd, const void *buf, size_t len, const char *name,
		 struct pm_error *err);

#endif
