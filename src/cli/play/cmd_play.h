/* SPDX-License-Identifier: Zlib */
/* cmd_play.h - `vramsim play` (cmd_play.c), the play module's command. */
#ifndef VS_CLI_CMD_PLAY_H
#define VS_CLI_CMD_PLAY_H

int vs_cmd_play(int argc, char **argv);

#endif
