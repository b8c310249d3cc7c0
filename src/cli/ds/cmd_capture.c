/* SPDX-License-Identifier: Zlib */
/* cmd_capture.c - `vramsim capture GAME.nds`: run a DS ROM headless on the
 * DeSmuME libretro core and infer an allocation trace from what it shows
 * (docs/capture.md, DS part). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "cli/ds/ds_cmds.h"
#include "capture/capture.h"
#include "console/ds/ds_core.h"
#include "console/ds/ds_emu.h"

#define CMD "capture"

enum { O_FRAMES = VS_CLI_LONG, O_INPUT, O_STATE, O_GRACE, O_LOOKBACK, O_QUIET };

static const vs_cli_opt options[] = {
	{ "frames", O_FRAMES, "N", "frames to run and capture (60 a second)" },
	{ "input", O_INPUT, "SCRIPT", "keys and touch, frame by frame (docs/capture.md, 'Input scripts')" },
	{ "state", O_STATE, "FILE", "start from this DeSmuME savestate of the ROM instead of power-on" },
	{ "grace", O_GRACE, "N", "frames (1-600) a range may go unshown before it\ncounts as freed (default 3)" },
	{ "lookback", O_LOOKBACK, "N", "frames (0-600) an upload may come before its first\nuse (default 4)" },
	{ "output", 'o', "TRACE", "where to write the trace ('-' for standard output)" },
	{ "quiet", O_QUIET, NULL, "print nothing but errors" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd command = {
	CMD, "capture GAME.nds --frames N [--input SCRIPT] [--state FILE] [--grace N] [--lookback N] -o TRACE",
	"Runs the DS ROM GAME.nds headless on the DeSmuME libretro core (no window, no\n"
	"BIOS or firmware files) and writes the allocation trace its video memory shows,\n"
	"inferred at the end of every frame from VRAMCNT, both engines' display and BG\n"
	"registers, OAM, the VRAM banks and the 3D polygon list: sprites, BG maps,\n"
	"characters and bitmaps, extended palettes, textures and texture palettes, each\n"
	"at the game's own address, and the game's bank changes. The game needs no\n"
	"change. Replay the trace with --strategy recorded for the game's own placement.\n"
	"The rules and what capture cannot know: docs/capture.md. A GBA ROM goes to\n"
	"libmgba instead.\n",
	options,
	"exit: 0 captured, 2 bad usage, not a DS ROM, unreadable input script or\n"
	"savestate (or one of another ROM), the program stopped, or no emulator core.\n"
	"Nothing is left at TRACE on error.\n",
	vs_ds_cli_status, 0
};

typedef struct capture_args {
	const char *rom, *out, *input, *state;
	uint64_t frames, grace, lookback;
	int quiet, have_lookback;
} capture_args;

/* One option or operand: -1 to go on, or an exit status. */
static int take(void *ud, const vs_cli_parser *p, int c)
{
	capture_args *a = ud;

	switch (c) {
	case O_FRAMES:
		return vs_cli_uint(p, 1, 0xFFFFFFFFu, &a->frames) ? VS_EXIT_USAGE : -1;
	case O_GRACE:
		return vs_cli_uint(p, 1, VS_CAPTURE_WINDOW_MAX, &a->grace) ? VS_EXIT_USAGE : -1;
	case O_LOOKBACK:
		a->have_lookback = 1;
		return vs_cli_uint(p, 0, VS_CAPTURE_WINDOW_MAX, &a->lookback) ? VS_EXIT_USAGE : -1;
	case O_INPUT:
		a->input = p->arg;
		return -1;
	case O_STATE:
		a->state = p->arg;
		return -1;
	case O_QUIET:
		a->quiet = 1;
		return -1;
	case 'o':
		a->out = p->arg;
		return -1;
	default:
		if (a->rom)
			return vs_cli_usage_error(CMD, "one ROM at a time (got '%s' and '%s')", a->rom, p->arg);
		a->rom = p->arg;
		return -1;
	}
}

static void report(const char *rom, const vs_ds_capture_stats *s)
{
	uint64_t allocs = 0, live = 0;
	unsigned i;

	for (i = 0; i < VS_DS_CAP_ARENAS; i++) {
		allocs += s->arena[i].allocs;
		live += s->arena[i].live;
	}
	fprintf(stderr, "vramsim capture: %s: %llu frames; %llu allocations in", rom, (unsigned long long)s->frames,
		(unsigned long long)allocs);
	for (i = 0; i < VS_DS_CAP_ARENAS; i++)
		if (s->declared[i])
			fprintf(stderr, " %s %llu", vs_ds_capture_arena_name(i), (unsigned long long)s->arena[i].allocs);
	fprintf(stderr, "; %llu live at the end; %llu bank changes\n", (unsigned long long)live,
		(unsigned long long)s->bank_changes);
	if (s->held)
		fprintf(stderr, "vramsim capture: note: the first %llu frames mapped no bank or showed nothing: the "
			"arenas are those of the first that did\n", (unsigned long long)s->held);
	if (s->bank_undeclared)
		fprintf(stderr, "vramsim capture: note: %llu bank changes gave a bank a use the trace has no arena for "
			"(not mapped when the header was written): those allocations are not captured; --state or --input "
			"can start the capture later\n", (unsigned long long)s->bank_undeclared);
	if (s->list_frames && s->list_frames * 2u < s->frames - s->held)
		fprintf(stderr, "vramsim capture: note: the 3D polygon list was empty on %llu of %llu frames (an engine "
			"drawing below 60 fps): textures age only on frames with a list\n",
			(unsigned long long)(s->frames - s->held - s->list_frames), (unsigned long long)(s->frames - s->held));
}

int vs_cmd_ds_capture(int argc, char **argv)
{
	capture_args a;
	vs_input_script script = { NULL, 0 };
	vs_ds_play play;
	vs_progress pg;
	vs_ds_capture_options o;
	vs_ds_capture_stats st;
	char err[1024];
	FILE *fp;
	int rc, ok;

	memset(&a, 0, sizeof a);
	if ((rc = vs_cli_parse(&command, argc, argv, take, &a)) >= 0)
		return rc;
	if (!a.rom)
		return vs_cli_usage_error(CMD, "no ROM given");
	if (!a.frames)
		return vs_cli_usage_error(CMD, "--frames N is required");
	if (!a.out)
		return vs_cli_usage_error(CMD, "-o TRACE is required");
	if (a.input && vs_input_script_load(a.input, &script, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return VS_EXIT_USAGE;
	}
	vs_ds_capture_options_default(&o);
	if (a.grace)
		o.grace = (uint32_t)a.grace;
	if (a.have_lookback)
		o.lookback = (uint32_t)a.lookback;
	memset(&play, 0, sizeof play);
	play.frames = (uint32_t)a.frames;
	play.input = a.input ? &script : NULL;
	play.state = a.state;
	vs_progress_start_frames(&pg, CMD, a.quiet);
	if (pg.on) {
		play.progress = vs_progress_frames;
		play.progress_ud = &pg;
	}
	fp = vs_cli_out_open(a.out, 0);
	if (!fp) {
		vs_input_script_free(&script);
		return VS_EXIT_USAGE;
	}
	ok = vs_ds_emu_capture(a.rom, &play, &o, fp, &st, err, sizeof err) == 0;
	vs_progress_end(&pg);
	if (!ok)
		fprintf(stderr, "vramsim capture: %s\n", err);
	vs_input_script_free(&script);
	if (vs_cli_out_close(fp, ok) || !ok)
		return VS_EXIT_USAGE;
	if (!a.quiet)
		report(a.rom, &st);
	if (!a.quiet && vs_ds_emu_last_note())
		fprintf(stderr, "vramsim capture: note: %s\n", vs_ds_emu_last_note());
	return VS_EXIT_OK;
}
