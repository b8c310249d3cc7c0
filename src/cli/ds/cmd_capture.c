/* SPDX-License-Identifier: Zlib */
/* cmd_capture.c - `vramsim capture GAME.nds`: run a DS ROM headless on the
 * DeSmuME libretro core and infer an allocation trace from what it shows
 * (docs/capture.md, DS part). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_emu.h"
#include "cli/ds/ds_cmds.h"
#include "capture/capture.h"
#include "console/common/emu_guard.h"
#include "console/ds/ds_core.h"
#include "console/ds/ds_emu.h"

#define CMD "capture"

enum { O_GRACE = VS_CLI_EMU_OWN, O_LOOKBACK };

static const vs_cli_opt options[] = {
	{ "frames", VS_CLI_EMU_FRAMES, "N", "frames to run and capture (60 a second)" },
	{ "input", VS_CLI_EMU_INPUT, "SCRIPT", "keys and touch, frame by frame (docs/capture.md, 'Input scripts')" },
	{ "state", VS_CLI_EMU_STATE, "FILE", "start from this DeSmuME savestate of the ROM instead of power-on" },
	{ "grace", O_GRACE, "N", "frames (1-600) a range may go unshown before it\ncounts as freed (default 3)" },
	{ "lookback", O_LOOKBACK, "N", "frames (0-600) an upload may come before its first\nuse (default 4)" },
	{ "output", 'o', "TRACE", "where to write the trace ('-' for standard output)" },
	{ "quiet", VS_CLI_EMU_QUIET, NULL, "print nothing but errors" },
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
	"savestate (or one of another ROM), the program stopped, DeSmuME crashed or\n"
	"hung on it (" VS_EMU_GUARD_CPU_TEXT " s of CPU in one call), or no emulator core. Nothing is left at\n"
	"TRACE on error.\n",
	vs_ds_cli_status, 0
};

typedef struct capture_args {
	vs_cli_emu emu; /* the options record and capture share */
	uint64_t grace, lookback;
	int have_lookback;
	vs_ds_capture_options o; /* made of the above */
	vs_ds_capture_stats st;
} capture_args;

/* One option or operand: -1 to go on, or an exit status. */
static int take(void *ud, const vs_cli_parser *p, int c)
{
	capture_args *a = ud;
	int rc = vs_cli_emu_take(&a->emu, p, c);

	if (rc != VS_CLI_NOT_SHARED)
		return rc;
	if (c == O_GRACE)
		return vs_cli_uint(p, 1, VS_CAPTURE_WINDOW_MAX, &a->grace) ? VS_EXIT_USAGE : -1;
	a->have_lookback = 1; /* O_LOOKBACK */
	return vs_cli_uint(p, 0, VS_CAPTURE_WINDOW_MAX, &a->lookback) ? VS_EXIT_USAGE : -1;
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

static int capture(void *ud, const vs_cli_emu *e, FILE *out, char *err, size_t errlen)
{
	capture_args *a = ud;

	return vs_ds_emu_capture(e->rom, &e->play, &a->o, out, &a->st, err, errlen);
}

int vs_cmd_ds_capture(int argc, char **argv)
{
	capture_args a;
	int rc;

	memset(&a, 0, sizeof a);
	vs_cli_emu_init(&a.emu, CMD);
	if ((rc = vs_cli_parse(&command, argc, argv, take, &a)) >= 0)
		return rc;
	if ((rc = vs_cli_emu_begin(&a.emu, 0, 0)) != 0)
		return rc;
	vs_ds_capture_options_default(&a.o);
	if (a.grace)
		a.o.grace = (uint32_t)a.grace;
	if (a.have_lookback)
		a.o.lookback = (uint32_t)a.lookback;
	if ((rc = vs_cli_emu_capture(&a.emu, capture, &a)) != 0)
		return rc;
	if (!a.emu.quiet)
		report(a.emu.rom, &a.st);
	if (!a.emu.quiet && vs_ds_emu_last_note())
		fprintf(stderr, "vramsim capture: note: %s\n", vs_ds_emu_last_note());
	return VS_EXIT_OK;
}
