// SPDX-License-Identifier: GPL-2.0
/*
 * objdump -d output into instructions. Only instruction lines count:
 * optional blanks, the address in hex, a colon, a tab, the text. Section
 * headers, "<symbol>:" labels and blank lines are no instructions, and
 * neither is anything outside the asked range (objdump starts at the
 * symbol's label when the range begins mid-function).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pmprof/disasm.h"
#include "pmprof/error.h"
#include "pmprof/util.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "  401126:\tpush   %rbp" -> 0x401126 and "push   %rbp"; false if the
 * line is no instruction. */
static bool insn_line(const char *p, const char *end, uint64_t *addr,
		      const char **text)
{
	int digits = 0, v;

	while (p < end && *p == ' ')
		p++;
	*addr = 0;
	while (p < end && (v = hexval(*p)) >= 0) {
		if (++digits > 16)
			return false;
		*addr = *addr << 4 | (uint64_t)v;
		p++;
	}
	if (!digits || end - p < 2 || p[0] != ':' || p[1] != '\t')
		return false;
	*text = p + 2;
	return true;
}

static void add(struct pm_disasm *d, size_t *alloc, uint64_t addr,
		const char *text, size_t len)
{
	struct pm_insn *in;

	PM_GROW(d->insns, *alloc, d->nr + 1);
	in = &d->insns[d->nr++];
	in->addr = addr;
	in->size = 0;
	in->text = pm_strndup(text, len);
}

int pm_disasm__parse(struct pm_disasm *d, const char *out, size_t len,
		     uint64_t start, uint64_t end, struct pm_error *err)
{
	const char *p = out, *stop = out + len;
	size_t alloc = d->nr, i;

	while (p < stop) {
		const char *nl = memchr(p, '\n', (size_t)(stop - p));
		const char *eol = nl ? nl : stop, *text;
		uint64_t addr;

		if (insn_line(p, eol, &addr, &text) && addr >= start && addr < end) {
			if (d->nr && addr <= d->insns[d->nr - 1].addr)
				return pm_error__fmt(err, -PM_EFORMAT,
						     "objdump's addresses go backwards at 0x%" PRIx64,
						     addr);
			add(d, &alloc, addr, text, (size_t)(eol - text));
		}
		p = nl ? nl + 1 : stop;
	}
	for (i = 0; i < d->nr; i++)
		d->insns[i].size = (i + 1 < d->nr ? d->insns[i + 1].addr : end) -
				   d->insns[i].addr;
	return 0;
}

const struct pm_insn *pm_disasm__find(const struct pm_disasm *d, uint64_t addr)
{
	size_t lo = 0, hi = d->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct pm_insn *in = &d->insns[mid];

		if (addr < in->addr)
			hi = mid;
		else if (addr - in->addr >= in->size)
			lo = mid + 1;
		else
			return in;
	}
	return NULL;
}

void pm_disasm__release(struct pm_disasm *d)
{
	size_t i;

	for (i = 0; i < d->nr; i++)
		free(d->insns[i].text);
	free(d->insns);
	free(d->tool);
	memset(d, 0, sizeof(*d));
}
