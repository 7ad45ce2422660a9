// SPDX-License-Identifier: GPL-2.0
#include "builtin.h"
#include "cli.h"

int cmd_info(int argc, const char **argv)
{
	(void)argc; (void)argv;
	return pm_cli_usage_error("info: not yet built");
}
