/* SPDX-License-Identifier: Zlib */
/* cmd_record.c - `vramsim record`: run a GBA game headless in libmgba and
 * write the trace it prints through include/vramsim/record.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_emu.h"
#include "console/common/emu_guard.h"
#include "console/gba/gba_emu.h"

int vs_cmd_record(int argc, char **argv);

#define CMD "record"

static void gba_status(FILE *fp, int part)
{
	char status[1536];

	if (part != 1)
		return;
	vs_gba_status(status, sizeof status);
	fprintf(fp, "\n"
		"needs: libmgba (libmgba-dev) at build time. The demo ROM (tools/demo-rom) is\n"
		"built as gba/demo.gba when arm-none-eabi-gcc (gcc-arm-none-eabi) is there.\n"
		"%s", status);
}

enum { O_LOG = VS_CLI_EMU_OWN };

static const vs_cli_opt options[] = {
	{ "frames", VS_CLI_EMU_FRAMES, "N", "frames to run (60 a second)" },
	{ "input", VS_CLI_EMU_INPUT, "SCRIPT", "keys to hold, frame by frame (docs/capture.md, 'Input scripts')" },
	{ "state", VS_CLI_EMU_STATE, "FILE", "start from this mGBA savestate of the ROM instead of power-on" },
	{ "output", 'o', "TRACE", "where to write the trace" },
	{ "log", O_LOG, NULL, "print the game's other mGBA debug-log lines on standard error" },
	{ "quiet", VS_CLI_EMU_QUIET, NULL, "print nothing but errors" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd command = {
	CMD, "record GAME.gba --frames N [--input SCRIPT] [--state FILE] -o TRACE [--log] [--quiet]",
	"Runs GAME.gba headless in libmgba (no window, no BIOS) for N frames and writes\n"
	"the trace lines it prints through include/vramsim/record.h to TRACE ('-' for\n"
	"standard output), checked as a trace before it is written. A DS ROM (named\n"
	"*.nds, or with a DS cartridge header) runs on the DeSmuME libretro core instead:\n"
	"'vramsim record GAME.nds --help'.\n",
	options,
	"exit: 0 recorded a well-formed trace, 1 the game printed no trace or a malformed\n"
	"one (the file is kept to look at), 2 bad usage, not a GBA ROM, unreadable input\n"
	"script or savestate, the game crashed, libmgba crashed or hung on it (" VS_EMU_GUARD_CPU_TEXT " s of\n"
	"CPU in one call), or no emulator (nothing is left at TRACE).\n",
	gba_status, 0
};

typedef struct record_args {
	vs_cli_emu emu; /* the options record and capture share */
	int log;
	vs_gba_recorder rec;
} record_args;

/* One option or operand: -1 to go on, or an exit status. */
static int take(void *ud, const vs_cli_parser *p, int c)
{
	record_args *a = ud;
	int rc = vs_cli_emu_take(&a->emu, p, c);

	if (rc != VS_CLI_NOT_SHARED)
		return rc;
	a->log = 1; /* O_LOG */
	return -1;
}

static int record(void *ud, const vs_cli_emu *e, FILE *out, char *err, size_t errlen)
{
	record_args *a = ud;

	if (vs_gba_record(e->rom, &e->play, out, a->log ? stderr : NULL, &a->rec, err, errlen) != 0)
		return -1;
	return a->rec.lines > 0;
}

int vs_cmd_record(int argc, char **argv)
{
	record_args a;
	const char *rom;
	int rc, written;

	vs_cli_emu_init(&a.emu, CMD);
	a.log = 0;
	if ((rc = vs_cli_parse(&command, argc, argv, take, &a)) >= 0)
		return rc;
	if ((rc = vs_cli_emu_begin(&a.emu, 0, 1)) != 0)
		return rc;
	rom = a.emu.rom;
	if ((written = vs_cli_emu_record(&a.emu, record, &a)) == VS_EXIT_USAGE)
		return written;
	if (!a.emu.quiet) {
		fprintf(stderr, "vramsim record: %s: %u frames, %llu trace lines", rom, (unsigned)a.emu.play.frames,
			(unsigned long long)a.rec.lines);
		if (a.rec.others)
			fprintf(stderr, ", %llu other debug lines%s", (unsigned long long)a.rec.others,
				a.log ? "" : " (--log shows them)");
		fprintf(stderr, "\n");
	}
	if (!a.rec.lines) {
		fprintf(stderr, "vramsim record: %s printed no trace lines in %u frames: does it use "
			"include/vramsim/record.h (VS_REC_BEGIN first)?\n", rom, (unsigned)a.emu.play.frames);
		return VS_EXIT_CHECK;
	}
	return written; /* 0, or VS_EXIT_CHECK: malformed, the file kept to look at */
}
