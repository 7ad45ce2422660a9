/* SPDX-License-Identifier: GPL-2.0 */
/* One function per command, each in its own cmd-<name>.c. */
#ifndef PMPROF_BUILTIN_H
#define PMPROF_BUILTIN_H

int cmd_record(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_diff(int argc, const char **argv);
int cmd_metrics(int argc, const char **argv);
int cmd_profileme(int argc, const char **argv);
int cmd_annotate(int argc, const char **argv);
int cmd_mem(int argc, const char **argv);
int cmd_script(int argc, const char **argv);
int cmd_sim(int argc, const char **argv);
int cmd_info(int argc, const char **argv);
int cmd_dump(int argc, const char **argv);
int cmd_inject(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_top(int argc, const char **argv);
int cmd_help(int argc, const char **argv);

#endif
