/* SPDX-License-Identifier: Zlib */
/* module_ds.c - the ds module (vramsim-ds.so): `vramsim record` and
 * `capture` of a DS ROM, and `cycles` of a DS trace, on the DeSmuME
 * libretro core the driver loads with dlopen (src/console/ds). vramsim
 * hands a command here when its ROM is a DS ROM (src/console/common/
 * rom_kind.h), or its trace a DS trace (src/cli/cli_cycles.h). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/module.h"
#include "cli/ds/ds_cmds.h"
#include "console/ds/ds_core.h"
#include "console/ds/ds_cycles_host.h"

void vs_ds_cli_status(FILE *fp, int part)
{
	char err[512];

	if (part != 1)
		return;
	fprintf(fp, "\nneeds: the DeSmuME libretro core at run time (Debian: %s), from\n"
		"$VRAMSIM_DESMUME_CORE or %s: ", VS_DS_CORE_PACKAGE, vs_ds_core_path());
	if (vs_ds_core_available(err, sizeof err) == 0)
		fprintf(fp, "found.\n");
	else
		fprintf(fp, "not loadable:\n%s\n", err);
}

static int run(const char *dir, const char *cmd, int argc, char **argv)
{
	char roms[4096];

	if (snprintf(roms, sizeof roms, "%s/ds", dir) < (int)sizeof roms)
		vs_ds_set_rom_dir(roms);
	if (strcmp(cmd, "cycles") == 0)
		return vs_cmd_ds_cycles(argc, argv);
	if (strcmp(cmd, "record") == 0)
		return vs_cmd_ds_record(argc, argv);
	if (strcmp(cmd, "capture") == 0)
		return vs_cmd_ds_capture(argc, argv);
	return vs_cli_usage_error(cmd, "not a command of the ds module");
}

int vramsim_module_run(const char *dir, const char *cmd, int argc, char **argv)
{
	return vs_cli_finish(run(dir, cmd, argc, argv));
}
