/* SPDX-License-Identifier: Zlib */
/* cli_window.h - --from and --to, the window of a replay's pictures
 * (render/window.h), as the commands that draw one take them (diff,
 * render, report). Each keeps the two rows in its own option table (the
 * help words say what its pictures are) and gives them the keys below. */
#ifndef VS_CLI_WINDOW_H
#define VS_CLI_WINDOW_H

#include "cli/cli_opt.h"
#include "render/window.h"

/* The options' keys, apart from any command's own. */
enum { VS_CLI_WINDOW_FROM = 0x7100, VS_CLI_WINDOW_TO };

typedef struct vs_cli_window {
	const char *from, *to; /* as given, NULL when not */
	vs_window win;         /* made by vs_cli_window_parse */
} vs_cli_window;

/* --from or --to: -1 to go on, or VS_CLI_NOT_SHARED (another option). */
int vs_cli_window_take(vs_cli_window *w, const vs_cli_parser *p, int c);
/* After parsing: the ends given into w->win. 0, or VS_EXIT_USAGE after
 * command cmd's usage error. */
int vs_cli_window_parse(vs_cli_window *w, const char *cmd);

#endif
