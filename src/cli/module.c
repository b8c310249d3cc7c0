/* SPDX-License-Identifier: Zlib */
/* module.c - commands in modules. For now they are linked in directly. */
#include <string.h>

#include "cli.h"

int vs_cli_module_run(const char *module, const char *cmd, int argc, char **argv)
{
	(void)module;
	if (strcmp(cmd, "view") == 0)
		return vs_cmd_view(argc, argv);
	if (strcmp(cmd, "cycles") == 0)
		return vs_cmd_cycles(argc, argv);
	return vs_cmd_record(argc, argv);
}

const char *vs_cli_module_missing(const char *module)
{
	(void)module;
	return NULL;
}
