/* SPDX-License-Identifier: Zlib */
/* module_gba.c - the gba module (vramsim-gba.so): `vramsim cycles`,
 * `record` and `capture` with the libmgba driver, loaded only when they run. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/module.h"
#include "console/gba/gba_emu.h"

static int run(const char *dir, const char *cmd, int argc, char **argv)
{
	char roms[4096];

	if (snprintf(roms, sizeof roms, "%s/gba", dir) < (int)sizeof roms)
		vs_gba_set_rom_dir(roms);
	if (strcmp(cmd, "cycles") == 0)
		return vs_cmd_cycles(argc, argv);
	if (strcmp(cmd, "record") == 0)
		return vs_cmd_record(argc, argv);
	if (strcmp(cmd, "capture") == 0)
		return vs_cmd_capture(argc, argv);
	return vs_cli_usage_error(cmd, "not a command of the gba module");
}

int vramsim_module_run(const char *dir, const char *cmd, int argc, char **argv)
{
	return vs_cli_finish(run(dir, cmd, argc, argv));
}
