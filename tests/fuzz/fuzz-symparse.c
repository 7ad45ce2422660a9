// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the text parsers of the symbols layer: kallsyms
 * and JIT maps (/tmp/perf-PID.map). The first byte picks the parser.
 */
#include <stddef.h>
#include <stdint.h>

#include "pmprof/error.h"
#include "pmprof/symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pm_error err;

	if (!size)
		return 0;
	if (data[0] & 1) {
		struct pm_kallsyms *ks = NULL;

		if (!pm_kallsyms__parse((const char *)data + 1, size - 1, "fuzz",
					&ks, &err)) {
			pm_symtab__find(pm_kallsyms__kernel(ks), 0xffffffff81000000ULL);
			pm_kallsyms__delete(ks);
		}
	} else {
		struct pm_symtab *tab = pm_symtab__new(true);

		if (!pm_jitmap__parse((const char *)data + 1, size - 1, "fuzz",
				      tab, &err)) {
			pm_symtab__finish(tab);
			pm_symtab__find(tab, 0x1000);
		}
		pm_symtab__delete(tab);
	}
	return 0;
}
