/* SPDX-License-Identifier: Zlib */
/* ds_cmds.h - the commands of the ds module (vramsim-ds.so). */
#ifndef VS_CLI_DS_CMDS_H
#define VS_CLI_DS_CMDS_H

#include <stdio.h>

/* `vramsim record GAME.nds` (cmd_record.c). */
int vs_cmd_ds_record(int argc, char **argv);
/* `vramsim capture GAME.nds` (cmd_capture.c). */
int vs_cmd_ds_capture(int argc, char **argv);
/* `vramsim cycles DS.trace` (cmd_cycles.c). */
int vs_cmd_ds_cycles(int argc, char **argv);

/* The commands' --help part 1: where the core is looked for, and whether
 * it loads (module_ds.c). */
void vs_ds_cli_status(FILE *fp, int part);

#endif
