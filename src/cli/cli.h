/* SPDX-License-Identifier: Zlib */
/* cli.h - shared pieces of the vramsim sub-commands. */
#ifndef VS_CLI_H
#define VS_CLI_H

#include <stdio.h>

#include "cli_opt.h"
#include "compare/compare.h"
#include "base/out_file.h"
#include "engine/replay.h"
#include "base/compiler_hints.h"

/* Exit codes, the same for every command. */
enum { VS_EXIT_OK = 0, VS_EXIT_CHECK = 1, VS_EXIT_USAGE = 2 };

typedef int (*vs_cmd_fn)(int argc, char **argv);

/* Prints "vramsim CMD: message" (CMD NULL: "vramsim: message") to stderr
 * and returns VS_EXIT_USAGE. */
int vs_cli_usage_error(const char *cmd, const char *fmt, ...) VS_PRINTF(2, 3);
/* Prints "vramsim CMD: message" to stderr as one line: the message quotes
 * names from the user (trace paths, strategy options, budget files), so a
 * newline in one is written as \xNN as every other control character is. */
void vs_cli_say(const char *cmd, const char *fmt, ...) VS_PRINTF(2, 3);

/* A trace read more than once must be a file that can be read again: not
 * '-', a FIFO or a device. 0, or a usage error (why: what reads it again). */
int vs_cli_rereadable(const char *cmd, const char *path, const char *why);

/* Makes standard error escape what a terminal would act on: control
 * characters (but newline and tab) and bytes that are not UTF-8 are written
 * as \xNN, so no message quoting hostile input can drive the terminal.
 * main() calls it first. */
void vs_cli_safe_stderr(void);

/* The end of a command that exits with rc: what it wrote to standard output
 * must have arrived (a full disk, a closed pipe), as for any other output
 * file, and is said once when it did not. main() calls it for the commands
 * built in, a module for its own (its output state is its own copy). */
int vs_cli_finish(int rc);

/* Strategy choices from --strategy, the same in every command that takes
 * several: each value a comma list of "NAME[:OPTS]" (every arena NAME can
 * manage) or "ARENA=NAME[:OPTS]". The values are kept as given and split
 * once every option is read, so a --plugin later on the line counts. */
typedef struct vs_cli_choices {
	const char **raw;
	int nraw, rawcap;
	vs_cmp_choice *v;
	int n, cap;
	/* groups (runs, sides): v[first[g]] to v[first[g + 1] - 1] */
	int *first;
	int ngroups;
} vs_cli_choices;

/* Keeps one --strategy value. 0, or a usage error's exit status. */
int vs_cli_choices_add(const char *cmd, vs_cli_choices *cs, const char *value);
/* The usage error for a strategy name the registry lacks, with the names
 * nearest it. */
int vs_cli_unknown_strategy(const char *cmd, const char *name);
/* Splits the values into choices; unknown strategies are usage errors. */
int vs_cli_choices_split(const char *cmd, vs_cli_choices *cs);
/* Groups the choices for the trace h: a choice for an arena an earlier one
 * of the current group covers starts the next group; at most max of them
 * (what: "side", "run"). No choices make one empty group. */
int vs_cli_choices_group(const char *cmd, vs_cli_choices *cs, const vs_trace_header *h, int max, const char *what);
void vs_cli_choices_free(vs_cli_choices *cs);
/* Group g's choices once grouped: the first (NULL when there are none) and
 * their number in *n. */
const vs_cmp_choice *vs_cli_choices_of(const vs_cli_choices *cs, int g, int *n);
/* "ARENA=NAME:OPTS,NAME" for n choices. */
void vs_cli_choices_label(const vs_cmp_choice *v, int n, char *buf, size_t len);

/* Applies n choices to a replay configuration for the trace's header.
 * Returns 0, or -1 with a message naming the bad choice. */
int vs_cli_apply_choices(const vs_cmp_choice *v, int n, const vs_trace_header *h, vs_replay_config *cfg,
	char opts[][VS_OPTIONS_MAX], char *err, size_t errlen);

/* Output files (src/base/out_file.h): a regular file (or one a
 * symbolic link names) is written to a temporary file beside it and renamed
 * into place when complete, so a failed run never leaves a half-written
 * file; a FIFO or a device is written in place; "-" is standard output.
 * Errors are printed. may_replace_input: the output may be an input of the
 * run, replaced whole (out_file.h, vs_out_open_replacing). */
FILE *vs_cli_out_open(const char *path, int may_replace_input);
/* Finishes fp from vs_cli_out_open: commits it when ok, else removes it.
 * 0, or -1 after printing why. */
int vs_cli_out_close(FILE *fp, int ok);
/* Several outputs that appear together or not at all: every path is opened
 * (a path given twice is refused) before anything is written, and with
 * vs_cli_outs_close all are committed or none is. 0 or -1, messages
 * printed. */
int vs_cli_outs_open(vs_out_file *f, const char *const *paths, int n);
int vs_cli_outs_close(vs_out_file *f, int n, int ok);

/* Commands whose code lives in a module loaded on demand, so the vramsim
 * executable links neither libmgba nor SDL2: "gba" (cycles, record) and
 * "view". Runs CMD from MODULE and returns its exit status, or says what to
 * install and returns VS_EXIT_USAGE when the module cannot be loaded. */
int vs_cli_module_run(const char *module, const char *cmd, int argc, char **argv);
/* NULL when MODULE can be loaded; otherwise why not, for listings. */
const char *vs_cli_module_missing(const char *module);

/* Two replay observers in turn. vs_cli_chain_attach puts c in cfg in place
 * of the observer cfg has (the second), after the one given (the first). */
typedef struct vs_cli_chain {
	vs_observer_fn f[2];
	void *ud[2];
} vs_cli_chain;
void vs_cli_chain_attach(vs_cli_chain *c, vs_replay_config *cfg, vs_observer_fn first, void *first_ud);

int vs_cmd_replay(int argc, char **argv);
int vs_cmd_diff(int argc, char **argv);
int vs_cmd_report(int argc, char **argv);
int vs_cmd_validate(int argc, char **argv);
int vs_cmd_fmt(int argc, char **argv);
int vs_cmd_strategies(int argc, char **argv);
int vs_cmd_cycles(int argc, char **argv);
int vs_cmd_gen(int argc, char **argv);
int vs_cmd_import(int argc, char **argv);
int vs_cmd_record(int argc, char **argv);
int vs_cmd_capture(int argc, char **argv);
int vs_cmd_view(int argc, char **argv);
int vs_cmd_render(int argc, char **argv);
int vs_cmd_compare(int argc, char **argv);

#endif
