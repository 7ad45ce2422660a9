/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record options that are more than a flag: -z, --switch-output and
 * its files, -u. Kept out of cmd-record.c, which wires them in.
 */
#ifndef PMPROF_RECORD_OPTIONS_H
#define PMPROF_RECORD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"

struct pm_recorder;

/* An option whose value is optional (--switch-output[=MODE]): given or
 * not, and the value if one came with it. */
struct pm_optarg {
	bool set;
	const char *arg;
};

/* The callback for a struct pm_optarg. */
int pm_record_optarg_cb(const struct pm_option *opt, const char *arg);
/* -z / --compression-level[=N] into an int: 1 (perf's default) to 22. */
int pm_record_comp_level_cb(const struct pm_option *opt, const char *arg);

/*
 * -u USER: the processes of a user (name or number) now, as perf 6.1
 * takes them: by the owner of /proc/PID, recorded as with -p; pmprof
 * itself left out. The pid list (malloc'ed), or NULL after a message.
 */
char *pm_record_uid_pids(const char *user);

/*
 * --metrics[=SET]: the groups for this machine (a --sysfs tree: the
 * machine it describes) and the long period from -c or -F, into spec
 * (neither, on this machine in burst mode by --hf-mode hf_mode: longer
 * bursts, metrics-choice.c); says what it chose, and why, on stderr unless quiet. 0 or an exit code
 * after a message.
 */
int pm_record_choose_metrics(const char *set, const char *sysfs, uint64_t period,
			     uint64_t freq, const char *hf_mode, bool quiet, char *spec,
			     size_t size);
/*
 * `--metrics topdown` as the readers write it: a group name after
 * --metrics is its value (a workload named topdown goes after --).
 */
void pm_record_metrics_space_form(int *argc, const char **argv);

/* --switch-output: the files written, oldest first. */
struct pm_switched {
	char **names;
	int nr;
};

/*
 * Close the current file as OUTPUT.TIMESTAMP and go on in a new one
 * (at_exit: the recorder has finished, only rename the last file), drop
 * the oldest beyond max_files (0: keep all), say "Dump NAME" unless quiet.
 * 0 or an exit code after a message.
 */
int pm_record_switch_file(struct pm_recorder *r, bool at_exit, int max_files, bool quiet,
			  struct pm_switched *sw);
void pm_switched__release(struct pm_switched *sw);

#endif
