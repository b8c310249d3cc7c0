/* SPDX-License-Identifier: Zlib */
/* cli_window.c - --from and --to as the commands that draw a window of a
 * replay take them (cli_window.h). */
#include "cli/cli.h"
#include "cli/cli_window.h"

int vs_cli_window_take(vs_cli_window *w, const vs_cli_parser *p, int c)
{
	if (c == VS_CLI_WINDOW_FROM)
		w->from = p->arg;
	else if (c == VS_CLI_WINDOW_TO)
		w->to = p->arg;
	else
		return VS_CLI_NOT_SHARED;
	return -1;
}

int vs_cli_window_parse(vs_cli_window *w, const char *cmd)
{
	char err[512];

	if (vs_window_parse(&w->win, w->from, w->to, err, sizeof err))
		return vs_cli_usage_error(cmd, "%s", err);
	return 0;
}
