/* SPDX-License-Identifier: Zlib */
/* cmd_capture.c - `vramsim capture`: run any GBA ROM headless and infer an
 * allocation trace from what it shows (docs/capture.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_emu.h"
#include "console/common/emu_guard.h"
#include "console/gba/gba_emu.h"

#define CMD "capture"

enum { O_GRACE = VS_CLI_EMU_OWN, O_SHEET, O_ARENAS, O_KEEP_HIDDEN, O_UPLOADS, O_ALLOC_FIRST };

static const vs_cli_opt options[] = {
	{ "frames", VS_CLI_EMU_FRAMES, "N", "frames to run and capture (60 a second)" },
	{ "input", VS_CLI_EMU_INPUT, "SCRIPT", "keys to hold, frame by frame (docs/capture.md, 'Input scripts')" },
	{ "state", VS_CLI_EMU_STATE, "FILE", "start from this mGBA savestate of the ROM instead of power-on" },
	{ "grace", O_GRACE, "N", "frames (1-600) a sprite may go unshown before its\ntiles count as freed (default 3)" },
	{ "sheet", O_SHEET, NULL, "the game loads whole sprite sheets: an upload is one allocation" },
	{ "arenas", O_ARENAS, "obj|bg|obj,bg", "which arenas to write (default both)" },
	{ "keep-hidden", O_KEEP_HIDDEN, NULL, "an engine's view: a sprite not shown keeps its tiles\nuntil they are overwritten" },
	{ "uploads", O_UPLOADS, NULL, "an engine's view: a sprite, BG map or BG tile is\nallocated at the first upload of its VRAM, up to 600\nframes before it is shown; OBJ and BG uploads nothing\nshows are allocations of their own" },
	{ "alloc-first", O_ALLOC_FIRST, NULL, "an engine's view: in a frame, new sprites come before\nthe frees (but on tiles freed that frame)" },
	{ "output", 'o', "TRACE", "where to write the trace ('-' for standard output)" },
	{ "quiet", VS_CLI_EMU_QUIET, NULL, "print nothing but errors" },
	{ NULL, 0, NULL, NULL }
};

static void gba_status(FILE *fp, int part)
{
	char status[1536];

	if (part != 1)
		return;
	vs_gba_status(status, sizeof status);
	fprintf(fp, "\nneeds: libmgba (libmgba-dev) at build time.\n%s", status);
}

static const vs_cli_cmd command = {
	CMD, "capture GAME.gba --frames N [--input SCRIPT] [--state FILE] [--grace N] [--sheet] [--keep-hidden]\n"
	"       [--uploads] [--alloc-first] -o TRACE",
	"Runs GAME.gba headless in libmgba (no window, no BIOS) and writes the allocation\n"
	"trace its video memory shows, inferred at every VBlank from the display registers,\n"
	"OAM and VRAM: sprites' tile ranges in OBJ VRAM, screen maps and tile references\n"
	"in BG VRAM, each at the game's own address. The game needs no change. Replay the\n"
	"trace with --strategy recorded for the game's own placement. The rules and what\n"
	"capture cannot know: docs/capture.md. A DS ROM (named *.nds, or with a DS\n"
	"cartridge header) runs on the DeSmuME libretro core instead:\n"
	"'vramsim capture GAME.nds --help'.\n",
	options,
	"exit: 0 captured, 1 no frame showed anything (the trace is written), 2 bad\n"
	"usage, not a GBA ROM, unreadable input script or savestate, the game crashed\n"
	"or never reached a new frame, libmgba crashed or hung on it (" VS_EMU_GUARD_CPU_TEXT " s of CPU in one\n"
	"call), or no emulator. Nothing is left at TRACE on 2.\n",
	gba_status, 0
};

typedef struct capture_args {
	vs_cli_emu emu; /* the options record and capture share */
	uint64_t grace;
	int sheet, obj, bg, keep_hidden, uploads, alloc_first;
	vs_capture_options o; /* made of the above */
	vs_capture_stats st;
} capture_args;

static int take_arenas(capture_args *a, const char *s)
{
	if (strcmp(s, "obj") == 0)
		a->obj = 1, a->bg = 0;
	else if (strcmp(s, "bg") == 0)
		a->obj = 0, a->bg = 1;
	else if (strcmp(s, "obj,bg") == 0 || strcmp(s, "bg,obj") == 0)
		a->obj = a->bg = 1;
	else
		return vs_cli_usage_error(CMD, "--arenas takes obj, bg or obj,bg (got '%s')", s);
	return -1;
}

/* One option or operand: -1 to go on, or an exit status. */
static int take(void *ud, const vs_cli_parser *p, int c)
{
	capture_args *a = ud;
	int rc = vs_cli_emu_take(&a->emu, p, c);

	if (rc != VS_CLI_NOT_SHARED)
		return rc;
	switch (c) {
	case O_GRACE:
		return vs_cli_uint(p, 1, VS_CAPTURE_WINDOW_MAX, &a->grace) ? VS_EXIT_USAGE : -1;
	case O_ARENAS:
		return take_arenas(a, p->arg);
	case O_SHEET:
		a->sheet = 1;
		break;
	case O_KEEP_HIDDEN:
		a->keep_hidden = 1;
		break;
	case O_UPLOADS:
		a->uploads = 1;
		break;
	default: /* O_ALLOC_FIRST */
		a->alloc_first = 1;
		break;
	}
	return -1;
}

static void report(const char *rom, const vs_capture_stats *s, int sheet)
{
	fprintf(stderr, "vramsim capture: %s: %llu frames; OBJ %llu allocations, %llu live at the end; "
		"BG %llu maps, %llu tile references, %u distinct tiles\n", rom, (unsigned long long)s->frames,
		(unsigned long long)s->obj_allocs, (unsigned long long)s->obj_live, (unsigned long long)s->bg_maps,
		(unsigned long long)s->bg_refs, (unsigned)s->rom_tiles);
	if (s->mid_frame)
		fprintf(stderr, "vramsim capture: note: %llu frames changed OAM or display registers while drawn; "
			"the trace shows them as they were at VBlank\n", (unsigned long long)s->mid_frame);
	if (s->mode_changes)
		fprintf(stderr, "vramsim capture: note: the display mode changed %llu times; the arenas keep "
			"mode %u of the first frame shown\n", (unsigned long long)s->mode_changes, s->first_mode);
	if (s->other_kind_frames)
		fprintf(stderr, "vramsim capture: note: %llu frames in a %s mode were not read (VRAM is laid out "
			"otherwise); --state or --input can start the capture in the part of the game you want\n",
			(unsigned long long)s->other_kind_frames, s->first_mode >= 3 && s->first_mode <= 5 ? "tiled" :
			"bitmap");
	if (!sheet && s->sheet_suspected)
		fprintf(stderr, "vramsim capture: note: the game seems to load whole sprite sheets "
			"(%llu tile switches inside one upload); --sheet treats a sheet as one allocation\n",
			(unsigned long long)s->sheet_switches);
	if (s->partial_overlaps || s->merged)
		fprintf(stderr, "vramsim capture: note: %llu sprites overlapped a live one other than inside it and %llu "
			"ranges were joined in a frame: those are written as the ranges the game showed, not its calls\n",
			(unsigned long long)s->partial_overlaps, (unsigned long long)s->merged);
	if (s->bg_conflicts || s->bg_map_clipped)
		fprintf(stderr, "vramsim capture: note: %llu map cells or maps on VRAM another allocation holds at another "
			"depth or as a map were not referenced, %llu maps were cut at the end of the BG area (a trace holds "
			"VRAM once: docs/capture.md, BG rule 5)\n", (unsigned long long)s->bg_conflicts,
			(unsigned long long)s->bg_map_clipped);
	if (s->zero_entries_max)
		fprintf(stderr, "vramsim capture: note: up to %u all-zero OAM entries a frame, each an 8x8 sprite "
			"on tile 0 as the hardware draws it\n", (unsigned)s->zero_entries_max);
}

static int capture(void *ud, const vs_cli_emu *e, FILE *out, char *err, size_t errlen)
{
	capture_args *a = ud;

	return vs_gba_capture(e->rom, &e->play, &a->o, out, &a->st, err, errlen);
}

int vs_cmd_capture(int argc, char **argv)
{
	capture_args a;
	int rc;

	memset(&a, 0, sizeof a);
	vs_cli_emu_init(&a.emu, CMD);
	a.obj = a.bg = 1;
	if ((rc = vs_cli_parse(&command, argc, argv, take, &a)) >= 0)
		return rc;
	if ((rc = vs_cli_emu_begin(&a.emu, 0, 1)) != 0)
		return rc;
	vs_capture_options_default(&a.o);
	if (a.grace)
		a.o.grace = (uint32_t)a.grace;
	a.o.sheet = a.sheet;
	a.o.keep_hidden = a.keep_hidden;
	a.o.uploads = a.uploads;
	a.o.alloc_first = a.alloc_first;
	a.o.obj = a.obj;
	a.o.bg = a.bg;
	if ((rc = vs_cli_emu_capture(&a.emu, capture, &a)) != 0)
		return rc;
	if (!a.emu.quiet)
		report(a.emu.rom, &a.st, a.sheet);
	/* a trace of nothing is no capture of the game: say so, and fail */
	if (a.st.blank_frames == a.st.frames) {
		fprintf(stderr, "vramsim capture: %s: none of the %llu frames showed anything (all force-blanked): the "
			"trace holds no allocation; run more frames, or start later with --input or --state\n", a.emu.rom,
			(unsigned long long)a.st.frames);
		return VS_EXIT_CHECK;
	}
	return VS_EXIT_OK;
}
