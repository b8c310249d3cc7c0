/* SPDX-License-Identifier: Zlib */
/* main.c - the vramsim command: dispatches to sub-commands. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct command {
	const char *name;
	vs_cmd_fn fn; /* NULL: the command lives in a module */
	const char *help;
	const char *module; /* loaded on demand: "gba" (libmgba), "view" (SDL2) */
} command;

static const command commands[] = {
	{ "replay", vs_cmd_replay, "replay a trace against strategies; print the summary", NULL },
	{ "validate", vs_cmd_validate, "check that a trace is well-formed", NULL },
	{ "fmt", vs_cmd_fmt, "rewrite a trace in canonical form", NULL },
	{ "strategies", vs_cmd_strategies, "list every strategy and the arenas it manages", NULL },
	{ "compare", vs_cmd_compare, "compare strategies on traces: tables, ranking, budgets, baselines (CI)", NULL },
	{ "render", vs_cmd_render, "write PNG pictures: occupancy maps, heatmap, chart; two strategies side by side", NULL },
	{ "view", NULL, "play a trace in a window (SDL2): seek, hover, two strategies side by side", "view" },
	{ "gen", vs_cmd_gen, "write a generated workload trace (GBA sprites and scrolling, DS levels and streaming)", NULL },
	{ "import", vs_cmd_import, "turn a CS:APP malloc-lab .rep trace into a vramsim trace", NULL },
	{ "cycles", NULL, "time each allocator call on an emulated GBA (libmgba); compare placements", "gba" },
	{ "record", NULL, "run a GBA ROM headless; write the trace it prints via record.h", "gba" },
};

static void usage(FILE *fp)
{
	size_t i;

	fprintf(fp,
		"usage: vramsim [--version] [--help] COMMAND [ARGS]\n"
		"\n"
		"vramsim replays recorded allocation traces against the allocators of GBA and DS\n"
		"video memory (and RAM heaps), modelling the memory byte for byte.\n"
		"\n"
		"commands:\n");
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		const char *why = commands[i].module ? vs_cli_module_missing(commands[i].module) : NULL;
		fprintf(fp, "  %-11s %s\n", commands[i].name, commands[i].help);
		if (why)
			fprintf(fp, "  %-11s (unavailable: %s)\n", "", why);
	}
	fprintf(fp,
		"\n"
		"'vramsim COMMAND --help' describes a command. Exit codes: 0 success, 1 a check\n"
		"or budget failed, 2 usage or input error.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return VS_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return VS_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("vramsim %s (trace format %d, strategy ABI %d)\n", VS_VERSION, VS_TRACE_VERSION, VS_STRATEGY_ABI);
		return VS_EXIT_OK;
	}
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn ? commands[i].fn(argc - 1, argv + 1)
				: vs_cli_module_run(commands[i].module, commands[i].name, argc - 1, argv + 1);
	fprintf(stderr, "vramsim: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return VS_EXIT_USAGE;
}
