/* SPDX-License-Identifier: Zlib */
/* cli_emu.h - what `record` and `capture` share on both consoles: the ROM
 * operand, --frames, --input, --state, -o and --quiet, the run they
 * describe (console/common/emu_play.h) with its progress line, and the
 * trace each writes to -o. Each command keeps its own option table
 * (the help words differ by console) and gives these options the keys
 * below. */
#ifndef VS_CLI_EMU_H
#define VS_CLI_EMU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/cli_opt.h"
#include "cli/progress.h"
#include "console/common/emu_play.h"
#include "console/common/input_script.h"

/* The shared options' keys; a command's own start at VS_CLI_EMU_OWN.
 * --quiet is -q too, as in every command that has it. */
enum {
	VS_CLI_EMU_FRAMES = VS_CLI_LONG, VS_CLI_EMU_INPUT, VS_CLI_EMU_STATE, VS_CLI_EMU_OWN,
	VS_CLI_EMU_QUIET = 'q'
};

typedef struct vs_cli_emu {
	const char *cmd; /* the command's name, for messages */
	const char *rom, *out, *input, *state;
	uint64_t frames;
	int quiet;
	/* made by vs_cli_emu_begin */
	vs_input_script script;
	vs_emu_play play;
	vs_progress progress;
} vs_cli_emu;

/* Starts e for the command cmd (before parsing). */
void vs_cli_emu_init(vs_cli_emu *e, const char *cmd);
/* One of the shared options, or the ROM operand: -1 to go on, an exit
 * status, or VS_CLI_NOT_SHARED (one of the command's own). */
int vs_cli_emu_take(vs_cli_emu *e, const vs_cli_parser *p, int c);
/* After parsing: the ROM and -o must be given, and --frames unless
 * default_frames (its value when absent) is not 0; loads the input script
 * (with gba, the keys and touch only the DS has are refused) and fills
 * e->play, with a progress line unless --quiet. 0, or an exit status with
 * the message printed. */
int vs_cli_emu_begin(vs_cli_emu *e, uint32_t default_frames, int gba);
/* Ends the progress line and frees the script (safe after a failed begin). */
void vs_cli_emu_end(vs_cli_emu *e);

/* A console's capture of e's run into out, with the command's own options
 * in ud: 0, or -1 with err. */
typedef int (*vs_cli_emu_capture_fn)(void *ud, const vs_cli_emu *e, FILE *out, char *err, size_t errlen);
/* After a successful vs_cli_emu_begin: runs capture into -o, written whole
 * or not at all (vs_cli_out_open), and ends e. 0, or VS_EXIT_USAGE with
 * the message printed. */
int vs_cli_emu_capture(vs_cli_emu *e, vs_cli_emu_capture_fn capture, void *ud);

/* A console's record of e's run, with the command's own options and its
 * recorder in ud: what the game sends goes to out. 1 it sent trace lines
 * (they are then read through as a trace), 0 it sent none, or -1 with
 * err. */
typedef int (*vs_cli_emu_record_fn)(void *ud, const vs_cli_emu *e, FILE *out, char *err, size_t errlen);
/* After a successful vs_cli_emu_begin: runs record into a temporary file
 * (-o may be a FIFO, which cannot be read back), ends e, and copies what
 * the game sent to -o, made once. 0 written, VS_EXIT_CHECK written but
 * not a well-formed trace (kept to look at), or VS_EXIT_USAGE with
 * nothing at -o; each said on standard error. */
int vs_cli_emu_record(vs_cli_emu *e, vs_cli_emu_record_fn record, void *ud);

#endif
