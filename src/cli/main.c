/* SPDX-License-Identifier: Zlib */
/* main.c - the vramsim command: dispatches to sub-commands. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/compiler_hints.h"
#include "base/out_file.h"
#include "cli.h"
#include "cli_cycles.h"
#include "console/common/rom_kind.h"

#if defined(VS_ASAN)
/* The DS emulator core (C++, loaded by the ds module) deletes with delete
 * what it made with new[]: its bug, and our C code uses neither, so the
 * sanitizer build does not stop a DS run on it. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "alloc_dealloc_mismatch=0";
}
#endif

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
	{ "diff", vs_cmd_diff, "what changed from one run to another: metric and tag deltas, failures in one only", NULL },
	{ "compare", vs_cmd_compare, "compare strategies on traces: tables, ranking, budgets, baselines (CI)", NULL },
	{ "render", vs_cmd_render, "write PNG pictures: occupancy maps, heatmap, chart; two strategies side by side", NULL },
	{ "view", NULL, "play a trace in a window (SDL2): seek, hover, two strategies side by side", "view" },
	{ "report", vs_cmd_report, "write one self-contained HTML report: comparison, pictures, failures, tags", NULL },
	{ "gen", vs_cmd_gen, "write a generated workload trace (GBA sprites and scrolling, DS levels and streaming, RAM heap churn)", NULL },
	{ "import", vs_cmd_import, "turn a malloc-lab .rep trace (CS:APP, CMU) into a vramsim trace", NULL },
	{ "cycles", NULL, "time each allocator call on an emulated GBA (libmgba) or DS (DeSmuME); compare placements", "gba" },
	{ "record", NULL, "run a GBA or DS ROM headless; write the trace it prints via record.h", "gba" },
	{ "capture", NULL, "run any GBA or DS ROM headless; infer its VRAM allocation trace from what it shows", "gba" },
	{ "play", NULL, "play a GBA or DS ROM in a window beside its live VRAM maps; keep the session as a capture", "play" },
	{ "help", NULL, "describe vramsim, or a command: 'vramsim help COMMAND'", NULL },
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void list_commands(FILE *fp, int part)
{
	size_t i;

	if (part != 0)
		return;
	fprintf(fp, "\ncommands:\n");
	for (i = 0; i < NCOMMANDS; i++) {
		const char *why = commands[i].module ? vs_cli_module_missing(commands[i].module) : NULL;
		fprintf(fp, "  %-11s %s\n", commands[i].name, commands[i].help);
		if (why)
			fprintf(fp, "  %-11s (unavailable: %s)\n", "", why);
	}
}

enum { O_VERSION = VS_CLI_LONG };

static const vs_cli_opt main_opts[] = {
	{ "version", O_VERSION, NULL, "print the version, the trace format and the strategy ABI" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd main_cmd = {
	NULL, "[--version] [--help] COMMAND [ARGS]",
	"vramsim replays recorded allocation traces against the allocators of GBA and DS\n"
	"video memory (and RAM heaps), modelling the memory byte for byte.\n",
	main_opts,
	"'vramsim COMMAND --help' (or 'vramsim help COMMAND') describes a command; its\n"
	"options go after it. Exit codes: 0 success, 1 a check or budget failed, 2 usage\n"
	"or input error.\n",
	list_commands, 1
};

static const command *find(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(name, commands[i].name) == 0)
			return &commands[i];
	return NULL;
}

static int unknown_command(const char *name)
{
	char near[256];
	vs_cli_near nr;
	size_t i;

	vs_cli_near_init(&nr, name);
	for (i = 0; i < NCOMMANDS; i++)
		vs_cli_near_add(&nr, commands[i].name);
	return vs_cli_usage_error(NULL, "unknown command '%s'%s", name, vs_cli_near_text(&nr, "", near, sizeof near));
}

static int run(int argc, char **argv);

static const vs_cli_cmd help_cmd = {
	"help", "help [COMMAND]",
	"Describes vramsim, or COMMAND: the same as 'vramsim COMMAND --help'.\n",
	NULL, NULL, NULL, 0
};

static int cmd_help(int argc, char **argv)
{
	vs_cli_parser p;
	char *args[3] = { NULL, "--help", NULL };
	int c;

	vs_cli_begin(&p, &help_cmd, argc, argv);
	while ((c = vs_cli_next(&p)) != VS_CLI_END) {
		if (c == VS_CLI_STOP)
			return p.status;
		if (args[0])
			return vs_cli_usage_error("help", "one command at a time");
		args[0] = p.argv[p.at];
	}
	if (!args[0] || strcmp(args[0], "help") == 0) {
		vs_cli_help(&main_cmd, stdout);
		return VS_EXIT_OK;
	}
	return find(args[0]) ? run(2, args) : unknown_command(args[0]);
}

/* ---- completion ---------------------------------------------------------- */

static void complete_command(const char *cur)
{
	size_t i;

	if (cur[0] == '-') {
		vs_cli_complete(&main_cmd, 1, (char **)&cur);
		return;
	}
	for (i = 0; i < NCOMMANDS; i++)
		if (strncmp(commands[i].name, cur, strlen(cur)) == 0)
			printf("%s\n", commands[i].name);
}

/* The words after "vramsim" up to the cursor, the last one being typed:
 * command names here, the rest from the command's own table. */
static int complete(int n, char **w)
{
	char **args;
	int i;

	if (n <= 1 || (n == 2 && strcmp(w[0], "help") == 0)) {
		complete_command(n ? w[n - 1] : "");
		return VS_EXIT_OK;
	}
	if (!find(w[0]) || strcmp(w[0], "help") == 0)
		return VS_EXIT_OK;
	args = malloc((size_t)(n + 2) * sizeof *args);
	if (!args)
		return VS_EXIT_USAGE;
	args[0] = w[0];
	args[1] = "--vs-complete";
	for (i = 1; i < n; i++)
		args[i + 1] = w[i];
	args[n + 1] = NULL;
	run(n + 1, args);
	free(args);
	return VS_EXIT_OK;
}

static const vs_cli_cmd complete_cmd = {
	"complete", "complete -- WORD...",
	"For shells (src/cli/vramsim.bash-completion): prints the candidates for the last\n"
	"WORD of 'vramsim WORD...', one a line; nothing where a file name goes.\n",
	NULL, NULL, NULL, 0
};

static int cmd_complete(int argc, char **argv)
{
	vs_cli_parser p;
	int c;

	vs_cli_begin(&p, &complete_cmd, argc, argv);
	while ((c = vs_cli_next(&p)) != VS_CLI_OPERAND)
		if (c == VS_CLI_STOP)
			return p.status;
		else if (c == VS_CLI_END)
			return complete(0, NULL);
	return complete(argc - p.at, argv + p.at);
}

/* record and capture run a DS ROM (by its header, or named *.nds) in the
 * ds module, anything else in the gba module; cycles measures a DS trace
 * in the ds module (cli_cycles.h). */
static const char *rom_module(const command *c, int argc, char **argv)
{
	int i, operands = 0;

	if (strcmp(c->name, "cycles") == 0)
		return vs_cli_cycles_module(argc, argv);
	if (strcmp(c->name, "record") != 0 && strcmp(c->name, "capture") != 0)
		return c->module;
	for (i = 1; i < argc; i++) {
		if (!operands && strcmp(argv[i], "--") == 0)
			operands = 1;
		else if (!operands && (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0))
			i++; /* the output is written, not read */
		else if ((operands || argv[i][0] != '-') && vs_rom_kind_file(argv[i]) == VS_ROM_KIND_DS)
			return "ds";
	}
	return c->module;
}

/* A module ends its command itself (vs_cli_finish). */
static int ran_in_module;

/* argv[0] is the command's name. */
static int run(int argc, char **argv)
{
	const command *c = find(argv[0]);

	if (c && c->fn)
		return c->fn(argc, argv);
	if (c && c->module) {
		ran_in_module = 1;
		return vs_cli_module_run(rom_module(c, argc, argv), c->name, argc, argv);
	}
	if (c)
		return cmd_help(argc, argv);
	if (strcmp(argv[0], "complete") == 0)
		return cmd_complete(argc, argv);
	return unknown_command(argv[0]);
}

static int dispatch(int argc, char **argv)
{
	vs_cli_parser p;

	if (argc < 2) {
		vs_cli_help(&main_cmd, stderr);
		return VS_EXIT_USAGE;
	}
	vs_cli_begin(&p, &main_cmd, argc, argv);
	switch (vs_cli_next(&p)) {
	case VS_CLI_STOP:
		return p.status;
	case O_VERSION:
		printf("vramsim %s (trace format %d, strategy ABI %d)\n", VS_VERSION, VS_TRACE_VERSION, VS_STRATEGY_ABI);
		return VS_EXIT_OK;
	case VS_CLI_OPERAND:
		return run(argc - p.at, argv + p.at);
	default:
		return vs_cli_usage_error(NULL, "no command given");
	}
}

/* Standard input, output or error closed by the caller (`>&-`) would be
 * the number the next file the run opens takes: its log then lands in the
 * trace it writes, its trace in its own spool. Each closed one is held by
 * /dev/null open the other way, so its use fails as on a closed one
 * (EBADF) and no file can take its number. */
static void hold_closed_std_fds(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		int got;
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (got >= 0 && got != fd) {
			dup2(got, fd);
			close(got);
		}
	}
}

int main(int argc, char **argv)
{
	int rc;

	hold_closed_std_fds();
	vs_cli_safe_stderr();
	rc = dispatch(argc, argv);
	return ran_in_module ? rc : vs_cli_finish(rc);
}
