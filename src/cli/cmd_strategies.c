/* SPDX-License-Identifier: Zlib */
/* cmd_strategies.c - `vramsim strategies`: one line per strategy. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "strategies/registry.h"
#include "vram/arena.h"

static const vs_cli_opt options[] = {
	{ "plugin", VS_CLI_PLUGIN, "PATH", "load strategies from a plug-in (.so) first" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd command = {
	"strategies", "strategies [--plugin PATH]",
	"Lists every strategy, built in or from plug-ins, with the arenas it\n"
	"manages and a one-line description. '*' marks an arena kind's default.\n",
	options, NULL, NULL, 0
};

static void print_strategy(const vs_strategy *s)
{
	char arenas[96] = "";
	size_t len = 0;
	int k;

	for (k = 0; k < VS_ARENA_KIND_COUNT; k++) {
		if (!vs_strategy_manages(s, (vs_arena_kind)k))
			continue;
		len += (size_t)snprintf(arenas + len, sizeof arenas - len, "%s%s%s", len ? "," : "",
			vs_arena_kind_name((vs_arena_kind)k), vs_strategy_default((vs_arena_kind)k) == s ? "*" : "");
		if (len >= sizeof arenas)
			break;
	}
	if (s->arenas == (1u << VS_ARENA_KIND_COUNT) - 1u)
		snprintf(arenas, sizeof arenas, "any"); /* recorded: one word keeps the columns */
	printf("%-22s %-18s %s\n", s->name, arenas, s->summary ? s->summary : "");
}

int vs_cmd_strategies(int argc, char **argv)
{
	vs_cli_parser p;
	size_t i;
	int c;

	vs_cli_begin(&p, &command, argc, argv);
	c = vs_cli_next(&p);
	if (c == VS_CLI_STOP)
		return p.status;
	if (c != VS_CLI_END)
		return vs_cli_usage_error("strategies", "unknown argument '%s'", p.arg);
	for (i = 0; i < vs_strategy_count(); i++)
		print_strategy(vs_strategy_at(i));
	return VS_EXIT_OK;
}
