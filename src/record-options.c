// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "record-options.h"
#include "pmprof/evspec.h"
#include "pmprof/record.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

int pm_record_optarg_cb(const struct pm_option *opt, const char *arg)
{
	struct pm_optarg *o = opt->value;

	o->set = true;
	o->arg = arg;
	return 0;
}

/* Whether this machine records spec's windows in burst mode (--hf-mode
 * hf_mode, NULL: auto), as the recorder will decide it. */
static bool records_bursts(const char *spec, const char *hf_mode)
{
	struct pm_hf_env env = { .probe_kernel = true };
	struct pm_record_defaults rd = { 0 };
	enum pm_hf_mode want = PM_HF_AUTO;
	struct pm_evspec_list list;
	struct pm_hf_plan plan;
	struct pm_error err;
	bool bursts;

	if (hf_mode && pm_hf_mode__parse(hf_mode, &want))
		return false;	/* record says so */
	pm_evspec_list__init(&list);
	/* (the period terms reach the attrs with the record defaults) */
	bursts = !pm_evspec__parse(&list, spec, NULL, &err) &&
		 !pm_evspec__apply_record(&list, &rd, &err) &&
		 !pm_hf_mode__plan(&list, want, &env, &plan, &err) && plan.mode == PM_HF_BURST;
	pm_evspec_list__exit(&list);
	return bursts;
}

int pm_record_choose_metrics(const char *set, const char *sysfs, uint64_t period,
			     uint64_t freq, const char *hf_mode, bool quiet, char *spec,
			     size_t size)
{
	struct pm_metrics_request rq = {
		.set = set, .sysfs_root = sysfs, .period = period, .freq = freq,
	};
	struct pm_metrics_choice mc;
	struct pm_error err;

	if (pm_recorder__choose_metrics(&rq, &mc, &err))
		return pm_cli_errorf(PM_EXIT_USAGE, NULL, "%s", err.msg);
	/* the hardware group in burst mode: the same windows in longer bursts */
	if (mc.hw && !sysfs && !period && !freq && records_bursts(mc.spec, hf_mode)) {
		rq.bursts = true;
		if (pm_recorder__choose_metrics(&rq, &mc, &err))
			return pm_cli_errorf(PM_EXIT_USAGE, NULL, "%s", err.msg);
	}
	snprintf(spec, size, "%s", mc.spec);
	if (quiet)
		return 0;
	/* without a PMU one line says it all, the group included */
	if (mc.hw)
		fprintf(stderr, "pmprof record: --metrics: %s\n", mc.spec);
	fprintf(stderr, "pmprof record: --metrics: %s\n", mc.why);
	return 0;
}

void pm_record_metrics_space_form(int *argc, const char **argv)
{
	int i, j;

	for (i = 0; i + 1 < *argc && strcmp(argv[i], "--"); i++) {
		if (strcmp(argv[i], "--metrics") ||
		    (strcmp(argv[i + 1], "topdown") && strcmp(argv[i + 1], "default")))
			continue;
		argv[i] = !strcmp(argv[i + 1], "topdown") ? "--metrics=topdown"
							   : "--metrics=default";
		for (j = i + 1; j + 1 < *argc; j++)
			argv[j] = argv[j + 1];
		(*argc)--;
	}
}

int pm_record_comp_level_cb(const struct pm_option *opt, const char *arg)
{
	int *level = opt->value;
	char *end;
	long v;

	if (!arg) {
		*level = 1;
		return 0;
	}
	v = strtol(arg, &end, 10);
	if (end == arg || *end || v < 1 || v > 22)
		return pm_opt_error(opt, "expects a zstd level from 1 to 22, not '%s'", arg);
	*level = (int)v;
	return 0;
}

char *pm_record_uid_pids(const char *user)
{
	struct pm_strbuf sb = PM_STRBUF_INIT;
	struct passwd *pw = getpwnam(user);
	struct dirent *de;
	char *end;
	uid_t uid;
	DIR *d;

	if (pw) {
		uid = pw->pw_uid;
	} else {
		unsigned long v = strtoul(user, &end, 10);

		if (end == user || *end || *user == '-') {
			pm_cli_errorf(PM_EXIT_USAGE, "-u", "%s: no such user", user);
			return NULL;
		}
		uid = (uid_t)v;
	}
	d = opendir("/proc");
	if (!d) {
		pm_cli_errorf(PM_EXIT_USAGE, "-u", "cannot read /proc: %s", strerror(errno));
		return NULL;
	}
	while ((de = readdir(d))) {
		char path[300];
		struct stat st;
		long pid = strtol(de->d_name, &end, 10);

		if (end == de->d_name || *end || pid <= 0 || pid == (long)getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%s", de->d_name);
		if (stat(path, &st) || st.st_uid != uid)
			continue;
		pm_strbuf__addf(&sb, "%s%ld", sb.len ? "," : "", pid);
	}
	closedir(d);
	if (!sb.len) {
		pm_cli_errorf(PM_EXIT_USAGE, "-u", "%s: the user has no process to record", user);
		return NULL;
	}
	return pm_strbuf__detach(&sb);
}

int pm_record_switch_file(struct pm_recorder *r, bool at_exit, int max_files, bool quiet,
			  struct pm_switched *sw)
{
	const char *out = pm_recorder__output(r);
	char name[4096];
	struct pm_error err;
	int ret;

	if (pm_switch_output__name(out, name, sizeof(name)))
		return pm_cli_errorf(PM_EXIT_USAGE, "--switch-output",
				     "no name for the next file of %s", out);
	if (at_exit)
		ret = rename(out, name) ? pm_error__fmt(&err, errno, "cannot rename to %s: %s",
						       name, strerror(errno)) : 0;
	else
		ret = pm_recorder__switch_output(r, name, &err);
	if (ret)
		return pm_cli_error(PM_EXIT_INPUT, at_exit ? out : NULL, &err);
	if (!quiet)
		fprintf(stderr, "[ pmprof record: Dump %s ]\n", name);
	sw->names = pm_reallocarray(sw->names, (size_t)sw->nr + 1, sizeof(char *));
	sw->names[sw->nr++] = pm_strdup(name);
	if (max_files > 0 && sw->nr > max_files) {
		unlink(sw->names[0]);
		free(sw->names[0]);
		memmove(sw->names, sw->names + 1, (size_t)(--sw->nr) * sizeof(char *));
	}
	return 0;
}

void pm_switched__release(struct pm_switched *sw)
{
	int i;

	for (i = 0; i < sw->nr; i++)
		free(sw->names[i]);
	free(sw->names);
	sw->names = NULL;
	sw->nr = 0;
}
