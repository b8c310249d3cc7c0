/* SPDX-License-Identifier: Zlib */
/* cmd_record.c - `vramsim record GAME.nds`: run a DS game headless on the
 * DeSmuME libretro core and write the trace it sends through
 * include/vramsim/record.h's ring in main RAM (docs/capture.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_emu.h"
#include "cli/ds/ds_cmds.h"
#include "console/common/emu_guard.h"
#include "console/ds/ds_core.h"
#include "console/ds/ds_emu.h"

#define CMD "record"
#define DEFAULT_FRAMES 600u

static const vs_cli_opt options[] = {
	{ "frames", VS_CLI_EMU_FRAMES, "N", "frames to run (60 a second; default 600)" },
	{ "input", VS_CLI_EMU_INPUT, "SCRIPT", "keys and touch, frame by frame (docs/capture.md, 'Input scripts')" },
	{ "state", VS_CLI_EMU_STATE, "FILE", "start from this DeSmuME savestate of the ROM instead of power-on" },
	{ "output", 'o', "TRACE", "where to write the trace ('-' for standard output)" },
	{ "quiet", VS_CLI_EMU_QUIET, NULL, "print nothing but errors" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd command = {
	CMD, "record GAME.nds -o TRACE [--frames N] [--input SCRIPT] [--state FILE] [--quiet]",
	"Runs the DS ROM GAME.nds headless on the DeSmuME libretro core (no window, no\n"
	"BIOS or firmware files) and writes the trace lines the game sends through\n"
	"include/vramsim/record.h's ring in main RAM to TRACE ('-' for standard output).\n"
	"It is checked as a trace before it is written. A GBA ROM goes to libmgba instead.\n",
	options,
	"exit: 0 recorded a well-formed trace, 1 the game sent no trace or a malformed\n"
	"one (the file is kept to look at), 2 bad usage, not a DS ROM, unreadable input\n"
	"script or savestate (or one of another ROM), the program stopped, the ring\n"
	"overflowed, DeSmuME crashed or hung on it (" VS_EMU_GUARD_CPU_TEXT " s of CPU in one call), or no\n"
	"emulator core (nothing is left at TRACE).\n",
	vs_ds_cli_status, 0
};

/* One option or operand: -1 to go on, or an exit status (every option
 * is a shared one). */
static int take(void *ud, const vs_cli_parser *p, int c)
{
	return vs_cli_emu_take(ud, p, c);
}

static int report(const vs_cli_emu *a, const vs_ds_recorder *rec)
{
	if (rec->partial)
		fprintf(stderr, "vramsim record: %s: the last %zu bytes the game sent end without a newline: "
			"an unfinished line, not written\n", a->rom, rec->partial);
	if (!a->quiet && rec->ring)
		fprintf(stderr, "vramsim record: %s: %u frames, %llu trace lines (ring at 0x%08X, found after "
			"frame %u)\n", a->rom, (unsigned)a->play.frames, (unsigned long long)rec->lines, (unsigned)rec->ring,
			(unsigned)rec->ring_frame);
	if (!rec->ring) {
		fprintf(stderr, "vramsim record: %s: no record.h ring in main RAM in %u frames: does the game use "
			"include/vramsim/record.h (VS_REC_BEGIN first)?\n", a->rom, (unsigned)a->play.frames);
		return VS_EXIT_CHECK;
	}
	if (!rec->lines) {
		fprintf(stderr, "vramsim record: %s sent no trace lines in %u frames\n", a->rom, (unsigned)a->play.frames);
		return VS_EXIT_CHECK;
	}
	return VS_EXIT_OK;
}

static int record(void *ud, const vs_cli_emu *e, FILE *out, char *err, size_t errlen)
{
	vs_ds_recorder *rec = ud;

	if (vs_ds_record(e->rom, &e->play, out, rec, err, errlen) != 0)
		return -1;
	return rec->ring && rec->lines;
}

int vs_cmd_ds_record(int argc, char **argv)
{
	vs_cli_emu a;
	vs_ds_recorder rec;
	int rc, written;

	vs_cli_emu_init(&a, CMD);
	if ((rc = vs_cli_parse(&command, argc, argv, take, &a)) >= 0)
		return rc;
	if ((rc = vs_cli_emu_begin(&a, DEFAULT_FRAMES, 0)) != 0)
		return rc;
	if ((written = vs_cli_emu_record(&a, record, &rec)) == VS_EXIT_USAGE)
		return written;
	rc = report(&a, &rec);
	return rc == VS_EXIT_OK ? written : rc; /* written: 0, or VS_EXIT_CHECK (malformed) */
}
