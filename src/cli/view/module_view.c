/* SPDX-License-Identifier: Zlib */
/* module_view.c - the view module (vramsim-view.so): `vramsim view` with
 * SDL2, loaded only when it runs. */
#include <string.h>

#include "cli/cli.h"
#include "cli/module.h"

static int run(const char *dir, const char *cmd, int argc, char **argv)
{
	(void)dir;
	if (strcmp(cmd, "view") == 0)
		return vs_cmd_view(argc, argv);
	return vs_cli_usage_error(cmd, "not a command of the view module");
}

int vramsim_module_run(const char *dir, const char *cmd, int argc, char **argv)
{
	return vs_cli_finish(run(dir, cmd, argc, argv));
}
