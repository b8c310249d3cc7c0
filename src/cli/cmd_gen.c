/* SPDX-License-Identifier: Zlib */
/* cmd_gen.c - `vramsim gen`: write a generated workload trace. */
#include <string.h>

#include "cli.h"
#include "gen/gen.h"
#include "gen/gen_ds.h"
#include "gen/gen_heap.h"

int vs_cmd_gen(int argc, char **argv);

#define CMD "gen"

/* The generators, from their table, and what each one does. */
static void list_generators(FILE *fp, int part)
{
	size_t i;

	if (part != 0)
		return;
	fprintf(fp, "\ngenerators:\n");
	for (i = 0; i < vs_generator_count(); i++) {
		const vs_generator *g = vs_generator_at(i);
		const vs_gen_figures *f = &g->figures;
		uint32_t calls10 = (uint32_t)(((uint64_t)f->allocs + f->frees) * 10 / g->default_frames);

		fprintf(fp, "  %-14s %s (default %u frames)\n", g->name, g->summary, (unsigned)g->default_frames);
		/* Measured from the default trace (seed 1); see vs_gen_figures. */
		fprintf(fp, "  %-14s %u allocs, %u frees, %u.%u calls a frame (max %u after the first),\n"
			"  %-14s peak live %u bytes", "", (unsigned)f->allocs, (unsigned)f->frees, (unsigned)(calls10 / 10),
			(unsigned)(calls10 % 10), (unsigned)f->max_calls, "", (unsigned)f->peak_live);
		if (f->failures)
			fprintf(fp, ", %u allocations fail under the default strategy", (unsigned)f->failures);
		fputc('\n', fp);
	}
	fprintf(fp, "\n"
		"  side-scroller  BG arena, mode 0. Four text BG layers (4bpp, 4bpp, 8bpp, 4bpp;\n"
		"                 parallax 1, 1, 1/2, 1/4) follow a camera that runs 0-4 px a\n"
		"                 frame, dashes at 8, jumps and falls, in any direction. Each\n"
		"                 non-zero map cell entering the 240x160 screen is one\n"
		"                 `alloc ID tile ROM BPP` (a reference), each cell leaving is one\n"
		"                 `free ID`. Zero cells are the transparent tile: no call, as\n"
		"                 seed 000 says. Four 2 KiB text maps are allocated first. Maps\n"
		"                 are generated (1024x64 cells of 2x2 metatiles, ROM tiles\n"
		"                 1-3600) unless --map gives a layer's own. --worst-case is the\n"
		"                 seed's \"about 500 tile checks a frame\": each layer keeps its\n"
		"                 whole 32x32-cell map and moves 8 px a frame in both axes, maps\n"
		"                 without transparent cells: every frame after the first is\n"
		"                 4 x 63 references and 4 x 63 frees, 504 checks.\n"
		"  sprite-churn   OBJ arena, mode 0. One minute of a shooter: player (swaps\n"
		"                 form every 600 frames), UI (digits, bar, icon; dialog boxes),\n"
		"                 up to 44 enemies (16x16 to 64x64, 15%% 8bpp), 48 bullets and\n"
		"                 64 particles (bursts when enemies die; 30%% 8bpp), within 128\n"
		"                 OAM entries and a 30 KiB budget; now and then the enemies leave\n"
		"                 and a 7 KiB boss comes in once the stage has made room for it.\n"
		"  level-change   OBJ arena, mode 0. Levels of 600-1200 frames, each with its\n"
		"                 resident sprite graphics (40-60%% of OBJ VRAM) and a shooter\n"
		"                 churn within a per-level budget of 85-95%% of the area; at a\n"
		"                 level change the whole set and every transient sprite is freed\n"
		"                 and the next set loaded in the same frame, while the player and\n"
		"                 UI stay.\n"
		"  boss-fight     OBJ arena, mode 0. Shooter stages of 10-20 s, each ending in\n"
		"                 a fight with one of three 10-13 KiB bosses (dragon, tank,\n"
		"                 golem) built of 64x64 and smaller parts: minions, volleys of\n"
		"                 fireballs and 64x32 beams, limbs breaking off into debris, a\n"
		"                 64x64 8bpp enraged head halfway, every part gone in an explosion\n"
		"                 at the end. 30 KiB budget.\n"
		"  bitmap-racer   OBJ arena in bitmap mode 4: sprites get tiles 512-1023 (16 KiB).\n"
		"                 HUD, the player's 64x32 car, seven opponents whose graphics\n"
		"                 change with distance (16x16 to 64x64, 30%% 8bpp: up to 128\n"
		"                 tiles), roadside props passing in 0.5-1.5 s, thrown items,\n"
		"                 blasts and dust. 15 KiB budget.\n"
		"  ds-sprites     Two ds-obj arenas: `main` (engine A) and `sub` (engine B,\n"
		"                 bank D). A DS action game: a player (three 32x32 8bpp\n"
		"                 frames) and HUD that stay; waves of enemies 16x16 to 64x64,\n"
		"                 40%% 8bpp, each with 1-4 animation frames in VRAM; now and\n"
		"                 then a 23 KiB nine-part boss (parts break off, the head grows\n"
		"                 to 64x64 8bpp halfway); shots (8x8-16x16) every few frames,\n"
		"                 sparks when enemies die; within 128 OAM entries. The sub\n"
		"                 screen is a touch UI: pages of bitmap buttons and panels\n"
		"                 (64x32, 32x32, 64x64 bmp) and 8bpp icons, replaced every\n"
		"                 5-15 s, icons changing and buttons lighting up. --boundary\n"
		"                 (default 128, libnds's SpriteMapping_1D_128) sets both\n"
		"                 engines' 1D boundary, and engine A maps what 1024 tiles of\n"
		"                 it reach: 32 F0G1, 64 E0, 128 A0, 256 A0B1. The game counts\n"
		"                 each sprite at its size rounded up to the boundary, with a\n"
		"                 budget of 93%% of engine A and 70%% of engine B: at 128 the\n"
		"                 busiest moments fill engine A to about 90%%.\n"
		"  ds-3d          A ds-tex arena (banks A-D) and a ds-pltt arena (bank E): a\n"
		"                 videoGL game. Kept all game: a 4-colour font, direct and\n"
		"                 16-colour HUD, the player's 256-colour textures sharing one\n"
		"                 palette. Levels of 500-900 frames free every level texture\n"
		"                 and load Tex4x4 terrain (two shared palettes), a sky,\n"
		"                 animated textures (first upload and every 4-12 frames a\n"
		"                 `realloc` of the same size and format) and models of 1-3\n"
		"                 16/256-colour textures sharing a palette, to 65-82%% of the\n"
		"                 texture space; A3I5/A5I3 effects (their palettes shared) come\n"
		"                 and go, models stream in and out, within 90%%. A shared\n"
		"                 palette is allocated with its first texture and freed with\n"
		"                 its last. --remap: the second level frees everything, runs\n"
		"                 without bank D (`lock D`, `vramcnt D 0x80`) and the third\n"
		"                 gives it back (`vramcnt D 0x9b`, `unlock D`); only strategies\n"
		"                 that read VRAMCNT (libnds-tex) keep off the bank.\n");
}

enum { O_SEED = VS_CLI_LONG, O_FRAMES, O_MAP, O_MAP_WIDTH, O_WORST_CASE, O_ARENA_SIZE, O_SIZES, O_LIFETIME, O_ALLOCS, O_FILL, O_BOUNDARY, O_REMAP };

static const vs_cli_opt options[] = {
	{ "seed", O_SEED, "N", "random seed (default 1)" },
	{ "frames", O_FRAMES, "N", "frames to generate (default: the generator's)" },
	{ "output", 'o', "FILE", "write to FILE instead of standard output" },
	{ "map", O_MAP, "L=FILE", "side-scroller: layer L (0-3) reads its map from FILE: CSV if "
		"the name ends in .csv (one row a line), else raw little-endian "
		"u16 cells; values are ROM tile indices (0-4095, 0 transparent); "
		"at least 32x32 cells. Give 8bpp layer 2 indices of its own." },
	{ "map-width", O_MAP_WIDTH, "N", "cells per row of raw maps" },
	{ "worst-case", O_WORST_CASE, NULL, "side-scroller: seed 000's worst case: every layer keeps its whole "
		"32x32-cell map and moves 8 px a frame in both axes (no parallax), generated maps have no "
		"transparent cells: 504 tile checks a frame" },
	{ "arena-size", O_ARENA_SIZE, "BYTES", "heap-churn: the RAM arena's size (K/M suffixes, 512 to 256M: "
		"the default heap, heap-dlmalloc, keeps 344 bytes of its own; default 1M)" },
	{ "sizes", O_SIZES, "DIST", "heap-churn: request sizes in bytes, uniform:LO-HI, log:LO-HI "
		"(each doubling equally likely) or exp:MEAN-MAX (exponential, cut at MAX); default log:8-4096" },
	{ "lifetime", O_LIFETIME, "DIST", "heap-churn: how many allocations later each one is freed, "
		"as --sizes; default exp:500-20000" },
	{ "allocs", O_ALLOCS, "N", "heap-churn: allocations a frame (default 32)" },
	{ "fill", O_FILL, "PERCENT", "heap-churn: live requests stay within this much of the arena; "
		"past it the allocations due soonest are freed first (default 75)" },
	{ "boundary", O_BOUNDARY, "32|64|128|256", "ds-sprites: the 1D OBJ tile boundary in bytes (default 128, "
		"libnds's SpriteMapping_1D_128); engine A maps the banks 1024 tiles of it reach" },
	{ "remap", O_REMAP, NULL, "ds-3d: a level with bank D taken from the texture slots (lock D, VRAMCNT_D "
		"to LCDC) and given back at the next level (VRAMCNT_D to slot 3, unlock D)" },
	{ NULL, 0, NULL, NULL }
};

static const vs_cli_cmd command = {
	CMD, "gen GENERATOR [--seed N] [--frames N] [-o FILE]\n"
	"                  [--map LAYER=FILE ...] [--map-width N] [--worst-case]\n"
	"                  [--boundary 32|64|128|256] [--remap]",
	"Writes a workload trace (format v1, canonical form) to FILE or standard\n"
	"output. The same generator, seed and frame count give the same trace.\n",
	options, NULL, list_generators, 0
};

typedef struct gen_args {
	vs_gen_opts o;
	vs_gen_heap_opts heap;
	int heap_set;  /* a heap-churn option was given */
	vs_gen_ds_opts ds;
	int boundary_set;
	const vs_generator *g;
	const char *out;
} gen_args;

/* The heap-churn options: -1 to go on, or an exit status. */
static int take_heap(gen_args *a, const vs_cli_parser *p, int c)
{
	vs_gen_heap_opts *h = &a->heap;
	char why[256];
	uint64_t v;

	a->heap_set = 1;
	switch (c) {
	case O_ARENA_SIZE:
		/* at least what the trace's own heap takes: a smaller arena made a
		 * trace its replay refused */
		if (vs_cli_bytes(p, 512, 256u << 20, &v))
			return VS_EXIT_USAGE;
		h->arena_size = (uint32_t)v;
		return -1;
	case O_SIZES:
	case O_LIFETIME:
		if (vs_gen_dist_parse(p->arg, c == O_SIZES ? 256u << 20 : 100000000u, c == O_SIZES ? &h->sizes : &h->lifetime,
			why, sizeof why))
			return vs_cli_usage_error(CMD, "--%s %s", c == O_SIZES ? "sizes" : "lifetime", why);
		return -1;
	case O_ALLOCS:
		if (vs_cli_uint(p, 1, 100000, &v))
			return VS_EXIT_USAGE;
		h->allocs = (uint32_t)v;
		return -1;
	default:
		if (vs_cli_uint(p, 1, 100, &v))
			return VS_EXIT_USAGE;
		h->fill = (uint32_t)v;
		return -1;
	}
}

/* One option or operand: -1 to go on, or an exit status. */
static int take(void *ud, const vs_cli_parser *p, int c)
{
	gen_args *a = ud;
	vs_gen_opts *o = &a->o;
	uint64_t v;

	switch (c) {
	case O_SEED:
		return vs_cli_uint(p, 0, UINT64_MAX, &o->seed) ? VS_EXIT_USAGE : -1;
	case O_FRAMES:
		if (vs_cli_uint(p, 1, 10000000, &v))
			return VS_EXIT_USAGE;
		o->frames = (uint32_t)v;
		return -1;
	case 'o':
		a->out = p->arg;
		return -1;
	case O_MAP:
		if (p->arg[0] < '0' || p->arg[0] > '3' || p->arg[1] != '=' || !p->arg[2])
			return vs_cli_usage_error(CMD, "--map %s: expected LAYER=FILE with LAYER 0-3", p->arg);
		o->maps[p->arg[0] - '0'] = p->arg + 2;
		return -1;
	case O_MAP_WIDTH:
		if (vs_cli_uint(p, 1, 65535, &v))
			return VS_EXIT_USAGE;
		o->map_width = (uint32_t)v;
		return -1;
	case O_WORST_CASE:
		o->worst_case = 1;
		return -1;
	case O_BOUNDARY:
		if (vs_cli_uint(p, 32, 256, &v))
			return VS_EXIT_USAGE;
		if (v != 32 && v != 64 && v != 128 && v != 256)
			return vs_cli_usage_error(CMD, "--boundary %s: expected 32, 64, 128 or 256", p->arg);
		a->ds.boundary = (uint32_t)v;
		a->boundary_set = 1;
		return -1;
	case O_REMAP:
		a->ds.remap = 1;
		return -1;
	case O_ARENA_SIZE:
	case O_SIZES:
	case O_LIFETIME:
	case O_ALLOCS:
	case O_FILL:
		return take_heap(a, p, c);
	}
	if (a->g)
		return vs_cli_usage_error(CMD, "one generator at a time (%s and %s)", a->g->name, p->arg);
	if (!(a->g = vs_generator_find(p->arg)))
		return vs_cli_usage_error(CMD, "unknown generator '%s'", p->arg);
	return -1;
}

int vs_cmd_gen(int argc, char **argv)
{
	gen_args a = { { 0 }, { 0 }, 0, { 0 }, 0, NULL, NULL };
	const vs_generator *g;
	const char *out;
	char err[1024];
	FILE *fp;
	int i, rc;

	vs_gen_opts_default(&a.o);
	vs_gen_heap_opts_default(&a.heap);
	vs_gen_ds_opts_default(&a.ds);
	if ((rc = vs_cli_parse(&command, argc, argv, take, &a)) >= 0)
		return rc;
	g = a.g;
	out = a.out;
	if (!g)
		return vs_cli_usage_error(CMD, "name a generator");
	if (g->run != vs_gen_side_scroller)
		for (i = 0; i < VS_GEN_LAYERS; i++)
			if (a.o.maps[i])
				return vs_cli_usage_error(CMD, "--map is for side-scroller only");
	if (a.o.worst_case && g->run != vs_gen_side_scroller)
		return vs_cli_usage_error(CMD, "--worst-case is for side-scroller only");
	if (a.heap_set && g->run != vs_gen_heap_churn)
		return vs_cli_usage_error(CMD, "--arena-size, --sizes, --lifetime, --allocs and --fill are for heap-churn only");
	if (a.boundary_set && g->run != vs_gen_ds_sprites)
		return vs_cli_usage_error(CMD, "--boundary is for ds-sprites only");
	if (a.ds.remap && g->run != vs_gen_ds_3d)
		return vs_cli_usage_error(CMD, "--remap is for ds-3d only");
	fp = vs_cli_out_open(out ? out : "-", 0); /* "-": standard output, whose failure it names */
	if (!fp)
		return VS_EXIT_USAGE;
	err[0] = '\0';
	if (g->run == vs_gen_heap_churn)
		rc = vs_gen_heap_churn_with(fp, &a.o, &a.heap, err, sizeof err);
	else if (g->run == vs_gen_ds_sprites)
		rc = vs_gen_ds_sprites_with(fp, &a.o, &a.ds, err, sizeof err);
	else if (g->run == vs_gen_ds_3d)
		rc = vs_gen_ds_3d_with(fp, &a.o, &a.ds, err, sizeof err);
	else
		rc = g->run(fp, &a.o, err, sizeof err);
	if (rc && err[0])
		fprintf(stderr, "vramsim gen: %s\n", err);
	if (vs_cli_out_close(fp, rc == 0))
		rc = -1;
	return rc ? VS_EXIT_USAGE : VS_EXIT_OK;
}
