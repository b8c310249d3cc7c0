/* SPDX-License-Identifier: Zlib */
/* module_ds.c - the ds module (vramsim-ds.so): `vramsim record` and
 * `capture` of a DS ROM, on the DeSmuME libretro core the driver loads
 * with dlopen (src/console/ds). vramsim hands a command here when its ROM
 * is a DS ROM (src/console/common/rom_kind.h). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/module.h"
#include "cli/ds/ds_cmds.h"

int vramsim_module_run(const char *dir, const char *cmd, int argc, char **argv)
{
	(void)dir;
	if (strcmp(cmd, "record") == 0)
		return vs_cmd_ds_record(argc, argv);
	if (strcmp(cmd, "capture") == 0)
		return vs_cmd_ds_capture(argc, argv);
	return vs_cli_usage_error(cmd, "not a command of the ds module");
}
