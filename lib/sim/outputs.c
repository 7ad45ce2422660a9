// SPDX-License-Identifier: GPL-2.0
/*
 * Where a simulated run's files go: perf.data (-o), the ELF its samples
 * resolve in, the truth. All are opened before the run, as partial files
 * (pmprof/outfile.h), and renamed into place together once it succeeded:
 * a failed run (a full disk, /dev/full) leaves none of them behind.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim-int.h"
#include "pmprof/util.h"

static char *absolute(const char *p)
{
	char cwd[PATH_MAX], *out;
	size_t n;

	if (p[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return pm_strdup(p);
	n = strlen(cwd) + strlen(p) + 2;
	out = pm_malloc(n);
	snprintf(out, n, "%s/%s", cwd, p);
	return out;
}

/* A file of its own: not "-", not a device or a FIFO (/dev/full has no
 * "beside" where an ELF could go). Absent counts: it will be a file. */
static bool regular_output(const char *output)
{
	struct stat st;

	if (!strcmp(output, "-"))
		return false;
	return stat(output, &st) ? errno == ENOENT : S_ISREG(st.st_mode);
}

/* OUTPUT's directory / MODEL; the current directory's for an output
 * that is not a regular file. Absolute: the MMAP records name it. */
static char *default_elf_path(const char *output, const char *model)
{
	const char *slash = regular_output(output) ? strrchr(output, '/') : NULL;
	char *dir, *rel, *path;
	size_t n;

	dir = slash ? pm_strndup(output, (size_t)(slash - output) + 1)
		    : pm_strdup("");
	n = strlen(dir) + strlen(model) + 1;
	rel = pm_malloc(n);
	snprintf(rel, n, "%s%s", dir, model);
	path = absolute(rel);
	free(rel);
	free(dir);
	return path;
}

/* Refuse to overwrite a file that is not an ELF (a typo in --elf). */
static int check_elf_target(const char *path, struct pm_error *err)
{
	char magic[4];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return 0;
	n = fread(magic, 1, 4, f);
	fclose(f);
	if (n == 4 && !memcmp(magic, "\177ELF", 4))
		return 0;
	return pm_error__fmt(err, PM_EUSAGE, "%s exists and is not an ELF: not overwriting it (use --elf)", path);
}

struct named {
	const char *what, *path, *why;
};

static int check_collisions(const struct named *f, size_t n,
			    struct pm_error *err)
{
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = i + 1; k < n; k++)
			if (f[i].path && f[k].path &&
			    pm_path__same_file(f[i].path, f[k].path))
				return pm_error__fmt(err, PM_EUSAGE,
						     "the %s (%s%s) and the %s (%s%s) are the same file: give each its own (-o, --elf, --truth)",
						     f[i].what, f[i].path, f[i].why,
						     f[k].what, f[k].path, f[k].why);
	return 0;
}

int pm_sim_outputs__open(struct pm_sim_outputs *out,
			 const struct pm_sim_opts *o, const char *model_name,
			 struct pm_error *err)
{
	/* a builtin's name is not its file, even when a file has it */
	const char *model = o->model_origin &&
			    !pm_sim_builtin_model(o->model_origin) ?
			    o->model_origin : NULL;
	struct named files[4];
	int ret;

	memset(out, 0, sizeof(*out));
	out->elf_path = o->elf_path ? absolute(o->elf_path)
				    : default_elf_path(o->output, model_name);
	files[0] = (struct named){ "output", o->output, "" };
	files[1] = (struct named){ "ELF", out->elf_path,
				   o->elf_path ? "" : ", named after the model" };
	files[2] = (struct named){ "truth", o->truth_path, "" };
	files[3] = (struct named){ "model", model, "" };
	ret = check_collisions(files, PM_ARRAY_SIZE(files), err);
	if (!ret)
		ret = check_elf_target(out->elf_path, err);
	if (!ret)
		ret = pm_outfile__open(&out->elf, out->elf_path, NULL, err);
	if (!ret)
		ret = pm_outfile__open(&out->data, o->output, NULL, err);
	if (!ret && o->truth_path)
		ret = pm_outfile__open(&out->truth, o->truth_path, NULL, err);
	if (ret)
		pm_sim_outputs__abort(out);
	return ret;
}

int pm_sim_outputs__commit(struct pm_sim_outputs *out, struct pm_error *err)
{
	int ret = pm_outfile__commit(out->elf, err);

	out->elf = NULL;
	if (!ret)
		ret = pm_outfile__commit(out->data, err);
	out->data = NULL;
	if (!ret && out->truth)
		ret = pm_outfile__commit(out->truth, err);
	out->truth = NULL;
	pm_sim_outputs__abort(out);	/* what is left after an error */
	return ret;
}

void pm_sim_outputs__abort(struct pm_sim_outputs *out)
{
	pm_outfile__abort(out->elf);
	pm_outfile__abort(out->data);
	pm_outfile__abort(out->truth);
	out->elf = out->data = out->truth = NULL;
}
