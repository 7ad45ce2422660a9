// SPDX-License-Identifier: GPL-2.0
/*
 * Running objdump: no shell (the path is passed as one argument after
 * "--", whatever it contains), LC_ALL=C so its messages can be shown as
 * they are, both output streams read together (poll) so neither can fill
 * up and stall it. Which objdump: the one asked for, else the host's
 * (binutils-multiarch's reads every target), else the target's cross one
 * when the host's does not know the file's architecture.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmprof/disasm.h"
#include "pmprof/error.h"
#include "pmprof/strbuf.h"
#include "pmprof/util.h"

extern char **environ;

#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif

/* Debian's cross binutils prefixes, by machine (and byte order). */
static const char *target_prefix(const struct pm_elf_info *info)
{
	bool be = info->data == ELFDATA2MSB;

	switch (info->machine) {
	case EM_ALPHA:	 return "alpha-linux-gnu";
	case EM_X86_64:	 return "x86_64-linux-gnu";
	case EM_386:	 return "i686-linux-gnu";
	case EM_AARCH64: return be ? "aarch64_be-linux-gnu" : "aarch64-linux-gnu";
	case EM_ARM:	 return "arm-linux-gnueabihf";
	case EM_S390:	 return "s390x-linux-gnu";
	case EM_PPC64:	 return be ? "powerpc64-linux-gnu" : "powerpc64le-linux-gnu";
	case EM_PPC:	 return "powerpc-linux-gnu";
	case EM_RISCV:	 return "riscv64-linux-gnu";
	case EM_MIPS:	 return info->elfclass == ELFCLASS64 ?
				(be ? "mips64-linux-gnuabi64" : "mips64el-linux-gnuabi64") :
				(be ? "mips-linux-gnu" : "mipsel-linux-gnu");
	case EM_SPARCV9: return "sparc64-linux-gnu";
	case EM_PARISC:	 return "hppa-linux-gnu";
	case EM_68K:	 return "m68k-linux-gnu";
	case EM_SH:	 return "sh4-linux-gnu";
	case EM_IA_64:	 return "ia64-linux-gnu";
	case EM_LOONGARCH: return "loongarch64-linux-gnu";
	default:	 return NULL;
	}
}

const char *pm_disasm__target_objdump(const struct pm_elf_info *info,
				      char *buf, size_t size)
{
	const char *prefix = target_prefix(info);

	if (!prefix || (size_t)snprintf(buf, size, "%s-objdump", prefix) >= size)
		return NULL;
	return buf;
}

/* The environment with LC_ALL=C (and no other LC_ALL). */
static char **c_locale_env(void)
{
	size_t n = 0, k = 0, i;
	char **env;

	while (environ && environ[n])
		n++;
	env = pm_calloc(n + 2, sizeof(*env));
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "LC_ALL=", 7))
			env[k++] = environ[i];
	env[k++] = (char *)"LC_ALL=C";
	env[k] = NULL;
	return env;
}

/* Read both pipes to their ends. */
static void drain(int out_fd, int err_fd, struct pm_strbuf *out,
		  struct pm_strbuf *errs)
{
	struct pollfd p[2] = { { .fd = out_fd, .events = POLLIN },
			       { .fd = err_fd, .events = POLLIN } };
	struct pm_strbuf *sink[2] = { out, errs };
	char buf[65536];
	int open = 2, i;

	while (open > 0) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 2; i++) {
			ssize_t n;

			if (p[i].fd < 0 || !p[i].revents)
				continue;
			n = read(p[i].fd, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				p[i].fd = -1;
				open--;
				continue;
			}
			pm_strbuf__add(sink[i], buf, (size_t)n);
		}
	}
}

/*
 * Run argv; its output in out, its messages in errs. 0 when it exited 0,
 * -ENOENT when it could not be started, -PM_EFORMAT when it failed.
 */
static int run(char *const argv[], struct pm_strbuf *out, struct pm_strbuf *errs)
{
	posix_spawn_file_actions_t fa;
	int po[2], pe[2], status, ret;
	char **env;
	pid_t pid;

	if (pipe2(po, O_CLOEXEC))
		return -errno;
	if (pipe2(pe, O_CLOEXEC)) {
		ret = -errno;
		close(po[0]);
		close(po[1]);
		return ret;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, po[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
	env = c_locale_env();
	ret = posix_spawnp(&pid, argv[0], &fa, NULL, argv, env);
	free(env);
	posix_spawn_file_actions_destroy(&fa);
	close(po[1]);
	close(pe[1]);
	if (ret) {
		close(po[0]);
		close(pe[0]);
		return -ENOENT;
	}
	drain(po[0], pe[0], out, errs);
	close(po[0]);
	close(pe[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -ECHILD;
	/* posix_spawnp may report a missing program as exit 127. */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !errs->len)
		return -ENOENT;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -PM_EFORMAT;
}

/* objdump's first message line, for the error. */
static void first_line(const struct pm_strbuf *errs, char *buf, size_t size)
{
	const char *s = pm_strbuf__str(errs);
	size_t n = strcspn(s, "\n");

	snprintf(buf, size, "%.*s", (int)PM_MIN(n, size - 1), s);
}

static int try_one(struct pm_disasm *d, const char *tool, const char *path,
		   uint64_t start, uint64_t end, bool demangle,
		   struct pm_error *err)
{
	struct pm_strbuf out = PM_STRBUF_INIT, errs = PM_STRBUF_INIT;
	char from[48], to[48], msg[256];
	char *argv[12];
	int ret, n = 0;

	snprintf(from, sizeof(from), "--start-address=0x%" PRIx64, start);
	snprintf(to, sizeof(to), "--stop-address=0x%" PRIx64, end);
	argv[n++] = (char *)tool;
	argv[n++] = (char *)"-d";
	argv[n++] = (char *)"-z";		/* zero blocks too: every address */
	argv[n++] = (char *)"--no-show-raw-insn";
	if (demangle)
		argv[n++] = (char *)"-C";
	argv[n++] = from;
	argv[n++] = to;
	argv[n++] = (char *)"--";
	argv[n++] = (char *)path;
	argv[n] = NULL;
	ret = run(argv, &out, &errs);
	if (ret == -ENOENT) {
		pm_error__fmt(err, ENOENT, "cannot run %s (install binutils-multiarch)",
			      tool);
	} else if (ret) {
		first_line(&errs, msg, sizeof(msg));
		pm_error__fmt(err, PM_EFORMAT, "%s failed on %s: %s", tool, path,
			      msg[0] ? msg : "no message");
	} else {
		ret = pm_disasm__parse(d, out.buf ? out.buf : "", out.len, start,
				       end, err);
		if (!ret)
			d->tool = pm_strdup(tool);
	}
	pm_strbuf__release(&out);
	pm_strbuf__release(&errs);
	return ret;
}

int pm_disasm__range(struct pm_disasm *d, const char *path,
		     const struct pm_elf_info *info, uint64_t start,
		     uint64_t end, const struct pm_disasm_opts *opts,
		     struct pm_error *err)
{
	char cross[64];
	const char *tools[2];
	size_t nr = 0, i;
	struct pm_error first = { 0 };
	int ret = -ENOENT, first_ret = 0;

	memset(d, 0, sizeof(*d));
	if (start >= end)
		return pm_error__fmt(err, EINVAL, "empty range 0x%" PRIx64
				     "..0x%" PRIx64, start, end);
	if (opts && opts->objdump) {
		tools[nr++] = opts->objdump;
	} else {
		tools[nr++] = "objdump";
		if (info && pm_disasm__target_objdump(info, cross, sizeof(cross)))
			tools[nr++] = cross;
	}
	for (i = 0; i < nr; i++) {
		ret = try_one(d, tools[i], path, start, end,
			      !(opts && opts->no_demangle), err);
		if (!ret)
			return 0;
		pm_disasm__release(d);
		/* The message that says most: a failure over "not found". */
		if (!first_ret || (first_ret == -ENOENT && ret != -ENOENT)) {
			first_ret = ret;
			if (err)
				first = *err;
		}
	}
	if (err)
		*err = first;
	return first_ret;
}
