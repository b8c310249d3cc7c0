/* SPDX-License-Identifier: Zlib */
/* module_play.c - the play module (vramsim-play.so): `vramsim play` with
 * libmgba and SDL2, loaded only when it runs. */
#include <string.h>

#include "cli/cli.h"
#include "cli/module.h"
#include "cli/play/cmd_play.h"

static int run(const char *dir, const char *cmd, int argc, char **argv)
{
	(void)dir;
	if (strcmp(cmd, "play") == 0)
		return vs_cmd_play(argc, argv);
	return vs_cli_usage_error(cmd, "not a command of the play module");
}

int vramsim_module_run(const char *dir, const char *cmd, int argc, char **argv)
{
	return vs_cli_finish(run(dir, cmd, argc, argv));
}
