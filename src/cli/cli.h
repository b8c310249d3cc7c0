/* SPDX-License-Identifier: Zlib */
/* cli.h - shared pieces of the vramsim sub-commands. */
#ifndef VS_CLI_H
#define VS_CLI_H

#include <stdio.h>

#include "vramsim/replay.h"

/* Exit codes, the same for every command. */
enum { VS_EXIT_OK = 0, VS_EXIT_CHECK = 1, VS_EXIT_USAGE = 2 };

typedef int (*vs_cmd_fn)(int argc, char **argv);

/* Prints "vramsim CMD: message" to stderr and returns VS_EXIT_USAGE. */
int vs_cli_usage_error(const char *cmd, const char *fmt, ...);

/* Handles options every command shares (--plugin PATH). Returns 1 if
 * argv[*i] was one (advancing *i past its argument), 0 if not, -1 on error
 * (message printed). */
int vs_cli_common_option(const char *cmd, int argc, char **argv, int *i);

/* Strategy choices from --strategy: "NAME[:OPTS]" for every arena it can
 * manage, "ARENA=NAME[:OPTS]" for one arena. */
typedef struct vs_cli_strategies {
	int n;
	char spec[32][160];
} vs_cli_strategies;

/* Applies the choices to a replay configuration for the trace's header.
 * Returns 0, or -1 with a message naming the bad choice. */
int vs_cli_apply_strategies(const vs_cli_strategies *cs, const vs_trace_header *h,
	vs_replay_config *cfg, char opts[][VS_OPTIONS_MAX], char *err, size_t errlen);

/* Output files are written to PATH.tmp-PID and renamed into place when
 * complete, so a failed run never leaves a half-written file. */
FILE *vs_cli_out_open(const char *path, char *tmp, size_t tmplen);
int vs_cli_out_close(FILE *fp, const char *path, const char *tmp, int ok);

/* Commands whose code lives in a module loaded on demand, so the vramsim
 * executable links neither libmgba nor SDL2: "gba" (cycles, record) and
 * "view". Runs CMD from MODULE and returns its exit status, or says what to
 * install and returns VS_EXIT_USAGE when the module cannot be loaded. */
int vs_cli_module_run(const char *module, const char *cmd, int argc, char **argv);
/* NULL when MODULE can be loaded; otherwise why not, for listings. */
const char *vs_cli_module_missing(const char *module);

int vs_cmd_replay(int argc, char **argv);
int vs_cmd_validate(int argc, char **argv);
int vs_cmd_fmt(int argc, char **argv);
int vs_cmd_strategies(int argc, char **argv);
int vs_cmd_cycles(int argc, char **argv);
int vs_cmd_gen(int argc, char **argv);
int vs_cmd_import(int argc, char **argv);
int vs_cmd_record(int argc, char **argv);
int vs_cmd_view(int argc, char **argv);
int vs_cmd_render(int argc, char **argv);
int vs_cmd_compare(int argc, char **argv);

#endif
