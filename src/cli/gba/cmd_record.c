/* SPDX-License-Identifier: Zlib */
/* cmd_record.c - `vramsim record`: run a GBA game headless in libmgba and
 * write the trace it prints through include/vramsim/record.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
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

enum { O_FRAMES = VS_CLI_LONG, O_LOG, O_INPUT, O_STATE };

static const vs_cli_opt options[] = {
	{ "frames", O_FRAMES, "N", "frames to run (60 a second)" },
	{ "input", O_INPUT, "SCRIPT", "keys to hold, frame by frame (docs/capture.md, 'Input scripts')" },
	{ "state", O_STATE, "FILE", "start from this mGBA savestate of the ROM instead of power-on" },
	{ "output", 'o', "TRACE", "where to write the trace" },
	{ "log", O_LOG, NULL, "print the game's other mGBA debug-log lines on standard error" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd command = {
	CMD, "record GAME.gba --frames N [--input SCRIPT] [--state FILE] -o TRACE [--log]",
	"Runs GAME.gba headless in libmgba (no window, no BIOS) for N frames and writes\n"
	"the trace lines it prints through include/vramsim/record.h to TRACE ('-' for\n"
	"standard output), checked as a trace before it is written. A DS ROM (named\n"
	"*.nds, or with a DS cartridge header) runs on the DeSmuME libretro core instead:\n"
	"'vramsim record GAME.nds --help'.\n",
	options,
	"exit: 0 recorded a well-formed trace, 1 the game printed no trace or a malformed\n"
	"one (the file is kept to look at), 2 bad usage, not a GBA ROM, unreadable input\n"
	"script or savestate, the game crashed, or no emulator (nothing is left at TRACE).\n",
	gba_status, 0
};

typedef struct record_args {
	const char *rom, *out, *input, *state;
	uint64_t frames;
	int log;
} record_args;

/* One option or operand: -1 to go on, or an exit status. */
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
	else if (c == O_LOG)
		a->log = 1;
	else if (a->rom)
		return vs_cli_usage_error(CMD, "one ROM at a time (got '%s' and '%s')", a->rom, p->arg);
	else
		a->rom = p->arg;
	return -1;
}

int vs_cmd_record(int argc, char **argv)
{
	record_args a = { NULL, NULL, NULL, NULL, 0, 0 };
	vs_input_script script = { NULL, 0 };
	vs_gba_play play;
	const char *rom, *out;
	uint64_t frames;
	int log, ok, rc, checked;
	char err[1024];
	vs_gba_recorder rec;
	FILE *fp;

	if ((rc = vs_cli_parse(&command, argc, argv, take, &a)) >= 0)
		return rc;
	rom = a.rom;
	out = a.out;
	frames = a.frames;
	log = a.log;
	if (!rom)
		return vs_cli_usage_error(CMD, "no ROM given");
	if (!frames)
		return vs_cli_usage_error(CMD, "--frames N is required");
	if (!out)
		return vs_cli_usage_error(CMD, "-o TRACE is required");
	if (a.input && vs_input_script_load(a.input, &script, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return VS_EXIT_USAGE;
	}
	if (a.input && vs_input_script_gba_only(&script, a.input, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err); /* x, y, touch: DS only */
		vs_input_script_free(&script);
		return VS_EXIT_USAGE;
	}
	play.frames = (uint32_t)frames;
	play.input = a.input ? &script : NULL;
	play.state = a.state;
	/* the output is made once, from what was recorded and checked */
	if (!(fp = vs_cli_record_open(out))) {
		vs_input_script_free(&script);
		return VS_EXIT_USAGE;
	}
	ok = vs_gba_record(rom, &play, fp, log ? stderr : NULL, &rec, err, sizeof err) == 0;
	if (!ok)
		fprintf(stderr, "vramsim record: %s\n", err);
	vs_input_script_free(&script);
	checked = ok ? vs_cli_record_write(fp, out, rec.lines > 0) : -1;
	if (checked < 0) {
		fclose(fp);
		return VS_EXIT_USAGE;
	}
	fclose(fp);
	fprintf(stderr, "vramsim record: %s: %llu frames, %llu trace lines", rom, (unsigned long long)frames,
		(unsigned long long)rec.lines);
	if (rec.others)
		fprintf(stderr, ", %llu other debug lines%s", (unsigned long long)rec.others,
			log ? "" : " (--log shows them)");
	fprintf(stderr, "\n");
	if (!rec.lines) {
		fprintf(stderr, "vramsim record: %s printed no trace lines in %llu frames: does it use "
			"include/vramsim/record.h (VS_REC_BEGIN first)?\n", rom, (unsigned long long)frames);
		return VS_EXIT_CHECK;
	}
	if (checked > 0)
		return VS_EXIT_CHECK;
	return VS_EXIT_OK;
}
