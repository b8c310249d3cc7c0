/* SPDX-License-Identifier: Zlib */
/* cmd_record.c - `vramsim record GAME.nds`: run a DS game headless on the
 * DeSmuME libretro core and write the trace it sends through
 * include/vramsim/record.h's ring in main RAM (docs/capture.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "cli/ds/ds_cmds.h"
#include "console/ds/ds_core.h"
#include "console/ds/ds_emu.h"

#define CMD "record"
#define DEFAULT_FRAMES 600u

enum { O_FRAMES = VS_CLI_LONG, O_INPUT, O_STATE, O_QUIET };

static const vs_cli_opt options[] = {
	{ "frames", O_FRAMES, "N", "frames to run (60 a second; default 600)" },
	{ "input", O_INPUT, "SCRIPT", "keys and touch, frame by frame (docs/capture.md, 'Input scripts')" },
	{ "state", O_STATE, "FILE", "start from this DeSmuME savestate of the ROM instead of power-on" },
	{ "output", 'o', "TRACE", "where to write the trace ('-' for standard output)" },
	{ "quiet", O_QUIET, NULL, "print nothing but errors" },
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
	"overflowed, or no emulator core (nothing is left at TRACE).\n",
	vs_ds_cli_status, 0
};

typedef struct record_args {
	const char *rom, *out, *input, *state;
	uint64_t frames;
	int quiet;
} record_args;

static int take(void *ud, const vs_cli_parser *p, int c)
{
	record_args *a = ud;

	if (c == O_FRAMES)
		return vs_cli_uint(p, 1, 0xFFFFFFFFu, &a->frames) ? VS_EXIT_USAGE : -1;
	if (c == 'o')
		a->out = p->arg;
	else if (c == O_INPUT)
		a->input = p->arg;
	else if (c == O_STATE)
		a->state = p->arg;
	else if (c == O_QUIET)
		a->quiet = 1;
	else if (a->rom)
		return vs_cli_usage_error(CMD, "one ROM at a time (got '%s' and '%s')", a->rom, p->arg);
	else
		a->rom = p->arg;
	return -1;
}

static int report(const record_args *a, const vs_ds_play *play, const vs_ds_recorder *rec)
{
	if (rec->partial)
		fprintf(stderr, "vramsim record: %s: the last %zu bytes the game sent end without a newline: "
			"an unfinished line, not written\n", a->rom, rec->partial);
	if (!a->quiet && rec->ring)
		fprintf(stderr, "vramsim record: %s: %u frames, %llu trace lines (ring at 0x%08X, found after "
			"frame %u)\n", a->rom, (unsigned)play->frames, (unsigned long long)rec->lines, (unsigned)rec->ring,
			(unsigned)rec->ring_frame);
	if (!rec->ring) {
		fprintf(stderr, "vramsim record: %s: no record.h ring in main RAM in %u frames: does the game use "
			"include/vramsim/record.h (VS_REC_BEGIN first)?\n", a->rom, (unsigned)play->frames);
		return VS_EXIT_CHECK;
	}
	if (!rec->lines) {
		fprintf(stderr, "vramsim record: %s sent no trace lines in %u frames\n", a->rom, (unsigned)play->frames);
		return VS_EXIT_CHECK;
	}
	return VS_EXIT_OK;
}

int vs_cmd_ds_record(int argc, char **argv)
{
	record_args a;
	vs_input_script script = { NULL, 0 };
	vs_ds_play play;
	vs_ds_recorder rec;
	vs_progress pg;
	char err[1024];
	FILE *fp;
	int rc, ok, malformed;

	memset(&a, 0, sizeof a);
	if ((rc = vs_cli_parse(&command, argc, argv, take, &a)) >= 0)
		return rc;
	if (!a.rom)
		return vs_cli_usage_error(CMD, "no ROM given");
	if (!a.out)
		return vs_cli_usage_error(CMD, "-o TRACE is required");
	if (a.input && vs_input_script_load(a.input, &script, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return VS_EXIT_USAGE;
	}
	memset(&play, 0, sizeof play);
	play.frames = a.frames ? (uint32_t)a.frames : DEFAULT_FRAMES;
	play.input = a.input ? &script : NULL;
	play.state = a.state;
	vs_progress_start_frames(&pg, CMD, a.quiet);
	if (pg.on) {
		play.progress = vs_progress_frames;
		play.progress_ud = &pg;
	}
	/* the output is made once, from what was recorded and checked */
	if (!(fp = vs_cli_record_open(a.out))) {
		vs_input_script_free(&script);
		vs_progress_end(&pg);
		return VS_EXIT_USAGE;
	}
	ok = vs_ds_record(a.rom, &play, fp, &rec, err, sizeof err) == 0;
	vs_progress_end(&pg);
	if (!ok)
		fprintf(stderr, "vramsim record: %s\n", err);
	vs_input_script_free(&script);
	malformed = ok ? vs_cli_record_write(fp, a.out, rec.ring && rec.lines) : -1;
	fclose(fp);
	if (malformed < 0)
		return VS_EXIT_USAGE;
	rc = report(&a, &play, &rec);
	return rc == VS_EXIT_OK && malformed ? VS_EXIT_CHECK : rc;
	return report(&a, &play, &rec);
}
